// acl_rt_allocator.h: an application's own memory allocator, described and registered on a
// stream. Descriptions need neither aclInit nor a device; registration needs the stream's
// context current, as every stream call does.
#include <mutex>

#include "acl/acl.h"
#include "core/allocator.h"
#include "core/error.h"
#include "core/runtime.h"
#include "core/stream.h"

using openacl::AllocatorSetup;
using openacl::Fail;
using openacl::Runtime;
using openacl::Stream;

namespace {

aclError DeadDesc(aclrtAllocatorDesc desc) {
    if (desc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "allocatorDesc is null");
    return Fail(ACL_ERROR_INVALID_PARAM,
                "allocatorDesc %p is not a live allocator description (destroyed already, or "
                "not made by aclrtAllocatorCreateDesc)",
                desc);
}

// Stores one field of a live description.
template <class Set>
aclError SetField(aclrtAllocatorDesc desc, Set set) {
    if (desc == nullptr || !openacl::WithAllocatorDesc(desc, set)) return DeadDesc(desc);
    return ACL_SUCCESS;
}

}  // namespace

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void) {
    OPENACL_API();
    aclrtAllocatorDesc desc = openacl::NewAllocatorDesc();
    if (desc == nullptr) Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
    return desc;
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
    OPENACL_API();
    // Registration copied what the description held, so streams keep their allocator.
    if (allocatorDesc == nullptr || !openacl::DeleteAllocatorDesc(allocatorDesc)) {
        return DeadDesc(allocatorDesc);
    }
    return ACL_SUCCESS;
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
    OPENACL_API();
    if (allocator == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "allocator is null");
    return SetField(allocatorDesc, [&](AllocatorSetup& s) { s.object = allocator; });
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                          aclrtAllocatorAllocFunc func) {
    OPENACL_API();
    if (func == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "func is null");
    return SetField(allocatorDesc, [&](AllocatorSetup& s) { s.alloc = func; });
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                         aclrtAllocatorFreeFunc func) {
    OPENACL_API();
    if (func == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "func is null");
    return SetField(allocatorDesc, [&](AllocatorSetup& s) { s.free = func; });
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                aclrtAllocatorAllocAdviseFunc func) {
    OPENACL_API();
    if (func == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "func is null");
    return SetField(allocatorDesc, [&](AllocatorSetup& s) { s.alloc_advise = func; });
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
    OPENACL_API();
    if (func == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "func is null");
    return SetField(allocatorDesc, [&](AllocatorSetup& s) { s.get_addr_from_block = func; });
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
    OPENACL_API();
    AllocatorSetup setup;
    if (allocatorDesc == nullptr ||
        !openacl::WithAllocatorDesc(allocatorDesc, [&](AllocatorSetup& s) { setup = s; })) {
        return DeadDesc(allocatorDesc);
    }
    // The runtime needs the object and the functions that allocate, free and resolve a block;
    // advice is optional.
    const char* missing =
        setup.object == nullptr  ? "the allocator object (aclrtAllocatorSetObjToDesc)"
        : setup.alloc == nullptr ? "the alloc function (aclrtAllocatorSetAllocFuncToDesc)"
        : setup.free == nullptr  ? "the free function (aclrtAllocatorSetFreeFuncToDesc)"
        : setup.get_addr_from_block == nullptr
            ? "the get-address function (aclrtAllocatorSetGetAddrFromBlockFuncToDesc)"
            : nullptr;
    if (missing != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "allocatorDesc %p lacks %s: set it before aclrtAllocatorRegister",
                    allocatorDesc, missing);
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    resolved->allocator = setup;  // a second registration replaces the first
    return ACL_SUCCESS;
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc* allocatorDesc,
                                   aclrtAllocator* allocator, aclrtAllocatorAllocFunc* allocFunc,
                                   aclrtAllocatorFreeFunc* freeFunc,
                                   aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc) {
    OPENACL_API();
    const char* null_out = allocatorDesc == nullptr          ? "allocatorDesc"
                           : allocator == nullptr            ? "allocator"
                           : allocFunc == nullptr            ? "allocFunc"
                           : freeFunc == nullptr             ? "freeFunc"
                           : allocAdviseFunc == nullptr      ? "allocAdviseFunc"
                           : getAddrFromBlockFunc == nullptr ? "getAddrFromBlockFunc"
                                                             : nullptr;
    if (null_out != nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s is null", null_out);
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    AllocatorSetup setup;
    {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        setup = resolved->allocator;
    }
    // A stream without a registered allocator answers with nulls everywhere.
    *allocatorDesc = setup.desc;
    *allocator = setup.object;
    *allocFunc = setup.alloc;
    *freeFunc = setup.free;
    *allocAdviseFunc = setup.alloc_advise;
    *getAddrFromBlockFunc = setup.get_addr_from_block;
    return ACL_SUCCESS;
}

aclError aclrtAllocatorUnregister(aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    resolved->allocator = AllocatorSetup{};  // unregistering twice is harmless
    return ACL_SUCCESS;
}
