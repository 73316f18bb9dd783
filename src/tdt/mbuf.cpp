#include "tdt/mbuf.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "core/error.h"

namespace openacl::tdt {

namespace {

// A data area, shared by the heads aclrtCopyBufRef makes; freed with the last of them.
struct DataArea {
    explicit DataArea(size_t n) : size(n) {
        // 64-byte aligned, as device buffers are (aligned_alloc wants a multiple of 64).
        bytes =
            static_cast<uint8_t*>(std::aligned_alloc(64, (std::max<size_t>(n, 1) + 63) / 64 * 64));
    }
    ~DataArea() { std::free(bytes); }
    DataArea(const DataArea&) = delete;
    DataArea& operator=(const DataArea&) = delete;
    uint8_t* bytes = nullptr;
    const size_t size;
};

constexpr int64_t kNotQueued = -1;

struct Mbuf {
    MbufHandle handle = nullptr;
    std::shared_ptr<DataArea> area;
    size_t data_len = 0;
    uint8_t user_data[kMbufUserDataSize] = {};
    Mbuf* head = nullptr;            // set on an appended mbuf: the head of its chain
    std::vector<Mbuf*> members;      // on a head: the appended mbufs, in order
    int64_t queued_on = kNotQueued;  // on a head: the queue holding the chain
};

// Handles carry a tag in their top bits and a sequence number below: no heap address has them,
// and a freed handle's number is never handed out again.
constexpr uintptr_t kHandleTag = uintptr_t{0x6d62} << 48;

struct Registry {
    std::mutex mutex;
    std::unordered_map<MbufHandle, Mbuf*> live;
    uintptr_t next = 1;
};
Registry& Mbufs() {
    static Registry* registry = new Registry;  // outlives static destructors
    return *registry;
}

// A new mbuf over `area`, registered; nullptr when memory runs out. Registry lock held.
Mbuf* NewLocked(Registry& r, std::shared_ptr<DataArea> area) {
    Mbuf* m = new (std::nothrow) Mbuf;
    if (m == nullptr) return nullptr;
    m->area = std::move(area);
    m->handle = reinterpret_cast<MbufHandle>(kHandleTag | r.next++);
    r.live.emplace(m->handle, m);
    return m;
}

std::shared_ptr<DataArea> NewArea(size_t size) {
    std::shared_ptr<DataArea> area(new (std::nothrow) DataArea(size));
    if (area == nullptr || area->bytes == nullptr) return nullptr;
    return area;
}

// Frees a chain: its head and every member. Registry lock held.
void DeleteChainLocked(Registry& r, Mbuf* head) {
    for (Mbuf* member : head->members) {
        r.live.erase(member->handle);
        delete member;
    }
    r.live.erase(head->handle);
    delete head;
}

// The live mbuf behind `handle`, or nullptr after Fail naming `what`. Registry lock held.
Mbuf* FindLocked(Registry& r, MbufHandle handle, const char* what, aclError* rc) {
    if (handle == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "%s is null", what);
        return nullptr;
    }
    auto it = r.live.find(handle);
    if (it == r.live.end()) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "%s %p is not a live buffer (freed already, or not made by aclrtAllocBuf, "
                   "acltdtAllocBuf or aclrtCopyBufRef)",
                   what, handle);
        return nullptr;
    }
    return it->second;
}

// The queue holding the chain of `m`, or kNotQueued.
int64_t QueuedOn(const Mbuf* m) {
    return m->head != nullptr ? m->head->queued_on : m->queued_on;
}

// Fails when the application may not touch `m`: its chain is in a queue.
bool RefuseQueued(const Mbuf* m, const char* what, aclError* rc) {
    const int64_t qid = QueuedOn(m);
    if (qid == kNotQueued) return false;
    *rc = Fail(ACL_ERROR_INVALID_PARAM,
               "%s %p is in queue %lld: a buffer belongs to its queue from enqueue to dequeue",
               what, m->handle, static_cast<long long>(qid));
    return true;
}

