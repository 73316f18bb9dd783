// Contiguous runs of float16 converted to and from float with the CPU's F16C instructions,
// eight at a time, when it has them: exact one way, round-to-nearest-even the other, as the
// scalar conversions of ops/element.h. Load and Store take these paths for runs of 8 or more.
#pragma once

#include <cstdint>

namespace openacl::ops {

// Whether this CPU converts float16 in hardware (F16C, with the OS saving YMM registers).
bool HasF16c();

// out[0..n) = the n float16 values at `in`; false (nothing done) without F16C.
bool HalfRunToFloats(const char* in, int64_t n, float* out);

// The n floats at `in` as float16 at `out`, rounded to nearest even; false without F16C.
bool FloatRunToHalfs(const float* in, int64_t n, char* out);

}  // namespace openacl::ops
