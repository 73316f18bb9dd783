// Context management: explicit contexts, the per-thread current context, system options.
#include <atomic>
#include <mutex>

#include "acl/acl.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/runtime.h"
#include "core/state_callbacks.h"
#include "core/stream.h"

using openacl::Context;
using openacl::Fail;
using openacl::Runtime;

namespace {

constexpr int kSysParamCount = 4;  // aclSysParamOpt has values 0..3

bool ValidSysParam(aclSysParamOpt opt) {
    return static_cast<unsigned>(opt) < static_cast<unsigned>(kSysParamCount);
}

// Process-wide values of aclrtSetSysParamOpt (relaxed: independent flags).
std::atomic<int64_t> g_sys_params[kSysParamCount];
std::atomic<bool> g_sys_param_set[kSysParamCount];

}  // namespace

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
    OPENACL_API();
    if (context == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "context is null");
    openacl::Device* device = Runtime::Get().DeviceById(deviceId);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    openacl::Stream* default_stream = nullptr;
    {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        if (aclError rc = openacl::OpenDeviceLocked(device); rc != ACL_SUCCESS) return rc;
        Context* ctx = openacl::CreateContextLocked(device, false);
        if (ctx == nullptr) return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
        openacl::SetCurrentContext(ctx);
        *context = ctx;
        default_stream = ctx->default_stream;
    }
    openacl::NotifyStreamState(default_stream, ACL_RT_STREAM_STATE_CREATE_POST);
    return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
    OPENACL_API();
    if (context == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "context is null");
    openacl::NotifyContextStreamsLeaving(context);  // state callbacks, outside the lock
    openacl::Graveyard graveyard;  // the context's streams finish their work after the unlock
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    Context* ctx = openacl::LookupContextLocked(context);
    if (ctx == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "context %p is not a live context (already destroyed, or its device was "
                    "reset)",
                    context);
    }
    if (ctx->is_default()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "context %p is device %d's default context: it cannot be destroyed and goes "
                    "away with aclrtResetDevice",
                    context, ctx->device()->id());
    }
    openacl::DestroyContextLocked(ctx, graveyard);
    return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
    OPENACL_API();
    if (context == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "context is null");
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    Context* ctx = openacl::LookupContextLocked(context);
    if (ctx == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "context %p is not a live context (already destroyed, or its device was "
                    "reset)",
                    context);
    }
    openacl::SetCurrentContext(ctx);
    return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
    OPENACL_API();
    if (context == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "context is null");
    aclError rc = ACL_SUCCESS;
    Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    *context = ctx;
    return ACL_SUCCESS;
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) {
    OPENACL_API();
    if (stream == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "stream is null");
    aclError rc = ACL_SUCCESS;
    Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    *stream = ctx->default_stream;
    return ACL_SUCCESS;
}

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active) {
    OPENACL_API();
    if (active == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "active is null");
    openacl::Device* device = Runtime::Get().DeviceById(deviceId);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    *active = device->default_context != nullptr ? 1 : 0;
    if (flags != nullptr) *flags = 0;
    return ACL_SUCCESS;
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
    OPENACL_API();
    if (!ValidSysParam(opt)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "opt %d is not an aclSysParamOpt",
                    static_cast<int>(opt));
    }
    aclError rc = ACL_SUCCESS;
    Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    ctx->sys_params[opt] = value;
    ctx->sys_param_set[opt] = true;
    return ACL_SUCCESS;
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    if (!ValidSysParam(opt)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "opt %d is not an aclSysParamOpt",
                    static_cast<int>(opt));
    }
    aclError rc = ACL_SUCCESS;
    Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    if (!ctx->sys_param_set[opt]) {
        return Fail(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET,
                    "option %d was never set in this context (aclrtCtxSetSysParamOpt)",
                    static_cast<int>(opt));
    }
    *value = ctx->sys_params[opt];
    return ACL_SUCCESS;
}

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
    OPENACL_API();
    if (!ValidSysParam(opt)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "opt %d is not an aclSysParamOpt",
                    static_cast<int>(opt));
    }
    g_sys_params[opt].store(value, std::memory_order_relaxed);
    g_sys_param_set[opt].store(true, std::memory_order_release);
    return ACL_SUCCESS;
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    if (!ValidSysParam(opt)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "opt %d is not an aclSysParamOpt",
                    static_cast<int>(opt));
    }
    if (!g_sys_param_set[opt].load(std::memory_order_acquire)) {
        return Fail(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET,
                    "option %d was never set in this process (aclrtSetSysParamOpt)",
                    static_cast<int>(opt));
    }
    *value = g_sys_params[opt].load(std::memory_order_relaxed);
    return ACL_SUCCESS;
}
