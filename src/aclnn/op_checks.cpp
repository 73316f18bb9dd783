// The first-phase checks of aclnn/op_checks.h.
#include "aclnn/op_checks.h"

#include <cinttypes>
#include <cstdio>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

template <typename Object>
aclnnStatus CheckObject(const Object* object, uint32_t magic, const char* name, const char* kind,
                        const char* creator) {
    if (object == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s is null", name);
    if (object->magic != magic) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s (%p) is not %s made by %s, or it was destroyed already", name,
                    static_cast<const void*>(object), kind, creator);
    }
    return ACLNN_SUCCESS;
}

// Formats that only label plain row-major data (NCHW and its kin say what the dimensions
// mean, not how the bytes lie).
bool IsPlainFormat(aclFormat format) {
    switch (format) {
        case ACL_FORMAT_ND:
        case ACL_FORMAT_NCHW:
        case ACL_FORMAT_NHWC:
        case ACL_FORMAT_HWCN:
        case ACL_FORMAT_NDHWC:
        case ACL_FORMAT_NCDHW:
        case ACL_FORMAT_NC:
        case ACL_FORMAT_NCL:
        case ACL_FORMAT_UNDEFINED:
            return true;
        default:
            return false;
    }
}

}  // namespace

const char* FormatText(aclFormat format) {
    switch (format) {
        case ACL_FORMAT_ND:
            return "ND";
        case ACL_FORMAT_NCHW:
            return "NCHW";
        case ACL_FORMAT_NHWC:
            return "NHWC";
        case ACL_FORMAT_NCL:
            return "NCL";
        case ACL_FORMAT_NCDHW:
            return "NCDHW";
        case ACL_FORMAT_NDHWC:
            return "NDHWC";
        case ACL_FORMAT_HWCN:
            return "HWCN";
        case ACL_FORMAT_NC:
            return "NC";
        case ACL_FORMAT_NC1HWC0:
            return "NC1HWC0";
        case ACL_FORMAT_FRACTAL_Z:
            return "FRACTAL_Z";
        case ACL_FORMAT_NC1HWC0_C04:
            return "NC1HWC0_C04";
        case ACL_FORMAT_FRACTAL_NZ:
            return "FRACTAL_NZ";
        case ACL_FORMAT_NDC1HWC0:
            return "NDC1HWC0";
        case ACL_FRACTAL_Z_3D:
            return "FRACTAL_Z_3D";
        case ACL_FORMAT_UNDEFINED:
            return "UNDEFINED";
        default:
            return "a format openacl does not know";
    }
}

aclnnStatus CheckTensorObject(const aclTensor* tensor, const char* name) {
    return CheckObject(tensor, kTensorMagic, name, "a tensor", "aclCreateTensor");
}
aclnnStatus CheckScalarObject(const aclScalar* scalar, const char* name) {
    return CheckObject(scalar, kScalarMagic, name, "a scalar", "aclCreateScalar");
}
aclnnStatus CheckIntArrayObject(const aclIntArray* array, const char* name) {
    return CheckObject(array, kIntArrayMagic, name, "an int array", "aclCreateIntArray");
}
aclnnStatus CheckFloatArrayObject(const aclFloatArray* array, const char* name) {
    return CheckObject(array, kFloatArrayMagic, name, "a float array", "aclCreateFloatArray");
}
aclnnStatus CheckBoolArrayObject(const aclBoolArray* array, const char* name) {
    return CheckObject(array, kBoolArrayMagic, name, "a bool array", "aclCreateBoolArray");
}
aclnnStatus CheckTensorListObject(const aclTensorList* list, const char* name) {
    return CheckObject(list, kTensorListMagic, name, "a tensor list", "aclCreateTensorList");
}
aclnnStatus CheckScalarListObject(const aclScalarList* list, const char* name) {
    return CheckObject(list, kScalarListMagic, name, "a scalar list", "aclCreateScalarList");
}

