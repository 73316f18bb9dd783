#include "core/virtual_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>

#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/export_record.h"
#include "core/runtime.h"

namespace openacl::vmm {

namespace {

constexpr uint64_t kTiB = uint64_t{1} << 40;
constexpr uint64_t kNoAccess = ACL_RT_MEM_ACCESS_FLAGS_NONE;

// aclrtMallocPhysical's memory: a memory file, so that it can be mapped at any address.
struct Physical {
    int fd = -1;
    uint64_t size = 0;      // what the caller asked for: a mapping must be exactly this
    uint64_t reserved = 0;  // the file's size, rounded up to the granularity
    aclrtPhysicalMemProp prop{};
    Device* device = nullptr;  // nullptr: host memory
    uint32_t user_refs = 1;    // aclrtMallocPhysical and each aclrtMemRetainAllocationHandle
    uint32_t mappings = 0;     // a freed handle's memory lives until its last unmap
    // aclrtMemImportFromShareableHandle: another process's memory, not counted against a device.
    bool imported = false;
    // The shareable handle this one was exported as, or imported from (one per handle, each way).
    uint64_t shareable = 0;
    export_record::Export record;  // the export's record, while exported
};

struct Mapping {
    uint64_t size = 0;
    Physical* physical = nullptr;
    uint64_t device_access = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;  // the physical's own device
    uint64_t host_access = ACL_RT_MEM_ACCESS_FLAGS_NONE;
    std::map<int32_t, uint64_t> peer_access;  // other devices, as aclrtMemSetAccess set them
};

struct Reservation {
    uint64_t size = 0;                      // address space held, a multiple of the granularity
    Device* device = nullptr;               // the current device when it was reserved
    std::map<uintptr_t, Mapping> mappings;  // by start address
};

struct Registry {
    std::shared_mutex mutex;
    std::map<uintptr_t, Reservation> reservations;  // by start address
    std::map<const void*, std::unique_ptr<Physical>> physicals;
    std::map<int32_t, uint64_t> physical_bytes;  // by device id
    std::atomic<size_t> reservation_count{0};
};

Registry& Vmm() {
    static Registry* registry = new Registry;  // outlives static destructors: exit paths use it
    return *registry;
}

// CANN documents the family for Atlas A2/A3 and the Ascend 950 only.
aclError RequireChip(const char* api) {
    const std::string& soc = Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0 ||
        soc.rfind("Ascend950", 0) == 0) {
        return ACL_SUCCESS;
    }
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "%s: virtual memory management is not available on %s (CANN documents it for "
                "Atlas A2/A3 and the Ascend 950)",
                api, soc.c_str());
}

// A current context on the CPU backend (the CUDA backend does not map host memory files).
aclError RequireCpuContext(const char* api, Context** out) {
    aclError rc = RequireChip(api);
    if (rc != ACL_SUCCESS) return rc;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    if (ctx->device()->accelerator() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: virtual memory management is not supported on the %s backend yet "
                    "(docs/API_COVERAGE.md)",
                    api, ctx->device()->accelerator()->name());
    }
    *out = ctx;
    return ACL_SUCCESS;
}

bool IsHugeGiB(aclrtMemAttr attr) {
    return attr == ACL_MEM_HUGE1G || attr == ACL_MEM_P2P_HUGE1G || attr == ACL_HBM_MEM_HUGE1G ||
           attr == ACL_HBM_MEM_P2P_HUGE1G;
}

uint64_t GranularityOf(aclrtMemAttr attr) {
    return IsHugeGiB(attr) ? kHugeGranularity : kGranularity;
}

uint64_t RoundUp(uint64_t value, uint64_t unit) {
    return (value + unit - 1) / unit * unit;
}

// The documented memAttr values for device and for host physical memory
// (aclrtMallocPhysical's restrictions).
bool DeviceAttr(aclrtMemAttr a) {
    switch (a) {
        case ACL_MEM_NORMAL:
        case ACL_MEM_HUGE:
        case ACL_MEM_HUGE1G:
        case ACL_MEM_P2P_NORMAL:
        case ACL_MEM_P2P_HUGE:
        case ACL_MEM_P2P_HUGE1G:
        case ACL_HBM_MEM_HUGE:
        case ACL_HBM_MEM_HUGE1G:
        case ACL_HBM_MEM_NORMAL:
            return true;
        default:
            return false;
    }
}
bool HostAttr(aclrtMemAttr a) {
    switch (a) {
        case ACL_MEM_NORMAL:
        case ACL_MEM_HUGE:
        case ACL_MEM_P2P_NORMAL:
        case ACL_MEM_P2P_HUGE:
        case ACL_DDR_MEM_HUGE:
        case ACL_DDR_MEM_NORMAL:
        case ACL_DDR_MEM_P2P_HUGE:
        case ACL_DDR_MEM_P2P_NORMAL:
            return true;
        default:
            return false;
    }
}

