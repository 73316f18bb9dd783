#include "core/context.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <unordered_map>

#include "core/device.h"
#include "core/error.h"
#include "core/reclaim.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl {
namespace {

// Live contexts by handle; guarded by the lifecycle mutex.
std::unordered_map<const void*, std::unique_ptr<Context>>& LiveContexts() {
    static auto* live = new std::unordered_map<const void*, std::unique_ptr<Context>>;
    return *live;
}

uint64_t g_next_serial = 1;  // lifecycle mutex held

// Bumped whenever a context dies, so a thread can trust its cached current context without a
// lock as long as nothing was destroyed since it last checked.
std::atomic<uint64_t> g_context_epoch{1};

struct CurrentSlot {
    Context* context = nullptr;
    uint64_t serial = 0;
    uint64_t epoch = 0;
};
thread_local CurrentSlot t_current;

}  // namespace

Context* LookupContextLocked(const void* handle) {
    auto it = LiveContexts().find(handle);
    return it == LiveContexts().end() ? nullptr : it->second.get();
}

Context* CurrentContext() {
    CurrentSlot& slot = t_current;
    if (slot.context == nullptr) return nullptr;
    uint64_t epoch = g_context_epoch.load(std::memory_order_acquire);
    if (slot.epoch == epoch) return slot.context;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    Context* live = LookupContextLocked(slot.context);
    if (live == nullptr || live->serial() != slot.serial) {
        slot = CurrentSlot{};
        return nullptr;
    }
    slot.epoch = epoch;
    return live;
}

void SetCurrentContext(Context* ctx) {
    t_current.context = ctx;
    t_current.serial = ctx != nullptr ? ctx->serial() : 0;
    t_current.epoch = g_context_epoch.load(std::memory_order_acquire);
}

Context* RequireContext(aclError* rc) {
    if (Context* ctx = CurrentContext()) return ctx;
    int32_t device = Runtime::Get().config().default_device;
    if (device >= 0) {
        // aclInit's "defaultDevice": the first call without a context sets that device.
        if (aclError set = SetDevice(device); set != ACL_SUCCESS) {
            *rc = set;
            return nullptr;
        }
        return CurrentContext();
    }
    *rc = Fail(ACL_ERROR_RT_CONTEXT_NULL,
               "this thread has no current context: call aclrtSetDevice or "
               "aclrtSetCurrentContext in this thread first");
    return nullptr;
}

Context* CreateContextLocked(Device* device, bool is_default) {
    auto owned = std::make_unique<Context>(device, is_default, g_next_serial++);
    Context* ctx = owned.get();
    Stream* default_stream = nullptr;
    if (CreateStreamLocked(ctx, 0, 0, true, &default_stream) != ACL_SUCCESS) return nullptr;
    ctx->default_stream = default_stream;
    LiveContexts().emplace(ctx, std::move(owned));
    device->contexts.push_back(ctx);
    if (is_default) device->default_context = ctx;
    return ctx;
}

void DestroyContextLocked(Context* ctx, Graveyard& graveyard) {
    while (!ctx->streams.empty()) {
        graveyard.streams.push_back(DetachStreamLocked(ctx->streams.back()));
    }
    if (ctx->default_stream != nullptr) {
        graveyard.streams.push_back(DetachStreamLocked(ctx->default_stream));
    }
    Device* device = ctx->device();
    auto& list = device->contexts;
    list.erase(std::remove(list.begin(), list.end(), ctx), list.end());
    if (device->default_context == ctx) device->default_context = nullptr;
    g_context_epoch.fetch_add(1, std::memory_order_acq_rel);
    if (t_current.context == ctx) t_current = CurrentSlot{};
    // Another thread may have just read it as its current context (core/reclaim.h).
    auto node = LiveContexts().extract(ctx);
    if (!node.empty()) {
        Context* raw = node.mapped().release();
        reclaim::Retire([raw] { delete raw; });
    }
}

}  // namespace openacl