// The live mbuf behind `handle` that the application may touch (not in a queue), or nullptr
// after Fail. Registry lock held.
Mbuf* FindOwnLocked(Registry& r, MbufHandle handle, const char* what, aclError* rc) {
    Mbuf* m = FindLocked(r, handle, what, rc);
    return m == nullptr || RefuseQueued(m, what, rc) ? nullptr : m;
}

// Runs body(registry, mbuf) under the registry's lock on the buffer `handle` names when the
// application may touch it; otherwise answers why not (unknown, freed, in a queue).
template <typename Body>
aclError WithOwn(MbufHandle handle, const char* what, Body&& body) {
    Registry& r = Mbufs();
    std::lock_guard lock(r.mutex);
    aclError rc = ACL_SUCCESS;
    Mbuf* m = FindOwnLocked(r, handle, what, &rc);
    return m == nullptr ? rc : body(r, m);
}

}  // namespace

aclError AllocMbuf(MbufHandle* buf, size_t size) {
    if (buf == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "buf is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size is 0: a buffer holds 1 byte or more");
    if (size > kMaxMbufSize)
        return Fail(ACL_ERROR_INVALID_PARAM, "size %zu is above 4 GiB, the most a buffer holds",
                    size);
    std::shared_ptr<DataArea> area = NewArea(size);
    if (area == nullptr)
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for a buffer of %zu bytes", size);
    Registry& r = Mbufs();
    std::lock_guard lock(r.mutex);
    Mbuf* m = NewLocked(r, std::move(area));
    if (m == nullptr) return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for a buffer head");
    *buf = m->handle;
    return ACL_SUCCESS;
}

aclError FreeMbuf(MbufHandle buf) {
    return WithOwn(buf, "buf", [&](Registry& r, Mbuf* m) {
        if (m->head != nullptr)
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "buf %p was appended to the chain headed by %p: freeing the head frees it",
                        buf, m->head->handle);
        DeleteChainLocked(r, m);
        return ACL_SUCCESS;
    });
}

aclError GetMbufData(MbufHandle buf, void** data, size_t* size) {
    if (data == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataPtr is null");
    if (size == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "size is null");
    return WithOwn(buf, "buf", [&](Registry&, Mbuf* m) {
        *data = m->area->bytes;
        *size = m->area->size;
        return ACL_SUCCESS;
    });
}

aclError GetMbufDataLen(MbufHandle buf, size_t* len) {
    if (len == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "len is null");
    return WithOwn(buf, "buf", [&](Registry&, Mbuf* m) {
        *len = m->data_len;
        return ACL_SUCCESS;
    });
}

aclError SetMbufDataLen(MbufHandle buf, size_t len) {
    return WithOwn(buf, "buf", [&](Registry&, Mbuf* m) {
        if (len > m->area->size)
            return Fail(ACL_ERROR_INVALID_PARAM, "len %zu is more than the buffer's %zu bytes", len,
                        m->area->size);
        m->data_len = len;
        return ACL_SUCCESS;
    });
}

namespace {
aclError CheckUserDataRange(size_t size, size_t offset) {
    if (size > kMbufUserDataSize || offset > kMbufUserDataSize - size)
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "size %zu at offset %zu leaves the %zu-byte user-data area", size, offset,
                    kMbufUserDataSize);
    return ACL_SUCCESS;
}
}  // namespace

