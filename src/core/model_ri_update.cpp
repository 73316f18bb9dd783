// Changing a recorded model: task parameters, disabled tasks and aclmdlRIUpdate on an idle
// model, task groups patched from another stream while the model may run
// (aclmdlRICaptureTaskUpdateBegin/End), and single tasks replaced by a task of another stream
// (aclrtTaskUpdateAsync). core/model_ri.h has the design.
#include <cstring>

#include "core/error.h"
#include "core/kernel.h"
#include "core/memory.h"
#include "core/model_ri.h"
#include "core/random_num.h"
#include "core/stream.h"
#include "core/value_wait.h"

namespace openacl {
namespace {

// CANN changes only captured models (ACL graphs), only their own tasks (not a conditional
// task's branches), and only while no run or capture of them is under way.
aclError RequireIdleCaptured(ModelRI* model, const char* what) {
    if (!model->captured || model->parent != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: model runtime instance %u %s; CANN changes the tasks of captured models "
                    "only",
                    what, model->id(),
                    model->parent != nullptr ? "is a branch of a conditional task"
                                             : "was built with aclmdlRIBuildBegin");
    }
    if (model->state_ != ModelRI::State::kReady ||
        model->in_flight.load(std::memory_order_acquire) != 0) {
        return Fail(ACL_ERROR_RT_MODEL_UPDATE_FAILED,
                    "%s: model runtime instance %u is %s: change it when it is idle", what,
                    model->id(),
                    model->state_ != ModelRI::State::kReady ? "still being captured"
                                                            : "running (synchronise its streams)");
    }
    return ACL_SUCCESS;
}

bool AllZero(const void* p, size_t n) {
    const auto* bytes = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) {
        if (bytes[i] != 0) return false;
    }
    return true;
}

// A patch from a task update: replaces a grouped launch's task when it runs on the updating
// stream, so that replays after that point run the new one.
struct Patch {
    ModelRI* model;
    ModelTask* target;
    cpu::Task fresh;
    CaptureInfo info;
};

// Whether [p, p + bytes) is live device memory (the update reads it when it runs).
bool DeviceBytes(const void* p, size_t bytes) {
    if (p == nullptr) return false;
    const MemRegion region = ClassifyPointer(p);
    const auto at = reinterpret_cast<uintptr_t>(p);
    return region.domain == MemDomain::kDevice && region.readable && at >= region.base &&
           at - region.base <= region.usable && region.usable - (at - region.base) >= bytes;
}

// aclrtTaskUpdateAsync's task: what to read and what to replace.
struct TaskUpdate {
    ModelRI* model;
    ModelTask* target;
    Stream* target_stream;  // where the fresh task is built for
    Stream* exec;
    aclrtTaskUpdateInfo info;
};

// Builds the replacement from the values in device memory now; the error code (and message
// recorded) when they do not make a task.
aclError BuildReplacement(const TaskUpdate& update, const CaptureInfo& old, cpu::Task* fresh,
                          CaptureInfo* info) {
    if (update.info.id == ACL_RT_UPDATE_AIC_AIV_TASK) {
        const aclrtAicAivTaskUpdateAttr& attr = update.info.val.aicAivTaskAttr;
        if (!DeviceBytes(attr.funcEntryAddr, 8) || !DeviceBytes(attr.blockDimAddr, 4)) {
            return Fail(ACL_ERROR_RT_PARAM_INVALID,
                        "funcEntryAddr or blockDimAddr is no longer device memory");
        }
        uint64_t entry = 0;
        uint32_t num_blocks = 0;
        std::memcpy(&entry, attr.funcEntryAddr, sizeof entry);
        std::memcpy(&num_blocks, attr.blockDimAddr, sizeof num_blocks);
        aclError rc = ACL_SUCCESS;
        KernelBinary* binary = ResolveKernelBinary(attr.binHandle, &rc);
        if (binary == nullptr) return rc;
        aclrtFuncHandle handle = nullptr;
        if (aclError bad = GetKernelFunctionByEntry(binary, entry, &handle)) return bad;
        KernelFunction* function = ResolveKernelFunction(handle, &rc);
        if (function == nullptr) return rc;
        LaunchOptions options = old.launch;  // the attributes stay
        options.num_blocks = num_blocks;
        return BuildLaunchTask(function, options, old.args, old.args_size, old.host_args,
                               update.target_stream, fresh, info);
    }
    const aclrtRandomTaskUpdateAttr& attr = update.info.val.randomTaskAttr;
    if (!DeviceBytes(attr.srcAddr, sizeof(aclrtRandomNumTaskInfo))) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID, "srcAddr is no longer device memory");
    }
    aclrtRandomNumTaskInfo source;
    std::memcpy(&source, attr.srcAddr, sizeof source);
    // CANN updates these five; the function, its parameters and the data type stay.
    aclrtRandomNumTaskInfo next = *old.random;
    next.randomParaAddr = source.randomParaAddr;
    next.randomResultAddr = source.randomResultAddr;
    next.randomCounterAddr = source.randomCounterAddr;
    next.randomSeed = source.randomSeed;
    next.randomNum = source.randomNum;
    if (aclError rc = BuildRandomNumTask(next, update.target_stream, fresh)) return rc;
    *info = old;
    info->random = std::make_shared<const aclrtRandomNumTaskInfo>(next);
    return ACL_SUCCESS;
}

}  // namespace

