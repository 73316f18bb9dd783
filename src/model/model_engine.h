// The ModelEngine interface: what runs a graph. The model layer (model.cpp) owns descriptions,
// buffers and the float16 boundary; an engine only turns input tensors into output tensors.
// One engine per loaded model; one EngineInstance per concurrent execution (instances are
// pooled and reused, never rebuilt per call).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_base_rt.h"
#include "model/engine_choices.h"
#include "model/onnx_graph.h"

namespace openacl::model {

// A tensor the engine reads or produces. The engine never owns an input's data; an output's
// data belongs to the instance and stays valid until that instance's next Run.
struct TensorView {
    aclDataType type = ACL_DT_UNDEFINED;
    std::vector<int64_t> dims;
    const void* data = nullptr;
    size_t bytes = 0;
};

// What a run tells, layer by layer, whoever watches it: a dump (core/dump.h) wants the tensors
// of the layers it lists, a profiling subscription (core/prof_subscribe.h) when each layer ran.
// Called on the thread that runs the model, between the layers; tensors are plain (row-major)
// float32 and valid only during the call.
class RunObserver {
 public:
    virtual ~RunObserver() = default;
    // Whether layer `layer`'s tensors are wanted (LayerInputs, and outputs in LayerDone).
    virtual bool WantsTensors(size_t layer) const = 0;
    // Before the layer runs: its inputs (only where WantsTensors).
    virtual void LayerInputs(size_t layer, const std::vector<TensorView>& inputs) = 0;
    // After: when it ran (steady clock, ns) and, where WantsTensors, its outputs.
    virtual void LayerDone(size_t layer, int64_t start_ns, int64_t end_ns,
                           const std::vector<TensorView>& outputs) = 0;
};

class EngineInstance {
 public:
    virtual ~EngineInstance() = default;
    // The next runs report to `observer` (nullptr: to no one). An engine that cannot tell its
    // layers apart (layer_count() == 0) ignores it; the model layer reports the whole run.
    void Observe(RunObserver* observer) { observer_ = observer; }
    // Runs the graph once. inputs are in graph-input order, in the graph's declared element
    // types, with their actual (static) dims. On success *outputs holds one view per graph
    // output, in graph-output order, in the graph's declared element types and actual dims.
    // On failure returns false and says why in *error. Not thread-safe: one caller at a time.
    virtual bool Run(const std::vector<TensorView>& inputs, std::vector<TensorView>* outputs,
                     std::string* error) = 0;

 protected:
    RunObserver* observer_ = nullptr;
};

class ModelEngine {
 public:
    virtual ~ModelEngine() = default;
    // A fresh instance for one more concurrent execution; nullptr with *error on failure.
    virtual std::unique_ptr<EngineInstance> CreateInstance(std::string* error) = 0;
    virtual const char* name() const = 0;  // "onednn" or "opencv-dnn"
    // Bytes of weights the engine holds, in its own formats; 0 when it cannot tell.
    virtual size_t weight_bytes() const { return 0; }
    // The implementation that runs plan layer `layer` as its library names it (oneDNN's
    // "jit_fp32_wino_2x3:avx512_core"); empty when there is none or the engine cannot tell.
    virtual std::string kernel(size_t /*layer*/) const { return {}; }
    // The compute threads each run borrows (backend/cpu/compute_gate.h); 0: not from the gate.
    virtual int threads() const { return 0; }
    // The layers a run reports to a RunObserver, with their operator type and name as the
    // graph calls them ("Conv", "conv1"); 0 when the engine cannot report layer by layer.
    virtual size_t layer_count() const { return 0; }
    virtual std::string layer_type(size_t /*layer*/) const { return {}; }
    virtual std::string layer_name(size_t /*layer*/) const { return {}; }
    // How many of the plan's first layers each run runs one image at a time (a batch's
    // large early activations stay in cache); 0: every layer runs the whole batch.
    virtual size_t layers_by_image() const { return 0; }
    // Whether the engine was built from stored choices (EngineChoices) without timing.
    virtual bool built_from_choices() const { return false; }
};

// The OpenCV DNN engine for a serialized ONNX graph described by `graph`. Fails, naming the
// operators OpenCV cannot import, when the graph is not supported.
std::unique_ptr<ModelEngine> CreateOpenCvEngine(const std::string& onnx, const GraphInfo& graph,
                                                std::string* error);

struct Plan;

// The format of the compiled engine's 2-D convolution regions (where the plan lets them use
// blocked formats): oneDNN's channel-blocked nChw16c, which its Winograd needs, or nhwc, where
// its newer brgemm kernels run (5% faster on MobileNetV2 on a Zen 5, slower elsewhere).
// kMeasure builds a plan without Winograd both ways and keeps the faster; it also lets a small
// model run on one thread where that is faster (CreateDnnlEngine). The others fix both.
enum class ConvLayout { kMeasure, kBlocked, kNhwc };

// Whether a batch's first layers run one image at a time (ModelEngine::layers_by_image):
// kMeasure times it against the whole batch at load where the layout is measured too (a pinned
// layout runs the whole batch); kAlways wherever the plan has such layers; kNever nowhere.
enum class ByImage { kMeasure, kAlways, kNever };

// The compiled engine (dnnl_engine.cpp) for a validated plan: its oneDNN primitives are built
// now, for runs of `threads` OpenMP threads (at most the compute gate's capacity), which each
// run borrows from the gate (backend/cpu/compute_gate.h); a model small enough that waking the
// other threads may cost more than they save is also built for one thread, and the faster
// kept. Fails with *error when oneDNN cannot build a layer.
//
// What kMeasure decides by timing goes to *taken (when given); choices timed before on this
// machine for these threads (`given`, from the .om) are built as they say, with no timing.
std::unique_ptr<ModelEngine> CreateDnnlEngine(std::shared_ptr<const Plan> plan, int threads,
                                              std::string* error,
                                              ConvLayout layout = ConvLayout::kMeasure,
                                              ByImage by_image = ByImage::kMeasure,
                                              const EngineChoices* given = nullptr,
                                              EngineChoices* taken = nullptr);

}  // namespace openacl::model
