// The process-wide runtime: aclInit reference counting, the configuration, and the devices.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "acl/acl_rt.h"
#include "core/config.h"

namespace openacl {

class Device;
struct Graveyard;

class Runtime {
 public:
    static Runtime& Get();

    // aclInit / aclFinalize / aclFinalizeReference with the documented reference counting.
    aclError Init(const char* config_path);
    aclError Finalize();
    aclError FinalizeReference(uint64_t* ref_count);
    aclError RegisterInitCallback(aclRegisterCallbackType type, aclInitCallbackFunc fn, void* data);
    aclError UnregisterInitCallback(aclRegisterCallbackType type, aclInitCallbackFunc fn);
    // Runs fn at aclFinalize once queued work has finished and before devices are released,
    // so layers above core (models) can let go of what they hold while contexts still exist.
    void AddReleaseHook(void (*fn)());
    aclError RegisterFinalizeCallback(aclRegisterCallbackType type, aclFinalizeCallbackFunc fn,
                                      void* data);
    aclError UnregisterFinalizeCallback(aclRegisterCallbackType type, aclFinalizeCallbackFunc fn);

    // The configuration in force (from the environment when aclInit was never called).
    const Config& config();

    // Visible devices; ids are 0..DeviceCount()-1. Device objects live until aclFinalize.
    uint32_t DeviceCount();
    // The device with this id, or nullptr after recording ACL_ERROR_RT_INVALID_DEVICEID.
    Device* DeviceById(int64_t id);
    // Lock-free view of the devices for pointer classification on copy paths.
    const std::vector<Device*>& devices();

    // The devices that are open, without creating any (lifecycle mutex held; exit reports).
    std::vector<Device*> OpenDevicesLocked();

    // Guards device, context and stream lifecycles (never held on a data path).
    std::mutex& lifecycle_mutex() { return lifecycle_; }

 private:
    Runtime() = default;
    void EnsureDevicesLocked();
    void ReleaseEverythingLocked(Graveyard& graveyard);

    std::mutex lifecycle_;
    std::mutex init_mutex_;  // serialises aclInit/aclFinalize against each other
    uint64_t init_count_ = 0;
    bool config_loaded_ = false;
    Config config_;
    std::vector<std::unique_ptr<Device>> owned_devices_;
    std::vector<Device*> device_view_;
    std::atomic<bool> devices_ready_{false};

    template <typename Fn>
    struct Hook {
        aclRegisterCallbackType type;
        Fn fn;
        void* data;
    };
    std::vector<Hook<aclInitCallbackFunc>> init_hooks_;
    std::vector<Hook<aclFinalizeCallbackFunc>> finalize_hooks_;
    std::vector<void (*)()> release_hooks_;
};

}  // namespace openacl
