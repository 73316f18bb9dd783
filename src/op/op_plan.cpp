#include "op/op_plan.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "aclnn/objects.h"
#include "aclnn/op_executor.h"
#include "aclnn/opdev/op_errno.h"
#include "backend/accelerator.h"
#include "core/context.h"
#include "core/data_buffer.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/stream.h"

namespace openacl::op {
namespace {

constexpr uint64_t kScratchAlign = 64;

bool IsPlainFormat(aclFormat format) {
    switch (format) {
        case ACL_FORMAT_UNDEFINED:
        case ACL_FORMAT_ND:
        case ACL_FORMAT_NCHW:
        case ACL_FORMAT_NHWC:
        case ACL_FORMAT_HWCN:
        case ACL_FORMAT_NC:
        case ACL_FORMAT_NCL:
        case ACL_FORMAT_NCDHW:
        case ACL_FORMAT_NDHWC:
            return true;
        default:
            return false;
    }
}

const char* AttrKind(const OpAttrValue& value) {
    return OpAttrTypeName(TypeOf(value));
}

// Bytes of a static spec's data.
uint64_t BytesOf(const TensorSpec& spec) {
    const int64_t n = spec.numel();
    return n <= 0 ? 0 : static_cast<uint64_t>(n) * ElementSize(spec.dtype);
}

}  // namespace

void Throw(aclError code, const char* fmt, ...) {
    char message[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    throw OpError{code, message};
}

aclError MapAclnnCode(int code) {
    if (code == ACLNN_ERR_PARAM_NULLPTR || code == ACLNN_ERR_PARAM_INVALID) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (code >= ACLNN_ERR_INNER && code < ACLNN_ERR_INNER + 1000) return ACL_ERROR_FAILURE;
    return code;
}

std::string ShapeString(const Shape& shape) {
    std::string out = "[";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i != 0) out += ", ";
        out += std::to_string(shape[i]);
    }
    return out + "]";
}

Shape BroadcastShapes(const Shape& a, const Shape& b, const char* what) {
    const size_t rank = std::max(a.size(), b.size());
    Shape out(rank);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1) {
            Throw(ACL_ERROR_INVALID_PARAM, "%s: shapes %s and %s do not broadcast", what,
                  ShapeString(a).c_str(), ShapeString(b).c_str());
        }
        out[i] = da == 1 ? db : da;
    }
    return out;
}

int64_t NormalizeAxis(int64_t axis, int64_t rank, const char* what) {
    const int64_t lo = rank == 0 ? -1 : -rank, hi = rank == 0 ? 0 : rank - 1;
    if (axis < lo || axis > hi) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s is %" PRId64 ", outside [%" PRId64 ", %" PRId64 "] for a tensor of %" PRId64
              " dimensions",
              what, axis, lo, hi, rank);
    }
    return axis < 0 ? axis + std::max<int64_t>(rank, 1) : axis;
}

Shape RowMajor(const Shape& shape) {
    Shape strides(shape.size());
    int64_t step = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        strides[i] = step;
        step *= std::max<int64_t>(shape[i], 1);
    }
    return strides;
}

// ---- Plan ----

Plan::~Plan() {
    for (const Step& step : steps_)
        aclDestroyAclOpExecutor(step.executor);
}

void* Plan::AddressOf(const aclTensor* tensor, const aclDataBuffer* const* inputs,
                      const aclDataBuffer* const* outputs, char* scratch) const {
    for (const Binding& b : bindings_) {
        if (b.tensor != tensor) continue;
        switch (b.memory) {
            case Memory::kInput:
                return inputs[b.index] != nullptr ? inputs[b.index]->data : nullptr;
            case Memory::kOutput:
                return outputs[b.index] != nullptr ? outputs[b.index]->data : nullptr;
            case Memory::kScratch:
                return scratch + b.offset;
        }
    }
    return tensor->data;
}

