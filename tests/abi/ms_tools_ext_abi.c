/* ABI checks for mstx/ms_tools_ext.h and mstx/ms_tools_ext_mem.h: values and layouts fixed by
 * CANN's mstx API (x86_64 / aarch64, LP64). */
#include <stddef.h>
#include "mstx/ms_tools_ext.h"

_Static_assert(MSTX_SUCCESS == 0, "MSTX_SUCCESS");
_Static_assert(MSTX_FAIL == 1, "MSTX_FAIL");
_Static_assert(MSTX_TOOL_INVALID_ID == 0x0, "MSTX_TOOL_INVALID_ID");
_Static_assert(MSTX_TOOL_MSPROF_ID == 0x1000, "MSTX_TOOL_MSPROF_ID");
_Static_assert(MSTX_TOOL_MSOPPROF_ID == 0x1001, "MSTX_TOOL_MSOPPROF_ID");
_Static_assert(MSTX_TOOL_MSSANITIZER_ID == 0x1002, "MSTX_TOOL_MSSANITIZER_ID");
_Static_assert(MSTX_TOOL_MSLEAKS_ID == 0x1003, "MSTX_TOOL_MSLEAKS_ID");
_Static_assert(MSTX_INVALID_ID == 0, "MSTX_INVALID_ID");
_Static_assert(sizeof(mstxRangeId) == 8, "sizeof(mstxRangeId)");
_Static_assert(MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR == 0,
               "MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR");
_Static_assert(MSTX_MEM_TYPE_VIRTUAL_ADDRESS == 0, "MSTX_MEM_TYPE_VIRTUAL_ADDRESS");
_Static_assert(MSTX_MEM_REGION_REF_TYPE_POINTER == 0, "MSTX_MEM_REGION_REF_TYPE_POINTER");
_Static_assert(MSTX_MEM_REGION_REF_TYPE_HANDLE == 1, "MSTX_MEM_REGION_REF_TYPE_HANDLE");

_Static_assert(sizeof(mstxMemVirtualRangeDesc_t) == 24, "sizeof(mstxMemVirtualRangeDesc_t)");
_Static_assert(offsetof(mstxMemVirtualRangeDesc_t, deviceId) == 0,
               "offsetof(mstxMemVirtualRangeDesc_t, deviceId)");
_Static_assert(offsetof(mstxMemVirtualRangeDesc_t, ptr) == 8,
               "offsetof(mstxMemVirtualRangeDesc_t, ptr)");
_Static_assert(offsetof(mstxMemVirtualRangeDesc_t, size) == 16,
               "offsetof(mstxMemVirtualRangeDesc_t, size)");
_Static_assert(sizeof(mstxMemHeapDesc_t) == 16, "sizeof(mstxMemHeapDesc_t)");
_Static_assert(offsetof(mstxMemHeapDesc_t, usage) == 0, "offsetof(mstxMemHeapDesc_t, usage)");
_Static_assert(offsetof(mstxMemHeapDesc_t, type) == 4, "offsetof(mstxMemHeapDesc_t, type)");
_Static_assert(offsetof(mstxMemHeapDesc_t, typeSpecificDesc) == 8,
               "offsetof(mstxMemHeapDesc_t, typeSpecificDesc)");
_Static_assert(sizeof(mstxMemRegionsRegisterBatch_t) == 40,
               "sizeof(mstxMemRegionsRegisterBatch_t)");
_Static_assert(offsetof(mstxMemRegionsRegisterBatch_t, heap) == 0,
               "offsetof(mstxMemRegionsRegisterBatch_t, heap)");
_Static_assert(offsetof(mstxMemRegionsRegisterBatch_t, regionType) == 8,
               "offsetof(mstxMemRegionsRegisterBatch_t, regionType)");
_Static_assert(offsetof(mstxMemRegionsRegisterBatch_t, regionCount) == 16,
               "offsetof(mstxMemRegionsRegisterBatch_t, regionCount)");
_Static_assert(offsetof(mstxMemRegionsRegisterBatch_t, regionDescArray) == 24,
               "offsetof(mstxMemRegionsRegisterBatch_t, regionDescArray)");
_Static_assert(offsetof(mstxMemRegionsRegisterBatch_t, regionHandleArrayOut) == 32,
               "offsetof(mstxMemRegionsRegisterBatch_t, regionHandleArrayOut)");
_Static_assert(sizeof(mstxMemRegionRef_t) == 16, "sizeof(mstxMemRegionRef_t)");
_Static_assert(offsetof(mstxMemRegionRef_t, refType) == 0, "offsetof(mstxMemRegionRef_t, refType)");
_Static_assert(offsetof(mstxMemRegionRef_t, pointer) == 8, "offsetof(mstxMemRegionRef_t, pointer)");
_Static_assert(offsetof(mstxMemRegionRef_t, handle) == 8, "offsetof(mstxMemRegionRef_t, handle)");
_Static_assert(sizeof(mstxMemRegionsUnregisterBatch_t) == 16,
               "sizeof(mstxMemRegionsUnregisterBatch_t)");
_Static_assert(offsetof(mstxMemRegionsUnregisterBatch_t, refCount) == 0,
               "offsetof(mstxMemRegionsUnregisterBatch_t, refCount)");
_Static_assert(offsetof(mstxMemRegionsUnregisterBatch_t, refArray) == 8,
               "offsetof(mstxMemRegionsUnregisterBatch_t, refArray)");

int ms_tools_ext_abi_checks(void) {
    /* globalDomain, the default domain, is the null handle. */
    return globalDomain == NULL ? 35 : -1;
}
