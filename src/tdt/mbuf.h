// Message buffers ("mbufs": aclrt*Buf in acl_rt.h, acltdt*Buf in acl_tdt_queue.h, one object
// behind both names). An mbuf is a head (valid data length, a 96-byte user-data area, its place
// in a chain) over a reference-counted data area: aclrtCopyBufRef makes a second head over the
// same area, freed with the last head. A chain is a head mbuf followed by up to 127 appended
// ones; it travels through a queue as one item and is freed with its head.
//
// Handles are never reused and never addresses: a freed or foreign handle (a double free, a
// pointer from malloc) is recognised and refused instead of touching memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"

namespace openacl::tdt {

using MbufHandle = void*;

constexpr size_t kMbufUserDataSize = 96;  // the user-data ("private") area of every head
constexpr uint32_t kMaxMbufChainLength = 128;
constexpr uint64_t kMaxMbufSize = 4ull << 30;  // "not above 4G"

// Each reports its failure with Fail and returns the documented code.
aclError AllocMbuf(MbufHandle* buf, size_t size);
aclError FreeMbuf(MbufHandle buf);
aclError GetMbufData(MbufHandle buf, void** data, size_t* size);
aclError GetMbufDataLen(MbufHandle buf, size_t* len);
aclError SetMbufDataLen(MbufHandle buf, size_t len);
aclError GetMbufUserData(MbufHandle buf, void* data, size_t size, size_t offset);
aclError SetMbufUserData(MbufHandle buf, const void* data, size_t size, size_t offset);
aclError CopyMbufRef(MbufHandle buf, MbufHandle* copy);
aclError AppendMbufChain(MbufHandle head, MbufHandle buf);
aclError GetMbufChainNum(MbufHandle head, uint32_t* num);
aclError GetMbufFromChain(MbufHandle head, uint32_t index, MbufHandle* buf);

// For queues. An enqueued chain belongs to its queue: the application's calls on it (free,
// append, enqueue again) are refused until a dequeue hands it back.
//
// Checks that `buf` is a live chain head the application holds and marks it queued on `qid`.
aclError TakeForQueue(MbufHandle buf, uint32_t qid);
// Hands a queued chain back to the application.
void ReturnFromQueue(MbufHandle buf);
// Frees a queued chain (its queue was destroyed).
void FreeQueued(MbufHandle buf);
// A new queued chain of one mbuf holding a copy of `data` and `user_data` (EnqueueData).
// Returns nullptr (after Fail) when memory runs out.
MbufHandle NewQueuedMbuf(uint32_t qid, const void* data, size_t size, const void* user_data,
                         size_t user_data_size);
// A new queued chain whose heads share the data areas of the queued chain `buf` (a route
// delivering one item to several queues).
MbufHandle ShareQueued(MbufHandle buf, uint32_t qid);
// Marks a queued chain as queued on another queue (a route moved it).
void MoveQueued(MbufHandle buf, uint32_t qid);
// The valid bytes of a queued chain, every mbuf's in chain order.
size_t QueuedDataLen(MbufHandle buf);
// Copies the valid bytes of a queued chain (QueuedDataLen of them, which `capacity` must
// hold) and up to kMbufUserDataSize bytes of its head's user data.
void CopyQueuedOut(MbufHandle buf, void* data, size_t capacity, void* user_data,
                   size_t user_data_size);

}  // namespace openacl::tdt
