// Conditional tasks of captured models (aclmdlRICondHandleCreate, aclmdlRIAddCondTask): IF,
// WHILE and SWITCH over a value in device memory, each branch a child model captured with
// aclmdlRICaptureToModelRIBegin. core/model_ri.h has the design.
#include <atomic>

#include "core/error.h"
#include "core/memory.h"
#include "core/model_ri.h"
#include "core/stream.h"

namespace openacl {
namespace {

// The branch a value selects, or nullptr: IF runs the first branch on non-zero and the second
// (if any) on zero; WHILE runs its body while the value is non-zero; SWITCH runs branch i for
// value i and nothing for a value past the last branch.
ModelRI* Select(const CondTask& cond, uint64_t value) {
    switch (cond.type) {
        case ACL_MODEL_RI_COND_TYPE_IF:
            if (value != 0) return cond.branches[0];
            return cond.branches.size() > 1 ? cond.branches[1] : nullptr;
        case ACL_MODEL_RI_COND_TYPE_WHILE:
            return value != 0 ? cond.branches[0] : nullptr;
        case ACL_MODEL_RI_COND_TYPE_SWITCH:
            return value < cond.branches.size() ? cond.branches[value] : nullptr;
    }
    return nullptr;
}

const char* CondName(aclmdlRICondTaskType type) {
    switch (type) {
        case ACL_MODEL_RI_COND_TYPE_IF:
            return "IF";
        case ACL_MODEL_RI_COND_TYPE_WHILE:
            return "WHILE";
        case ACL_MODEL_RI_COND_TYPE_SWITCH:
            return "SWITCH";
    }
    return "?";
}

}  // namespace

aclError CreateCondHandle(ModelRI* model, uint32_t default_value, uint32_t flag, CondHandle** out) {
    if (flag != 0 && flag != ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flag %u is neither 0 nor ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT", flag);
    }
    {
        std::lock_guard lock(model->mutex);
        if (!model->captured) {
            return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "model runtime instance %u was built with aclmdlRIBuildBegin: "
                        "conditional tasks belong to captured models",
                        model->id());
        }
        if (model->state_ != ModelRI::State::kCapturing) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "model runtime instance %u is not being captured: make condition handles "
                        "between aclmdlRICaptureBegin and aclmdlRICaptureEnd",
                        model->id());
        }
    }
    void* value = nullptr;
    if (aclError rc = DeviceMalloc(&value, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST,
                                   DeviceAllocKind::kMalloc, __builtin_return_address(0))) {
        return rc;
    }
    std::atomic_ref<uint64_t>(*static_cast<uint64_t*>(value)).store(0);
    std::lock_guard lock(model->mutex);
    CondHandle& handle = model->cond_handles.emplace_back();
    handle.model = model;
    handle.value = static_cast<uint64_t*>(value);
    handle.default_value = default_value;
    handle.assign_default = flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT;
    *out = &handle;
    return ACL_SUCCESS;
}

aclError AddCondTask(const aclmdlRICondTaskParams& params, Stream* stream, uint32_t flags) {
    if (flags != 0) return Fail(ACL_ERROR_INVALID_PARAM, "flags %u is reserved: pass 0", flags);
    if (params.modelRIArray == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "params.modelRIArray is null");
    }
    const uint32_t size = params.size;
    switch (params.type) {
        case ACL_MODEL_RI_COND_TYPE_IF:
            if (size == 1 || size == 2) break;
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "an IF task has 1 or 2 branches (params.size), not %u", size);
        case ACL_MODEL_RI_COND_TYPE_WHILE:
            if (size == 1) break;
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "a WHILE task has 1 branch, its body (params.size), not %u", size);
        case ACL_MODEL_RI_COND_TYPE_SWITCH:
            if (size > 0) break;
            return Fail(ACL_ERROR_INVALID_PARAM, "a SWITCH task needs at least 1 branch");
        default:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "params.type %d is not an aclmdlRICondTaskType (IF, WHILE, SWITCH)",
                        static_cast<int>(params.type));
    }
    aclError rc = ACL_SUCCESS;
    CondHandle* handle = ResolveCondHandle(params.handle, &rc);
    if (handle == nullptr) return rc;
    ModelRI* model = stream->capture();
    if (model == nullptr || model->state_ != ModelRI::State::kCapturing) {
        return Fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                    "stream %p is not being captured: conditional tasks are added inside a "
                    "capture",
                    static_cast<void*>(stream));
    }
    {
        std::lock_guard lock(model->mutex);
        if (handle->model != model) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "the condition handle belongs to model runtime instance %u, but stream "
                        "%p is captured into model runtime instance %u",
                        handle->model->id(), static_cast<void*>(stream), model->id());
        }
        if (model->streams[0] != stream) {
            return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "stream %p joined the capture through an event: add conditional tasks on "
                        "the stream the capture began on",
                        static_cast<void*>(stream));
        }
        if (model->open_group != nullptr) {
            return Fail(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT,
                        "a task group is open: only kernel launches can be grouped");
        }
        if (handle->used) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "the condition handle already drives a conditional task: make one per "
                        "task");
        }
        handle->used = true;
    }
    // The branches are registered before the parent is locked (the registry's lock comes
    // first everywhere).
    std::vector<ModelRI*> branches;
    for (uint32_t i = 0; i < size; ++i)
        branches.push_back(RegisterModelRI(model->context(), ModelRI::State::kReady));
    std::lock_guard lock(model->mutex);
    CondTask& cond = model->cond_tasks.emplace_back();
    cond.handle = handle;
    cond.type = params.type;
    for (uint32_t i = 0; i < size; ++i) {
        ModelRI* branch = branches[i];
        {
            std::lock_guard branch_lock(branch->mutex);
            branch->parent = model;
            branch->captured = true;
        }
        model->children.push_back(branch);
        cond.branches.push_back(branch);
        params.modelRIArray[i] = branch;
    }
    ModelTask& task =
        AppendModelTask(model, stream, ModelTask::Op::kCond, ACL_MODEL_RI_TASK_DEFAULT);
    task.cond = &cond;
    return ACL_SUCCESS;
}

