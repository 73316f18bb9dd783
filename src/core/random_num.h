// aclrtRandomNumAsync: a stream task that fills device memory with random numbers, as the DSA
// unit of Atlas A2/A3 chips does (CANN documents the call for those two lines only; other chips
// answer ACL_ERROR_RT_FEATURE_NOT_SUPPORT). CPU backend only.
//
// What the task reads, and when. Every aclrtRandomParaInfo (the seed, the count, and the
// distribution's parameters) holds its value in valueOrAddr (isAddr 0: `size` little-endian
// bytes, the rest zero) or the 8-byte address of device memory holding it (isAddr 1), read when
// the task runs: the seed and the count as 8 bytes, a parameter as one element of dataType.
// The counter (randomCounterAddr, 16 bytes of device memory) is read when the task runs and
// left unchanged. A non-null randomParaAddr (16 bytes of device memory) receives, in the call,
// the two parameter words as CANN's runtime writes them there (the first parameter's 8 bytes,
// then the second's: values or addresses), and the task reads its parameters back from it when
// it runs, so a captured task follows what is written there later; with a null one the call
// keeps them itself.
//
// The generator is Philox4x32-10 (Salmon et al., SC'11; what CANN's documentation names for the
// DSA unit), with the Random123 round constants: key = the 64-bit seed (low word first),
// counter = the 16 counter bytes as a little-endian 128-bit number; block b of a task is
// Philox(counter + b), and its four 32-bit outputs are used in order, one "word" each. Word i
// makes number i as follows (numbers are rounded once to dataType, to nearest even):
//   uniform, float types   min + (word >> 8) * 2^-24 * (max - min), in [min, max) (a value that
//                          rounds up to max takes the next value below it);
//   uniform, 32-bit ints   min + floor(word * (max - min) / 2^32), in [min, max);
//   uniform, 64-bit ints   two words, low first, make a 64-bit W: min + floor(W * (max - min)
//                          / 2^64); numbers i use words 2i and 2i + 1;
//   (uniform with max <= min gives min everywhere);
//   normal                 mean + stddev * Q((word + 0.5) / 2^32), Q the standard normal
//                          quantile (Acklam's rational approximation, relative error < 1.2e-9);
//   truncated normal       the same, with the probability mapped into [P(-2), P(2)], so every
//                          number lies within two standard deviations of the mean (the bound
//                          of TensorFlow's TruncatedNormal; CANN documents none);
//   dropout bitmask        randomNum bits, ceil(randomNum / 8) bytes, bit j of byte k for
//                          number 8k + j (least significant first): 0 (dropped) when
//                          word < dropoutRation * 2^32, else 1 (kept); dataType is the type of
//                          the ratio; unused bits of the last byte are 0.
// The same seed, counter bytes, parameters and count give the same numbers on every run and
// machine (the arithmetic is done in doubles without fused multiply-adds; the quantile calls the
// C library's log and sqrt). A task uses ceil(words / 4) counter values, so the next task's
// counter should move on by at least that much for independent numbers.
#pragma once

#include "acl/acl_rt.h"
#include "backend/cpu/task.h"

namespace openacl {

class Stream;

// The data types CANN lists for aclrtRandomNumTaskInfo::dataType.
bool IsRandomDataType(aclDataType type);

// The checks that depend on the chip, the function, the memory and the stream, then the task.
// The API layer has checked the pointer, the reserve argument and IsRandomDataType.
aclError RandomNumAsync(const aclrtRandomNumTaskInfo& info, Stream* stream);
// The same checks and the task, not submitted (aclrtTaskUpdateAsync rebuilds a captured one).
aclError BuildRandomNumTask(const aclrtRandomNumTaskInfo& info, Stream* stream, cpu::Task* out);

}  // namespace openacl
