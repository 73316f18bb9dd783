// HcclGroupStart / HcclGroupEnd on the calling thread. Inside a group, communicator creation
// runs concurrently and completes at HcclGroupEnd (one thread can then create a rank per
// device), and operations are held until HcclGroupEnd, where the sends and receives issued
// on one communicator and stream become one batch, so they do not wait for one another
// (two ranks that each send then receive would otherwise wait forever).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "hccl/enqueue.h"

namespace openacl::hccl {

bool InGroup();
HcclResult GroupStart();
// Runs what the group held; the first failure is the result.
HcclResult GroupEnd();

// Communicator creation inside a group: `init` runs on its own thread, joined at GroupEnd.
void DeferInit(std::function<HcclResult()> init);

// Checks the stream and the buffers now, then enqueues the op (or holds it until GroupEnd).
HcclResult Issue(const std::shared_ptr<Communicator>& comm, aclrtStream stream, CollOp op,
                 std::vector<BufferUse> buffers);

}  // namespace openacl::hccl
