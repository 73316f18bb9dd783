// Stream-ordered memory pools (acl/acl_rt_memory_soma.h); core/mem_pool.h.
#include "core/mem_pool.h"
#include "acl/acl.h"
#include "core/error.h"
#include "core/stream.h"

aclError aclrtMemPoolCreate(aclrtMemPool* memPool, const aclrtMemPoolProps* poolProps) {
    OPENACL_API();
    return openacl::mem_pool::Create(memPool, poolProps);
}

aclError aclrtMemPoolDestroy(const aclrtMemPool memPool) {
    OPENACL_API();
    return openacl::mem_pool::Destroy(memPool);
}

aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value) {
    OPENACL_API();
    return openacl::mem_pool::SetAttr(memPool, attr, value);
}

aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value) {
    OPENACL_API();
    return openacl::mem_pool::GetAttr(memPool, attr, value);
}

aclError aclrtMemPoolMallocAsync(void** ptr, size_t size, aclrtMemPool memPool,
                                 aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::mem_pool::MallocAsync(ptr, size, memPool, resolved);
}

aclError aclrtMemPoolFreeAsync(void* ptr, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::mem_pool::FreeAsync(ptr, resolved);
}

aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep) {
    OPENACL_API();
    return openacl::mem_pool::TrimTo(memPool, minBytesToKeep);
}
