#include "core/callback.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "backend/accelerator.h"
#include "backend/cpu/sync.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl {
namespace {

constexpr size_t kMaxSubscribedThreads = 1024;  // the documented per-process limit

// What the messages of one kind of channel call things.
struct Kind {
    const char* subscribe;  // the API that subscribes a thread
    const char* item;       // what it runs
    const char* items;
    const char* other_subscribers;  // who else may subscribe a thread (Process's hint)
};
constexpr Kind kReports{"aclrtSubscribeReport", "callback", "callbacks",
                        " (or create the VDEC/VENC channel that names it)"};
constexpr Kind kHostFuncs{"aclrtSubscribeHostFunc", "host function", "host functions", ""};

// The callbacks waiting for one subscribed thread.
struct Channel {
    struct Item {
        aclrtCallback fn;
        void* user_data;
        cpu::SuspendToken token;  // valid for blocking callbacks
        Stream* stream;           // blocking callbacks: valid while the token is held
        bool block;
    };
    std::mutex mutex;
    std::condition_variable ready;
    std::vector<Item> pending;
    std::atomic<uint64_t> queued{0};  // items in `pending`: lets the thread spin without the lock
    int32_t device = -1;              // a thread serves streams of one device only
    uint32_t streams = 0;             // streams subscribed to this thread (Subscriptions::mutex)
};

struct Subscriptions {
    explicit Subscriptions(const Kind& k) : kind(k) {}
    const Kind& kind;
    std::mutex mutex;
    // Channels are never freed: a callback task in flight may still point at one.
    std::unordered_map<uint64_t, std::unique_ptr<Channel>> channels;
    std::unordered_map<const Stream*, uint64_t> stream_thread;
    // stream_thread.size(), readable without the lock: launches on streams of a kind nobody
    // subscribes (host functions, mostly) skip the lock.
    std::atomic<size_t> subscribed{0};
};

Subscriptions& ReportSubs() {
    static auto* subs = new Subscriptions(kReports);
    return *subs;
}

Subscriptions& HostFuncSubs() {
    static auto* subs = new Subscriptions(kHostFuncs);
    return *subs;
}

uint64_t SelfId() {
    return static_cast<uint64_t>(pthread_self());
}

// Lets a blocking callback's stream go on, on whichever engine holds it.
void Release(cpu::SuspendToken token, cpu::TaskStatus status = cpu::TaskStatus::Done()) {
    if (backend::IsLaneToken(token)) {
        backend::CompleteHostTask(token, status);
    } else {
        cpu::Executor::Complete(token, status);
    }
}

void Push(Channel* channel, const Channel::Item& item) {
    {
        std::lock_guard lock(channel->mutex);
        channel->pending.push_back(item);
        channel->queued.fetch_add(1, std::memory_order_release);
    }
    channel->ready.notify_one();
}

aclError Subscribe(Subscriptions& subs, uint64_t thread_id, Stream* stream) {
    std::lock_guard lock(subs.mutex);
    if (auto it = subs.stream_thread.find(stream); it != subs.stream_thread.end()) {
        return Fail(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                    "stream %p is already subscribed by thread %llu: a stream has one "
                    "%s thread",
                    static_cast<void*>(stream), static_cast<unsigned long long>(it->second),
                    subs.kind.item);
    }
    int32_t device = stream->context()->device()->id();
    auto found = subs.channels.find(thread_id);
    if (found == subs.channels.end()) {
        if (subs.channels.size() >= kMaxSubscribedThreads) {
            return Fail(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                        "%zu threads are already subscribed, the most a process may have",
                        kMaxSubscribedThreads);
        }
        found = subs.channels.emplace(thread_id, std::make_unique<Channel>()).first;
    }
    Channel& channel = *found->second;
    if (channel.device >= 0 && channel.device != device) {
        bool serves_others = false;
        for (const auto& [s, tid] : subs.stream_thread)
            serves_others |= tid == thread_id;
        if (serves_others) {
            return Fail(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                        "thread %llu already serves streams of device %d; one thread may only "
                        "serve streams of one device (stream %p is on device %d)",
                        static_cast<unsigned long long>(thread_id), channel.device,
                        static_cast<void*>(stream), device);
        }
    }
    channel.device = device;
    ++channel.streams;
    subs.stream_thread[stream] = thread_id;
    subs.subscribed.store(subs.stream_thread.size(), std::memory_order_release);
    return ACL_SUCCESS;
}

aclError Unsubscribe(Subscriptions& subs, uint64_t thread_id, Stream* stream) {
    std::lock_guard lock(subs.mutex);
    auto it = subs.stream_thread.find(stream);
    if (it == subs.stream_thread.end() || it->second != thread_id) {
        return Fail(ACL_ERROR_RT_STREAM_NO_CB_REG,
                    "thread %llu is not subscribed to stream %p (%s)",
                    static_cast<unsigned long long>(thread_id), static_cast<void*>(stream),
                    subs.kind.subscribe);
    }
    --subs.channels[thread_id]->streams;
    subs.stream_thread.erase(it);
    subs.subscribed.store(subs.stream_thread.size(), std::memory_order_release);
    return ACL_SUCCESS;
}

void Forget(Subscriptions& subs, Stream* stream) {
    std::lock_guard lock(subs.mutex);
    auto it = subs.stream_thread.find(stream);
    if (it == subs.stream_thread.end()) return;
    --subs.channels[it->second]->streams;
    subs.stream_thread.erase(it);
    subs.subscribed.store(subs.stream_thread.size(), std::memory_order_release);
}

// The channel of the thread subscribed to `stream`, or nullptr.
Channel* ChannelOf(Subscriptions& subs, Stream* stream) {
    if (subs.subscribed.load(std::memory_order_acquire) == 0) return nullptr;
    std::lock_guard lock(subs.mutex);
    auto it = subs.stream_thread.find(stream);
    return it != subs.stream_thread.end() ? subs.channels[it->second].get() : nullptr;
}

// Submits the task that hands an item to `channel` when the stream reaches it; a blocking item
// holds the stream until the thread has run it.
void SubmitHandOver(Channel* channel, aclrtCallback fn, void* user_data, bool blocking,
                    Stream* stream, const trace::Label& label) {
    const cpu::Task task =
        cpu::MakeTask([channel, fn, user_data, stream, blocking](cpu::TaskContext& ctx) {
            Push(channel, {fn, user_data, ctx.token(), stream, blocking});
            return blocking ? cpu::TaskStatus::Suspended() : cpu::TaskStatus::Done();
        });
    stream->Submit(task, label);
}

aclError Process(Subscriptions& subs, int32_t timeout_ms) {
    Channel* channel = nullptr;
    {
        std::lock_guard lock(subs.mutex);
        auto it = subs.channels.find(SelfId());
        // A thread unsubscribed from its last stream still runs what it was handed before.
        if (it != subs.channels.end() &&
            (it->second->streams > 0 || it->second->queued.load(std::memory_order_acquire) > 0)) {
            channel = it->second.get();
        }
    }
    if (channel == nullptr) {
        // As CANN's runtime does, at once and whatever the timeout: media programs start their
        // report thread before the channel that subscribes it, and loop on this until then
        // (CANN logs it at INFO; the log's repeat limit keeps such a loop from flooding it
        // here). The yield lets that loop leave the CPU to the threads it waits for.
        std::this_thread::yield();
        return FailQuietly(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                           "the calling thread (%llu) is not subscribed to any stream: call %s "
                           "with this thread's id first%s",
                           static_cast<unsigned long long>(SelfId()), subs.kind.subscribe,
                           subs.kind.other_subscribers);
    }
    // Spin briefly: a callback launched moments ago is picked up without a sleep and wake-up.
    // After the first few microseconds the spin yields the CPU between polls: with the stream's
    // worker and the launching thread also awake, a 2-core machine has more runnable threads
    // than cores, and a pure spin would keep one of them (often the launcher) off a CPU until
    // the spin ends, so the callback would arrive only after both had gone to sleep.
    const int64_t spin_ns = static_cast<int64_t>(Runtime::Get().config().spin_us) * 1000;
    const int64_t spin_end = cpu::NowNs() + spin_ns;
    for (unsigned i = 0; channel->queued.load(std::memory_order_acquire) == 0;) {
        if (cpu::NowNs() >= spin_end) break;
        cpu::Backoff(i);
    }
    // Swapped with `pending`, so both vectors keep their capacity: no allocation per call.
    thread_local std::vector<Channel::Item> batch;
    batch.clear();
    {
        // The wait holds only the channel, which is never freed: streams destroyed meanwhile
        // must not wait for it to end to be freed (a report thread may wait forever).
        UnpinnedWait unpinned;
        std::unique_lock lock(channel->mutex);
        auto has_work = [channel] { return !channel->pending.empty(); };
        if (timeout_ms < 0) {
            channel->ready.wait(lock, has_work);
        } else if (!channel->ready.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                                            has_work)) {
            return FailQuietly(ACL_ERROR_RT_REPORT_TIMEOUT, "no %s arrived within %d ms",
                               subs.kind.item, timeout_ms);
        }
        batch.swap(channel->pending);
        channel->queued.store(0, std::memory_order_relaxed);
    }
    std::string failure;
    for (const Channel::Item& item : batch) {
        const std::string thrown = RunUserCode(item.fn, item.user_data);
        if (thrown.empty()) {
            if (item.block) Release(item.token);
            continue;
        }
        // The stream may have been destroyed with ...Force while its callback waited here, and
        // its memory reclaimed before this call began: it is touched only while its task
        // still holds it (a device lane cannot drop a host task, so its stream waits).
        if (item.block && (backend::IsLaneToken(item.token) || cpu::Executor::IsHeld(item.token))) {
            item.stream->NoteFailure("%s %p threw %s", subs.kind.item,
                                     reinterpret_cast<void*>(item.fn), thrown.c_str());
        }
        if (item.block) Release(item.token, cpu::TaskStatus::Failed(ACL_ERROR_RT_FAILURE));
        if (failure.empty()) {
            char name[32];
            std::snprintf(name, sizeof name, "%p", reinterpret_cast<void*>(item.fn));
            failure = std::string(subs.kind.item) + " " + name + " threw " + thrown;
        }
    }
    if (!failure.empty()) {
        return Fail(ACL_ERROR_RT_FAILURE,
                    "%s; %s must not throw (the exception was caught here, and a blocking "
                    "%s's stream reports it at its next synchronize)",
                    failure.c_str(), subs.kind.items, subs.kind.item);
    }
    return ACL_SUCCESS;
}

}  // namespace

