#include "core/callback.h"

#include <pthread.h>

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
    std::mutex mutex;
    // Channels are never freed: a callback task in flight may still point at one.
    std::unordered_map<uint64_t, std::unique_ptr<Channel>> channels;
    std::unordered_map<const Stream*, uint64_t> stream_thread;
};

Subscriptions& Subs() {
    static auto* subs = new Subscriptions;
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

}  // namespace

aclError SubscribeReport(uint64_t thread_id, Stream* stream) {
    Subscriptions& subs = Subs();
    std::lock_guard lock(subs.mutex);
    if (auto it = subs.stream_thread.find(stream); it != subs.stream_thread.end()) {
        return Fail(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                    "stream %p is already subscribed by thread %llu: a stream has one "
                    "callback thread",
                    static_cast<void*>(stream), static_cast<unsigned long long>(it->second));
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
    return ACL_SUCCESS;
}

aclError UnsubscribeReport(uint64_t thread_id, Stream* stream) {
    Subscriptions& subs = Subs();
    std::lock_guard lock(subs.mutex);
    auto it = subs.stream_thread.find(stream);
    if (it == subs.stream_thread.end() || it->second != thread_id) {
        return Fail(ACL_ERROR_RT_STREAM_NO_CB_REG,
                    "thread %llu is not subscribed to stream %p (aclrtSubscribeReport)",
                    static_cast<unsigned long long>(thread_id), static_cast<void*>(stream));
    }
    --subs.channels[thread_id]->streams;
    subs.stream_thread.erase(it);
    return ACL_SUCCESS;
}

void ForgetStreamSubscriptions(Stream* stream) {
    Subscriptions& subs = Subs();
    std::lock_guard lock(subs.mutex);
    auto it = subs.stream_thread.find(stream);
    if (it == subs.stream_thread.end()) return;
    --subs.channels[it->second]->streams;
    subs.stream_thread.erase(it);
}

aclError LaunchCallback(aclrtCallback fn, void* user_data, aclrtCallbackBlockType block,
                        Stream* stream) {
    Channel* channel = nullptr;
    {
        Subscriptions& subs = Subs();
        std::lock_guard lock(subs.mutex);
        auto it = subs.stream_thread.find(stream);
        if (it != subs.stream_thread.end()) channel = subs.channels[it->second].get();
    }
    if (channel == nullptr) {
        return Fail(ACL_ERROR_RT_STREAM_NO_CB_REG,
                    "no thread is subscribed to stream %p: start a thread that loops on "
                    "aclrtProcessReport and call aclrtSubscribeReport(its id, stream) first",
                    static_cast<void*>(stream));
    }
    bool blocking = block == ACL_CALLBACK_BLOCK;
    const cpu::Task task =
        cpu::MakeTask([channel, fn, user_data, stream, blocking](cpu::TaskContext& ctx) {
            Push(channel, {fn, user_data, ctx.token(), stream, blocking});
            // A blocking callback holds the stream until the subscribed thread has run it.
            return blocking ? cpu::TaskStatus::Suspended() : cpu::TaskStatus::Done();
        });
    stream->Submit(task, {trace::Kind::kCallback, blocking ? 1u : 0u});
    return ACL_SUCCESS;
}

aclError ProcessReport(int32_t timeout_ms) {
    Channel* channel = nullptr;
    {
        Subscriptions& subs = Subs();
        std::lock_guard lock(subs.mutex);
        auto it = subs.channels.find(SelfId());
        if (it != subs.channels.end() && it->second->streams > 0) channel = it->second.get();
    }
    if (channel == nullptr) {
        // As CANN's runtime does, at once and whatever the timeout: media programs start their
        // report thread before the channel that subscribes it, and loop on this until then
        // (CANN logs it at INFO; the log's repeat limit keeps such a loop from flooding it
        // here). The yield lets that loop leave the CPU to the threads it waits for.
        std::this_thread::yield();
        return FailQuietly(
            ACL_ERROR_RT_THREAD_SUBSCRIBE,
            "the calling thread (%llu) is not subscribed to any stream: call "
            "aclrtSubscribeReport with this thread's id first (or create the VDEC/VENC "
            "channel that names it)",
            static_cast<unsigned long long>(SelfId()));
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
            return FailQuietly(ACL_ERROR_RT_REPORT_TIMEOUT, "no callback arrived within %d ms",
                               timeout_ms);
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
            item.stream->NoteFailure("callback %p threw %s", reinterpret_cast<void*>(item.fn),
                                     thrown.c_str());
        }
        if (item.block) Release(item.token, cpu::TaskStatus::Failed(ACL_ERROR_RT_FAILURE));
        if (failure.empty()) {
            char name[32];
            std::snprintf(name, sizeof name, "%p", reinterpret_cast<void*>(item.fn));
            failure = std::string("callback ") + name + " threw " + thrown;
        }
    }
    if (!failure.empty()) {
        return Fail(ACL_ERROR_RT_FAILURE,
                    "%s; callbacks must not throw (the exception was caught "
                    "here, and a blocking callback's stream reports it at its next synchronize)",
                    failure.c_str());
    }
    return ACL_SUCCESS;
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
