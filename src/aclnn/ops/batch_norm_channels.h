// The per-channel tensors of aclnnBatchNorm and aclnnBatchNormBackward (weight, bias, running
// and saved statistics, the weight and bias gradients): 1-D, one value per channel, of a
// floating type, read and written as doubles.
#pragma once

#include <cstdint>

#include "aclnn/op_executor.h"

namespace openacl::aclnn {

// Copies `tensor`'s view; 161002 unless it is 1-D with `channels` values of a floating type.
aclnnStatus ChannelView(const aclTensor* tensor, const char* name, int64_t channels,
                        TensorView* view);

// The n values of a channel view at `address`, as doubles.
void ReadChannels(const TensorView& view, void* address, double* out, int64_t n);

// Writes n doubles to a channel view at `address`, rounded to its type.
void WriteChannels(const TensorView& view, void* address, const double* in, int64_t n);

}  // namespace openacl::aclnn
