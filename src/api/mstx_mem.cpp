// mstx memory pools (mstx/ms_tools_ext_mem.h): a program with its own device-memory pool
// registers the pool (a heap) and what it hands out of it (regions), so memory tools know
// them. openacl has no memory checker to tell; it keeps the registrations (core/mstx_mem.h)
// and refuses what the documentation rules out, with ACL_ERROR_INVALID_PARAM and a message,
// as mstx reports errors (the functions return nothing, or NULL).
#include <vector>

#include "core/error.h"
#include "core/mstx_domain.h"
#include "core/mstx_mem.h"
#include "mstx/ms_tools_ext.h"

using openacl::Fail;
namespace mstx = openacl::mstx;

namespace {

// A virtual-address range description; false with the error recorded.
bool ReadRange(const void* desc, const char* which, mstx::MemRange* range) {
    if (desc == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "%s is null: point it to an mstxMemVirtualRangeDesc_t",
             which);
        return false;
    }
    const auto* d = static_cast<const mstxMemVirtualRangeDesc_t*>(desc);
    *range = {d->deviceId, d->ptr, d->size};
    return true;
}

bool IsVirtualAddress(mstxMemType type, const char* which) {
    if (type == MSTX_MEM_TYPE_VIRTUAL_ADDRESS) return true;
    Fail(ACL_ERROR_INVALID_PARAM,
         "%s %d is unknown: MSTX_MEM_TYPE_VIRTUAL_ADDRESS (0) is the only memory type", which,
         static_cast<int>(type));
    return false;
}

}  // namespace

mstxMemHeapHandle_t mstxMemHeapRegister(mstxDomainHandle_t domain, mstxMemHeapDesc_t const* desc) {
    OPENACL_API();
    const char* name = nullptr;
    if (!mstx::ResolveDomain(domain, &name)) return nullptr;
    if (desc == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "desc is null");
        return nullptr;
    }
    if (desc->usage != MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "desc->usage %d is unknown: MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR (0) is the only "
             "usage",
             static_cast<int>(desc->usage));
        return nullptr;
    }
    mstx::MemRange range{};
    if (!IsVirtualAddress(desc->type, "desc->type") ||
        !ReadRange(desc->typeSpecificDesc, "desc->typeSpecificDesc", &range)) {
        return nullptr;
    }
    if (range.ptr == nullptr || range.size == 0) {
        Fail(ACL_ERROR_INVALID_PARAM, "the heap is empty (ptr %p, size %llu)", range.ptr,
             static_cast<unsigned long long>(range.size));
        return nullptr;
    }
    return static_cast<mstxMemHeapHandle_t>(mstx::RegisterHeap(domain, range));
}

void mstxMemHeapUnregister(mstxDomainHandle_t domain, mstxMemHeapHandle_t heap) {
    OPENACL_API();
    const char* name = nullptr;
    if (!mstx::ResolveDomain(domain, &name)) return;
    if (heap == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "heap is null");
        return;
    }
    mstx::UnregisterHeap(domain, heap);
}

void mstxMemRegionsRegister(mstxDomainHandle_t domain, mstxMemRegionsRegisterBatch_t const* desc) {
    OPENACL_API();
    const char* name = nullptr;
    if (!mstx::ResolveDomain(domain, &name)) return;
    if (desc == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "desc is null");
        return;
    }
    if (desc->heap == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "desc->heap is null: give the heap the regions belong to");
        return;
    }
    if (!IsVirtualAddress(desc->regionType, "desc->regionType")) return;
    if (desc->regionCount != 0 && desc->regionDescArray == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "desc->regionDescArray is null but regionCount is %zu",
             desc->regionCount);
        return;
    }
    const auto* ranges = static_cast<const mstxMemVirtualRangeDesc_t*>(desc->regionDescArray);
    std::vector<mstx::MemRange> regions(desc->regionCount);
    for (size_t i = 0; i < desc->regionCount; ++i)
        regions[i] = {ranges[i].deviceId, ranges[i].ptr, ranges[i].size};
    mstx::RegisterRegions(domain, desc->heap, regions.data(), regions.size(),
                          reinterpret_cast<void**>(desc->regionHandleArrayOut));
}

void mstxMemRegionsUnregister(mstxDomainHandle_t domain,
                              mstxMemRegionsUnregisterBatch_t const* desc) {
    OPENACL_API();
    const char* name = nullptr;
    if (!mstx::ResolveDomain(domain, &name)) return;
    if (desc == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "desc is null");
        return;
    }
    if (desc->refCount != 0 && desc->refArray == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "desc->refArray is null but refCount is %zu", desc->refCount);
        return;
    }
    std::vector<mstx::RegionRef> refs(desc->refCount);
    for (size_t i = 0; i < desc->refCount; ++i) {
        const mstxMemRegionRef_t& ref = desc->refArray[i];
        if (ref.refType == MSTX_MEM_REGION_REF_TYPE_POINTER) {
            refs[i] = {false, ref.pointer};
        } else if (ref.refType == MSTX_MEM_REGION_REF_TYPE_HANDLE) {
            refs[i] = {true, ref.handle};
        } else {
            Fail(ACL_ERROR_INVALID_PARAM,
                 "desc->refArray[%zu].refType %d is unknown: MSTX_MEM_REGION_REF_TYPE_POINTER "
                 "(0) or MSTX_MEM_REGION_REF_TYPE_HANDLE (1)",
                 i, static_cast<int>(ref.refType));
            return;
        }
    }
    mstx::UnregisterRegions(domain, refs.data(), refs.size());
}
