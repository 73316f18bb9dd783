#include "model/model.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>

#include <sys/stat.h>

#include "backend/cpu/sync.h"
#include "core/check.h"
#include "core/context.h"
#include "core/device.h"
#include "core/dump.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/log.h"
#include "core/memory.h"
#include "core/overflow.h"
#include "core/prof_subscribe.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "model/compiler/compiler.h"
#include "model/convert.h"
#include "model/plan.h"

namespace openacl::model {
namespace {

constexpr size_t kDryRunLimit = size_t{256} << 20;  // bytes of inputs a dry run may allocate
// Set while an execution on a stream with its overflow switch on runs on this thread: Run adds
// the infinities and NaNs of the outputs (core/overflow.h).
thread_local uint32_t* t_overflow_seen = nullptr;

const char* TypeName(aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
            return "float32";
        case ACL_FLOAT16:
            return "float16";
        case ACL_DOUBLE:
            return "float64";
        case ACL_INT8:
            return "int8";
        case ACL_UINT8:
            return "uint8";
        case ACL_INT16:
            return "int16";
        case ACL_UINT16:
            return "uint16";
        case ACL_INT32:
            return "int32";
        case ACL_UINT32:
            return "uint32";
        case ACL_INT64:
            return "int64";
        case ACL_UINT64:
            return "uint64";
        case ACL_BOOL:
            return "bool";
        default:
            return "unsupported type";
    }
}

bool ContextIsLive(Context* context, uint64_t serial) {
    Context* current = CurrentContext();
    if (current == context && current->serial() == serial) return true;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    Context* live = LookupContextLocked(context);
    return live != nullptr && live->serial() == serial;
}

}  // namespace

aclError ReadModelFile(const char* path, std::string* bytes) {
    struct stat info {};
    if (::stat(path, &info) == 0 && !S_ISREG(info.st_mode)) {
        return Fail(ACL_ERROR_READ_MODEL_FAILURE, "model path \"%s\" is not a regular file", path);
    }
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        return Fail(ACL_ERROR_READ_MODEL_FAILURE, "cannot open model file \"%s\": %s", path,
                    std::strerror(errno));
    }
    file.seekg(0, std::ios::end);
    std::streamoff length = file.tellg();
    if (length < 0) {
        return Fail(ACL_ERROR_READ_MODEL_FAILURE,
                    "cannot read model file \"%s\" (is it a directory?)", path);
    }
    file.seekg(0, std::ios::beg);
    try {
        bytes->resize(static_cast<size_t>(length));
    } catch (const std::bad_alloc&) {
        return Fail(ACL_ERROR_BAD_ALLOC, "model file \"%s\" (%lld bytes) does not fit in memory",
                    path, static_cast<long long>(length));
    }
    if (length > 0 && !file.read(bytes->data(), length)) {
        return Fail(ACL_ERROR_READ_MODEL_FAILURE, "cannot read model file \"%s\"", path);
    }
    if (length == 0) {
        return Fail(ACL_ERROR_READ_MODEL_FAILURE, "model file \"%s\" is empty", path);
    }
    return ACL_SUCCESS;
}

aclError ReadModelImage(const void* data, size_t size, ModelImage* image) {
    std::string error;
    switch (DetectModelFormat(data, size)) {
        case ModelFormat::kOm: {
            OmFile om;
            if (!ParseOm(data, size, &om, &error)) {
                return Fail(ACL_ERROR_PARSE_MODEL, "the .om model is damaged: %s", error.c_str());
            }
            image->onnx = std::move(om.onnx);
            image->options = std::move(om.options);
            if (!om.plan.empty()) {
                // The plan atc compiled: validated in full now, never run if damaged.
                auto plan = std::make_shared<Plan>();
                if (!ParsePlan(om.plan.data(), om.plan.size(), plan.get(), &error)) {
                    return Fail(ACL_ERROR_PARSE_MODEL,
                                "the .om model's compiled plan is damaged: %s", error.c_str());
                }
                image->plan = std::move(plan);
            }
            break;
        }
        case ModelFormat::kOnnx:
            image->onnx.assign(static_cast<const char*>(data), size);
            image->options = OmOptions{};
            break;
        case ModelFormat::kUnknown:
            return Fail(ACL_ERROR_PARSE_MODEL,
                        "the %zu bytes given are neither an .om model written by openacl's atc "
                        "nor an ONNX model (openacl cannot run .om files of CANN's own atc: "
                        "convert the ONNX model with openacl's atc)",
                        size);
    }
    std::vector<std::pair<std::string, std::vector<int64_t>>> shapes;
    for (const auto& input : image->options.inputs) {
        if (!input.shape.empty()) shapes.emplace_back(input.name, input.shape);
    }
    if (!ApplyInputShapes(&image->onnx, shapes, &error) ||
        !ReadOnnxGraph(image->onnx.data(), image->onnx.size(), &image->graph, &error)) {
        return Fail(ACL_ERROR_PARSE_MODEL, "%s", error.c_str());
    }
    // Engines (OpenCV's importer above all) cannot take an input of unknown rank.
    for (const auto& input : image->graph.inputs) {
        if (!input.has_shape) {
            return Fail(ACL_ERROR_PARSE_MODEL,
                        "input \"%s\" has no shape in the graph: give it one with atc "
                        "--input_shape",
                        input.name.c_str());
        }
    }
    aclError code = ACL_SUCCESS;
    if (!BuildDescription(image->onnx, image->graph, image->options, &image->description, &error,
                          &code)) {
        return Fail(code, "%s", error.c_str());
    }
    return ACL_SUCCESS;
}