aclError Plan::Launch(const aclDataBuffer* const* inputs, const aclDataBuffer* const* outputs,
                      aclrtStream stream) {
    // The buffers hold what the descriptions promise.
    auto check = [](const TensorSpec& spec, const aclDataBuffer* buffer, const char* what,
                    size_t index) -> aclError {
        if (spec.absent() || (spec.is_const && !spec.const_data.empty())) return ACL_SUCCESS;
        const uint64_t need = BytesOf(spec);
        if (need == 0) return ACL_SUCCESS;
        if (buffer == nullptr || buffer->data == nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s[%zu] has no data but its description (%s) "
                        "holds %" PRIu64 " bytes",
                        what, index, SpecText(spec).c_str(), need);
        }
        if (buffer->size < need) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s[%zu] holds %zu bytes but its description (%s) needs %" PRIu64, what,
                        index, buffer->size, SpecText(spec).c_str(), need);
        }
        return ACL_SUCCESS;
    };
    for (size_t i = 0; i < inputs_.size(); ++i) {
        if (aclError rc = check(inputs_[i], inputs[i], "inputs", i)) return rc;
    }
    for (size_t j = 0; j < outputs_.size(); ++j) {
        if (aclError rc = check(outputs_[j], outputs[j], "outputs", j)) return rc;
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    if (const backend::Accelerator* accelerator = resolved->context()->device()->accelerator();
        accelerator != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: single operators run on the CPU backend only; on the CUDA backend (%s) "
                    "they are not available yet",
                    type_.c_str(), accelerator->name());
    }
    const uint64_t total = scratch_ + step_workspace_;
    char* workspace = nullptr;
    if (total > 0) {
        void* p = nullptr;
        rc = DeviceMallocIn(resolved->context(), &p, total, ACL_MEM_MALLOC_HUGE_FIRST,
                            DeviceAllocKind::kMalloc, nullptr);
        if (rc != ACL_SUCCESS) return rc;
        workspace = static_cast<char*>(p);
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        rc = LaunchLocked(inputs, outputs, stream, workspace);
    }
    if (workspace != nullptr) {
        // The workspace belongs to the queued steps (after a failure, to those queued before
        // it): freed after them, or when a captured graph that recorded them goes (a replay
        // runs the task borrowed and frees nothing).
        resolved->Submit(cpu::MakeTask(
            [workspace](cpu::TaskContext& ctx) {
                if (!ctx.borrowed()) DeviceFree(workspace, false);
            },
            0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable));
    }
    return rc;
}

aclError Plan::LaunchLocked(const aclDataBuffer* const* inputs, const aclDataBuffer* const* outputs,
                            aclrtStream stream, char* workspace) {
    for (const HostCopy& copy : host_copies_) {
        if (copy.bytes == 0) continue;
        const TensorSpec& spec = inputs_[static_cast<size_t>(copy.input)];
        const void* source = spec.is_const && !spec.const_data.empty()
                                 ? static_cast<const void*>(spec.const_data.data())
                                 : inputs[copy.input]->data;
        const uint64_t available = spec.is_const && !spec.const_data.empty()
                                       ? spec.const_data.size()
                                       : inputs[copy.input]->size;
        std::memcpy(workspace + copy.offset, source, std::min(copy.bytes, available));
    }
    for (const Step& step : steps_) {
        for (aclnn::Slot& slot : aclnn::SlotsOf(step.executor))
            slot.address = AddressOf(slot.tensor, inputs, outputs, workspace);
        aclnnStatus status = ACLNN_SUCCESS;
        std::string message;
        {
            FailureCapture capture;
            status = step.launch(step.workspace > 0 ? workspace + scratch_ : nullptr,
                                 step.workspace, step.executor, stream);
            if (status != ACLNN_SUCCESS) message = capture.failed() ? capture.message() : "";
        }
        if (status != ACLNN_SUCCESS) {
            return Fail(MapAclnnCode(status), "%s: %s", type_.c_str(),
                        message.empty() ? "the operator could not be queued" : message.c_str());
        }
    }
    return ACL_SUCCESS;
}

