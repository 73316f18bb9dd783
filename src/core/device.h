// A device: its memory (a CPU arena, or an accelerator's) and its lifecycle (reference count,
// default context, explicit contexts, peer access). Lifecycle fields are guarded by
// Runtime::lifecycle_mutex().
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <vector>

#include "acl/acl_rt.h"
#include "backend/accelerator.h"
#include "backend/cpu/device_arena.h"
#include "backend/cpu/executor.h"
#include "core/stream.h"

namespace openacl {

class Context;

// What a lifecycle change under the lifecycle mutex leaves to finish after the mutex is
// released: draining or discarding stream queues, stopping executors. Declare it before the
// lock so it runs after the unlock; a task that calls back into the runtime then cannot
// deadlock against the thread that is tearing its stream down.
struct Graveyard {
    bool force = false;  // discard pending work instead of waiting for it
    std::vector<std::unique_ptr<Stream>> streams;
    std::vector<std::unique_ptr<cpu::Executor>> executors;
    Graveyard() = default;
    explicit Graveyard(bool discard) : force(discard) {}
    Graveyard(const Graveyard&) = delete;
    Graveyard& operator=(const Graveyard&) = delete;
    ~Graveyard();
};

class Device {
 public:
    // A device of the CPU backend: its memory is an arena of `capacity` bytes.
    Device(int32_t id, uint32_t physical_id, uint64_t capacity)
        : id_(id),
          physical_id_(physical_id),
          memory_(std::make_unique<cpu::DeviceArena>(capacity)) {}
    // A device of an accelerator backend (CUDA): memory, streams and events are the device's.
    Device(int32_t id, uint32_t physical_id, std::unique_ptr<backend::Accelerator> accelerator)
        : id_(id), physical_id_(physical_id), accelerator_(std::move(accelerator)) {}

    int32_t id() const { return id_; }
    uint32_t physical_id() const { return physical_id_; }
    backend::DeviceMemory& memory() {
        return accelerator_ != nullptr ? accelerator_->memory() : *memory_;
    }
    // nullptr on the CPU backend.
    backend::Accelerator* accelerator() const { return accelerator_.get(); }
    // The stream executor; exists while the device is open.
    cpu::Executor* executor() const { return executor_.get(); }

    // Lifecycle state (lifecycle mutex held).
    bool open = false;         // set by aclrtSetDevice or aclrtCreateContext
    uint32_t set_count = 0;    // aclrtSetDevice calls not yet matched by aclrtResetDevice
    bool force_reset = false;  // released by aclrtResetDeviceForce: plain resets now fail
    Context* default_context = nullptr;
    std::vector<Context*> contexts;  // default and explicit
    std::set<int32_t> peers;         // devices this one may access (aclrtDeviceEnablePeerAccess)
    aclrtFloatOverflowMode sat_mode = ACL_RT_OVERFLOW_MODE_INFNAN;
    std::unique_ptr<cpu::Executor> executor_;  // created on open, handed to a Graveyard on release
    // Device memory by how it was allocated (DeviceAllocKind, 1..5), for aclrtGetMemUsageInfo:
    // bytes held now and the most ever held at once.
    struct MemUsage {
        std::atomic<uint64_t> current{0}, peak{0};
        void Add(uint64_t bytes) {
            const uint64_t now = current.fetch_add(bytes, std::memory_order_relaxed) + bytes;
            uint64_t seen = peak.load(std::memory_order_relaxed);
            while (now > seen &&
                   !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
            }
        }
        void Sub(uint64_t bytes) { current.fetch_sub(bytes, std::memory_order_relaxed); }
    };
    static constexpr int kUsageKinds = 7;
    MemUsage usage[kUsageKinds];

 private:
    int32_t id_;
    uint32_t physical_id_;
    std::unique_ptr<backend::Accelerator> accelerator_;  // an accelerator backend's device
    std::unique_ptr<cpu::DeviceArena> memory_;           // the CPU backend's arena
};

// aclrtSetDevice: opens the device if needed, counts the call, makes its default context
// current for this thread.
aclError SetDevice(int32_t device_id);
// aclrtResetDevice (force=false) and aclrtResetDeviceForce (force=true).
aclError ResetDevice(int32_t device_id, bool force);
// Opens a device for aclrtCreateContext (lifecycle mutex held).
aclError OpenDeviceLocked(Device* device);
// Releases everything a device holds (lifecycle mutex held): contexts, streams, memory.
void ReleaseDeviceLocked(Device* device, const char* reason, Graveyard& graveyard);

}  // namespace openacl

namespace openacl {
// What the CPU backend reports as the device's compute resources: the host's cores and caches.
int64_t HostCoreCount();
int64_t HostL2CacheBytes();
// Threads one model execution or BLAS product computes with, borrowed from the compute gate
// (backend/cpu/compute_gate.h): OPENACL_MODEL_THREADS, at most the device's workers (default:
// all of them).
int ComputeThreadsPerRun();
// aclrtSynchronizeDevice: waits for every stream of the current context's device.
aclError SynchronizeDevice(int32_t timeout_ms);
}  // namespace openacl