// Checks a physical memory description; *device is its device (nullptr for host memory).
aclError CheckProp(const aclrtPhysicalMemProp* prop, Device** device) {
    if (prop == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "prop is null");
    if (prop->handleType != ACL_MEM_HANDLE_TYPE_NONE &&
        prop->handleType != ACL_MEM_HANDLE_TYPE_POSIX) {
        return Fail(ACL_ERROR_INVALID_PARAM, "prop->handleType %d is not an aclrtMemHandleType",
                    static_cast<int>(prop->handleType));
    }
    if (prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "prop->allocationType %d is not ACL_MEM_ALLOCATION_TYPE_PINNED, the only one",
                    static_cast<int>(prop->allocationType));
    }
    const aclrtMemAttr attr = prop->memAttr;
    switch (prop->location.type) {
        case ACL_MEM_LOCATION_TYPE_DEVICE:
            *device = Runtime::Get().DeviceById(prop->location.id);
            if (*device == nullptr) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "prop->location.id %u is not a device of this process (%u visible)",
                            prop->location.id, Runtime::Get().DeviceCount());
            }
            if (!DeviceAttr(attr)) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "prop->memAttr %d is not a memory attribute of device physical memory "
                            "(ACL_MEM_NORMAL, ACL_MEM_HUGE, ACL_MEM_HUGE1G, their P2P forms or "
                            "the ACL_HBM_MEM_* ones)",
                            static_cast<int>(attr));
            }
            break;
        case ACL_MEM_LOCATION_TYPE_HOST:
        case ACL_MEM_LOCATION_TYPE_HOST_NUMA:
            *device = nullptr;
            if (!HostAttr(attr)) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "prop->memAttr %d is not a memory attribute of host physical memory "
                            "(ACL_MEM_NORMAL, ACL_MEM_HUGE, their P2P forms or the ACL_DDR_MEM_* "
                            "ones; the 1 GiB pages are device memory only)",
                            static_cast<int>(attr));
            }
            break;
        default:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "prop->location.type %d is not a location physical memory can have "
                        "(ACL_MEM_LOCATION_TYPE_DEVICE, _HOST or _HOST_NUMA)",
                        static_cast<int>(prop->location.type));
    }
    const std::string& soc = Runtime::Get().config().soc_name;
    if ((attr == ACL_MEM_P2P_HUGE1G || attr == ACL_HBM_MEM_P2P_HUGE1G) &&
        soc.rfind("Ascend910_93", 0) != 0) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "1 GiB P2P pages (memAttr %d) exist on some Atlas A3 parts only, not on %s",
                    static_cast<int>(attr), soc.c_str());
    }
    if (attr == ACL_MEM_HUGE1G && soc.rfind("Ascend950", 0) == 0) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "ACL_MEM_HUGE1G is not available on %s: use ACL_HBM_MEM_HUGE1G", soc.c_str());
    }
    return ACL_SUCCESS;
}

// The reservation holding [address, address + size), or nullptr (registry lock held).
Reservation* FindReservation(Registry& r, uintptr_t address, uint64_t size, uintptr_t* base) {
    auto it = r.reservations.upper_bound(address);
    if (it == r.reservations.begin()) return nullptr;
    --it;
    if (address - it->first >= it->second.size || size > it->second.size - (address - it->first)) {
        return nullptr;
    }
    if (base != nullptr) *base = it->first;
    return &it->second;
}

// The mapping starting exactly at `address`, or nullptr (registry lock held).
Mapping* FindMappingAt(Registry& r, uintptr_t address, Reservation** owner = nullptr) {
    Reservation* reservation = FindReservation(r, address, 1, nullptr);
    if (reservation == nullptr) return nullptr;
    auto it = reservation->mappings.find(address);
    if (it == reservation->mappings.end()) return nullptr;
    if (owner != nullptr) *owner = reservation;
    return &it->second;
}

// A handle the caller may still use (not freed), or nullptr (registry lock held).
Physical* FindPhysical(Registry& r, const void* handle) {
    auto it = r.physicals.find(handle);
    if (it == r.physicals.end() || it->second->user_refs == 0) return nullptr;
    return it->second.get();
}

// Frees the memory once no handle and no mapping uses it (registry lock held, unique).
void DropIfUnused(Registry& r, Physical* physical) {
    if (physical->user_refs != 0 || physical->mappings != 0) return;
    if (physical->device != nullptr && !physical->imported)
        r.physical_bytes[physical->device->id()] -= physical->reserved;
    close(physical->fd);
    r.physicals.erase(physical);
}

int Protection(uint64_t access) {
    if (access == ACL_RT_MEM_ACCESS_FLAGS_READWRITE) return PROT_READ | PROT_WRITE;
    if (access == ACL_RT_MEM_ACCESS_FLAGS_READ) return PROT_READ;
    return PROT_NONE;
}

