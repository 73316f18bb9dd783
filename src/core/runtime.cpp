#include "core/runtime.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "backend/accelerator.h"
#include "core/check.h"
#include "core/device.h"
#include "core/dump.h"
#include "core/error.h"
#include "core/ipc_memory.h"
#include "core/log.h"
#include "core/memory.h"
#include "core/notify.h"
#include "core/prof_subscribe.h"
#include "core/reclaim.h"
#include "core/stream.h"
#include "core/trace.h"
#include "core/virtual_memory.h"

namespace openacl {

Runtime& Runtime::Get() {
    // Never destroyed: applications may call acl functions from static destructors.
    static Runtime* runtime = new Runtime;
    return *runtime;
}

const Config& Runtime::config() {
    if (!devices_ready_.load(std::memory_order_acquire)) {
        std::lock_guard lock(lifecycle_);
        EnsureDevicesLocked();
    }
    return *published_.load(std::memory_order_acquire);
}

void Runtime::PublishConfigLocked() {
    // Readers hold the published copy without a lock, so a new configuration (aclInit, or the
    // environment's after aclFinalize) never changes one being read: the old copy is freed
    // once no API call can still be reading it.
    const Config* old = published_.exchange(new Config(config_), std::memory_order_acq_rel);
    if (old != nullptr) reclaim::Retire([old] { delete old; });
}

void Runtime::EnsureDevicesLocked() {
    if (devices_ready_.load(std::memory_order_relaxed)) return;
    if (!config_loaded_) {
        config_ = ConfigFromEnvironment();
        config_loaded_ = true;
        PublishConfigLocked();
    }
    SetProcessLevelErrMsg(config_.err_msg_process_level);
    check::Apply(config_.check);
    // Programs that never call aclInit; not again after aclFinalize wrote the trace.
    trace::StartConfigured(config_.trace_path, /*again=*/false);
    if (config_.backend == BackendKind::kCuda) {
        EnsureCudaDevicesLocked();
        return;
    }
    std::vector<uint32_t> physical = config_.visible_devices;
    if (physical.empty()) {
        for (uint32_t i = 0; i < config_.device_count; ++i)
            physical.push_back(i);
    }
    std::vector<Device*> visible;
    const size_t known = owned_devices_.size();
    for (size_t i = 0; i < physical.size(); ++i) {
        // A released device object of the same shape serves again (a program that calls
        // aclInit/aclFinalize in a loop does not pile up address reservations).
        Device* device = nullptr;
        for (size_t k = 0; k < known && device == nullptr; ++k) {
            Device* old = owned_devices_[k].get();
            if (old->accelerator() == nullptr && old->id() == static_cast<int32_t>(i) &&
                old->physical_id() == physical[i] &&
                old->memory().capacity() == config_.device_memory_bytes && !old->open) {
                device = old;
            }
        }
        if (device == nullptr) {
            owned_devices_.push_back(std::make_unique<Device>(static_cast<int32_t>(i), physical[i],
                                                              config_.device_memory_bytes));
            device = owned_devices_.back().get();
        }
        visible.push_back(device);
    }
    std::vector<Device*> all;
    for (const auto& device : owned_devices_)
        all.push_back(device.get());
    all_.store(Publish(std::move(all)), std::memory_order_release);
    visible_.store(Publish(std::move(visible)), std::memory_order_release);
    devices_ready_.store(true, std::memory_order_release);
}

void Runtime::EnsureCudaDevicesLocked() {
    // CUDA devices are opened once per process and serve every later aclInit (a CUDA device
    // cannot be re-created the way an arena can).
    std::vector<Device*> visible;
    if (cuda_devices_.empty()) {
        std::string why;
        std::vector<std::unique_ptr<backend::Accelerator>> accelerators;
        if (const auto& factory = backend::AcceleratorFactoryForTesting()) {
            accelerators = factory();
            if (accelerators.empty()) why = "the test accelerator factory made no device";
        } else {
            const int count = backend::CudaDeviceCount(&why);
            for (int i = 0; i < count; ++i) {
                auto accelerator = backend::OpenCudaDevice(i, &why);
                if (accelerator == nullptr) break;
                accelerators.push_back(std::move(accelerator));
            }
        }
        for (size_t i = 0; i < accelerators.size(); ++i) {
            owned_devices_.push_back(std::make_unique<Device>(
                static_cast<int32_t>(i), static_cast<uint32_t>(i), std::move(accelerators[i])));
            cuda_devices_.push_back(owned_devices_.back().get());
        }
        if (cuda_devices_.empty()) {
            cuda_unavailable_ = why;
            OPENACL_LOG_ERROR("OPENACL_BACKEND=cuda, but %s", why.c_str());
        } else {
            OPENACL_LOG_INFO("CUDA backend: %zu device(s), device 0 is %s", cuda_devices_.size(),
                             cuda_devices_[0]->accelerator()->name());
        }
    }
    if (config_.visible_devices.empty()) {
        visible = cuda_devices_;
    } else {
        for (uint32_t id : config_.visible_devices) {
            if (id < cuda_devices_.size()) visible.push_back(cuda_devices_[id]);
        }
    }
    std::vector<Device*> all;
    for (const auto& device : owned_devices_)
        all.push_back(device.get());
    all_.store(Publish(std::move(all)), std::memory_order_release);
    visible_.store(Publish(std::move(visible)), std::memory_order_release);
    devices_ready_.store(true, std::memory_order_release);
}

const std::vector<Device*>* Runtime::Publish(std::vector<Device*> view) {
    views_.push_back(std::make_unique<const std::vector<Device*>>(std::move(view)));
    return views_.back().get();
}

uint32_t Runtime::DeviceCount() {
    return static_cast<uint32_t>(devices().size());
}

const std::vector<Device*>& Runtime::devices() {
    if (!devices_ready_.load(std::memory_order_acquire)) {
        std::lock_guard lock(lifecycle_);
        EnsureDevicesLocked();
    }
    return *visible_.load(std::memory_order_acquire);
}

const std::vector<Device*>& Runtime::all_devices() {
    static const std::vector<Device*> kNone;
    const std::vector<Device*>* all = all_.load(std::memory_order_acquire);
    return all != nullptr ? *all : kNone;
}

std::vector<Device*> Runtime::OpenDevicesLocked() {
    std::vector<Device*> open;
    if (!devices_ready_.load(std::memory_order_acquire)) return open;
    for (Device* device : *visible_.load(std::memory_order_acquire)) {
        if (device->open) open.push_back(device);
    }
    return open;
}

Device* Runtime::DeviceById(int64_t id) {
    const auto& list = devices();
    if (list.empty()) {
        Fail(ACL_ERROR_RT_INVALID_DEVICEID, "device id %" PRId64 " does not exist: %s", id,
             cuda_unavailable_.empty() ? "this process sees no device" : cuda_unavailable_.c_str());
        return nullptr;
    }
    if (id < 0 || id >= static_cast<int64_t>(list.size())) {
        Fail(ACL_ERROR_RT_INVALID_DEVICEID,
             "device id %" PRId64
             " is out of range: this process sees %zu device(s), ids 0..%zu "
             "(set OPENACL_DEVICE_COUNT for more)",
             id, list.size(), list.size() - 1);
        return nullptr;
    }
    return list[static_cast<size_t>(id)];
}

aclError Runtime::Init(const char* config_path) {
    std::lock_guard init_lock(init_mutex_);
    if (init_count_ > 0) {
        ++init_count_;
        Warn("aclInit was already called (now %" PRIu64
             " times); only the first call's "
             "configuration is used",
             init_count_);
        return Fail(ACL_ERROR_REPEAT_INITIALIZE,
                    "repeated aclInit: the call is counted and its configuration ignored; "
                    "callers may ignore this code");
    }
    ReloadLogSettings();
    Config loaded;
    if (aclError rc = LoadConfig(config_path, &loaded); rc != ACL_SUCCESS) return rc;
    if (aclError rc = dump::ConfigureFromInit(loaded.json_text); rc != ACL_SUCCESS) return rc;
    {
        std::lock_guard lock(lifecycle_);
        bool in_use = false;
        if (devices_ready_.load(std::memory_order_acquire)) {
            for (Device* device : *visible_.load(std::memory_order_acquire))
                in_use = in_use || device->open;
        }
        if (in_use) {
            Warn(
                "devices were already in use before aclInit; the configuration's device "
                "settings take effect after aclFinalize");
            loaded.device_count = config_.device_count;
            loaded.device_memory_bytes = config_.device_memory_bytes;
            loaded.visible_devices = config_.visible_devices;
        } else {
            devices_ready_.store(false, std::memory_order_release);
        }
        config_ = loaded;
        config_loaded_ = true;
        PublishConfigLocked();
        SetProcessLevelErrMsg(config_.err_msg_process_level);
        check::Apply(config_.check);
        if (config_.backend == BackendKind::kCuda) {
            EnsureDevicesLocked();
            if (visible_.load(std::memory_order_acquire)->empty()) {
                return Fail(ACL_ERROR_RT_NO_DEVICE,
                            "the CUDA backend is selected (OPENACL_BACKEND or \"backend\" in the "
                            "aclInit file), but %s; unset it to run on the CPU backend",
                            cuda_unavailable_.c_str());
            }
        }
    }
    init_count_ = 1;
    trace::StartConfigured(config_.trace_path, /*again=*/true);
    for (const auto& hook : init_hooks_) {
        if (aclError rc = hook.fn(config_.json_text.c_str(), config_.json_text.size(), hook.data);
            rc != ACL_SUCCESS) {
            Warn("an aclInit callback (type %d) returned %d", static_cast<int>(hook.type), rc);
        }
    }
    OPENACL_LOG_INFO("aclInit: %u device(s), %" PRIu64 " MiB each, SoC %s",
                     config_.visible_devices.empty()
                         ? config_.device_count
                         : static_cast<uint32_t>(config_.visible_devices.size()),
                     config_.device_memory_bytes >> 20, config_.soc_name.c_str());
    return ACL_SUCCESS;
}

void Runtime::ReleaseEverythingLocked(Graveyard& graveyard) {
    if (devices_ready_.load(std::memory_order_acquire)) {
        for (Device* device : *visible_.load(std::memory_order_acquire)) {
            if (device->open) ReleaseDeviceLocked(device, "aclFinalize", graveyard);
            device->force_reset = false;  // a new aclInit starts from devices never set
        }
    }
    ReleaseAllHostMemory();
    ipc::ReleaseAll();
    vmm::ReleaseAll();
    ReleaseAllNotifies();
    // The device objects stay (all_devices()); the next aclInit publishes a new view.
    devices_ready_.store(false, std::memory_order_release);
    config_loaded_ = false;
}

aclError Runtime::Finalize() {
    std::lock_guard init_lock(init_mutex_);
    if (init_count_ == 0) {
        return Fail(ACL_ERROR_REPEAT_FINALIZE,
                    "aclFinalize without a matching aclInit (already finalized?)");
    }
    init_count_ = 0;
    dump::ResetAtFinalize();
    prof::UnsubscribeAll();
    for (const auto& hook : finalize_hooks_)
        hook.fn(hook.data);
    // Executors are read under the lock (a concurrent reset replaces them) and waited for
    // outside it; this call's pin keeps them alive meanwhile (core/reclaim.h).
    std::vector<cpu::Executor*> executors;
    {
        std::lock_guard lock(lifecycle_);
        for (Device* device : OpenDevicesLocked()) {
            if (cpu::Executor* executor = device->executor()) executors.push_back(executor);
        }
    }
    for (cpu::Executor* executor : executors)
        executor->WaitAll();
    // Every task has run: the trace is complete (a session aclprofStart left open ends here).
    if (trace::Running() != trace::Owner::kNone) {
        std::string why;
        if (!trace::Stop(&why)) {
            std::fprintf(stderr, "openacl: the trace was not written: %s\n", why.c_str());
            Warn("the trace was not written: %s", why.c_str());
        }
    }
    for (auto* hook : release_hooks_)
        hook();
    Graveyard graveyard(true);
    std::lock_guard lock(lifecycle_);
    ReleaseEverythingLocked(graveyard);
    return ACL_SUCCESS;
}

void Runtime::AddReleaseHook(void (*fn)()) {
    std::lock_guard init_lock(init_mutex_);
    if (std::find(release_hooks_.begin(), release_hooks_.end(), fn) == release_hooks_.end()) {
        release_hooks_.push_back(fn);
    }
}

aclError Runtime::FinalizeReference(uint64_t* ref_count) {
    {
        std::lock_guard init_lock(init_mutex_);
        if (init_count_ == 0) {
            return Fail(ACL_ERROR_REPEAT_FINALIZE,
                        "aclFinalizeReference without a matching aclInit");
        }
        if (init_count_ > 1) {
            --init_count_;
            if (ref_count != nullptr) *ref_count = init_count_;
            return ACL_SUCCESS;
        }
    }
    aclError rc = Finalize();
    if (rc == ACL_SUCCESS && ref_count != nullptr) *ref_count = 0;
    return rc;
}

aclError Runtime::RegisterInitCallback(aclRegisterCallbackType type, aclInitCallbackFunc fn,
                                       void* data) {
    std::lock_guard init_lock(init_mutex_);
    for (auto& hook : init_hooks_) {
        if (hook.type == type && hook.fn == fn) {
            hook.data = data;
            return ACL_SUCCESS;
        }
    }
    init_hooks_.push_back({type, fn, data});
    return ACL_SUCCESS;
}

aclError Runtime::UnregisterInitCallback(aclRegisterCallbackType type, aclInitCallbackFunc fn) {
    std::lock_guard init_lock(init_mutex_);
    auto it = std::find_if(init_hooks_.begin(), init_hooks_.end(),
                           [&](const auto& h) { return h.type == type && h.fn == fn; });
    if (it == init_hooks_.end()) {
        return Fail(ACL_ERROR_INVALID_PARAM, "this init callback was not registered for type %d",
                    static_cast<int>(type));
    }
    init_hooks_.erase(it);
    return ACL_SUCCESS;
}

aclError Runtime::RegisterFinalizeCallback(aclRegisterCallbackType type, aclFinalizeCallbackFunc fn,
                                           void* data) {
    std::lock_guard init_lock(init_mutex_);
    for (auto& hook : finalize_hooks_) {
        if (hook.type == type && hook.fn == fn) {
            hook.data = data;
            return ACL_SUCCESS;
        }
    }
    finalize_hooks_.push_back({type, fn, data});
    return ACL_SUCCESS;
}

aclError Runtime::UnregisterFinalizeCallback(aclRegisterCallbackType type,
                                             aclFinalizeCallbackFunc fn) {
    std::lock_guard init_lock(init_mutex_);
    auto it = std::find_if(finalize_hooks_.begin(), finalize_hooks_.end(),
                           [&](const auto& h) { return h.type == type && h.fn == fn; });
    if (it == finalize_hooks_.end()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "this finalize callback was not registered for type %d",
                    static_cast<int>(type));
    }
    finalize_hooks_.erase(it);
    return ACL_SUCCESS;
}

}  // namespace openacl
