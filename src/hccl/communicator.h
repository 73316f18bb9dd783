// An HCCL communicator: one rank's membership of a group of ranks, bound to the device that
// was current when it was created, with the transport that reaches its peers. Handles given to
// programs are looked up in a registry, so a destroyed or foreign HcclComm is an error with a
// message, never a crash; names (HcclGetCommName) are
// shared by a communicator's ranks and unique per device.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "hccl/hccl_types.h"
#include "hccl/transport.h"

namespace openacl::hccl {

struct CommOptions {
    std::string name;              // empty: one is made up
    int64_t exec_timeout_ms = -1;  // -1: HCCL_EXEC_TIMEOUT (default 1836 s); 0: never
    uint32_t buffer_size_mb = 200;
    uint32_t deterministic = 0;
    uint32_t op_expansion_mode = 0;
};

class Communicator {
 public:
    Communicator(uint32_t rank, uint32_t size, int32_t device, std::string name,
                 std::unique_ptr<Transport> transport, const CommOptions& options);

    uint32_t rank() const { return rank_; }
    uint32_t size() const { return size_; }
    int32_t device() const { return device_; }
    const std::string& name() const { return name_; }
    const CommOptions& options() const { return options_; }
    Transport& transport() { return *transport_; }
    const Transport& transport() const { return *transport_; }
    // The handle programs hold (set once registered).
    HcclComm handle() const { return handle_; }
    void set_handle(HcclComm handle) { handle_ = handle; }
    // HcclCommSuspend / HcclCommResume: a suspended communicator refuses new operations.
    HcclCommStatus status() const { return status_.load(std::memory_order_acquire); }
    void set_status(HcclCommStatus status) { status_.store(status, std::memory_order_release); }

    // Collectives are numbered in the order the rank's streams run them.
    uint64_t NextSeq() { return next_seq_.fetch_add(1, std::memory_order_relaxed); }

    // HcclGetCommAsyncError: the first failure of an operation that already ran.
    void NoteAsyncError(HcclResult code);
    HcclResult async_error() const { return async_error_.load(std::memory_order_acquire); }

    // Operations enqueued and not finished yet: HcclCommDestroy waits for them, as a program
    // that destroys a communicator right after enqueueing its last collective expects.
    void BeginOp();
    void EndOp();
    void WaitIdle();

 private:
    const uint32_t rank_;
    const uint32_t size_;
    const int32_t device_;
    const std::string name_;
    const CommOptions options_;
    std::unique_ptr<Transport> transport_;
    HcclComm handle_ = nullptr;
    std::atomic<HcclCommStatus> status_{HCCL_COMM_STATUS_READY};
    std::atomic<uint64_t> next_seq_{0};
    std::atomic<HcclResult> async_error_{HCCL_SUCCESS};
    std::mutex mutex_;
    std::condition_variable idle_;
    uint32_t in_flight_ = 0;
};

// ---- The registry of live communicators --------------------------------------------------
// Registers `comm` and returns its handle. Fails (HCCL_E_PARA) when its name is taken.
HcclResult Register(std::shared_ptr<Communicator> comm, HcclComm* handle, std::string* why);
// The communicator behind a handle, or null.
std::shared_ptr<Communicator> Find(HcclComm handle);
// The communicator named `name` on `device`, or the only one so named; null when none or
// several (on other devices) are.
std::shared_ptr<Communicator> FindByName(const std::string& name, int32_t device);
// Removes the handle; returns the communicator it named, or null.
std::shared_ptr<Communicator> Unregister(HcclComm handle);
// The communicator behind a handle a program passed, or null with the failure recorded in *rc
// (HCCL_E_PTR for null, HCCL_E_PARA for a destroyed or foreign handle).
std::shared_ptr<Communicator> FindOrFail(HcclComm handle, HcclResult* rc);
// FindOrFail for an operation: a suspended communicator (HcclCommSuspend) refuses it too, with
// HCCL_E_SUSPENDING.
std::shared_ptr<Communicator> FindReadyOrFail(HcclComm handle, HcclResult* rc);
// FindByName for the calling thread's current device (any device when it has none).
std::shared_ptr<Communicator> FindByNameHere(const std::string& name);
// A name no live communicator has: "<prefix>_<n>".
std::string UniqueName(const std::string& prefix);

}  // namespace openacl::hccl
