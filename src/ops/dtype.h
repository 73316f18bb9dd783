// Element types as the operator library sees them: sizes, names, families, and the promotion
// and cast rules aclnn documents (a PyTorch-like table: bool < integers < floats < complex;
// float16 with bfloat16 gives float32; uint16/32/64 mix only with themselves and bool).
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"

namespace openacl::ops {

// Bytes per element; 0 for types the operators do not compute on (strings, sub-byte and
// 8-bit float formats, undefined values).
size_t DtypeSize(aclDataType type);
// "ACL_FLOAT16", or "aclDataType(N)" for a value that names no type (static storage).
const char* DtypeName(aclDataType type);

bool IsFloating(aclDataType type);  // float16, bfloat16, float, double
bool IsIntegral(aclDataType type);  // signed and unsigned integers, not bool
bool IsComplex(aclDataType type);
bool IsUnsignedWide(aclDataType type);  // uint16, uint32, uint64: promote with themselves only

// The type two tensors of types a and b compute in; false when the table has no entry (an
// unsigned wide type with another type, complex or unknown types).
bool PromoteTypes(aclDataType a, aclDataType b, aclDataType* result);
// The type a tensor of type `tensor` and a scalar of type `scalar` compute in: a floating
// tensor keeps its type; an integer or bool tensor with a floating scalar computes in float32;
// with an integer scalar an integer tensor keeps its type and a bool tensor takes the scalar's.
bool PromoteWithScalar(aclDataType tensor, aclDataType scalar, aclDataType* result);
// Whether a value computed in `from` may be written to a tensor of type `to`: bool to anything;
// never complex to real, floating to integer, or anything but bool to bool.
bool CanCast(aclDataType from, aclDataType to);

}  // namespace openacl::ops