cpu::Task CondRun(ModelTask* task, cpu::Executor* executor, Stream* stream) {
    // Runs again when the chosen branch has finished (Resume): the payload remembers that a
    // branch ran, so that the re-run collects its failures and, for WHILE, tests again.
    struct State {
        CondTask* cond;
        cpu::Executor* executor;
        Stream* stream;
        ModelRI* running;
    };
    return cpu::MakeTask(
        [state = State{task->cond, executor, stream, nullptr}](
            cpu::TaskContext& ctx) mutable -> cpu::TaskStatus {
            if (ctx.cancelled()) return cpu::TaskStatus::Done();
            const CondTask& cond = *state.cond;
            if (ModelRI* done = state.running) {
                state.running = nullptr;
                std::lock_guard lock(done->mutex);
                for (cpu::Queue* queue : done->queues) {
                    if (queue == nullptr) continue;
                    if (int32_t code = cpu::Executor::TakeFailure(queue)) {
                        state.stream->NoteFailure(
                            "a task of model runtime instance %u, branch of a %s task, failed "
                            "(%d)",
                            done->id(), CondName(cond.type), code);
                        return cpu::TaskStatus::Failed(code);
                    }
                }
                if (cond.type != ACL_MODEL_RI_COND_TYPE_WHILE) return cpu::TaskStatus::Done();
            }
            const uint64_t value =
                std::atomic_ref<uint64_t>(*cond.handle->value).load(std::memory_order_acquire);
            ModelRI* branch = Select(cond, value);
            if (branch == nullptr) return cpu::TaskStatus::Done();
            cpu::Queue* origin = nullptr;
            {
                std::lock_guard lock(branch->mutex);
                if (branch->streams.empty() || branch->queues.empty()) {
                    return cpu::TaskStatus::Done();  // a branch never captured runs nothing
                }
                origin = branch->queues[0];
                EnqueueRun(branch, state.executor, origin, state.stream);
            }
            state.running = branch;
            const cpu::SuspendToken token = ctx.token();
            state.executor->Submit(origin, cpu::MakeTask([token] { cpu::Executor::Resume(token); },
                                                         0, cpu::Task::kCallWhenCancelled));
            return cpu::TaskStatus::Suspended();
        },
        0, cpu::Task::kNoFlags);
}

void AssignCondDefaults(ModelRI* model) {
    // Read without the model's lock: the handles of a model that runs no longer change.
    for (const CondHandle& handle : model->cond_handles) {
        if (handle.assign_default) {
            std::atomic_ref<uint64_t>(*handle.value)
                .store(handle.default_value, std::memory_order_release);
        }
    }
}

void FreeCondHandles(ModelRI* model) {
    for (CondHandle& handle : model->cond_handles) {
        // After a device reset the memory is gone already.
        if (LiveDeviceRangeProblem(handle.value, sizeof(uint64_t)) == nullptr)
            DeviceFree(handle.value, false);
    }
    model->cond_handles.clear();
}

}  // namespace openacl
