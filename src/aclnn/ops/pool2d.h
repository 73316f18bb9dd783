// What aclnnAvgPool2d and aclnnMaxPool share: their checks of the pooled tensors and the
// operator that runs ops::RunPool2d over the views copied in the first phase.
#pragma once

#include <cstdint>

#include "aclnn/op_executor.h"
#include "ops/pooling.h"

namespace openacl::aclnn {

// self and out as [N, C, H, W] views: a 3-D [C, H, W] tensor gets a leading batch of 1.
struct PoolViews {
    TensorView self, out;
    bool batched = true;  // self was 4-D
};

// Copies self and out (3-D or 4-D, the same rank, `formats` says which format each rank
// takes: `format3` for 3-D, `format4` for 4-D; ACL_FORMAT_UNDEFINED: any plain format, the
// same for both), checks that self has channels, rows and columns (only the batch may be 0).
aclnnStatus PoolViewsOf(const aclTensor* self, const aclTensor* out, aclFormat format3,
                        aclFormat format4, PoolViews* views);

// The window's output size along one axis (PyTorch's pooling_output_shape): floor, or with
// ceil_mode ceil but never a window starting past the input and its leading padding.
int64_t PooledSize(int64_t size, int64_t kernel, int64_t pad_begin, int64_t pad_end, int64_t stride,
                   int64_t dilation, bool ceil_mode);

// 161002 unless out is [N, C, out_h, out_w] (or [C, out_h, out_w]), stating the expected shape.
aclnnStatus CheckPooledShape(const PoolViews& views, int64_t out_h, int64_t out_w);

// Hands out the executor: args holds the window (n, c, h, w, out sizes filled here).
aclnnStatus FinishPool2d(const char* api, const PoolViews& views, const aclTensor* self,
                         const aclTensor* out, ops::Pool2dArgs args, uint64_t* workspaceSize,
                         aclOpExecutor** executor);

}  // namespace openacl::aclnn
