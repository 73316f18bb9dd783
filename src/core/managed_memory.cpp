#include "core/managed_memory.h"

#include <sys/mman.h>

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "backend/cpu/task.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl::managed {

namespace {

using Location = std::pair<int32_t, int32_t>;  // (aclrtMemManagedLocationType, id)
constexpr Location kNowhere{ACL_MEM_LOCATIONTYPE_INVALID, 0};

// What the program advised for one 2 MiB page, and where it was last prefetched to.
struct PageAdvice {
    bool read_mostly = false;
    Location preferred = kNowhere;
    std::set<Location> accessed_by;
    Location last_prefetch = kNowhere;
    bool operator==(const PageAdvice&) const = default;
};

struct Allocation {
    uint64_t size = 0;  // a multiple of kPage
    uint64_t requested = 0;
    std::vector<PageAdvice> pages;
};

struct Arena {
    std::shared_mutex mutex;
    uintptr_t base = 0;  // 0 until the first allocation reserves the range
    uint64_t size = 0;
    std::map<uintptr_t, Allocation> live;  // by address
    std::map<uintptr_t, uint64_t> free;    // address -> bytes, coalesced
    std::atomic<size_t> count{0};
};

Arena& TheArena() {
    static Arena* arena = new Arena;  // outlives static destructors
    return *arena;
}

// CANN documents managed memory for Atlas A2 only.
aclError RequireChip(const char* api) {
    const std::string& soc = Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend910B", 0) == 0) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "%s: managed memory is not available on %s (CANN documents it for Atlas A2 only)",
                api, soc.c_str());
}

// Reserves the UVM range once (lock held). Where something else already holds it (a
// sanitizer's shadow memory), any free range serves: the full 3 TiB where the address space
// has such a hole, else the largest of a few smaller sizes that fits (ThreadSanitizer leaves
// the application no hole over 1.5 TiB).
bool ReserveRange(Arena& a) {
    if (a.base != 0) return true;
    void* p = mmap(reinterpret_cast<void*>(kRangeStart), kRangeSize, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    uint64_t size = kRangeSize;
    if (p == MAP_FAILED || reinterpret_cast<uintptr_t>(p) != kRangeStart) {
        if (p != MAP_FAILED) munmap(p, kRangeSize);
        p = MAP_FAILED;
        for (uint64_t want :
             {kRangeSize, uint64_t{1} << 40, uint64_t{256} << 30, uint64_t{64} << 30}) {
            p = mmap(nullptr, want + kPage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
            if (p != MAP_FAILED) {
                size = want;
                break;
            }
        }
        if (p == MAP_FAILED) return false;
        const auto start = reinterpret_cast<uintptr_t>(p);
        const uintptr_t aligned = (start + kPage - 1) & ~(kPage - 1);
        if (aligned > start) munmap(p, aligned - start);
        if (start + kPage > aligned) {
            munmap(reinterpret_cast<void*>(aligned + size), start + kPage - aligned);
        }
        p = reinterpret_cast<void*>(aligned);
    }
    a.base = reinterpret_cast<uintptr_t>(p);
    a.size = size;
    a.free[a.base] = a.size;
    return true;
}

// The live allocation holding [p, p + size), or live.end() (lock held).
std::map<uintptr_t, Allocation>::iterator FindAllocation(Arena& a, uintptr_t p, uint64_t size) {
    auto it = a.live.upper_bound(p);
    if (it == a.live.begin()) return a.live.end();
    --it;
    if (p - it->first >= it->second.size || size > it->second.size - (p - it->first)) {
        return a.live.end();
    }
    return it;
}

aclError CheckLocation(const char* what, aclrtMemManagedLocation location, bool allow_host_numa) {
    switch (location.type) {
        case ACL_MEM_LOCATIONTYPE_DEVICE:
            if (Runtime::Get().DeviceById(location.id) == nullptr) {
                return Fail(ACL_ERROR_INVALID_PARAM, "%s.id %d is not a device of this process",
                            what, location.id);
            }
            return ACL_SUCCESS;
        case ACL_MEM_LOCATIONTYPE_HOST:
            return ACL_SUCCESS;
        case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
        case ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT:
            if (allow_host_numa) return ACL_SUCCESS;
            [[fallthrough]];
        default:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s.type %d is not a location managed memory can be at (device or host)",
                        what, static_cast<int>(location.type));
    }
}

// The pages of live managed memory that [ptr, ptr + size) covers, or an error (lock held).
aclError PagesOf(Arena& a, const char* api, const void* ptr, uint64_t size, bool whole_pages,
                 Allocation** allocation, size_t* first, size_t* last) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "ptr is null");
    if (size == 0 || size > kRangeSize) {
        return Fail(ACL_ERROR_INVALID_PARAM, "size %" PRIu64 " must be in (0, 3 TiB]", size);
    }
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    if (whole_pages && (address % kPage != 0 || size % kPage != 0)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s: ptr %p and size %" PRIu64 " must be multiples of 2 MiB", api, ptr, size);
    }
    auto it = a.base == 0 ? a.live.end() : FindAllocation(a, address, size);
    if (it == a.live.end()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s: [%p, +%" PRIu64
                    ") is not inside one live aclrtMemAllocManaged "
                    "allocation",
                    api, ptr, size);
    }
    *allocation = &it->second;
    *first = (address - it->first) / kPage;
    *last = (address - it->first + size - 1) / kPage;
    return ACL_SUCCESS;
}

}  // namespace