// Puts address space back to reserved-with-no-access (after an unmap, or for a reservation).
bool HoldAddressSpace(uintptr_t address, uint64_t size) {
    void* p = mmap(reinterpret_cast<void*>(address), size, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    return p != MAP_FAILED;
}

aclError BadHandle(const char* what, const void* handle) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s %p is not a live physical memory handle: it did not come from "
                "aclrtMallocPhysical, or was freed already",
                what, handle);
}

}  // namespace

aclError Reserve(void** virt, size_t size, size_t alignment, void* expect, uint64_t flags,
                 bool no_uc_memory) {
    (void)flags;  // documented as reserved, "recommended 0": nothing to check
    const char* api = no_uc_memory ? "aclrtReserveMemAddressNoUCMemory" : "aclrtReserveMemAddress";
    if (virt == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "virPtr is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
    if (alignment != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "alignment is reserved and must be 0, not %zu (reservations are aligned to "
                    "2 MiB)",
                    alignment);
    }
    Context* ctx = nullptr;
    if (aclError rc = RequireCpuContext(api, &ctx)) return rc;
    const std::string& soc = Runtime::Get().config().soc_name;
    uint64_t align = kGranularity;
    if (no_uc_memory) {
        if (soc.rfind("Ascend910_93", 0) != 0) {
            return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s exists on Atlas A3 parts only, not on %s", api, soc.c_str());
        }
        if (expect == nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s needs expectPtr: the system does not choose its address", api);
        }
        if (size % kHugeGranularity != 0) {
            return Fail(ACL_ERROR_INVALID_PARAM, "size %zu is not a whole number of GiB (>= 1 GiB)",
                        size);
        }
        align = kHugeGranularity;
    } else if (expect != nullptr) {
        if (soc.rfind("Ascend950", 0) == 0) {
            return Fail(ACL_ERROR_INVALID_PARAM, "expectPtr must be null on %s", soc.c_str());
        }
        const auto address = reinterpret_cast<uintptr_t>(expect);
        if (address < 16 * kTiB || address >= 24 * kTiB || size > 24 * kTiB - address) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "expectPtr %p (size %zu) is outside the 16 TiB - 24 TiB range a chosen "
                        "address must lie in",
                        expect, size);
        }
        align = size >= kHugeGranularity ? kHugeGranularity
                                         : std::max<uint64_t>(kGranularity, std::bit_ceil(size));
    }
    if (expect != nullptr && reinterpret_cast<uintptr_t>(expect) % align != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "expectPtr %p is not aligned to %" PRIu64
                    " bytes, as a %zu-byte reservation "
                    "must be",
                    expect, align, size);
    }
    const uint64_t held = RoundUp(size, kGranularity);
    uintptr_t base = 0;
    if (expect != nullptr) {
        void* p = mmap(expect, held, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
        if (p == MAP_FAILED || p != expect) {
            if (p != MAP_FAILED) munmap(p, held);  // an old kernel ignored the address
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "the range at expectPtr %p (%" PRIu64 " bytes) is not free: %s", expect,
                        held, std::strerror(errno == 0 ? EEXIST : errno));
        }
        base = reinterpret_cast<uintptr_t>(p);
    } else {
        // Over-reserve, then trim to an aligned start.
        void* p = mmap(nullptr, held + align, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                        "cannot reserve %" PRIu64 " bytes of address space: %s", held,
                        std::strerror(errno));
        }
        const auto start = reinterpret_cast<uintptr_t>(p);
        base = RoundUp(start, align);
        if (base > start) munmap(p, base - start);
        if (start + held + align > base + held) {
            munmap(reinterpret_cast<void*>(base + held), start + held + align - (base + held));
        }
    }
    Registry& r = Vmm();
    {
        std::unique_lock lock(r.mutex);
        Reservation reservation;
        reservation.size = held;
        reservation.device = ctx->device();
        r.reservations.emplace(base, std::move(reservation));
        r.reservation_count.fetch_add(1, std::memory_order_release);
    }
    *virt = reinterpret_cast<void*>(base);
    return ACL_SUCCESS;
}

aclError Release(void* virt) {
    if (virt == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "virPtr is null");
    Registry& r = Vmm();
    std::unique_lock lock(r.mutex);
    const auto address = reinterpret_cast<uintptr_t>(virt);
    auto it = r.reservations.find(address);
    if (it == r.reservations.end()) {
        uintptr_t base = 0;
        if (FindReservation(r, address, 1, &base) != nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%p lies inside the reservation at %p: release the address "
                        "aclrtReserveMemAddress returned",
                        virt, reinterpret_cast<void*>(base));
        }
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is not a reservation of aclrtReserveMemAddress (released already?)", virt);
    }
    if (!it->second.mappings.empty()) {
        const auto& [start, mapping] = *it->second.mappings.begin();
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the reservation at %p still has %zu mapping(s), the first at %p (%" PRIu64
                    " bytes): unmap them with aclrtUnmapMem first",
                    virt, it->second.mappings.size(), reinterpret_cast<void*>(start), mapping.size);
    }
    munmap(virt, it->second.size);
    r.reservations.erase(it);
    r.reservation_count.fetch_sub(1, std::memory_order_release);
    return ACL_SUCCESS;
}

