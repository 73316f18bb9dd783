// Streams: in-order task queues owned by a context. Each context has a default stream,
// addressed by a NULL aclrtStream.
#pragma once

#include <cstdint>

#include "acl/acl_rt.h"

namespace openacl {

class Context;

class Stream {
 public:
    Stream(Context* context, int32_t id, uint32_t priority, uint32_t flags, bool is_default)
        : context_(context), id_(id), priority_(priority), flags_(flags), is_default_(is_default) {}

    Context* context() const { return context_; }
    int32_t id() const { return id_; }
    uint32_t priority() const { return priority_; }
    uint32_t flags() const { return flags_; }
    bool is_default() const { return is_default_; }

    uint64_t failure_mode = ACL_CONTINUE_ON_FAILURE;
    bool failure_mode_set = false;

 private:
    Context* context_;
    int32_t id_;
    uint32_t priority_;
    uint32_t flags_;
    bool is_default_;
};

// The most streams one device may hold, default streams included (as on Atlas A2 hardware).
constexpr uint32_t kMaxStreamsPerDevice = 1984;

// Creation and destruction (lifecycle mutex held).
aclError CreateStreamLocked(Context* ctx, uint32_t priority, uint32_t flags, bool is_default,
                            Stream** out);
void DestroyStreamLocked(Stream* stream);
// Number of streams (default ones included) alive on the device of ctx.
uint32_t StreamCountLocked(const Context* ctx);

// Resolves a stream argument for the calling thread: NULL means the current context's default
// stream; a handle must be a live stream of the current context. Records the documented error
// (ACL_ERROR_RT_CONTEXT_NULL, ACL_ERROR_INVALID_PARAM or ACL_ERROR_RT_STREAM_CONTEXT) with a
// message saying what to do, and returns nullptr, when it is not.
Stream* ResolveStream(aclrtStream handle, aclError* rc);

}  // namespace openacl
