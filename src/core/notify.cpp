#include "core/notify.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "backend/cpu/executor.h"
#include "backend/cpu/sync.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/log.h"
#include "core/poll_park.h"
#include "core/runtime.h"
#include "core/shared_page.h"
#include "core/stream.h"

namespace openacl {

namespace {

// The flag of a notify shared between processes, in its shared page.
struct NotifyPage {
    uint64_t magic;
    std::atomic<uint32_t> set;  // 1 while set
};
constexpr uint64_t kNotifyPageMagic = 0x59464954504c4fULL;  // "OLPTIFY"
static_assert(std::atomic<uint32_t>::is_always_lock_free, "the shared flag must be lock-free");

// The flag and the waits parked on it. Reference counted: the handle holds one reference, every
// record or wait task not yet run another. Exported or imported, the flag lives in a page shared
// between processes (core/shared_page.h): a record sets it there, and waits, which no other
// process can wake, are polled (core/poll_park.h); a record in this process wakes them at once.
class Notify {
 public:
    Notify(int32_t device, uint32_t id) : device_(device), id_(id) {}
    // An imported notify: its flag is another process's, in `page` (whose reference it takes).
    Notify(int32_t device, uint32_t id, SharedPage* page)
        : device_(device), id_(id), shared_(page), imported_(true) {}
    int32_t device() const { return device_; }
    uint32_t id() const { return id_; }
    void Retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
    void Release() {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }

    // Sets the flag and wakes the oldest wait, which then takes it. A token that wakes nothing
    // is passed over: a replay's copy of a wait (a borrowed task) is not called when its queue
    // discards it, so it cannot leave, and the record must reach the wait behind it.
    void Record() {
        std::unique_lock lock(mutex_);
        if (shared_ != nullptr) {
            SharedFlag().store(1, std::memory_order_release);
            lock.unlock();
            WakeParked();  // this process's waits now; other processes' at their next poll
            return;
        }
        set_ = true;
        while (set_ && !waiters_.empty()) {
            const cpu::SuspendToken wake = waiters_.front();
            waiters_.pop_front();
            lock.unlock();
            if (cpu::Executor::Resume(wake)) return;
            lock.lock();
        }
    }
    // True (and the flag cleared) when it was set; otherwise the wait `token` is parked.
    bool TakeOrPark(cpu::SuspendToken token) {
        std::lock_guard lock(mutex_);
        if (shared_ != nullptr) {
            uint32_t set = 1;
            if (SharedFlag().compare_exchange_strong(set, 0, std::memory_order_acq_rel)) {
                Forget(token);
                return true;
            }
            Note(token);
            ParkUntilPolled(token);
            return false;
        }
        if (set_) {
            set_ = false;
            Forget(token);
            return true;
        }
        Note(token);
        return false;
    }
    void Leave(cpu::SuspendToken token) {
        std::lock_guard lock(mutex_);
        Forget(token);
    }
    void Reset() {
        std::lock_guard lock(mutex_);
        if (shared_ != nullptr) SharedFlag().store(0, std::memory_order_release);
        set_ = false;
    }