aclError MallocPhysical(aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop,
                        uint64_t flags) {
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
    if (flags != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "flags is reserved and must be 0, not %" PRIu64,
                    flags);
    }
    Context* ctx = nullptr;
    if (aclError rc = RequireCpuContext("aclrtMallocPhysical", &ctx)) return rc;
    Device* device = nullptr;
    if (aclError rc = CheckProp(prop, &device)) return rc;
    auto physical = std::make_unique<Physical>();
    physical->size = size;
    physical->reserved = RoundUp(size, GranularityOf(prop->memAttr));
    physical->prop = *prop;
    physical->device = device;
    Registry& r = Vmm();
    std::unique_lock lock(r.mutex);
    if (device != nullptr) {
        backend::DeviceMemory& memory = device->memory();
        const uint64_t in_use = memory.used() + r.physical_bytes[device->id()];
        if (in_use > memory.capacity() || physical->reserved > memory.capacity() - in_use) {
            return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                        "device %d has %" PRIu64 " bytes free, not the %" PRIu64
                        " this physical allocation takes",
                        device->id(), in_use > memory.capacity() ? 0 : memory.capacity() - in_use,
                        physical->reserved);
        }
    }
    physical->fd = memfd_create("openacl-physical-memory", MFD_CLOEXEC);
    if (physical->fd < 0 || ftruncate(physical->fd, static_cast<off_t>(physical->reserved)) != 0) {
        const int error = errno;
        if (physical->fd >= 0) close(physical->fd);
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "cannot make %" PRIu64 " bytes of physical memory: %s", physical->reserved,
                    std::strerror(error));
    }
    if (device != nullptr) r.physical_bytes[device->id()] += physical->reserved;
    Physical* raw = physical.get();
    r.physicals.emplace(raw, std::move(physical));
    *handle = raw;
    return ACL_SUCCESS;
}

aclError FreePhysical(aclrtDrvMemHandle handle) {
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    Registry& r = Vmm();
    std::unique_lock lock(r.mutex);
    Physical* physical = FindPhysical(r, handle);
    if (physical == nullptr) return BadHandle("handle", handle);
    // Freeing the exported handle destroys its shareable handle: no new imports. Processes that
    // imported it keep the memory file, so what they mapped stays valid.
    if (--physical->user_refs == 0) physical->record.Revoke();
    DropIfUnused(r, physical);  // mapped memory lives on until its last aclrtUnmapMem
    return ACL_SUCCESS;
}

aclError Map(void* virt, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags,
             bool no_access) {
    const char* api = no_access ? "aclrtMemMapNoAccess" : "aclrtMapMem";
    if (virt == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "virPtr is null");
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    if (offset != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "offset is reserved and must be 0, not %zu", offset);
    }
    if (flags != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "flags is reserved and must be 0, not %" PRIu64,
                    flags);
    }
    Registry& r = Vmm();
    std::unique_lock lock(r.mutex);
    Physical* physical = FindPhysical(r, handle);
    if (physical == nullptr) return BadHandle("handle", handle);
    const uint64_t unit = GranularityOf(physical->prop.memAttr);
    if (size != physical->size) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s: size %zu is not the size of the physical memory (%" PRIu64
                    " bytes): a mapping maps a whole physical allocation",
                    api, size, physical->size);
    }
    if (size % unit != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s: size %zu is not a multiple of the granularity, %" PRIu64
                    " bytes (aclrtMemGetAllocationGranularity)",
                    api, size, unit);
    }
    const auto address = reinterpret_cast<uintptr_t>(virt);
    if (address % unit != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s: virPtr %p is not aligned to %" PRIu64 " bytes",
                    api, virt, unit);
    }
    uintptr_t base = 0;
    Reservation* reservation = FindReservation(r, address, size, &base);
    if (reservation == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s: [%p, +%zu) does not lie inside one reservation of "
                    "aclrtReserveMemAddress",
                    api, virt, size);
    }
    for (const auto& [start, mapping] : reservation->mappings) {
        if (start < address + size && address < start + mapping.size) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s: [%p, +%zu) overlaps the mapping at %p (%" PRIu64
                        " bytes): unmap it first",
                        api, virt, size, reinterpret_cast<void*>(start), mapping.size);
        }
        if (mapping.physical->device != physical->device) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s: the reservation at %p already maps memory of %s; one reservation "
                        "cannot map the memory of two places",
                        api, reinterpret_cast<void*>(base),
                        mapping.physical->device != nullptr ? "another device" : "the host");
        }
    }
    const uint64_t access =
        no_access ? ACL_RT_MEM_ACCESS_FLAGS_NONE : ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    void* p = mmap(virt, size, Protection(access), MAP_SHARED | MAP_FIXED, physical->fd, 0);
    if (p == MAP_FAILED) {
        const int error = errno;
        HoldAddressSpace(address, size);
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: cannot map %zu bytes at %p: %s", api, size,
                    virt, std::strerror(error));
    }
    Mapping mapping;
    mapping.size = size;
    mapping.physical = physical;
    mapping.device_access = access;
    mapping.host_access = physical->device == nullptr ? access : kNoAccess;
    reservation->mappings.emplace(address, std::move(mapping));
    ++physical->mappings;
    return ACL_SUCCESS;
}