void QueryModelSize(const ModelImage& image, size_t* work_size, size_t* weight_size) {
    size_t work = 0;
    for (const auto& io : image.description.inputs)
        work += io.size;
    for (const auto& io : image.description.outputs)
        work += io.size;
    if (weight_size) *weight_size = std::max<size_t>(image.onnx.size(), 1);
    if (work_size) *work_size = std::max<size_t>(work, 1);
}

// One concurrent execution's state: an engine instance and the scratch it converts into.
namespace {

// Watches one execution for a dump and a profiling subscription (model_engine.h's RunObserver).
// An engine that reports no layers is reported as one operator, the whole graph.
class RunWatch : public RunObserver {
 public:
    RunWatch(const ModelEngine& engine, int32_t stream_id, const dump::ModelDump* dump,
             uint64_t execution, std::shared_ptr<const prof::Subscription> subscription)
        : engine_(engine),
          stream_id_(stream_id),
          dump_(dump),
          execution_(execution),
          subscription_(std::move(subscription)) {
        if (dump_) {
            wanted_.resize(engine_.layer_count());
            for (size_t i = 0; i < wanted_.size(); ++i)
                wanted_[i] = dump_->WantsLayer(engine_.layer_name(i));
        }
    }
    bool active() const { return dump_ != nullptr || subscription_ != nullptr; }

    bool WantsTensors(size_t layer) const override {
        return layer < wanted_.size() && wanted_[layer];
    }
    void LayerInputs(size_t /*layer*/, const std::vector<TensorView>& inputs) override {
        inputs_ = inputs;
        // The views die with the call: keep the bytes until the layer's outputs come.
        input_bytes_.clear();
        for (TensorView& view : inputs_) {
            const auto* data = static_cast<const uint8_t*>(view.data);
            input_bytes_.emplace_back(data, data + (data ? view.bytes : 0));
            view.data = input_bytes_.back().data();
        }
    }
    void LayerDone(size_t layer, int64_t start_ns, int64_t end_ns,
                   const std::vector<TensorView>& outputs) override {
        const std::string type = engine_.layer_type(layer);
        const std::string name = engine_.layer_name(layer);
        if (subscription_) subscription_->Note(&records_, type, name, start_ns, end_ns);
        if (WantsTensors(layer)) {
            dump_->WriteLayer(execution_, static_cast<uint32_t>(stream_id_),
                              static_cast<uint32_t>(layer), type, name, inputs_, outputs);
            inputs_.clear();
            input_bytes_.clear();
        }
    }
    // After the run: an engine without layers becomes one operator; records go out.
    void Finish(const std::string& model_name, int64_t start_ns, int64_t end_ns,
                const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) {
        if (engine_.layer_count() == 0) {
            const std::string name = model_name.empty() ? "graph" : model_name;
            if (subscription_) subscription_->Note(&records_, "Graph", name, start_ns, end_ns);
            if (dump_ && dump_->WantsLayer(name)) {
                dump_->WriteLayer(execution_, static_cast<uint32_t>(stream_id_), 0, "Graph", name,
                                  inputs, outputs);
            }
        }
        if (subscription_) subscription_->Flush(records_);
    }

 private:
    const ModelEngine& engine_;
    int32_t stream_id_;
    const dump::ModelDump* dump_;
    uint64_t execution_;
    std::shared_ptr<const prof::Subscription> subscription_;
    std::vector<bool> wanted_;
    std::vector<TensorView> inputs_;
    std::vector<std::vector<uint8_t>> input_bytes_;
    std::vector<prof::OpRecord> records_;
};

}  // namespace

struct Model::Session {
    std::unique_ptr<EngineInstance> engine;
    std::vector<std::vector<uint8_t>> scratch;  // per input, when its type is converted
    std::vector<TensorView> inputs;
    std::vector<TensorView> outputs;
};

Model::Model(uint32_t id, ModelImage image, Context* context, void* weight, bool owns_weight,
             void* work, bool owns_work)
    : id_(id),
      image_(std::move(image)),
      context_(context),
      device_(context->device()),
      context_serial_(context->serial()),
      weight_(weight),
      owns_weight_(owns_weight),
      work_(work),
      owns_work_(owns_work) {}

