// Communicators and their registry (hccl/communicator.h).
#include "hccl/communicator.h"

#include <map>
#include <unordered_map>

#include "backend/cpu/executor.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"

namespace openacl::hccl {

void PendingOp::Finish(HcclResult code, std::string why) {
    result = code;
    message = std::move(why);
    // Once the state says finished, the task may run (a discarded one without being resumed)
    // and delete this op: the token is read before, and nothing of the op after.
    const cpu::SuspendToken wake = token;
    state.store(kFinished, std::memory_order_release);
    cpu::Executor::Resume(wake);
}

Communicator::Communicator(uint32_t rank, uint32_t size, int32_t device, std::string name,
                           std::unique_ptr<Transport> transport, const CommOptions& options)
    : rank_(rank),
      size_(size),
      device_(device),
      name_(std::move(name)),
      options_(options),
      transport_(std::move(transport)) {}

void Communicator::NoteAsyncError(HcclResult code) {
    HcclResult expected = HCCL_SUCCESS;
    async_error_.compare_exchange_strong(expected, code, std::memory_order_acq_rel);
}

void Communicator::BeginOp() {
    std::lock_guard lock(mutex_);
    ++in_flight_;
}

void Communicator::EndOp() {
    std::lock_guard lock(mutex_);
    if (--in_flight_ == 0) idle_.notify_all();
}

void Communicator::WaitIdle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return in_flight_ == 0; });
}

namespace {

// Handles are numbers, never addresses, so a destroyed communicator's handle can never name a
// new one that happens to reuse its memory.
constexpr uintptr_t kHandleBase = 0x48434c0000000000ull;  // "HCL" in the high bytes

struct Registry {
    std::mutex mutex;
    uintptr_t next = 1;
    std::unordered_map<uintptr_t, std::shared_ptr<Communicator>> by_handle;
    // Ranks of one communicator share its name; several of them may live in one process (one
    // per device), so a name is unique per device.
    std::multimap<std::string, std::weak_ptr<Communicator>> by_name;
    std::map<std::string, uint64_t> name_counters;
};

Registry& TheRegistry() {
    static auto* registry = new Registry;  // outlives every static destructor's use
    return *registry;
}

}  // namespace

HcclResult Register(std::shared_ptr<Communicator> comm, HcclComm* handle, std::string* why) {
    Registry& r = TheRegistry();
    std::lock_guard lock(r.mutex);
    auto [first, last] = r.by_name.equal_range(comm->name());
    for (auto it = first; it != last;) {
        std::shared_ptr<Communicator> other = it->second.lock();
        if (other == nullptr) {
            it = r.by_name.erase(it);
            continue;
        }
        if (other->device() == comm->device()) {
            *why = "device " + std::to_string(comm->device()) +
                   " already has a communicator named \"" + comm->name() +
                   "\": names (hcclCommName) must be unique on a device";
            return HCCL_E_PARA;
        }
        ++it;
    }
    const uintptr_t key = kHandleBase | r.next++;
    comm->set_handle(reinterpret_cast<HcclComm>(key));
    r.by_name.emplace(comm->name(), comm);
    r.by_handle.emplace(key, std::move(comm));
    *handle = reinterpret_cast<HcclComm>(key);
    return HCCL_SUCCESS;
}

std::shared_ptr<Communicator> Find(HcclComm handle) {
    Registry& r = TheRegistry();
    std::lock_guard lock(r.mutex);
    auto it = r.by_handle.find(reinterpret_cast<uintptr_t>(handle));
    return it == r.by_handle.end() ? nullptr : it->second;
}

std::shared_ptr<Communicator> FindByName(const std::string& name, int32_t device) {
    Registry& r = TheRegistry();
    std::lock_guard lock(r.mutex);
    std::shared_ptr<Communicator> only;
    size_t live = 0;
    auto [first, last] = r.by_name.equal_range(name);
    for (auto it = first; it != last; ++it) {
        std::shared_ptr<Communicator> comm = it->second.lock();
        if (comm == nullptr) continue;
        if (comm->device() == device) return comm;
        only = std::move(comm);
        ++live;
    }
    return live == 1 ? only : nullptr;
}

std::shared_ptr<Communicator> Unregister(HcclComm handle) {
    Registry& r = TheRegistry();
    std::lock_guard lock(r.mutex);
    auto it = r.by_handle.find(reinterpret_cast<uintptr_t>(handle));
    if (it == r.by_handle.end()) return nullptr;
    std::shared_ptr<Communicator> comm = std::move(it->second);
    r.by_handle.erase(it);
    auto [first, last] = r.by_name.equal_range(comm->name());
    for (auto named = first; named != last; ++named) {
        if (named->second.lock() == comm) {
            r.by_name.erase(named);
            break;
        }
    }
    return comm;
}

std::shared_ptr<Communicator> FindOrFail(HcclComm handle, HcclResult* rc) {
    if (handle == nullptr) {
        *rc = static_cast<HcclResult>(Fail(HCCL_E_PTR, "comm is null"));
        return nullptr;
    }
    std::shared_ptr<Communicator> found = Find(handle);
    if (found == nullptr) {
        *rc = static_cast<HcclResult>(
            Fail(HCCL_E_PARA,
                 "comm %p is not a live communicator (never created, or already destroyed "
                 "with HcclCommDestroy)",
                 handle));
    }
    return found;
}

std::shared_ptr<Communicator> FindReadyOrFail(HcclComm handle, HcclResult* rc) {
    std::shared_ptr<Communicator> found = FindOrFail(handle, rc);
    if (found != nullptr && found->status() == HCCL_COMM_STATUS_SUSPENDING) {
        *rc = static_cast<HcclResult>(Fail(HCCL_E_SUSPENDING,
                                           "communicator \"%s\" is suspended (HcclCommSuspend): "
                                           "resume it with HcclCommResume first",
                                           found->name().c_str()));
        return nullptr;
    }
    return found;
}

std::shared_ptr<Communicator> FindByNameHere(const std::string& name) {
    const Context* context = CurrentContext();
    return FindByName(name, context != nullptr ? context->device()->id() : -1);
}

std::string UniqueName(const std::string& prefix) {
    Registry& r = TheRegistry();
    std::lock_guard lock(r.mutex);
    for (;;) {
        std::string name = prefix + "_" + std::to_string(r.name_counters[prefix]++);
        if (r.by_name.count(name) == 0) return name;
    }
}

}  // namespace openacl::hccl
