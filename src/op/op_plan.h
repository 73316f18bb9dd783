// Planning and running single operators on openacl's operator library. An operator type's
// handler (op_registry.h) reads the call's description through a Builder: it works out the
// output shapes, then builds the work as a few aclnn executors ("steps": an aclnn first phase
// each, or a custom operator) over aclTensor views of the call's buffers and of scratch memory.
// The result is a Plan: immutable apart from its executors' addresses, cached by the call's
// signature and shared by every call and handle that has it.
//
// Running a plan (Plan::Launch) points its views at the call's buffers, takes a workspace from
// the stream's device when the steps need one, and queues the steps on the stream with the
// aclnn second phase. The workspace belongs to the queued work: a task queued after the steps
// frees it once they ran (or when a captured graph that recorded them is destroyed), so nothing
// waits and graph capture works unchanged.
//
// Failures inside the op layer are OpError exceptions carrying the code and message to report;
// the API entry points turn them into Fail(code, message). aclnn's parameter codes (161001,
// 161002) become ACL_ERROR_INVALID_PARAM with aclnn's message.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "aclnn/acl_meta.h"
#include "core/error.h"
#include "op/op_desc.h"

namespace openacl::op {

struct OpError {
    aclError code;
    std::string message;
};

[[noreturn]] void Throw(aclError code, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// The code aclop reports for an aclnn code: 161001/161002 -> ACL_ERROR_INVALID_PARAM, 561xxx
// -> ACL_ERROR_FAILURE, anything else (runtime codes) unchanged.
aclError MapAclnnCode(int code);

using Shape = std::vector<int64_t>;

// A second phase (aclnnAdd, ...): how a step is run.
using SecondPhase = aclnnStatus (*)(void* workspace, uint64_t workspaceSize,
                                    aclOpExecutor* executor, aclrtStream stream);

class Plan {
 public:
    Plan() = default;
    ~Plan();
    Plan(const Plan&) = delete;
    Plan& operator=(const Plan&) = delete;

    const std::string& type() const { return type_; }
    const std::vector<Shape>& output_shapes() const { return output_shapes_; }
    size_t num_inputs() const { return inputs_.size(); }
    size_t num_outputs() const { return outputs_.size(); }
    // The host-placed inputs whose values the plan depends on (it read them while planning).
    const std::vector<int>& value_inputs() const { return value_inputs_; }

    // Queues the operator on `stream` (null: the default stream) with these buffers, in the
    // order of the description it was planned from. Checks each buffer against what the plan
    // reads and writes. Returns the code to report, with the failure recorded.
    aclError Launch(const aclDataBuffer* const* inputs, const aclDataBuffer* const* outputs,
                    aclrtStream stream);

 private:
    friend class Builder;
    enum class Memory : uint8_t { kInput, kOutput, kScratch };
    struct Binding {
        const aclTensor* tensor;
        Memory memory;
        int index;        // input or output index
        uint64_t offset;  // bytes into the scratch area
    };
    struct Step {
        aclOpExecutor* executor;
        SecondPhase launch;
        uint64_t workspace;
    };
    // A host-placed or constant input the steps read as an operand: copied into scratch at
    // each launch (from the call's buffer, or from the constant the plan keeps).
    struct HostCopy {
        int input;
        uint64_t offset;
        uint64_t bytes;
    };

    aclError LaunchLocked(const aclDataBuffer* const* inputs, const aclDataBuffer* const* outputs,
                          aclrtStream stream, char* workspace);
    void* AddressOf(const aclTensor* tensor, const aclDataBuffer* const* inputs,
                    const aclDataBuffer* const* outputs, char* scratch) const;

    std::string type_;
    std::vector<TensorSpec> inputs_, outputs_;  // as planned (outputs with their real shapes)
    std::vector<Shape> output_shapes_;
    std::vector<std::unique_ptr<aclTensor>> tensors_;
    std::vector<Binding> bindings_;
    std::vector<Step> steps_;
    std::vector<HostCopy> host_copies_;
    std::vector<int> value_inputs_;
    uint64_t scratch_ = 0;         // bytes of scratch tensors and host copies
    uint64_t step_workspace_ = 0;  // the largest step's own workspace, after the scratch
    std::mutex mutex_;             // one launch at a time moves the executors' addresses
};

class Builder {
 public:
    enum class Mode {
        kInfer,  // output shapes only (aclopInferShape)
        kPlan,   // shapes and the steps
    };
    Builder(const OpDesc& desc, Mode mode);
    ~Builder();
    Builder(const Builder&) = delete;
    Builder& operator=(const Builder&) = delete;

    const OpDesc& desc() const { return desc_; }
    const char* type() const { return desc_.type.c_str(); }
    int num_inputs() const { return static_cast<int>(desc_.inputs.size()); }
    int num_outputs() const { return static_cast<int>(desc_.outputs.size()); }
    const TensorSpec& in(int i) const { return desc_.inputs[static_cast<size_t>(i)]; }
    const TensorSpec& out(int j) const { return desc_.outputs[static_cast<size_t>(j)]; }
    // Input i is given and not an unused optional input.
    bool has_input(int i) const { return i < num_inputs() && !in(i).absent(); }

    // ---- Attributes. Absent: the fallback. Of another type: ACL_ERROR_OP_ATTR_NOT_MATCH.
    bool AttrBool(const char* name, bool fallback) const;
    int64_t AttrInt(const char* name, int64_t fallback) const;
    float AttrFloat(const char* name, float fallback) const;
    std::string AttrString(const char* name, const std::string& fallback) const;
    Shape AttrInts(const char* name, const Shape& fallback) const;
    // Required: absent is ACL_ERROR_OP_ATTR_NOT_MATCH too.
    int64_t RequireInt(const char* name) const;
    Shape RequireInts(const char* name) const;
    // An int attribute or a data_type attribute, as a data type (Cast's dst_type).
    aclDataType AttrDataType(const char* name) const;

    // ---- Values of an input the plan depends on (Transpose's perm, ReduceSum's axes): int32
    // or int64, constant or in host memory. Otherwise ACL_ERROR_INVALID_PARAM, saying how to
    // pass it.
    Shape Values(int i, const char* what) const;

    // ---- Output shapes. Returns true in kInfer mode: the handler returns then.
    bool Shapes(std::vector<Shape> shapes);
    const Shape& OutShape(int j) const { return plan_->output_shapes_[static_cast<size_t>(j)]; }
    const std::vector<Shape>& OutShapes() const { return plan_->output_shapes_; }

    // ---- Tensors of the plan (kPlan only). Shapes in elements; strides in elements, null or
    // empty for row-major; offsets in elements.
    aclTensor* In(int i);  // input i as described (cached: the same object each time)
    aclTensor* InView(int i, const Shape& shape, const Shape& strides, int64_t offset,
                      aclFormat label = ACL_FORMAT_ND);
    aclTensor* Out(int j);  // output j with its planned shape
    aclTensor* OutView(int j, const Shape& shape, const Shape& strides, int64_t offset,
                       aclFormat label = ACL_FORMAT_ND);
    aclTensor* Scratch(aclDataType dtype, const Shape& shape, aclFormat label = ACL_FORMAT_ND);

    // ---- Steps. `rc` is the first phase's status: a failure throws with its message.
    void Step(aclnnStatus rc, uint64_t workspace, aclOpExecutor* executor, SecondPhase launch);

    // The plan, once the handler returned (kPlan).
    std::shared_ptr<Plan> Finish();

 private:
    aclTensor* NewTensor(aclDataType dtype, const Shape& shape, const Shape& strides,
                         int64_t offset, aclFormat label, int64_t storage);
    aclTensor* Bind(int index, bool output, const Shape& shape, const Shape& strides,
                    int64_t offset, aclFormat label, aclDataType dtype);
    uint64_t Reserve(uint64_t bytes);
    void CheckFormat(const TensorSpec& spec, const char* what, int index) const;

    const OpDesc& desc_;
    Mode mode_;
    std::shared_ptr<Plan> plan_;
    std::vector<aclTensor*> inputs_;         // In(i), once made
    std::vector<int64_t> host_offsets_;      // scratch offset of a host input's copy, -1: none
    mutable std::vector<bool> values_read_;  // Values(i) was called
    bool shapes_set_ = false;
    FailureCapture capture_;  // aclnn's failures, reported with aclop's codes
};

// NumPy broadcasting of two shapes; ACL_ERROR_INVALID_PARAM naming `what` otherwise.
Shape BroadcastShapes(const Shape& a, const Shape& b, const char* what);
// An axis in [-rank, rank) as [0, rank); ACL_ERROR_INVALID_PARAM naming `what` otherwise.
int64_t NormalizeAxis(int64_t axis, int64_t rank, const char* what);
// Row-major strides of a shape.
Shape RowMajor(const Shape& shape);
std::string ShapeString(const Shape& shape);

}  // namespace openacl::op