aclError Unmap(void* virt) {
    if (virt == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "virPtr is null");
    Registry& r = Vmm();
    std::unique_lock lock(r.mutex);
    const auto address = reinterpret_cast<uintptr_t>(virt);
    Reservation* reservation = nullptr;
    Mapping* mapping = FindMappingAt(r, address, &reservation);
    if (mapping == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is not the start of a mapping of aclrtMapMem (unmapped already?)", virt);
    }
    HoldAddressSpace(address, mapping->size);
    Physical* physical = mapping->physical;
    reservation->mappings.erase(address);
    --physical->mappings;
    DropIfUnused(r, physical);
    return ACL_SUCCESS;
}

aclError SetAccess(void* virt, size_t size, const aclrtMemAccessDesc* desc, size_t count) {
    if (virt == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "virPtr is null");
    if (desc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "desc is null");
    if (count == 0) return Fail(ACL_ERROR_INVALID_PARAM, "count must not be 0");
    for (size_t i = 0; i < count; ++i) {
        const uint64_t f = desc[i].flags;
        if (f != ACL_RT_MEM_ACCESS_FLAGS_NONE && f != ACL_RT_MEM_ACCESS_FLAGS_READ &&
            f != ACL_RT_MEM_ACCESS_FLAGS_READWRITE) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "desc[%zu].flags %" PRIu64 " is not an aclrtMemAccessFlags (0, 1 or 3)", i,
                        f);
        }
        const aclrtMemLocation& where = desc[i].location;
        if (where.type == ACL_MEM_LOCATION_TYPE_DEVICE) {
            if (Runtime::Get().DeviceById(where.id) == nullptr) {
                return Fail(ACL_ERROR_INVALID_PARAM, "desc[%zu].location.id %u is not a device", i,
                            where.id);
            }
        } else if (where.type != ACL_MEM_LOCATION_TYPE_HOST) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "desc[%zu].location.type %d is neither ACL_MEM_LOCATION_TYPE_DEVICE nor "
                        "_HOST",
                        i, static_cast<int>(where.type));
        }
    }
    Registry& r = Vmm();
    std::unique_lock lock(r.mutex);
    Mapping* mapping = FindMappingAt(r, reinterpret_cast<uintptr_t>(virt));
    if (mapping == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is not the start of a mapping: aclrtMemSetAccess takes the virPtr and "
                    "size given to aclrtMapMem",
                    virt);
    }
    if (size != mapping->size) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "size %zu is not the size of the mapping at %p (%" PRIu64 " bytes)", size, virt,
                    mapping->size);
    }
    Device* own = mapping->physical->device;
    for (size_t i = 0; i < count; ++i) {
        const aclrtMemLocation& where = desc[i].location;
        if (where.type == ACL_MEM_LOCATION_TYPE_HOST) {
            mapping->host_access = desc[i].flags;
        } else if (own == nullptr || static_cast<int32_t>(where.id) == own->id()) {
            mapping->device_access = desc[i].flags;
        } else {
            mapping->peer_access[static_cast<int32_t>(where.id)] = desc[i].flags;
        }
    }
    // One process holds host and device alike: the pages allow what anyone may do, and the
    // runtime's checks refuse what the device's own access does not allow.
    uint64_t widest = mapping->device_access | mapping->host_access;
    for (const auto& [id, flags] : mapping->peer_access)
        widest |= flags;
    if (mprotect(virt, size, Protection(widest)) != 0) {
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR, "cannot change the access of %p: %s", virt,
                    std::strerror(errno));
    }
    return ACL_SUCCESS;
}

