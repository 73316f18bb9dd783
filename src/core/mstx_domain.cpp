#include "core/mstx_domain.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/error.h"
#include "core/mstx_mem.h"
#include "core/trace.h"
#include "core/user_annotation.h"

namespace openacl::mstx {
namespace {

struct Domain {
    const char* name;  // interned: annotations made in the domain point at it
    bool alive;
};

std::mutex g_mutex;
// Every domain ever created, by handle; destroyed ones stay, marked (a domain is a few bytes,
// and programs create a handful).
std::unordered_map<uintptr_t, Domain>& Domains() {
    static auto* domains = new std::unordered_map<uintptr_t, Domain>;
    return *domains;
}
std::unordered_map<std::string, uintptr_t>& LiveByName() {
    static auto* live = new std::unordered_map<std::string, uintptr_t>;
    return *live;
}
uintptr_t g_next_handle = 1;

}  // namespace

void* CreateDomain(const char* name) {
    std::lock_guard lock(g_mutex);
    auto [it, fresh] = LiveByName().try_emplace(name, 0);
    if (fresh) {
        it->second = g_next_handle++;
        Domains().emplace(it->second, Domain{trace::Intern(name), true});
    }
    return reinterpret_cast<void*>(it->second);
}

bool ResolveDomain(const void* handle, const char** name) {
    *name = nullptr;
    if (handle == nullptr) return true;
    std::unique_lock lock(g_mutex);
    auto it = Domains().find(reinterpret_cast<uintptr_t>(handle));
    if (it == Domains().end()) {
        lock.unlock();
        Fail(ACL_ERROR_INVALID_PARAM,
             "domain %p is not an mstx domain: pass a handle from mstxDomainCreateA, or "
             "globalDomain (NULL)",
             handle);
        return false;
    }
    const Domain domain = it->second;
    lock.unlock();
    if (!domain.alive) {
        Warn(
            "mstx domain \"%s\" (%p) was destroyed: the call does nothing (create the domain "
            "again for a new handle)",
            domain.name, handle);
        return false;
    }
    *name = domain.name;
    return true;
}

bool DestroyDomain(const void* handle) {
    const char* name = nullptr;
    if (handle == nullptr || !ResolveDomain(handle, &name)) return false;
    {
        std::lock_guard lock(g_mutex);
        auto it = Domains().find(reinterpret_cast<uintptr_t>(handle));
        if (it == Domains().end() || !it->second.alive) return false;  // destroyed meanwhile
        it->second.alive = false;
        LiveByName().erase(name);
    }
    user_annotation::DropRanges(name);
    DropHeaps(handle);
    return true;
}

}  // namespace openacl::mstx
