// Model runtime instances (aclmdlRI*, CANN's graphs): capture, explicit building, replay and
// the queries on captured tasks. core/model_ri.h has the design.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "acl/acl.h"
#include "core/error.h"
#include "core/event.h"
#include "core/exception_info.h"
#include "core/model_ri.h"
#include "core/stream.h"

using openacl::Fail;
using openacl::ModelRI;
using openacl::ModelTask;
using openacl::Stream;

namespace {

bool ValidMode(aclmdlRICaptureMode mode) {
    return mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ||
           mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL ||
           mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
}

aclError Begin(aclrtStream stream, aclmdlRI into, aclmdlRICaptureMode mode) {
    if (!ValidMode(mode)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "mode %d is not an aclmdlRICaptureMode",
                    static_cast<int>(mode));
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    ModelRI* model = nullptr;
    if (into != nullptr) {
        model = openacl::ResolveModelRI(into, &rc);
        if (model == nullptr) return rc;
    }
    return openacl::BeginCapture(resolved, mode, model);
}

}  // namespace

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
    OPENACL_API();
    return Begin(stream, nullptr, mode);
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                       aclmdlRICaptureMode mode) {
    OPENACL_API();
    if (modelRI == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelRI is null");
    return Begin(stream, modelRI, mode);
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status,
                                aclmdlRI* modelRI) {
    OPENACL_API();
    if (status == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "status is null");
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    ModelRI* model = nullptr;
    openacl::CaptureStatus(resolved, status, &model);
    if (modelRI != nullptr) *modelRI = model;
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
    OPENACL_API();
    if (mode == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "mode is null");
    if (!ValidMode(*mode)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "*mode %d is not an aclmdlRICaptureMode",
                    static_cast<int>(*mode));
    }
    *mode = openacl::ExchangeThreadCaptureMode(*mode);
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
    OPENACL_API();
    if (modelRI == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelRI is null");
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    ModelRI* model = nullptr;
    rc = openacl::EndCapture(resolved, &model);
    *modelRI = model;
    return rc;
}

aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag) {
    OPENACL_API();
    if (modelRI == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelRI is null");
    if (flag != 0) return Fail(ACL_ERROR_INVALID_PARAM, "flag %u is reserved and must be 0", flag);
    ModelRI* model = nullptr;
    if (aclError rc = openacl::BeginBuild(&model)) return rc;
    *modelRI = model;
    return ACL_SUCCESS;
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    if (stream == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "stream is null: bind a stream created with ACL_STREAM_PERSISTENT");
    }
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::BindStream(model, resolved, flag);
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::EndTask(model, resolved);
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve) {
    OPENACL_API();
    if (reserve != nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    return openacl::EndBuild(model);
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::UnbindStream(model, resolved);
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    openacl::exception_info::ReplayScope submitter(resolved);  // the replay's tasks are ours
    return openacl::ExecuteAsync(model, resolved);
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
    OPENACL_API();
    if (timeout < -1 || timeout == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %d ms is invalid: -1 waits for ever, a positive value bounds the "
                    "wait",
                    timeout);
    }
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    return openacl::Execute(model, timeout);
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    const std::vector<uint32_t> family = openacl::exception_info::ModelFamily(model);
    rc = openacl::DestroyModelRI(model);
    if (rc == ACL_SUCCESS) openacl::exception_info::ForgetModels(family);  // cached op info
    return rc;
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    return openacl::UpdateModelRI(model);
}

