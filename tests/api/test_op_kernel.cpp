// acl_op.h's registered kernels: aclopCreateKernel keeps kernels of an operator type, a
// selector (aclopRegisterCompileFunc) picks one for a call's shapes with its block count,
// tiling and workspaces, and executing the type runs it. The kernels are test_kernels.cpp's
// tiled_axpy and tiled_sub. Registrations are process-wide, so each test uses its own type.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "op_test_support.h"
#include "test_kernels.h"
#include "test_support.h"

namespace {

std::vector<char> KernelBytes() {
    std::ifstream in(OPENACL_TEST_KERNELS, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The selector of the tests' operator types: tiled_axpy (alpha 2, two blocks, a workspace of
// n floats) for 8 elements or more, tiled_sub below. Counts its calls.
std::atomic<int> g_selections{0};
aclError SelectAxpyOrSub(int numInputs, const aclTensorDesc* const inputDesc[], int,
                         const aclTensorDesc* const[], const aclopAttr*, aclopKernelDesc* desc) {
    ++g_selections;
    if (numInputs != 2) return ACL_ERROR_INVALID_PARAM;
    const auto n = static_cast<uint64_t>(aclGetTensorDescElementCount(inputDesc[0]));
    const test_kernels::AxpyTiling tiling{n, 2.0f};
    if (n < 8) return aclopSetKernelArgs(desc, "sub", 1, &tiling, sizeof tiling);
    size_t workspace = n * sizeof(float);
    if (aclError rc = aclopSetKernelWorkspaceSizes(desc, 1, &workspace)) return rc;
    return aclopSetKernelArgs(desc, "axpy", 2, &tiling, sizeof tiling);
}

aclError SelectUnregisteredId(int, const aclTensorDesc* const[], int, const aclTensorDesc* const[],
                              const aclopAttr*, aclopKernelDesc* desc) {
    const char tiling[4] = {};
    return aclopSetKernelArgs(desc, "missing", 1, tiling, sizeof tiling);
}

aclError SelectNothing(int, const aclTensorDesc* const[], int, const aclTensorDesc* const[],
                       const aclopAttr*, aclopKernelDesc*) {
    return ACL_SUCCESS;
}

aclError SelectFailing(int, const aclTensorDesc* const[], int, const aclTensorDesc* const[],
                       const aclopAttr*, aclopKernelDesc*) {
    return ACL_ERROR_FAILURE;
}

class OpKernel : public DeviceTest {
 protected:
    // Registers tiled_axpy ("axpy") and tiled_sub ("sub") for `type` with SelectAxpyOrSub.
    void RegisterAxpy(const char* type) {
        ASSERT_EQ(aclopCreateKernel(type, "axpy", "tiled_axpy", bytes_.data(),
                                    static_cast<int>(bytes_.size()), ACL_ENGINE_SYS, nullptr),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(aclopCreateKernel(type, "sub", "tiled_sub", bytes_.data(),
                                    static_cast<int>(bytes_.size()), ACL_ENGINE_SYS, nullptr),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(aclopRegisterCompileFunc(type, SelectAxpyOrSub), ACL_SUCCESS);
    }
    static std::vector<float> Iota(size_t n, float from) {
        std::vector<float> v(n);
        for (size_t i = 0; i < n; ++i)
            v[i] = from + static_cast<float>(i);
        return v;
    }
    std::vector<char> bytes_ = KernelBytes();
};

TEST_F(OpKernel, TheChosenKernelRunsWithTheCallsBuffersItsWorkspaceAndItsTiling) {
    RegisterAxpy("KernelAxpy1");
    const auto x = Iota(16, 1), y = Iota(16, 100);
    OpTensor a(ACL_FLOAT, {16}, x), b(ACL_FLOAT, {16}, y), z(ACL_FLOAT, {16}, 16, 4);
    // No single-operator model was loaded: the registered kernels are what runs the type.
    ASSERT_EQ(ExecuteV2("KernelAxpy1", {&a, &b}, {&z}), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> want(16);
    for (size_t i = 0; i < 16; ++i)
        want[i] = 2 * x[i] + y[i];
    EXPECT_EQ(z.Read<float>(), want);
}

TEST_F(OpKernel, TheSelectorIsAskedOncePerSetOfShapes) {
    RegisterAxpy("KernelAxpy2");
    const int before = g_selections.load();
    OpTensor a(ACL_FLOAT, {16}, Iota(16, 1)), b(ACL_FLOAT, {16}, Iota(16, 0)),
        z(ACL_FLOAT, {16}, 16, 4);
    ASSERT_EQ(ExecuteV2("KernelAxpy2", {&a, &b}, {&z}), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(ExecuteV2("KernelAxpy2", {&a, &b}, {&z}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(g_selections.load() - before, 1);
    // Other shapes: asked again, and its other kernel runs (z = x - y).
    OpTensor c(ACL_FLOAT, {4}, std::vector<float>{5, 6, 7, 8}),
        d(ACL_FLOAT, {4}, std::vector<float>{1, 1, 2, 2}), w(ACL_FLOAT, {4}, 4, 4);
    ASSERT_EQ(ExecuteV2("KernelAxpy2", {&c, &d}, {&w}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(g_selections.load() - before, 2);
    EXPECT_EQ(w.Read<float>(), (std::vector<float>{4, 5, 5, 6}));
}

TEST_F(OpKernel, TheChoicesKeptAreBoundedByTheMaxOpQueueNum) {
    RegisterAxpy("KernelAxpyLru");
    ASSERT_EQ(aclopSetMaxOpQueueNum(2), ACL_SUCCESS);
    auto run = [&](int64_t n) {
        OpTensor a(ACL_FLOAT, {n}, Iota(n, 1)), b(ACL_FLOAT, {n}, Iota(n, 0)),
            z(ACL_FLOAT, {n}, n, 4);
        ASSERT_EQ(ExecuteV2("KernelAxpyLru", {&a, &b}, {&z}), ACL_SUCCESS) << aclGetRecentErrMsg();
    };
    const int before = g_selections.load();
    run(8);
    run(16);
    run(8);   // kept: 8 is now the most recently used
    run(32);  // a third set of shapes: 16, the least recently used, goes
    EXPECT_EQ(g_selections.load() - before, 3);
    run(8);
    EXPECT_EQ(g_selections.load() - before, 3);
    run(16);  // asked again
    EXPECT_EQ(g_selections.load() - before, 4);
    ASSERT_EQ(aclopSetMaxOpQueueNum(20000), ACL_SUCCESS);
}

TEST_F(OpKernel, UpdateParamsAsksTheSelectorWithoutRunningAnything) {
    RegisterAxpy("KernelAxpy3");
    const int before = g_selections.load();
    OpTensor a(ACL_FLOAT, {16}, Iota(16, 1)), b(ACL_FLOAT, {16}, Iota(16, 0)),
        z(ACL_FLOAT, {16}, 16, 4);
    OpArrays in({&a, &b}), out({&z});
    ASSERT_EQ(aclopUpdateParams("KernelAxpy3", 2, in.d(), 1, out.d(), nullptr), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(g_selections.load() - before, 1);
    ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(z.Read<float>(), std::vector<float>(16, 0));
    ASSERT_EQ(ExecuteV2("KernelAxpy3", {&a, &b}, {&z}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(g_selections.load() - before, 1);  // the execution found the choice made
}

TEST_F(OpKernel, CompileAndExecuteRunsARegisteredKernelToo) {
    RegisterAxpy("KernelAxpy4");
    OpTensor a(ACL_FLOAT, {8}, Iota(8, 0)), b(ACL_FLOAT, {8}, std::vector<float>(8, 1)),
        z(ACL_FLOAT, {8}, 8, 4);
    ASSERT_EQ(CompileAndRun("KernelAxpy4", {&a, &b}, {&z}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(z.Read<float>(), (std::vector<float>{1, 3, 5, 7, 9, 11, 13, 15}));
}

TEST_F(OpKernel, ACapturedExecutionReplaysTheKernel) {
    RegisterAxpy("KernelAxpy5");
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    OpTensor a(ACL_FLOAT, {8}, std::vector<float>(8, 1)), b(ACL_FLOAT, {8}, Iota(8, 0)),
        z(ACL_FLOAT, {8}, 8, 4);
    OpArrays in({&a, &b}), out({&z});
    ASSERT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    ASSERT_EQ(
        aclopExecuteV2("KernelAxpy5", 2, in.d(), in.b(), 1, out.d(), out.b(), nullptr, stream),
        ACL_SUCCESS)
        << aclGetRecentErrMsg();
    aclmdlRI graph = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream, &graph), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(z.Read<float>(), std::vector<float>(8, 0)) << "capturing runs nothing";
    for (int i = 0; i < 2; ++i)
        ASSERT_EQ(aclmdlRIExecuteAsync(graph, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(z.Read<float>(), (std::vector<float>{2, 3, 4, 5, 6, 7, 8, 9}));
    EXPECT_EQ(aclmdlRIDestroy(graph), ACL_SUCCESS);  // frees the captured workspace
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(OpKernel, ASecondSelectorIsRefusedUntilTheFirstIsUnregistered) {
    RegisterAxpy("KernelAxpy6");
    OpTensor a(ACL_FLOAT, {8}, Iota(8, 0)), b(ACL_FLOAT, {8}, Iota(8, 0)), z(ACL_FLOAT, {8}, 8, 4);
    ASSERT_EQ(ExecuteV2("KernelAxpy6", {&a, &b}, {&z}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclopRegisterCompileFunc("KernelAxpy6", SelectFailing),
              ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED);
    EXPECT_EQ(aclopUnregisterCompileFunc("KernelAxpy6"), ACL_SUCCESS);
    ASSERT_EQ(aclopRegisterCompileFunc("KernelAxpy6", SelectFailing), ACL_SUCCESS);
    // The old selector's choice went with it: the new one is asked, and fails the call.
    EXPECT_EQ(ExecuteV2("KernelAxpy6", {&a, &b}, {&z}), ACL_ERROR_FAILURE);
}

TEST_F(OpKernel, UnregisteringATypeWithoutASelectorSucceeds) {
    EXPECT_EQ(aclopUnregisterCompileFunc("KernelNeverRegistered"), ACL_SUCCESS);
}

TEST_F(OpKernel, AKernelIdRegisteredTwiceIsRefused) {
    RegisterAxpy("KernelAxpy7");
    EXPECT_EQ(aclopCreateKernel("KernelAxpy7", "axpy", "tiled_sub", bytes_.data(),
                                static_cast<int>(bytes_.size()), ACL_ENGINE_SYS, nullptr),
              ACL_ERROR_KERNEL_ALREADY_REGISTERED);
}

TEST_F(OpKernel, AKernelNameTheBinaryLacksIsKernelNotFound) {
    EXPECT_EQ(aclopCreateKernel("KernelAxpy8", "axpy", "no_such_kernel", bytes_.data(),
                                static_cast<int>(bytes_.size()), ACL_ENGINE_SYS, nullptr),
              ACL_ERROR_KERNEL_NOT_FOUND);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("no_such_kernel"), std::string::npos) << message;
    EXPECT_NE(message.find("tiled_axpy"), std::string::npos) << message;  // what it has
}

std::atomic<int> g_deallocated{0};
const void* g_deallocated_data = nullptr;
size_t g_deallocated_size = 0;
void CountDeallocation(void* data, size_t length) {
    ++g_deallocated;
    g_deallocated_data = data;
    g_deallocated_size = length;
}

TEST_F(OpKernel, TheDeallocatorGetsTheBinaryBackOnce) {
    ASSERT_EQ(aclopCreateKernel("KernelAxpy9", "axpy", "tiled_axpy", bytes_.data(),
                                static_cast<int>(bytes_.size()), ACL_ENGINE_SYS, CountDeallocation),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(g_deallocated.load(), 1);
    EXPECT_EQ(g_deallocated_data, bytes_.data());
    EXPECT_EQ(g_deallocated_size, bytes_.size());
}

TEST_F(OpKernel, BytesThatAreNoKernelBinaryAreRefusedAndStillHandedBack) {
    std::vector<char> junk(256, 'x');
    const int before = g_deallocated.load();
    EXPECT_EQ(aclopCreateKernel("KernelJunk", "k", "tiled_axpy", junk.data(),
                                static_cast<int>(junk.size()), ACL_ENGINE_SYS, CountDeallocation),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(g_deallocated.load() - before, 1);
}

TEST_F(OpKernel, NullArgumentsAndABadSizeAreInvalidParam) {
    const int size = static_cast<int>(bytes_.size());
    EXPECT_EQ(
        aclopCreateKernel(nullptr, "k", "tiled_axpy", bytes_.data(), size, ACL_ENGINE_SYS, nullptr),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(
        aclopCreateKernel("KernelBad", "k", "tiled_axpy", nullptr, size, ACL_ENGINE_SYS, nullptr),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclopCreateKernel("KernelBad", "k", "tiled_axpy", bytes_.data(), 0, ACL_ENGINE_SYS,
                                nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclopRegisterCompileFunc("KernelBad", nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclopUnregisterCompileFunc(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(OpKernel, ASelectorChoosingAnUnregisteredIdFailsTheCallWithKernelNotFound) {
    ASSERT_EQ(aclopRegisterCompileFunc("KernelMissing", SelectUnregisteredId), ACL_SUCCESS);
    OpTensor a(ACL_FLOAT, {4}, Iota(4, 0)), z(ACL_FLOAT, {4}, 4, 4);
    EXPECT_EQ(ExecuteV2("KernelMissing", {&a}, {&z}), ACL_ERROR_KERNEL_NOT_FOUND);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("\"missing\""), std::string::npos) << message;
}

TEST_F(OpKernel, ASelectorThatChoosesNothingFailsTheCall) {
    ASSERT_EQ(aclopRegisterCompileFunc("KernelNothing", SelectNothing), ACL_SUCCESS);
    OpTensor a(ACL_FLOAT, {4}, Iota(4, 0)), z(ACL_FLOAT, {4}, 4, 4);
    EXPECT_EQ(ExecuteV2("KernelNothing", {&a}, {&z}), ACL_ERROR_KERNEL_NOT_FOUND);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("aclopSetKernelArgs"), std::string::npos) << message;
}

TEST_F(OpKernel, UpdateParamsReportsAFailingSelectorsCode) {
    ASSERT_EQ(aclopRegisterCompileFunc("KernelFailing", SelectFailing), ACL_SUCCESS);
    OpTensor a(ACL_FLOAT, {4}, Iota(4, 0)), z(ACL_FLOAT, {4}, 4, 4);
    OpArrays in({&a}), out({&z});
    EXPECT_EQ(aclopUpdateParams("KernelFailing", 1, in.d(), 1, out.d(), nullptr),
              ACL_ERROR_FAILURE);
}

TEST_F(OpKernel, KernelArgsOutsideARunningSelectorAreRefused) {
    const char tiling[4] = {};
    auto* stray = reinterpret_cast<aclopKernelDesc*>(&g_deallocated);
    EXPECT_EQ(aclopSetKernelArgs(stray, "k", 1, tiling, sizeof tiling), ACL_ERROR_INVALID_PARAM);
    size_t size = 4;
    EXPECT_EQ(aclopSetKernelWorkspaceSizes(stray, 1, &size), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclopSetKernelArgs(nullptr, "k", 1, tiling, sizeof tiling), ACL_ERROR_INVALID_PARAM);
}

TEST_F(OpKernel, AnOutputBufferTooSmallForItsDescriptionIsInvalidParam) {
    RegisterAxpy("KernelAxpy10");
    OpTensor a(ACL_FLOAT, {16}, Iota(16, 0)), b(ACL_FLOAT, {16}, Iota(16, 0)),
        z(ACL_FLOAT, {16}, 8, 4);  // 8 floats behind a 16-float description
    EXPECT_EQ(ExecuteV2("KernelAxpy10", {&a, &b}, {&z}), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
