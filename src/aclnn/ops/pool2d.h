// What aclnnAvgPool2d, aclnnAvgPool2dBackward and aclnnMaxPool share: their checks of the
// pooled tensors and the operator that runs ops::RunPool2d (or the average's gradient) over
// the views copied in the first phase.
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
// Messages name the two `self_name` and `out_name`.
aclnnStatus PoolViewsOf(const aclTensor* self, const aclTensor* out, aclFormat format3,
                        aclFormat format4, PoolViews* views, const char* self_name = "self",
                        const char* out_name = "out");

// Average pooling's window (kernelSize; strides, empty for the kernel; paddings, each at most
// half its kernel; one value for both axes or (H, W)), divisor and padding count into args;
// cubeMathType 0 to 4. 161002 with the parameter named otherwise.
aclnnStatus AvgPoolArgsOf(const aclIntArray* kernelSize, const aclIntArray* strides,
                          const aclIntArray* paddings, bool countIncludePad,
                          int64_t divisorOverride, int8_t cubeMathType, ops::Pool2dArgs* args,
                          const char* strides_name = "strides",
                          const char* paddings_name = "paddings");

// The window's output size along one axis (PyTorch's pooling_output_shape): floor, or with
// ceil_mode ceil but never a window starting past the input and its leading padding.
int64_t PooledSize(int64_t size, int64_t kernel, int64_t pad_begin, int64_t pad_end, int64_t stride,
                   int64_t dilation, bool ceil_mode);

// 161002 unless views.out is [N, C, out_h, out_w] (or [C, out_h, out_w]), stating the expected
// shape.
aclnnStatus CheckPooledShape(const PoolViews& views, int64_t out_h, int64_t out_w);

// Hands out the executor: args holds the window (n, c, h, w, out sizes filled here).
aclnnStatus FinishPool2d(const char* api, const PoolViews& views, const aclTensor* self,
                         const aclTensor* out, ops::Pool2dArgs args, uint64_t* workspaceSize,
                         aclOpExecutor** executor);

// The same for the average's gradient: views.self is the pooled image's shape, views.out the
// gradient of the result (gradOutput), `image_grad` receives the image's (gradInput, self's
// shape and the views' type, checked by the caller).
aclnnStatus FinishAvgPool2dBackward(const PoolViews& views, const aclTensor* grad_output,
                                    const TensorView& image_grad, const aclTensor* grad_input,
                                    ops::Pool2dArgs args, uint64_t* workspaceSize,
                                    aclOpExecutor** executor);

// A 3-D [C, H, W] view as [1, C, H, W] (batch stride 0); a 4-D one as it is.
TensorView Batched(const TensorView& view);

}  // namespace openacl::aclnn