aclError UpdateTaskAsync(Stream* task_stream, uint32_t task_id, const aclrtTaskUpdateInfo& info,
                         Stream* exec) {
    if (info.id != ACL_RT_UPDATE_AIC_AIV_TASK && info.id != ACL_RT_UPDATE_RANDOM_TASK) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "info->id %d is neither ACL_RT_UPDATE_RANDOM_TASK (1) nor "
                    "ACL_RT_UPDATE_AIC_AIV_TASK (2)",
                    static_cast<int>(info.id));
    }
    if (exec->capture() != nullptr) {
        return Fail(ACL_ERROR_RT_STREAM_MODEL,
                    "execStream %p is captured into or bound to a model runtime instance: the "
                    "update runs on a stream of its own",
                    static_cast<void*>(exec));
    }
    if (exec->lane() != nullptr || task_stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "task updates are not supported on the accelerator backends yet");
    }
    uint32_t index = 0;
    ModelRI* model = NewestModelWithStream(task_stream, &index);
    if (model == nullptr) {
        return Fail(ACL_ERROR_RT_STREAM_MODEL,
                    "taskStream %p holds no tasks of a model runtime instance: bind it to one "
                    "(aclmdlRIBindStream) and issue the task there",
                    static_cast<void*>(task_stream));
    }
    std::unique_lock lock(model->mutex);
    ModelTask* target = nullptr;
    for (ModelTask& task : model->tasks) {
        if (task.stream == index && task.seq_id == task_id && task.op == ModelTask::Op::kTask &&
            !task.cleaned) {
            target = &task;
        }
    }
    if (target == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "taskId %u is not a task of stream %p in model runtime instance %u "
                    "(aclrtGetThreadLastTaskId gives a task's id right after it is issued)",
                    task_id, static_cast<void*>(task_stream), model->id());
    }
    if (info.id == ACL_RT_UPDATE_AIC_AIV_TASK) {
        const aclrtAicAivTaskUpdateAttr& attr = info.val.aicAivTaskAttr;
        if (target->type != ACL_MODEL_RI_TASK_KERNEL) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "task %u of stream %p is not a kernel launch: ACL_RT_UPDATE_AIC_AIV_TASK "
                        "updates kernels",
                        task_id, static_cast<void*>(task_stream));
        }
        if (!AllZero(attr.rsv, sizeof attr.rsv)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "aicAivTaskAttr.rsv is reserved and must be 0");
        }
        aclError rc = ACL_SUCCESS;
        if (ResolveKernelBinary(attr.binHandle, &rc) == nullptr) return rc;
        if (!DeviceBytes(attr.funcEntryAddr, 8)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "aicAivTaskAttr.funcEntryAddr %p is not 8 bytes of device memory holding "
                        "the function entry",
                        attr.funcEntryAddr);
        }
        if (!DeviceBytes(attr.blockDimAddr, 4)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "aicAivTaskAttr.blockDimAddr %p is not 4 bytes of device memory holding "
                        "the block count",
                        attr.blockDimAddr);
        }
    } else {
        const aclrtRandomTaskUpdateAttr& attr = info.val.randomTaskAttr;
        if (target->info.random == nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "task %u of stream %p is not a random-number task: "
                        "ACL_RT_UPDATE_RANDOM_TASK updates aclrtRandomNumAsync tasks",
                        task_id, static_cast<void*>(task_stream));
        }
        if (!AllZero(attr.rsv, sizeof attr.rsv)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "randomTaskAttr.rsv is reserved and must be 0");
        }
        if (attr.size < sizeof(aclrtRandomNumTaskInfo) ||
            !DeviceBytes(attr.srcAddr, sizeof(aclrtRandomNumTaskInfo))) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "randomTaskAttr.srcAddr %p (size %zu) must be device memory holding an "
                        "aclrtRandomNumTaskInfo (%zu bytes)",
                        attr.srcAddr, attr.size, sizeof(aclrtRandomNumTaskInfo));
        }
    }
    auto* update = new TaskUpdate{model, target, model->streams[index], exec, info};
    model->in_flight.fetch_add(1, std::memory_order_relaxed);  // the model waits for it
    lock.unlock();
    exec->Submit(cpu::MakeTask(
        [update](cpu::TaskContext& ctx) {
            ModelRI* model = update->model;
            cpu::TaskStatus status = cpu::TaskStatus::Done();
            if (!ctx.cancelled()) {
                CaptureInfo old;
                {
                    std::lock_guard model_lock(model->mutex);
                    old = update->target->info;
                }
                cpu::Task fresh;
                CaptureInfo info;
                if (aclError rc = BuildReplacement(*update, old, &fresh, &info)) {
                    const char* why = TakeRecentErrMsg();
                    update->exec->NoteFailure("aclrtTaskUpdateAsync of task %u failed: %s",
                                              update->target->seq_id, why ? why : "");
                    status = cpu::TaskStatus::Failed(rc);
                } else {
                    std::lock_guard model_lock(model->mutex);
                    cpu::Task old;
                    {
                        std::lock_guard patch_lock(model->patch_mutex);
                        old = update->target->task;
                        update->target->task = fresh;
                    }
                    update->target->info = info;
                    model->sequences_stale = true;
                    // A replay may be running the old version: released once none runs.
                    model->superseded.push_back(old);
                }
            }
            delete update;
            model->in_flight.fetch_sub(1, std::memory_order_release);
            return status;
        },
        0, cpu::Task::kCallWhenCancelled));
    return ACL_SUCCESS;
}

