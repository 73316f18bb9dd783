/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * mstx/ms_tools_ext_mem.h: memory pools for mstx (included by mstx/ms_tools_ext.h). A program
 * that manages its own pool of device memory tells memory tools where the pool is (a heap) and
 * which parts of it it handed out (regions). openacl keeps the registrations and checks them:
 * descriptions as documented, regions inside their heap, handles and pointers that were
 * registered; it has no memory checker that uses them further.
 */
#ifndef MSTX_TOOLS_EXT_MEM
#define MSTX_TOOLS_EXT_MEM

#include <stddef.h>
#include <stdint.h>

#ifndef MSTX_DECLSPEC
#define MSTX_DECLSPEC __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct mstxDomainRegistration_st;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t* mstxDomainHandle_t;

struct mstxMemHeap_st;
typedef struct mstxMemHeap_st mstxMemHeap_t;
typedef mstxMemHeap_t* mstxMemHeapHandle_t;

struct mstxMemRegion_st;
typedef struct mstxMemRegion_st mstxMemRegion_t;
typedef mstxMemRegion_t* mstxMemRegionHandle_t;

/* A linear range of memory on a device. */
typedef struct mstxMemVirtualRangeDesc_t {
    uint32_t deviceId;
    void const* ptr;
    uint64_t size;
} mstxMemVirtualRangeDesc_t;

/* How the heap is used: a pool the program suballocates (its regions). */
typedef enum mstxMemHeapUsageType {
    MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR = 0,
} mstxMemHeapUsageType;

/* How memory is described: plain virtual addresses (an mstxMemVirtualRangeDesc_t). */
typedef enum mstxMemType {
    MSTX_MEM_TYPE_VIRTUAL_ADDRESS = 0,
} mstxMemType;

/* mstxMemHeapRegister's description; typeSpecificDesc points to the description of `type`. */
typedef struct mstxMemHeapDesc_t {
    mstxMemHeapUsageType usage;
    mstxMemType type;
    void const* typeSpecificDesc;
} mstxMemHeapDesc_t;

/* Regions handed out from `heap`: regionCount descriptions of regionType in regionDescArray;
 * their handles are written to regionHandleArrayOut (regionCount of them) unless it is NULL. */
typedef struct mstxMemRegionsRegisterBatch_t {
    mstxMemHeapHandle_t heap;
    mstxMemType regionType;
    size_t regionCount;
    void const* regionDescArray;
    mstxMemRegionHandle_t* regionHandleArrayOut;
} mstxMemRegionsRegisterBatch_t;

/* A region named by its start address or by its handle. */
typedef enum mstxMemRegionRefType {
    MSTX_MEM_REGION_REF_TYPE_POINTER = 0,
    MSTX_MEM_REGION_REF_TYPE_HANDLE
} mstxMemRegionRefType;

typedef struct mstxMemRegionRef_t {
    mstxMemRegionRefType refType;
    union {
        void const* pointer;
        mstxMemRegionHandle_t handle;
    };
} mstxMemRegionRef_t;

typedef struct mstxMemRegionsUnregisterBatch_t {
    size_t refCount;
    mstxMemRegionRef_t const* refArray;
} mstxMemRegionsUnregisterBatch_t;

/* The default domain. */
static mstxDomainHandle_t const globalDomain = NULL;

/* Registers a pool of memory the program already allocated; returns its handle, or NULL when
 * the description is refused. */
MSTX_DECLSPEC mstxMemHeapHandle_t mstxMemHeapRegister(mstxDomainHandle_t domain,
                                                      mstxMemHeapDesc_t const* desc);
/* Unregisters a pool and every region still registered in it. */
MSTX_DECLSPEC void mstxMemHeapUnregister(mstxDomainHandle_t domain, mstxMemHeapHandle_t heap);
/* Registers regions of a pool; each must lie inside the pool. */
MSTX_DECLSPEC void mstxMemRegionsRegister(mstxDomainHandle_t domain,
                                          mstxMemRegionsRegisterBatch_t const* desc);
/* Unregisters regions, named by start address or handle. */
MSTX_DECLSPEC void mstxMemRegionsUnregister(mstxDomainHandle_t domain,
                                            mstxMemRegionsUnregisterBatch_t const* desc);

#ifdef __cplusplus
}
#endif

#endif /* MSTX_TOOLS_EXT_MEM */