    // aclrtNotifyGetExportKey: the flag moves to a shared page (once), which is published.
    aclError Export(bool check_pid, std::string* name) {
        std::deque<cpu::SuspendToken> parked;
        aclError rc = ACL_SUCCESS;
        {
            std::lock_guard lock(mutex_);
            if (imported_) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "notify %u was imported from another process (aclrtNotifyImportByKey): "
                            "only the process that created it exports it",
                            id_);
            }
            if (shared_ == nullptr) {
                SharedPage* page = nullptr;
                if (aclError failed = SharedPage::Create("IPC notify", &page)) return failed;
                new (page->data()) NotifyPage{kNotifyPageMagic, {set_ ? 1u : 0u}};
                shared_ = page;
                set_ = false;
                parked = waiters_;  // they were waiting for a local record: now they poll
            }
            rc = shared_->Export(export_record::Kind::kIpcNotify, "openacl.notify.", check_pid,
                                 device_, name);
        }
        for (const cpu::SuspendToken& token : parked)
            cpu::Executor::Resume(token);
        return rc;
    }
    // aclrtNotifySetImportPid.
    aclError AllowPids(const int32_t* pids, size_t count) {
        std::lock_guard lock(mutex_);
        if (shared_ == nullptr || imported_ || !shared_->exported()) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "notify %u is not exported: call aclrtNotifyGetExportKey first", id_);
        }
        return shared_->AllowPids(pids, count);
    }
    // aclrtDestroyNotify of the exporter: later imports are refused.
    void EndExport() {
        std::lock_guard lock(mutex_);
        if (shared_ != nullptr && !imported_) shared_->Revoke();
    }
    // Waits still parked (not those a discarded queue left behind, see Record).
    size_t Waiting() {
        std::lock_guard lock(mutex_);
        return static_cast<size_t>(
            std::count_if(waiters_.begin(), waiters_.end(),
                          [](const cpu::SuspendToken& t) { return cpu::Executor::IsHeld(t); }));
    }

 private:
    ~Notify() {
        if (shared_ != nullptr) shared_->Release();
    }
    std::atomic<uint32_t>& SharedFlag() { return static_cast<NotifyPage*>(shared_->data())->set; }
    void Note(cpu::SuspendToken token) {
        if (std::none_of(waiters_.begin(), waiters_.end(), [&](const cpu::SuspendToken& t) {
                return t.queue == token.queue && t.seq == token.seq;
            })) {
            waiters_.push_back(token);
        }
    }
    void Forget(cpu::SuspendToken token) {
        waiters_.erase(std::remove_if(waiters_.begin(), waiters_.end(),
                                      [&](const cpu::SuspendToken& t) {
                                          return t.queue == token.queue && t.seq == token.seq;
                                      }),
                       waiters_.end());
    }

    const int32_t device_;
    const uint32_t id_;
    std::atomic<uint32_t> refs_{1};
    std::mutex mutex_;
    bool set_ = false;
    std::deque<cpu::SuspendToken> waiters_;
    SharedPage* shared_ = nullptr;  // under mutex_; set once (exported or imported)
    bool imported_ = false;
};

// A counting notify: a 32-bit value records change (set, add, or, and) and waits compare
// against; every change wakes every parked wait, which compares again.
class CountingNotify {
 public:
    explicit CountingNotify(uint32_t id) : id_(id) {}
    uint32_t id() const { return id_; }
    void Retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
    void Release() {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }
    void Change(aclrtCntNotifyRecordMode mode, uint32_t operand, bool reset) {
        std::deque<cpu::SuspendToken> wake;
        {
            std::lock_guard lock(mutex_);
            if (reset) {
                value_ = 0;
            } else {
                switch (mode) {
                    case ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE:
                        value_ = operand;
                        break;
                    case ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE:
                        value_ += operand;  // wraps, as a 32-bit counter does
                        break;
                    case ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE:
                        value_ |= operand;
                        break;
                    case ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE:
                        value_ &= operand;
                        break;
                }
            }
            wake.swap(waiters_);
        }
        for (const cpu::SuspendToken& token : wake)
            cpu::Executor::Resume(token);
    }
    // True (the value cleared if asked) when the value satisfies the wait; else parks it.
    bool SatisfiedOrPark(const aclrtCntNotifyWaitInfo& info, cpu::SuspendToken token) {
        std::lock_guard lock(mutex_);
        bool ok = false;
        switch (info.mode) {
            case ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE:
                ok = value_ < info.value;
                break;
            case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE:
                ok = value_ == info.value;
                break;
            case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE:
                ok = value_ > info.value;
                break;
            case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE:
                ok = value_ >= info.value;
                break;
            case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE:
                ok = (value_ & info.value) == info.value;  // every bit of the mask is set
                break;
        }
        if (ok) {
            if (info.isClear != 0) value_ = 0;
            return true;
        }
        waiters_.push_back(token);
        return false;
    }