aclError GetMbufUserData(MbufHandle buf, void* data, size_t size, size_t offset) {
    if (aclError rc = CheckUserDataRange(size, offset); rc != ACL_SUCCESS) return rc;
    if (data == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataPtr is null");
    return WithOwn(buf, "buf", [&](Registry&, Mbuf* m) {
        std::memcpy(data, m->user_data + offset, size);
        return ACL_SUCCESS;
    });
}

aclError SetMbufUserData(MbufHandle buf, const void* data, size_t size, size_t offset) {
    if (aclError rc = CheckUserDataRange(size, offset); rc != ACL_SUCCESS) return rc;
    if (data == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataPtr is null");
    return WithOwn(buf, "buf", [&](Registry&, Mbuf* m) {
        std::memcpy(m->user_data + offset, data, size);
        return ACL_SUCCESS;
    });
}

aclError CopyMbufRef(MbufHandle buf, MbufHandle* copy) {
    if (copy == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "newBuf is null");
    return WithOwn(buf, "buf", [&](Registry& r, Mbuf* m) {
        Mbuf* c = NewLocked(r, m->area);
        if (c == nullptr)
            return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for a buffer head");
        // The new head starts as a copy of the old one's length and user data; from then on each
        // head has its own (only the data area is shared).
        c->data_len = m->data_len;
        std::memcpy(c->user_data, m->user_data, kMbufUserDataSize);
        *copy = c->handle;
        return ACL_SUCCESS;
    });
}

aclError AppendMbufChain(MbufHandle head_handle, MbufHandle buf) {
    Registry& r = Mbufs();
    std::lock_guard lock(r.mutex);
    aclError rc = ACL_SUCCESS;
    Mbuf* head = FindOwnLocked(r, head_handle, "headBuf", &rc);
    if (head == nullptr) return rc;
    Mbuf* m = FindOwnLocked(r, buf, "buf", &rc);
    if (m == nullptr) return rc;
    if (head->head != nullptr)
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "headBuf %p is not a chain's head: it was appended to the chain headed by %p",
                    head_handle, head->head->handle);
    if (m == head) return Fail(ACL_ERROR_INVALID_PARAM, "buf %p is headBuf itself", buf);
    if (m->head != nullptr)
        return Fail(ACL_ERROR_INVALID_PARAM, "buf %p is in the chain headed by %p already", buf,
                    m->head->handle);
    // Appending the head of a chain appends the whole chain.
    const size_t total = 1 + head->members.size() + 1 + m->members.size();
    if (total > kMaxMbufChainLength)
        return Fail(ACL_ERROR_INVALID_PARAM, "the chain would hold %zu buffers; at most %u", total,
                    kMaxMbufChainLength);
    head->members.reserve(total - 1);
    head->members.push_back(m);
    for (Mbuf* member : m->members)
        head->members.push_back(member);
    m->members.clear();
    for (size_t i = 0; i < head->members.size(); ++i)
        head->members[i]->head = head;
    return ACL_SUCCESS;
}

aclError GetMbufChainNum(MbufHandle head_handle, uint32_t* num) {
    if (num == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "num is null");
    return WithOwn(head_handle, "headBuf", [&](Registry&, Mbuf* head) {
        if (head->head != nullptr)
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "headBuf %p is not a chain's head: %p heads its chain", head_handle,
                        head->head->handle);
        *num = static_cast<uint32_t>(1 + head->members.size());
        return ACL_SUCCESS;
    });
}

aclError GetMbufFromChain(MbufHandle head_handle, uint32_t index, MbufHandle* buf) {
    if (buf == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "buf is null");
    return WithOwn(head_handle, "headBuf", [&](Registry&, Mbuf* head) {
        if (head->head != nullptr)
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "headBuf %p is not a chain's head: %p heads its chain", head_handle,
                        head->head->handle);
        if (index > head->members.size())
            return Fail(ACL_ERROR_INVALID_PARAM, "index %u is past the chain's %zu buffers", index,
                        head->members.size() + 1);
        *buf = index == 0 ? head->handle : head->members[index - 1]->handle;
        return ACL_SUCCESS;
    });
}

aclError TakeForQueue(MbufHandle buf, uint32_t qid) {
    return WithOwn(buf, "buf", [&](Registry&, Mbuf* m) {
        if (m->head != nullptr)
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "buf %p was appended to the chain headed by %p: enqueue the head", buf,
                        m->head->handle);
        m->queued_on = qid;
        return ACL_SUCCESS;
    });
}