aclError Allocate(void** ptr, uint64_t size, uint32_t flag) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "ptr is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
    if (size > kRangeSize) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "size %" PRIu64 " is more than the 3 TiB a process may hold as managed memory",
                    size);
    }
    if (flag != ACL_RT_MEM_ATTACH_GLOBAL) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flag %u is not ACL_RT_MEM_ATTACH_GLOBAL (1), the only one", flag);
    }
    if (aclError rc = RequireChip("aclrtMemAllocManaged")) return rc;
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    if (ctx->device()->accelerator() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "aclrtMemAllocManaged is not supported on the %s backend yet",
                    ctx->device()->accelerator()->name());
    }
    const uint64_t rounded = (size + kPage - 1) / kPage * kPage;
    Arena& a = TheArena();
    std::unique_lock lock(a.mutex);
    if (!ReserveRange(a)) {
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "cannot reserve the 3 TiB managed memory range: %s", std::strerror(errno));
    }
    auto hole = a.free.begin();
    while (hole != a.free.end() && hole->second < rounded)
        ++hole;
    if (hole == a.free.end()) {
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "no %" PRIu64 " bytes left in the 3 TiB managed memory range", rounded);
    }
    const uintptr_t base = hole->first;
    const uint64_t left = hole->second - rounded;
    a.free.erase(hole);
    if (left > 0) a.free[base + rounded] = left;
    if (mprotect(reinterpret_cast<void*>(base), rounded, PROT_READ | PROT_WRITE) != 0) {
        a.free[base] = rounded;  // (not coalesced: harmless, the next free coalesces)
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot map %" PRIu64 " bytes: %s", rounded,
                    std::strerror(errno));
    }
    Allocation allocation;
    allocation.size = rounded;
    allocation.requested = size;
    allocation.pages.resize(rounded / kPage);
    a.live.emplace(base, std::move(allocation));
    a.count.fetch_add(1, std::memory_order_release);
    *ptr = reinterpret_cast<void*>(base);
    return ACL_SUCCESS;
}

aclError Free(void* ptr) {
    Arena& a = TheArena();
    std::unique_lock lock(a.mutex);
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    auto it = a.live.find(address);
    if (it == a.live.end()) {
        auto inside = FindAllocation(a, address, 1);
        if (inside != a.live.end()) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%p points %" PRIuPTR
                        " bytes into the managed allocation at %p: free the "
                        "address aclrtMemAllocManaged returned",
                        ptr, address - inside->first, reinterpret_cast<void*>(inside->first));
        }
        return Fail(ACL_ERROR_INVALID_PARAM, "%p is not live managed memory (freed already?)", ptr);
    }
    const uint64_t size = it->second.size;
    a.live.erase(it);
    a.count.fetch_sub(1, std::memory_order_release);
    // Give the pages back and make the range fault again, so a stale pointer is caught.
    madvise(ptr, size, MADV_DONTNEED);
    mprotect(ptr, size, PROT_NONE);
    uintptr_t start = address;
    uint64_t bytes = size;
    auto next = a.free.lower_bound(start);
    if (next != a.free.end() && next->first == start + bytes) {
        bytes += next->second;
        next = a.free.erase(next);
    }
    if (next != a.free.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == start) {
            start = prev->first;
            bytes += prev->second;
            a.free.erase(prev);
        }
    }
    a.free[start] = bytes;
    return ACL_SUCCESS;
}

