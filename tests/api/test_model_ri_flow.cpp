// Control flow in built models: streams bound with ACL_MODEL_STREAM_FLAG_DEFAULT run when
// another activates them (aclrtActiveStream); aclrtSwitchStream hands the run to another stream
// when its comparison holds; aclrtSwitchLabelByIndex jumps to a label (aclrtSetLabel), also
// backwards, which makes loops.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "model_ri_fixture.h"

namespace {

class ModelRiFlow : public ModelRiCapture {
 protected:
    void SetUp() override {
        ModelRiCapture::SetUp();
        for (aclrtStream* s : {&a_, &b_})
            ASSERT_EQ(aclrtCreateStreamWithConfig(s, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&values_, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemset(values_, 64, 0, 64), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRIBuildBegin(&model_, 0), ACL_SUCCESS);
    }
    void TearDown() override {
        if (model_ != nullptr) aclmdlRIDestroy(model_);
        for (aclrtLabel label : labels_)
            aclrtDestroyLabel(label);
        aclrtFree(values_);
        aclrtDestroyStream(a_);
        aclrtDestroyStream(b_);
        ModelRiCapture::TearDown();
    }
    aclrtLabel NewLabel() {
        aclrtLabel label = nullptr;
        EXPECT_EQ(aclrtCreateLabel(&label), ACL_SUCCESS);
        labels_.push_back(label);
        return label;
    }
    aclrtLabelList List(std::vector<aclrtLabel> labels) {
        aclrtLabelList list = nullptr;
        EXPECT_EQ(aclrtCreateLabelList(labels.data(), labels.size(), &list), ACL_SUCCESS);
        return list;
    }
    // The 4-byte slot i of a small device buffer, for indexes and compared values.
    uint32_t* Slot(int i) { return static_cast<uint32_t*>(values_) + i; }
    void Put(int i, uint32_t value) {
        ASSERT_EQ(aclrtMemcpy(Slot(i), 4, &value, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    void EndBuild() {
        ASSERT_EQ(aclmdlRIEndTask(model_, a_), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRIBuildEnd(model_, nullptr), ACL_SUCCESS);
    }
    void Run() { ASSERT_EQ(aclmdlRIExecute(model_, 5000), ACL_SUCCESS); }

    aclrtStream a_ = nullptr;
    aclrtStream b_ = nullptr;
    void* values_ = nullptr;
    aclmdlRI model_ = nullptr;
    std::vector<aclrtLabel> labels_;
};

TEST_F(ModelRiFlow, ADefaultStreamRunsOnlyWhenActivated) {
    ASSERT_EQ(aclmdlRIBindStream(model_, a_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBindStream(model_, b_, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, b_), ACL_SUCCESS);
    ASSERT_EQ(aclrtActiveStream(b_, a_), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIEndTask(model_, b_), ACL_SUCCESS);
    EndBuild();
    Run();
    EXPECT_EQ(Read(z_)[4], 5.0f) << "a activated b";

    aclmdlRI idle = nullptr;
    aclrtStream c = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&c, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBuildBegin(&idle, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBindStream(idle, c, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(z_, kBytes, 0, kBytes, c), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIEndTask(idle, c), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBuildEnd(idle, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecute(idle, 5000), ACL_SUCCESS);
    EXPECT_EQ(Read(z_)[4], 5.0f) << "nothing activated c";
    EXPECT_EQ(aclmdlRIDestroy(idle), ACL_SUCCESS);
    aclrtDestroyStream(c);
}

TEST_F(ModelRiFlow, SwitchStreamHandsTheRunToItsTargetWhenTheComparisonHolds) {
    ASSERT_EQ(aclmdlRIBindStream(model_, a_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBindStream(model_, b_, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
    ASSERT_EQ(
        aclrtSwitchStream(Slot(0), ACL_RT_GREATER, Slot(1), ACL_RT_SWITCH_INT32, b_, nullptr, a_),
        ACL_SUCCESS);
    ASSERT_EQ(Add(x_, x_, z_, a_), ACL_SUCCESS);  // not taken: z = 2x
    ASSERT_EQ(Add(x_, y_, z_, b_), ACL_SUCCESS);  // taken: z = x + 1
    EndBuild();
    Put(0, 5);
    Put(1, 3);
    Run();
    EXPECT_EQ(Read(z_)[4], 5.0f) << "5 > 3";
    Put(0, 2);
    Run();
    EXPECT_EQ(Read(z_)[4], 8.0f) << "2 > 3 does not hold";
}

TEST_F(ModelRiFlow, SwitchLabelByIndexJumpsToTheLabelTheIndexNames) {
    ASSERT_EQ(aclmdlRIBindStream(model_, a_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    aclrtLabel first = NewLabel(), second = NewLabel(), end = NewLabel();
    aclrtLabelList branches = List({first, second});
    aclrtLabelList done = List({end});
    ASSERT_EQ(aclrtSwitchLabelByIndex(Slot(0), 2, branches, a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetLabel(first, a_), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, a_), ACL_SUCCESS);                            // z = x + 1
    ASSERT_EQ(aclrtSwitchLabelByIndex(Slot(1), 1, done, a_), ACL_SUCCESS);  // to the end
    ASSERT_EQ(aclrtSetLabel(second, a_), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, x_, z_, a_), ACL_SUCCESS);  // z = 2x
    ASSERT_EQ(aclrtSetLabel(end, a_), ACL_SUCCESS);
    EndBuild();
    ASSERT_EQ(aclrtDestroyLabelList(branches), ACL_SUCCESS) << "the model keeps its targets";
    ASSERT_EQ(aclrtDestroyLabelList(done), ACL_SUCCESS);
    Put(0, 0);
    Run();
    EXPECT_EQ(Read(z_)[6], 7.0f);
    Put(0, 1);
    Run();
    EXPECT_EQ(Read(z_)[6], 12.0f);
    ASSERT_EQ(aclrtMemset(z_, kBytes, 0, kBytes), ACL_SUCCESS);
    Put(0, 9);
    Run();
    EXPECT_EQ(Read(z_)[6], 12.0f) << "an index past the end goes to the last label";
}

std::atomic<int> g_rounds_left{0};

TEST_F(ModelRiFlow, AJumpBackwardsMakesALoop) {
    ASSERT_EQ(aclmdlRIBindStream(model_, a_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    aclrtLabel top = NewLabel(), out = NewLabel();
    aclrtLabelList targets = List({top, out});
    ASSERT_EQ(aclrtSetLabel(top, a_), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, y_, a_), ACL_SUCCESS);  // y += x
    ASSERT_EQ(aclrtLaunchHostFunc(
                  a_,
                  [](void* index) {  // 0 (again) while rounds are left, then 1 (out)
                      *static_cast<uint32_t*>(index) = --g_rounds_left > 0 ? 0 : 1;
                  },
                  Slot(0)),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSwitchLabelByIndex(Slot(0), 2, targets, a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetLabel(out, a_), ACL_SUCCESS);
    EndBuild();
    g_rounds_left = 3;
    Run();
    EXPECT_EQ(Read(y_)[5], 16.0f) << "three rounds of y += x";
    aclrtDestroyLabelList(targets);
}

TEST_F(ModelRiFlow, AbortDiscardsWhatTheRunHasNotStarted) {
    ASSERT_EQ(aclmdlRIBindStream(model_, a_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBindStream(model_, b_, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(
                  a_, [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(300)); },
                  nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtActiveStream(b_, a_), ACL_SUCCESS);
    ASSERT_EQ(Add(x_, y_, z_, b_), ACL_SUCCESS);
    EndBuild();
    ASSERT_EQ(aclmdlRIExecuteAsync(model_, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIAbort(model_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << "the caller's stream goes on";
    EXPECT_EQ(Read(z_)[2], 0.0f);
    Run();  // and the model runs again
    EXPECT_EQ(Read(z_)[2], 3.0f);
}

TEST_F(ModelRiFlow, LabelsAndSwitchesBelongToBoundStreamsOfOneContext) {
    aclrtLabel label = NewLabel();
    EXPECT_EQ(aclrtSetLabel(label, stream_), ACL_ERROR_RT_STREAM_MODEL) << "stream_ is not bound";
    ASSERT_EQ(aclmdlRIBindStream(model_, a_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBindStream(model_, b_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    EXPECT_EQ(aclrtActiveStream(b_, a_), ACL_ERROR_INVALID_PARAM) << "b starts with the model";
    EXPECT_EQ(aclrtSwitchStream(Slot(0), ACL_RT_EQUAL, Slot(1), ACL_RT_SWITCH_INT32, b_, b_, a_),
              ACL_ERROR_INVALID_PARAM)
        << "falseStream is reserved";
    EXPECT_EQ(aclrtActiveStream(b_, stream_), ACL_ERROR_RT_STREAM_MODEL);
    aclrtContext other = nullptr, mine = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&mine), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
    aclrtLabel foreign = nullptr;
    ASSERT_EQ(aclrtCreateLabel(&foreign), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetCurrentContext(mine), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetLabel(foreign, a_), ACL_ERROR_RT_LABEL_CONTEXT);
    EXPECT_EQ(aclrtDestroyLabel(foreign), ACL_SUCCESS);
    aclrtLabelList list = List({label});
    ASSERT_EQ(aclrtSwitchLabelByIndex(Slot(0), 1, list, a_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSwitchLabelByIndex(Slot(0), 2, list, a_), ACL_ERROR_INVALID_PARAM)
        << "maxValue past the list";
    ASSERT_EQ(aclmdlRIEndTask(model_, a_), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIBuildEnd(model_, nullptr), ACL_ERROR_INVALID_PARAM)
        << "the label it jumps to was never set";
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtSetLabel"), std::string::npos);
    aclrtDestroyLabelList(list);
    EXPECT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
}

}  // namespace
