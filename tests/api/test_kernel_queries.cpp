// What a kernel function tells about itself on the CPU backend: its code (the kernel's own
// function in the image it came from), the image of its binary, its parameters and attributes;
// and finding a kernel by its function's address (aclrtGetFuncBySymbol), for the kernels of a
// loaded kernel binary and for an Ascend C library's kernels compiled into the program.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "acl/acl.h"
#include "openacl/kernel_binary.h"
#include "test_support.h"

// A kernel compiled into this program with the table its launch stubs would make (a packed
// argument block, as an Ascend C library's) and the reference to that table the stubs leave
// for aclrtGetFuncBySymbol.
extern "C" __attribute__((noinline)) void inprocess_fill(uint8_t* out, uint32_t value) {
    std::memcpy(out, &value, sizeof value);
}

namespace {

struct FillArgs {
    uint8_t* out;
    uint32_t value;
};

int RunInprocessFill(const void* args, uint32_t, uint32_t, char*, size_t) {
    FillArgs a;
    std::memcpy(&a, args, sizeof a);
    inprocess_fill(a.out, a.value);
    return 0;
}

const openaclKernelEntry kInprocessKernels[] = {
    {"inprocess_fill", 2, sizeof(FillArgs), RunInprocessFill}};
const openaclKernelTable kInprocessTable = {
    OPENACL_KERNEL_BINARY_MAGIC, OPENACL_KERNEL_BINARY_VERSION, "cpu", 1, kInprocessKernels};

}  // namespace

[[gnu::used]] static const openaclKernelTableRef openacl_kernel_table_ref_kernel_queries = {
    &kInprocessTable, "the in-process kernels of test_kernel_queries.cpp"};

namespace {

class KernelQueries : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary_), ACL_SUCCESS)
            << aclGetRecentErrMsg();
    }
    void TearDown() override {
        aclrtBinaryUnLoad(binary_);
        DeviceTest::TearDown();
    }
    aclrtFuncHandle Function(const char* name) {
        aclrtFuncHandle f = nullptr;
        EXPECT_EQ(aclrtBinaryGetFunction(binary_, name, &f), ACL_SUCCESS) << aclGetRecentErrMsg();
        return f;
    }
    // The code of a kernel: the one address aclrtGetFunctionAddr gives.
    void* Code(aclrtFuncHandle f) {
        void* aic = nullptr;
        void* aiv = nullptr;
        EXPECT_EQ(aclrtGetFunctionAddr(f, &aic, &aiv), ACL_SUCCESS) << aclGetRecentErrMsg();
        return aic != nullptr ? aic : aiv;
    }
    aclrtBinHandle binary_ = nullptr;
};

// A chip other than the default one (aclInit reads OPENACL_SOC_NAME).
class KernelQueriesOnChip : public ::testing::Test {
 protected:
    void Use(const char* soc_name) {
        soc_ = std::make_unique<ScopedEnv>("OPENACL_SOC_NAME", soc_name);
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary_), ACL_SUCCESS);
        ASSERT_EQ(aclrtBinaryGetFunction(binary_, "write_value", &function_), ACL_SUCCESS);
    }
    void TearDown() override {
        if (binary_ != nullptr) aclrtBinaryUnLoad(binary_);
        aclrtResetDeviceForce(0);
        aclFinalize();
        aclGetRecentErrMsg();
    }
    std::unique_ptr<ScopedEnv> soc_;
    aclrtBinHandle binary_ = nullptr;
    aclrtFuncHandle function_ = nullptr;
};

}  // namespace

// ---- code ----

TEST_F(KernelQueries, FunctionAddrIsTheKernelsOwnFunction) {
    void* code = Code(Function("write_value"));
    ASSERT_NE(code, nullptr);
    // Called directly, as block 0 of one block, it does what the kernel does.
    uint64_t out = 0;
    reinterpret_cast<void (*)(uint8_t*, uint64_t)>(code)(reinterpret_cast<uint8_t*>(&out), 42);
    EXPECT_EQ(out, 42u);
}

TEST_F(KernelQueries, OnA2TheCodeIsInTheVectorCoreSlot) {
    void* aic = reinterpret_cast<void*>(1);
    void* aiv = nullptr;
    ASSERT_EQ(aclrtGetFunctionAddr(Function("write_value"), &aic, &aiv), ACL_SUCCESS);
    EXPECT_EQ(aic, nullptr) << "the default chip (910B) runs blocks as vector cores";
    EXPECT_NE(aiv, nullptr);
    size_t aic_size = 1, aiv_size = 0;
    ASSERT_EQ(aclrtGetFunctionSize(Function("write_value"), &aic_size, &aiv_size), ACL_SUCCESS);
    EXPECT_EQ(aic_size, 0u);
    EXPECT_GT(aiv_size, 0u);
}