// ---- Builder ----

Builder::Builder(const OpDesc& desc, Mode mode)
    : desc_(desc), mode_(mode), plan_(std::make_shared<Plan>()) {
    inputs_.assign(desc.inputs.size(), nullptr);
    host_offsets_.assign(desc.inputs.size(), -1);
    values_read_.assign(desc.inputs.size(), false);
}

Builder::~Builder() = default;

bool Builder::AttrBool(const char* name, bool fallback) const {
    const OpAttrValue* value = desc_.attr.Find(name);
    if (value == nullptr) return fallback;
    if (const bool* b = std::get_if<bool>(value)) return *b;
    if (const int64_t* i = std::get_if<int64_t>(value)) return *i != 0;
    Throw(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s: attribute \"%s\" is %s, where a bool is expected",
          type(), name, AttrKind(*value));
}

int64_t Builder::AttrInt(const char* name, int64_t fallback) const {
    const OpAttrValue* value = desc_.attr.Find(name);
    if (value == nullptr) return fallback;
    if (const int64_t* i = std::get_if<int64_t>(value)) return *i;
    if (const bool* b = std::get_if<bool>(value)) return *b ? 1 : 0;
    Throw(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s: attribute \"%s\" is %s, where an int is expected",
          type(), name, AttrKind(*value));
}

float Builder::AttrFloat(const char* name, float fallback) const {
    const OpAttrValue* value = desc_.attr.Find(name);
    if (value == nullptr) return fallback;
    if (const float* f = std::get_if<float>(value)) return *f;
    if (const int64_t* i = std::get_if<int64_t>(value)) return static_cast<float>(*i);
    Throw(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s: attribute \"%s\" is %s, where a float is expected",
          type(), name, AttrKind(*value));
}

std::string Builder::AttrString(const char* name, const std::string& fallback) const {
    const OpAttrValue* value = desc_.attr.Find(name);
    if (value == nullptr) return fallback;
    if (const std::string* s = std::get_if<std::string>(value)) return *s;
    Throw(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s: attribute \"%s\" is %s, where a string is expected",
          type(), name, AttrKind(*value));
}

Shape Builder::AttrInts(const char* name, const Shape& fallback) const {
    const OpAttrValue* value = desc_.attr.Find(name);
    if (value == nullptr) return fallback;
    if (const auto* list = std::get_if<std::vector<int64_t>>(value)) return *list;
    if (const int64_t* i = std::get_if<int64_t>(value)) return {*i};
    Throw(ACL_ERROR_OP_ATTR_NOT_MATCH,
          "%s: attribute \"%s\" is %s, where a list of ints is expected", type(), name,
          AttrKind(*value));
}

int64_t Builder::RequireInt(const char* name) const {
    if (!desc_.attr.Has(name)) {
        Throw(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s needs the int attribute \"%s\"", type(), name);
    }
    return AttrInt(name, 0);
}

Shape Builder::RequireInts(const char* name) const {
    if (!desc_.attr.Has(name)) {
        Throw(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s needs the list_int attribute \"%s\"", type(), name);
    }
    return AttrInts(name, {});
}

aclDataType Builder::AttrDataType(const char* name) const {
    const OpAttrValue* value = desc_.attr.Find(name);
    if (value == nullptr) {
        Throw(ACL_ERROR_OP_ATTR_NOT_MATCH, "%s needs the attribute \"%s\" (a data type)", type(),
              name);
    }
    if (const aclDataType* t = std::get_if<aclDataType>(value)) return *t;
    if (const int64_t* i = std::get_if<int64_t>(value)) return static_cast<aclDataType>(*i);
    Throw(ACL_ERROR_OP_ATTR_NOT_MATCH,
          "%s: attribute \"%s\" is %s, where a data type (int or data_type) is expected", type(),
          name, AttrKind(*value));
}