 private:
    ~CountingNotify() = default;
    const uint32_t id_;
    std::atomic<uint32_t> refs_{1};
    std::mutex mutex_;
    uint32_t value_ = 0;
    std::deque<cpu::SuspendToken> waiters_;
};

// Live notifies by handle, and the ids in use per device.
struct Registry {
    std::mutex mutex;
    std::unordered_map<const void*, Notify*> live;
    std::map<int32_t, std::vector<bool>> ids;  // per device: id in use
    std::unordered_map<const void*, CountingNotify*> counting;
    uint32_t next_counting_id = 0;
};
Registry& Notifies() {
    static Registry* registry = new Registry;  // outlives static destructors
    return *registry;
}

// A notify handle the caller may use: the object, retained (Release when done), or an error.
Notify* Acquire(aclrtNotify handle, aclError* rc) {
    if (handle == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "notify is null");
        return nullptr;
    }
    Registry& r = Notifies();
    std::lock_guard lock(r.mutex);
    auto it = r.live.find(handle);
    if (it == r.live.end()) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "notify %p is not a live notify (destroyed already, or not made by "
                   "aclrtCreateNotify)",
                   handle);
        return nullptr;
    }
    it->second->Retain();
    return it->second;
}

// Wakes parked waits whose timeout has passed (they then fail their stream). One thread for
// the process, started by the first wait with a timeout.
class Deadlines {
 public:
    static Deadlines& Get() {
        static Deadlines* deadlines = new Deadlines;  // its thread outlives static destructors
        return *deadlines;
    }
    void Add(int64_t deadline_ns, cpu::SuspendToken token) {
        std::lock_guard lock(mutex_);
        if (!started_) {
            started_ = true;
            std::thread([this] { Loop(); }).detach();
        }
        due_.emplace(deadline_ns, token);
        changed_.notify_one();
    }

 private:
    void Loop() {
        std::unique_lock lock(mutex_);
        for (;;) {
            if (due_.empty()) {
                changed_.wait(lock);
                continue;
            }
            const int64_t next = due_.begin()->first;
            const int64_t now = cpu::NowNs();
            if (now < next) {
                changed_.wait_for(lock, std::chrono::nanoseconds(next - now));
                continue;
            }
            const cpu::SuspendToken token = due_.begin()->second;
            due_.erase(due_.begin());
            lock.unlock();
            cpu::Executor::Resume(token);  // a stale token (the wait is over) is ignored
            lock.lock();
        }
    }
    std::mutex mutex_;
    std::condition_variable changed_;
    std::multimap<int64_t, cpu::SuspendToken> due_;
    bool started_ = false;
};

// The deadline of a wait of timeout_s seconds that starts now; 0 (none) for 0.
int64_t DeadlineIn(uint32_t timeout_s) {
    return timeout_s == 0 ? 0 : cpu::NowNs() + static_cast<int64_t>(timeout_s) * 1000000000LL;
}

aclError RequireCpuStream(Stream* stream, const char* api) {
    if (stream->lane() == nullptr) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s is not supported on the %s backend yet", api,
                stream->context()->device()->accelerator()->name());
}

}  // namespace

namespace {

// Publishes a new notify of the current context's device; `page`: an imported one's flag.
aclError PublishNotify(SharedPage* page, aclrtNotify* notify) {
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    const int32_t device = ctx->device()->id();
    Registry& r = Notifies();
    std::lock_guard lock(r.mutex);
    std::vector<bool>& used = r.ids[device];
    auto free_id = std::find(used.begin(), used.end(), false);
    if (free_id == used.end()) {
        if (used.size() >= kMaxNotifiesPerDevice) {
            return Fail(ACL_ERROR_RT_NO_NOTIFY_RESOURCE,
                        "device %d already holds %u notifies, the most it can", device,
                        kMaxNotifiesPerDevice);
        }
        used.push_back(false);
        free_id = used.end() - 1;
    }
    *free_id = true;
    const auto id = static_cast<uint32_t>(free_id - used.begin());
    auto* object = page == nullptr ? new Notify(device, id) : new Notify(device, id, page);
    r.live.emplace(object, object);
    *notify = object;
    return ACL_SUCCESS;
}

}  // namespace

