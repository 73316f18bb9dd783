// A device variable and the kernel that updates it, as CANN's device-symbol sample has them:
// the host reaches the variable with aclrtMemcpyToSymbol/FromSymbol and finds the kernel by its
// function's address with aclrtGetFuncBySymbol.
#include <cstdint>

#include "openacl/kernel.h"

__gm__ int32_t g_device_values[8];

extern "C" __global__ __aicore__ void update_device_values(int32_t increment) {
    if (GetBlockIdx() != 0) return;
    for (uint32_t i = 0; i < 8; ++i)
        g_device_values[i] += increment;
}
