/*
 * openacl - an independent implementation of the AscendCL C API.
 *
 * acl/acl_rt_memory_soma.h: stream-ordered memory pools ("SOMA"). Memory is taken from a pool
 * and given back to it in a stream's order, so a program need not synchronise the stream
 * before it frees: the pool reuses a returned block for later work once stream order (or a
 * finished free) makes that safe.
 */
#ifndef INC_EXTERNAL_ACL_RT_MEMORY_H_
#define INC_EXTERNAL_ACL_RT_MEMORY_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void* aclrtMemPool;

/* What aclrtMemPoolSetAttr / aclrtMemPoolGetAttr read or write through their value pointer.
 * The three reuse switches are uint32_t (1 on, 0 off); the rest are uint64_t byte counts.
 * RESERVED/USED_MEM_CURRENT are read-only; the two HIGH marks may only be set to 0 (reset). */
typedef enum aclrtMemPoolAttr {
    ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES = 0x1,
    ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC = 0x2,
    ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 0x3,
    ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD = 0x4,
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT = 0x5,
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH = 0x6,
    ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT = 0x7,
    ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH = 0x8
} aclrtMemPoolAttr;

/* A pool of pinned device memory on one device, holding at most maxSize bytes. */
typedef struct {
    aclrtMemAllocationType allocType; /* ACL_MEM_ALLOCATION_TYPE_PINNED */
    aclrtMemHandleType handleType;    /* ACL_MEM_HANDLE_TYPE_NONE */
    aclrtMemLocation location;        /* ACL_MEM_LOCATION_TYPE_DEVICE and its device id */
    size_t maxSize;
    unsigned char reserved[32];
} aclrtMemPoolProps;

ACL_FUNC_VISIBILITY aclError aclrtMemPoolCreate(aclrtMemPool* memPool,
                                                const aclrtMemPoolProps* poolProps);

/* Memory still taken from the pool is released with the pool once its frees have run. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolDestroy(const aclrtMemPool memPool);

ACL_FUNC_VISIBILITY aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr,
                                                 void* value);

ACL_FUNC_VISIBILITY aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr,
                                                 void* value);

/* Takes size (> 0) bytes from the pool for work enqueued on stream after this call. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolMallocAsync(void** ptr, size_t size, aclrtMemPool memPool,
                                                     aclrtStream stream);

/* Gives ptr back to its pool once the work enqueued on stream before this call is done. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolFreeAsync(void* ptr, aclrtStream stream);

/* Hands the pool's idle memory back to the device until at most minBytesToKeep stay idle. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_RT_MEMORY_H_ */
