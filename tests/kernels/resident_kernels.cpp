// A kernel binary that stays loaded after aclrtBinaryUnLoad: the static local of an inline
// function with default visibility becomes an STB_GNU_UNIQUE symbol (with GCC), and dlclose()
// never unloads a module that has one.
#include "openacl/kernel.h"

namespace resident {
__attribute__((visibility("default"))) inline uint64_t& Calls() {
    static uint64_t calls = 0;
    return calls;
}
}  // namespace resident

// Counts its blocks in a counter of its own and stores the count so far at *out.
extern "C" __global__ __aicore__ void resident_count(GM_ADDR out) {
    uint64_t calls = __atomic_add_fetch(&resident::Calls(), uint64_t{1}, __ATOMIC_RELAXED);
    if (GetBlockIdx() == 0) *reinterpret_cast<uint64_t*>(out) = calls;
}