aclError GetAccess(void* virt, const aclrtMemLocation* location, uint64_t* flags) {
    if (virt == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "virPtr is null");
    if (location == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "location is null");
    if (flags == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "flag is null");
    if (location->type == ACL_MEM_LOCATION_TYPE_DEVICE) {
        if (Runtime::Get().DeviceById(location->id) == nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM, "location->id %u is not a device", location->id);
        }
    } else if (location->type != ACL_MEM_LOCATION_TYPE_HOST) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "location->type %d is neither ACL_MEM_LOCATION_TYPE_DEVICE nor _HOST",
                    static_cast<int>(location->type));
    }
    Registry& r = Vmm();
    std::shared_lock lock(r.mutex);
    Mapping* mapping = FindMappingAt(r, reinterpret_cast<uintptr_t>(virt));
    if (mapping == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%p is not the start of a mapping of aclrtMapMem",
                    virt);
    }
    Device* own = mapping->physical->device;
    if (location->type == ACL_MEM_LOCATION_TYPE_HOST) {
        *flags = mapping->host_access;
    } else if (own == nullptr || static_cast<int32_t>(location->id) == own->id()) {
        *flags = mapping->device_access;
    } else {
        auto it = mapping->peer_access.find(static_cast<int32_t>(location->id));
        *flags = it == mapping->peer_access.end() ? kNoAccess : it->second;
    }
    return ACL_SUCCESS;
}

aclError Granularity(const aclrtPhysicalMemProp* prop, aclrtMemGranularityOptions option,
                     size_t* granularity) {
    if (granularity == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "granularity is null");
    if (option != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM &&
        option != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "option %d is neither ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM nor _RECOMMENDED",
                    static_cast<int>(option));
    }
    if (aclError rc = RequireChip("aclrtMemGetAllocationGranularity")) return rc;
    Device* device = nullptr;
    if (aclError rc = CheckProp(prop, &device)) return rc;
    *granularity = GranularityOf(prop->memAttr);
    return ACL_SUCCESS;
}

aclError RetainHandle(void* virt, aclrtDrvMemHandle* handle) {
    if (virt == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "virPtr is null");
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    Registry& r = Vmm();
    std::unique_lock lock(r.mutex);
    Mapping* mapping = FindMappingAt(r, reinterpret_cast<uintptr_t>(virt));
    if (mapping == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is not the start of a mapping: aclrtMemRetainAllocationHandle takes the "
                    "virPtr given to aclrtMapMem",
                    virt);
    }
    ++mapping->physical->user_refs;  // each retain is matched by one aclrtFreePhysical
    *handle = mapping->physical;
    return ACL_SUCCESS;
}

aclError Properties(aclrtDrvMemHandle handle, aclrtPhysicalMemProp* prop) {
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    if (prop == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "prop is null");
    Registry& r = Vmm();
    std::shared_lock lock(r.mutex);
    Physical* physical = FindPhysical(r, handle);
    if (physical == nullptr) return BadHandle("handle", handle);
    *prop = physical->prop;
    return ACL_SUCCESS;
}

namespace {

constexpr char kShareablePrefix[] = "openacl.vmm.";
// What an aclrtMemFabricHandle made here starts with; the shareable handle's value follows.
constexpr char kFabricMagic[8] = {'O', 'A', 'C', 'L', 'F', 'A', 'B', '1'};

std::string RecordName(uint64_t shareable) {
    char text[40];
    std::snprintf(text, sizeof text, "%s%016" PRIx64, kShareablePrefix, shareable);
    return text;
}

// Checks a shareable handle's type: the default one (a uint64_t) everywhere, the fabric one (an
// aclrtMemFabricHandle, for sharing across AI servers) on the Atlas A3 only, as CANN documents.
aclError CheckShareType(aclrtMemSharedHandleType type) {
    if (type == ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) return ACL_SUCCESS;
    if (type != ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "shareType %d is not ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT (1) or _FABRIC (2)",
                    static_cast<int>(type));
    }
    const std::string& soc = Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend910_93", 0) != 0) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "fabric shareable handles (sharing across AI servers) exist on the Atlas A3 "
                    "only, not on %s: use ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT",
                    soc.c_str());
    }
    return ACL_SUCCESS;
}

// The value a caller's shareable handle holds (type checked already).
aclError ReadShareable(const void* shareable, aclrtMemSharedHandleType type, uint64_t* value) {
    if (shareable == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "shareableHandle is null");
    if (type == ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) {
        std::memcpy(value, shareable, sizeof *value);
        return ACL_SUCCESS;
    }
    const auto* fabric = static_cast<const aclrtMemFabricHandle*>(shareable);
    if (std::memcmp(fabric->data, kFabricMagic, sizeof kFabricMagic) != 0) {
        return Fail(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
                    "the aclrtMemFabricHandle at %p was not made by "
                    "aclrtMemExportToShareableHandleV2",
                    shareable);
    }
    std::memcpy(value, fabric->data + sizeof kFabricMagic, sizeof *value);
    return ACL_SUCCESS;
}

// The physical handle exported or imported as `shareable` (registry lock held), or nullptr.
Physical* FindShared(Registry& r, uint64_t shareable, bool imported) {
    for (auto& [handle, physical] : r.physicals) {
        if (physical->shareable == shareable && physical->imported == imported &&
            physical->user_refs != 0) {
            return physical.get();
        }
    }
    return nullptr;
}

}  // namespace

