#include "core/allocator.h"

#include <memory>
#include <mutex>
#include <new>
#include <unordered_map>

namespace openacl {
namespace {

std::mutex g_descs_mutex;
// Never destroyed: descriptions may be released from static destructors of applications.
std::unordered_map<const void*, std::unique_ptr<AllocatorSetup>>& LiveDescs() {
    static auto* live = new std::unordered_map<const void*, std::unique_ptr<AllocatorSetup>>;
    return *live;
}

}  // namespace

aclrtAllocatorDesc NewAllocatorDesc() {
    auto setup = std::unique_ptr<AllocatorSetup>(new (std::nothrow) AllocatorSetup);
    if (!setup) return nullptr;
    aclrtAllocatorDesc handle = setup.get();
    setup->desc = handle;
    try {
        std::lock_guard lock(g_descs_mutex);
        LiveDescs().emplace(handle, std::move(setup));
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
    return handle;
}

bool DeleteAllocatorDesc(aclrtAllocatorDesc desc) {
    std::lock_guard lock(g_descs_mutex);
    return LiveDescs().erase(desc) != 0;
}

AllocatorSetup* LockAllocatorDesc(aclrtAllocatorDesc desc) {
    g_descs_mutex.lock();
    auto it = LiveDescs().find(desc);
    if (it == LiveDescs().end() || desc == nullptr) {
        g_descs_mutex.unlock();
        return nullptr;
    }
    return it->second.get();
}

void UnlockAllocatorDescs() {
    g_descs_mutex.unlock();
}

}  // namespace openacl
