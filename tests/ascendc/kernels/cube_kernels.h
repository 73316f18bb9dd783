// The cube and Matmul test kernels (tests/ascendc/kernels/cube_*.cpp, matmul_*.cpp), as a host
// program declares them.
#ifndef OPENACL_TESTS_ASCENDC_KERNELS_CUBE_KERNELS_H_
#define OPENACL_TESTS_ASCENDC_KERNELS_CUBE_KERNELS_H_

#include <cstdint>

#include "openacl/kernel.h"

struct CubeMatmulTiling {
    uint32_t M;
    uint32_t N;
    uint32_t K;
    uint32_t tileM;  // each block computes one tileM x tileN tile of C
    uint32_t tileN;
    uint32_t baseK;  // K is walked in steps of baseK (a multiple of 16)
};

extern "C" void cube_matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, CubeMatmulTiling tiling);

// Matmul API kernels: C = A * B (+ bias), the tiling (TCubeTiling) read from GM.
extern "C" void matmul_half_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                   GM_ADDR tiling);
extern "C" void matmul_half_trans_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                         GM_ADDR workspace, GM_ADDR tiling);
extern "C" void matmul_int8_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                   GM_ADDR tiling);
extern "C" void matmul_iterate_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                      GM_ADDR workspace, GM_ADDR tiling);

#endif  // OPENACL_TESTS_ASCENDC_KERNELS_CUBE_KERNELS_H_
