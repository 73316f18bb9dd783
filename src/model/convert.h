// Element conversion at a model's boundary: float16 inputs and outputs declared by atc, and the
// --output_type choices, turned into what the graph takes and gives.
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_base_rt.h"

namespace openacl::model {

// IEEE 754 binary16 <-> binary32, round to nearest even, with infinities and NaN preserved.
uint16_t FloatToHalf(float value);
float HalfToFloat(uint16_t value);

// True when ConvertElements can convert between the two types (numeric types and bool).
bool CanConvert(aclDataType from, aclDataType to);

// Converts count elements; integers saturate, float -> bool is "!= 0". dst and src must not
// overlap. The types must satisfy CanConvert.
void ConvertElements(aclDataType from, const void* src, aclDataType to, void* dst, size_t count);

}  // namespace openacl::model