aclError CreateNotify(aclrtNotify* notify, uint64_t flag) {
    if (notify == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "notify is null");
    if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flag 0x%llx is neither ACL_NOTIFY_DEFAULT nor ACL_NOTIFY_DEVICE_USE_ONLY",
                    static_cast<unsigned long long>(flag));
    }
    return PublishNotify(nullptr, notify);
}

aclError DestroyNotify(aclrtNotify handle) {
    aclError rc = ACL_SUCCESS;
    Notify* notify = Acquire(handle, &rc);
    if (notify == nullptr) return rc;
    if (const size_t waiting = notify->Waiting()) {
        notify->Release();
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "notify %p is still waited for by %zu task(s) (aclrtWaitAndResetNotify): "
                    "record it, or destroy their streams, first",
                    handle, waiting);
    }
    notify->EndExport();
    Registry& r = Notifies();
    {
        std::lock_guard lock(r.mutex);
        r.live.erase(handle);
        r.ids[notify->device()][notify->id()] = false;
    }
    notify->Release();  // ours from Acquire
    notify->Release();  // the handle's
    return ACL_SUCCESS;
}

aclError RecordNotify(aclrtNotify handle, Stream* stream) {
    if (aclError rc = RequireCpuStream(stream, "aclrtRecordNotify")) return rc;
    aclError rc = ACL_SUCCESS;
    Notify* notify = Acquire(handle, &rc);
    if (notify == nullptr) return rc;
    // The task's reference is the one Acquire took.
    stream->Submit(cpu::MakeTask(
        [notify](cpu::TaskContext& ctx) {
            if (!ctx.cancelled()) notify->Record();
            if (!ctx.borrowed()) notify->Release();
        },
        0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable));
    return ACL_SUCCESS;
}

aclError WaitAndResetNotify(aclrtNotify handle, Stream* stream, uint32_t timeout_s) {
    if (aclError rc = RequireCpuStream(stream, "aclrtWaitAndResetNotify")) return rc;
    aclError rc = ACL_SUCCESS;
    Notify* notify = Acquire(handle, &rc);
    if (notify == nullptr) return rc;
    struct Wait {
        // The reference Acquire took, released when the wait ends (a replay's borrowed copy
        // releases nothing: the captured original does, once).
        Notify* notify;
        Stream* stream;
        int64_t deadline;    // NowNs(); 0: none
        uint32_t timeout_s;  // 0: none
        bool armed;          // the deadline is with the timer
        bool replayed;       // a replay's copy has set its own deadline
    };
    // Replayable: each replay waits for a record again (and takes it), with its own timeout.
    stream->Submit(cpu::MakeTask(
        [wait = Wait{notify, stream, DeadlineIn(timeout_s), timeout_s, false, false}](
            cpu::TaskContext& ctx) mutable {
            const bool owner = !ctx.borrowed();
            if (ctx.cancelled()) {
                wait.notify->Leave(ctx.token());
                if (owner) wait.notify->Release();
                return cpu::TaskStatus::Done();
            }
            if (!owner && !wait.replayed) {
                // The call's deadline is long past when a model replays the wait: the timeout
                // counts from when the replay reaches it.
                wait.replayed = true;
                wait.deadline = DeadlineIn(wait.timeout_s);
            }
            if (wait.notify->TakeOrPark(ctx.token())) {
                if (owner) wait.notify->Release();
                return cpu::TaskStatus::Done();
            }
            if (wait.deadline != 0 && cpu::NowNs() >= wait.deadline) {
                wait.notify->Leave(ctx.token());
                wait.stream->NoteFailure(
                    "aclrtWaitAndResetNotify: notify %u was not recorded within its timeout",
                    wait.notify->id());
                exception_info::Report(ctx, wait.stream, ACL_ERROR_RT_TASK_TIMEOUT);
                if (owner) wait.notify->Release();
                return cpu::TaskStatus::Failed(ACL_ERROR_RT_TASK_TIMEOUT);
            }
            if (wait.deadline != 0 && !wait.armed) {
                wait.armed = true;
                Deadlines::Get().Add(wait.deadline, ctx.token());
            }
            return cpu::TaskStatus::Suspended();  // a record (or the deadline) resumes it
        },
        0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable));
    return ACL_SUCCESS;
}

