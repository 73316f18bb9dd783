// Stream management: creation, destruction, synchronisation, queries and failure modes.
#include <chrono>
#include <cstring>
#include <mutex>
#include <new>
#include <set>
#include <string>

#include "acl/acl.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/mem_pool.h"
#include "core/memory.h"
#include "core/model_ri.h"
#include "core/runtime.h"
#include "core/state_callbacks.h"
#include "core/stream.h"
#include "core/stream_abort.h"

using openacl::Context;
using openacl::Fail;
using openacl::Runtime;
using openacl::Stream;

namespace {

constexpr uint32_t kLowestPriority = 7;

aclError CreateStream(aclrtStream* stream, uint32_t priority, uint32_t flags) {
    if (stream == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "stream is null");
    if (priority > kLowestPriority) {
        return Fail(ACL_ERROR_INVALID_PARAM, "priority %u is outside 0..%u", priority,
                    kLowestPriority);
    }
    aclError rc = ACL_SUCCESS;
    Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    Stream* created = nullptr;
    {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        if (rc = openacl::CreateStreamLocked(ctx, priority, flags, false, &created); rc) return rc;
    }
    *stream = created;
    openacl::NotifyStreamState(created, ACL_RT_STREAM_STATE_CREATE_POST);
    return ACL_SUCCESS;
}

aclError DestroyStream(aclrtStream stream, bool force) {
    if (stream == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the default stream (NULL) cannot be destroyed: it goes away with its "
                    "context");
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    if (resolved->is_default()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "stream %p is its context's default stream: it cannot be destroyed and "
                    "goes away with its context",
                    stream);
    }
    if (resolved->capture() != nullptr) {
        return Fail(ACL_ERROR_RT_STREAM_CAPTURED,
                    "stream %p is being captured (or is bound to a model being built): end "
                    "that first (aclmdlRICaptureEnd, aclmdlRIEndTask)",
                    stream);
    }
    openacl::NotifyStreamState(resolved, ACL_RT_STREAM_STATE_DESTROY_PRE);
    std::unique_ptr<Stream> detached;
    {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        detached = openacl::DetachStreamLocked(resolved);
    }
    if (detached == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "stream %p was destroyed concurrently", stream);
    }
    // Waits for (or discards) the stream's work outside the lock.
    openacl::FinishStream(std::move(detached), force);
    return ACL_SUCCESS;
}

aclError Synchronize(aclrtStream stream, int32_t timeout_ms) {
    if (timeout_ms < -1) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %d ms is invalid: use -1 (wait forever) or a value >= 0", timeout_ms);
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    if (aclError refused = openacl::RefuseIfCaptured(resolved, "synchronising the stream"))
        return refused;
    // Persistent and device-only streams hold no host-visible work.
    if (resolved->flags() &
        (ACL_STREAM_PERSISTENT | ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_CPU_SCHEDULE)) {
        return ACL_SUCCESS;
    }
    auto timeout = timeout_ms < 0 ? openacl::cpu::kWaitForever
                                  : std::chrono::nanoseconds(std::chrono::milliseconds(timeout_ms));
    // An abort of the stream ends the wait with its code (core/stream_abort.h), whether it was
    // running when the wait began or began during it.
    const uint64_t epoch = resolved->abort_epoch();
    if (aclError aborted = openacl::AbortedDuringWait(resolved, epoch)) return aborted;
    const openacl::cpu::WaitStatus status = openacl::WaitStream(resolved, timeout);
    if (aclError aborted = openacl::AbortedDuringWait(resolved, epoch)) return aborted;
    const aclError result =
        openacl::StreamWaitResult(resolved, status, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    if (result == ACL_SUCCESS) openacl::mem_pool::AfterSynchronize();
    return result;
}

}  // namespace

aclError aclrtCreateStream(aclrtStream* stream) {
    OPENACL_API();
    return CreateStream(stream, 0, 0);
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
    OPENACL_API();
    return CreateStream(stream, priority, flag);
}

aclError aclrtDestroyStream(aclrtStream stream) {
    OPENACL_API();
    return DestroyStream(stream, false);
}

