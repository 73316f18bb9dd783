#include "core/stream.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/runtime.h"

namespace openacl {
namespace {

std::unordered_map<const void*, std::unique_ptr<Stream>>& LiveStreams() {
    static auto* live = new std::unordered_map<const void*, std::unique_ptr<Stream>>;
    return *live;
}

int32_t g_next_stream_id = 0;  // lifecycle mutex held

}  // namespace

uint32_t StreamCountLocked(const Context* ctx) {
    uint32_t count = 0;
    for (const Context* c : ctx->device()->contexts) {
        count += static_cast<uint32_t>(c->streams.size()) + (c->default_stream ? 1 : 0);
    }
    return count;
}

aclError CreateStreamLocked(Context* ctx, uint32_t priority, uint32_t flags, bool is_default,
                            Stream** out) {
    if (StreamCountLocked(ctx) >= kMaxStreamsPerDevice) {
        return Fail(ACL_ERROR_RT_NO_STREAM_RESOURCE,
                    "device %d already holds %u streams, the most it can: destroy streams you "
                    "no longer use",
                    ctx->device()->id(), kMaxStreamsPerDevice);
    }
    auto owned = std::make_unique<Stream>(ctx, g_next_stream_id++, priority, flags, is_default);
    Stream* stream = owned.get();
    LiveStreams().emplace(stream, std::move(owned));
    if (!is_default) ctx->streams.push_back(stream);
    *out = stream;
    return ACL_SUCCESS;
}

void DestroyStreamLocked(Stream* stream) {
    Context* ctx = stream->context();
    if (ctx->default_stream == stream) {
        ctx->default_stream = nullptr;
    } else {
        auto& list = ctx->streams;
        list.erase(std::remove(list.begin(), list.end(), stream), list.end());
    }
    LiveStreams().erase(stream);
}

Stream* ResolveStream(aclrtStream handle, aclError* rc) {
    Context* current = RequireContext(rc);
    if (current == nullptr) return nullptr;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    if (handle == nullptr) return current->default_stream;
    auto it = LiveStreams().find(handle);
    if (it == LiveStreams().end()) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "stream %p is not a live stream (never created, or already destroyed)", handle);
        return nullptr;
    }
    Stream* stream = it->second.get();
    if (stream->context() != current) {
        *rc = Fail(ACL_ERROR_RT_STREAM_CONTEXT,
                   "stream %p belongs to context %p on device %d, but this thread's current "
                   "context is %p on device %d: call aclrtSetCurrentContext(%p) first",
                   handle, static_cast<void*>(stream->context()), stream->context()->device()->id(),
                   static_cast<void*>(current), current->device()->id(),
                   static_cast<void*>(stream->context()));
        return nullptr;
    }
    return stream;
}

}  // namespace openacl