aclError ExportToShareable(aclrtDrvMemHandle handle, uint64_t flags, aclrtMemSharedHandleType type,
                           void* shareable) {
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    if (shareable == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "shareableHandle is null");
    if ((flags & ~ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION) != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flags 0x%" PRIx64
                    " is not ACL_RT_VMM_EXPORT_FLAG_DEFAULT (0) or "
                    "ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION (1)",
                    flags);
    }
    if (aclError rc = CheckShareType(type)) return rc;
    Registry& r = Vmm();
    std::unique_lock lock(r.mutex);
    Physical* physical = FindPhysical(r, handle);
    if (physical == nullptr) return BadHandle("handle", handle);
    if (physical->imported) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "handle %p was imported from another process's shareable handle %#" PRIx64
                    "; only the process that allocated physical memory exports it",
                    handle, physical->shareable);
    }
    if (physical->shareable != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "handle %p is exported already, as shareable handle %#" PRIx64
                    ": a physical handle has one shareable handle",
                    handle, physical->shareable);
    }
    if (physical->device == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "handle %p is host physical memory: only device physical memory is shared "
                    "between processes",
                    handle);
    }
    // The pid in the high half keeps handles of live processes apart; the random low half makes
    // them unguessable.
    const uint64_t value =
        (static_cast<uint64_t>(getpid()) << 32) | (export_record::RandomBits() & 0xFFFFFFFFu) | 1u;
    export_record::Record record;
    record.kind = export_record::Kind::kPhysical;
    record.size = physical->size;
    record.file_size = physical->reserved;
    record.device_id = physical->device->id();
    record.check_pid = (flags & ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION) == 0;
    static_assert(sizeof(aclrtPhysicalMemProp) <= sizeof record.payload);
    std::memcpy(record.payload, &physical->prop, sizeof physical->prop);
    if (aclError rc = export_record::Export::Create(RecordName(value), record, physical->fd,
                                                    &physical->record)) {
        return rc;
    }
    physical->shareable = value;
    if (type == ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) {
        std::memcpy(shareable, &value, sizeof value);
    } else {
        aclrtMemFabricHandle fabric{};
        std::memcpy(fabric.data, kFabricMagic, sizeof kFabricMagic);
        std::memcpy(fabric.data + sizeof kFabricMagic, &value, sizeof value);
        std::memcpy(shareable, &fabric, sizeof fabric);
    }
    return ACL_SUCCESS;
}

aclError SetPidToShareable(const void* shareable, aclrtMemSharedHandleType type,
                           const int32_t* pids, size_t count) {
    if (aclError rc = CheckShareType(type)) return rc;
    uint64_t value = 0;
    if (aclError rc = ReadShareable(shareable, type, &value)) return rc;
    if (pids == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "pid is null");
    if (count == 0) return Fail(ACL_ERROR_INVALID_PARAM, "pidNum must not be 0");
    for (size_t i = 0; i < count; ++i) {
        if (pids[i] <= 0) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "pid[%zu] is %d, not a process id (aclrtDeviceGetBareTgid gives one)", i,
                        pids[i]);
        }
    }
    Registry& r = Vmm();
    std::unique_lock lock(r.mutex);
    Physical* physical = FindShared(r, value, /*imported=*/false);
    if (physical == nullptr) {
        return Fail(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
                    "shareable handle %#" PRIx64
                    " is not exported by this process (its physical handle was freed?): the "
                    "exporter sets the allow-list",
                    value);
    }
    return physical->record.AllowPids(pids, count);
}

