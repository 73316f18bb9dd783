#include "tdt/queue.h"

#include <unistd.h>

#include <cstring>
#include <map>
#include <new>

#include "acl/error_codes/rt_error_codes.h"
#include "core/error.h"
#include "core/live_set.h"
#include "tdt/queue_route.h"

namespace openacl::tdt {

namespace {

constexpr uint32_t kAllPermissions = ACL_TDT_QUEUE_PERMISSION_MANAGE |
                                     ACL_TDT_QUEUE_PERMISSION_DEQUEUE |
                                     ACL_TDT_QUEUE_PERMISSION_ENQUEUE;

struct Registry {
    std::mutex mutex;
    std::map<uint32_t, std::shared_ptr<Queue>> queues;
    uint32_t next_id = 0;  // ids are not reused, so a stale id never names a newer queue
};
Registry& Queues() {
    static Registry* registry = new Registry;  // outlives static destructors
    return *registry;
}

LiveSet<tagMemQueueAttr>& Attrs() {
    static auto* attrs = new LiveSet<tagMemQueueAttr>;
    return *attrs;
}

void SetDefaults(tagMemQueueAttr* attr) {
    std::memset(attr->name, 0, sizeof(attr->name));
    attr->depth = kDefaultQueueDepth;
}

// After a routed queue changed, outside its lock.
void Changed(const Queue& queue) {
    if (queue.routed()) NotifyRouter();
}

aclError FailDestroyedWhileWaiting(uint32_t qid) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "queue %u was destroyed while the call waited", qid);
}

// Puts the queued chain `item` on `queue`, waiting for room. On failure the item is the
// caller's still.
aclError Push(Queue& queue, MbufHandle item, int32_t timeout_ms) {
    {
        std::unique_lock lock(queue.mutex());
        const bool room = queue.Wait(lock, timeout_ms, [&] { return !queue.Full(); });
        if (queue.destroyed()) return FailDestroyedWhileWaiting(queue.id());
        if (!room)
            return FailQuietly(ACL_ERROR_RT_QUEUE_FULL,
                               "queue %u is full (depth %u) and stayed so for the %d ms timeout",
                               queue.id(), queue.depth(), timeout_ms);
        queue.Push(item);
    }
    Changed(queue);
    return ACL_SUCCESS;
}

aclError FailEmpty(const Queue& queue, int32_t timeout_ms) {
    return FailQuietly(ACL_ERROR_RT_QUEUE_EMPTY,
                       "queue %u is empty and stayed so for the %d ms timeout", queue.id(),
                       timeout_ms);
}

}  // namespace

std::shared_ptr<Queue> FindQueue(uint32_t qid) {
    Registry& r = Queues();
    std::lock_guard lock(r.mutex);
    auto it = r.queues.find(qid);
    return it == r.queues.end() ? nullptr : it->second;
}

std::shared_ptr<Queue> FindQueueOrFail(uint32_t qid) {
    std::shared_ptr<Queue> queue = FindQueue(qid);
    if (queue == nullptr)
        Fail(ACL_ERROR_RT_PARAM_INVALID,
             "qid %u is not a queue of this process (never created, or destroyed)", qid);
    return queue;
}

aclError CreateQueue(const tagMemQueueAttr* attr, uint32_t* qid) {
    if (qid == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "qid is null");
    tagMemQueueAttr defaults;
    if (attr == nullptr) {
        SetDefaults(&defaults);
        attr = &defaults;
    } else if (!Attrs().Contains(attr)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "attr %p is not a live queue attribute (destroyed already, or not made by "
                    "acltdtCreateQueueAttr)",
                    static_cast<const void*>(attr));
    }
    if (attr->depth < kMinQueueDepth)
        return Fail(ACL_ERROR_RT_PARAM_INVALID, "depth %u is below %u, the least a queue has",
                    attr->depth, kMinQueueDepth);
    Registry& r = Queues();
    std::lock_guard lock(r.mutex);
    const uint32_t id = r.next_id++;
    std::string name(attr->name, strnlen(attr->name, sizeof(attr->name)));
    if (name.empty()) name = "openacl_queue_" + std::to_string(id);
    auto queue = std::make_shared<Queue>(id, std::move(name), attr->depth);
    r.queues.emplace(id, std::move(queue));
    *qid = id;
    return ACL_SUCCESS;
}

