// N-d convolution and transposed convolution of plain float32 data (aclnnConvolution and its
// kin), planned once as a oneDNN primitive and run on the stream's worker as often as the
// executor is replayed. Operands are dense row-major float32 buffers in PyTorch's layouts:
// src [N, IC, in...], dst [N, OC, out...], weights [OC, IC / G, k...] for a convolution and
// [IC, OC / G, k...] for a transposed one, bias [OC]; the caller converts other types and
// strided views (aclnn/ops/aclnn_convolution.cpp packs them into its workspace).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace openacl::ops {

constexpr int kMaxConvSpatial = 3;

struct ConvolutionShape {
    int spatial = 0;  // 1 (NCL), 2 (NCHW) or 3 (NCDHW)
    bool transposed = false;
    bool bias = false;
    int64_t batch = 0, in_channels = 0, out_channels = 0, groups = 1;
    int64_t in[kMaxConvSpatial] = {}, kernel[kMaxConvSpatial] = {}, out[kMaxConvSpatial] = {};
    int64_t stride[kMaxConvSpatial] = {}, dilation[kMaxConvSpatial] = {};  // 1 = no dilation
    // Padding before and after each spatial dimension. For a transposed convolution these
    // crop the full result, and pad_end already has outputPadding taken off (it may be
    // negative: rows added after the full result, which only the bias reaches).
    int64_t pad_begin[kMaxConvSpatial] = {}, pad_end[kMaxConvSpatial] = {};
};

class ConvolutionPlan {
 public:
    // Plans the primitive; null with *error when oneDNN takes none of the ways it knows.
    // Every dimension must be positive (the caller handles empty tensors); rows a transposed
    // convolution's negative pad_end adds are filled with the bias.
    static std::unique_ptr<ConvolutionPlan> Create(const ConvolutionShape& shape,
                                                   std::string* error);
    virtual ~ConvolutionPlan() = default;

    // Bytes of scratch memory Run needs (64-byte aligned by the caller).
    virtual size_t scratchpad_bytes() const = 0;
    // Computes dst from src, weights and bias (null without one). Re-entrant: the scratch
    // memory is the caller's. False with *error when oneDNN fails.
    virtual bool Run(const float* src, const float* weights, const float* bias, float* dst,
                     void* scratchpad, std::string* error) const = 0;
};

}  // namespace openacl::ops
