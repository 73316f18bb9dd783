#include "aclnn/ops/batch_norm_channels.h"

#include <cinttypes>

#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/dtype.h"
#include "ops/element.h"

namespace openacl::aclnn {

aclnnStatus ChannelView(const aclTensor* tensor, const char* name, int64_t channels,
                        TensorView* view) {
    if (aclnnStatus rc = ViewOf(tensor, name, view); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(*view, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE});
        rc != 0) {
        return rc;
    }
    if (view->shape.rank != 1 || view->shape.dims[0] != channels) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s has shape %s: it must hold one value per channel (%" PRId64 ")", name,
                    ShapeText(view->shape), channels);
    }
    return ACLNN_SUCCESS;
}

void ReadChannels(const TensorView& view, void* address, double* out, int64_t n) {
    const auto size = static_cast<int64_t>(ops::DtypeSize(view.dtype));
    const char* base = static_cast<const char*>(address) + view.offset * size;
    ops::Load<double>(base, view.strides[0] * size, view.dtype, n, out);
}

void WriteChannels(const TensorView& view, void* address, const double* in, int64_t n) {
    const auto size = static_cast<int64_t>(ops::DtypeSize(view.dtype));
    char* base = static_cast<char*>(address) + view.offset * size;
    ops::Store<double>(in, n, base, view.strides[0] * size, view.dtype);
}

}  // namespace openacl::aclnn