Model::~Model() {
    idle_.clear();
    engine_.reset();
    // A device reset already took the model's memory back (and may have handed it out again).
    if ((owns_weight_ || owns_work_) && ContextIsLive(context_, context_serial_)) {
        if (owns_weight_ && weight_) DeviceFree(weight_, false);
        if (owns_work_ && work_) DeviceFree(work_, false);
    }
}

// The compiled engine when the model is static and every operator is covered; OpenCV DNN
// otherwise (the log says why).
std::unique_ptr<ModelEngine> Model::CreateCompiledEngine() {
    const auto& desc = image_.description;
    std::string why;
    if (desc.has_gears()) why = "the model has dynamic gears";
    for (const auto& input : image_.graph.inputs) {
        for (int64_t d : input.dims) {
            if (d < 0 && why.empty()) why = "input '" + input.name + "' has a dynamic shape";
        }
    }
    // A stored plan is used when it was compiled for the inputs the model now has.
    std::shared_ptr<const Plan> plan = image_.plan;
    bool fits = plan && why.empty() && plan->inputs.size() == image_.graph.inputs.size() &&
                plan->outputs.size() == image_.graph.outputs.size();
    for (size_t i = 0; fits && i < plan->inputs.size(); ++i)
        fits = plan->tensors[plan->inputs[i]].dims == image_.graph.inputs[i].dims;
    if (!fits) plan.reset();
    // atc's timing holds for its plan only.
    const EngineChoices* choices =
        plan && !image_.options.engine.machine.empty() ? &image_.options.engine : nullptr;
    if (why.empty() && !plan) {
        CompileResult result;
        if (CompileOnnx(image_.onnx, CompileOptionsFromEnvironment(), &result)) {
            plan = std::make_shared<const Plan>(std::move(result.plan));
        } else if (!result.unsupported.empty()) {
            for (const auto& op : result.unsupported)
                why += (why.empty() ? "unsupported: " : ", ") + op;
        } else {
            why = result.error;
        }
    }
    std::unique_ptr<ModelEngine> engine;
    // A dumped model runs every layer on the whole batch, so each layer's tensors are whole.
    if (plan) {
        engine = CreateDnnlEngine(plan, ComputeThreadsPerRun(), &why, ConvLayout::kMeasure,
                                  dump_ ? ByImage::kNever : ByImage::kMeasure, choices);
    }
    if (engine) {
        OPENACL_LOG_INFO(
            "model %u runs on the compiled engine (onednn, %zu layers, the first %zu of them "
            "image by image, %.1f MiB of weights in its formats; %s)",
            id_, plan->layers.size(), engine->layers_by_image(),
            static_cast<double>(engine->weight_bytes()) / (1 << 20),
            engine->built_from_choices() ? "built as atc timed it on this machine"
            : choices ? "timed at load: atc timed it on another machine or thread count"
                      : "timed at load");
    } else if (plan) {
        // The compiler covered the graph but oneDNN could not build or run its plan: not the
        // model's fault, and it now runs several times slower. Say so where users look.
        OPENACL_LOG_WARNING(
            "model %u runs on OpenCV DNN, several times slower: its graph compiled, but the "
            "compiled engine could not take the plan (%s)",
            id_, why.c_str());
    } else {
        OPENACL_LOG_INFO("model %u runs on OpenCV DNN: the compiled engine cannot take it (%s)",
                         id_, why.c_str());
    }
    return engine;
}