aclError GetNotifyId(aclrtNotify handle, uint32_t* id) {
    if (id == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "notifyId is null");
    aclError rc = ACL_SUCCESS;
    Notify* notify = Acquire(handle, &rc);
    if (notify == nullptr) return rc;
    *id = notify->id();
    notify->Release();
    return ACL_SUCCESS;
}

aclError NotifyGetExportKey(aclrtNotify handle, char* key, size_t len, uint64_t flags) {
    if (key == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "key is null");
    if (len < kNotifyKeyMinLength) {
        return Fail(ACL_ERROR_INVALID_PARAM, "len %zu is too small: a notify's key takes %zu bytes",
                    len, kNotifyKeyMinLength);
    }
    if (flags != ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT &&
        flags != ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flags 0x%llx is neither ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT nor "
                    "ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION",
                    static_cast<unsigned long long>(flags));
    }
    aclError rc = ACL_SUCCESS;
    Notify* notify = Acquire(handle, &rc);
    if (notify == nullptr) return rc;
    std::string name;
    rc = notify->Export(flags == ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT, &name);
    notify->Release();
    if (rc != ACL_SUCCESS) return rc;
    if (name.size() >= len) {
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR, "the key %s does not fit %zu bytes", name.c_str(),
                    len);
    }
    std::memcpy(key, name.c_str(), name.size() + 1);
    return ACL_SUCCESS;
}

aclError NotifySetImportPid(aclrtNotify handle, const int32_t* pids, size_t count) {
    if (pids == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "pid is null");
    if (count == 0) return Fail(ACL_ERROR_INVALID_PARAM, "num must not be 0");
    for (size_t i = 0; i < count; ++i) {
        if (pids[i] <= 0) {
            return Fail(ACL_ERROR_INVALID_PARAM, "pid[%zu] is %d, which is no process id", i,
                        pids[i]);
        }
    }
    aclError rc = ACL_SUCCESS;
    Notify* notify = Acquire(handle, &rc);
    if (notify == nullptr) return rc;
    rc = notify->AllowPids(pids, count);
    notify->Release();
    return rc;
}

aclError NotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags) {
    if (notify == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "notify is null");
    if (key == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "key is null");
    if (flags != ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT &&
        flags != ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flags 0x%llx is neither ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT nor "
                    "ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS",
                    static_cast<unsigned long long>(flags));
    }
    aclError rc = ACL_SUCCESS;
    if (RequireContext(&rc) == nullptr) return rc;
    const size_t length = strnlen(key, kNotifyKeyMinLength);
    if (length == 0 || length == kNotifyKeyMinLength) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "key is not one aclrtNotifyGetExportKey made (empty, or longer than %zu bytes)",
                    kNotifyKeyMinLength - 1);
    }
    SharedPage* page = nullptr;
    int32_t exporter = 0;
    if (aclError failed =
            SharedPage::Import(std::string(key, length), export_record::Kind::kIpcNotify,
                               "notify key", &exporter, &page)) {
        return failed;
    }
    if (static_cast<NotifyPage*>(page->data())->magic != kNotifyPageMagic) {
        page->Release();
        return Fail(ACL_ERROR_INVALID_PARAM, "key %s of process %d does not name a notify", key,
                    exporter);
    }
    rc = PublishNotify(page, notify);
    if (rc != ACL_SUCCESS) page->Release();
    return rc;
}

