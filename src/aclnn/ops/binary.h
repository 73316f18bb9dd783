// The first phase of the element-wise operators with two operands (Add, Sub, Mul, Div and
// their scalar and in-place forms, comparisons): the documented checks (nulls, dtypes, type
// promotion, the cast to the output, broadcasting, the output's shape) and an executor that
// runs ops::RunBinary on the stream.
#pragma once

#include <initializer_list>

#include "aclnn/op_executor.h"
#include "ops/elementwise.h"

namespace openacl::aclnn {

struct BinarySpec {
    const char* api;  // the second phase: "aclnnAdd"
    ops::BinaryOp op;
    std::initializer_list<aclDataType>
        dtypes;                  // what self, other (tensor or scalar) and out may be
    bool true_division = false;  // integer operands compute (and promote) in float
    bool comparison = false;     // out is bool (or any type the 0/1 result casts to)
    // When not empty, what out may be (instead of `dtypes`; for comparisons, instead of any type).
    std::initializer_list<aclDataType> out_dtypes = {};
    bool bool_to_float = false;  // two bool operands compute in float (FloorDivide)
    bool no_bool_pair = false;   // two bool operands are refused (Pow)
    // An integer computation's scalar exponent may not be negative (PowTensorScalar).
    bool non_negative_int_exponent = false;
    // The scalar is the first operand, the tensor the second (PowScalarTensor: base^exponent).
    bool scalar_first = false;
    // Parameter names for messages: the tensor operand ("self", "selfRef" in place) and the
    // other operand ("other").
    const char* self_name = nullptr;
    const char* other_name = nullptr;
};

// out = self (op) alpha * other. alpha may be null where the operator has none; out == self
// for the in-place forms (named selfRef).
aclnnStatus PlanBinary(const BinarySpec& spec, const aclTensor* self, const aclTensor* other,
                       const aclScalar* alpha, const aclTensor* out, bool inplace,
                       uint64_t* workspaceSize, aclOpExecutor** executor);
// The same with a scalar second operand (Adds, Muls, GtScalar, ...).
aclnnStatus PlanBinaryScalar(const BinarySpec& spec, const aclTensor* self, const aclScalar* other,
                             const aclScalar* alpha, const aclTensor* out, bool inplace,
                             uint64_t* workspaceSize, aclOpExecutor** executor);

// The compute type of a promoted dtype: float for the 16- and 32-bit floats, double, int32 for
// bool and integers up to 16 bits and int32, int64 for the wider ones.
aclDataType ComputeType(aclDataType promoted);

}  // namespace openacl::aclnn
