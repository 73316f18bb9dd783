// Host tasks on a device lane (backend/accelerator.h): the part of a lane every accelerator
// shares, whatever runs the lane. Each task travels in a HostSlot that the lane's engine hands
// back to HostTasks::Run in stream order (a CUDA host function; a worker thread in tests).
// A task that returns Suspended holds the lane until backend::CompleteHostTask(token); its
// token names a marker as its queue and the slot as its sequence number (IsLaneToken).
// Host-only code: no accelerator headers.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "backend/cpu/task.h"

namespace openacl::backend {

class HostTasks;

// One host task on its way through a lane.
struct HostSlot {
    cpu::Task task;
    HostTasks* owner = nullptr;
    std::atomic<uint32_t> done{0};  // a suspended task's completion has arrived
    cpu::TaskStatus completion;
};

// A lane's host-task slots and the failure state its host tasks leave for the next Wait.
class HostTasks {
 public:
    HostTasks() = default;
    HostTasks(const HostTasks&) = delete;
    HostTasks& operator=(const HostTasks&) = delete;
    // The lane must have run or dropped every slot it took before this.
    ~HostTasks();

    // A slot carrying `task`, to be given to Run exactly once (or back through Return when
    // the engine refused it). Allocates only when more tasks are in flight than ever before.
    HostSlot* Take(const cpu::Task& task);
    void Return(HostSlot* slot);

    // Runs (or, after a failure with stop-on-failure set, skips) the slot's task, waits for a
    // suspended one to be completed, records a failure and returns the slot. `slot` is a
    // HostSlot*: the signature is that of a CUDA host function.
    static void Run(void* slot);

    void SetStopOnFailure(bool stop) { stop_on_failure_.store(stop, std::memory_order_relaxed); }
    // The first failure since the last call (0: none), cleared.
    int32_t TakeFailure() { return failure_.exchange(0, std::memory_order_acq_rel); }
    void ClearFailure() { failure_.store(0, std::memory_order_release); }

 private:
    void NoteFailure(int32_t code);

    std::atomic<bool> stop_on_failure_{false};
    std::atomic<int32_t> failure_{0};  // first unreported host-task failure
    std::mutex mutex_;
    std::vector<HostSlot*> free_slots_;
    std::vector<HostSlot*> all_slots_;
};

}  // namespace openacl::backend