aclError Model::Start() {
    std::string error;
    dump_ = dump::ForModel(image_.file_stem, image_.graph.name, id_, device_->id());
    engine_ = CreateCompiledEngine();
    if (!engine_) engine_ = CreateOpenCvEngine(image_.onnx, image_.graph, &error);
    if (!engine_) {
        // Engines name the operators they lack ("operator X is not supported..."); anything
        // else is a graph the engine could not take.
        bool unsupported = error.find("operator") != std::string::npos &&
                           error.find("support") != std::string::npos;
        return Fail(unsupported ? ACL_ERROR_OP_NOT_FOUND : ACL_ERROR_PARSE_MODEL,
                    "the model cannot run: %s", error.c_str());
    }
    auto session = TakeSession(&error);
    if (!session) {
        return Fail(ACL_ERROR_PARSE_MODEL, "the model cannot run: %s", error.c_str());
    }
    // Output shapes that neither the graph nor shape inference tell are learnt from one run on
    // zeros, so aclmdlGetOutputSizeByIndex is honest for every static model.
    auto& desc = image_.description;
    bool inputs_static = !desc.has_gears();
    for (const auto& io : desc.inputs) {
        for (int64_t d : io.max_dims)
            inputs_static = inputs_static && d >= 0;
        if (io.max_dims.size() == 1 && io.max_dims[0] == -2) inputs_static = false;
    }
    bool outputs_known = true;
    for (const auto& io : desc.outputs) {
        for (int64_t d : io.max_dims)
            outputs_known = outputs_known && d >= 0;
    }
    // The dry run allocates the inputs the graph declares, which a hostile graph may make
    // enormous (fuzzing found a 40 GB request): only modest ones are worth it.
    size_t dry_run_bytes = 0;
    for (size_t i = 0; i < desc.graph_input_count; ++i) {
        size_t bytes = TensorBytes(desc.inputs[i].graph_type, desc.inputs[i].max_dims);
        dry_run_bytes = bytes > kDryRunLimit - dry_run_bytes ? kDryRunLimit : dry_run_bytes + bytes;
    }
    if (inputs_static && !outputs_known && dry_run_bytes < kDryRunLimit) {
        std::vector<std::vector<uint8_t>> zeros;
        std::vector<TensorView> inputs;
        for (size_t i = 0; i < desc.graph_input_count; ++i) {
            const auto& io = desc.inputs[i];
            zeros.emplace_back(TensorBytes(io.graph_type, io.max_dims), 0);
            inputs.push_back(
                TensorView{io.graph_type, io.max_dims, zeros.back().data(), zeros.back().size()});
        }
        std::vector<TensorView> outputs;
        if (session->engine->Run(inputs, &outputs, &error)) {
            for (size_t o = 0; o < desc.outputs.size() && o < outputs.size(); ++o) {
                auto& io = desc.outputs[o];
                io.dims = io.max_dims = outputs[o].dims;
                io.size = TensorBytes(io.type, io.dims);
                io.format = io.dims.size() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND;
            }
        }
    }
    ReturnSession(std::move(session));
    // Built, the engine needs neither the model's bytes nor the .om's plan: the compiled engine
    // keeps its weights in its primitives' formats, the OpenCV engine a graph of its own, and
    // the description is made. Kept, they would be two more copies of the weights.
    std::string().swap(image_.onnx);
    image_.plan.reset();
    return ACL_SUCCESS;
}

std::unique_ptr<Model::Session> Model::TakeSession(std::string* error) {
    {
        std::lock_guard lock(pool_mutex_);
        if (!idle_.empty()) {
            auto session = std::move(idle_.back());
            idle_.pop_back();
            return session;
        }
    }
    auto session = std::make_unique<Session>();
    session->engine = engine_->CreateInstance(error);
    if (!session->engine) return nullptr;
    session->scratch.resize(image_.description.graph_input_count);
    return session;
}

void Model::ReturnSession(std::unique_ptr<Session> session) {
    std::lock_guard lock(pool_mutex_);
    idle_.push_back(std::move(session));
}

std::vector<int64_t> Model::CurrentOutputDims(size_t index) {
    std::lock_guard lock(current_mutex_);
    return index < current_output_dims_.size() ? current_output_dims_[index]
                                               : std::vector<int64_t>{};
}

bool Model::CheckDeviceBuffer(const BufferRef& buffer, size_t needed, const char* what,
                              size_t index, const std::string& name, std::string* error) const {
    char text[512];
    if (buffer.data == nullptr) {
        std::snprintf(text, sizeof text, "%s %zu (\"%s\") has a null data buffer address", what,
                      index, name.c_str());
        *error = text;
        return false;
    }
    MemRegion region = ClassifyPointer(buffer.data);
    if (region.domain != MemDomain::kDevice || region.device != device_) {
        const char* where = region.domain == MemDomain::kDevice ? "device memory of another device"
                                                                : DomainName(region.domain);
        std::snprintf(text, sizeof text,
                      "%s %zu (\"%s\") is at %p, which is %s: model inputs and outputs must be "
                      "device memory of device %d (aclrtMalloc), filled with aclrtMemcpy",
                      what, index, name.c_str(), buffer.data, where, device_->id());
        *error = text;
        // Strict checks name the allocation: which one was freed where, or whose it is.
        if (check::On()) {
            check::Freed freed;
            std::string known;
            if ((region.domain == MemDomain::kDeviceFreed &&
                 check::FindFreed(check::Resource::kDeviceMemory, buffer.data, &freed)) ||
                (region.domain == MemDomain::kHost &&
                 check::FindFreed(check::Resource::kHostMemory, buffer.data, &freed))) {
                known = check::DescribeFreed(freed);
            } else {
                known = DescribeAllocation(buffer.data);
            }
            if (!known.empty()) *error += " (" + known + ")";
        }
        return false;
    }
    uint64_t offset = reinterpret_cast<uintptr_t>(buffer.data) - region.base;
    uint64_t room = region.usable - offset;
    if (buffer.size > room || needed > room) {
        std::snprintf(text, sizeof text,
                      "%s %zu (\"%s\"): its buffer says %zu bytes at %p but only %" PRIu64
                      " bytes of that allocation remain from there",
                      what, index, name.c_str(), buffer.size, buffer.data, room);
        *error = text;
        return false;
    }
    return true;
}

