// The executor of aclnn/op_executor.h: building it, the executor functions of acl_meta.h
// (repeatable executors and their address setters) and the second phase.
#include "aclnn/op_executor.h"

#include <cinttypes>
#include <cstring>
#include <mutex>
#include <unordered_set>

#include "aclnn/opdev/op_errno.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/memory.h"
#include "core/stream.h"
#include "ops/dtype.h"

struct aclOpExecutor {
    uint32_t magic = openacl::aclnn::kExecutorMagic;
    const char* api = "";  // the second phase that may run it
    std::shared_ptr<const openacl::aclnn::Operator> op;
    std::vector<openacl::aclnn::Slot> slots;
    int input_params = 0;  // parameters (a list counts once)
    uint64_t workspace = 0;
    bool repeatable = false;
};

namespace openacl::aclnn {
namespace {

// The executors handed out and not yet consumed or destroyed: a second phase given anything
// else is told so instead of following a dangling pointer.
struct LiveExecutors {
    std::mutex mutex;
    std::unordered_set<const aclOpExecutor*> set;
};

LiveExecutors& Live() {
    static auto* live = new LiveExecutors;  // never destroyed: calls may come during exit
    return *live;
}

bool IsLive(const aclOpExecutor* executor) {
    LiveExecutors& live = Live();
    std::lock_guard<std::mutex> lock(live.mutex);
    return live.set.count(executor) != 0;
}

void Forget(const aclOpExecutor* executor) {
    LiveExecutors& live = Live();
    std::lock_guard<std::mutex> lock(live.mutex);
    live.set.erase(executor);
}

void Free(aclOpExecutor* executor) {
    Forget(executor);
    executor->magic = kDeadMagic;
    delete executor;
}

aclnnStatus CheckLive(const aclOpExecutor* executor, aclnnStatus null_code) {
    if (executor == nullptr) return Fail(null_code, "executor is null");
    if (!IsLive(executor)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "executor %p is not a live executor: a second-phase call consumed it (make "
                    "it repeatable with aclSetAclOpExecutorRepeatable right after the first "
                    "phase to run it again), or it was destroyed",
                    static_cast<const void*>(executor));
    }
    return ACLNN_SUCCESS;
}

// The memory an operand reaches must be one live allocation of the stream's device.
aclnnStatus CheckMemory(const char* name, const void* address, int64_t first, int64_t count,
                        size_t element, const Device* device) {
    const char* base = static_cast<const char*>(address) + first * static_cast<int64_t>(element);
    const uint64_t bytes = static_cast<uint64_t>(count) * element;
    const MemRegion region = ClassifyPointer(base);
    if (region.domain != MemDomain::kDevice) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s's data at %p is %s memory: operators read and write device memory "
                    "(aclrtMalloc)",
                    name, static_cast<const void*>(base), DomainName(region.domain));
    }
    if (region.device != device) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s's data at %p belongs to another device than the stream's (device %d)", name,
                    static_cast<const void*>(base), device->id());
    }
    if (const uint64_t available = region.BytesFrom(base); bytes > available) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s needs %" PRIu64 " bytes from %p but its allocation has %" PRIu64
                    " from there (check the view's shape, strides and offset)",
                    name, bytes, static_cast<const void*>(base), available);
    }
    return ACLNN_SUCCESS;
}

// One queued run: the plan, the addresses it had when the second phase was called.
struct QueuedRun {
    std::shared_ptr<const Operator> op;
    std::vector<void*> addresses;
    void* workspace = nullptr;
    const char* api = "";
};

