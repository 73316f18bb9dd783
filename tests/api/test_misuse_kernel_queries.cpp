// Misuse table, kernel queries: function handles asked about their code, binary, parameters
// and attributes; kernels looked up by address; binaries asked for their image.
#include <cstdint>

#include "misuse_table.h"

// A global of the program and a function that is no kernel.
int64_t g_misuse_values[4];
extern "C" __attribute__((noinline)) int64_t misuse_not_a_kernel(int64_t x) {
    return x + 1;
}

TEST(MisuseTable, KernelQueriesAndDeviceVariables) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary), ACL_SUCCESS);
    aclrtFuncHandle function = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary, "write_value", &function), ACL_SUCCESS);
    aclrtBinHandle unloaded = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &unloaded), ACL_SUCCESS);
    aclrtFuncHandle stale = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(unloaded, "vector_add", &stale), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryUnLoad(unloaded), ACL_SUCCESS);
    int foreign_object = 0;
    void* foreign = &foreign_object;  // on the stack: in no loaded image
    const void* values = g_misuse_values;
    const void* not_a_kernel = reinterpret_cast<const void*>(&misuse_not_a_kernel);

    aclrtFuncHandle func = nullptr;
    aclrtBinHandle bin = nullptr;
    void* address = nullptr;
    void* other = nullptr;
    size_t size = 0;
    size_t other_size = 0;
    int64_t value = 0;

    const std::vector<MisuseRow> rows = {
        // Kernels by address.
        {"aclrtGetFuncBySymbol(NULL, &func)", [&] { return aclrtGetFuncBySymbol(nullptr, &func); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFuncBySymbol(symbol, NULL)",
         [&] { return aclrtGetFuncBySymbol(not_a_kernel, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFuncBySymbol(stack address, &func)",
         [&] { return aclrtGetFuncBySymbol(foreign, &func); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFuncBySymbol(a variable, &func)",
         [&] { return aclrtGetFuncBySymbol(values, &func); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFuncBySymbol(a function that is no kernel, &func)",
         [&] { return aclrtGetFuncBySymbol(not_a_kernel, &func); }, ACL_ERROR_RT_SYMBOL_NOT_FOUND},
        // Code.
        {"aclrtGetFunctionAddr(function, NULL, &aiv)",
         [&] { return aclrtGetFunctionAddr(function, nullptr, &other); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFunctionAddr(foreign, &aic, &aiv)",
         [&] { return aclrtGetFunctionAddr(foreign, &address, &other); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFunctionAddr(unloaded binary's function, &aic, &aiv)",
         [&] { return aclrtGetFunctionAddr(stale, &address, &other); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFunctionSize(function, &aic, NULL)",
         [&] { return aclrtGetFunctionSize(function, &size, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFunctionSize(foreign, &aic, &aiv)",
         [&] { return aclrtGetFunctionSize(foreign, &size, &other_size); },
         ACL_ERROR_INVALID_PARAM},
        // Binary, parameters, attributes.
        {"aclrtFunctionGetBinary(function, NULL)",
         [&] { return aclrtFunctionGetBinary(function, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFunctionGetBinary(foreign, &bin)",
         [&] { return aclrtFunctionGetBinary(foreign, &bin); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFunctionGetParamCount(function, NULL)",
         [&] { return aclrtFunctionGetParamCount(function, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFunctionGetParamCount(foreign, &count)",
         [&] { return aclrtFunctionGetParamCount(foreign, &size); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtFunctionGetParamInfo(function, 2 (of 2), &offset, &size)",
         [&] { return aclrtFunctionGetParamInfo(function, 2, &size, &other_size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFunctionGetParamInfo(function, 0, NULL, &size)",
         [&] { return aclrtFunctionGetParamInfo(function, 0, nullptr, &other_size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFunctionGetParamInfo(stale, 0, &offset, &size)",
         [&] { return aclrtFunctionGetParamInfo(stale, 0, &size, &other_size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFunctionGetAvailDynUbufPerBlock(function, 1, &size)",
         [&] { return aclrtFunctionGetAvailDynUbufPerBlock(function, 1, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFunctionGetAvailDynUbufPerBlock(function, 0, NULL)",
         [&] { return aclrtFunctionGetAvailDynUbufPerBlock(function, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFunctionGetAvailDynUbufPerBlock(foreign, 0, &size)",
         [&] { return aclrtFunctionGetAvailDynUbufPerBlock(foreign, 0, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFunctionAttribute(function, 99, &value)",
         [&] {
             return aclrtGetFunctionAttribute(function, static_cast<aclrtFuncAttribute>(99),
                                              &value);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFunctionAttribute(function, KERNEL_TYPE, NULL)",
         [&] { return aclrtGetFunctionAttribute(function, ACL_FUNC_ATTR_KERNEL_TYPE, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetFunctionAttribute(foreign, KERNEL_TYPE, &value)",
         [&] { return aclrtGetFunctionAttribute(foreign, ACL_FUNC_ATTR_KERNEL_TYPE, &value); },
         ACL_ERROR_INVALID_PARAM},
        // Binaries.
        {"aclrtBinaryGetDevAddress(binary, NULL, &size)",
         [&] { return aclrtBinaryGetDevAddress(binary, nullptr, &size); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryGetDevAddress(unloaded, &addr, &size)",
         [&] { return aclrtBinaryGetDevAddress(unloaded, &address, &size); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(misuse_not_a_kernel(1), 2);
    EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}
