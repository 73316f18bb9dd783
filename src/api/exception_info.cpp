// Errors and exceptions of tasks: exception callbacks and their getters, device error details
// and repair, the thread's last task id, and operator information cached on captured tasks
// (core/exception_info.h).
#include "core/exception_info.h"

#include <cstdint>

#include "acl/acl.h"
#include "core/error.h"
#include "core/kernel.h"

using openacl::Fail;

namespace {

// CANN answers a NULL aclrtExceptionInfo with 0xFFFFFFFF (the getters' "device exception"
// value), also from the getters that return an aclError.
constexpr uint32_t kNoInfo = 0xFFFFFFFFu;

// Records a NULL info: with ACL_ERROR_INVALID_PARAM for the getters of numbers, with the
// code they return (0xFFFFFFFF) for the ones that return an aclError.
bool MissingInfo(const aclrtExceptionInfo* info, aclError code = ACL_ERROR_INVALID_PARAM) {
    if (info != nullptr) return false;
    Fail(code, "info is null: pass the aclrtExceptionInfo an exception callback receives");
    return true;
}

}  // namespace

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
    OPENACL_API();
    return openacl::exception_info::SetProcessCallback(callback);
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback) {
    OPENACL_API();
    if (callback == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "callback is null: register a function (aclrtSetExceptionInfoCallback(NULL) "
                    "clears the callback it set)");
    }
    return openacl::exception_info::RegisterCallback(callback);
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback) {
    OPENACL_API();
    if (callback == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "callback is null: pass a function registered with "
                    "aclrtExceptionInfoCallbackRegister");
    }
    return openacl::exception_info::UnregisterCallback(callback);
}

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) {
    OPENACL_API();
    return MissingInfo(info) ? kNoInfo : info->task_id;
}

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) {
    OPENACL_API();
    return MissingInfo(info) ? kNoInfo : info->stream_id;
}

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) {
    OPENACL_API();
    return MissingInfo(info) ? kNoInfo : info->thread_id;
}

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) {
    OPENACL_API();
    return MissingInfo(info) ? kNoInfo : info->device_id;
}

uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) {
    OPENACL_API();
    return MissingInfo(info) ? kNoInfo : info->error_code;
}

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info, void** devArgsPtr,
                                       uint32_t* devArgsLen) {
    OPENACL_API();
    if (MissingInfo(info, static_cast<aclError>(kNoInfo))) return static_cast<aclError>(kNoInfo);
    if (devArgsPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "devArgsPtr is null");
    if (devArgsLen == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "devArgsLen is null");
    if (!info->kernel) {
        return Fail(static_cast<aclError>(kNoInfo),
                    "the exception is not a kernel's (error %u of task %u on stream %u): only a "
                    "failed kernel launch has arguments",
                    info->error_code, info->task_id, info->stream_id);
    }
    *devArgsPtr = info->args;
    *devArgsLen = info->args_size;
    return ACL_SUCCESS;
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info,
                                             aclrtFuncHandle* func) {
    OPENACL_API();
    if (MissingInfo(info, static_cast<aclError>(kNoInfo))) return static_cast<aclError>(kNoInfo);
    if (func == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "func is null");
    if (!info->kernel) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID,
                    "the exception is not a kernel's (error %u of task %u on stream %u): only a "
                    "failed kernel launch has a function handle",
                    info->error_code, info->task_id, info->stream_id);
    }
    if (info->func == nullptr) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID,
                    "the failed kernel's binary was unloaded (aclrtBinaryUnLoad) before it ran: "
                    "its function handle is gone");
    }
    *func = info->func;
    return ACL_SUCCESS;
}

aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle,
                                         aclrtOpExceptionCallback callback, void* userData) {
    OPENACL_API();
    if (binHandle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "binHandle is null");
    if (callback == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "callback is null");
    aclError rc = ACL_SUCCESS;
    openacl::KernelBinary* binary = openacl::ResolveKernelBinary(binHandle, &rc);
    if (binary == nullptr) return rc;
    return openacl::exception_info::SetBinaryCallback(binary, callback, userData);
}

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo) {
    OPENACL_API();
    if (errorInfo == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "errorInfo is null");
    return openacl::exception_info::GetErrorVerbose(deviceId, errorInfo);
}

aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo* errorInfo) {
    OPENACL_API();
    if (errorInfo == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "errorInfo is null");
    return openacl::exception_info::RepairError(deviceId, *errorInfo);
}

aclError aclrtGetThreadLastTaskId(uint32_t* taskId) {
    OPENACL_API();
    if (taskId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "taskId is null");
    *taskId = openacl::exception_info::LastTaskId();
    return ACL_SUCCESS;
}

aclError aclrtCacheLastTaskOpInfo(const void* const infoPtr, const size_t infoSize) {
    OPENACL_API();
    if (infoPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "infoPtr is null");
    if (infoSize == 0 || infoSize > openacl::exception_info::kMaxOpInfo) {
        return Fail(ACL_ERROR_INVALID_PARAM, "infoSize %zu is outside (0, %zu] bytes", infoSize,
                    openacl::exception_info::kMaxOpInfo);
    }
    return openacl::exception_info::CacheLastTaskOpInfo(infoPtr, infoSize);
}

aclError aclrtCacheLastTaskExtendInfo(const char* const extendInfoPtr, const size_t infoSize) {
    OPENACL_API();
    if (extendInfoPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "extendInfoPtr is null");
    if (infoSize == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "infoSize is 0: cache at least one byte (at most %zu are kept)",
                    openacl::exception_info::kMaxExtendInfo);
    }
    return openacl::exception_info::CacheLastTaskExtendInfo(extendInfoPtr, infoSize);
}