Shape Builder::Values(int i, const char* what) const {
    if (!has_input(i)) {
        Throw(ACL_ERROR_OP_INPUT_NOT_MATCH, "%s needs input %d (%s)", type(), i, what);
    }
    const TensorSpec& spec = in(i);
    if (spec.dtype != ACL_INT32 && spec.dtype != ACL_INT64) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s: input %d (%s) is %s: it takes int32 or int64", type(),
              i, what, SpecText(spec).c_str());
    }
    if (!spec.has_value) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s: input %d (%s) decides the output's shape, so its values are needed when the "
              "operator is planned: make it constant (aclSetTensorConst) or host memory "
              "(aclSetTensorPlaceMent with ACL_MEMTYPE_HOST)",
              type(), i, what);
    }
    values_read_[static_cast<size_t>(i)] = true;
    const size_t size = spec.dtype == ACL_INT32 ? 4 : 8;
    const int64_t numel = spec.numel();
    if (numel < 0 || spec.value.size() < static_cast<size_t>(numel) * size) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s: input %d (%s) has %zu bytes of values for %s", type(),
              i, what, spec.value.size(), SpecText(spec).c_str());
    }
    Shape values(static_cast<size_t>(numel));
    for (size_t k = 0; k < values.size(); ++k) {
        if (size == 4) {
            int32_t v;
            std::memcpy(&v, spec.value.data() + k * 4, 4);
            values[k] = v;
        } else {
            std::memcpy(&values[k], spec.value.data() + k * 8, 8);
        }
    }
    return values;
}

bool Builder::Shapes(std::vector<Shape> shapes) {
    if (shapes.size() != desc_.outputs.size()) {
        Throw(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s has %zu outputs, not %zu", type(), shapes.size(),
              desc_.outputs.size());
    }
    for (const Shape& shape : shapes) {
        for (int64_t d : shape) {
            if (d < 0) {
                Throw(ACL_ERROR_INVALID_PARAM, "%s: an output would have the shape %s", type(),
                      ShapeString(shape).c_str());
            }
        }
    }
    plan_->output_shapes_ = std::move(shapes);
    shapes_set_ = true;
    return mode_ == Mode::kInfer;
}

void Builder::CheckFormat(const TensorSpec& spec, const char* what, int index) const {
    if (IsPlainFormat(spec.format)) return;
    const char* name = FormatJsonName(spec.format);
    Throw(ACL_ERROR_FORMAT_NOT_MATCH,
          "%s: %s %d has format %s, an Ascend storage layout that openacl does not compute on: "
          "describe the data as it lies (ND, NCHW, NHWC, ...)",
          type(), what, index, name != nullptr ? name : "(unknown)");
}

uint64_t Builder::Reserve(uint64_t bytes) {
    const uint64_t offset = plan_->scratch_;
    plan_->scratch_ += (bytes + kScratchAlign - 1) / kScratchAlign * kScratchAlign;
    return offset;
}

aclTensor* Builder::NewTensor(aclDataType dtype, const Shape& shape, const Shape& strides,
                              int64_t offset, aclFormat label, int64_t storage) {
    auto tensor = std::make_unique<aclTensor>();
    tensor->dtype = dtype;
    tensor->format = label;
    tensor->shape = shape;
    tensor->strides = strides.empty() ? RowMajor(shape) : strides;
    tensor->offset = offset;
    tensor->storage = {storage};
    tensor->data = nullptr;
    aclTensor* raw = tensor.get();
    plan_->tensors_.push_back(std::move(tensor));
    return raw;
}

