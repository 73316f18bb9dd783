// Data buffers (aclDataBuffer): a pointer and a size the caller owns. Datasets and models read
// them, so the definition and the liveness check live here rather than in api/.
#pragma once

#include <cstddef>

#include "acl/acl_base_rt.h"

struct aclDataBuffer {
    void* data;
    size_t size;
};

namespace openacl {

// Registry of live data buffers, so a stale or foreign pointer is refused, never dereferenced.
void RegisterDataBuffer(const aclDataBuffer* buffer);
bool UnregisterDataBuffer(const aclDataBuffer* buffer);
bool IsLiveDataBuffer(const aclDataBuffer* buffer);

}  // namespace openacl