aclError SetTaskParams(ModelTask* task, const aclmdlRITaskParams& params) {
    ModelRI* model = task->model;
    std::lock_guard lock(model->mutex);
    if (aclError rc = RequireIdleCaptured(model, "aclmdlRITaskSetParams")) return rc;
    if (params.type != ACL_MODEL_RI_TASK_KERNEL && params.type != ACL_MODEL_RI_TASK_VALUE_WRITE &&
        params.type != ACL_MODEL_RI_TASK_VALUE_WAIT) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "params->type %d cannot be set: only kernel (1), value-write (5) and "
                    "value-wait (6) tasks take new parameters",
                    static_cast<int>(params.type));
    }
    if (params.type != task->type || task->op != ModelTask::Op::kTask) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "params->type %d is not the type of task %p (%d): a task keeps its type",
                    static_cast<int>(params.type), static_cast<void*>(task),
                    static_cast<int>(task->type));
    }
    if (!AllZero(params.rsv0, sizeof params.rsv0) || !AllZero(params.rsv1, sizeof params.rsv1)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "params->rsv0 and rsv1 are reserved and must be 0");
    }
    Stream* stream = model->streams[task->stream];
    if (!StreamAlive(stream)) {
        return Fail(ACL_ERROR_RT_STREAM_MODEL, "stream %p, whose task this is, was destroyed",
                    static_cast<void*>(stream));
    }
    cpu::Task fresh;
    CaptureInfo info;
    if (params.type == ACL_MODEL_RI_TASK_KERNEL) {
        const aclmdlRIKernelTaskParams& kernel = params.kernelTaskParams;
        if (!AllZero(kernel.rsv, sizeof kernel.rsv)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "params->kernelTaskParams.rsv is reserved and must be 0");
        }
        if (kernel.isHostArgs > 1) {
            return Fail(ACL_ERROR_INVALID_PARAM, "isHostArgs %u is neither 0 nor 1",
                        kernel.isHostArgs);
        }
        aclError rc = ACL_SUCCESS;
        KernelFunction* function = ResolveKernelFunction(kernel.funcHandle, &rc);
        if (function == nullptr) return rc;
        LaunchOptions options;
        if (kernel.cfg != nullptr) {
            if (aclError bad = ApplyLaunchConfig(kernel.cfg, &options)) return bad;
        } else {
            options = task->info.launch;  // the attributes stay as captured
        }
        options.num_blocks = kernel.numBlocks;
        if (aclError bad = BuildLaunchTask(function, options, kernel.args, kernel.argsSize,
                                           kernel.isHostArgs == 1, stream, &fresh, &info)) {
            return bad;
        }
    } else if (params.type == ACL_MODEL_RI_TASK_VALUE_WRITE) {
        const aclmdlRIValueWriteTaskParams& write = params.valueWriteTaskParams;
        if (aclError bad = CheckValueWrite(write.devAddr, 0, stream)) return bad;
        fresh = ValueWriteTask(write.devAddr, write.value, stream);
        info.type = ACL_MODEL_RI_TASK_VALUE_WRITE;
        info.address = write.devAddr;
        info.value = write.value;
    } else {
        const aclmdlRIValueWaitTaskParams& wait = params.valueWaitTaskParams;
        if (aclError bad = CheckValueWait(wait.devAddr, wait.flag, stream)) return bad;
        fresh = ValueWaitTask(wait.devAddr, wait.value, wait.flag, stream);
        info.type = ACL_MODEL_RI_TASK_VALUE_WAIT;
        info.address = wait.devAddr;
        info.value = wait.value;
        info.flag = wait.flag;
    }
    cpu::Task old;
    {
        std::lock_guard patch_lock(model->patch_mutex);
        old = task->task;
        task->task = fresh;
    }
    ReleaseTask(old);  // idle: no replay holds it
    task->info = info;
    model->needs_update = true;
    model->sequences_stale = true;
    return ACL_SUCCESS;
}