aclError ImportFromShareable(const void* shareable, aclrtMemSharedHandleType type,
                             int32_t device_id, uint64_t flags, aclrtDrvMemHandle* handle) {
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    if (flags != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "flags is reserved and must be 0, not %" PRIu64,
                    flags);
    }
    if (aclError rc = CheckShareType(type)) return rc;
    uint64_t value = 0;
    if (aclError rc = ReadShareable(shareable, type, &value)) return rc;
    Device* device = nullptr;
    if (device_id >= 0) {
        device = Runtime::Get().DeviceById(device_id);
        if (device == nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM, "deviceId %d is not a device (%u visible)",
                        device_id, Runtime::Get().DeviceCount());
        }
    }
    Context* ctx = nullptr;
    if (aclError rc = RequireCpuContext("aclrtMemImportFromShareableHandle", &ctx)) return rc;
    Registry& r = Vmm();
    std::unique_lock lock(r.mutex);
    if (FindShared(r, value, /*imported=*/false) != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "shareable handle %#" PRIx64
                    " was exported by this process: it is imported in other processes only "
                    "(here, use the physical handle itself)",
                    value);
    }
    if (Physical* known = FindShared(r, value, /*imported=*/true)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "shareable handle %#" PRIx64
                    " is imported in this process already, as handle %p: a shareable handle has "
                    "one handle per process",
                    value, static_cast<void*>(known));
    }
    export_record::Record record;
    int fd = -1;
    if (aclError rc = export_record::Open(RecordName(value), export_record::Kind::kPhysical,
                                          "shareable handle", &record, &fd)) {
        return rc;
    }
    if (device == nullptr) {
        // V2 names no device: the exporter's, or this process's own when it sees fewer.
        device = Runtime::Get().DeviceById(record.device_id);
        if (device == nullptr) device = ctx->device();
    }
    auto physical = std::make_unique<Physical>();
    physical->fd = fd;
    physical->size = record.size;
    physical->reserved = record.file_size;
    std::memcpy(&physical->prop, record.payload, sizeof physical->prop);
    physical->prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    physical->prop.location.id = static_cast<uint32_t>(device->id());
    physical->device = device;
    physical->imported = true;
    physical->shareable = value;
    Physical* raw = physical.get();
    r.physicals.emplace(raw, std::move(physical));
    *handle = raw;
    return ACL_SUCCESS;
}

bool Classify(const void* p, MemRegion* region) {
    Registry& r = Vmm();
    if (r.reservation_count.load(std::memory_order_acquire) == 0) return false;
    std::shared_lock lock(r.mutex);
    const auto address = reinterpret_cast<uintptr_t>(p);
    Reservation* reservation = FindReservation(r, address, 1, nullptr);
    if (reservation == nullptr) return false;
    *region = MemRegion{};
    region->vmm = true;
    auto it = reservation->mappings.upper_bound(address);
    if (it != reservation->mappings.begin()) {
        --it;
        const Mapping& mapping = it->second;
        if (address - it->first < mapping.size) {
            Device* device = mapping.physical->device;
            region->domain = device != nullptr ? MemDomain::kDevice : MemDomain::kHostPinned;
            region->device = device;
            region->base = it->first;
            region->requested = mapping.size;
            region->readable = (mapping.device_access & ACL_RT_MEM_ACCESS_FLAGS_READ) != 0;
            region->writable = mapping.device_access == ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
            // Mappings side by side are one buffer (that is what reserving a range is for): a
            // copy may run on into the next ones that follow without a gap, with the same
            // device and access.
            uintptr_t end = it->first + mapping.size;
            for (auto next = std::next(it);
                 next != reservation->mappings.end() && next->first == end &&
                 next->second.physical->device == device &&
                 next->second.device_access == mapping.device_access;
                 ++next) {
                end += next->second.size;
            }
            region->usable = end - it->first;
            return true;
        }
    }
    region->domain = MemDomain::kDeviceFreed;
    region->device = reservation->device;
    return true;
}

std::string Describe(const void* p) {
    Registry& r = Vmm();
    if (r.reservation_count.load(std::memory_order_acquire) == 0) return "";
    std::shared_lock lock(r.mutex);
    const auto address = reinterpret_cast<uintptr_t>(p);
    uintptr_t base = 0;
    Reservation* reservation = FindReservation(r, address, 1, &base);
    if (reservation == nullptr) return "";
    char text[256];
    auto it = reservation->mappings.upper_bound(address);
    if (it != reservation->mappings.begin() &&
        address - std::prev(it)->first < std::prev(it)->second.size) {
        --it;
        const Physical* physical = it->second.physical;
        char where[32] = "the host";
        if (physical->device != nullptr)
            std::snprintf(where, sizeof where, "device %d", physical->device->id());
        std::snprintf(text, sizeof text,
                      "a %" PRIu64 "-byte aclrtMapMem mapping at %p of physical memory on %s",
                      it->second.size, reinterpret_cast<void*>(it->first), where);
    } else {
        std::snprintf(text, sizeof text,
                      "an unmapped part of the %" PRIu64 "-byte reservation at %p",
                      reservation->size, reinterpret_cast<void*>(base));
    }
    return text;
}

uint64_t PhysicalBytes(int32_t device_id) {
    Registry& r = Vmm();
    std::shared_lock lock(r.mutex);
    auto it = r.physical_bytes.find(device_id);
    return it == r.physical_bytes.end() ? 0 : it->second;
}

void ReleaseAll() {
    Registry& r = Vmm();
    std::unique_lock lock(r.mutex);
    for (auto& [base, reservation] : r.reservations)
        munmap(reinterpret_cast<void*>(base), reservation.size);
    r.reservations.clear();
    r.reservation_count.store(0, std::memory_order_release);
    for (auto& [handle, physical] : r.physicals) {
        physical->record.Revoke();
        close(physical->fd);
    }
    r.physicals.clear();
    r.physical_bytes.clear();
}

}  // namespace openacl::vmm
