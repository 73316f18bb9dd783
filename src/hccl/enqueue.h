// Enqueueing a collective: the checks that need the runtime (the stream is the current
// context's and on the communicator's device; every buffer lies in device memory of that
// device), then one task on the stream that hands the op to the communicator's transport.
#pragma once

#include <memory>
#include <string>

#include "acl/acl_base.h"
#include "hccl/collective.h"
#include "hccl/communicator.h"

namespace openacl::hccl {

// Checks the stream and buffers, then enqueues `op` (records the failure and returns its code
// when a check fails). check_only: the checks alone.
HcclResult Enqueue(const std::shared_ptr<Communicator>& comm, aclrtStream stream, CollOp op,
                   const BufferUse* buffers, size_t n_buffers, bool check_only = false);

// Empty when every buffer `op` uses is still allocated, as it was when the op was enqueued;
// otherwise which one is not. Transports ask before moving data: a program may free a buffer
// while its collective waits in the stream, and the memory must not be written then.
std::string LostBuffer(const CollOp& op);

// The current device (the calling thread's context's), or -1 with the failure recorded.
int32_t CurrentDevice(HcclResult* rc);

}  // namespace openacl::hccl