void Enqueue(QueuedRun* run, Stream* stream) {
    stream->Submit(cpu::MakeTask(
        [run, stream](cpu::TaskContext& ctx) {
            cpu::TaskStatus status = cpu::TaskStatus::Done();
            if (!ctx.cancelled()) {
                std::string error;
                const int32_t code = run->op->Run(run->addresses.data(), run->workspace, &error);
                if (code != 0) {
                    stream->NoteFailure("%s failed: %s", run->api, error.c_str());
                    exception_info::Report(ctx, stream, code);
                    status = cpu::TaskStatus::Failed(code);
                }
            }
            if (!ctx.borrowed()) delete run;
            return status;
        },
        0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable | cpu::Task::kFusable));
}

}  // namespace

ExecutorBuilder::ExecutorBuilder(const char* api) : executor_(new aclOpExecutor) {
    executor_->api = api;
}

ExecutorBuilder::~ExecutorBuilder() {
    delete executor_;  // null once handed out
}

int ExecutorBuilder::Add(const TensorView& view, const aclTensor* tensor, bool output,
                         int element) {
    Slot slot;
    slot.view = view;
    slot.output = output;
    slot.tensor = const_cast<aclTensor*>(tensor);
    slot.address = tensor->data;
    int& params = output ? outputs_ : inputs_;
    if (element <= 0) ++params;  // a plain tensor, or a list's first element
    slot.ir = params - 1;
    slot.element = element;
    executor_->slots.push_back(slot);
    return static_cast<int>(executor_->slots.size()) - 1;
}

int ExecutorBuilder::Input(const TensorView& view, const aclTensor* tensor) {
    return Add(view, tensor, false, -1);
}
int ExecutorBuilder::Output(const TensorView& view, const aclTensor* tensor) {
    return Add(view, tensor, true, -1);
}
int ExecutorBuilder::ListInput(const TensorView& view, const aclTensor* tensor, int element) {
    return Add(view, tensor, false, element);
}
int ExecutorBuilder::ListOutput(const TensorView& view, const aclTensor* tensor, int element) {
    return Add(view, tensor, true, element);
}
const Slot& ExecutorBuilder::slot(int index) const {
    return executor_->slots[static_cast<size_t>(index)];
}

aclnnStatus ExecutorBuilder::Finish(std::unique_ptr<Operator> op, uint64_t workspace,
                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    executor_->op = std::move(op);
    executor_->workspace = workspace;
    executor_->input_params = inputs_;
    {
        LiveExecutors& live = Live();
        std::lock_guard<std::mutex> lock(live.mutex);
        live.set.insert(executor_);
    }
    *workspaceSize = workspace;
    *executor = executor_;
    executor_ = nullptr;
    return ACLNN_SUCCESS;
}

std::vector<Slot>& SlotsOf(aclOpExecutor* executor) {
    return executor->slots;
}

aclnnStatus CheckPhaseOutputs(const uint64_t* workspaceSize, aclOpExecutor* const* executor) {
    if (workspaceSize == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "workspaceSize is null");
    if (executor == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "executor is null");
    return ACLNN_SUCCESS;
}