aclError Model::Prepare(const aclmdlDataset* input, aclmdlDataset* output, bool async,
                        ExecRequest* request) {
    const auto& desc = image_.description;
    Context* current = CurrentContext();
    // Strict checks: a model belongs to the context it was loaded in, as on hardware.
    if (check::On() && current != context_) [[unlikely]] {
        return Fail(current == nullptr ? ACL_ERROR_RT_CONTEXT_NULL : ACL_ERROR_RT_MODEL_CONTEXT,
                    "model %u was loaded in %s, but this thread's current context is %s: call "
                    "aclrtSetCurrentContext(%p) first",
                    id_, check::DescribeContextIfLive(context_).c_str(),
                    check::DescribeContext(current).c_str(), static_cast<void*>(context_));
    }
    if (current == nullptr || current->device() != device_) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "model %u was loaded on device %d but this thread's current context is %s: "
                    "load, execute and unload a model in the same context",
                    id_, device_->id(), current ? "on another device" : "none");
    }
    if (!ContextIsLive(context_, context_serial_)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "model %u was loaded in a context that no longer exists (the device was "
                    "reset?): load the model again",
                    id_);
    }
    if (input->buffers.size() != desc.inputs.size()) {
        std::string names;
        for (const auto& io : desc.inputs)
            names += (names.empty() ? "" : ", ") + io.name;
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "model %u has %zu inputs (%s) but the input dataset holds %zu buffers", id_,
                    desc.inputs.size(), names.c_str(), input->buffers.size());
    }
    if (output->buffers.size() != desc.outputs.size()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "model %u has %zu outputs but the output dataset holds %zu buffers", id_,
                    desc.outputs.size(), output->buffers.size());
    }
    uint64_t batch = 0, h = 0, w = 0;
    if (!desc.batch_gears.empty()) {
        batch = input->dynamic_batch;
        if (std::find(desc.batch_gears.begin(), desc.batch_gears.end(), batch) ==
            desc.batch_gears.end()) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "model %u has dynamic batch sizes: choose one with "
                        "aclmdlSetDynamicBatchSize on the input dataset before executing",
                        id_);
        }
    }
    if (!desc.hw_gears.empty()) {
        h = input->dynamic_height;
        w = input->dynamic_width;
        bool known = std::any_of(desc.hw_gears.begin(), desc.hw_gears.end(),
                                 [&](const auto& g) { return g[0] == h && g[1] == w; });
        if (!known) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "model %u has dynamic image sizes: choose one with "
                        "aclmdlSetDynamicHWSize on the input dataset before executing",
                        id_);
        }
    }
    int64_t dims_gear = -1;
    if (!desc.dims_gears.empty()) {
        dims_gear = input->dynamic_dims_gear;
        if (dims_gear < 0 || static_cast<size_t>(dims_gear) >= desc.dims_gears.size()) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "model %u has dynamic dims gears: choose one with "
                        "aclmdlSetInputDynamicDims on the input dataset before executing",
                        id_);
        }
    }
    request->inputs.clear();
    request->input_dims.clear();
    request->outputs.clear();
    request->output_set = output;
    std::string error;
    for (size_t i = 0; i < desc.inputs.size(); ++i) {
        const auto& io = desc.inputs[i];
        aclDataBuffer* handle = input->buffers[i];
        if (!IsLiveDataBuffer(handle)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "input %zu (\"%s\"): data buffer %p was destroyed",
                        i, io.name.c_str(), static_cast<void*>(handle));
        }
        BufferRef ref{handle, handle->data, handle->size, false};
        std::vector<int64_t> dims = dims_gear >= 0 && i < desc.graph_input_count
                                        ? desc.dims_gears[static_cast<size_t>(dims_gear)][i]
                                        : GearDims(io, io.format, batch, h, w);
        const aclTensorDesc* given =
            i < input->tensor_descs.size() ? input->tensor_descs[i] : nullptr;
        bool dynamic = std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; });
        if (dynamic && given != nullptr) {
            bool fits = given->dims.size() == dims.size() || (dims.size() == 1 && dims[0] == -2);
            for (size_t d = 0; fits && d < given->dims.size(); ++d) {
                fits = given->dims[d] >= 0 &&
                       (d >= dims.size() || dims[d] < 0 || dims[d] == given->dims[d]);
            }
            if (!fits) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "input %zu (\"%s\"): the tensor description's shape %s does not fit "
                            "the model's %s",
                            i, io.name.c_str(), DimsText(given->dims).c_str(),
                            DimsText(io.dims).c_str());
            }
            dims = given->dims;
            dynamic = false;
        }
        if (dynamic) {
            // A single unknown dimension follows from the buffer's size.
            size_t unknown = 0, known = aclDataTypeSize(io.type);
            for (int64_t d : dims) {
                if (d < 0)
                    ++unknown;
                else
                    known *= static_cast<size_t>(d);
            }
            if (unknown == 1 && dims.size() > 0 && !(dims.size() == 1 && dims[0] == -2) &&
                known != 0 && ref.size % known == 0) {
                for (auto& d : dims) {
                    if (d < 0) d = static_cast<int64_t>(ref.size / known);
                }
            } else {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "input %zu (\"%s\") has the dynamic shape %s: give its actual shape "
                            "with aclmdlSetDatasetTensorDesc, or fix it with atc --input_shape",
                            i, io.name.c_str(), DimsText(io.dims).c_str());
            }
        }
        size_t needed = TensorBytes(io.type, dims);
        if (ref.size < needed) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "input %zu (\"%s\") needs %zu bytes for shape %s of %s, but its buffer "
                        "holds %zu",
                        i, io.name.c_str(), needed, DimsText(dims).c_str(), TypeName(io.type),
                        ref.size);
        }
        if (!CheckDeviceBuffer(ref, needed, "input", i, io.name, &error)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "%s", error.c_str());
        }
        if (io.dynamic_tensor) continue;  // its content was chosen with aclmdlSetDynamic*
        request->inputs.push_back(ref);
        request->input_dims.push_back(std::move(dims));
    }
    for (size_t o = 0; o < desc.outputs.size(); ++o) {
        const auto& io = desc.outputs[o];
        aclDataBuffer* handle = output->buffers[o];
        if (!IsLiveDataBuffer(handle)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "output %zu (\"%s\"): data buffer %p was destroyed", o, io.name.c_str(),
                        static_cast<void*>(handle));
        }
        BufferRef ref{handle, handle->data, handle->size, false};
        if (ref.data == nullptr && ref.size == 0) {
            ref.runtime_allocated = true;
            if (async && io.size == 0) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "output %zu (\"%s\") has no size bound, so the runtime cannot "
                            "allocate it ahead of an asynchronous execution: give a buffer",
                            o, io.name.c_str());
            }
        } else if (!CheckDeviceBuffer(ref, 0, "output", o, io.name, &error)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "%s", error.c_str());
        } else if (io.size != 0 && ref.size < io.size && !desc.has_gears()) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "output %zu (\"%s\") needs %zu bytes for shape %s of %s, but its buffer "
                        "holds %zu",
                        o, io.name.c_str(), io.size, DimsText(io.dims).c_str(), TypeName(io.type),
                        ref.size);
        }
        request->outputs.push_back(ref);
    }
    if (async) {
        // The task runs on a worker without a context: outputs the runtime provides are
        // allocated now, at their largest size, once everything else has been checked.
        for (size_t o = 0; o < request->outputs.size(); ++o) {
            BufferRef& ref = request->outputs[o];
            if (!ref.runtime_allocated) continue;
            aclError rc = DeviceMalloc(&ref.data, desc.outputs[o].size, ACL_MEM_MALLOC_HUGE_FIRST,
                                       DeviceAllocKind::kMalloc, nullptr);
            if (rc != ACL_SUCCESS) return rc;
            ref.size = desc.outputs[o].size;
            ref.handle->data = ref.data;
            ref.handle->size = ref.size;
        }
    }
    return ACL_SUCCESS;
}

