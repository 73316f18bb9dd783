// Host memory registration (aclrtHostRegister, aclrtHostRegisterV2, aclrtHostUnregister): host
// memory the program allocated itself (malloc, new, mmap) becomes pinned memory for every check
// and copy path (ClassifyPointer reports it as kHostPinned, so asynchronous copies from it are
// truly asynchronous), and, when registered as "mapped", device-accessible. On the CPU the
// device address of registered memory is the host address itself: both sides share one address
// space.
#pragma once

#include <cstdint>
#include <string>

#include "acl/acl_rt.h"
#include "core/memory.h"

namespace openacl::host_register {

// `mapped`: device-accessible (V1 always; V2 with ACL_HOST_REG_MAPPED). `api` names the call.
aclError Register(void* ptr, uint64_t size, bool mapped, const char* api);
aclError Unregister(void* ptr);
aclError GetDevicePointer(void* host, void** device, uint32_t flag);

// For ClassifyPointer: true when `p` lies in a registered range (fills a kHostPinned region).
// Costs one relaxed load while nothing is registered.
bool Classify(const void* p, MemRegion* region);
// True when `p` is the start of a registration (for aclrtFreeHost's message).
bool IsRegistered(const void* p);
// aclrtFreeHost of a pinned block: registrations inside it end with it.
void ForgetRange(uintptr_t base, uint64_t size);
// aclFinalize: forgets every registration, with a warning naming how many were left.
void ReleaseAll();

}  // namespace openacl::host_register