aclTensor* Builder::Bind(int index, bool output, const Shape& shape, const Shape& strides,
                         int64_t offset, aclFormat label, aclDataType dtype) {
    const TensorSpec& spec = output ? out(index) : in(index);
    CheckFormat(spec, output ? "output" : "input", index);
    if (!output && spec.absent()) {
        Throw(ACL_ERROR_OP_INPUT_NOT_MATCH, "%s: input %d is required but absent", type(), index);
    }
    const Shape& whole = output ? OutShape(index) : spec.dims;
    int64_t storage = 1;
    for (int64_t d : whole)
        storage *= d;
    aclTensor* tensor = NewTensor(dtype, shape, strides, offset, label, storage);
    Plan::Binding binding{tensor, output ? Plan::Memory::kOutput : Plan::Memory::kInput, index, 0};
    // A constant or host-placed input is copied into the scratch area at each launch.
    if (!output && (spec.host() || (spec.is_const && !spec.const_data.empty()))) {
        int64_t& at = host_offsets_[static_cast<size_t>(index)];
        if (at < 0) {
            const uint64_t bytes = BytesOf(spec);
            at = static_cast<int64_t>(Reserve(bytes));
            plan_->host_copies_.push_back({index, static_cast<uint64_t>(at), bytes});
        }
        binding.memory = Plan::Memory::kScratch;
        binding.offset = static_cast<uint64_t>(at);
    }
    plan_->bindings_.push_back(binding);
    return tensor;
}

aclTensor* Builder::In(int i) {
    aclTensor*& cached = inputs_[static_cast<size_t>(i)];
    if (cached == nullptr) cached = Bind(i, false, in(i).dims, {}, 0, ACL_FORMAT_ND, in(i).dtype);
    return cached;
}

aclTensor* Builder::InView(int i, const Shape& shape, const Shape& strides, int64_t offset,
                           aclFormat label) {
    return Bind(i, false, shape, strides, offset, label, in(i).dtype);
}

aclTensor* Builder::Out(int j) {
    return Bind(j, true, OutShape(j), {}, 0, ACL_FORMAT_ND, out(j).dtype);
}

aclTensor* Builder::OutView(int j, const Shape& shape, const Shape& strides, int64_t offset,
                            aclFormat label) {
    return Bind(j, true, shape, strides, offset, label, out(j).dtype);
}

aclTensor* Builder::Scratch(aclDataType dtype, const Shape& shape, aclFormat label) {
    int64_t numel = 1;
    for (int64_t d : shape)
        numel *= d;
    const uint64_t offset = Reserve(static_cast<uint64_t>(numel) * ElementSize(dtype));
    aclTensor* tensor = NewTensor(dtype, shape, {}, 0, label, numel);
    plan_->bindings_.push_back({tensor, Plan::Memory::kScratch, -1, offset});
    return tensor;
}

void Builder::Step(aclnnStatus rc, uint64_t workspace, aclOpExecutor* executor,
                   SecondPhase launch) {
    if (rc != ACLNN_SUCCESS) {
        if (capture_.failed()) {
            Throw(MapAclnnCode(capture_.code()), "%s: %s", type(), capture_.message());
        }
        Throw(MapAclnnCode(rc), "%s: the operator library refused the call (status %d)", type(),
              rc);
    }
    aclSetAclOpExecutorRepeatable(executor);
    plan_->steps_.push_back({executor, launch, workspace});
    plan_->step_workspace_ = std::max(plan_->step_workspace_, workspace);
}

std::shared_ptr<Plan> Builder::Finish() {
    if (!shapes_set_) Throw(ACL_ERROR_FAILURE, "%s: its handler set no output shapes", type());
    Plan& plan = *plan_;
    plan.type_ = desc_.type;
    plan.inputs_ = desc_.inputs;
    plan.outputs_ = desc_.outputs;
    for (size_t j = 0; j < plan.outputs_.size(); ++j)
        plan.outputs_[j].dims = plan.output_shapes_[j];
    for (size_t i = 0; i < values_read_.size(); ++i) {
        if (values_read_[i] && !desc_.inputs[i].is_const)
            plan.value_inputs_.push_back(static_cast<int>(i));
    }
    return std::move(plan_);
}

}  // namespace openacl::op
