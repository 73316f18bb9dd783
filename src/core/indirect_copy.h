// Copies whose addresses are read from device memory when they run (CANN's "second-level
// pointer" copies): aclrtMemcpyAsyncWithDesc reads source, destination and length from a copy
// descriptor that aclrtSetMemcpyDesc wrote into device memory; aclrtMemcpyAsyncWithOffset reads
// the base addresses from device memory and adds offsets. Both copy within a device
// (ACL_MEMCPY_INNER_DEVICE_TO_DEVICE). The addresses are checked when the copy runs, so a
// descriptor rewritten or a buffer freed after the call is reported then, not copied through.
#pragma once

#include <cstddef>

#include "acl/acl_rt.h"

namespace openacl {

class Stream;

// Bytes of one copy descriptor.
constexpr size_t kMemcpyDescSize = 32;

aclError GetMemcpyDescSize(aclrtMemcpyKind kind, size_t* size);
aclError SetMemcpyDesc(void* desc, aclrtMemcpyKind kind, void* src, void* dst, size_t count,
                       void* config);
aclError MemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind, Stream* stream);
aclError MemcpyAsyncWithOffset(void** dst, size_t dest_max, size_t dst_offset, const void** src,
                               size_t count, size_t src_offset, aclrtMemcpyKind kind,
                               Stream* stream);

}  // namespace openacl