aclError DisableTask(ModelTask* task) {
    ModelRI* model = task->model;
    std::lock_guard lock(model->mutex);
    if (aclError rc = RequireIdleCaptured(model, "aclmdlRITaskDisable")) return rc;
    task->disabled = true;
    model->needs_update = true;
    model->sequences_stale = true;
    return ACL_SUCCESS;
}

aclError UpdateModelRI(ModelRI* model) {
    std::lock_guard lock(model->mutex);
    if (aclError rc = RequireIdleCaptured(model, "aclmdlRIUpdate")) return rc;
    model->needs_update = false;
    return ACL_SUCCESS;
}

aclError KernelTaskAttribute(ModelTask* task, aclrtLaunchKernelAttrId id,
                             aclrtLaunchKernelAttrValue* value) {
    std::lock_guard lock(task->model->mutex);
    if (task->type != ACL_MODEL_RI_TASK_KERNEL) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "task %p is not a kernel task (aclmdlRITaskGetType tells its type)",
                    static_cast<void*>(task));
    }
    const LaunchOptions& launch = task->info.launch;
    std::memset(value, 0, sizeof *value);
    switch (id) {
        case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
            value->schemMode = launch.schem_mode;
            return ACL_SUCCESS;
        case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
            value->dynUBufSize = launch.dyn_ubuf_size;
            return ACL_SUCCESS;
        case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
            value->isDataDump = launch.data_dump;
            return ACL_SUCCESS;
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
            value->enableProfiling = launch.enable_profiling;
            return ACL_SUCCESS;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
            value->timeout = static_cast<uint16_t>(launch.timeout_us / 1000000);
            return ACL_SUCCESS;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
            value->timeoutUs.timeoutLow = static_cast<uint32_t>(launch.timeout_us);
            value->timeoutUs.timeoutHigh = static_cast<uint32_t>(launch.timeout_us >> 32);
            return ACL_SUCCESS;
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "attribute %d cannot be queried on a captured kernel task (CANN answers "
                        "ENGINE_TYPE, BLOCKDIM_OFFSET and BLOCK_TASK_PREFETCH for none)",
                        static_cast<int>(id));
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "attrId %d is not an aclrtLaunchKernelAttrId",
                static_cast<int>(id));
}

aclError BeginTaskUpdate(Stream* stream, TaskGroup* group) {
    if (ModelRI* model = stream->capture()) {
        const bool capturing = model->state_ == ModelRI::State::kCapturing;
        return Fail(capturing ? ACL_ERROR_RT_STREAM_CAPTURED : ACL_ERROR_RT_STREAM_MODEL,
                    "stream %p is %s model runtime instance %u: task updates are issued on a "
                    "stream of its own",
                    static_cast<void*>(stream), capturing ? "being captured into" : "bound to",
                    model->id());
    }
    if (stream->task_update() != nullptr) {
        return Fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    "stream %p is already updating a task group: end that first "
                    "(aclmdlRICaptureTaskUpdateEnd)",
                    static_cast<void*>(stream));
    }
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "task updates are not supported on the accelerator backends yet");
    }
    ModelRI* model = group->model;
    std::lock_guard lock(model->mutex);
    if (group->open) {
        return Fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    "task group %p is still open in its capture (aclmdlRICaptureTaskGrpEnd "
                    "closes it)",
                    static_cast<void*>(group));
    }
    if (group->updater != nullptr) {
        return Fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    "task group %p is already being updated by stream %p",
                    static_cast<void*>(group), static_cast<void*>(group->updater));
    }
    if (model->state_ != ModelRI::State::kReady) {
        return Fail(ACL_ERROR_RT_MODEL_CAPTURED,
                    "model runtime instance %u is still being captured: end the capture first",
                    model->id());
    }
    group->updater = stream;
    group->updated = 0;
    group->update_error = ACL_SUCCESS;
    group->update_reason.clear();
    stream->set_task_update(group);
    return ACL_SUCCESS;
}

