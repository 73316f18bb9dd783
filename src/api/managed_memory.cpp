// Managed memory: aclrtMemAllocManaged, advice, attribute queries and prefetches
// (core/managed_memory.h). aclrtFree frees it (api/memory.cpp).
#include "core/managed_memory.h"
#include "acl/acl.h"
#include "core/error.h"
#include "core/stream.h"

using openacl::Fail;

aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag) {
    OPENACL_API();
    return openacl::managed::Allocate(ptr, size, flag);
}

aclError aclrtMemManagedAdvise(const void* const ptr, uint64_t size,
                               aclrtMemManagedAdviseType advise, aclrtMemManagedLocation location) {
    OPENACL_API();
    return openacl::managed::Advise(ptr, size, advise, location);
}

aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void* ptr,
                                size_t size, void* data, size_t dataSize) {
    OPENACL_API();
    return openacl::managed::GetAttr(attribute, ptr, size, data, dataSize);
}

aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute* attributes, size_t numAttributes,
                                 const void* ptr, size_t size, void** data, size_t* dataSizes) {
    OPENACL_API();
    if (attributes == nullptr || data == nullptr || dataSizes == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "attributes, data and dataSizes must not be null");
    }
    if (numAttributes == 0) return Fail(ACL_ERROR_INVALID_PARAM, "numAttributes must not be 0");
    for (size_t i = 0; i < numAttributes; ++i) {
        if (aclError rc =
                openacl::managed::GetAttr(attributes[i], ptr, size, data[i], dataSizes[i])) {
            return rc;
        }
    }
    return ACL_SUCCESS;
}

aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size,
                                      aclrtMemManagedLocation location, uint32_t flags,
                                      aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::managed::Prefetch(ptr, size, location, flags, resolved);
}

// prefetchLocs[k] applies to the ranges prefetchLocIdxs[k] .. prefetchLocIdxs[k+1]-1, the last
// one to the rest, as the attributes of a batch copy do.
aclError aclrtMemManagedPrefetchBatchAsync(const void** ptrs, size_t* sizes, size_t count,
                                           aclrtMemManagedLocation* prefetchLocs,
                                           size_t* prefetchLocIdxs, size_t numPrefetchLocs,
                                           uint64_t flags, aclrtStream stream) {
    OPENACL_API();
    if (ptrs == nullptr || sizes == nullptr || prefetchLocs == nullptr ||
        prefetchLocIdxs == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "ptrs, sizes, prefetchLocs and prefetchLocIdxs must not be null");
    }
    if (count == 0) return Fail(ACL_ERROR_INVALID_PARAM, "count must not be 0");
    if (numPrefetchLocs == 0 || numPrefetchLocs > count) {
        return Fail(ACL_ERROR_INVALID_PARAM, "numPrefetchLocs %zu must be 1 to count (%zu)",
                    numPrefetchLocs, count);
    }
    if (prefetchLocIdxs[0] != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "prefetchLocIdxs[0] is %zu; it must be 0",
                    prefetchLocIdxs[0]);
    }
    for (size_t k = 1; k < numPrefetchLocs; ++k) {
        if (prefetchLocIdxs[k] <= prefetchLocIdxs[k - 1] || prefetchLocIdxs[k] >= count) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "prefetchLocIdxs[%zu] is %zu: each entry must be greater than the one "
                        "before and less than count (%zu)",
                        k, prefetchLocIdxs[k], count);
        }
    }
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    size_t loc = 0;
    for (size_t i = 0; i < count; ++i) {
        while (loc + 1 < numPrefetchLocs && prefetchLocIdxs[loc + 1] <= i)
            ++loc;
        if (aclError rc =
                openacl::managed::Prefetch(ptrs[i], sizes[i], prefetchLocs[loc], flags, resolved)) {
            return rc;
        }
    }
    return ACL_SUCCESS;
}
