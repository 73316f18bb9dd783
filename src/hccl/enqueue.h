// Enqueueing a collective: the checks that need the runtime (the stream is the current
// context's and on the communicator's device; every buffer lies in device memory of that
// device), then one task on the stream that hands the op to the communicator's transport.
#pragma once

#include <memory>

#include "acl/acl_base.h"
#include "hccl/collective.h"
#include "hccl/communicator.h"

namespace openacl::hccl {

// A buffer the op reads or writes: its address and size in bytes, for the checks.
struct BufferUse {
    const char* name;  // "sendBuf"
    const void* address;
    uint64_t bytes;
};

// Checks the stream and buffers, then enqueues `op` (records the failure and returns its code
// when a check fails). check_only: the checks alone.
HcclResult Enqueue(const std::shared_ptr<Communicator>& comm, aclrtStream stream, CollOp op,
                   const BufferUse* buffers, size_t n_buffers, bool check_only = false);

// The current device (the calling thread's context's), or -1 with the failure recorded.
int32_t CurrentDevice(HcclResult* rc);

}  // namespace openacl::hccl