bool Model::Run(const ExecRequest& request, bool recheck_memory, std::string* error,
                aclError* code) {
    const auto& desc = image_.description;
    *code = ACL_ERROR_GE_FAILURE;
    if (recheck_memory) {
        // Buffers freed between the call and the task would be written after free.
        for (size_t i = 0; i < request.inputs.size(); ++i) {
            if (!CheckDeviceBuffer(request.inputs[i], 0, "input", i, desc.inputs[i].name, error)) {
                *error += " (was it freed before the execution ran?)";
                *code = ACL_ERROR_RT_COPY_DATA;
                return false;
            }
        }
        for (size_t o = 0; o < request.outputs.size(); ++o) {
            if (!CheckDeviceBuffer(request.outputs[o], 0, "output", o, desc.outputs[o].name,
                                   error)) {
                *error += " (was it freed before the execution ran?)";
                *code = ACL_ERROR_RT_COPY_DATA;
                return false;
            }
        }
    }
    auto session = TakeSession(error);
    if (!session) return false;
    session->inputs.resize(request.inputs.size());
    for (size_t i = 0; i < request.inputs.size(); ++i) {
        const auto& io = desc.inputs[i];
        const auto& dims = request.input_dims[i];
        TensorView& view = session->inputs[i];
        view.type = io.graph_type;
        view.dims = dims;
        view.bytes = TensorBytes(io.graph_type, dims);
        if (io.type == io.graph_type) {
            view.data = request.inputs[i].data;
        } else {
            auto& scratch = session->scratch[i];
            scratch.resize(view.bytes);
            ConvertElements(io.type, request.inputs[i].data, io.graph_type, scratch.data(),
                            view.bytes / aclDataTypeSize(io.graph_type));
            view.data = scratch.data();
        }
    }
    const uint64_t execution = executions_.fetch_add(1, std::memory_order_relaxed);
    RunWatch watch(*engine_, request.stream_id,
                   dump_ && dump_->WantsExecution(execution) ? dump_.get() : nullptr, execution,
                   prof::SubscriptionOf(id_));
    session->engine->Observe(watch.active() ? &watch : nullptr);
    const int64_t run_start = cpu::NowNs();
    if (!session->engine->Run(session->inputs, &session->outputs, error)) {
        session->engine->Observe(nullptr);
        ReturnSession(std::move(session));
        return false;
    }
    session->engine->Observe(nullptr);
    if (watch.active()) {
        watch.Finish(image_.file_stem.empty() ? image_.graph.name : image_.file_stem, run_start,
                     cpu::NowNs(), session->inputs, session->outputs);
    }
    bool ok = true;
    std::vector<std::vector<int64_t>> produced(desc.outputs.size());
    for (size_t o = 0; o < desc.outputs.size() && ok; ++o) {
        const auto& io = desc.outputs[o];
        const TensorView& view = session->outputs[o];
        size_t count = view.bytes / std::max<size_t>(aclDataTypeSize(io.graph_type), 1);
        size_t needed = count * aclDataTypeSize(io.type);
        BufferRef ref = request.outputs[o];
        if (ref.runtime_allocated && ref.data == nullptr && request.staged_runtime_outputs) {
            // Staged on the host: the caller copies it into device memory it allocates.
            auto& staged = (*request.staged_runtime_outputs)[o];
            staged.resize(std::max<size_t>(needed, 1));
            ref.data = staged.data();
            ref.size = needed;
        } else if (ref.runtime_allocated && ref.data == nullptr) {
            if (DeviceMalloc(&ref.data, std::max<size_t>(needed, 1), ACL_MEM_MALLOC_HUGE_FIRST,
                             DeviceAllocKind::kMalloc, nullptr) != ACL_SUCCESS) {
                *error = "cannot allocate output " + std::to_string(o) + " on the device";
                *code = ACL_ERROR_RT_MEMORY_ALLOCATION;
                ok = false;
                break;
            }
            ref.size = needed;
            ref.handle->data = ref.data;
            ref.handle->size = ref.size;
        }
        if (ref.size < needed) {
            char text[512];
            std::snprintf(text, sizeof text,
                          "output %zu (\"%s\") is %zu bytes for shape %s of %s, but its buffer "
                          "holds %zu",
                          o, io.name.c_str(), needed, DimsText(view.dims).c_str(),
                          TypeName(io.type), ref.size);
            *error = text;
            *code = ACL_ERROR_INVALID_PARAM;
            ok = false;
            break;
        }
        ConvertElements(io.graph_type, view.data, io.type, ref.data, count);
        if (t_overflow_seen) *t_overflow_seen |= overflow::ScanNonFinite(ref.data, io.type, count);
        produced[o] = view.dims;
    }
    ReturnSession(std::move(session));
    if (!ok) return false;
    // The output dataset tells each output's actual shape (aclmdlGetDatasetTensorDesc).
    if (request.output_set != nullptr && IsLiveDataset(request.output_set)) {
        auto* set = request.output_set;
        if (set->tensor_descs.size() < set->buffers.size()) {
            set->tensor_descs.resize(set->buffers.size(), nullptr);
        }
        for (size_t o = 0; o < produced.size() && o < set->tensor_descs.size(); ++o) {
            const auto& io = desc.outputs[o];
            aclTensorDesc*& d = set->tensor_descs[o];
            if (d == nullptr) d = NewTensorDesc(io.type, produced[o], io.format);
            if (d == nullptr) continue;
            d->data_type = io.type;
            d->format = io.format;
            d->dims = produced[o];
            d->name = io.name;
        }
    }
    std::lock_guard lock(current_mutex_);
    current_output_dims_ = std::move(produced);
    *code = ACL_SUCCESS;
    return true;
}

