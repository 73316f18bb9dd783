#include "core/mstx_mem.h"

#include <cinttypes>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/device.h"
#include "core/error.h"
#include "core/memory.h"
#include "core/runtime.h"

namespace openacl::mstx {
namespace {

struct Heap {
    const void* domain;
    MemRange range;
    std::set<uintptr_t> regions;
};

struct Region {
    uintptr_t heap;
    MemRange range;
};

std::mutex g_mutex;  // everything below
std::unordered_map<uintptr_t, Heap>& Heaps() {
    static auto* heaps = new std::unordered_map<uintptr_t, Heap>;  // never destroyed, as streams
    return *heaps;
}
std::unordered_map<uintptr_t, Region>& Regions() {
    static auto* regions = new std::unordered_map<uintptr_t, Region>;
    return *regions;
}
// Regions by start address, for unregistration by pointer.
std::multimap<uintptr_t, uintptr_t>& ByStart() {
    static auto* by_start = new std::multimap<uintptr_t, uintptr_t>;
    return *by_start;
}
uintptr_t g_next_handle = 1;  // heaps and regions share it: no heap handle is a region's

uintptr_t Address(const void* p) {
    return reinterpret_cast<uintptr_t>(p);
}

// A domain handle for messages.
std::string DomainText(const void* domain) {
    if (domain == nullptr) return "the default domain (globalDomain)";
    char text[48];
    std::snprintf(text, sizeof text, "domain %p", domain);
    return text;
}

bool Inside(const MemRange& inner, const MemRange& outer) {
    const uintptr_t offset = Address(inner.ptr) - Address(outer.ptr);
    return inner.device == outer.device && Address(inner.ptr) >= Address(outer.ptr) &&
           offset <= outer.size && inner.size <= outer.size - offset;
}

// The heap `handle` of `domain`, or nullptr with the error recorded (g_mutex held).
Heap* FindHeapLocked(const void* domain, const void* handle) {
    auto it = Heaps().find(Address(handle));
    if (it == Heaps().end()) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "heap %p is not a registered heap (never returned by mstxMemHeapRegister, or "
             "unregistered already)",
             handle);
        return nullptr;
    }
    if (it->second.domain != domain) {
        Fail(ACL_ERROR_INVALID_PARAM, "heap %p belongs to %s, not to %s", handle,
             DomainText(it->second.domain).c_str(), DomainText(domain).c_str());
        return nullptr;
    }
    return &it->second;
}

void RemoveRegionLocked(uintptr_t id) {
    auto it = Regions().find(id);
    if (it == Regions().end()) return;
    auto [first, last] = ByStart().equal_range(Address(it->second.range.ptr));
    for (auto at = first; at != last; ++at) {
        if (at->second == id) {
            ByStart().erase(at);
            break;
        }
    }
    auto heap = Heaps().find(it->second.heap);
    if (heap != Heaps().end()) heap->second.regions.erase(id);
    Regions().erase(it);
}

void RemoveHeapLocked(uintptr_t id) {
    auto it = Heaps().find(id);
    if (it == Heaps().end()) return;
    const std::set<uintptr_t> regions = it->second.regions;
    for (uintptr_t region : regions)
        RemoveRegionLocked(region);
    Heaps().erase(id);
}

}  // namespace

void* RegisterHeap(const void* domain, const MemRange& heap) {
    const uint32_t devices = Runtime::Get().DeviceCount();
    if (heap.device >= devices) {
        Fail(ACL_ERROR_INVALID_PARAM, "deviceId %u is not a device: there are %u", heap.device,
             devices);
        return nullptr;
    }
    // The pool must be allocated already, on the device it names (its start is checked: a pool
    // may span mappings that are allocations of their own).
    const MemRegion region = ClassifyPointer(heap.ptr);
    if (region.domain != MemDomain::kDevice || region.device == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "the heap at %p is %s, not device memory: register memory already allocated (with "
             "aclrtMalloc, say)",
             heap.ptr, DomainName(region.domain));
        return nullptr;
    }
    if (region.device->id() != static_cast<int32_t>(heap.device)) {
        Fail(ACL_ERROR_INVALID_PARAM, "the heap at %p is memory of device %d, but deviceId is %u",
             heap.ptr, region.device->id(), heap.device);
        return nullptr;
    }
    std::lock_guard lock(g_mutex);
    const uintptr_t id = g_next_handle++;
    Heaps().emplace(id, Heap{domain, heap, {}});
    return reinterpret_cast<void*>(id);
}

