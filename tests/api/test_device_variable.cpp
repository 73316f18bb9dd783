// Device variables on the CPU backend: the globals of a kernel binary (the test kernels'
// device_values, test_globals::scale and device_limits) and of the program, found by name
// (aclrtBinaryGetGlobal) or by address (aclrtGetSymbolAddress, aclrtGetSymbolSize), copied into
// and out of (aclrtMemcpyToSymbol/FromSymbol, at once and in stream order), and device memory
// once asked for, as long as their binary is loaded.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

// Globals of the program, as `__gm__` variables of kernels compiled into it are; the second
// is asked for by one test only.
int32_t g_program_values[6];
int32_t g_asked_values[4];

namespace {

constexpr size_t kValues = 8;  // device_values has 8 int64_t
constexpr int64_t kScale = 3;  // test_globals::scale's initial value

class DeviceVariables : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary_), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(aclrtBinaryGetFunction(binary_, "add_to_values", &add_to_values_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStream(stream_);
        if (binary_ != nullptr) aclrtBinaryUnLoad(binary_);
        DeviceTest::TearDown();
    }
    void* Global(const char* name, size_t* size = nullptr) {
        void* address = nullptr;
        size_t bytes = 0;
        EXPECT_EQ(aclrtBinaryGetGlobal(binary_, name, &address, &bytes), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        if (size != nullptr) *size = bytes;
        return address;
    }
    // add_to_values over all 8 values: each gains increment * scale.
    void AddToValues(int64_t increment) {
        ASSERT_EQ(aclrtLaunchKernelWithHostArgs(add_to_values_, kValues, stream_, nullptr,
                                                &increment, sizeof increment, nullptr, 0),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
    }
    aclrtBinHandle binary_ = nullptr;
    aclrtFuncHandle add_to_values_ = nullptr;
    aclrtStream stream_ = nullptr;
};

std::vector<int64_t> Sequence(int64_t first) {
    std::vector<int64_t> values(kValues);
    for (size_t i = 0; i < kValues; ++i)
        values[i] = first + static_cast<int64_t>(i);
    return values;
}

}  // namespace

// ---- finding them ----

TEST_F(DeviceVariables, BinaryGetGlobalGivesTheVariablesAddressAndSize) {
    size_t size = 0;
    void* address = Global("device_values", &size);
    EXPECT_NE(address, nullptr);
    EXPECT_EQ(size, kValues * sizeof(int64_t));
}

TEST_F(DeviceVariables, BinaryGetGlobalFindsANamespacedVariableByItsCppName) {
    size_t size = 0;
    void* qualified = Global("test_globals::scale", &size);
    EXPECT_EQ(size, sizeof(int64_t));
    EXPECT_EQ(Global("scale"), qualified) << "the last part of the name is enough when unique";
    int64_t scale = 0;
    ASSERT_EQ(aclrtMemcpy(&scale, sizeof scale, qualified, sizeof scale, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(scale, kScale);
}

TEST_F(DeviceVariables, BinaryGetGlobalGivesOnlyTheSizeWhenDptrIsNull) {
    size_t size = 0;
    ASSERT_EQ(aclrtBinaryGetGlobal(binary_, "device_limits", nullptr, &size), ACL_SUCCESS);
    EXPECT_EQ(size, 4 * sizeof(int64_t));
}

TEST_F(DeviceVariables, GetSymbolAddressOfAProgramsVariableIsThatVariable) {
    void* address = nullptr;
    ASSERT_EQ(aclrtGetSymbolAddress(g_program_values, &address), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(address, static_cast<void*>(g_program_values))
        << "on the CPU the kernels use the host image's one copy";
}

TEST_F(DeviceVariables, GetSymbolSizeIsTheVariablesSize) {
    size_t size = 0;
    ASSERT_EQ(aclrtGetSymbolSize(g_program_values, &size), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(size, sizeof g_program_values);
}

TEST_F(DeviceVariables, GetSymbolAddressOfABinarysGlobalIsWhereBinaryGetGlobalFoundIt) {
    void* global = Global("device_values");
    void* address = nullptr;
    size_t size = 0;
    ASSERT_EQ(aclrtGetSymbolAddress(global, &address), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtGetSymbolSize(global, &size), ACL_SUCCESS);
    EXPECT_EQ(address, global);
    EXPECT_EQ(size, kValues * sizeof(int64_t));
}

// ---- device memory ----

TEST_F(DeviceVariables, AVariableIsDeviceMemoryOnceAskedFor) {
    aclrtPtrAttributes attributes{};
    ASSERT_EQ(aclrtPointerGetAttributes(g_asked_values, &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    void* address = nullptr;
    ASSERT_EQ(aclrtGetSymbolAddress(g_asked_values, &address), ACL_SUCCESS);
    ASSERT_EQ(aclrtPointerGetAttributes(&g_asked_values[2], &attributes), ACL_SUCCESS);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(attributes.location.id, 0u);
    void* base = nullptr;
    size_t size = 0;
    ASSERT_EQ(aclrtMemGetAddressRange(&g_asked_values[2], &base, &size), ACL_SUCCESS);
    EXPECT_EQ(base, address);
    EXPECT_EQ(size, sizeof g_asked_values);
}

TEST_F(DeviceVariables, AKernelSeesWhatAMemcpyToItsGlobalWrote) {
    void* values = Global("device_values");
    const std::vector<int64_t> start = Sequence(100);
    ASSERT_EQ(aclrtMemcpy(values, kValues * sizeof(int64_t), start.data(),
                          kValues * sizeof(int64_t), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    AddToValues(2);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<int64_t> now(kValues);
    ASSERT_EQ(aclrtMemcpy(now.data(), kValues * sizeof(int64_t), values, kValues * sizeof(int64_t),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    for (size_t i = 0; i < kValues; ++i)
        EXPECT_EQ(now[i], start[i] + 2 * kScale) << i;
}

TEST_F(DeviceVariables, AnUnloadedBinarysGlobalIsNoLongerDeviceMemory) {
    void* values = Global("device_values");
    ASSERT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
    binary_ = nullptr;
    aclrtPtrAttributes attributes{};
    ASSERT_EQ(aclrtPointerGetAttributes(values, &attributes), ACL_SUCCESS);
    EXPECT_NE(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
}

// ---- symbol copies ----

TEST_F(DeviceVariables, SymbolCopiesReachWhatTheKernelsUse) {
    void* values = Global("device_values");
    const std::vector<int64_t> start = Sequence(-4);
    ASSERT_EQ(aclrtMemcpyToSymbol(values, start.data(), kValues * sizeof(int64_t), 0,
                                  ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    AddToValues(5);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<int64_t> now(kValues);
    ASSERT_EQ(aclrtMemcpyFromSymbol(now.data(), kValues * sizeof(int64_t), values,
                                    kValues * sizeof(int64_t), 0, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    for (size_t i = 0; i < kValues; ++i)
        EXPECT_EQ(now[i], start[i] + 5 * kScale) << i;
}

TEST_F(DeviceVariables, ASymbolCopyAtAnOffsetTouchesOnlyItsBytes) {
    const std::vector<int32_t> zeros(6, 0);
    ASSERT_EQ(aclrtMemcpyToSymbol(g_program_values, zeros.data(), sizeof g_program_values, 0,
                                  ACL_MEMCPY_DEFAULT),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    const int32_t pair[2] = {7, 8};
    ASSERT_EQ(aclrtMemcpyToSymbol(g_program_values, pair, sizeof pair, 3 * sizeof(int32_t),
                                  ACL_MEMCPY_DEFAULT),
              ACL_SUCCESS);
    EXPECT_EQ(g_program_values[2], 0);
    EXPECT_EQ(g_program_values[3], 7);
    EXPECT_EQ(g_program_values[4], 8);
    EXPECT_EQ(g_program_values[5], 0);
    int32_t last = -1;
    ASSERT_EQ(aclrtMemcpyFromSymbol(&last, sizeof last, g_program_values, sizeof last,
                                    4 * sizeof(int32_t), ACL_MEMCPY_DEFAULT),
              ACL_SUCCESS);
    EXPECT_EQ(last, 8);
}

TEST_F(DeviceVariables, AsyncSymbolCopiesRunInStreamOrder) {
    void* values = Global("device_values");
    int64_t* host = nullptr;
    ASSERT_EQ(aclrtMallocHost(reinterpret_cast<void**>(&host), 2 * kValues * sizeof(int64_t)),
              ACL_SUCCESS);
    const std::vector<int64_t> start = Sequence(1000);
    std::memcpy(host, start.data(), kValues * sizeof(int64_t));
    // In, add, out: each waits for the one before it on the stream.
    ASSERT_EQ(aclrtMemcpyToSymbolAsync(values, host, kValues * sizeof(int64_t), 0,
                                       ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    AddToValues(1);
    int64_t* out = host + kValues;
    ASSERT_EQ(aclrtMemcpyFromSymbolAsync(out, kValues * sizeof(int64_t), values,
                                         kValues * sizeof(int64_t), 0, ACL_MEMCPY_DEVICE_TO_HOST,
                                         stream_),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    for (size_t i = 0; i < kValues; ++i)
        EXPECT_EQ(out[i], start[i] + kScale) << i;
    aclrtFreeHost(host);
}

TEST_F(DeviceVariables, AConstVariableIsReadable) {
    void* limits = Global("device_limits");
    int64_t read[4] = {};
    ASSERT_EQ(
        aclrtMemcpyFromSymbol(read, sizeof read, limits, sizeof read, 0, ACL_MEMCPY_DEVICE_TO_HOST),
        ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(read[0], 10);
    EXPECT_EQ(read[3], 40);
}

TEST_F(DeviceVariables, ACopyIntoAConstVariableIsRefused) {
    void* limits = Global("device_limits");
    const int64_t value = 1;
    EXPECT_EQ(aclrtMemcpyToSymbol(limits, &value, sizeof value, 0, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("read-only");
    EXPECT_EQ(aclrtMemcpy(limits, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("read-only");
}