aclError aclmdlRIAbort(aclmdlRI modelRI) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    return openacl::AbortModelRI(model);
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char* name) {
    OPENACL_API();
    if (name == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "name is null");
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    constexpr size_t kMaxName = 512;  // longer names are cut, as documented
    std::lock_guard lock(model->mutex);
    model->name.assign(name, strnlen(name, kMaxName - 1));
    return ACL_SUCCESS;
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name) {
    OPENACL_API();
    if (name == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "name is null");
    if (maxLen == 0) return Fail(ACL_ERROR_INVALID_PARAM, "maxLen is 0");
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    std::lock_guard lock(model->mutex);
    const size_t n = std::min<size_t>(model->name.size(), maxLen - 1);
    std::memcpy(name, model->name.data(), n);
    name[n] = '\0';
    return ACL_SUCCESS;
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId) {
    OPENACL_API();
    if (modelRIId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelRIId is null");
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    *modelRIId = model->id();
    return ACL_SUCCESS;
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void* userData) {
    OPENACL_API();
    if (func == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "func is null");
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    std::lock_guard lock(model->mutex);
    model->destroy_callbacks.emplace_back(func, userData);
    return ACL_SUCCESS;
}

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func) {
    OPENACL_API();
    if (func == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "func is null");
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    std::lock_guard lock(model->mutex);
    auto& callbacks = model->destroy_callbacks;
    for (auto it = callbacks.begin(); it != callbacks.end(); ++it) {
        if (it->first == func) {
            callbacks.erase(it);
            return ACL_SUCCESS;
        }
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "func %p is not registered on model runtime instance %u",
                reinterpret_cast<void*>(func), model->id());
}

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams, uint32_t* numStreams) {
    OPENACL_API();
    if (numStreams == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "numStreams is null");
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    std::lock_guard lock(model->mutex);
    const auto total = static_cast<uint32_t>(model->streams.size());
    if (streams == nullptr) {
        *numStreams = total;
        return ACL_SUCCESS;
    }
    if (*numStreams < total) {
        return Fail(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
                    "model runtime instance %u has %u streams but the array has room for %u",
                    model->id(), total, *numStreams);
    }
    for (uint32_t i = 0; i < total; ++i) {
        Stream* stream = model->streams[i];
        streams[i] = stream->is_default() ? nullptr : static_cast<aclrtStream>(stream);
    }
    *numStreams = total;
    return ACL_SUCCESS;
}

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask* tasks, uint32_t* numTasks) {
    OPENACL_API();
    if (numTasks == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "numTasks is null");
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::TasksOfStream(resolved, tasks, numTasks);
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t* id) {
    OPENACL_API();
    if (id == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "id is null");
    aclError rc = ACL_SUCCESS;
    ModelTask* resolved = openacl::ResolveModelTask(task, &rc);
    if (resolved == nullptr) return rc;
    *id = resolved->seq_id;
    return ACL_SUCCESS;
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType* type) {
    OPENACL_API();
    if (type == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "type is null");
    aclError rc = ACL_SUCCESS;
    ModelTask* resolved = openacl::ResolveModelTask(task, &rc);
    if (resolved == nullptr) return rc;
    *type = resolved->type;
    return ACL_SUCCESS;
}

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
    OPENACL_API();
    if (params == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "params is null");
    aclError rc = ACL_SUCCESS;
    ModelTask* resolved = openacl::ResolveModelTask(task, &rc);
    if (resolved == nullptr) return rc;
    std::lock_guard lock(resolved->model->mutex);
    std::memset(params, 0, sizeof *params);
    params->type = resolved->type;
    params->taskGrp = resolved->group;
    openacl::exception_info::CachedOpInfo(resolved, &params->opInfoPtr, &params->opInfoSize);
    const uint32_t event_flags = resolved->event != nullptr ? resolved->event->flags() : 0;
    switch (resolved->type) {
        case ACL_MODEL_RI_TASK_KERNEL: {
            aclmdlRIKernelTaskParams& kernel = params->kernelTaskParams;
            kernel.funcHandle = resolved->info.func;
            kernel.args = const_cast<void*>(resolved->info.args);
            kernel.isHostArgs = resolved->info.host_args ? 1 : 0;
            kernel.argsSize = resolved->info.args_size;
            kernel.numBlocks = resolved->info.num_blocks;
            break;
        }
        case ACL_MODEL_RI_TASK_EVENT_RECORD:
            params->eventRecordTaskParams.event = resolved->event;
            params->eventRecordTaskParams.eventFlag = event_flags;
            params->eventRecordTaskParams.recordFlag =
                resolved->external ? ACL_EVENT_RECORD_EXTERNAL : ACL_EVENT_RECORD_DEFAULT;
            break;
        case ACL_MODEL_RI_TASK_EVENT_WAIT:
            params->eventWaitTaskParams.event = resolved->event;
            params->eventWaitTaskParams.eventFlag = event_flags;
            params->eventWaitTaskParams.waitFlag = resolved->op == ModelTask::Op::kExternalWait
                                                       ? ACL_EVENT_WAIT_EXTERNAL
                                                       : ACL_EVENT_WAIT_DEFAULT;
            break;
        case ACL_MODEL_RI_TASK_EVENT_RESET:
            params->eventResetTaskParams.event = resolved->event;
            params->eventResetTaskParams.eventFlag = event_flags;
            break;
        case ACL_MODEL_RI_TASK_VALUE_WRITE:
            params->valueWriteTaskParams.devAddr = resolved->info.address;
            params->valueWriteTaskParams.value = resolved->info.value;
            break;
        case ACL_MODEL_RI_TASK_VALUE_WAIT:
            params->valueWaitTaskParams.devAddr = resolved->info.address;
            params->valueWaitTaskParams.value = resolved->info.value;
            params->valueWaitTaskParams.flag = resolved->info.flag;
            break;
        default:
            break;
    }
    return ACL_SUCCESS;
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
    OPENACL_API();
    if (params == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "params is null");
    aclError rc = ACL_SUCCESS;
    ModelTask* resolved = openacl::ResolveModelTask(task, &rc);
    if (resolved == nullptr) return rc;
    return openacl::SetTaskParams(resolved, *params);
}

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                        aclrtLaunchKernelAttrValue* attrValue) {
    OPENACL_API();
    if (attrValue == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "attrValue is null");
    aclError rc = ACL_SUCCESS;
    ModelTask* resolved = openacl::ResolveModelTask(task, &rc);
    if (resolved == nullptr) return rc;
    return openacl::KernelTaskAttribute(resolved, attrId, attrValue);
}

