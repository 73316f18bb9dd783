// Virtual memory management (aclrtReserveMemAddress, aclrtMallocPhysical, aclrtMapMem ...): on
// the CPU a reservation is address space the process holds with no access (PROT_NONE), a
// physical allocation is an anonymous memory file of its size, and a mapping maps that file
// into part of a reservation, so the same physical memory can be mapped at several addresses.
// Mapped ranges are device (or pinned host) memory for every check: ClassifyPointer asks here
// once the arenas have not claimed a pointer, and pays nothing while no reservation exists.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "acl/acl_rt.h"
#include "core/memory.h"

namespace openacl::vmm {

// Every size and virtual address of a mapping is a multiple of this (CANN: 2 MiB).
constexpr uint64_t kGranularity = uint64_t{2} << 20;
// ... and of this for the 1 GiB huge-page attributes.
constexpr uint64_t kHugeGranularity = uint64_t{1} << 30;

aclError Reserve(void** virt, size_t size, size_t alignment, void* expect, uint64_t flags,
                 bool no_uc_memory);
aclError Release(void* virt);
aclError MallocPhysical(aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop,
                        uint64_t flags);
aclError FreePhysical(aclrtDrvMemHandle handle);
// no_access: aclrtMemMapNoAccess, the range is mapped but refuses every access until
// aclrtMemSetAccess grants one.
aclError Map(void* virt, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags,
             bool no_access);
aclError Unmap(void* virt);
aclError SetAccess(void* virt, size_t size, const aclrtMemAccessDesc* desc, size_t count);
aclError GetAccess(void* virt, const aclrtMemLocation* location, uint64_t* flags);
aclError Granularity(const aclrtPhysicalMemProp* prop, aclrtMemGranularityOptions option,
                     size_t* granularity);
aclError RetainHandle(void* virt, aclrtDrvMemHandle* handle);
// Physical memory shared between processes (aclrtMemExportToShareableHandle[V2] and the rest):
// `shareable` points to a uint64_t (ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) or an
// aclrtMemFabricHandle (_FABRIC). ImportFromShareable's device_id is -1 for V2, which names none:
// the memory is then the exporter's device's.
aclError ExportToShareable(aclrtDrvMemHandle handle, uint64_t flags, aclrtMemSharedHandleType type,
                           void* shareable);
aclError SetPidToShareable(const void* shareable, aclrtMemSharedHandleType type,
                           const int32_t* pids, size_t count);
aclError ImportFromShareable(const void* shareable, aclrtMemSharedHandleType type,
                             int32_t device_id, uint64_t flags, aclrtDrvMemHandle* handle);
aclError Properties(aclrtDrvMemHandle handle, aclrtPhysicalMemProp* prop);

// For ClassifyPointer: true when `p` lies in a reservation; fills the region (a mapping: device
// or pinned host memory with its access; an unmapped part: freed device memory, vmm set).
bool Classify(const void* p, MemRegion* region);
// "a 2097152-byte aclrtMapMem mapping at 0x... of physical memory on device 0", or "".
std::string Describe(const void* p);
// Physical bytes allocated on a device (they count against its capacity).
uint64_t PhysicalBytes(int32_t device_id);
// aclFinalize: unmaps, releases and frees everything left.
void ReleaseAll();

}  // namespace openacl::vmm
