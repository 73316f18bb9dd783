// The model compiler: ONNX graph -> Plan (model/plan.h). Import lowers each ONNX node into plan
// layers with ONNX's meaning (constant subgraphs are evaluated on the way); passes then rewrite
// the plan without changing what it computes: BatchNormalization folded into convolutions,
// x*sigmoid(x) turned into swish, activations and residual adds fused into the layer before
// them as oneDNN post-ops, views collapsed, an input that two strided 1x1 convolutions read
// subsampled once, dead layers removed, and each convolution told whether it may use blocked
// layouts and Winograd.
#pragma once

#include <string>
#include <vector>

#include "model/plan.h"

namespace openacl::model {

struct CompileOptions {
    bool fuse = true;    // BatchNorm folding, SiLU, post-op fusion, view collapsing,
                         // subsampling once for strided 1x1 convolutions
    bool layout = true;  // convolutions may pick blocked layouts ("any") and Winograd
};

// The options from OPENACL_MODEL_PASSES (documented in README): "all" (default), "none", or a
// comma list of "fuse", "layout".
CompileOptions CompileOptionsFromEnvironment();

// Conv layer flags (the conv's last int).
inline constexpr int64_t kConvBlocked = 1;   // src/dst may use oneDNN's blocked formats
inline constexpr int64_t kConvWinograd = 2;  // may use Winograd (3x3, stride 1; see the engine)

struct CompileResult {
    Plan plan;
    // When the graph cannot be compiled: the operators (with the reason when it is a form of a
    // covered operator, e.g. "Resize (mode cubic)") and/or a general reason.
    std::vector<std::string> unsupported;
    std::string error;
};

// Compiles a serialized ONNX model whose graph inputs all have static shapes. True with
// result->plan on success; false with result->unsupported and/or result->error otherwise.
bool CompileOnnx(const std::string& onnx, const CompileOptions& options, CompileResult* result);

// Passes (compiler/*.cpp), each keeps the plan's meaning.
void FoldBatchNorm(Plan* plan);  // conv -> batchnorm becomes one conv
void FuseSwish(Plan* plan);      // x * sigmoid(x) becomes eltwise swish
// Eltwise / residual add into the producer's post-ops.
void FusePostOps(Plan* plan);
void CollapseViews(Plan* plan);  // view(view(x)) -> view(x)
// Strided 1x1 convolutions of one input read it through one strided 1x1 max pool instead.
void SubsampleOnce(Plan* plan);
void RemoveDeadLayers(Plan* plan);             // layers and tensors no output depends on
void ChooseLayouts(Plan* plan, bool blocked);  // conv flags: blocked formats, Winograd
// A 2-D 3x3 convolution, stride and dilation 1, of 64 channels or more: Winograd F(4x4, 3x3)
// pays for its transforms there.
bool WinogradShape(const Plan& plan, const PlanLayer& conv);

// How many layers read tensor `id` (post-op sums included) plus 1 if it is a graph output.
size_t UseCount(const Plan& plan, uint32_t id);

}  // namespace openacl::model
