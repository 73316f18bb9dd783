// Stopping and aborting work: aclrtStreamStop, aclrtStreamAbort, aclrtDeviceTaskAbort and its
// callbacks (core/stream_abort.h); aclrtPersistentTaskClean and aclrtTaskUpdateAsync
// (core/model_ri.h).
#include <cstdint>

#include "acl/acl.h"
#include "core/error.h"
#include "core/model_ri.h"
#include "core/named_callbacks.h"
#include "core/stream.h"
#include "core/stream_abort.h"

using openacl::Fail;
using openacl::Stream;

namespace {

// The longest timeout aclrtDeviceTaskAbort takes: 36 minutes, as CANN documents.
constexpr uint32_t kMaxDeviceAbortTimeoutMs = 36u * 60u * 1000u;

}  // namespace

aclError aclrtStreamStop(aclrtStream stream) {
    OPENACL_API();
    if (stream == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "aclrtStreamStop does not take the default stream (NULL), as CANN "
                    "documents: stop a stream made with aclrtCreateStream");
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::StopStream(resolved);
}

aclError aclrtStreamAbort(aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::AbortStream(resolved);
}

aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout) {
    OPENACL_API();
    if (timeout > kMaxDeviceAbortTimeoutMs) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %u ms is more than the %u ms (36 minutes) CANN allows: use 0 to "
                    "wait as long as it takes",
                    timeout, kMaxDeviceAbortTimeoutMs);
    }
    return openacl::AbortDeviceTasks(deviceId, timeout);
}

aclError aclrtSetDeviceTaskAbortCallback(const char* regName, aclrtDeviceTaskAbortCallback callback,
                                         void* args) {
    OPENACL_API();
    if (aclError rc = openacl::CheckCallbackName(regName)) return rc;
    return openacl::SetDeviceTaskAbortCallback(regName, callback, args);
}

aclError aclrtPersistentTaskClean(aclrtStream stream) {
    OPENACL_API();
    if (stream == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the default stream (NULL) is not an ACL_STREAM_PERSISTENT stream");
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::CleanPersistentTasks(resolved);
}

aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo* info,
                              aclrtStream execStream) {
    OPENACL_API();
    if (taskStream == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "taskStream is null: give the stream bound to a model that holds the task");
    }
    if (info == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "info is null");
    aclError rc = ACL_SUCCESS;
    Stream* task_stream = openacl::ResolveStream(taskStream, &rc);
    if (task_stream == nullptr) return rc;
    Stream* exec = openacl::ResolveStream(execStream, &rc);
    if (exec == nullptr) return rc;
    return openacl::UpdateTaskAsync(task_stream, taskId, *info, exec);
}
