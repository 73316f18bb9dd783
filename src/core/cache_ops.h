// Cache maintenance on device memory (aclrtCmoAsync, the CMO descriptors): CANN documents only
// prefetch for these calls; on the CPU a prefetch brings the range toward the cache of the core
// that runs it (__builtin_prefetch), in stream order. The barrier forms exist on no product
// CANN documents and answer ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_rt.h"

namespace openacl {

class Stream;

// Bytes of one CMO descriptor.
constexpr size_t kCmoDescSize = 32;

aclError CmoAsync(void* src, size_t size, aclrtCmoType type, Stream* stream);
aclError CmoGetDescSize(size_t* size);
aclError CmoSetDesc(void* desc, void* src, size_t size);
aclError CmoAsyncWithDesc(void* desc, aclrtCmoType type, Stream* stream, const void* reserve);

}  // namespace openacl
