// A kernel built in a user's project with openacl_add_kernel_binary().
#include "openacl/kernel.h"

extern "C" __global__ __aicore__ void fill(GM_ADDR out, uint64_t value) {
    reinterpret_cast<uint64_t*>(out)[GetBlockIdx()] = value + static_cast<uint64_t>(GetBlockIdx());
}
