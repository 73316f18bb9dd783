// Synchronisation inside a core: PipeBarrier, SetFlag/WaitFlag.
//
// The CPU runs a block's instructions in program order, so none of these change results. What
// can be checked is the pairing: a WaitFlag with no SetFlag before it waits forever on the NPU
// and is a KernelTrap here; SetFlags left unconsumed are listed by
// openacl::ascendc::UnpairedFlags(). And the order they make between the pipes is what the
// cross-pipe hazard check (kernel_pipe_hazard.h) checks accesses against.
#ifndef OPENACL_ASCENDC_KERNEL_SYNC_H_
#define OPENACL_ASCENDC_KERNEL_SYNC_H_

#include <cstdint>
#include <string>

#include "kernel_core_state.h"
#include "kernel_type.h"

namespace openacl::ascendc {

__aicore__ inline uint32_t& FlagCount(const char* api, AscendC::HardEvent event, int32_t id) {
    if (id < 0 || id >= static_cast<int32_t>(kEventIdsPerEvent)) {
        Trap(api, "event id " + std::to_string(id) + " is outside EVENT_ID0..EVENT_ID7");
    }
    return t_core.flags[static_cast<size_t>(event)][static_cast<size_t>(id)];
}

__aicore__ inline void SetFlag(AscendC::HardEvent event, int32_t id) {
    ++FlagCount("SetFlag", event, id);
    t_core.hazards.Set(event, static_cast<uint32_t>(id));
}

__aicore__ inline void WaitFlag(AscendC::HardEvent event, int32_t id) {
    uint32_t& count = FlagCount("WaitFlag", event, id);
    if (count == 0) {
        Trap("WaitFlag", HardEventName(event) + " id " + std::to_string(id) +
                             " was never set: call SetFlag with the same event and id first (on "
                             "the NPU this waits forever)");
    }
    --count;
    t_core.hazards.Wait(event, static_cast<uint32_t>(id));
}

// PIPE_ALL waits for every pipe; a barrier on one pipe orders only that pipe, which keeps
// program order here anyway.
__aicore__ inline void Barrier(pipe_t pipe) {
    if (pipe == PIPE_ALL) t_core.hazards.JoinAll();
}

}  // namespace openacl::ascendc

namespace AscendC {

template <pipe_t pipe>
__aicore__ inline void PipeBarrier() {
    openacl::ascendc::Barrier(pipe);
}

template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID) {
    openacl::ascendc::SetFlag(event, eventID);
}

template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID) {
    openacl::ascendc::WaitFlag(event, eventID);
}

}  // namespace AscendC

// The compiler's low-level forms, used by older kernels.
__aicore__ inline void pipe_barrier(pipe_t pipe) {
    openacl::ascendc::Barrier(pipe);
}

#endif  // OPENACL_ASCENDC_KERNEL_SYNC_H_
