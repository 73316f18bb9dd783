// External allocators (acl_rt_allocator.h): an application describes its own memory allocator
// (an object and four functions) and registers it on a stream. The runtime would draw the
// workspace memory of that stream's tasks from it; openacl's tasks need no workspace, so a
// registered allocator is kept and reported (aclrtAllocatorGetByStream) but never called.
#pragma once

#include "acl/acl_rt_allocator.h"

namespace openacl {

// What an allocator description holds; registration copies it onto the stream.
struct AllocatorSetup {
    aclrtAllocatorDesc desc = nullptr;  // the description registered, as the application gave it
    aclrtAllocator object = nullptr;
    aclrtAllocatorAllocFunc alloc = nullptr;
    aclrtAllocatorFreeFunc free = nullptr;
    aclrtAllocatorAllocAdviseFunc alloc_advise = nullptr;
    aclrtAllocatorGetAddrFromBlockFunc get_addr_from_block = nullptr;
};

// A new, empty description (nullptr when out of memory) and its end.
aclrtAllocatorDesc NewAllocatorDesc();
bool DeleteAllocatorDesc(aclrtAllocatorDesc desc);  // false: not a live description

// Runs fn(AllocatorSetup&) on a live description under the registry's lock; false when desc
// is not live.
template <class Fn>
bool WithAllocatorDesc(aclrtAllocatorDesc desc, Fn fn);

// Implementation detail of WithAllocatorDesc.
AllocatorSetup* LockAllocatorDesc(aclrtAllocatorDesc desc);  // locks; nullptr (unlocked) if dead
void UnlockAllocatorDescs();

template <class Fn>
bool WithAllocatorDesc(aclrtAllocatorDesc desc, Fn fn) {
    AllocatorSetup* setup = LockAllocatorDesc(desc);
    if (setup == nullptr) return false;
    fn(*setup);
    UnlockAllocatorDescs();
    return true;
}

}  // namespace openacl