aclError DestroyQueue(uint32_t qid) {
    std::shared_ptr<Queue> queue;
    {
        std::unique_lock routes = LockRoutes();
        queue = FindQueueOrFail(qid);
        if (queue == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
        if (IsRoutedLocked(qid))
            return Fail(ACL_ERROR_FAILURE,
                        "queue %u is bound in a route: unbind its routes before destroying it",
                        qid);
        Registry& r = Queues();
        std::lock_guard lock(r.mutex);
        r.queues.erase(qid);
    }
    std::deque<MbufHandle> left;
    {
        std::lock_guard lock(queue->mutex());
        left = queue->Close();
    }
    for (MbufHandle item : left)
        FreeQueued(item);
    return ACL_SUCCESS;
}

aclError Enqueue(uint32_t qid, MbufHandle buf, int32_t timeout_ms) {
    std::shared_ptr<Queue> queue = FindQueueOrFail(qid);
    if (queue == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    if (aclError rc = TakeForQueue(buf, qid); rc != ACL_SUCCESS) return rc;
    const aclError rc = Push(*queue, buf, timeout_ms);
    if (rc != ACL_SUCCESS) ReturnFromQueue(buf);
    return rc;
}

aclError Dequeue(uint32_t qid, MbufHandle* buf, int32_t timeout_ms) {
    if (buf == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "buf is null");
    std::shared_ptr<Queue> queue = FindQueueOrFail(qid);
    if (queue == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    MbufHandle item = nullptr;
    {
        std::unique_lock lock(queue->mutex());
        const bool ready = queue->Wait(lock, timeout_ms, [&] { return !queue->Empty(); });
        if (queue->destroyed()) return FailDestroyedWhileWaiting(qid);
        if (!ready) return FailEmpty(*queue, timeout_ms);
        item = queue->Pop();
    }
    Changed(*queue);
    ReturnFromQueue(item);
    *buf = item;
    return ACL_SUCCESS;
}

namespace {

// The user-data arguments of EnqueueData and DequeueData.
aclError CheckUserData(const void* user_data, size_t user_data_size) {
    if (user_data_size > kMbufUserDataSize)
        return Fail(ACL_ERROR_INVALID_PARAM, "userDataSize %zu is above %zu, the user-data area",
                    user_data_size, kMbufUserDataSize);
    if (user_data == nullptr && user_data_size != 0)
        return Fail(ACL_ERROR_INVALID_PARAM, "userData is null but userDataSize is %zu",
                    user_data_size);
    return ACL_SUCCESS;
}

}  // namespace

aclError EnqueueData(uint32_t qid, const void* data, size_t size, const void* user_data,
                     size_t user_data_size, int32_t timeout_ms) {
    if (data == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "data is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "dataSize is 0");
    if (size > kMaxMbufSize)
        return Fail(ACL_ERROR_INVALID_PARAM, "dataSize %zu is above 4 GiB, the most an item holds",
                    size);
    if (aclError rc = CheckUserData(user_data, user_data_size)) return rc;
    std::shared_ptr<Queue> queue = FindQueueOrFail(qid);
    if (queue == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    MbufHandle item = NewQueuedMbuf(qid, data, size, user_data, user_data_size);
    if (item == nullptr) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    const aclError rc = Push(*queue, item, timeout_ms);
    if (rc != ACL_SUCCESS) FreeQueued(item);
    return rc;
}

aclError DequeueData(uint32_t qid, void* data, size_t size, size_t* returned_size, void* user_data,
                     size_t user_data_size, int32_t timeout_ms) {
    if (data == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "data is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "dataSize is 0");
    if (returned_size == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "retDataSize is null");
    if (aclError rc = CheckUserData(user_data, user_data_size)) return rc;
    std::shared_ptr<Queue> queue = FindQueueOrFail(qid);
    if (queue == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    MbufHandle item = nullptr;
    size_t item_size = 0;
    {
        std::unique_lock lock(queue->mutex());
        const bool ready = queue->Wait(lock, timeout_ms, [&] { return !queue->Empty(); });
        if (queue->destroyed()) return FailDestroyedWhileWaiting(qid);
        if (!ready) return FailEmpty(*queue, timeout_ms);
        item_size = QueuedDataLen(queue->Front());
        *returned_size = item_size;
        // The item stays queued, so the caller can dequeue it again with a big enough buffer.
        if (item_size > size)
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "dataSize %zu is less than the %zu bytes of the item at the front of "
                        "queue %u (left in the queue)",
                        size, item_size, qid);
        item = queue->Pop();
    }
    Changed(*queue);
    CopyQueuedOut(item, data, size, user_data, user_data_size);
    FreeQueued(item);
    return ACL_SUCCESS;
}

aclError GrantQueue(uint32_t qid, int32_t pid, uint32_t permission) {
    if (permission == 0 || (permission & ~kAllPermissions) != 0)
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "permission 0x%x is not a combination of ACL_TDT_QUEUE_PERMISSION_MANAGE, "
                    "_DEQUEUE and _ENQUEUE",
                    permission);
    if (pid <= 0) return Fail(ACL_ERROR_INVALID_PARAM, "pid %d is not a process id", pid);
    if (FindQueueOrFail(qid) == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    // The creating process holds every permission already.
    if (pid == getpid()) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "queue %u cannot be granted to process %d: openacl's queues live in the process "
                "that creates them and are not shared with other processes",
                qid, pid);
}

aclError AttachQueue(uint32_t qid, uint32_t* permission) {
    if (permission == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "permission is null");
    if (FindQueue(qid) == nullptr)
        return Fail(ACL_ERROR_RT_PARAM_INVALID,
                    "qid %u is not a queue of this process: openacl's queues are not shared "
                    "with other processes, so only the creating process attaches",
                    qid);
    *permission = kAllPermissions;
    return ACL_SUCCESS;
}

tagMemQueueAttr* CreateQueueAttr() {
    auto* attr = new (std::nothrow) tagMemQueueAttr;
    if (attr == nullptr) {
        Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for a queue attribute");
        return nullptr;
    }
    SetDefaults(attr);
    return Attrs().Add(attr);
}

aclError DestroyQueueAttr(const tagMemQueueAttr* attr) {
    if (attr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "attr is null");
    if (!Attrs().Remove(attr))
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "attr %p is not a live queue attribute (destroyed already, or not made by "
                    "acltdtCreateQueueAttr)",
                    static_cast<const void*>(attr));
    delete attr;
    return ACL_SUCCESS;
}

namespace {
aclError CheckAttr(const tagMemQueueAttr* attr, const void* param) {
    if (attr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "attr is null");
    if (param == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "param is null");
    if (!Attrs().Contains(attr))
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "attr %p is not a live queue attribute (destroyed already, or not made by "
                    "acltdtCreateQueueAttr)",
                    static_cast<const void*>(attr));
    return ACL_SUCCESS;
}
aclError FailUnknownAttr(acltdtQueueAttrType type) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "type %d is not ACL_TDT_QUEUE_NAME_PTR or ACL_TDT_QUEUE_DEPTH_UINT32",
                static_cast<int>(type));
}
}  // namespace

aclError SetQueueAttr(tagMemQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                      const void* param) {
    if (aclError rc = CheckAttr(attr, param); rc != ACL_SUCCESS) return rc;
    switch (type) {
        case ACL_TDT_QUEUE_NAME_PTR: {
            if (len != sizeof(const char*))
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "len %zu is not %zu: param points to the name's pointer", len,
                            sizeof(const char*));
            const char* name = *static_cast<const char* const*>(param);
            if (name == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "the name is null");
            const size_t n = strnlen(name, kQueueNameCapacity);
            if (n >= kQueueNameCapacity)
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "the name is %zu characters or more; a queue name has at most %zu", n,
                            kQueueNameCapacity - 1);
            std::memset(attr->name, 0, sizeof(attr->name));
            std::memcpy(attr->name, name, n);
            return ACL_SUCCESS;
        }
        case ACL_TDT_QUEUE_DEPTH_UINT32:
            if (len != sizeof(uint32_t))
                return Fail(ACL_ERROR_INVALID_PARAM, "len %zu is not %zu, a uint32_t's size", len,
                            sizeof(uint32_t));
            std::memcpy(&attr->depth, param, sizeof(uint32_t));
            return ACL_SUCCESS;
    }
    return FailUnknownAttr(type);
}

aclError GetQueueAttr(const tagMemQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                      size_t* returned_size, void* param) {
    if (aclError rc = CheckAttr(attr, param); rc != ACL_SUCCESS) return rc;
    if (returned_size == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "paramRetSize is null");
    switch (type) {
        case ACL_TDT_QUEUE_NAME_PTR: {
            if (len < sizeof(const char*))
                return Fail(ACL_ERROR_INVALID_PARAM, "len %zu is less than a pointer's %zu bytes",
                            len, sizeof(const char*));
            const char* name = attr->name;  // the attribute's own copy, valid while it lives
            std::memcpy(param, &name, sizeof(name));
            *returned_size = sizeof(name);
            return ACL_SUCCESS;
        }
        case ACL_TDT_QUEUE_DEPTH_UINT32:
            if (len < sizeof(uint32_t))
                return Fail(ACL_ERROR_INVALID_PARAM, "len %zu is less than a uint32_t's %zu bytes",
                            len, sizeof(uint32_t));
            std::memcpy(param, &attr->depth, sizeof(uint32_t));
            *returned_size = sizeof(uint32_t);
            return ACL_SUCCESS;
    }
    return FailUnknownAttr(type);
}

}  // namespace openacl::tdt
