// How a rank's collectives reach the other ranks. A Transport is one rank's end of a
// communicator: the local transport moves data between ranks in this process through memory
// (local_transport.h); the Gloo transport reaches ranks in other processes and on other
// machines (gloo_transport.h).
//
// A collective runs as one task of its stream. The task hands its PendingOp to Start on the
// stream's worker; the transport either finishes it there (Done) or keeps it and returns
// kPending, without holding the worker, and later calls Finish exactly once, from any thread.
// Finish wakes the task, which reports the result on its stream.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "backend/cpu/task.h"
#include "hccl/collective.h"
#include "hccl/hccl_types.h"

namespace openacl::hccl {

class Communicator;

struct PendingOp {
    enum State : uint8_t { kNew, kStarted, kFinished };

    CollOp op;
    std::shared_ptr<Communicator> comm;
    uint64_t seq = 0;  // which of the communicator's collectives this is (0, 1, ...)
    cpu::SuspendToken token;
    std::atomic<uint8_t> state{kNew};
    HcclResult result = HCCL_SUCCESS;
    std::string message;  // why it failed

    // Records the outcome and wakes the task (transports call it once per started op).
    void Finish(HcclResult code, std::string why = {});
};

class Transport {
 public:
    enum class Outcome : uint8_t { kDone, kPending };

    virtual ~Transport() = default;
    // Runs (or begins) this rank's part of `op`. kDone: op->result holds the outcome.
    virtual Outcome Start(PendingOp* op) = 0;
    // The task of an unfinished op is being discarded (its stream destroyed by force, or
    // stopped after a failure): forget it, failing the peers that wait for it. An op that never
    // started (state kNew; a collective has its seq) still gives up its place in the order of
    // its rank's operations, so the peers fail on meeting it instead of pairing with the op
    // after it. Returns once nothing touches op any more.
    virtual void Withdraw(PendingOp* op) = 0;
    // This rank leaves the communicator (HcclCommDestroy): peers waiting for it, now or later,
    // fail with HCCL_E_REMOTE instead of waiting for their timeout.
    virtual void Leave() = 0;
    // A short name for messages ("shared memory", "Gloo over TCP").
    virtual const char* name() const = 0;
};

}  // namespace openacl::hccl