aclnnStatus Launch(const char* api, void* workspace, uint64_t workspaceSize,
                   aclOpExecutor* executor, aclrtStream stream) {
    if (aclnnStatus rc = CheckLive(executor, ACLNN_ERR_PARAM_NULLPTR); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (std::strcmp(executor->api, api) != 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "executor %p was made by %sGetWorkspaceSize: only %s runs it",
                    static_cast<const void*>(executor), executor->api, executor->api);
    }
    // From here the call consumes a one-shot executor whatever its outcome.
    struct Consume {
        aclOpExecutor* executor;
        ~Consume() {
            if (!executor->repeatable) Free(executor);
        }
    } consume{executor};
    if (workspaceSize < executor->workspace) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "workspaceSize is %" PRIu64 " but the first phase asked for %" PRIu64 " bytes",
                    workspaceSize, executor->workspace);
    }
    if (executor->workspace > 0 && workspace == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR,
                    "workspace is null but the first phase asked for %" PRIu64 " bytes",
                    executor->workspace);
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    const Device* device = resolved->context()->device();
    if (const backend::Accelerator* accelerator = device->accelerator(); accelerator != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: aclnn operators run on the CPU backend only; on the CUDA backend (%s) "
                    "they are not available yet",
                    api, accelerator->name());
    }
    if (executor->workspace > 0) {
        if (aclnnStatus code = CheckMemory("workspace", workspace, 0,
                                           static_cast<int64_t>(executor->workspace), 1, device);
            code != ACLNN_SUCCESS) {
            return code;
        }
    }
    auto run = std::make_unique<QueuedRun>();
    run->op = executor->op;
    run->workspace = workspace;
    run->api = executor->api;
    run->addresses.reserve(executor->slots.size());
    for (const Slot& slot : executor->slots) {
        if (slot.view.extent > 0) {
            if (slot.address == nullptr) {
                return Fail(ACLNN_ERR_PARAM_NULLPTR,
                            "%s has no device address: give it one in aclCreateTensor or with "
                            "aclSetRawTensorAddr before the first phase",
                            slot.view.name);
            }
            if (aclnnStatus code =
                    CheckMemory(slot.view.name, slot.address, slot.view.offset, slot.view.extent,
                                ops::DtypeSize(slot.view.dtype), device);
                code != ACLNN_SUCCESS) {
                return code;
            }
        }
        run->addresses.push_back(slot.address);
    }
    Enqueue(run.release(), resolved);
    return ACLNN_SUCCESS;
}

}  // namespace openacl::aclnn

using openacl::Fail;
using openacl::aclnn::CheckLive;

namespace {

// The slot an address setter names, or null with the failure recorded.
openacl::aclnn::Slot* FindSlot(aclOpExecutor* executor, aclTensor* tensor, bool output, int ir,
                               int element, const char* what) {
    for (openacl::aclnn::Slot& slot : executor->slots) {
        if (slot.output == output && slot.ir == ir && slot.element == element) return &slot;
    }
    Fail(ACLNN_ERR_PARAM_INVALID, "%s: the executor's operator (%s) has no such %s tensor", what,
         executor->api, output ? "output" : "input");
    (void)tensor;
    return nullptr;
}

aclnnStatus SetAddress(aclOpExecutor* executor, aclTensor* tensor, void* addr, bool output, int ir,
                       int element, const char* what) {
    if (aclnnStatus rc = CheckLive(executor, ACLNN_ERR_INNER_NULLPTR); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (tensor == nullptr && element < 0) return Fail(ACLNN_ERR_INNER_NULLPTR, "tensor is null");
    openacl::aclnn::Slot* slot = FindSlot(executor, tensor, output, ir, element, what);
    if (slot == nullptr) return ACLNN_ERR_PARAM_INVALID;
    slot->address = addr;
    if (tensor != nullptr) tensor->data = addr;
    return ACLNN_SUCCESS;
}

// The tensor of a list a dynamic setter names (the list may be null when the executor knows).
aclTensor* ListElement(aclTensorList* tensors, size_t relativeIndex) {
    if (tensors == nullptr || tensors->magic != openacl::aclnn::kTensorListMagic) return nullptr;
    return relativeIndex < tensors->tensors.size() ? tensors->tensors[relativeIndex] : nullptr;
}

aclnnStatus SetDynamic(aclOpExecutor* executor, size_t irIndex, size_t relativeIndex,
                       aclTensorList* tensors, void* addr, bool output, const char* what) {
    if (aclnnStatus rc = CheckLive(executor, ACLNN_ERR_INNER_NULLPTR); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (tensors == nullptr) return Fail(ACLNN_ERR_INNER_NULLPTR, "tensors is null");
    if (relativeIndex >= tensors->tensors.size()) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "relativeIndex %zu is past the list's %zu tensors",
                    relativeIndex, tensors->tensors.size());
    }
    openacl::aclnn::Slot* slot = FindSlot(executor, nullptr, output, static_cast<int>(irIndex),
                                          static_cast<int>(relativeIndex), what);
    if (slot == nullptr) return ACLNN_ERR_PARAM_INVALID;
    slot->address = addr;
    if (aclTensor* tensor = ListElement(tensors, relativeIndex); tensor != nullptr) {
        tensor->data = addr;
    }
    return ACLNN_SUCCESS;
}

// Index `index` over the operator's input, then output tensors (plain tensors only).
aclnnStatus SetCombined(aclOpExecutor* executor, size_t index, aclTensor* tensor, void* addr) {
    if (aclnnStatus rc = CheckLive(executor, ACLNN_ERR_INNER_NULLPTR); rc != ACLNN_SUCCESS) {
        return rc;
    }
    const auto inputs = static_cast<size_t>(executor->input_params);
    return index < inputs
               ? SetAddress(executor, tensor, addr, false, static_cast<int>(index), -1, "index")
               : SetAddress(executor, tensor, addr, true, static_cast<int>(index - inputs), -1,
                            "index");
}

aclnnStatus SetCombinedDynamic(aclOpExecutor* executor, size_t irIndex, size_t relativeIndex,
                               aclTensorList* tensors, void* addr) {
    if (aclnnStatus rc = CheckLive(executor, ACLNN_ERR_INNER_NULLPTR); rc != ACLNN_SUCCESS) {
        return rc;
    }
    const auto inputs = static_cast<size_t>(executor->input_params);
    return irIndex < inputs
               ? SetDynamic(executor, irIndex, relativeIndex, tensors, addr, false, "irIndex")
               : SetDynamic(executor, irIndex - inputs, relativeIndex, tensors, addr, true,
                            "irIndex");
}

}  // namespace

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckLive(executor, ACLNN_ERR_INNER_NULLPTR); rc != ACLNN_SUCCESS) {
        return rc;
    }
    executor->repeatable = true;
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckLive(executor, ACLNN_ERR_INNER_NULLPTR); rc != ACLNN_SUCCESS) {
        return rc;
    }
    openacl::aclnn::Free(executor);  // queued runs keep the operator they need
    return ACLNN_SUCCESS;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                  void* addr) {
    OPENACL_API();
    return SetAddress(executor, tensor, addr, false, static_cast<int>(index), -1, "index");
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                   void* addr) {
    OPENACL_API();
    return SetAddress(executor, tensor, addr, true, static_cast<int>(index), -1, "index");
}

aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                         const size_t relativeIndex, aclTensorList* tensors,
                                         void* addr) {
    OPENACL_API();
    return SetDynamic(executor, irIndex, relativeIndex, tensors, addr, false, "irIndex");
}

aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                          const size_t relativeIndex, aclTensorList* tensors,
                                          void* addr) {
    OPENACL_API();
    return SetDynamic(executor, irIndex, relativeIndex, tensors, addr, true, "irIndex");
}

aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                             void* addr) {
    OPENACL_API();
    return SetCombined(executor, index, tensor, addr);
}

aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                    const size_t relativeIndex, aclTensorList* tensors,
                                    void* addr) {
    OPENACL_API();
    return SetCombinedDynamic(executor, irIndex, relativeIndex, tensors, addr);
}

// The reserved capitalised names: the same functions (messages name the one called).
aclnnStatus AclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                  void* addr) {
    OPENACL_API();
    return aclSetInputTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                   void* addr) {
    OPENACL_API();
    return aclSetOutputTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                         const size_t relativeIndex, aclTensorList* tensors,
                                         void* addr) {
    OPENACL_API();
    return aclSetDynamicInputTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                          const size_t relativeIndex, aclTensorList* tensors,
                                          void* addr) {
    OPENACL_API();
    return aclSetDynamicOutputTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus AclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                             void* addr) {
    OPENACL_API();
    return aclSetTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                    const size_t relativeIndex, aclTensorList* tensors,
                                    void* addr) {
    OPENACL_API();
    return aclSetDynamicTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}
