// aclOpExecutor: what a first phase (aclnnXxxGetWorkspaceSize) plans and its second phase
// (aclnnXxx) enqueues. The plan is an Operator plus the tensors it reads and writes ("slots":
// inputs, then outputs, each copied by value with the device address it had), so the caller may
// destroy every aclTensor, aclScalar and array once the second phase returns. The second phase
// checks the addresses against device memory and queues one task on the stream; that task is
// replayable, so graph capture records aclnn calls like any other work. An executor serves one
// second phase and is freed by it, unless aclSetAclOpExecutorRepeatable made it repeatable.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/op_checks.h"

namespace openacl::aclnn {

class Operator {
 public:
    virtual ~Operator() = default;
    // Computes on the slots' memory (addresses in slot order; each the start of the slot's
    // storage, offsets not applied). Returns 0, or a runtime error code with *error set.
    virtual int32_t Run(void* const* addresses, void* workspace, std::string* error) const = 0;
};

struct Slot {
    TensorView view;
    bool output = false;
    aclTensor* tensor = nullptr;  // the caller's: repeatable executors update its address too
    void* address = nullptr;
    int ir = 0;        // the parameter's position among the operator's inputs (outputs)
    int element = -1;  // for an element of a tensor-list parameter: its index in the list
};

// Assembles an executor in a first phase.
class ExecutorBuilder {
 public:
    // api: the second-phase function ("aclnnAdd") that alone may run the executor.
    explicit ExecutorBuilder(const char* api);
    ~ExecutorBuilder();
    ExecutorBuilder(const ExecutorBuilder&) = delete;
    ExecutorBuilder& operator=(const ExecutorBuilder&) = delete;

    // Adds a tensor parameter; returns its slot index (the position in Run's addresses).
    int Input(const TensorView& view, const aclTensor* tensor);
    int Output(const TensorView& view, const aclTensor* tensor);
    // Adds element `element` of the list parameter that is the next input (output) parameter
    // when element is 0, the current one otherwise.
    int ListInput(const TensorView& view, const aclTensor* tensor, int element);
    int ListOutput(const TensorView& view, const aclTensor* tensor, int element);
    const Slot& slot(int index) const;

    // Hands the executor out: *workspaceSize = workspace bytes, *executor = it.
    aclnnStatus Finish(std::unique_ptr<Operator> op, uint64_t workspace, uint64_t* workspaceSize,
                       aclOpExecutor** executor);

 private:
    int Add(const TensorView& view, const aclTensor* tensor, bool output, int element);
    aclOpExecutor* executor_;
    int inputs_ = 0, outputs_ = 0;  // parameters so far
};

// 161001 when a first phase's out-parameters are null.
aclnnStatus CheckPhaseOutputs(const uint64_t* workspaceSize, aclOpExecutor* const* executor);

// The single-operator layer (src/op) keeps its executors repeatable and points their tensors at
// new memory before each run: the slots, in order, each naming the aclTensor it was planned
// from. Only for a live executor that no other thread launches meanwhile.
std::vector<Slot>& SlotsOf(aclOpExecutor* executor);

// The second phase of every operator.
aclnnStatus Launch(const char* api, void* workspace, uint64_t workspaceSize,
                   aclOpExecutor* executor, aclrtStream stream);

}  // namespace openacl::aclnn

// Defines aclnn<Name>, the second phase of operator Name.
#define OPENACL_ACLNN_SECOND_PHASE(Name)                                                      \
    aclnnStatus aclnn##Name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, \
                            aclrtStream stream) {                                             \
        OPENACL_API();                                                                        \
        return ::openacl::aclnn::Launch("aclnn" #Name, workspace, workspaceSize, executor,    \
                                        stream);                                              \
    }
