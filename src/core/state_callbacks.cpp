#include "core/state_callbacks.h"

#include <exception>
#include <mutex>
#include <vector>

#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/named_callbacks.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl {
namespace {

NamedCallbacks<aclrtStreamStateCallback>& StreamCallbacks() {
    static auto* callbacks = new NamedCallbacks<aclrtStreamStateCallback>;
    return *callbacks;
}

NamedCallbacks<aclrtDeviceStateCallback>& DeviceCallbacks() {
    static auto* callbacks = new NamedCallbacks<aclrtDeviceStateCallback>;
    return *callbacks;
}

// A callback must not throw; one that does is reported and the others still run.
template <class Call>
void RunGuarded(const std::string& name, Call call) {
    try {
        call();
    } catch (const std::exception& e) {
        Warn("state callback \"%s\" threw an exception (%s); callbacks must not throw",
             name.c_str(), e.what());
    } catch (...) {
        Warn("state callback \"%s\" threw an exception; callbacks must not throw", name.c_str());
    }
}

void NotifyLeaving(const std::vector<Stream*>& streams) {
    for (Stream* stream : streams)
        NotifyStreamState(stream, ACL_RT_STREAM_STATE_DESTROY_PRE);
}

void CollectContextStreams(const Context* ctx, std::vector<Stream*>* out) {
    for (Stream* stream : ctx->streams)
        out->push_back(stream);
    if (ctx->default_stream != nullptr) out->push_back(ctx->default_stream);
}

}  // namespace

aclError RegisterStreamStateCallback(const char* name, aclrtStreamStateCallback fn, void* args) {
    return StreamCallbacks().Set(name, fn, args);
}

aclError RegisterDeviceStateCallback(const char* name, aclrtDeviceStateCallback fn, void* args) {
    return DeviceCallbacks().Set(name, fn, args);
}

void NotifyStreamState(Stream* stream, aclrtStreamState state) {
    if (StreamCallbacks().empty() || stream == nullptr) [[likely]]
        return;
    for (const auto& entry : StreamCallbacks().Snapshot())
        RunGuarded(entry.name, [&] { entry.fn(stream, state, entry.args); });
}

void NotifyDeviceState(int32_t device_id, aclrtDeviceState state) {
    if (DeviceCallbacks().empty()) [[likely]]
        return;
    for (const auto& entry : DeviceCallbacks().Snapshot())
        RunGuarded(entry.name, [&] { entry.fn(device_id, state, entry.args); });
}

void NotifyContextStreamsLeaving(const void* context) {
    if (StreamCallbacks().empty()) [[likely]]
        return;
    std::vector<Stream*> streams;
    {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        Context* ctx = LookupContextLocked(context);
        if (ctx == nullptr || ctx->is_default()) return;  // the destroy is refused
        CollectContextStreams(ctx, &streams);
    }
    // The streams stay allocated until this API call returns (core/reclaim.h), even if another
    // thread destroys them meanwhile.
    NotifyLeaving(streams);
}

void NotifyDeviceStreamsLeaving(int32_t device_id) {
    if (StreamCallbacks().empty()) [[likely]]
        return;
    Device* device = Runtime::Get().DeviceById(device_id);  // may take the lifecycle mutex
    if (device == nullptr) return;
    std::vector<Stream*> streams;
    {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        if (!device->open) return;
        for (const Context* ctx : device->contexts)
            CollectContextStreams(ctx, &streams);
    }
    NotifyLeaving(streams);
}

}  // namespace openacl