aclError NotifyBatchReset(aclrtNotify* notifies, size_t count) {
    if (notifies == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "notifies is null");
    if (count == 0) return Fail(ACL_ERROR_INVALID_PARAM, "num must not be 0");
    std::vector<Notify*> acquired;
    for (size_t i = 0; i < count; ++i) {
        aclError rc = ACL_SUCCESS;
        Notify* notify = Acquire(notifies[i], &rc);
        if (notify == nullptr) {
            for (Notify* n : acquired)
                n->Release();
            return rc;  // nothing reset: every handle is checked first
        }
        acquired.push_back(notify);
    }
    for (Notify* n : acquired) {
        n->Reset();
        n->Release();
    }
    return ACL_SUCCESS;
}

namespace {

// CANN documents counting notifies for the Ascend 950 only.
aclError RequireCountingChip(const char* api) {
    const std::string& soc = Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend950", 0) == 0) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "%s: counting notifies are not available on %s (CANN documents them for the "
                "Ascend 950 only)",
                api, soc.c_str());
}

CountingNotify* AcquireCounting(aclrtCntNotify handle, aclError* rc) {
    if (handle == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "cntNotify is null");
        return nullptr;
    }
    Registry& r = Notifies();
    std::lock_guard lock(r.mutex);
    auto it = r.counting.find(handle);
    if (it == r.counting.end()) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "cntNotify %p is not a live counting notify (destroyed already, or not made "
                   "by aclrtCntNotifyCreate)",
                   handle);
        return nullptr;
    }
    it->second->Retain();
    return it->second;
}

// Enqueues a change (a record, or a reset) of a counting notify.
aclError SubmitChange(aclrtCntNotify handle, Stream* stream, const char* api,
                      aclrtCntNotifyRecordMode mode, uint32_t value, bool reset) {
    if (aclError rc = RequireCountingChip(api)) return rc;
    if (aclError rc = RequireCpuStream(stream, api)) return rc;
    aclError rc = ACL_SUCCESS;
    CountingNotify* notify = AcquireCounting(handle, &rc);
    if (notify == nullptr) return rc;
    struct Change {
        CountingNotify* notify;
        aclrtCntNotifyRecordMode mode;
        uint32_t value;
        bool reset;
    };
    stream->Submit(cpu::MakeTask(
        [change = Change{notify, mode, value, reset}](cpu::TaskContext& ctx) {
            if (!ctx.cancelled()) change.notify->Change(change.mode, change.value, change.reset);
            if (!ctx.borrowed()) change.notify->Release();
        },
        0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable));
    return ACL_SUCCESS;
}

}  // namespace

aclError CreateCountingNotify(aclrtCntNotify* notify, uint64_t flag) {
    if (notify == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "cntNotify is null");
    if (flag != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "flag is reserved and must be 0, not 0x%llx",
                    static_cast<unsigned long long>(flag));
    }
    if (aclError rc = RequireCountingChip("aclrtCntNotifyCreate")) return rc;
    aclError rc = ACL_SUCCESS;
    if (RequireContext(&rc) == nullptr) return rc;
    Registry& r = Notifies();
    std::lock_guard lock(r.mutex);
    auto* object = new CountingNotify(r.next_counting_id++);
    r.counting.emplace(object, object);
    *notify = object;
    return ACL_SUCCESS;
}

aclError DestroyCountingNotify(aclrtCntNotify handle) {
    aclError rc = ACL_SUCCESS;
    CountingNotify* notify = AcquireCounting(handle, &rc);
    if (notify == nullptr) return rc;
    {
        Registry& r = Notifies();
        std::lock_guard lock(r.mutex);
        r.counting.erase(handle);
    }
    notify->Release();  // ours; pending tasks keep theirs
    notify->Release();  // the handle's
    return ACL_SUCCESS;
}

aclError RecordCountingNotify(aclrtCntNotify handle, Stream* stream,
                              const aclrtCntNotifyRecordInfo* info) {
    if (info == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "info is null");
    if (info->mode != ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE &&
        info->mode != ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE &&
        info->mode != ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE &&
        info->mode != ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE) {
        return Fail(ACL_ERROR_INVALID_PARAM, "info->mode %d is not an aclrtCntNotifyRecordMode",
                    static_cast<int>(info->mode));
    }
    return SubmitChange(handle, stream, "aclrtCntNotifyRecord", info->mode, info->value, false);
}

