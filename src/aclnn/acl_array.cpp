// The array and list objects of aclnn/acl_meta.h: int, float and bool arrays (copies of host
// values; a null pointer or size 0 makes an empty array) and tensor and scalar lists (which
// own their elements: destroying a list destroys them).
#include "aclnn/objects.h"
#include "aclnn/op_checks.h"
#include "aclnn/opdev/op_errno.h"
#include "core/error.h"

using openacl::Fail;
using openacl::aclnn::kDeadMagic;

namespace {

template <typename Array, typename T>
Array* MakeArray(const T* value, uint64_t size) {
    auto* array = new Array;
    if (value != nullptr) array->values.assign(value, value + size);
    return array;
}

template <typename Object>
aclnnStatus Destroy(const Object* object) {
    auto* owned = const_cast<Object*>(object);
    owned->magic = kDeadMagic;
    delete owned;
    return ACLNN_SUCCESS;
}

aclnnStatus SizeOut(uint64_t value, uint64_t* size) {
    if (size == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "size is null");
    *size = value;
    return ACLNN_SUCCESS;
}

}  // namespace

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
    OPENACL_API();
    return MakeArray<aclIntArray>(value, size);
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
    OPENACL_API();
    return MakeArray<aclFloatArray>(value, size);
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
    OPENACL_API();
    return MakeArray<aclBoolArray>(value, size);
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
    OPENACL_API();
    if (value == nullptr && size != 0) {
        Fail(ACLNN_ERR_PARAM_NULLPTR, "value is null but size is %llu",
             static_cast<unsigned long long>(size));
        return nullptr;
    }
    for (uint64_t i = 0; i < size; ++i) {  // a null element is an absent optional tensor
        if (value[i] != nullptr && openacl::aclnn::CheckTensorObject(value[i], "value[i]") != 0) {
            return nullptr;
        }
    }
    auto* list = new aclTensorList;
    for (uint64_t i = 0; i < size; ++i)
        list->tensors.push_back(const_cast<aclTensor*>(value[i]));
    return list;
}

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
    OPENACL_API();
    if (value == nullptr && size != 0) {
        Fail(ACLNN_ERR_PARAM_NULLPTR, "value is null but size is %llu",
             static_cast<unsigned long long>(size));
        return nullptr;
    }
    for (uint64_t i = 0; i < size; ++i) {
        if (openacl::aclnn::CheckScalarObject(value[i], "value[i]") != 0) return nullptr;
    }
    auto* list = new aclScalarList;
    for (uint64_t i = 0; i < size; ++i)
        list->scalars.push_back(const_cast<aclScalar*>(value[i]));
    return list;
}

aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
    OPENACL_API();
    if (array == nullptr) return ACLNN_SUCCESS;
    if (aclnnStatus rc = openacl::aclnn::CheckIntArrayObject(array, "array"); rc != 0) return rc;
    return Destroy(array);
}

aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
    OPENACL_API();
    if (array == nullptr) return ACLNN_SUCCESS;
    if (aclnnStatus rc = openacl::aclnn::CheckFloatArrayObject(array, "array"); rc != 0) return rc;
    return Destroy(array);
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
    OPENACL_API();
    if (array == nullptr) return ACLNN_SUCCESS;
    if (aclnnStatus rc = openacl::aclnn::CheckBoolArrayObject(array, "array"); rc != 0) return rc;
    return Destroy(array);
}

aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
    OPENACL_API();
    if (array == nullptr) return ACLNN_SUCCESS;
    if (aclnnStatus rc = openacl::aclnn::CheckTensorListObject(array, "array"); rc != 0) return rc;
    for (aclTensor* tensor : array->tensors) {
        if (tensor != nullptr) Destroy(tensor);
    }
    return Destroy(array);
}

aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
    OPENACL_API();
    if (array == nullptr) return ACLNN_SUCCESS;
    if (aclnnStatus rc = openacl::aclnn::CheckScalarListObject(array, "array"); rc != 0) return rc;
    for (aclScalar* scalar : array->scalars)
        Destroy(scalar);
    return Destroy(array);
}

aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckIntArrayObject(array, "array"); rc != 0) return rc;
    return SizeOut(array->values.size(), size);
}

aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckFloatArrayObject(array, "array"); rc != 0) return rc;
    return SizeOut(array->values.size(), size);
}

aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckBoolArrayObject(array, "array"); rc != 0) return rc;
    return SizeOut(array->values.size(), size);
}

aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckTensorListObject(tensorList, "tensorList"); rc != 0) {
        return rc;
    }
    return SizeOut(tensorList->tensors.size(), size);
}

aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size) {
    OPENACL_API();
    if (aclnnStatus rc = openacl::aclnn::CheckScalarListObject(scalarList, "scalarList"); rc != 0) {
        return rc;
    }
    return SizeOut(scalarList->scalars.size(), size);
}
