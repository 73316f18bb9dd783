// Helpers for the tests of the asynchronous engine (streams, events, async copies, callbacks):
// a gate that holds a stream with a host function until the test opens it, bounded waits, and
// buffers that free themselves. Nothing here can hang a test: every wait has a time limit.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>

#include "acl/acl.h"

namespace async_test {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// How long a gate holds its stream at most when a (failing) test never opens it.
constexpr auto kGateLimit = 5s;

// Polls `done` until it returns true or `timeout` passes; returns its last answer.
template <typename Pred>
bool WaitUntil(Pred done, std::chrono::milliseconds timeout = 2000ms) {
    const auto deadline = Clock::now() + timeout;
    while (!done()) {
        if (Clock::now() >= deadline) return done();
        std::this_thread::sleep_for(200us);
    }
    return true;
}

// Holds streams: Block(stream) enqueues a host function that waits until Open() (or
// kGateLimit). The state is shared with the queued host functions, so a gate may go out of
// scope (which opens it) before they have run.
class Gate {
 public:
    Gate() : state_(std::make_shared<State>()) {}
    ~Gate() { Open(); }
    Gate(const Gate&) = delete;
    Gate& operator=(const Gate&) = delete;

    aclError Block(aclrtStream stream) {
        auto* ref = new std::shared_ptr<State>(state_);
        aclError rc = aclrtLaunchHostFunc(stream, &Gate::Hold, ref);
        if (rc != ACL_SUCCESS) delete ref;
        return rc;
    }
    void Open() {
        {
            std::lock_guard lock(state_->mutex);
            state_->open = true;
        }
        state_->changed.notify_all();
    }
    // Waits until `count` host functions have reached the gate.
    bool WaitEntered(int count = 1, std::chrono::milliseconds timeout = 2000ms) {
        std::unique_lock lock(state_->mutex);
        return state_->changed.wait_for(lock, timeout, [&] { return state_->entered >= count; });
    }
    // Waits until `count` host functions have passed the gate.
    bool WaitLeft(int count = 1, std::chrono::milliseconds timeout = 2000ms) {
        std::unique_lock lock(state_->mutex);
        return state_->changed.wait_for(lock, timeout, [&] { return state_->left >= count; });
    }
    int entered() const {
        std::lock_guard lock(state_->mutex);
        return state_->entered;
    }
    int left() const {
        std::lock_guard lock(state_->mutex);
        return state_->left;
    }
    // True when a host function gave up waiting: the test forgot to open the gate.
    bool gave_up() const {
        std::lock_guard lock(state_->mutex);
        return state_->gave_up;
    }

 private:
    struct State {
        mutable std::mutex mutex;
        std::condition_variable changed;
        bool open = false;
        bool gave_up = false;
        int entered = 0;
        int left = 0;
    };

    static void Hold(void* arg) {
        std::unique_ptr<std::shared_ptr<State>> ref(static_cast<std::shared_ptr<State>*>(arg));
        State& s = **ref;
        std::unique_lock lock(s.mutex);
        ++s.entered;
        s.changed.notify_all();
        if (!s.changed.wait_for(lock, kGateLimit, [&] { return s.open; })) s.gave_up = true;
        ++s.left;
        s.changed.notify_all();
    }

    std::shared_ptr<State> state_;
};

// Host functions for aclrtLaunchHostFunc.
inline void SetFlag(void* flag) {
    static_cast<std::atomic<int>*>(flag)->store(1);
}
inline void Increment(void* counter) {
    static_cast<std::atomic<int>*>(counter)->fetch_add(1);
}
inline void Sleep20ms(void*) {
    std::this_thread::sleep_for(20ms);
}

// Device memory from aclrtMalloc, freed at scope exit unless released.
class DeviceBuffer {
 public:
    explicit DeviceBuffer(size_t size) : size_(size) {
        EXPECT_EQ(aclrtMalloc(&ptr_, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    ~DeviceBuffer() {
        if (ptr_ != nullptr) aclrtFree(ptr_);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return ptr_; }
    size_t size() const { return size_; }
    // Frees it now (the test frees it itself, e.g. under a queued copy).
    aclError Free() {
        aclError rc = aclrtFree(ptr_);
        ptr_ = nullptr;
        return rc;
    }

 private:
    void* ptr_ = nullptr;
    size_t size_;
};

// Pinned host memory from aclrtMallocHost, freed at scope exit.
class PinnedBuffer {
 public:
    explicit PinnedBuffer(size_t size) : size_(size) {
        EXPECT_EQ(aclrtMallocHost(&ptr_, size), ACL_SUCCESS);
    }
    ~PinnedBuffer() {
        if (ptr_ != nullptr) aclrtFreeHost(ptr_);
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    void* get() const { return ptr_; }
    unsigned char* bytes() const { return static_cast<unsigned char*>(ptr_); }
    size_t size() const { return size_; }

 private:
    void* ptr_ = nullptr;
    size_t size_;
};

// An explicit stream of the current context, destroyed at scope exit.
class ScopedStream {
 public:
    ScopedStream() { EXPECT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS); }
    ~ScopedStream() {
        if (stream_ != nullptr) aclrtDestroyStream(stream_);
    }
    ScopedStream(const ScopedStream&) = delete;
    ScopedStream& operator=(const ScopedStream&) = delete;
    aclrtStream get() const { return stream_; }
    operator aclrtStream() const { return stream_; }  // NOLINT: used like a handle
    // Forgets the handle (the test destroyed the stream itself).
    aclrtStream release() {
        aclrtStream s = stream_;
        stream_ = nullptr;
        return s;
    }

 private:
    aclrtStream stream_ = nullptr;
};

}  // namespace async_test