aclError aclrtDestroyStreamForce(aclrtStream stream) {
    OPENACL_API();
    return DestroyStream(stream, true);
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    OPENACL_API();
    return Synchronize(stream, -1);
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    OPENACL_API();
    return Synchronize(stream, timeout);
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
    OPENACL_API();
    if (status == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "status is null");
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    *status =
        openacl::QueryStream(resolved) ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

namespace {

// aclrtSetStreamFailureMode and the ACL_STREAM_ATTR_FAILURE_MODE attribute.
aclError SetFailureMode(aclrtStream stream, uint64_t mode) {
    if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "mode %llu is neither ACL_CONTINUE_ON_FAILURE nor ACL_STOP_ON_FAILURE",
                    static_cast<unsigned long long>(mode));
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    if (resolved->failure_mode_set) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the failure mode of stream %p was already set: it may be set once", stream);
    }
    resolved->failure_mode_set = true;
    resolved->failure_mode = mode;
    const auto failure_mode = mode == ACL_STOP_ON_FAILURE ? openacl::cpu::FailureMode::kStop
                                                          : openacl::cpu::FailureMode::kContinue;
    resolved->executor()->SetFailureMode(resolved->queue(), failure_mode);
    if (resolved->lane() != nullptr) resolved->lane()->SetFailureMode(failure_mode);
    return ACL_SUCCESS;
}

aclError CheckSwitch(const char* what, uint32_t value) {
    if (value <= 1) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM, "%s %u must be 0 (off) or 1 (on)", what, value);
}

// Stream priorities as attributes exist on the Ascend 950 and Atlas A2/A3 only.
aclError RequirePriorityChip() {
    const std::string& soc = Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0 ||
        soc.rfind("Ascend950", 0) == 0) {
        return ACL_SUCCESS;
    }
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "setting a stream's priority is not available on %s (CANN documents it for the "
                "Ascend 950 and Atlas A2/A3)",
                soc.c_str());
}

// Stream config handles made by aclrtCreateStreamConfigHandle, for aclrtSetStreamConfigOpt and
// aclrtDestroyStreamConfigHandle; aclrtCreateStreamV2 reads any handle's public fields.
std::mutex g_config_mutex;
std::set<const aclrtStreamConfigHandle*>& ConfigHandles() {
    static auto* handles = new std::set<const aclrtStreamConfigHandle*>;
    return *handles;
}

}  // namespace

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
    OPENACL_API();
    return SetFailureMode(stream, mode);
}

aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void) {
    OPENACL_API();
    auto* handle = new (std::nothrow) aclrtStreamConfigHandle{};
    if (handle == nullptr) {
        Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot allocate a stream config handle");
        return nullptr;
    }
    std::lock_guard lock(g_config_mutex);
    ConfigHandles().insert(handle);
    return handle;
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle) {
    OPENACL_API();
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    std::lock_guard lock(g_config_mutex);
    if (ConfigHandles().erase(handle) == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "handle %p is not a live stream config handle (destroyed already, or not "
                    "made by aclrtCreateStreamConfigHandle)",
                    static_cast<void*>(handle));
    }
    delete handle;
    return ACL_SUCCESS;
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr,
                                 const void* attrValue, size_t valueSize) {
    OPENACL_API();
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    if (attrValue == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "attrValue is null");
    {
        std::lock_guard lock(g_config_mutex);
        if (ConfigHandles().count(handle) == 0) {
            return Fail(ACL_ERROR_INVALID_PARAM, "handle %p is not a live stream config handle",
                        static_cast<void*>(handle));
        }
    }
    auto need = [&](size_t bytes) -> aclError {
        if (valueSize == bytes) return ACL_SUCCESS;
        return Fail(ACL_ERROR_INVALID_PARAM, "attribute %d takes %zu bytes, not valueSize %zu",
                    static_cast<int>(attr), bytes, valueSize);
    };
    switch (attr) {
        case ACL_RT_STREAM_WORK_ADDR_PTR:
            if (aclError rc = need(sizeof(void*))) return rc;
            std::memcpy(&handle->workptr, attrValue, sizeof(void*));
            return ACL_SUCCESS;
        case ACL_RT_STREAM_WORK_SIZE:
            if (aclError rc = need(sizeof(size_t))) return rc;
            std::memcpy(&handle->workSize, attrValue, sizeof(size_t));
            return ACL_SUCCESS;
        case ACL_RT_STREAM_FLAG: {
            if (aclError rc = need(sizeof(uint32_t))) return rc;
            uint32_t flag = 0;
            std::memcpy(&flag, attrValue, sizeof flag);
            handle->flag = flag;
            return ACL_SUCCESS;
        }
        case ACL_RT_STREAM_PRIORITY: {
            if (aclError rc = need(sizeof(uint32_t))) return rc;
            uint32_t priority = 0;
            std::memcpy(&priority, attrValue, sizeof priority);
            if (priority > kLowestPriority) {
                return Fail(ACL_ERROR_INVALID_PARAM, "priority %u is outside 0..%u", priority,
                            kLowestPriority);
            }
            handle->priority = priority;
            return ACL_SUCCESS;
        }
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclrtStreamConfigAttr",
                static_cast<int>(attr));
}

aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle) {
    OPENACL_API();
    if (handle == nullptr) return CreateStream(stream, 0, 0);
    // openacl's tasks need no work memory; a given one must still be device memory.
    if (handle->workptr != nullptr) {
        if (const char* problem =
                openacl::LiveDeviceRangeProblem(handle->workptr, handle->workSize)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "handle->workptr %p (%zu bytes) %s",
                        handle->workptr, handle->workSize, problem);
        }
    }
    if (handle->flag > UINT32_MAX) {
        return Fail(ACL_ERROR_INVALID_PARAM, "handle->flag 0x%zx is not a stream flag",
                    handle->flag);
    }
    return CreateStream(stream, handle->priority, static_cast<uint32_t>(handle->flag));
}

aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    if (stmAttrType == ACL_STREAM_ATTR_FAILURE_MODE) {
        if (stream == nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "the default stream's failure mode cannot be set (CANN documents it)");
        }
        return SetFailureMode(stream, value->failureMode);
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    switch (stmAttrType) {
        case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
            if (aclError rc = CheckSwitch("value->overflowSwitch", value->overflowSwitch)) {
                return rc;
            }
            resolved->overflow_switch = value->overflowSwitch;
            return ACL_SUCCESS;
        case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
            resolved->user_custom_tag = value->userCustomTag;
            return ACL_SUCCESS;
        case ACL_STREAM_ATTR_CACHE_OP_INFO:
            if (aclError rc = CheckSwitch("value->cacheOpInfoSwitch", value->cacheOpInfoSwitch)) {
                return rc;
            }
            resolved->cache_op_info = value->cacheOpInfoSwitch;
            return ACL_SUCCESS;
        case ACL_STREAM_ATTR_PRIORITY:
            if (aclError rc = RequirePriorityChip()) return rc;
            if (value->streamPriority > kLowestPriority) {
                return Fail(ACL_ERROR_INVALID_PARAM, "value->streamPriority %u is outside 0..%u",
                            value->streamPriority, kLowestPriority);
            }
            resolved->set_priority(value->streamPriority);
            return ACL_SUCCESS;
        default:
            break;
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "stmAttrType %d is not an aclrtStreamAttr",
                static_cast<int>(stmAttrType));
}

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    *value = aclrtStreamAttrValue{};
    switch (stmAttrType) {
        case ACL_STREAM_ATTR_FAILURE_MODE:
            value->failureMode = resolved->failure_mode;
            return ACL_SUCCESS;
        case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
            value->overflowSwitch = resolved->overflow_switch;
            return ACL_SUCCESS;
        case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
            value->userCustomTag = resolved->user_custom_tag;
            return ACL_SUCCESS;
        case ACL_STREAM_ATTR_CACHE_OP_INFO:
            value->cacheOpInfoSwitch = resolved->cache_op_info;
            return ACL_SUCCESS;
        case ACL_STREAM_ATTR_PRIORITY:
            value->streamPriority = resolved->priority();
            return ACL_SUCCESS;
        default:
            break;
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "stmAttrType %d is not an aclrtStreamAttr",
                static_cast<int>(stmAttrType));
}

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
    OPENACL_API();
    if (aclError rc = CheckSwitch("flag", flag)) return rc;
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    resolved->overflow_switch = flag;
    return ACL_SUCCESS;
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag) {
    OPENACL_API();
    if (flag == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "flag is null");
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    *flag = resolved->overflow_switch;
    return ACL_SUCCESS;
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) {
    OPENACL_API();
    if (priority == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "priority is null");
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    *priority = resolved->priority();
    return ACL_SUCCESS;
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) {
    OPENACL_API();
    if (flags == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "flags is null");
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    *flags = resolved->flags();
    return ACL_SUCCESS;
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
    OPENACL_API();
    if (streamId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "streamId is null");
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    *streamId = resolved->id();
    return ACL_SUCCESS;
}

aclError aclrtGetStreamAvailableNum(uint32_t* streamCount) {
    OPENACL_API();
    if (streamCount == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "streamCount is null");
    aclError rc = ACL_SUCCESS;
    Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    *streamCount = openacl::kMaxStreamsPerDevice - openacl::StreamCountLocked(ctx);
    return ACL_SUCCESS;
}
