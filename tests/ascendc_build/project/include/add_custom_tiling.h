// The tiling of add_custom: computed on the host, passed to the kernel by value.
#ifndef ADD_CUSTOM_TILING_H
#define ADD_CUSTOM_TILING_H
#include <cstdint>

struct AddCustomTilingData {
    uint32_t totalLength;  // elements of x, y and z
    uint32_t tileLength;   // elements one block adds
};

#endif