bool UnregisterHeap(const void* domain, const void* heap) {
    std::lock_guard lock(g_mutex);
    if (FindHeapLocked(domain, heap) == nullptr) return false;
    RemoveHeapLocked(Address(heap));
    return true;
}

bool RegisterRegions(const void* domain, const void* heap, const MemRange* regions, size_t count,
                     void** handles_out) {
    std::lock_guard lock(g_mutex);
    Heap* owner = FindHeapLocked(domain, heap);
    if (owner == nullptr) return false;
    for (size_t i = 0; i < count; ++i) {
        const MemRange& r = regions[i];
        if (r.ptr == nullptr || r.size == 0) {
            Fail(ACL_ERROR_INVALID_PARAM, "region %zu is empty (ptr %p, size %" PRIu64 ")", i,
                 r.ptr, r.size);
            return false;
        }
        if (!Inside(r, owner->range)) {
            Fail(ACL_ERROR_INVALID_PARAM,
                 "region %zu (device %u, %p, %" PRIu64
                 " bytes) is not inside heap %p (device "
                 "%u, %p, %" PRIu64 " bytes)",
                 i, r.device, r.ptr, r.size, heap, owner->range.device, owner->range.ptr,
                 owner->range.size);
            return false;
        }
    }
    for (size_t i = 0; i < count; ++i) {
        const uintptr_t id = g_next_handle++;
        Regions().emplace(id, Region{Address(heap), regions[i]});
        ByStart().emplace(Address(regions[i].ptr), id);
        owner->regions.insert(id);
        if (handles_out != nullptr) handles_out[i] = reinterpret_cast<void*>(id);
    }
    return true;
}

bool UnregisterRegions(const void* domain, const RegionRef* refs, size_t count) {
    std::lock_guard lock(g_mutex);
    std::vector<uintptr_t> found;  // in order, each once
    std::set<uintptr_t> seen;
    for (size_t i = 0; i < count; ++i) {
        uintptr_t id = 0;
        if (refs[i].by_handle) {
            auto it = Regions().find(Address(refs[i].value));
            if (it != Regions().end() && Heaps().at(it->second.heap).domain == domain) {
                id = it->first;
            }
        } else {
            auto [first, last] = ByStart().equal_range(Address(refs[i].value));
            for (auto at = first; at != last && id == 0; ++at) {
                if (Heaps().at(Regions().at(at->second).heap).domain == domain) id = at->second;
            }
        }
        if (id == 0 || !seen.insert(id).second) {
            Fail(ACL_ERROR_INVALID_PARAM,
                 "reference %zu (%s %p) names no region registered in %s (never registered, "
                 "unregistered already, or named twice)",
                 i, refs[i].by_handle ? "handle" : "pointer", refs[i].value,
                 DomainText(domain).c_str());
            return false;
        }
        found.push_back(id);
    }
    for (uintptr_t id : found)
        RemoveRegionLocked(id);
    return true;
}

void DropHeaps(const void* domain) {
    std::lock_guard lock(g_mutex);
    std::vector<uintptr_t> heaps;
    for (const auto& [id, heap] : Heaps())
        if (heap.domain == domain) heaps.push_back(id);
    for (uintptr_t id : heaps)
        RemoveHeapLocked(id);
}

}  // namespace openacl::mstx
