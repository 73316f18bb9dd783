// HCCL's data types and reduce operations: element sizes, names, and the reductions the
// transports apply. float16 and bfloat16 are reduced in float and rounded (to nearest even)
// once per result element, so a sum over any number of ranks is as exact as one rounding
// allows and does not depend on the order the ranks arrive in. Integer sums and products wrap
// around as two's complement, as hardware adders do.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hccl/hccl_types.h"

namespace openacl::hccl {

// Bytes per element; 0 for a value that is not an HCCL data type.
size_t DataTypeSize(HcclDataType type);
const char* DataTypeName(HcclDataType type);
const char* ReduceOpName(HcclReduceOp op);
// Whether collectives that reduce (AllReduce, Reduce, ReduceScatter[V]) take `type`.
bool Reducible(HcclDataType type);

// out[i] = op over in[0][i] .. in[n-1][i] for i in [begin, end). `out` may be one of the
// inputs: every input element i is read before out[i] is written.
void ReduceMany(HcclDataType type, HcclReduceOp op, void* out, const void* const* in, uint32_t n,
                size_t begin, size_t end);
// The same result written to each of outs[0 .. n_out) (an AllReduce's receive buffers): each
// block of the inputs is read once. Outputs may be inputs. `streaming` writes the outputs with
// non-temporal stores where the CPU has them: for results larger than the caches, it saves the
// read of every destination line and keeps the inputs cached.
void ReduceMany(HcclDataType type, HcclReduceOp op, void* const* outs, uint32_t n_out,
                const void* const* in, uint32_t n, size_t begin, size_t end, bool streaming);

// c[i] = a[i] op b[i] for i in [0, count): the pairwise form engines with their own algorithms
// (Gloo) call; c may be a or b.
void ReducePair(HcclDataType type, HcclReduceOp op, void* c, const void* a, const void* b,
                size_t count);

}  // namespace openacl::hccl