void ReturnFromQueue(MbufHandle buf) {
    Registry& r = Mbufs();
    std::lock_guard lock(r.mutex);
    auto it = r.live.find(buf);
    if (it != r.live.end()) it->second->queued_on = kNotQueued;
}

void FreeQueued(MbufHandle buf) {
    Registry& r = Mbufs();
    std::lock_guard lock(r.mutex);
    auto it = r.live.find(buf);
    if (it != r.live.end()) DeleteChainLocked(r, it->second);
}

void MoveQueued(MbufHandle buf, uint32_t qid) {
    Registry& r = Mbufs();
    std::lock_guard lock(r.mutex);
    auto it = r.live.find(buf);
    if (it != r.live.end()) it->second->queued_on = qid;
}

MbufHandle NewQueuedMbuf(uint32_t qid, const void* data, size_t size, const void* user_data,
                         size_t user_data_size) {
    std::shared_ptr<DataArea> area = NewArea(size);
    if (area == nullptr) {
        Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for a queue item of %zu bytes", size);
        return nullptr;
    }
    std::memcpy(area->bytes, data, size);
    Registry& r = Mbufs();
    std::lock_guard lock(r.mutex);
    Mbuf* m = NewLocked(r, std::move(area));
    if (m == nullptr) {
        Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for a buffer head");
        return nullptr;
    }
    m->data_len = size;
    if (user_data != nullptr && user_data_size > 0)
        std::memcpy(m->user_data, user_data, std::min(user_data_size, kMbufUserDataSize));
    m->queued_on = qid;
    return m->handle;
}

MbufHandle ShareQueued(MbufHandle buf, uint32_t qid) {
    Registry& r = Mbufs();
    std::lock_guard lock(r.mutex);
    auto it = r.live.find(buf);
    if (it == r.live.end()) return nullptr;
    const Mbuf* source = it->second;
    auto share = [&](const Mbuf* from) {
        Mbuf* to = NewLocked(r, from->area);
        if (to != nullptr) {
            to->data_len = from->data_len;
            std::memcpy(to->user_data, from->user_data, kMbufUserDataSize);
        }
        return to;
    };
    Mbuf* head = share(source);
    if (head == nullptr) return nullptr;
    for (const Mbuf* member : source->members) {
        Mbuf* copy = share(member);
        if (copy == nullptr) {
            DeleteChainLocked(r, head);
            return nullptr;
        }
        copy->head = head;
        head->members.push_back(copy);
    }
    head->queued_on = qid;
    return head->handle;
}

size_t QueuedDataLen(MbufHandle buf) {
    Registry& r = Mbufs();
    std::lock_guard lock(r.mutex);
    auto it = r.live.find(buf);
    if (it == r.live.end()) return 0;
    size_t total = it->second->data_len;
    for (const Mbuf* member : it->second->members)
        total += member->data_len;
    return total;
}

void CopyQueuedOut(MbufHandle buf, void* data, size_t capacity, void* user_data,
                   size_t user_data_size) {
    Registry& r = Mbufs();
    std::lock_guard lock(r.mutex);
    auto it = r.live.find(buf);
    if (it == r.live.end()) return;
    const Mbuf* head = it->second;
    auto* out = static_cast<uint8_t*>(data);
    size_t at = 0;
    auto copy = [&](const Mbuf* m) {
        const size_t n = std::min(m->data_len, capacity - at);
        std::memcpy(out + at, m->area->bytes, n);
        at += n;
    };
    copy(head);
    for (const Mbuf* member : head->members)
        copy(member);
    if (user_data != nullptr && user_data_size > 0)
        std::memcpy(user_data, head->user_data, std::min(user_data_size, kMbufUserDataSize));
}

}  // namespace openacl::tdt
