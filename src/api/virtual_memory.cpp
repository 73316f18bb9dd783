// Virtual memory management: reserve address space, allocate physical memory, map one onto the
// other (core/virtual_memory.h), and the address-range query that also answers for them.
#include "core/virtual_memory.h"
#include "acl/acl.h"
#include "core/error.h"
#include "core/memory.h"

namespace vmm = openacl::vmm;

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                         uint64_t flags, uint64_t* shareableHandle) {
    OPENACL_API();
    if (handleType != ACL_MEM_HANDLE_TYPE_NONE) {
        return openacl::Fail(ACL_ERROR_INVALID_PARAM,
                             "handleType %d is reserved: it must be ACL_MEM_HANDLE_TYPE_NONE (0)",
                             static_cast<int>(handleType));
    }
    return vmm::ExportToShareable(handle, flags, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT,
                                  shareableHandle);
}

aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
                                           aclrtMemSharedHandleType shareType,
                                           void* shareableHandle) {
    OPENACL_API();
    return vmm::ExportToShareable(handle, flags, shareType, shareableHandle);
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum) {
    OPENACL_API();
    return vmm::SetPidToShareable(&shareableHandle, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, pid, pidNum);
}

aclError aclrtMemSetPidToShareableHandleV2(void* shareableHandle,
                                           aclrtMemSharedHandleType shareType, int32_t* pid,
                                           size_t pidNum) {
    OPENACL_API();
    return vmm::SetPidToShareable(shareableHandle, shareType, pid, pidNum);
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                           aclrtDrvMemHandle* handle) {
    OPENACL_API();
    if (deviceId < 0)
        return openacl::Fail(ACL_ERROR_INVALID_PARAM, "deviceId %d is negative", deviceId);
    return vmm::ImportFromShareable(&shareableHandle, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, deviceId,
                                    0, handle);
}

aclError aclrtMemImportFromShareableHandleV2(void* shareableHandle,
                                             aclrtMemSharedHandleType shareType, uint64_t flags,
                                             aclrtDrvMemHandle* handle) {
    OPENACL_API();
    return vmm::ImportFromShareable(shareableHandle, shareType, -1, flags, handle);
}

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                uint64_t flags) {
    OPENACL_API();
    return vmm::Reserve(virPtr, size, alignment, expectPtr, flags, false);
}

aclError aclrtReserveMemAddressNoUCMemory(void** virPtr, size_t size, size_t alignment,
                                          void* expectPtr, uint64_t flags) {
    OPENACL_API();
    return vmm::Reserve(virPtr, size, alignment, expectPtr, flags, true);
}

aclError aclrtReleaseMemAddress(void* virPtr) {
    OPENACL_API();
    return vmm::Release(virPtr);
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size,
                             const aclrtPhysicalMemProp* prop, uint64_t flags) {
    OPENACL_API();
    return vmm::MallocPhysical(handle, size, prop, flags);
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
    OPENACL_API();
    return vmm::FreePhysical(handle);
}

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                     uint64_t flags) {
    OPENACL_API();
    return vmm::Map(virPtr, size, offset, handle, flags, false);
}

aclError aclrtMemMapNoAccess(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                             uint64_t flags) {
    OPENACL_API();
    return vmm::Map(virPtr, size, offset, handle, flags, true);
}

aclError aclrtUnmapMem(void* virPtr) {
    OPENACL_API();
    return vmm::Unmap(virPtr);
}

aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count) {
    OPENACL_API();
    return vmm::SetAccess(virPtr, size, desc, count);
}

aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location, uint64_t* flag) {
    OPENACL_API();
    return vmm::GetAccess(virPtr, location, flag);
}

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop,
                                          aclrtMemGranularityOptions option, size_t* granularity) {
    OPENACL_API();
    return vmm::Granularity(prop, option, granularity);
}

aclError aclrtMemRetainAllocationHandle(void* virPtr, aclrtDrvMemHandle* handle) {
    OPENACL_API();
    return vmm::RetainHandle(virPtr, handle);
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
                                                   aclrtPhysicalMemProp* prop) {
    OPENACL_API();
    return vmm::Properties(handle, prop);
}

aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize) {
    OPENACL_API();
    return openacl::GetAddressRange(ptr, pbase, psize);
}
