// Weight dequantization for the weight-quantized matrix products (aclnnWeightQuantBatchMatmulV2):
// w[k][n] = (q[k][n] + offset[g][n]) * scale[g][n] with g = k / group, written as floats for
// ops/matmul.h to multiply. q is int8, or int4 packed two to a byte (element 2i in the low
// nibble, as CANN and llama.cpp's CANN backend store it), each signed.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"

namespace openacl::ops {

struct AntiquantArgs {
    int64_t k = 0, n = 0;
    // q: ACL_INT8 or ACL_INT4, addressed in elements (an int4 element is half a byte):
    // element (i, j) is element offset + i * strides[0] + j * strides[1] of `weight`.
    aclDataType weight_type = ACL_INT8;
    const void* weight = nullptr;
    int64_t weight_offset = 0;
    int64_t weight_strides[2] = {};
    // scale and the optional offset (null): float16 or bfloat16 [groups, n] views at their first
    // element; stride 0 repeats (a per-channel scale has row stride 0, a per-tensor one both).
    aclDataType scale_type = ACL_FLOAT16;
    const void* scale = nullptr;
    const void* offset = nullptr;
    int64_t scale_strides[2] = {};
    int64_t offset_strides[2] = {};
    int64_t group = 1;  // rows of q per row of scale
    // The floats: column-major [k, n] (element (i, j) at j * k + i) when `columns`, which keeps
    // the memory order of a transposed weight, else row-major (i * n + j).
    float* out = nullptr;
    bool columns = false;
};

// Writes the dequantized weight, on threads borrowed from the compute gate.
void Antiquantize(const AntiquantArgs& args);

}  // namespace openacl::ops
