// Stream management: creation, destruction, synchronisation, queries and failure modes.
#include <chrono>
#include <mutex>

#include "acl/acl.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/runtime.h"
#include "core/stream.h"

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
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    Stream* created = nullptr;
    if (rc = openacl::CreateStreamLocked(ctx, priority, flags, false, &created); rc) return rc;
    *stream = created;
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
    // Persistent and device-only streams hold no host-visible work.
    if (resolved->flags() &
        (ACL_STREAM_PERSISTENT | ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_CPU_SCHEDULE)) {
        return ACL_SUCCESS;
    }
    auto timeout = timeout_ms < 0 ? openacl::cpu::kWaitForever
                                  : std::chrono::nanoseconds(std::chrono::milliseconds(timeout_ms));
    return openacl::StreamWaitResult(resolved, openacl::WaitStream(resolved, timeout),
                                     ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
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

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
    OPENACL_API();
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
    const auto failure_mode = mode == ACL_STOP_ON_FAILURE ? openacl::cpu::FailureMode::kStop
                                                          : openacl::cpu::FailureMode::kContinue;
    resolved->executor()->SetFailureMode(resolved->queue(), failure_mode);
    if (resolved->lane() != nullptr) resolved->lane()->SetFailureMode(failure_mode);
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