aclError EndTaskUpdate(Stream* stream) {
    TaskGroup* group = stream->task_update();
    if (group == nullptr) {
        return Fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    "stream %p is not updating a task group (aclmdlRICaptureTaskUpdateBegin "
                    "starts an update)",
                    static_cast<void*>(stream));
    }
    stream->set_task_update(nullptr);
    std::lock_guard lock(group->model->mutex);
    group->updater = nullptr;
    if (group->update_error != ACL_SUCCESS) {
        return Fail(group->update_error, "the update of task group %p failed: %s",
                    static_cast<void*>(group), group->update_reason.c_str());
    }
    const auto total = static_cast<uint32_t>(group->tasks.size());
    // No launch at all leaves the group as it is (CANN's own example updates nothing on its
    // first round); a partial update is a mistake.
    if (group->updated != 0 && group->updated != total) {
        return Fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    "the update of task group %p issued %u launches, but the group holds %u: "
                    "issue one per captured launch, in capture order (the first %u are patched)",
                    static_cast<void*>(group), group->updated, total, group->updated);
    }
    return ACL_SUCCESS;
}

uint64_t UpdateGroupTask(TaskGroup* group, Stream* stream, const cpu::Task& task,
                         const trace::Label& label, const CaptureInfo* info) {
    ModelRI* model = group->model;
    cpu::Task fresh = task;
    std::unique_lock lock(model->mutex);
    auto refuse = [&](aclError code, const char* why) {
        if (group->update_error == ACL_SUCCESS) {
            group->update_error = code;
            group->update_reason = why;
            Warn("task update on stream %p: %s", static_cast<void*>(stream), why);
        }
        lock.unlock();
        ReleaseTask(fresh);
        return uint64_t{0};
    };
    if (group->update_error != ACL_SUCCESS) return refuse(group->update_error, "");
    char why[256];
    if (info == nullptr || info->type != ACL_MODEL_RI_TASK_KERNEL) {
        std::snprintf(why, sizeof why,
                      "%s cannot update a task group: only kernel launches can, one per "
                      "captured launch",
                      CurrentApi());
        return refuse(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, why);
    }
    if (group->updated >= group->tasks.size()) {
        std::snprintf(why, sizeof why, "%s is launch %u of the update, but the group holds %zu",
                      CurrentApi(), group->updated + 1, group->tasks.size());
        return refuse(ACL_ERROR_STREAM_TASK_GROUP_STATUS, why);
    }
    auto* patch = new Patch{model, group->tasks[group->updated++], fresh, *info};
    model->in_flight.fetch_add(1, std::memory_order_relaxed);  // the model waits for its patches
    lock.unlock();
    return stream->SubmitUndiverted(cpu::MakeTask(
                                        [patch](cpu::TaskContext& ctx) {
                                            ModelRI* model = patch->model;
                                            if (ctx.cancelled()) {
                                                ReleaseTask(patch->fresh);
                                            } else {
                                                cpu::Task old;
                                                {
                                                    std::lock_guard patch_lock(model->patch_mutex);
                                                    old = patch->target->task;
                                                    patch->target->task = patch->fresh;
                                                }
                                                // A replay may be running the old version: it is
                                                // released once none runs.
                                                std::lock_guard model_lock(model->mutex);
                                                patch->target->info = patch->info;
                                                model->superseded.push_back(old);
                                            }
                                            delete patch;
                                            model->in_flight.fetch_sub(1,
                                                                       std::memory_order_release);
                                        },
                                        0, cpu::Task::kCallWhenCancelled),
                                    label);
}

cpu::Task GroupedLaunch(ModelTask* task) {
    // Borrowed: the launch it runs belongs to the model; a grouped launch never suspends.
    return cpu::MakeTask(
        [task](cpu::TaskContext& ctx) {
            cpu::Task current;
            {
                std::lock_guard lock(task->model->patch_mutex);
                current = task->task;
            }
            return current.fn(ctx, current.payload);
        },
        0, cpu::Task::kBorrowed);
}

}  // namespace openacl
