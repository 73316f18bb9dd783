// The test kernels (tests/ascendc/kernels/*.cpp), as a host program declares them.
#ifndef OPENACL_TESTS_ASCENDC_KERNELS_TEST_KERNELS_H_
#define OPENACL_TESTS_ASCENDC_KERNELS_TEST_KERNELS_H_

#include <cstdint>

#include "openacl/kernel.h"

struct AddTailTiling {
    uint32_t totalLength;
    uint32_t blockLength;
};

extern "C" void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling);
extern "C" void add_tail_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTailTiling tiling);
extern "C" void softmax_custom(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols);

#endif  // OPENACL_TESTS_ASCENDC_KERNELS_TEST_KERNELS_H_
