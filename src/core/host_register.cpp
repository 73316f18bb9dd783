#include "core/host_register.h"

#include <unistd.h>

#include <atomic>
#include <cinttypes>
#include <map>
#include <shared_mutex>

#include "core/error.h"
#include "core/host_mapping.h"
#include "core/runtime.h"

namespace openacl::host_register {

namespace {

struct Registration {
    uint64_t size = 0;
    bool mapped = false;
    bool inside_pinned = false;  // registered aclrtMallocHost memory: already pinned
};

struct Registry {
    std::shared_mutex mutex;
    std::map<uintptr_t, Registration> ranges;  // by start address
    std::atomic<size_t> count{0};
};

Registry& Registrations() {
    static Registry* registry = new Registry;  // outlives static destructors
    return *registry;
}

// The registration holding `address`, or end() (lock held).
std::map<uintptr_t, Registration>::iterator Find(Registry& r, uintptr_t address) {
    auto it = r.ranges.upper_bound(address);
    if (it == r.ranges.begin()) return r.ranges.end();
    --it;
    return address - it->first < it->second.size ? it : r.ranges.end();
}

}  // namespace

aclError Register(void* ptr, uint64_t size, bool mapped, const char* api) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "ptr is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
    const long page = sysconf(_SC_PAGESIZE);
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    if (address % static_cast<uintptr_t>(page > 0 ? page : 4096) != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s: ptr %p is not aligned to the %ld-byte page, as registered host memory "
                    "must be",
                    api, ptr, page);
    }
    if (size > UINT64_MAX - address) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s: [%p, +%" PRIu64 ") wraps around", api, ptr, size);
    }
    const MemRegion region = ClassifyPointer(ptr);
    bool inside_pinned = false;
    switch (region.domain) {
        case MemDomain::kDevice:
        case MemDomain::kDeviceFreed:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s: %p is device memory, not host memory: only host memory is registered",
                        api, ptr);
        case MemDomain::kHostPinned:
            if (region.vmm || size > region.usable - (address - region.base)) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "%s: [%p, +%" PRIu64
                            ") is not inside one aclrtMallocHost allocation "
                            "(%" PRIu64 " bytes from %p)",
                            api, ptr, size, region.usable, reinterpret_cast<void*>(region.base));
            }
            inside_pinned = true;
            break;
        case MemDomain::kHost:
            // What the program hands over must be memory it owns, readable and writable.
            if (aclError rc = CheckHostMapping("ptr", ptr, size, HostAccess::kWrite)) return rc;
            break;
    }
    Registry& r = Registrations();
    std::unique_lock lock(r.mutex);
    auto next = r.ranges.lower_bound(address);
    if ((next != r.ranges.end() && next->first < address + size) ||
        Find(r, address) != r.ranges.end()) {
        const auto& [start, other] =
            next != r.ranges.end() && next->first < address + size ? *next : *Find(r, address);
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s: [%p, +%" PRIu64 ") overlaps the registered range at %p (%" PRIu64
                    " bytes): unregister it first with aclrtHostUnregister",
                    api, ptr, size, reinterpret_cast<void*>(start), other.size);
    }
    r.ranges.emplace(address, Registration{size, mapped, inside_pinned});
    r.count.fetch_add(1, std::memory_order_release);
    return ACL_SUCCESS;
}

aclError Unregister(void* ptr) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "ptr is null");
    Registry& r = Registrations();
    std::unique_lock lock(r.mutex);
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    auto it = r.ranges.find(address);
    if (it == r.ranges.end()) {
        auto inside = Find(r, address);
        if (inside != r.ranges.end()) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%p lies inside the range registered at %p: unregister the address that "
                        "was registered",
                        ptr, reinterpret_cast<void*>(inside->first));
        }
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is not registered host memory (aclrtHostRegister; unregistered already?)",
                    ptr);
    }
    r.ranges.erase(it);
    r.count.fetch_sub(1, std::memory_order_release);
    return ACL_SUCCESS;
}

aclError GetDevicePointer(void* host, void** device, uint32_t flag) {
    if (host == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "pHost is null");
    if (device == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "pDevice is null");
    if (flag != 0)
        return Fail(ACL_ERROR_INVALID_PARAM, "flag is reserved and must be 0, not %u", flag);
    Registry& r = Registrations();
    std::shared_lock lock(r.mutex);
    auto it = Find(r, reinterpret_cast<uintptr_t>(host));
    if (it == r.ranges.end()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is not registered host memory: register it with aclrtHostRegisterV2 "
                    "(ACL_HOST_REG_MAPPED) first",
                    host);
    }
    if (!it->second.mapped) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p was registered without ACL_HOST_REG_MAPPED: it has no device address",
                    host);
    }
    *device = host;  // one address space: the device reaches the memory where the host does
    return ACL_SUCCESS;
}

bool Classify(const void* p, MemRegion* region) {
    Registry& r = Registrations();
    if (r.count.load(std::memory_order_acquire) == 0) return false;
    std::shared_lock lock(r.mutex);
    auto it = Find(r, reinterpret_cast<uintptr_t>(p));
    if (it == r.ranges.end() || it->second.inside_pinned) return false;
    *region = MemRegion{};
    region->domain = MemDomain::kHostPinned;
    region->base = it->first;
    region->usable = region->requested = it->second.size;
    return true;
}

bool IsRegistered(const void* p) {
    Registry& r = Registrations();
    if (r.count.load(std::memory_order_acquire) == 0) return false;
    std::shared_lock lock(r.mutex);
    return r.ranges.count(reinterpret_cast<uintptr_t>(p)) != 0;
}

void ForgetRange(uintptr_t base, uint64_t size) {
    Registry& r = Registrations();
    if (r.count.load(std::memory_order_acquire) == 0) return;
    std::unique_lock lock(r.mutex);
    for (auto it = r.ranges.lower_bound(base); it != r.ranges.end() && it->first < base + size;) {
        it = r.ranges.erase(it);
        r.count.fetch_sub(1, std::memory_order_release);
    }
}

void ReleaseAll() {
    Registry& r = Registrations();
    std::unique_lock lock(r.mutex);
    if (!r.ranges.empty()) {
        Warn(
            "%zu host memory registration(s) were never undone with aclrtHostUnregister; they "
            "end now",
            r.ranges.size());
    }
    r.ranges.clear();
    r.count.store(0, std::memory_order_release);
}

}  // namespace openacl::host_register