namespace {

aclnnStatus View(const aclTensor* tensor, const char* name, bool nz_weight, TensorView* view) {
    if (aclnnStatus rc = CheckTensorObject(tensor, name); rc != ACLNN_SUCCESS) return rc;
    const size_t rank = tensor->shape.size();
    if (rank > static_cast<size_t>(ops::kMaxDims)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s has %zu dimensions: the operator takes at most %d",
                    name, rank, ops::kMaxDims);
    }
    if (ops::DtypeSize(tensor->dtype) == 0 || ops::IsComplex(tensor->dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s is %s: openacl's operators compute on bool, integer and floating types "
                    "(float16, bfloat16, float, double) only",
                    name, ops::DtypeName(tensor->dtype));
    }
    if (!IsPlainFormat(tensor->format) && !(nz_weight && tensor->format == ACL_FORMAT_FRACTAL_NZ)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s has format %s (%d), a layout of the NPU's own that this operator does not "
                    "take: use ACL_FORMAT_ND (or NCHW, NHWC, NCL, ... for plain row-major data)",
                    name, FormatText(tensor->format), static_cast<int>(tensor->format));
    }
    view->name = name;
    view->dtype = tensor->dtype;
    view->format = tensor->format;
    view->shape.rank = static_cast<int>(rank);
    view->offset = tensor->offset;
    int64_t numel = 1, last = 0;
    for (size_t d = 0; d < rank; ++d) {
        view->shape.dims[d] = tensor->shape[d];
        view->strides[d] = tensor->strides[d];
        numel *= tensor->shape[d];
        if (tensor->shape[d] > 0) last += (tensor->shape[d] - 1) * tensor->strides[d];
    }
    view->numel = numel;
    view->extent = numel == 0 ? 0 : last + 1;
    // Clients count storageDims from different origins: torch_npu gives the whole buffer, the
    // view starting `offset` elements into it; ggml-cann gives the view's own extent and the
    // offset beside it (its Q8_0 scales). CANN runs both, so only a view longer than its storage
    // is refused here; where it really ends is checked against its allocation at the launch.
    if (!tensor->storage.empty() && numel > 0) {
        int64_t storage = 1;
        for (int64_t dim : tensor->storage)
            storage *= dim;
        if (view->extent > storage) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "%s spans %" PRId64
                        " elements (shape and strides) but storageDims hold "
                        "%" PRId64,
                        name, view->extent, storage);
        }
    }
    return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus ViewOf(const aclTensor* tensor, const char* name, TensorView* view) {
    return View(tensor, name, false, view);
}

aclnnStatus WeightViewOf(const aclTensor* tensor, const char* name, TensorView* view) {
    return View(tensor, name, true, view);
}

aclnnStatus CheckDtype(const TensorView& view, std::initializer_list<aclDataType> allowed) {
    std::string names;
    for (aclDataType type : allowed) {
        if (type == view.dtype) return ACLNN_SUCCESS;
        if (!names.empty()) names += ", ";
        names += ops::DtypeName(type);
    }
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s is %s: the operator takes %s", view.name,
                ops::DtypeName(view.dtype), names.c_str());
}

const char* ShapeText(const ops::LoopShape& shape) {
    static thread_local char text[256];
    int used = std::snprintf(text, sizeof text, "[");
    for (int d = 0; d < shape.rank && used < 200; ++d) {
        used += std::snprintf(text + used, sizeof text - static_cast<size_t>(used), "%s%" PRId64,
                              d == 0 ? "" : ", ", shape.dims[d]);
    }
    std::snprintf(text + used, sizeof text - static_cast<size_t>(used), "]");
    return text;
}

aclnnStatus Broadcast(const TensorView& a, const TensorView& b, ops::LoopShape* shape) {
    const int rank = a.shape.rank > b.shape.rank ? a.shape.rank : b.shape.rank;
    shape->rank = rank;
    for (int d = 0; d < rank; ++d) {  // aligned at the last dimension
        const int da = d - (rank - a.shape.rank), db = d - (rank - b.shape.rank);
        const int64_t x = da >= 0 ? a.shape.dims[da] : 1, y = db >= 0 ? b.shape.dims[db] : 1;
        if (x != y && x != 1 && y != 1) {
            std::string a_text = ShapeText(a.shape);
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "%s %s and %s %s do not broadcast: dimension %d is %" PRId64
                        " against %" PRId64,
                        a.name, a_text.c_str(), b.name, ShapeText(b.shape), d, x, y);
        }
        shape->dims[d] = x == 1 ? y : x;
    }
    return ACLNN_SUCCESS;
}

aclnnStatus CheckShape(const TensorView& view, const ops::LoopShape& shape) {
    bool same = view.shape.rank == shape.rank;
    for (int d = 0; same && d < shape.rank; ++d)
        same = view.shape.dims[d] == shape.dims[d];
    if (same) return ACLNN_SUCCESS;
    std::string expected = ShapeText(shape);
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s has shape %s but the result's shape is %s", view.name,
                ShapeText(view.shape), expected.c_str());
}

aclnnStatus CheckBroadcastsTo(const TensorView& view, const ops::LoopShape& shape) {
    bool fits = view.shape.rank <= shape.rank;
    for (int d = 0; fits && d < view.shape.rank; ++d) {
        const int64_t dim = view.shape.dims[d];
        fits = dim == 1 || dim == shape.dims[d + (shape.rank - view.shape.rank)];
    }
    if (fits) return ACLNN_SUCCESS;
    std::string target = ShapeText(shape);
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s has shape %s, which does not broadcast to %s",
                view.name, ShapeText(view.shape), target.c_str());
}

ops::Operand OperandOf(const TensorView& view, const ops::LoopShape& shape, void* address) {
    ops::Operand operand;
    operand.dtype = view.dtype;
    operand.data = static_cast<char*>(address) +
                   view.offset * static_cast<int64_t>(ops::DtypeSize(view.dtype));
    const int lead = shape.rank - view.shape.rank;
    for (int d = 0; d < view.shape.rank; ++d) {
        operand.strides[d + lead] = view.shape.dims[d] == 1 ? 0 : view.strides[d];
    }
    return operand;
}

}  // namespace openacl::aclnn
