// Misuse table, kernels: binaries, functions, argument handles and launches.
#include <cstdint>

#include "misuse_table.h"

TEST(MisuseTable, KernelBinariesArgumentsAndLaunches) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtFuncHandle function = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "vector_add", &function), ACL_SUCCESS);
    aclrtBinHandle unloaded = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &unloaded), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryUnLoad(unloaded), ACL_SUCCESS);
    aclrtArgsHandle args = nullptr;
    ASSERT_EQ(aclrtKernelArgsInit(function, &args), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    int foreign_object = 0;
    void* foreign = &foreign_object;
    const char not_elf[] = "this is not a kernel binary";

    aclrtBinHandle handle = nullptr;
    aclrtFuncHandle func = nullptr;
    aclrtArgsHandle new_args = nullptr;
    aclrtParamHandle param = nullptr;
    size_t size = 0;
    uint64_t value = 0;
    void* buffer = nullptr;
    char name[64] = {};
    const uint64_t slots[4] = {};

    const std::vector<MisuseRow> rows = {
        {"aclrtCreateBinary(NULL, 64)",
         [] { return aclrtCreateBinary(nullptr, 64) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateBinary(data, 0)",
         [&] { return aclrtCreateBinary(not_elf, 0) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyBinary(NULL)", [] { return aclrtDestroyBinary(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyBinary(foreign)", [&] { return aclrtDestroyBinary(foreign); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryLoad(NULL, &handle)", [&] { return aclrtBinaryLoad(nullptr, &handle); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryLoad(foreign, &handle)", [&] { return aclrtBinaryLoad(foreign, &handle); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryUnLoad(NULL)", [] { return aclrtBinaryUnLoad(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryUnLoad(unloaded)", [&] { return aclrtBinaryUnLoad(unloaded); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryLoadFromFile(NULL, NULL, &handle)",
         [&] { return aclrtBinaryLoadFromFile(nullptr, nullptr, &handle); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryLoadFromFile(/nonexistent.so, NULL, &handle)",
         [&] { return aclrtBinaryLoadFromFile("/nonexistent.so", nullptr, &handle); },
         ACL_ERROR_INVALID_FILE},
        {"aclrtBinaryLoadFromFile(path, NULL, NULL)",
         [] { return aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryLoadFromData(NULL, 64, NULL, &handle)",
         [&] { return aclrtBinaryLoadFromData(nullptr, 64, nullptr, &handle); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryLoadFromData(text, size, NULL, &handle)",
         [&] { return aclrtBinaryLoadFromData(not_elf, sizeof not_elf, nullptr, &handle); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryGetFunction(binary, \"no_such_kernel\", &func)",
         [&] { return aclrtBinaryGetFunction(binary, "no_such_kernel", &func); },
         ACL_ERROR_RT_SYMBOL_NOT_FOUND},
        {"aclrtBinaryGetFunction(binary, NULL, &func)",
         [&] { return aclrtBinaryGetFunction(binary, nullptr, &func); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryGetFunction(unloaded, name, &func)",
         [&] { return aclrtBinaryGetFunction(unloaded, "vector_add", &func); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryGetFunctionByEntry(binary, 1 << 40, &func)",
         [&] { return aclrtBinaryGetFunctionByEntry(binary, uint64_t{1} << 40, &func); },
         ACL_ERROR_RT_SYMBOL_NOT_FOUND},
        {"aclrtBinaryGetFunctionByEntry(binary, 0, NULL)",
         [&] { return aclrtBinaryGetFunctionByEntry(binary, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFunctionName(function, 64, NULL)",
         [&] { return aclrtGetFunctionName(function, sizeof name, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFunctionName(function, 3, name) too short",
         [&] { return aclrtGetFunctionName(function, 3, name); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFunctionName(foreign, 64, name)",
         [&] { return aclrtGetFunctionName(foreign, sizeof name, name); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsGetHandleMemSize(function, NULL)",
         [&] { return aclrtKernelArgsGetHandleMemSize(function, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsGetHandleMemSize(foreign, &size)",
         [&] { return aclrtKernelArgsGetHandleMemSize(foreign, &size); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsGetMemSize(function, 32, NULL)",
         [&] { return aclrtKernelArgsGetMemSize(function, 32, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsInit(function, NULL)",
         [&] { return aclrtKernelArgsInit(function, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsInit(foreign, &args)",
         [&] { return aclrtKernelArgsInit(foreign, &new_args); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsInitByUserMem(function, args, NULL, 64)",
         [&] { return aclrtKernelArgsInitByUserMem(function, args, nullptr, 64); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsAppend(args, NULL, 8, &param)",
         [&] { return aclrtKernelArgsAppend(args, nullptr, 8, &param); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsAppend(foreign, &value, 8, &param)",
         [&] { return aclrtKernelArgsAppend(foreign, &value, 8, &param); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsAppendPlaceHolder(args, NULL)",
         [&] { return aclrtKernelArgsAppendPlaceHolder(args, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsGetPlaceHolderBuffer(args, foreign param, 8, &buffer)",
         [&] { return aclrtKernelArgsGetPlaceHolderBuffer(args, foreign, 8, &buffer); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsParaUpdate(args, foreign param, &value, 8)",
         [&] { return aclrtKernelArgsParaUpdate(args, foreign, &value, 8); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsFinalize(NULL)", [] { return aclrtKernelArgsFinalize(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtKernelArgsFinalize(foreign)", [&] { return aclrtKernelArgsFinalize(foreign); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtLaunchKernel(NULL, 1, slots, 32, stream)",
         [&] { return aclrtLaunchKernel(nullptr, 1, slots, sizeof slots, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtLaunchKernel(function, 0 blocks, slots, 32, stream)",
         [&] { return aclrtLaunchKernel(function, 0, slots, sizeof slots, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtLaunchKernel(function, 1, host slots, 32, stream)",
         [&] { return aclrtLaunchKernel(function, 1, slots, sizeof slots, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtLaunchKernelV2(function, 0 blocks, ...)",
         [&] { return aclrtLaunchKernelV2(function, 0, slots, sizeof slots, nullptr, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtLaunchKernelWithConfig(function, 1, stream, NULL, NULL, NULL)",
         [&] {
             return aclrtLaunchKernelWithConfig(function, 1, stream, nullptr, nullptr, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtLaunchKernelWithHostArgs(function, 1, stream, NULL, NULL, 32, NULL, 0)",
         [&] {
             return aclrtLaunchKernelWithHostArgs(function, 1, stream, nullptr, nullptr, 32,
                                                  nullptr, 0);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtLaunchKernelWithHostArgs(function, 1, stream, NULL, slots, 8 (too few), NULL, 0)",
         [&] {
             return aclrtLaunchKernelWithHostArgs(function, 1, stream, nullptr,
                                                  const_cast<uint64_t*>(slots), 8, nullptr, 0);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtLaunchKernelWithArgsArray(NULL, 1, stream, NULL, NULL)",
         [&] { return aclrtLaunchKernelWithArgsArray(nullptr, 1, stream, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}
