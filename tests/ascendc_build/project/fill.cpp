// Kernels whose names come from token pasting (CANN reads signatures after preprocessing):
// fill_int32_t and fill_float. A block may wait first, so the tests can see a launch run
// asynchronously on its stream.
#include <chrono>
#include <cstdint>
#include <thread>

#include "openacl/kernel.h"

#define DEFINE_FILL(T)                                                               \
    extern "C" __global__ __aicore__ void fill_##T(GM_ADDR out, T value, uint32_t n, \
                                                   uint32_t delayMs) {               \
        if (GetBlockIdx() == 0 && delayMs > 0) {                                     \
            std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));         \
        }                                                                            \
        for (uint32_t i = static_cast<uint32_t>(GetBlockIdx()); i < n;               \
             i += static_cast<uint32_t>(GetBlockNum())) {                            \
            reinterpret_cast<T*>(out)[i] = value;                                    \
        }                                                                            \
    }
DEFINE_FILL(int32_t)
DEFINE_FILL(float)

// Launch forms with 2 (default stream) and 4 (SIMT) arguments between the chevrons.
uint32_t fill_on_default_stream(uint32_t blocks, uint8_t* out, int32_t value, uint32_t n) {
    return fill_int32_t<<<blocks, 0>>>(out, value, n, 0u);
}
uint32_t fill_simt(uint32_t blocks, void* stream, uint8_t* out, float value, uint32_t n) {
    return fill_float<<<blocks, 1, 0, stream>>>(out, value, n, 0u);
}
