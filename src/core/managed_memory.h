// Managed memory (aclrtMemAllocManaged and the aclrtMemManaged* family): unified virtual memory
// that host and device both reach at one address, allocated in 2 MiB steps from CANN's UVM range
// [0x90000000000, +3 TiB) and freed with aclrtFree. On the CPU there is nothing to migrate: the
// memory is always where both sides can read it, so prefetches only record where they went;
// the advice a program gives is kept per 2 MiB page and answered by the attribute queries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "acl/acl_rt.h"
#include "core/memory.h"

namespace openacl {
class Stream;
}

namespace openacl::managed {

constexpr uint64_t kPage = uint64_t{2} << 20;        // allocation and advice granularity
constexpr uintptr_t kRangeStart = 0x90000000000ULL;  // CANN's UVM range
constexpr uint64_t kRangeSize = uint64_t{3} << 40;   // 3 TiB

aclError Allocate(void** ptr, uint64_t size, uint32_t flag);
// aclrtFree of managed memory (ptr is known to be managed: ClassifyPointer said so).
aclError Free(void* ptr);
aclError Advise(const void* ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                aclrtMemManagedLocation location);
aclError GetAttr(aclrtMemManagedRangeAttribute attribute, const void* ptr, size_t size, void* data,
                 size_t data_size);
aclError Prefetch(const void* ptr, size_t size, aclrtMemManagedLocation location, uint64_t flags,
                  Stream* stream);

// For ClassifyPointer: true when `p` lies in live managed memory (a kDevice region, managed).
// One relaxed load while nothing is allocated.
bool Classify(const void* p, MemRegion* region);
// "a 2097152-byte aclrtMemAllocManaged allocation at 0x..." or "".
std::string Describe(const void* p);
// aclFinalize: frees what is left.
void ReleaseAll();

}  // namespace openacl::managed