aclError SubscribeReport(uint64_t thread_id, Stream* stream) {
    return Subscribe(ReportSubs(), thread_id, stream);
}

aclError UnsubscribeReport(uint64_t thread_id, Stream* stream) {
    return Unsubscribe(ReportSubs(), thread_id, stream);
}

aclError LaunchCallback(aclrtCallback fn, void* user_data, aclrtCallbackBlockType block,
                        Stream* stream) {
    Channel* channel = ChannelOf(ReportSubs(), stream);
    if (channel == nullptr) {
        return Fail(ACL_ERROR_RT_STREAM_NO_CB_REG,
                    "no thread is subscribed to stream %p: start a thread that loops on "
                    "aclrtProcessReport and call aclrtSubscribeReport(its id, stream) first",
                    static_cast<void*>(stream));
    }
    const bool blocking = block == ACL_CALLBACK_BLOCK;
    SubmitHandOver(channel, fn, user_data, blocking, stream,
                   {trace::Kind::kCallback, blocking ? 1u : 0u});
    return ACL_SUCCESS;
}

aclError ProcessReport(int32_t timeout_ms) {
    return Process(ReportSubs(), timeout_ms);
}

aclError SubscribeHostFunc(uint64_t thread_id, Stream* stream) {
    return Subscribe(HostFuncSubs(), thread_id, stream);
}

aclError UnsubscribeHostFunc(uint64_t thread_id, Stream* stream) {
    return Unsubscribe(HostFuncSubs(), thread_id, stream);
}

bool LaunchSubscribedHostFunc(aclrtHostFunc fn, void* args, Stream* stream, aclError* rc) {
    Channel* channel = ChannelOf(HostFuncSubs(), stream);
    if (channel == nullptr) return false;
    // A host function holds its stream until it has run, wherever it runs.
    SubmitHandOver(channel, fn, args, true, stream,
                   {trace::Kind::kHostFunc, reinterpret_cast<uintptr_t>(fn)});
    *rc = ACL_SUCCESS;
    return true;
}

aclError ProcessHostFunc(int32_t timeout_ms) {
    return Process(HostFuncSubs(), timeout_ms);
}

void ForgetStreamSubscriptions(Stream* stream) {
    Forget(ReportSubs(), stream);
    Forget(HostFuncSubs(), stream);
}

std::string RunUserCode(void (*fn)(void*), void* data) {
    try {
        fn(data);
        return {};
    } catch (const std::exception& e) {
        return std::string("an exception: ") + e.what();
    } catch (...) {
        return "an exception that is no std::exception";
    }
}

}  // namespace openacl
