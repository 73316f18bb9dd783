// What the test kernels (test_kernels.cpp) and the kernel tests (tests/api/test_kernel.cpp)
// both need to know.
#pragma once

#include <cstdint>

namespace test_kernels {

// What args_probe writes: its scalar parameters as the kernel saw them, the address its
// placeholder parameter pointed at, and the first bytes found there.
struct Probe {
    uint32_t a;
    float b;
    double c;
    uint64_t placeholder_address;
    unsigned char placeholder_bytes[32];
};

// The tiling of the registered single-operator kernels (tests/api/test_op_kernel.cpp).
struct AxpyTiling {
    uint64_t n;
    float alpha;
};

}  // namespace test_kernels
