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
    kFloorDivide,  // the quotient rounded toward negative infinity (Python's //)
    kTruncDivide,  // the quotient rounded toward zero
    kBitwiseAnd,   // integer and bool compute types only
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
    kAtan,
    kBitwiseNot,  // ~x (integer compute types)
    kElu,         // x > 0 ? p1 * x : p1 * p0 * (exp(p2 * x) - 1): alpha, scale, input scale
    kSoftplus,    // x * p0 > p1 ? x : log1p(exp(p0 * x)) / p0: beta, threshold
    kThreshold,   // x > p0 ? x : p1
};

// The parameters p0..p2 are read as doubles in floating compute types; in integer compute types
// i0 and i1 stand for p0 and p1 (converted exactly, saturated to the compute type). kClamp's
// bounds are p0 (i0) below and p1 (i1) above: the compute type's extremes (or infinities) when
// absent; a NaN bound gives NaN, a NaN element stays NaN.
struct UnaryArgs {
    UnaryOp op = UnaryOp::kIdentity;
    LoopShape shape;
    Operand in, out;
    aclDataType compute = ACL_FLOAT;
    double p0 = 0.0, p1 = 0.0, p2 = 0.0;
    int64_t i0 = 0, i1 = 0;
};

// Copies elements of one dtype (in and out have the same element size) bit for bit: no
// conversion, so NaN payloads and the bits of any type survive.
struct CopyArgs {
    LoopShape shape;
    Operand in, out;
};

enum class TernaryOp : uint8_t {
    kWhere,    // a != 0 ? b : c
    kClamp,    // a limited to [b, c] (a NaN bound gives NaN)
    kAddcdiv,  // a + p0 * (b / c)
};

struct TernaryArgs {
    TernaryOp op = TernaryOp::kWhere;
    LoopShape shape;
    Operand a, b, c, out;
    aclDataType compute = ACL_FLOAT;  // ACL_FLOAT, ACL_DOUBLE, ACL_INT32 or ACL_INT64
    double p0 = 1.0;                  // kAddcdiv's value in floating compute types
    int64_t p0_int = 1;               // ... and in integer compute types
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
void RunTernary(const TernaryArgs& args);
void RunFill(const FillArgs& args);
void RunCopy(const CopyArgs& args);

}  // namespace openacl::ops
