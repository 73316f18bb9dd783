#include "core/device.h"

#include <cinttypes>

#include "core/context.h"
#include "core/error.h"
#include "core/log.h"
#include "core/runtime.h"

namespace openacl {

aclError OpenDeviceLocked(Device* device) {
    if (device->open) return ACL_SUCCESS;
    if (!device->arena().valid()) {
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "cannot reserve %" PRIu64
                    " MiB of address space for device %d: lower "
                    "OPENACL_DEVICE_MEMORY_MB",
                    device->arena().capacity() >> 20, device->id());
    }
    device->open = true;
    device->force_reset = false;
    if (CreateContextLocked(device, true) == nullptr) {
        device->open = false;
        return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    }
    OPENACL_LOG_INFO("device %d opened", device->id());
    return ACL_SUCCESS;
}

void ReleaseDeviceLocked(Device* device, const char* reason) {
    size_t explicit_contexts = device->contexts.size() - (device->default_context ? 1 : 0);
    if (explicit_contexts > 0) {
        Warn(
            "%s(%d) releases %zu context(s) created with aclrtCreateContext that were never "
            "destroyed; their handles are now invalid (call aclrtDestroyContext before "
            "resetting the device)",
            reason, device->id(), explicit_contexts);
    }
    while (!device->contexts.empty())
        DestroyContextLocked(device->contexts.back());
    auto leaked = device->arena().LiveBlocks();
    if (!leaked.empty()) {
        uint64_t bytes = 0;
        for (const auto& block : leaked)
            bytes += block.tag.requested;
        Warn("%s(%d): %zu device allocation(s) totalling %" PRIu64
             " bytes were never freed "
             "with aclrtFree; they are released now (first at %p)",
             reason, device->id(), leaked.size(), bytes,
             reinterpret_cast<void*>(leaked.front().base));
    }
    device->arena().ReleaseAll();
    device->open = false;
    device->set_count = 0;
    device->default_context = nullptr;
    device->peers.clear();
    OPENACL_LOG_INFO("device %d released", device->id());
}

aclError SetDevice(int32_t device_id) {
    Runtime& runtime = Runtime::Get();
    Device* device = runtime.DeviceById(device_id);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    std::lock_guard lock(runtime.lifecycle_mutex());
    if (aclError rc = OpenDeviceLocked(device); rc != ACL_SUCCESS) return rc;
    ++device->set_count;
    SetCurrentContext(device->default_context);
    return ACL_SUCCESS;
}

aclError ResetDevice(int32_t device_id, bool force) {
    Runtime& runtime = Runtime::Get();
    Device* device = runtime.DeviceById(device_id);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    std::lock_guard lock(runtime.lifecycle_mutex());
    if (!device->open) {
        return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                    device->force_reset
                        ? "device %d was already released by aclrtResetDeviceForce"
                        : "device %d is not in use: aclrtSetDevice was never called for it, or "
                          "every call was already matched by a reset",
                    device_id);
    }
    if (!force && device->set_count > 1) {
        --device->set_count;
        return ACL_SUCCESS;
    }
    ReleaseDeviceLocked(device, force ? "aclrtResetDeviceForce" : "aclrtResetDevice");
    device->force_reset = force;
    return ACL_SUCCESS;
}

}  // namespace openacl

#include <unistd.h>

#include <thread>

namespace openacl {

int64_t HostCoreCount() {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int64_t>(n);
}

int64_t HostL2CacheBytes() {
    long size = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return size > 0 ? size : int64_t{1} << 20;
}

aclError SynchronizeDevice(int32_t timeout_ms) {
    if (timeout_ms < -1) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %d ms is invalid: use -1 (wait forever) "
                    "or a value >= 0",
                    timeout_ms);
    }
    aclError rc = ACL_SUCCESS;
    if (RequireContext(&rc) == nullptr) return rc;
    // No task runs asynchronously yet, so every stream of the device is already idle.
    return ACL_SUCCESS;
}

}  // namespace openacl