aclError ResetCountingNotify(aclrtCntNotify handle, Stream* stream) {
    return SubmitChange(handle, stream, "aclrtCntNotifyReset",
                        ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0, true);
}

aclError WaitCountingNotify(aclrtCntNotify handle, Stream* stream,
                            const aclrtCntNotifyWaitInfo* info) {
    if (info == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "info is null");
    if (static_cast<unsigned>(info->mode) > ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE) {
        return Fail(ACL_ERROR_INVALID_PARAM, "info->mode %d is not an aclrtCntNotifyWaitMode",
                    static_cast<int>(info->mode));
    }
    if (aclError rc = RequireCountingChip("aclrtCntNotifyWaitWithTimeout")) return rc;
    if (aclError rc = RequireCpuStream(stream, "aclrtCntNotifyWaitWithTimeout")) return rc;
    aclError rc = ACL_SUCCESS;
    CountingNotify* notify = AcquireCounting(handle, &rc);
    if (notify == nullptr) return rc;
    struct Wait {
        CountingNotify* notify;  // released by the original only when captured (as above)
        Stream* stream;
        int64_t deadline;
        aclrtCntNotifyWaitInfo info;
        bool armed;
        bool replayed;  // a replay's copy has set its own deadline
    };
    static_assert(sizeof(Wait) <= cpu::Task::kPayloadSize);
    // Replayable: each replay compares again (and clears, if asked), with its own timeout.
    stream->Submit(cpu::MakeTask(
        [wait = Wait{notify, stream, DeadlineIn(info->timeout), *info, false, false}](
            cpu::TaskContext& ctx) mutable {
            const bool owner = !ctx.borrowed();
            if (ctx.cancelled()) {
                if (owner) wait.notify->Release();
                return cpu::TaskStatus::Done();
            }
            if (!owner && !wait.replayed) {
                wait.replayed = true;  // the timeout counts from when the replay gets here
                wait.deadline = DeadlineIn(wait.info.timeout);
            }
            if (wait.notify->SatisfiedOrPark(wait.info, ctx.token())) {
                if (owner) wait.notify->Release();
                return cpu::TaskStatus::Done();
            }
            if (wait.deadline != 0 && cpu::NowNs() >= wait.deadline) {
                wait.stream->NoteFailure(
                    "aclrtCntNotifyWaitWithTimeout: counting notify %u did not reach the "
                    "awaited value within its timeout",
                    wait.notify->id());
                exception_info::Report(ctx, wait.stream, ACL_ERROR_RT_TASK_TIMEOUT);
                if (owner) wait.notify->Release();
                return cpu::TaskStatus::Failed(ACL_ERROR_RT_TASK_TIMEOUT);
            }
            if (wait.deadline != 0 && !wait.armed) {
                wait.armed = true;
                Deadlines::Get().Add(wait.deadline, ctx.token());
            }
            return cpu::TaskStatus::Suspended();
        },
        0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable));
    return ACL_SUCCESS;
}

aclError GetCountingNotifyId(aclrtCntNotify handle, uint32_t* id) {
    if (id == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "notifyId is null");
    aclError rc = ACL_SUCCESS;
    CountingNotify* notify = AcquireCounting(handle, &rc);
    if (notify == nullptr) return rc;
    *id = notify->id();
    notify->Release();
    return ACL_SUCCESS;
}

void ReleaseAllNotifies() {
    Registry& r = Notifies();
    std::lock_guard lock(r.mutex);
    if (!r.live.empty()) {
        Warn(
            "%zu notify(s) from aclrtCreateNotify were never destroyed with aclrtDestroyNotify; "
            "they are released now",
            r.live.size());
    }
    for (auto& [handle, notify] : r.live)
        notify->Release();
    for (auto& [handle, notify] : r.counting)
        notify->Release();
    r.live.clear();
    r.ids.clear();
    r.counting.clear();
}

}  // namespace openacl
