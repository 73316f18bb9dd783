#include "backend/host_task.h"

#include "backend/accelerator.h"
#include "backend/cpu/sync.h"

namespace openacl::backend {

namespace {

// Suspend tokens of host tasks on lanes name this marker as their queue and the slot as their
// sequence number.
alignas(64) char g_lane_marker;

cpu::Queue* LaneMarker() {
    return reinterpret_cast<cpu::Queue*>(&g_lane_marker);
}

}  // namespace

HostTasks::~HostTasks() {
    for (HostSlot* slot : all_slots_)
        delete slot;
}

HostSlot* HostTasks::Take(const cpu::Task& task) {
    HostSlot* slot = nullptr;
    {
        std::lock_guard lock(mutex_);
        if (!free_slots_.empty()) {
            slot = free_slots_.back();
            free_slots_.pop_back();
        } else {
            slot = new HostSlot;
            slot->owner = this;
            all_slots_.push_back(slot);
        }
    }
    slot->task = task;
    slot->done.store(0, std::memory_order_relaxed);
    slot->completion = cpu::TaskStatus::Done();
    return slot;
}

void HostTasks::Return(HostSlot* slot) {
    std::lock_guard lock(mutex_);
    free_slots_.push_back(slot);
}

void HostTasks::NoteFailure(int32_t code) {
    int32_t none = 0;
    failure_.compare_exchange_strong(none, code, std::memory_order_acq_rel);
}

void HostTasks::Run(void* p) {
    auto* slot = static_cast<HostSlot*>(p);
    HostTasks* owner = slot->owner;
    const bool stopped = owner->stop_on_failure_.load(std::memory_order_relaxed) &&
                         owner->failure_.load(std::memory_order_acquire) != 0;
    const cpu::RunReason reason = stopped ? cpu::RunReason::kSkipped : cpu::RunReason::kRun;
    cpu::TaskStatus status = cpu::TaskStatus::Done();
    if (!stopped || (slot->task.flags & cpu::Task::kCallWhenCancelled) != 0) {
        cpu::TaskContext ctx(LaneMarker(), reinterpret_cast<uint64_t>(slot), reason);
        status = slot->task.fn(ctx, slot->task.payload);
        if (status.suspended()) {
            // A blocking callback: the lane holds here until the report thread has run it.
            while (slot->done.load(std::memory_order_acquire) == 0)
                cpu::ParkWhile(slot->done, 0, -1);
            status = slot->completion;
        }
    }
    if (status.failed()) owner->NoteFailure(status.code);
    owner->Return(slot);
}

bool IsLaneToken(cpu::SuspendToken token) {
    return token.queue == LaneMarker();
}

bool CompleteHostTask(cpu::SuspendToken token, cpu::TaskStatus status) {
    if (!IsLaneToken(token)) return false;
    auto* slot = reinterpret_cast<HostSlot*>(token.seq);
    slot->completion = status;
    slot->done.store(1, std::memory_order_release);
    cpu::Unpark(slot->done, 1);
    return true;
}

}  // namespace openacl::backend
