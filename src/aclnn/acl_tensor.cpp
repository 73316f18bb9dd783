// aclCreateTensor and the other tensor functions of aclnn/acl_meta.h.
#include <cinttypes>
#include <cstring>

#include "aclnn/objects.h"
#include "aclnn/op_checks.h"
#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/dtype.h"

using openacl::Fail;
using openacl::aclnn::kDeadMagic;
using openacl::aclnn::kTensorMagic;

namespace {

// Checks and stores a description; the failure's code when it is not one.
aclnnStatus Describe(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum,
                     aclDataType dataType, const int64_t* stride, int64_t offset, aclFormat format,
                     const int64_t* storageDims, uint64_t storageDimsNum, void* data) {
    if (viewDims == nullptr && viewDimsNum != 0) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "viewDims is null but viewDimsNum is %" PRIu64,
                    viewDimsNum);
    }
    if (storageDims == nullptr && storageDimsNum != 0) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "storageDims is null but storageDimsNum is %" PRIu64,
                    storageDimsNum);
    }
    constexpr uint64_t kMostDims = 64;  // far beyond any operator's limit (8 for most)
    if (viewDimsNum > kMostDims || storageDimsNum > kMostDims) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "viewDimsNum %" PRIu64 " / storageDimsNum %" PRIu64 ": at most %" PRIu64
                    " dimensions",
                    viewDimsNum, storageDimsNum, kMostDims);
    }
    for (uint64_t i = 0; i < viewDimsNum; ++i) {
        if (viewDims[i] < 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "viewDims[%" PRIu64 "] is %" PRId64 ": dimensions are 0 or more", i,
                        viewDims[i]);
        }
        if (stride != nullptr && stride[i] < 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "stride[%" PRIu64 "] is %" PRId64 ": strides are 0 or more (in elements)",
                        i, stride[i]);
        }
    }
    // ggml-cann sizes an empty view's storage as 1 + (0 - 1) * stride, a negative number;
    // CANN takes it, and an empty view reads nothing, so only a view with elements is held to it.
    bool empty = false;
    for (uint64_t i = 0; i < viewDimsNum; ++i)
        empty = empty || viewDims[i] == 0;
    for (uint64_t i = 0; i < storageDimsNum && !empty; ++i) {
        if (storageDims[i] < 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "storageDims[%" PRIu64 "] is %" PRId64 ": dimensions are 0 or more", i,
                        storageDims[i]);
        }
    }
    if (offset < 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "offset is %" PRId64 ": an element offset is 0 or more", offset);
    }
    tensor->dtype = dataType;
    tensor->format = format;
    tensor->shape.assign(viewDims, viewDims + viewDimsNum);
    tensor->strides.resize(viewDimsNum);
    int64_t step = 1;
    for (uint64_t i = viewDimsNum; i-- > 0;) {  // row-major when no strides are given
        tensor->strides[i] = stride != nullptr ? stride[i] : step;
        step *= viewDims[i] > 0 ? viewDims[i] : 1;
    }
    tensor->offset = offset;
    tensor->storage.assign(storageDims, storageDims + storageDimsNum);
    tensor->data = data;
    return ACLNN_SUCCESS;
}

// Answers a shape getter: a new[] copy the caller releases with delete[].
aclnnStatus CopyOut(const std::vector<int64_t>& values, int64_t** out, uint64_t* count) {
    auto* copy = new int64_t[values.empty() ? 1 : values.size()];
    if (!values.empty()) std::memcpy(copy, values.data(), values.size() * sizeof(int64_t));
    *out = copy;
    *count = values.size();
    return ACLNN_SUCCESS;
}

}  // namespace

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format,
                           const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
    OPENACL_API();
    auto* tensor = new aclTensor;
    if (Describe(tensor, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
                 storageDimsNum, tensorData) != ACLNN_SUCCESS) {
        delete tensor;
        return nullptr;
    }
    return tensor;
}

aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum,
                          aclDataType dataType, const int64_t* stride, int64_t offset,
                          aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                          void* tensorDataAddr) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckTensorObject(tensor, "tensor"); rc != 0) return rc;
    aclTensor described;
    if (aclnnStatus rc = Describe(&described, viewDims, viewDimsNum, dataType, stride, offset,
                                  format, storageDims, storageDimsNum, tensorDataAddr);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    *tensor = std::move(described);
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
    OPENACL_API();
    if (tensor == nullptr) return ACLNN_SUCCESS;
    if (aclnnStatus rc = openacl::aclnn::CheckTensorObject(tensor, "tensor"); rc != 0) return rc;
    auto* owned = const_cast<aclTensor*>(tensor);
    owned->magic = kDeadMagic;
    delete owned;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckTensorObject(tensor, "tensor"); rc != 0) return rc;
    if (viewDims == nullptr || viewDimsNum == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s is null",
                    viewDims == nullptr ? "viewDims" : "viewDimsNum");
    }
    return CopyOut(tensor->shape, viewDims, viewDimsNum);
}

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                               uint64_t* storageDimsNum) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckTensorObject(tensor, "tensor"); rc != 0) return rc;
    if (storageDims == nullptr || storageDimsNum == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s is null",
                    storageDims == nullptr ? "storageDims" : "storageDimsNum");
    }
    return CopyOut(tensor->storage, storageDims, storageDimsNum);
}

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue,
                              uint64_t* stridesNum) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckTensorObject(tensor, "tensor"); rc != 0) return rc;
    if (stridesValue == nullptr || stridesNum == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s is null",
                    stridesValue == nullptr ? "stridesValue" : "stridesNum");
    }
    return CopyOut(tensor->strides, stridesValue, stridesNum);
}

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckTensorObject(tensor, "tensor"); rc != 0) return rc;
    if (offset == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "offset is null");
    *offset = tensor->offset;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckTensorObject(tensor, "tensor"); rc != 0) return rc;
    if (format == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "format is null");
    *format = tensor->format;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckTensorObject(tensor, "tensor"); rc != 0) return rc;
    if (dataType == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "dataType is null");
    *dataType = tensor->dtype;
    return ACLNN_SUCCESS;
}

aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckTensorObject(tensor, "tensor"); rc != 0) return rc;
    tensor->data = addr;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckTensorObject(tensor, "tensor"); rc != 0) return rc;
    if (addr == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "addr is null");
    *addr = tensor->data;
    return ACLNN_SUCCESS;
}
