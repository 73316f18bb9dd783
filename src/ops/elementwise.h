// Element-wise operators over strided views: one engine for every aclnn (and aclop)
// element-wise operator. Operands are views (a first element, a dtype, strides in elements;
// stride 0 repeats an element, which is how broadcasting is expressed) over one loop shape.
// Values are computed in a compute type (float, double, int32 or int64) chosen by the caller
// from the promotion rules, and converted on the way in and out. Large operations are split
// over the executor's idle workers.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"

namespace openacl::ops {

constexpr int kMaxDims = 8;

struct LoopShape {
    int rank = 0;
    int64_t dims[kMaxDims] = {};
    int64_t Numel() const {
        int64_t n = 1;
        for (int i = 0; i < rank; ++i)
            n *= dims[i];
        return n;
    }
};

struct Operand {
    char* data = nullptr;  // the element at index (0, ..., 0)
    aclDataType dtype = ACL_DT_UNDEFINED;
    int64_t strides[kMaxDims] = {};  // elements
};

enum class BinaryOp : uint8_t {
    kAdd,  // a + alpha * b
    kSub,  // a - alpha * b
    kMul,
    kDiv,  // true division (the caller computes integers in a floating type)
    kMaximum,
    kMinimum,
    kPow,
    kEq,
    kNe,
    kLt,
    kLe,
    kGt,
    kGe,
    kLogicalAnd,
    kLogicalOr,
};

struct BinaryArgs {
    BinaryOp op = BinaryOp::kAdd;
    LoopShape shape;
    Operand a, b, out;
    aclDataType compute = ACL_FLOAT;  // ACL_FLOAT, ACL_DOUBLE, ACL_INT32 or ACL_INT64
    double alpha = 1.0;               // kAdd/kSub in floating compute types
    int64_t alpha_int = 1;            // kAdd/kSub in integer compute types
};

enum class UnaryOp : uint8_t {
    kIdentity,  // a copy that converts (Cast, InplaceCopy)
    kNeg,
    kAbs,
    kExp,
    kLog,
    kSqrt,
    kRsqrt,
    kSin,
    kCos,
    kTanh,
    kSigmoid,
    kRelu,
    kReciprocal,
    kSilu,
    kSign,
    kFloor,
    kCeil,
    kRound,  // to nearest, ties to even
    kErf,
    kLog1p,
    kExpm1,
    kSquare,
    kGeluErf,   // x * Phi(x)
    kGeluTanh,  // the tanh approximation
    kHardsigmoid,
    kHardswish,
    kLeakyRelu,  // p0: the negative slope
    kClamp,      // p0, p1: the bounds (NaN: none)
    kLogicalNot,
    kAffine,  // p0 * x + p1 (Muls, Adds of scalars in floating compute types)
};

struct UnaryArgs {
    UnaryOp op = UnaryOp::kIdentity;
    LoopShape shape;
    Operand in, out;
    aclDataType compute = ACL_FLOAT;
    double p0 = 0.0, p1 = 0.0;
};

// Fills every element of `out` (over `shape`) with one value.
struct FillArgs {
    LoopShape shape;
    Operand out;
    double value = 0.0;     // floating output types
    int64_t value_int = 0;  // integer and bool output types
};

void RunBinary(const BinaryArgs& args);
void RunUnary(const UnaryArgs& args);
void RunFill(const FillArgs& args);

}  // namespace openacl::ops