TEST_F(KernelQueriesOnChip, On310PTheCodeIsInTheAiCoreSlot) {
    Use("Ascend310P");
    void* aic = nullptr;
    void* aiv = reinterpret_cast<void*>(1);
    ASSERT_EQ(aclrtGetFunctionAddr(function_, &aic, &aiv), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_NE(aic, nullptr);
    EXPECT_EQ(aiv, nullptr) << "a coupled chip's AI Core runs the whole kernel";
    size_t aic_size = 0, aiv_size = 1;
    ASSERT_EQ(aclrtGetFunctionSize(function_, &aic_size, &aiv_size), ACL_SUCCESS);
    EXPECT_GT(aic_size, 0u);
    EXPECT_EQ(aiv_size, 0u);
}

TEST_F(KernelQueries, FunctionSizeSpansTheKernelsCodeInsideItsBinary) {
    aclrtFuncHandle f = Function("args_probe");
    auto* code = static_cast<uint8_t*>(Code(f));
    size_t aic = 0, aiv = 0;
    ASSERT_EQ(aclrtGetFunctionSize(f, &aic, &aiv), ACL_SUCCESS);
    const size_t size = aic + aiv;
    void* image = nullptr;
    size_t image_size = 0;
    ASSERT_EQ(aclrtBinaryGetDevAddress(binary_, &image, &image_size), ACL_SUCCESS);
    auto* begin = static_cast<uint8_t*>(image);
    EXPECT_GT(size, 16u) << "args_probe is more than a few instructions";
    EXPECT_GE(code, begin);
    EXPECT_LE(code + size, begin + image_size);
    // The next function starts where this one ends, or later: no other kernel lies inside.
    void* other = Code(Function("write_value"));
    EXPECT_TRUE(other < code || other >= code + size);
}

TEST_F(KernelQueries, BinaryDevAddressIsWhereTheLoaderMappedTheBinary) {
    void* image = nullptr;
    size_t size = 0;
    ASSERT_EQ(aclrtBinaryGetDevAddress(binary_, &image, &size), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    Dl_info info{};
    ASSERT_NE(dladdr(Code(Function("write_value")), &info), 0);
    EXPECT_EQ(image, info.dli_fbase);
    EXPECT_STREQ(info.dli_fname, OPENACL_TEST_KERNELS);
    EXPECT_GT(size, 4096u);
}

// ---- finding a kernel by its function ----

TEST_F(KernelQueries, GetFuncBySymbolOfAKernelsCodeGivesThatKernel) {
    aclrtFuncHandle f = Function("affine");
    aclrtFuncHandle found = nullptr;
    ASSERT_EQ(aclrtGetFuncBySymbol(Code(f), &found), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(found, f);
}

TEST_F(KernelQueries, GetFuncBySymbolFindsAProgramsKernelBeforeItsTableIsRegistered) {
    aclrtFuncHandle f = nullptr;
    ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&inprocess_fill), &f), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    char name[32] = {};
    ASSERT_EQ(aclrtGetFunctionName(f, sizeof name, name), ACL_SUCCESS);
    EXPECT_STREQ(name, "inprocess_fill");
    // The lookup registered the table, as its first launch would have.
    aclrtBinHandle found_in = nullptr;
    ASSERT_EQ(aclrtFunctionGetBinary(f, &found_in), ACL_SUCCESS);
    void* registered = nullptr;
    ASSERT_EQ(openaclRegisterKernelTable(&kInprocessTable, "again", &registered), ACL_SUCCESS);
    EXPECT_EQ(registered, found_in);
}

TEST_F(KernelQueries, AKernelFoundBySymbolLaunches) {
    aclrtFuncHandle f = nullptr;
    ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&inprocess_fill), &f),
              ACL_SUCCESS);
    void* out = nullptr;
    ASSERT_EQ(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    FillArgs args{static_cast<uint8_t*>(out), 0xC0FFEEu};
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, nullptr, nullptr, &args, sizeof args, nullptr, 0),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    uint32_t value = 0;
    ASSERT_EQ(aclrtMemcpy(&value, sizeof value, out, sizeof value, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(value, 0xC0FFEEu);
    aclrtFree(out);
}

TEST_F(KernelQueries, AProgramsKernelsCodeIsItsFunction) {
    aclrtFuncHandle f = nullptr;
    ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&inprocess_fill), &f),
              ACL_SUCCESS);
    EXPECT_EQ(Code(f), reinterpret_cast<void*>(&inprocess_fill));
}

TEST_F(KernelQueries, GetFuncBySymbolOfAnOrdinaryFunctionIsSymbolNotFound) {
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&RunInprocessFill), &f),
              ACL_ERROR_RT_SYMBOL_NOT_FOUND);
    EXPECT_THAT_MESSAGE_CONTAINS("not a kernel");
}

// ---- binary, parameters, attributes ----

