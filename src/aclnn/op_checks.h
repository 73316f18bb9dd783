// What every aclnn operator checks in its first phase, with the codes CANN documents: a null
// required object is ACLNN_ERR_PARAM_NULLPTR (161001); anything else wrong (a destroyed object,
// an unsupported dtype or format, shapes that do not broadcast, a wrong output shape, more
// dimensions than the operator takes) is ACLNN_ERR_PARAM_INVALID (161002). Messages name the
// parameter and say what was expected. TensorView is a tensor copied by value: the caller may
// destroy its aclTensor as soon as the second phase returns.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "aclnn/objects.h"
#include "ops/elementwise.h"

namespace openacl::aclnn {

aclnnStatus CheckTensorObject(const aclTensor* tensor, const char* name);
aclnnStatus CheckScalarObject(const aclScalar* scalar, const char* name);
aclnnStatus CheckIntArrayObject(const aclIntArray* array, const char* name);
aclnnStatus CheckFloatArrayObject(const aclFloatArray* array, const char* name);
aclnnStatus CheckBoolArrayObject(const aclBoolArray* array, const char* name);
aclnnStatus CheckTensorListObject(const aclTensorList* list, const char* name);
aclnnStatus CheckScalarListObject(const aclScalarList* list, const char* name);

struct TensorView {
    const char* name = "";  // the parameter's name, for messages
    aclDataType dtype = ACL_DT_UNDEFINED;
    aclFormat format = ACL_FORMAT_ND;
    ops::LoopShape shape;
    int64_t strides[ops::kMaxDims] = {};  // elements
    int64_t offset = 0;                   // elements
    int64_t numel = 0;
    // Elements from the view's first one to one past its last (0 when empty): with the
    // offset, how much of the memory behind the address the operator reaches.
    int64_t extent = 0;
};

// Checks a tensor an operator reads or writes (at most 8 dimensions, a dtype operators compute
// on, a plain format, a view inside its storage) and copies it.
aclnnStatus ViewOf(const aclTensor* tensor, const char* name, TensorView* view);
// ViewOf for the weight of a matrix product (mat2 of Mm, Matmul, BatchMatMul): it also takes
// ACL_FORMAT_FRACTAL_NZ, which llama.cpp's CANN backend puts on its weights after
// aclnnTransMatmulWeight. openacl keeps every weight in ND layout (TransMatmulWeight leaves
// the data as it is), so the tensor is read as the ND strided view its shape and strides
// describe.
aclnnStatus WeightViewOf(const aclTensor* tensor, const char* name, TensorView* view);
// 161002 unless view's dtype is one of `allowed` (the message lists them).
aclnnStatus CheckDtype(const TensorView& view, std::initializer_list<aclDataType> allowed);
// The broadcast shape of a and b (NumPy rules), or 161002.
aclnnStatus Broadcast(const TensorView& a, const TensorView& b, ops::LoopShape* shape);
// 161002 unless view has exactly `shape`.
aclnnStatus CheckShape(const TensorView& view, const ops::LoopShape& shape);
// 161002 unless `view`'s shape broadcasts to `shape` (a source read under a bigger loop).
aclnnStatus CheckBroadcastsTo(const TensorView& view, const ops::LoopShape& shape);
// The view as an operand of a loop over `shape` (which it broadcasts to), its data at
// `address`: missing leading dimensions and size-1 dimensions get stride 0.
ops::Operand OperandOf(const TensorView& view, const ops::LoopShape& shape, void* address);
// "NCHW", "FRACTAL_NZ", ...: a format's name for messages.
const char* FormatText(aclFormat format);
// "[2, 3, 4]" (static per-thread storage, for messages).
const char* ShapeText(const ops::LoopShape& shape);

}  // namespace openacl::aclnn
