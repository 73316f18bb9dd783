// Conditional tasks (aclmdlRICondHandleCreate, aclmdlRIAddCondTask): when the model runs, the
// task reads its condition value and runs the branch it selects (IF, SWITCH), or its body while
// the value is non-zero (WHILE); each branch is a model captured with
// aclmdlRICaptureToModelRIBegin.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "model_ri_fixture.h"

namespace {

class ModelRiCond : public ModelRiCapture {
 protected:
    void SetUp() override {
        ModelRiCapture::SetUp();
        ASSERT_EQ(aclrtCreateStream(&branch_stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStream(branch_stream_);
        ModelRiCapture::TearDown();
    }

    // Begins capturing stream_, makes a condition handle and adds a conditional task of `type`
    // with `size` branches; returns the parent being captured.
    aclmdlRI BeginWithCond(aclmdlRICondTaskType type, uint32_t size, uint32_t flag,
                           uint32_t default_value) {
        EXPECT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
        aclmdlRICaptureStatus status{};
        aclmdlRI parent = nullptr;
        EXPECT_EQ(aclmdlRICaptureGetInfo(stream_, &status, &parent), ACL_SUCCESS);
        EXPECT_EQ(aclmdlRICondHandleCreate(parent, default_value,
                                           static_cast<aclmdlRICondHandleFlag>(flag), &handle_),
                  ACL_SUCCESS);
        EXPECT_EQ(aclmdlRICondHandleGetCondPtr(handle_, &cond_), ACL_SUCCESS);
        branches_.assign(size, nullptr);
        aclmdlRICondTaskParams params{handle_, type, size, branches_.data()};
        EXPECT_EQ(aclmdlRIAddCondTask(params, stream_, 0), ACL_SUCCESS);
        return parent;
    }
    // Captures `work` on the branch stream into branch i.
    template <class Work>
    void CaptureBranch(uint32_t i, Work work) {
        ASSERT_EQ(aclmdlRICaptureToModelRIBegin(branch_stream_, branches_[i],
                                                ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
                  ACL_SUCCESS);
        work(branch_stream_);
        aclmdlRI done = nullptr;
        ASSERT_EQ(aclmdlRICaptureEnd(branch_stream_, &done), ACL_SUCCESS);
        EXPECT_EQ(done, branches_[i]);
    }
    aclmdlRI End() {
        aclmdlRI model = nullptr;
        EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
        return model;
    }
    void SetCond(uint64_t value) {
        ASSERT_EQ(aclrtMemcpy(cond_, 8, &value, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    void Run(aclmdlRI model) {
        ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    }

    aclrtStream branch_stream_ = nullptr;
    aclmdlRICondHandle handle_ = nullptr;
    uint64_t* cond_ = nullptr;
    std::vector<aclmdlRI> branches_;
};

TEST_F(ModelRiCond, IfRunsTheFirstBranchOnNonZeroAndTheSecondOnZero) {
    BeginWithCond(ACL_MODEL_RI_COND_TYPE_IF, 2, 0, 0);
    CaptureBranch(0, [&](aclrtStream s) { ASSERT_EQ(Add(x_, y_, z_, s), ACL_SUCCESS); });
    CaptureBranch(1, [&](aclrtStream s) { ASSERT_EQ(Add(x_, x_, z_, s), ACL_SUCCESS); });
    aclmdlRI model = End();
    SetCond(1);
    Run(model);
    EXPECT_EQ(Read(z_)[6], 7.0f) << "then: z = x + y";
    SetCond(0);
    Run(model);
    EXPECT_EQ(Read(z_)[6], 12.0f) << "else: z = 2x";
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCond, WhileRunsItsBodyUntilTheBodyClearsTheValue) {
    // ASSIGN_DEFAULT: every run starts from 3; the body counts it down with a host function.
    BeginWithCond(ACL_MODEL_RI_COND_TYPE_WHILE, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, 3);
    CaptureBranch(0, [&](aclrtStream s) {
        ASSERT_EQ(Add(x_, y_, y_, s), ACL_SUCCESS);  // y += x
        ASSERT_EQ(
            aclrtLaunchHostFunc(
                s, [](void* cond) { std::atomic_ref<uint64_t>(*static_cast<uint64_t*>(cond))--; },
                static_cast<void*>(cond_)),
            ACL_SUCCESS);
    });
    aclmdlRI model = End();
    Run(model);
    EXPECT_EQ(Read(y_)[5], 16.0f) << "three rounds of y += x";
    Run(model);
    EXPECT_EQ(Read(y_)[5], 31.0f) << "the default was assigned again";
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCond, SwitchRunsTheBranchTheValueNamesAndNothingPastTheLast) {
    BeginWithCond(ACL_MODEL_RI_COND_TYPE_SWITCH, 3, 0, 0);
    void* outs[3] = {x_, y_, z_};
    for (uint32_t i = 0; i < 3; ++i) {
        CaptureBranch(i, [&](aclrtStream s) {
            ASSERT_EQ(aclrtMemsetAsync(outs[i], kBytes, 0, kBytes, s), ACL_SUCCESS);
        });
    }
    aclmdlRI model = End();
    SetCond(7);
    Run(model);
    EXPECT_EQ(Read(x_)[3], 3.0f);
    EXPECT_EQ(Read(y_)[3], 1.0f);
    SetCond(1);
    Run(model);
    EXPECT_EQ(Read(x_)[3], 3.0f);
    EXPECT_EQ(Read(y_)[3], 0.0f) << "branch 1 cleared y";
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelRiCond, ABranchBelongsToItsParent) {
    aclmdlRI parent = BeginWithCond(ACL_MODEL_RI_COND_TYPE_IF, 1, 0, 0);
    EXPECT_NE(parent, nullptr);
    ASSERT_EQ(aclmdlRICaptureToModelRIBegin(branch_stream_, branches_[0],
                                            ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
              ACL_SUCCESS);
    aclmdlRI model = nullptr;
    EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING);
    aclmdlRI done = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(branch_stream_, &done), ACL_SUCCESS);
    model = End();
    EXPECT_EQ(aclmdlRIDestroy(branches_[0]), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlRIExecuteAsync(branches_[0], stream_), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(branches_[0]), ACL_ERROR_INVALID_PARAM) << "gone with its parent";
}

TEST_F(ModelRiCond, AHandleDrivesOneTaskOfTheCaptureThatMadeIt) {
    BeginWithCond(ACL_MODEL_RI_COND_TYPE_IF, 1, 0, 0);
    aclmdlRI more[1] = {};
    aclmdlRICondTaskParams again{handle_, ACL_MODEL_RI_COND_TYPE_IF, 1, more};
    EXPECT_EQ(aclmdlRIAddCondTask(again, stream_, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlRIAddCondTask(again, branch_stream_, 0), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    aclmdlRI model = End();
    aclmdlRICondHandle late = nullptr;
    EXPECT_EQ(aclmdlRICondHandleCreate(model, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &late),
              ACL_ERROR_INVALID_PARAM)
        << "the capture has ended";
    Run(model);  // the branch was never captured: it runs nothing
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

}  // namespace
