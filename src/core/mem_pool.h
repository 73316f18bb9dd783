// Stream-ordered memory pools (acl/acl_rt_memory_soma.h). A pool hands out device memory at
// enqueue time and takes it back in stream order: aclrtMemPoolFreeAsync marks the block free
// for later work on the same stream at once (stream order keeps the earlier work off it), and
// for other streams once the free's task has run. Blocks are ordinary device allocations of
// kind kPool, so copies, kernels and checks see device memory; aclrtFree refuses them.
#pragma once

#include <cstddef>

#include "acl/acl_rt_memory_soma.h"

namespace openacl {

class Device;
class Stream;

namespace mem_pool {

aclError Create(aclrtMemPool* pool, const aclrtMemPoolProps* props);
aclError Destroy(aclrtMemPool pool);
aclError SetAttr(aclrtMemPool pool, aclrtMemPoolAttr attr, void* value);
aclError GetAttr(aclrtMemPool pool, aclrtMemPoolAttr attr, void* value);
aclError MallocAsync(void** ptr, size_t size, aclrtMemPool pool, Stream* stream);
aclError FreeAsync(void* ptr, Stream* stream);
aclError TrimTo(aclrtMemPool pool, size_t min_bytes_to_keep);

// After a successful stream or device synchronisation: each pool hands back idle memory above
// its release threshold, as CANN does at the next synchronisation. One load when no pool exists.
void AfterSynchronize();

// Device reset: the device's pools go, with their memory (their handles become unknown).
void ForgetDevice(Device* device);

}  // namespace mem_pool
}  // namespace openacl
