// The two-phase protocol: an executor serves one second phase of its own operator unless made
// repeatable; the second phase checks memory, queues one task in stream order that graph
// capture records; callers may destroy their objects as soon as it returns; and operators
// openacl lacks are absent from libopapi.so, as clients that probe for them need.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_index_select.h"

using aclnn_test::DeviceTensor;
using aclnn_test::RunPhase2;
using aclnn_test::Scalar;

namespace {

class OpExecutor : public aclnn_test::AclnnTest {
 protected:
    // An executor of out = a + b.
    aclOpExecutor* PlanAdd(const aclTensor* a, const aclTensor* b, const aclTensor* out) {
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(aclnnAddGetWorkspaceSize(a, b, one_.get(), const_cast<aclTensor*>(out),
                                           &workspace, &executor),
                  ACLNN_SUCCESS);
        return executor;
    }

    std::string Message() {
        const char* message = aclGetRecentErrMsg();
        return message != nullptr ? message : "";
    }

    Scalar one_{1.0f, ACL_FLOAT};
    DeviceTensor<float> a_{{3}, {1, 2, 3}, ACL_FLOAT};
    DeviceTensor<float> b_{{3}, {10, 20, 30}, ACL_FLOAT};
    DeviceTensor<float> out_{{3}, {0, 0, 0}, ACL_FLOAT};
};

TEST_F(OpExecutor, ASecondPhaseConsumesAnOrdinaryExecutor) {
    aclOpExecutor* executor = PlanAdd(a_.get(), b_.get(), out_.get());
    ASSERT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(Message().find("aclSetAclOpExecutorRepeatable"), std::string::npos);
    EXPECT_EQ(out_.Read(), (std::vector<float>{11, 22, 33}));
}

TEST_F(OpExecutor, AnExecutorRunsOnlyInItsOwnOperatorsSecondPhase) {
    aclOpExecutor* executor = PlanAdd(a_.get(), b_.get(), out_.get());
    EXPECT_EQ(aclnnAdds(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(Message().find("aclnnAddGetWorkspaceSize"), std::string::npos);
    EXPECT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACLNN_SUCCESS);  // still its own
}

TEST_F(OpExecutor, ANullExecutorIsParamNullptr) {
    EXPECT_EQ(aclnnAdd(nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(OpExecutor, ARepeatableExecutorRunsUntilDestroyed) {
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnInplaceAddGetWorkspaceSize(a_.get(), b_.get(), one_.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(aclnnInplaceAdd(nullptr, 0, executor, nullptr), 0);
    EXPECT_EQ(a_.Read(), (std::vector<float>{31, 62, 93}));
    ASSERT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    EXPECT_EQ(aclnnInplaceAdd(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(OpExecutor, SetInputTensorAddrMovesARepeatableExecutorsInput) {
    aclOpExecutor* executor = PlanAdd(a_.get(), b_.get(), out_.get());
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    DeviceTensor<float> moved({3}, {100, 200, 300}, ACL_FLOAT);
    ASSERT_EQ(aclSetInputTensorAddr(executor, 1, b_.get(), moved.dev()), ACLNN_SUCCESS);
    ASSERT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(out_.Read(), (std::vector<float>{101, 202, 303}));
    void* address = nullptr;
    ASSERT_EQ(aclGetRawTensorAddr(b_.get(), &address), ACLNN_SUCCESS);
    EXPECT_EQ(address, moved.dev()) << "the tensor records the new address too";
    ASSERT_EQ(aclSetInputTensorAddr(executor, 1, b_.get(), b_.dev()), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
}

TEST_F(OpExecutor, SetTensorAddrCountsInputsThenOutputs) {
    aclOpExecutor* executor = PlanAdd(a_.get(), b_.get(), out_.get());
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    DeviceTensor<float> other_out({3}, {0, 0, 0}, ACL_FLOAT);
    ASSERT_EQ(AclSetTensorAddr(executor, 2, out_.get(), other_out.dev()), ACLNN_SUCCESS);
    ASSERT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(other_out.Read(), (std::vector<float>{11, 22, 33}));
    EXPECT_EQ(aclSetOutputTensorAddr(executor, 1, out_.get(), nullptr), ACLNN_ERR_PARAM_INVALID)
        << "Add has one output";
    EXPECT_EQ(aclSetTensorAddr(executor, 3, out_.get(), nullptr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
}

TEST_F(OpExecutor, HostMemoryIsRefusedAtTheSecondPhase) {
    std::vector<float> host(3, 1.0f);
    const int64_t dims[1] = {3};
    aclTensor* on_host =
        aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, host.data());
    aclOpExecutor* executor = PlanAdd(on_host, b_.get(), out_.get());
    EXPECT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(Message().find("device memory"), std::string::npos);
    aclDestroyTensor(on_host);
}

TEST_F(OpExecutor, ATensorWithoutAnAddressIsRefused) {
    const int64_t dims[1] = {3};
    aclTensor* unset =
        aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);
    aclOpExecutor* executor = PlanAdd(a_.get(), unset, out_.get());
    EXPECT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_NE(Message().find("no device address"), std::string::npos);
    aclDestroyTensor(unset);
}

TEST_F(OpExecutor, AViewReachingPastItsAllocationIsRefused) {
    const int64_t dims[1] = {64}, storage[1] = {64};
    aclTensor* big = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1,
                                     a_.dev());  // the allocation holds 3 floats (128 B padded)
    DeviceTensor<float> out({64}, std::vector<float>(64, 0), ACL_FLOAT);
    aclOpExecutor* executor = PlanAdd(big, big, out.get());
    EXPECT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(Message().find("allocation has"), std::string::npos);
    aclDestroyTensor(big);
}

TEST_F(OpExecutor, AViewLongerThanItsStorageIsRefusedAtTheFirstPhase) {
    const int64_t dims[1] = {4}, storage[1] = {3};
    aclTensor* view =
        aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, a_.dev());
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnAddGetWorkspaceSize(view, view, one_.get(), view, &workspace, &executor),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(Message().find("storageDims hold 3"), std::string::npos);
    aclDestroyTensor(view);
}

// ggml-cann describes a view at an element offset with storageDims of the view alone.
TEST_F(OpExecutor, StorageDimsMayCountFromTheViewsOffset) {
    DeviceTensor<float> buffer({8}, {0, 0, 0, 0, 1, 2, 3, 4}, ACL_FLOAT);
    DeviceTensor<float> out({4}, std::vector<float>(4, 0), ACL_FLOAT);
    const int64_t dims[1] = {4}, storage[1] = {4};
    aclTensor* tail =
        aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 4, ACL_FORMAT_ND, storage, 1, buffer.dev());
    aclOpExecutor* executor = PlanAdd(tail, tail, out.get());
    ASSERT_NE(executor, nullptr);
    ASSERT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACLNN_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{2, 4, 6, 8}));
    aclDestroyTensor(tail);
}

void Block(void* flag) {
    while (!static_cast<std::atomic<bool>*>(flag)->load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

TEST_F(OpExecutor, ObjectsMayBeDestroyedRightAfterTheSecondPhase) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    std::atomic<bool> release{false};
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Block, &release), ACL_SUCCESS);  // holds the stream
    const int64_t dims[1] = {3};
    aclTensor* a =
        aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, a_.dev());
    aclTensor* out =
        aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, out_.dev());
    float two = 2.0f;
    aclScalar* alpha = aclCreateScalar(&two, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnAddGetWorkspaceSize(a, b_.get(), alpha, out, &workspace, &executor), 0);
    ASSERT_EQ(aclnnAdd(nullptr, 0, executor, stream), ACLNN_SUCCESS);
    aclDestroyTensor(a);  // as ggml and the PyTorch adapter do, before the stream runs
    aclDestroyTensor(out);
    aclDestroyScalar(alpha);
    release = true;
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(out_.Read(), (std::vector<float>{21, 42, 63}));
    aclrtDestroyStream(stream);
}

TEST_F(OpExecutor, ACapturedOperatorRunsAtEachReplay) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnInplaceAddGetWorkspaceSize(a_.get(), b_.get(), one_.get(), &workspace, &executor),
        ACLNN_SUCCESS);
    ASSERT_EQ(aclnnInplaceAdd(nullptr, 0, executor, stream), ACLNN_SUCCESS);
    aclmdlRI graph = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream, &graph), ACL_SUCCESS);
    EXPECT_EQ(a_.Read(), (std::vector<float>{1, 2, 3})) << "capturing runs nothing";
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(aclmdlRIExecuteAsync(graph, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(a_.Read(), (std::vector<float>{31, 62, 93}));
    EXPECT_EQ(aclmdlRIDestroy(graph), ACL_SUCCESS);
    aclrtDestroyStream(stream);
}

// ---- Replayed chains: a replay runs consecutive operators as one task (task sequences) ----

namespace {

// A chain of operators on one stream: a += b twice, picked = a[index] (IndexSelect, which fails
// at run time for an index out of range), a += b again.
class ReplayedChain : public OpExecutor {
 protected:
    void IssueChain(aclrtStream stream, const aclTensor* index) {
        for (int i = 0; i < 3; ++i) {
            if (i == 2) {
                uint64_t workspace = 0;
                aclOpExecutor* executor = nullptr;
                ASSERT_EQ(aclnnIndexSelectGetWorkspaceSize(a_.get(), 0, index, picked_.get(),
                                                           &workspace, &executor),
                          ACLNN_SUCCESS);
                ASSERT_EQ(aclnnIndexSelect(nullptr, 0, executor, stream), ACLNN_SUCCESS);
            }
            uint64_t workspace = 0;
            aclOpExecutor* executor = nullptr;
            ASSERT_EQ(aclnnInplaceAddGetWorkspaceSize(a_.get(), b_.get(), one_.get(), &workspace,
                                                      &executor),
                      ACLNN_SUCCESS);
            ASSERT_EQ(aclnnInplaceAdd(nullptr, 0, executor, stream), ACLNN_SUCCESS);
        }
    }
    aclmdlRI Capture(aclrtStream stream, const aclTensor* index) {
        EXPECT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
        IssueChain(stream, index);
        aclmdlRI graph = nullptr;
        EXPECT_EQ(aclmdlRICaptureEnd(stream, &graph), ACL_SUCCESS);
        return graph;
    }
    void SetUp() override {
        OpExecutor::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStream(stream_);
        OpExecutor::TearDown();
    }

    aclrtStream stream_ = nullptr;
    DeviceTensor<int32_t> good_index_{{2}, {2, 0}, ACL_INT32};
    DeviceTensor<int32_t> bad_index_{{2}, {2, 7}, ACL_INT32};
    DeviceTensor<float> picked_{{2}, {0, 0}, ACL_FLOAT};
};

}  // namespace

TEST_F(ReplayedChain, GivesWhatTheEagerChainGives) {
    IssueChain(stream_, good_index_.get());
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const std::vector<float> eager_a = a_.Read(), eager_picked = picked_.Read();
    EXPECT_EQ(eager_a, (std::vector<float>{31, 62, 93}));
    EXPECT_EQ(eager_picked, (std::vector<float>{63, 21}));

    a_.Write({1, 2, 3});
    picked_.Write({0, 0});
    aclmdlRI graph = Capture(stream_, good_index_.get());
    ASSERT_EQ(aclmdlRIExecuteAsync(graph, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(a_.Read(), eager_a);
    EXPECT_EQ(picked_.Read(), eager_picked);
    EXPECT_EQ(aclmdlRIDestroy(graph), ACL_SUCCESS);
}

TEST_F(ReplayedChain, AFailingOperatorFailsTheStreamAsItDoesEagerly) {
    IssueChain(stream_, bad_index_.get());
    const aclError eager = aclrtSynchronizeStream(stream_);
    EXPECT_NE(eager, ACL_SUCCESS);
    const std::vector<float> eager_a = a_.Read();

    a_.Write({1, 2, 3});
    aclmdlRI graph = Capture(stream_, bad_index_.get());
    ASSERT_EQ(aclmdlRIExecuteAsync(graph, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), eager);
    EXPECT_NE(Message().find("index 7"), std::string::npos) << Message();
    EXPECT_EQ(a_.Read(), eager_a);  // the operators after the failure ran (or not) alike
    EXPECT_EQ(aclmdlRIDestroy(graph), ACL_SUCCESS);
}

TEST_F(ReplayedChain, AFailureStopsTheRestOfTheChainOnAStreamThatStopsOnFailures) {
    ASSERT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    aclmdlRI graph = Capture(stream_, bad_index_.get());
    ASSERT_EQ(aclmdlRIExecuteAsync(graph, stream_), ACL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(a_.Read(), (std::vector<float>{21, 42, 63}));  // the last a += b did not run
    EXPECT_EQ(aclmdlRIDestroy(graph), ACL_SUCCESS);
}

TEST_F(ReplayedChain, ADisabledOperatorIsLeftOutOnceTheModelIsUpdated) {
    aclmdlRI graph = Capture(stream_, good_index_.get());
    ASSERT_EQ(aclmdlRIExecuteAsync(graph, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(a_.Read(), (std::vector<float>{31, 62, 93}));

    uint32_t count = 0;
    ASSERT_EQ(aclmdlRIGetTasksByStream(stream_, nullptr, &count), ACL_SUCCESS);
    ASSERT_EQ(count, 4u);
    std::vector<aclmdlRITask> tasks(count);
    ASSERT_EQ(aclmdlRIGetTasksByStream(stream_, tasks.data(), &count), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRITaskDisable(tasks[1]), ACL_SUCCESS);  // the second a += b
    ASSERT_EQ(aclmdlRIUpdate(graph), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(graph, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(a_.Read(), (std::vector<float>{51, 102, 153}));  // two additions, not three
    EXPECT_EQ(picked_.Read(), (std::vector<float>{123, 41}));
    EXPECT_EQ(aclmdlRIDestroy(graph), ACL_SUCCESS);
}

TEST_F(ReplayedChain, OperatorsOfTwoCapturedStreamsMeetAtTheirEvents) {
    aclrtStream side = nullptr;
    ASSERT_EQ(aclrtCreateStream(&side), ACL_SUCCESS);
    aclrtEvent forked = nullptr, joined = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&forked), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&joined), ACL_SUCCESS);
    auto add = [&](aclrtStream stream, const aclTensor* self, const aclTensor* other) {
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(aclnnInplaceAddGetWorkspaceSize(self, other, one_.get(), &workspace, &executor),
                  ACLNN_SUCCESS);
        ASSERT_EQ(aclnnInplaceAdd(nullptr, 0, executor, stream), ACLNN_SUCCESS);
    };
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    add(stream_, a_.get(), b_.get());  // a = 11, 22, 33
    add(stream_, a_.get(), b_.get());  // a = 21, 42, 63
    ASSERT_EQ(aclrtRecordEvent(forked, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(side, forked), ACL_SUCCESS);  // side joins the capture
    add(side, out_.get(), a_.get());                             // out = 21, 42, 63
    add(side, out_.get(), a_.get());                             // out = 42, 84, 126
    ASSERT_EQ(aclrtRecordEvent(joined, side), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, joined), ACL_SUCCESS);
    add(stream_, a_.get(), out_.get());  // a = 63, 126, 189
    add(stream_, a_.get(), b_.get());    // a = 73, 146, 219
    aclmdlRI graph = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &graph), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(graph, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(a_.Read(), (std::vector<float>{73, 146, 219}));
    EXPECT_EQ(out_.Read(), (std::vector<float>{42, 84, 126}));
    EXPECT_EQ(aclmdlRIDestroy(graph), ACL_SUCCESS);
    aclrtDestroyEvent(forked);
    aclrtDestroyEvent(joined);
    aclrtDestroyStream(side);
}

TEST(OpLibrary, OperatorsAndTensorsAreFoundThroughADlopenedLibopapi) {
    // By path, as ATB opens $ASCEND_HOME_PATH/lib64/libopapi.so: the folder of the library
    // this program runs against (found through one of its symbols).
    Dl_info info{};
    ASSERT_NE(dladdr(reinterpret_cast<void*>(&aclCreateTensor), &info), 0);
    std::string path = info.dli_fname;
    path = path.substr(0, path.rfind('/') + 1) + "libopapi.so";
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    EXPECT_NE(dlsym(library, "aclCreateTensor"), nullptr);
    EXPECT_NE(dlsym(library, "aclnnAdd"), nullptr);
    EXPECT_NE(dlsym(library, "aclnnAddGetWorkspaceSize"), nullptr);
    // An operator openacl does not implement is absent, so clients fall back (no stub).
    EXPECT_EQ(dlsym(library, "aclnnUnique2GetWorkspaceSize"), nullptr);
    dlclose(library);
}

}  // namespace