aclError aclmdlRITaskDisable(aclmdlRITask task) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    ModelTask* resolved = openacl::ResolveModelTask(task, &rc);
    if (resolved == nullptr) return rc;
    return openacl::DisableTask(resolved);
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::BeginTaskGroup(resolved);
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle) {
    OPENACL_API();
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    openacl::TaskGroup* group = nullptr;
    rc = openacl::EndTaskGroup(resolved, &group);
    *handle = group;
    return rc;
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    openacl::TaskGroup* group = openacl::ResolveTaskGroup(handle, &rc);
    if (group == nullptr) return rc;
    return openacl::BeginTaskUpdate(resolved, group);
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::EndTaskUpdate(resolved);
}

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                  aclmdlRICondHandleFlag flag, aclmdlRICondHandle* handle) {
    OPENACL_API();
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    openacl::CondHandle* created = nullptr;
    rc =
        openacl::CreateCondHandle(model, defaultLaunchValue, static_cast<uint32_t>(flag), &created);
    if (rc == ACL_SUCCESS) *handle = created;
    return rc;
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr) {
    OPENACL_API();
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "ptr is null");
    aclError rc = ACL_SUCCESS;
    openacl::CondHandle* resolved = openacl::ResolveCondHandle(handle, &rc);
    if (resolved == nullptr) return rc;
    *ptr = resolved->value;
    return ACL_SUCCESS;
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::AddCondTask(params, resolved, flags);
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    openacl::DebugPrint(model, stdout, false, false);
    std::fflush(stdout);
    return ACL_SUCCESS;
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags) {
    OPENACL_API();
    if (path == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "path is null");
    if (flags != ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY &&
        flags != ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flags 0x%x is neither ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY nor _VERBOSE", flags);
    }
    aclError rc = ACL_SUCCESS;
    ModelRI* model = openacl::ResolveModelRI(modelRI, &rc);
    if (model == nullptr) return rc;
    FILE* out = std::fopen(path, "w");
    if (out == nullptr) {
        return Fail(ACL_ERROR_RT_FILE_OPEN, "cannot write %s: %s", path, std::strerror(errno));
    }
    // With the extended information aclrtCacheLastTaskExtendInfo cached on the tasks.
    rc = openacl::exception_info::DebugJsonPrint(model, out,
                                                 flags == ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE);
    if (std::fclose(out) != 0 && rc == ACL_SUCCESS) {
        return Fail(ACL_ERROR_RT_FILE_WRITE, "cannot write %s: %s", path, std::strerror(errno));
    }
    return rc;
}