aclError Advise(const void* ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                aclrtMemManagedLocation location) {
    if (aclError rc = RequireChip("aclrtMemManagedAdvise")) return rc;
    const bool needs_location = advise == ACL_MEM_ADVISE_SET_PREFERRED_LOCATION ||
                                advise == ACL_MEM_ADVISE_SET_ACCESSED_BY ||
                                advise == ACL_MEM_ADVISE_UNSET_ACCESSED_BY;
    if (static_cast<unsigned>(advise) > ACL_MEM_ADVISE_UNSET_ACCESSED_BY) {
        return Fail(ACL_ERROR_INVALID_PARAM, "advise %d is not an aclrtMemManagedAdviseType",
                    static_cast<int>(advise));
    }
    if (needs_location) {
        if (aclError rc = CheckLocation("location", location, true)) return rc;
    }
    Arena& a = TheArena();
    std::unique_lock lock(a.mutex);
    Allocation* allocation = nullptr;
    size_t first = 0, last = 0;
    if (aclError rc =
            PagesOf(a, "aclrtMemManagedAdvise", ptr, size, true, &allocation, &first, &last)) {
        return rc;
    }
    const Location where{location.type, location.id};
    for (size_t page = first; page <= last; ++page) {
        PageAdvice& advice = allocation->pages[page];
        switch (advise) {
            case ACL_MEM_ADVISE_SET_READ_MOSTLY:
                advice.read_mostly = true;
                break;
            case ACL_MEM_ADVISE_UNSET_READ_MOSTLY:
                advice.read_mostly = false;
                break;
            case ACL_MEM_ADVISE_SET_PREFERRED_LOCATION:
                advice.preferred = where;
                break;
            case ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
                advice.preferred = kNowhere;
                break;
            case ACL_MEM_ADVISE_SET_ACCESSED_BY:
                advice.accessed_by.insert(where);
                break;
            case ACL_MEM_ADVISE_UNSET_ACCESSED_BY:
                advice.accessed_by.erase(where);
                break;
        }
    }
    return ACL_SUCCESS;
}

aclError GetAttr(aclrtMemManagedRangeAttribute attribute, const void* ptr, size_t size, void* data,
                 size_t data_size) {
    if (data == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "data is null");
    if (aclError rc = RequireChip("aclrtMemManagedGetAttr")) return rc;
    Arena& a = TheArena();
    std::shared_lock lock(a.mutex);
    Allocation* allocation = nullptr;
    size_t first = 0, last = 0;
    if (aclError rc =
            PagesOf(a, "aclrtMemManagedGetAttr", ptr, size, false, &allocation, &first, &last)) {
        return rc;
    }
    // One value for the whole range, or the "invalid" answer where its pages disagree.
    auto uniform = [&](auto get, auto invalid) {
        auto value = get(allocation->pages[first]);
        for (size_t page = first + 1; page <= last; ++page) {
            if (!(get(allocation->pages[page]) == value)) return invalid;
        }
        return value;
    };
    auto need = [&](size_t bytes) -> aclError {
        if (data_size >= bytes) return ACL_SUCCESS;
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataSize %zu is too small for attribute %d, which takes %zu bytes", data_size,
                    static_cast<int>(attribute), bytes);
    };
    auto put_location = [&](Location l) -> aclError {
        if (aclError rc = need(sizeof(aclrtMemManagedLocation))) return rc;
        aclrtMemManagedLocation out{static_cast<aclrtMemManagedLocationType>(l.first), l.second};
        std::memcpy(data, &out, sizeof out);
        return ACL_SUCCESS;
    };
    auto put_int = [&](int32_t v) -> aclError {
        if (aclError rc = need(sizeof v)) return rc;
        std::memcpy(data, &v, sizeof v);
        return ACL_SUCCESS;
    };
    auto preferred = [](const PageAdvice& p) { return p.preferred; };
    auto prefetched = [](const PageAdvice& p) { return p.last_prefetch; };
    switch (attribute) {
        case ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
            // Read-mostly only where every page is.
            return put_int(uniform([](const PageAdvice& p) { return p.read_mostly; }, false) ? 1
                                                                                             : 0);
        case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
            return put_location(uniform(preferred, kNowhere));
        case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
            return put_int(uniform(preferred, kNowhere).first);
        case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
            return put_int(uniform(preferred, Location{ACL_MEM_LOCATIONTYPE_INVALID, -1}).second);
        case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
            return put_location(uniform(prefetched, kNowhere));
        case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
            return put_int(uniform(prefetched, kNowhere).first);
        case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
            return put_int(uniform(prefetched, Location{ACL_MEM_LOCATIONTYPE_INVALID, -1}).second);
        case ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: {
            // The locations every page of the range lists, as many as data holds; the rest of
            // data reads as invalid locations.
            if (aclError rc = need(sizeof(aclrtMemManagedLocation))) return rc;
            std::set<Location> common = allocation->pages[first].accessed_by;
            for (size_t page = first + 1; page <= last; ++page) {
                std::set<Location> both;
                for (const Location& l : allocation->pages[page].accessed_by)
                    if (common.count(l)) both.insert(l);
                common = std::move(both);
            }
            const size_t slots = data_size / sizeof(aclrtMemManagedLocation);
            auto* out = static_cast<aclrtMemManagedLocation*>(data);
            size_t i = 0;
            for (const Location& l : common) {
                if (i == slots) break;
                out[i++] = {static_cast<aclrtMemManagedLocationType>(l.first), l.second};
            }
            for (; i < slots; ++i)
                out[i] = {ACL_MEM_LOCATIONTYPE_INVALID, 0};
            return ACL_SUCCESS;
        }
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "attribute %d is not an aclrtMemManagedRangeAttribute",
                static_cast<int>(attribute));
}

