// Misuse table, kernel queries and device variables: function handles asked about their code,
// binary, parameters and attributes; kernels and variables looked up by address or name; and
// copies into and out of device variables.
#include <cstdint>

#include "misuse_table.h"

// A global of the program (a device variable once asked for) and a function that is no kernel.
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
    void* limits = nullptr;
    ASSERT_EQ(aclrtBinaryGetGlobal(binary, "device_limits", &limits, nullptr), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    int foreign_object = 0;
    void* foreign = &foreign_object;  // on the stack: in no loaded image
    const void* values = g_misuse_values;
    const void* inside = &g_misuse_values[1];
    const void* not_a_kernel = reinterpret_cast<const void*>(&misuse_not_a_kernel);

    aclrtFuncHandle func = nullptr;
    aclrtBinHandle bin = nullptr;
    void* address = nullptr;
    void* other = nullptr;
    size_t size = 0;
    size_t other_size = 0;
    int64_t value = 0;
    int64_t host[4] = {};

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
        {"aclrtBinaryGetGlobal(binary, NULL, &dptr, &size)",
         [&] { return aclrtBinaryGetGlobal(binary, nullptr, &address, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryGetGlobal(binary, \"\", &dptr, &size)",
         [&] { return aclrtBinaryGetGlobal(binary, "", &address, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryGetGlobal(binary, name, NULL, NULL)",
         [&] { return aclrtBinaryGetGlobal(binary, "device_values", nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryGetGlobal(binary, \"no_such_variable\", &dptr, &size)",
         [&] { return aclrtBinaryGetGlobal(binary, "no_such_variable", &address, &size); },
         ACL_ERROR_RT_SYMBOL_NOT_FOUND},
        {"aclrtBinaryGetGlobal(binary, a kernel's name, &dptr, &size)",
         [&] { return aclrtBinaryGetGlobal(binary, "write_value", &address, &size); },
         ACL_ERROR_RT_SYMBOL_NOT_FOUND},
        {"aclrtBinaryGetGlobal(unloaded, name, &dptr, &size)",
         [&] { return aclrtBinaryGetGlobal(unloaded, "device_values", &address, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryGetDevAddress(binary, NULL, &size)",
         [&] { return aclrtBinaryGetDevAddress(binary, nullptr, &size); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtBinaryGetDevAddress(unloaded, &addr, &size)",
         [&] { return aclrtBinaryGetDevAddress(unloaded, &address, &size); },
         ACL_ERROR_INVALID_PARAM},
        // Device variables by address.
        {"aclrtGetSymbolAddress(NULL, &devPtr)",
         [&] { return aclrtGetSymbolAddress(nullptr, &address); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetSymbolAddress(symbol, NULL)",
         [&] { return aclrtGetSymbolAddress(values, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetSymbolAddress(stack address, &devPtr)",
         [&] { return aclrtGetSymbolAddress(foreign, &address); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetSymbolAddress(a function, &devPtr)",
         [&] { return aclrtGetSymbolAddress(not_a_kernel, &address); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetSymbolAddress(inside a variable, &devPtr)",
         [&] { return aclrtGetSymbolAddress(inside, &address); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetSymbolSize(NULL, &size)", [&] { return aclrtGetSymbolSize(nullptr, &size); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetSymbolSize(symbol, NULL)", [&] { return aclrtGetSymbolSize(values, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetSymbolSize(stack address, &size)",
         [&] { return aclrtGetSymbolSize(foreign, &size); }, ACL_ERROR_INVALID_PARAM},
        // Copies.
        {"aclrtMemcpyToSymbol(symbol, NULL, 8, 0, HOST_TO_DEVICE)",
         [&] { return aclrtMemcpyToSymbol(values, nullptr, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyToSymbol(symbol, src, 8, 0, DEVICE_TO_HOST)",
         [&] { return aclrtMemcpyToSymbol(values, host, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyToSymbol(symbol, src, 16, 24 (past the 32 bytes), HOST_TO_DEVICE)",
         [&] { return aclrtMemcpyToSymbol(values, host, 16, 24, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyToSymbol(stack address, src, 8, 0, HOST_TO_DEVICE)",
         [&] { return aclrtMemcpyToSymbol(foreign, host, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyToSymbol(const variable, src, 8, 0, HOST_TO_DEVICE)",
         [&] { return aclrtMemcpyToSymbol(limits, host, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyToSymbolAsync(symbol, src, 8, 0, DEVICE_TO_DEVICE, stream)",
         [&] {
             return aclrtMemcpyToSymbolAsync(values, host, 8, 0, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                             stream);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyToSymbolAsync(symbol, src, 8, 0, HOST_TO_DEVICE, foreign stream)",
         [&] {
             return aclrtMemcpyToSymbolAsync(values, host, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE,
                                             foreign);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyToSymbolAsync(symbol, src, 40 (past the end), 0, DEFAULT, stream)",
         [&] { return aclrtMemcpyToSymbolAsync(values, host, 40, 0, ACL_MEMCPY_DEFAULT, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyFromSymbol(NULL, 8, symbol, 8, 0, DEVICE_TO_HOST)",
         [&] { return aclrtMemcpyFromSymbol(nullptr, 8, values, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyFromSymbol(dst, 8, symbol, 8, 0, HOST_TO_DEVICE)",
         [&] { return aclrtMemcpyFromSymbol(host, 8, values, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyFromSymbol(dst, 4 (dstMax < count), symbol, 8, 0, DEVICE_TO_HOST)",
         [&] { return aclrtMemcpyFromSymbol(host, 4, values, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyFromSymbol(dst, 32, symbol, 8, 32 (past the end), DEVICE_TO_HOST)",
         [&] {
             return aclrtMemcpyFromSymbol(host, sizeof host, values, 8, 32,
                                          ACL_MEMCPY_DEVICE_TO_HOST);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyFromSymbolAsync(dst, 8, NULL, 8, 0, DEVICE_TO_HOST, stream)",
         [&] {
             return aclrtMemcpyFromSymbolAsync(host, 8, nullptr, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST,
                                               stream);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyFromSymbolAsync(dst, 8, inside a variable, 8, 0, DEVICE_TO_HOST, stream)",
         [&] {
             return aclrtMemcpyFromSymbolAsync(host, 8, inside, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST,
                                               stream);
         },
         ACL_ERROR_INVALID_PARAM},
        // A device variable is device memory, but no allocation.
        {"aclrtFree(device variable)", [&] { return aclrtFree(const_cast<void*>(values)); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpy(const device variable, 8, src, 8, HOST_TO_DEVICE)",
         [&] { return aclrtMemcpy(limits, 8, host, 8, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(misuse_not_a_kernel(1), 2);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}
