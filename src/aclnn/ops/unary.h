// The first phase of the element-wise operators with one tensor operand (Abs, Exp, Relu, Gelu,
// Clamp with scalar bounds, ... and their in-place forms), of the conversions (Cast,
// InplaceCopy) and of the fills (InplaceFillScalar, InplaceZero): the documented checks
// (nulls, the operator's dtypes, the result's cast to the output, the output's shape) and an
// executor that runs the element-wise engine (ops/elementwise.h) on the stream.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "aclnn/op_executor.h"
#include "ops/elementwise.h"

namespace openacl::aclnn {

// The type of an operator's result, from self's (and out's) type.
enum class UnaryResult : uint8_t {
    kSame,      // self's type (Abs, Neg, Relu, Floor, ...)
    kFloating,  // self's type when floating, else float: integers compute in float (Exp, Sqrt)
    kBool,      // bool (LogicalNot)
    kOut,       // out's type: self is converted to it first (Clamp)
};

struct UnarySpec {
    const char* api;  // the second phase: "aclnnExp"
    ops::UnaryOp op;
    std::initializer_list<aclDataType> dtypes;  // what self may be
    // What out may be; empty: any type the result casts to (ops::CanCast).
    std::initializer_list<aclDataType> out_dtypes = {};
    // What selfRef of the in-place form may be; empty: `dtypes`.
    std::initializer_list<aclDataType> inplace_dtypes = {};
    UnaryResult result = UnaryResult::kSame;
    bool same_dtype = false;  // out must have self's type
    // The kernel is floating-point math (Exp, Gelu, Hardsigmoid): integer tensors compute in
    // float (double for 64-bit ones) and the result is converted back. Otherwise integers
    // compute in integers (Neg, Abs, Relu, Clamp, BitwiseNot).
    bool float_math = true;
    const char* self_name = nullptr;  // "self" ("selfRef" in place) when null
    const char* out_name = nullptr;   // "out" when null
    // The kernel's parameters (ops::UnaryArgs): doubles for floating compute types, integers
    // for integer ones.
    double p0 = 0.0, p1 = 0.0, p2 = 0.0;
    int64_t i0 = 0, i1 = 0;
};

// out = op(self); out == self for the in-place forms.
aclnnStatus PlanUnary(const UnarySpec& spec, const aclTensor* self, const aclTensor* out,
                      bool inplace, uint64_t* workspaceSize, aclOpExecutor** executor);

// dst = src converted to dst's type, src broadcast to dst's shape (Cast, InplaceCopy). The
// views were checked; src_tensor is an input, dst_tensor the output, or (inplace) an input
// written in place. A src whose memory overlaps dst's (other than as the very same view) is
// copied aside first.
aclnnStatus PlanConvert(const char* api, const TensorView& src, const aclTensor* src_tensor,
                        const TensorView& dst, const aclTensor* dst_tensor, bool inplace,
                        uint64_t* workspaceSize, aclOpExecutor** executor);

// Every element of selfRef = value (converted to selfRef's type: truncated toward zero for
// integers, nonzero for bool). selfRef was checked.
aclnnStatus PlanFill(const char* api, const TensorView& self, const aclTensor* self_tensor,
                     double value, int64_t value_int, uint64_t* workspaceSize,
                     aclOpExecutor** executor);

// 161001 for a null scalar; 161002 for a destroyed one or one whose type cannot be cast to `to`
// (a complex value to a real type, see ops::CanCast).
aclnnStatus CheckScalarCastsTo(const aclScalar* scalar, const char* name, aclDataType to);

// The type a kernel that converts `from` to `to` computes in, exactly where the types allow:
// double where either is double, float where either is another floating type, int64 between
// integers and bool.
aclDataType ConvertComputeType(aclDataType from, aclDataType to);

}  // namespace openacl::aclnn