aclError Prefetch(const void* ptr, size_t size, aclrtMemManagedLocation location, uint64_t flags,
                  Stream* stream) {
    if (flags != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "flags is reserved and must be 0, not %" PRIu64,
                    flags);
    }
    if (aclError rc = RequireChip("aclrtMemManagedPrefetchAsync")) return rc;
    if (aclError rc = CheckLocation("location", location, true)) return rc;
    {
        Arena& a = TheArena();
        std::shared_lock lock(a.mutex);
        Allocation* allocation = nullptr;
        size_t first = 0, last = 0;
        if (aclError rc = PagesOf(a, "aclrtMemManagedPrefetchAsync", ptr, size, false, &allocation,
                                  &first, &last)) {
            return rc;
        }
    }
    // Nothing moves on the CPU; in stream order the range records where it was sent.
    struct Payload {
        const void* ptr;
        size_t size;
        int32_t type, id;
    };
    const Payload payload{ptr, size, location.type, location.id};
    stream->Submit(cpu::MakeTask([payload] {
        Arena& a = TheArena();
        std::unique_lock lock(a.mutex);
        auto it = FindAllocation(a, reinterpret_cast<uintptr_t>(payload.ptr), payload.size);
        if (it == a.live.end()) return;  // freed meanwhile: nothing to record
        const uint64_t offset = reinterpret_cast<uintptr_t>(payload.ptr) - it->first;
        for (uint64_t page = offset / kPage; page <= (offset + payload.size - 1) / kPage; ++page)
            it->second.pages[page].last_prefetch = {payload.type, payload.id};
    }));
    return ACL_SUCCESS;
}

bool Classify(const void* p, MemRegion* region) {
    Arena& a = TheArena();
    if (a.count.load(std::memory_order_acquire) == 0) return false;
    std::shared_lock lock(a.mutex);
    auto it = FindAllocation(a, reinterpret_cast<uintptr_t>(p), 1);
    if (it == a.live.end()) return false;
    *region = MemRegion{};
    region->domain = MemDomain::kDevice;
    region->managed = true;
    region->base = it->first;
    region->usable = it->second.size;
    region->requested = it->second.requested;
    if (Context* ctx = CurrentContext()) region->device = ctx->device();
    if (region->device == nullptr && !Runtime::Get().devices().empty()) {
        region->device = Runtime::Get().devices().front();
    }
    return true;
}

std::string Describe(const void* p) {
    Arena& a = TheArena();
    if (a.count.load(std::memory_order_acquire) == 0) return "";
    std::shared_lock lock(a.mutex);
    auto it = FindAllocation(a, reinterpret_cast<uintptr_t>(p), 1);
    if (it == a.live.end()) return "";
    char text[160];
    std::snprintf(text, sizeof text, "a %" PRIu64 "-byte aclrtMemAllocManaged allocation at %p",
                  it->second.requested, reinterpret_cast<void*>(it->first));
    return text;
}

void ReleaseAll() {
    Arena& a = TheArena();
    std::unique_lock lock(a.mutex);
    if (!a.live.empty()) {
        Warn(
            "%zu managed allocation(s) from aclrtMemAllocManaged were never freed with aclrtFree; "
            "they are released now",
            a.live.size());
    }
    if (a.base != 0) munmap(reinterpret_cast<void*>(a.base), a.size);
    a.live.clear();
    a.free.clear();
    a.base = 0;
    a.size = 0;
    a.count.store(0, std::memory_order_release);
}

}  // namespace openacl::managed