namespace {

std::mutex g_models_mutex;
std::map<uint32_t, std::shared_ptr<Model>>& Models() {
    static auto* models = new std::map<uint32_t, std::shared_ptr<Model>>;
    return *models;
}
std::atomic<uint32_t> g_next_id{1};

// Leak report lines for the models still loaded on a device (strict checks; lifecycle mutex
// held). Copies no shared_ptr: dropping the last reference here would free the model's
// memory, which takes the lifecycle mutex.
void ListModels(const Device* device, std::vector<std::string>* lines) {
    struct Loaded {
        uint32_t id;
        const Model* model;
        Context* context;
    };
    std::vector<Loaded> loaded;
    {
        std::lock_guard lock(g_models_mutex);
        for (const auto& [id, model] : Models()) {
            if (model->device() == device) loaded.push_back({id, model.get(), model->context()});
        }
    }
    for (const Loaded& m : loaded) {
        char text[96];
        std::snprintf(text, sizeof text, "model %u in ", m.id);
        std::string site = check::CreationSite(check::Resource::kModel, m.model, nullptr);
        lines->push_back(text + check::DescribeContextLocked(m.context) +
                         ", never unloaded with aclmdlUnload" +
                         (site.empty() ? "" : ", loaded at " + site));
    }
}

}  // namespace

