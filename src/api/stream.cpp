// Stream management. Tasks do not run asynchronously yet (the asynchronous engine comes
// next), so every stream is always idle and synchronisation returns at once.
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

aclError DestroyStream(aclrtStream stream) {
    if (stream == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the default stream (NULL) cannot be destroyed: it goes away with its "
                    "context");
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    openacl::DestroyStreamLocked(resolved);
    return ACL_SUCCESS;
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
    return DestroyStream(stream);
}

aclError aclrtDestroyStreamForce(aclrtStream stream) {
    OPENACL_API();
    return DestroyStream(stream);
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    return openacl::ResolveStream(stream, &rc) == nullptr ? rc : ACL_SUCCESS;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    OPENACL_API();
    if (timeout < -1) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %d ms is invalid: use -1 (wait forever) or a value >= 0", timeout);
    }
    aclError rc = ACL_SUCCESS;
    return openacl::ResolveStream(stream, &rc) == nullptr ? rc : ACL_SUCCESS;
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
    OPENACL_API();
    if (status == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "status is null");
    aclError rc = ACL_SUCCESS;
    if (openacl::ResolveStream(stream, &rc) == nullptr) return rc;
    *status = ACL_STREAM_STATUS_COMPLETE;
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
