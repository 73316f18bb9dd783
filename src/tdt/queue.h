// TDT queues (acl_tdt_queue.h): bounded FIFOs of mbuf chains named by a 32-bit id, living in
// the process that creates them. acltdtEnqueue hands a chain to the queue, acltdtDequeue hands
// it back; acltdtEnqueueData/DequeueData copy plain bytes in and out through an mbuf of the
// queue's own. A full queue holds back enqueues and an empty one dequeues for the caller's
// timeout: -1 for ever, 0 not at all, otherwise milliseconds; then the call answers
// ACL_ERROR_RT_QUEUE_FULL or ACL_ERROR_RT_QUEUE_EMPTY.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "acl/acl_tdt_queue.h"
#include "core/error.h"
#include "tdt/mbuf.h"

// acltdtQueueAttr. The public header leaves it opaque; its tag is CANN's.
struct tagMemQueueAttr {
    char name[128];
    uint32_t depth;
};

namespace openacl::tdt {

constexpr size_t kQueueNameCapacity = sizeof(tagMemQueueAttr::name);  // with the final '\0'
constexpr uint32_t kDefaultQueueDepth = 8;
constexpr uint32_t kMinQueueDepth = 2;

class Queue {
 public:
    Queue(uint32_t id, std::string name, uint32_t depth)
        : id_(id), name_(std::move(name)), depth_(depth) {}
    uint32_t id() const { return id_; }
    const std::string& name() const { return name_; }
    uint32_t depth() const { return depth_; }

    // The lock guarding the items; a route's forwarding takes several, in ascending id order.
    std::mutex& mutex() { return mutex_; }
    // With the lock held.
    bool destroyed() const { return destroyed_; }
    bool Full() const { return items_.size() >= depth_; }
    bool Empty() const { return items_.empty(); }
    MbufHandle Front() const { return items_.front(); }
    void Push(MbufHandle item) {
        items_.push_back(item);
        changed_.notify_all();
    }
    MbufHandle Pop() {
        MbufHandle item = items_.front();
        items_.pop_front();
        changed_.notify_all();
        return item;
    }
    // Marks the queue destroyed, wakes its waiters and returns the items left.
    std::deque<MbufHandle> Close() {
        destroyed_ = true;
        changed_.notify_all();
        return std::move(items_);
    }
    // Waits (lock held through `lock`) until `ready()` or the queue is destroyed, for at most
    // `timeout_ms` (-1: for ever). False when time ran out first.
    template <typename Ready>
    bool Wait(std::unique_lock<std::mutex>& lock, int32_t timeout_ms, Ready ready);

    // Whether a bound route reads or writes the queue (the router wants its changes).
    bool routed() const { return routed_.load(std::memory_order_acquire); }
    void set_routed(bool routed) { routed_.store(routed, std::memory_order_release); }

 private:
    const uint32_t id_;
    const std::string name_;
    const uint32_t depth_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<MbufHandle> items_;
    bool destroyed_ = false;
    std::atomic<bool> routed_{false};
};

template <typename Ready>
bool Queue::Wait(std::unique_lock<std::mutex>& lock, int32_t timeout_ms, Ready ready) {
    auto done = [&] { return destroyed_ || ready(); };
    if (done()) return true;
    if (timeout_ms == 0) return false;
    // A wait may last for ever: it must not hold back the reclamation of other objects.
    UnpinnedWait unpinned;
    if (timeout_ms < 0) {
        changed_.wait(lock, done);
        return true;
    }
    return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done);
}

// The live queue `qid`, or nullptr.
std::shared_ptr<Queue> FindQueue(uint32_t qid);
// The live queue `qid`, or nullptr after Fail(ACL_ERROR_RT_PARAM_INVALID).
std::shared_ptr<Queue> FindQueueOrFail(uint32_t qid);

aclError CreateQueue(const tagMemQueueAttr* attr, uint32_t* qid);
aclError DestroyQueue(uint32_t qid);
aclError Enqueue(uint32_t qid, MbufHandle buf, int32_t timeout_ms);
aclError Dequeue(uint32_t qid, MbufHandle* buf, int32_t timeout_ms);
aclError EnqueueData(uint32_t qid, const void* data, size_t size, const void* user_data,
                     size_t user_data_size, int32_t timeout_ms);
aclError DequeueData(uint32_t qid, void* data, size_t size, size_t* returned_size, void* user_data,
                     size_t user_data_size, int32_t timeout_ms);
aclError GrantQueue(uint32_t qid, int32_t pid, uint32_t permission);
aclError AttachQueue(uint32_t qid, uint32_t* permission);

// Queue attribute descriptors.
tagMemQueueAttr* CreateQueueAttr();
aclError DestroyQueueAttr(const tagMemQueueAttr* attr);
aclError SetQueueAttr(tagMemQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                      const void* param);
aclError GetQueueAttr(const tagMemQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                      size_t* returned_size, void* param);

}  // namespace openacl::tdt
