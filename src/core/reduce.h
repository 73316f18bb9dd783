// aclrtReduceAsync: CANN's in-line reduction, a device-to-device SDMA copy that combines instead
// of overwriting. In stream order, every element of dst becomes dst[i] op src[i] for the first
// `count` bytes (count is the size of src in bytes, as CANN documents; its own sample adds
// {1, 2, 3, 4} into a copy of itself and reads {2, 4, 6, 8}).
//
// Kinds and types follow the configured chip, as CANN documents them per product:
//   Ascend 950              SUM, MAX, MIN   int8, int16, int32, uint32, float16, float, bfloat16
//   Atlas A2 / A3           SUM, MAX, MIN   int8, int16, int32, float16, float, bfloat16
//   Atlas 200I/500 A2 (310B) SUM, MAX, MIN  int8, int16, int32, float16, float
//   Atlas inference (310P)  SUM only        float, float16, int16
//   Atlas training (910)    SUM only        float
// anything else answers ACL_ERROR_RT_FEATURE_NOT_SUPPORT, as the real runtime does. So does
// ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL everywhere: CANN declares it but documents no result for
// it, and openacl does not guess one.
//
// Arithmetic: integers wrap around (two's complement); float adds in IEEE single precision;
// float16 and bfloat16 are added exactly and rounded once to the format (nearest, ties to
// even; past the largest finite value: infinity). MAX and MIN keep one of the two elements
// bit for bit; a NaN on either side gives that NaN (dst's first), and -0 orders below +0.
//
// dst and src must be device memory of the stream's device, aligned to 2 bytes for 16-bit
// types and 4 bytes for 32-bit ones (ACL_ERROR_RT_ADDR_UNALIGNED otherwise, as CANN), and
// count a whole number of elements. CPU backend only.
#pragma once

#include <cstdint>

#include "acl/acl_rt.h"

namespace openacl {

class Stream;

// True for the data types some chip reduces (the API layer refuses the others).
bool IsReducibleType(aclDataType type);

// The checks that depend on the chip, the memory and the stream, then the task. dst and src
// are non-null, kind is an aclrtReduceKind and type reducible (the API layer's checks).
aclError ReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind,
                     aclDataType type, Stream* stream);

}  // namespace openacl