uint32_t NextModelId() {
    return g_next_id.fetch_add(1, std::memory_order_relaxed);
}

void RegisterModel(std::shared_ptr<Model> model) {
    // Models still loaded at aclFinalize are unloaded, with a warning, before devices go.
    static bool hooked =
        (Runtime::Get().AddReleaseHook([] { UnloadAllModels("aclFinalize"); }), true);
    (void)hooked;
    if (check::On()) {
        static bool listed = (check::SetModelLister(ListModels), true);
        (void)listed;
        check::NoteCreated(check::Resource::kModel, model.get());
    }
    std::lock_guard lock(g_models_mutex);
    Models()[model->id()] = std::move(model);
}

std::shared_ptr<Model> FindModel(uint32_t id) {
    std::lock_guard lock(g_models_mutex);
    auto it = Models().find(id);
    return it == Models().end() ? nullptr : it->second;
}

std::shared_ptr<Model> RemoveModel(uint32_t id) {
    std::lock_guard lock(g_models_mutex);
    auto it = Models().find(id);
    if (it == Models().end()) return nullptr;
    auto model = std::move(it->second);
    Models().erase(it);
    if (check::On()) check::NoteDestroyed(check::Resource::kModel, model.get(), 0, -1, "");
    return model;
}

void UnloadAllModels(const char* reason) {
    std::map<uint32_t, std::shared_ptr<Model>> models;
    {
        std::lock_guard lock(g_models_mutex);
        models.swap(Models());
    }
    // With strict checks the models join the leak report, with where they were loaded.
    std::vector<std::string> report;
    for (const auto& [id, model] : models) {
        if (!check::On()) {
            Warn("model %u was still loaded at %s: unloading it (call aclmdlUnload when done)", id,
                 reason);
            continue;
        }
        char text[96];
        std::snprintf(text, sizeof text, "model %u in ", id);
        std::string site = check::CreationSite(check::Resource::kModel, model.get(), nullptr);
        report.push_back(text + check::DescribeContextIfLive(model->context()) +
                         ", never unloaded with aclmdlUnload" +
                         (site.empty() ? "" : ", loaded at " + site));
        check::NoteDestroyed(check::Resource::kModel, model.get(), 0, -1, "");
    }
    check::ReportLeaks(reason, report);
    models.clear();  // queued executions keep their model until they have run
    DrainDeferredReleases();
}

aclError SubmitExecution(std::shared_ptr<Model> model, ExecRequest request, Stream* stream) {
    if (stream->lane() != nullptr) [[unlikely]]
        return Model::SubmitStaged(std::move(model), std::move(request), stream);
    // A model execution is milliseconds of work; one heap block per call is noise.
    struct Pending {
        std::shared_ptr<Model> model;
        ExecRequest request;
        Stream* stream;
        bool watched;  // the stream's overflow switch was on
    };
    request.stream_id = stream->id();
    auto* pending =
        new Pending{std::move(model), std::move(request), stream, overflow::Watched(*stream)};
    // Replayable: Run only reads the request (outputs the runtime provides were allocated by
    // Prepare), so each replay of a captured execution runs it again on the same buffers; the
    // original, released with the captured model, frees it and lets go of the model.
    const cpu::Task task = cpu::MakeTask(
        [pending](cpu::TaskContext& ctx) {
            cpu::TaskStatus status = cpu::TaskStatus::Done();
            if (!ctx.cancelled()) {
                std::string error;
                aclError code = ACL_SUCCESS;
                uint32_t seen = 0;
                t_overflow_seen = pending->watched ? &seen : nullptr;
                const bool ran = pending->model->Run(pending->request, true, &error, &code);
                t_overflow_seen = nullptr;
                overflow::Note(pending->stream, seen);
                if (!ran) {
                    pending->stream->NoteFailure("model %u execution failed: %s",
                                                 pending->model->id(), error.c_str());
                    exception_info::Report(ctx, pending->stream, code);
                    status = cpu::TaskStatus::Failed(code);
                }
            }
            if (!ctx.borrowed()) delete pending;
            return status;
        },
        0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable);
    stream->Submit(task, {trace::Kind::kModel, pending->model->id()});
    return ACL_SUCCESS;
}

}  // namespace openacl::model