TEST_F(KernelQueries, FunctionGetBinaryGivesTheBinaryTheKernelWasFoundIn) {
    aclrtBinHandle found_in = nullptr;
    ASSERT_EQ(aclrtFunctionGetBinary(Function("stamp"), &found_in), ACL_SUCCESS);
    EXPECT_EQ(found_in, binary_);
}

TEST_F(KernelQueries, ParamCountIsTheKernelsParameters) {
    size_t count = 0;
    ASSERT_EQ(aclrtFunctionGetParamCount(Function("args_probe"), &count), ACL_SUCCESS);
    EXPECT_EQ(count, 5u);
    ASSERT_EQ(aclrtFunctionGetParamCount(Function("write_value"), &count), ACL_SUCCESS);
    EXPECT_EQ(count, 2u);
}

TEST_F(KernelQueries, ParamInfoOfAKernelBinarysKernelIsOneEightByteSlotEach) {
    size_t offset = 0, size = 0;
    ASSERT_EQ(aclrtFunctionGetParamInfo(Function("args_probe"), 3, &offset, &size), ACL_SUCCESS);
    EXPECT_EQ(offset, 24u);
    EXPECT_EQ(size, 8u);
}

TEST_F(KernelQueries, ParamInfoOfAPackedKernelIsRefused) {
    aclrtFuncHandle f = nullptr;
    ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&inprocess_fill), &f),
              ACL_SUCCESS);
    size_t offset = 0, size = 0;
    EXPECT_EQ(aclrtFunctionGetParamInfo(f, 0, &offset, &size), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("packed block of 16 bytes");
}

TEST_F(KernelQueries, AvailableDynamicUbOfANonSimtKernelIsZero) {
    size_t ubuf = 1;
    ASSERT_EQ(aclrtFunctionGetAvailDynUbufPerBlock(Function("affine"), 0, &ubuf), ACL_SUCCESS);
    EXPECT_EQ(ubuf, 0u);
}

TEST_F(KernelQueries, KernelTypeOnA2IsVector) {
    int64_t type = -1;
    ASSERT_EQ(aclrtGetFunctionAttribute(Function("affine"), ACL_FUNC_ATTR_KERNEL_TYPE, &type),
              ACL_SUCCESS);
    EXPECT_EQ(type, ACL_KERNEL_TYPE_VECTOR);
}

TEST_F(KernelQueriesOnChip, KernelTypeOn310PIsAiCore) {
    Use("Ascend310P");
    int64_t type = -1;
    ASSERT_EQ(aclrtGetFunctionAttribute(function_, ACL_FUNC_ATTR_KERNEL_TYPE, &type), ACL_SUCCESS);
    EXPECT_EQ(type, ACL_KERNEL_TYPE_AICORE);
}

TEST_F(KernelQueries, KernelRatioOnA2IsOneVectorCoreAndNoCubeCore) {
    int64_t ratio = -1;
    ASSERT_EQ(aclrtGetFunctionAttribute(Function("affine"), ACL_FUNC_ATTR_KERNEL_RATIO, &ratio),
              ACL_SUCCESS);
    uint16_t parts[4];
    std::memcpy(parts, &ratio, sizeof parts);
    EXPECT_EQ(parts[1], 0u) << "cube cores";
    EXPECT_EQ(parts[0], 1u) << "vector cores";
}

TEST_F(KernelQueriesOnChip, KernelRatioIsNotSupportedOnAscend950) {
    Use("Ascend950");
    int64_t ratio = -1;
    EXPECT_EQ(aclrtGetFunctionAttribute(function_, ACL_FUNC_ATTR_KERNEL_RATIO, &ratio),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("not supported on Ascend 950");
}

TEST_F(KernelQueries, AKernelBinarysKernelIsScheduledNormally) {
    int64_t mode = -1;
    ASSERT_EQ(aclrtGetFunctionAttribute(Function("affine"), ACL_FUNC_ATTR_KERNEL_SCHED_MODE, &mode),
              ACL_SUCCESS);
    EXPECT_EQ(mode, 0) << "its blocks start on whichever workers are idle";
}

TEST_F(KernelQueries, AnAscendCKernelIsScheduledInBatch) {
    aclrtFuncHandle f = nullptr;
    ASSERT_EQ(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&inprocess_fill), &f),
              ACL_SUCCESS);
    int64_t mode = -1;
    ASSERT_EQ(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_SCHED_MODE, &mode), ACL_SUCCESS);
    EXPECT_EQ(mode, 1) << "its blocks start together";
}

TEST_F(KernelQueries, AnUnloadedBinarysFunctionIsRefused) {
    aclrtFuncHandle f = Function("affine");
    ASSERT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
    binary_ = nullptr;
    size_t count = 0;
    EXPECT_EQ(aclrtFunctionGetParamCount(f, &count), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("unloaded");
}
