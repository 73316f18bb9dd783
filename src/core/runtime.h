// The process-wide runtime: aclInit reference counting, the configuration, and the devices.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
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

    // Visible devices; ids are 0..DeviceCount()-1.
    uint32_t DeviceCount();
    // The device with this id, or nullptr after recording ACL_ERROR_RT_INVALID_DEVICEID.
    Device* DeviceById(int64_t id);
    // Lock-free view of the visible devices. A view, once published, never changes, so
    // another thread's aclFinalize cannot pull it from under a reader.
    const std::vector<Device*>& devices();
    // Every device object this process made, released ones included (they live until exit,
    // keeping their address ranges reserved): pointer classification looks here, so memory of
    // a device released by aclFinalize on another thread is recognised as freed device memory,
    // not taken for host memory.
    const std::vector<Device*>& all_devices();

    // The devices that are open, without creating any (lifecycle mutex held; exit reports).
    std::vector<Device*> OpenDevicesLocked();

    // Why the configured backend has no devices ("" when it has some): aclInit reports it.
    const std::string& backend_unavailable() const { return cuda_unavailable_; }

    // Guards device, context and stream lifecycles (never held on a data path).
    std::mutex& lifecycle_mutex() { return lifecycle_; }

 private:
    Runtime() = default;
    void EnsureDevicesLocked();
    void EnsureCudaDevicesLocked();
    void PublishConfigLocked();
    void ReleaseEverythingLocked(Graveyard& graveyard);

    std::mutex lifecycle_;
    std::mutex init_mutex_;  // serialises aclInit/aclFinalize against each other
    uint64_t init_count_ = 0;
    bool config_loaded_ = false;
    Config config_;                                  // the working copy (lifecycle mutex)
    std::atomic<const Config*> published_{nullptr};  // what config() returns
    // Device objects are made by EnsureDevicesLocked, reused by a later aclInit when the
    // configuration matches, and destroyed never (see all_devices()).
    std::vector<std::unique_ptr<Device>> owned_devices_;
    // Published views (immutable once published; old ones are kept, they are small).
    std::vector<std::unique_ptr<const std::vector<Device*>>> views_;
    std::atomic<const std::vector<Device*>*> visible_{nullptr};
    std::atomic<const std::vector<Device*>*> all_{nullptr};
    std::atomic<bool> devices_ready_{false};
    std::vector<Device*> cuda_devices_;  // the CUDA backend's devices, opened once
    std::string cuda_unavailable_;       // why there are none
    const std::vector<Device*>* Publish(std::vector<Device*> view);

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
