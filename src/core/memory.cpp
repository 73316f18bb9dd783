#include "core/memory.h"

#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <shared_mutex>

#include "core/check.h"
#include "core/context.h"
#include "core/device.h"
#include "core/device_variable.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/host_mapping.h"
#include "core/host_register.h"
#include "core/ipc_memory.h"
#include "core/managed_memory.h"
#include "core/model_ri.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/virtual_memory.h"

namespace openacl {
namespace {

constexpr uint64_t kHostAlignment = 64;
constexpr uint64_t kGiB = uint64_t{1} << 30;

uint64_t AlignUp(uint64_t value, uint64_t to) {
    return (value + to - 1) / to * to;
}

struct HostBlock {
    uint64_t usable;
    uint64_t requested;
    const void* call_site;
    backend::Accelerator* pinned_by = nullptr;  // page-locked by an accelerator; else malloc'd
};

// The accelerator that pins host memory for aclrtMallocHost (any device of it: the memory is
// portable), or nullptr on the CPU backend.
backend::Accelerator* HostAccelerator() {
    const auto& devices = Runtime::Get().devices();
    return devices.empty() ? nullptr : devices.front()->accelerator();
}

void FreeHostBlock(void* p, const HostBlock& block) {
    if (block.pinned_by != nullptr) {
        block.pinned_by->FreeHost(p);
    } else {
        std::free(p);
    }
}

// The accelerator that must move data touching these regions, or nullptr when the host can.
backend::Accelerator* AcceleratorOf(const MemRegion& a, const MemRegion& b) {
    if (a.device != nullptr && a.device->accelerator() != nullptr) return a.device->accelerator();
    if (b.device != nullptr && b.device->accelerator() != nullptr) return b.device->accelerator();
    return nullptr;
}

aclError DeviceFailed(backend::Accelerator* accelerator, int32_t status, const char* what) {
    return Fail(ACL_ERROR_RT_COPY_DATA, "%s failed on %s: %s", what, accelerator->name(),
                accelerator->StatusText(status).c_str());
}

std::shared_mutex g_host_mutex;
std::map<uintptr_t, HostBlock>& HostBlocks() {
    static auto* blocks = new std::map<uintptr_t, HostBlock>;
    return *blocks;
}

const char* KindName(aclrtMemcpyKind kind) {
    switch (kind) {
        case ACL_MEMCPY_HOST_TO_HOST:
            return "ACL_MEMCPY_HOST_TO_HOST";
        case ACL_MEMCPY_HOST_TO_DEVICE:
            return "ACL_MEMCPY_HOST_TO_DEVICE";
        case ACL_MEMCPY_DEVICE_TO_HOST:
            return "ACL_MEMCPY_DEVICE_TO_HOST";
        case ACL_MEMCPY_DEVICE_TO_DEVICE:
            return "ACL_MEMCPY_DEVICE_TO_DEVICE";
        case ACL_MEMCPY_DEFAULT:
            return "ACL_MEMCPY_DEFAULT";
        case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
            return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
        case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
            return "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE";
        case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
            return "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE";
    }
    return "an unknown kind";
}

bool IsHuge1G(aclrtMemMallocPolicy policy) {
    return policy == ACL_MEM_MALLOC_HUGE1G_ONLY || policy == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

// The bytes the runtime really reserves for a request, as documented per allocation call.
uint64_t PaddedSize(uint64_t size, aclrtMemMallocPolicy policy, DeviceAllocKind kind) {
    if (kind == DeviceAllocKind::kAlign32) return AlignUp(size, 32);
    if (kind != DeviceAllocKind::kDvpp && IsHuge1G(policy)) return AlignUp(size, kGiB);
    // Ascend 950 parts do not add the 32 bytes of padding.
    bool no_pad = Runtime::Get().config().soc_name.rfind("Ascend950", 0) == 0;
    return AlignUp(size, 32) + (no_pad ? 0 : 32);
}

// A kind/pointer mismatch the real runtime tolerates: copied as asked, but reported.
aclError Mismatch(const char* what) {
    if (check::On()) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s (refused because strict checks are on)", what);
    }
    if (Runtime::Get().config().strict) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s (refused because OPENACL_STRICT is set)", what);
    }
    Warn("%s; copying as asked", what);
    return ACL_SUCCESS;
}

// With strict checks, what the runtime remembers about the freed allocation p was in.
std::string FreedText(check::Resource resource, const void* p) {
    check::Freed freed;
    if (!check::On() || !check::FindFreed(resource, p, &freed)) return "";
    return check::DescribeFreed(freed);
}

// ", a 4096-byte aclrtMalloc allocation ..." when strict checks are on, else "".
std::string AllocationSuffix(const void* p) {
    if (!check::On()) return "";
    std::string text = DescribeAllocation(p);
    return text.empty() ? text : " (" + text + ")";
}

// Checks one side of a copy or fill: `expect_device` is what the kind says about it.
aclError CheckSide(const char* which, const void* p, const MemRegion& r, bool expect_device,
                   size_t count, const char* kind_name) {
    if (r.domain == MemDomain::kDeviceFreed && r.vmm) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p points into %s: map physical memory there with aclrtMapMem first", which,
                    p, vmm::Describe(p).c_str());
    }
    if (r.variable && std::strcmp(which, "src") != 0 && !r.writable) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s %p lies in %s, which is read-only (const)", which,
                    p, device_variable::Describe(p).c_str());
    }
    if (r.vmm && (std::strcmp(which, "src") == 0 ? !r.readable : !r.writable)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p lies in %s, which the device may %s: grant access with "
                    "aclrtMemSetAccess",
                    which, p, vmm::Describe(p).c_str(),
                    r.readable ? "only read" : "not access at all");
    }
    if (r.domain == MemDomain::kDeviceFreed) {
        std::string freed = FreedText(check::Resource::kDeviceMemory, p);
        if (!freed.empty()) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s %p points into freed device memory: it was in %s (use after free)",
                        which, p, freed.c_str());
        }
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p points into device %d's memory but not into a live allocation: it "
                    "was freed, or never allocated",
                    which, p, r.device->id());
    }
    if (expect_device && r.domain == MemDomain::kHost) {
        std::string freed = FreedText(check::Resource::kHostMemory, p);
        if (!freed.empty()) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s %p points into freed pinned host memory: it was in %s (use after "
                        "free)",
                        which, p, freed.c_str());
        }
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p is not device-accessible memory (it is ordinary host memory: "
                    "malloc'd, on the stack, or freed), but %s says it is device memory: "
                    "allocate it with aclrtMalloc (or aclrtMallocHost), or pass the right kind",
                    which, p, kind_name);
    }
    if (r.domain == MemDomain::kDevice || r.domain == MemDomain::kHostPinned) {
        uint64_t offset = reinterpret_cast<uintptr_t>(p) - r.base;
        if (count > r.usable - offset) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s range of %zu bytes at %p runs past the end of its allocation (%" PRIu64
                        " usable bytes from %p, %" PRIu64 " bytes left)",
                        which, count, p, r.usable, reinterpret_cast<void*>(r.base),
                        r.usable - offset);
        }
    }
    if (r.managed) return ACL_SUCCESS;  // reachable from host and device: any kind is right
    char text[768];
    if (!expect_device && r.domain == MemDomain::kDevice) {
        std::snprintf(text, sizeof text, "%s %p is device memory%s but %s says it is host memory",
                      which, p, AllocationSuffix(p).c_str(), kind_name);
        return Mismatch(text);
    }
    if (expect_device && r.domain == MemDomain::kHostPinned) {
        std::snprintf(text, sizeof text,
                      "%s %p is pinned host memory%s but %s says it is device memory", which, p,
                      AllocationSuffix(p).c_str(), kind_name);
        return Mismatch(text);
    }
    return ACL_SUCCESS;
}

// Host memory that no registry knows (malloc'd, static, stack, or wild) is about to be read or
// written by the host: a range the process does not map with that access is refused here rather
// than crash the process. Device, pinned and DVPP memory never get here, so they pay nothing.
aclError CheckUnknownHost(const char* which, const void* p, const MemRegion& r, uint64_t width,
                          uint64_t pitch, uint64_t rows, HostAccess access) {
    if (r.domain != MemDomain::kHost) return ACL_SUCCESS;
    return CheckHostMappingRows(which, p, width, pitch, rows, access);
}

bool PeersEnabled(Device* a, Device* b) {
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    return a->peers.count(b->id()) != 0 || b->peers.count(a->id()) != 0;
}

// Strict checks: memory of a device other than the current one, without peer access, is an
// error (on hardware the current device cannot reach it).
aclError CheckOwnDevice(const char* which, const void* p, const MemRegion& r) {
    if (r.domain != MemDomain::kDevice) return ACL_SUCCESS;
    Context* current = CurrentContext();
    if (current == nullptr || current->device() == r.device) return ACL_SUCCESS;
    if (PeersEnabled(current->device(), r.device)) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s %p is memory of device %d (%s), but this thread's current device is %d: call "
                "aclrtSetDevice(%d) first, or aclrtDeviceEnablePeerAccess",
                which, p, r.device->id(), DescribeAllocation(p).c_str(), current->device()->id(),
                r.device->id());
}

}  // namespace

const char* AllocName(DeviceAllocKind kind) {
    switch (kind) {
        case DeviceAllocKind::kMalloc:
            return "aclrtMalloc";
        case DeviceAllocKind::kAlign32:
            return "aclrtMallocAlign32";
        case DeviceAllocKind::kCached:
            return "aclrtMallocCached";
        case DeviceAllocKind::kDvpp:
            return "acldvppMalloc";
        case DeviceAllocKind::kModel:
            return "aclmdlLoad (model memory)";
        case DeviceAllocKind::kPool:
            return "aclrtMemPoolMallocAsync";
    }
    return "aclrtMalloc";
}

std::string DescribeAllocation(const void* p) {
    MemRegion region = ClassifyPointer(p);
    if (region.vmm) return region.domain == MemDomain::kDeviceFreed ? "" : vmm::Describe(p);
    if (region.imported) return ipc::Describe(p);
    if (region.managed) return managed::Describe(p);
    if (region.variable) return device_variable::Describe(p);
    char text[200];
    const void* caller = nullptr;
    check::Resource resource = check::Resource::kDeviceMemory;
    if (region.domain == MemDomain::kDevice) {
        backend::DeviceMemory::Block block;
        if (!region.device->memory().Find(p, &block)) return "";
        caller = block.tag.call_site;
        std::snprintf(text, sizeof text, "a %" PRIu64 "-byte %s allocation at %p on device %d",
                      block.tag.requested, AllocName(static_cast<DeviceAllocKind>(block.tag.kind)),
                      reinterpret_cast<void*>(block.base), region.device->id());
    } else if (region.domain == MemDomain::kHostPinned) {
        bool allocated = false;
        {
            std::shared_lock lock(g_host_mutex);
            auto it = HostBlocks().find(region.base);
            allocated = it != HostBlocks().end();
            if (allocated) caller = it->second.call_site;
        }
        resource = check::Resource::kHostMemory;
        std::snprintf(text, sizeof text,
                      allocated ? "a %" PRIu64 "-byte aclrtMallocHost allocation at %p"
                                : "a %" PRIu64 "-byte host range registered at %p",
                      region.requested, reinterpret_cast<void*>(region.base));
        if (!allocated) return text;
    } else {
        return "";
    }
    std::string site =
        check::CreationSite(resource, reinterpret_cast<const void*>(region.base), caller);
    return site.empty() ? std::string(text) : std::string(text) + ", allocated at " + site;
}

const char* DomainName(MemDomain domain) {
    switch (domain) {
        case MemDomain::kDevice:
            return "device memory";
        case MemDomain::kDeviceFreed:
            return "freed device memory";
        case MemDomain::kHostPinned:
            return "pinned host memory";
        case MemDomain::kHost:
            return "host memory";
    }
    return "memory";
}

MemRegion ClassifyPointer(const void* p) {
    MemRegion region;
    // All devices, released ones too: their memory must read as freed device memory, never as
    // host memory a copy could write to (aclFinalize on another thread, a stale pointer).
    for (Device* device : Runtime::Get().all_devices()) {
        if (!device->memory().Contains(p)) continue;
        region.device = device;
        backend::DeviceMemory::Block block;
        if (device->memory().Find(p, &block)) {
            region.domain = MemDomain::kDevice;
            region.base = block.base;
            region.usable = block.tag.usable;
            region.requested = block.tag.requested;
            region.alloc_kind = block.tag.kind;
            // Past the usable bytes lies only the arena's own rounding: not the caller's.
            if (reinterpret_cast<uintptr_t>(p) - block.base >= block.tag.usable) {
                region.domain = MemDomain::kDeviceFreed;
            }
        } else {
            region.domain = MemDomain::kDeviceFreed;
        }
        return region;
    }
    if (vmm::Classify(p, &region)) return region;
    if (ipc::Classify(p, &region)) return region;
    if (host_register::Classify(p, &region)) return region;
    if (managed::Classify(p, &region)) return region;
    if (device_variable::Classify(p, &region)) return region;
    auto address = reinterpret_cast<uintptr_t>(p);
    std::shared_lock lock(g_host_mutex);
    auto& blocks = HostBlocks();
    auto it = blocks.upper_bound(address);
    if (it != blocks.begin()) {
        --it;
        if (address < it->first + it->second.usable) {
            region.domain = MemDomain::kHostPinned;
            region.base = it->first;
            region.usable = it->second.usable;
            region.requested = it->second.requested;
        }
    }
    return region;
}

aclError DeviceMalloc(void** ptr, size_t size, aclrtMemMallocPolicy policy, DeviceAllocKind kind,
                      const void* call_site) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "the output pointer is null");
    *ptr = nullptr;
    if (size == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "size is 0: device allocations must be > 0 bytes");
    }
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    return DeviceMallocIn(ctx, ptr, size, policy, kind, call_site);
}

aclError DeviceMallocIn(Context* ctx, void** ptr, size_t size, aclrtMemMallocPolicy policy,
                        DeviceAllocKind kind, const void* call_site) {
    *ptr = nullptr;
    Device* device = ctx->device();
    backend::DeviceMemory& arena = device->memory();
    if (size > arena.capacity()) {
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "cannot allocate %zu bytes: device %d has only %" PRIu64
                    " bytes in total "
                    "(set OPENACL_DEVICE_MEMORY_MB for more)",
                    size, device->id(), arena.capacity());
    }
    backend::DeviceMemory::Tag tag;
    tag.requested = size;
    tag.usable = PaddedSize(size, policy, kind);
    tag.owner = ctx;
    tag.call_site = call_site;
    tag.kind = static_cast<uint32_t>(kind);
    // DVPP and model memory is used by host tasks (DVPP, the host model engine) on an
    // accelerator too, so it must be reachable from the host there.
    tag.host_accessible = kind == DeviceAllocKind::kDvpp || kind == DeviceAllocKind::kModel;
    void* p = arena.Allocate(tag.usable, tag);
    if (p == nullptr) {
        uint64_t used = arena.used();
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "out of device memory: device %d has %" PRIu64 " of %" PRIu64
                    " bytes free (or too fragmented), %" PRIu64
                    " needed for %zu requested: "
                    "free memory you no longer use, or set OPENACL_DEVICE_MEMORY_MB",
                    device->id(), arena.capacity() - used, arena.capacity(), tag.usable, size);
    }
    if (check::On()) check::NoteCreated(check::Resource::kDeviceMemory, p);
    device->usage[static_cast<int>(kind) % Device::kUsageKinds].Add(tag.usable);
    *ptr = p;
    return ACL_SUCCESS;
}

aclError DeviceFree(void* ptr, bool dvpp, bool pool_release) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "devPtr is null");
    MemRegion region = ClassifyPointer(ptr);
    switch (region.domain) {
        case MemDomain::kHostPinned:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%p is pinned host memory (%s): free it with aclrtFreeHost", ptr,
                        DescribeAllocation(ptr).c_str());
        case MemDomain::kHost: {
            std::string freed = FreedText(check::Resource::kHostMemory, ptr);
            if (!freed.empty()) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "%p is not device memory: it was %s (free pinned memory once, with "
                            "aclrtFreeHost)",
                            ptr, freed.c_str());
            }
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%p is not device memory (it did not come from aclrtMalloc or "
                        "acldvppMalloc)",
                        ptr);
        }
        case MemDomain::kDeviceFreed: {
            std::string freed = FreedText(check::Resource::kDeviceMemory, ptr);
            if (!freed.empty()) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "double free: %p is not a live device allocation; it was %s", ptr,
                            freed.c_str());
            }
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%p is not a live device allocation: was it freed already? (%s)", ptr,
                        check::On() ? "not among the last frees strict checks remember"
                                    : "set OPENACL_CHECK=1 to learn where it was allocated and "
                                      "freed");
        }
        case MemDomain::kDevice:
            break;
    }
    if (region.managed) return managed::Free(ptr);
    if (region.variable) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is in %s: a device variable lives as long as its kernel binary (or the "
                    "program) and is never freed",
                    ptr, device_variable::Describe(ptr).c_str());
    }
    if (region.vmm) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is in %s: it is not aclrtMalloc memory; undo the mapping with "
                    "aclrtUnmapMem",
                    ptr, vmm::Describe(ptr).c_str());
    }
    if (region.imported) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is in %s: another process's memory, released with aclrtIpcMemClose(key), "
                    "not aclrtFree",
                    ptr, ipc::Describe(ptr).c_str());
    }
    if (region.alloc_kind == static_cast<uint32_t>(DeviceAllocKind::kPool) && !pool_release) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is memory of a stream-ordered pool (%s): give it back with "
                    "aclrtMemPoolFreeAsync, not %s",
                    ptr, DescribeAllocation(ptr).c_str(), dvpp ? "acldvppFree" : "aclrtFree");
    }
    if (check::On() && !pool_release) {
        if (aclError rc = CheckOwnDevice("devPtr", ptr, region)) return rc;
    }
    if (region.base != reinterpret_cast<uintptr_t>(ptr)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p points %" PRIuPTR
                    " bytes into the allocation at %p: free the address "
                    "the allocation returned",
                    ptr, reinterpret_cast<uintptr_t>(ptr) - region.base,
                    reinterpret_cast<void*>(region.base));
    }
    backend::DeviceMemory::Block block;
    if (!region.device->memory().Free(ptr, &block)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%p was freed concurrently by another thread", ptr);
    }
    region.device->usage[block.tag.kind % Device::kUsageKinds].Sub(block.tag.usable);
    ipc::RevokeExportsIn(region.device, block.base, block.size);
    if (check::On()) {
        check::NoteDestroyed(check::Resource::kDeviceMemory, ptr, block.tag.requested,
                             region.device->id(),
                             AllocName(static_cast<DeviceAllocKind>(block.tag.kind)));
    }
    bool was_dvpp = block.tag.kind == static_cast<uint32_t>(DeviceAllocKind::kDvpp);
    if (was_dvpp != dvpp) {
        Warn("%p was allocated with %s but freed with %s", ptr,
             was_dvpp ? "acldvppMalloc" : "aclrtMalloc", dvpp ? "acldvppFree" : "aclrtFree");
    }
    return ACL_SUCCESS;
}

aclError HostMalloc(void** ptr, size_t size, const void* call_site) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "hostPtr is null");
    *ptr = nullptr;
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size is 0: allocations must be > 0");
    if (size > (uint64_t{1} << 46)) {
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot allocate %zu bytes of host memory",
                    size);
    }
    uint64_t usable = AlignUp(size, kHostAlignment);
    backend::Accelerator* pinner = HostAccelerator();
    void* p = pinner != nullptr ? pinner->AllocateHost(usable)
                                : std::aligned_alloc(kHostAlignment, usable);
    if (p == nullptr) {
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "the system could not provide %zu bytes of pinned host memory", size);
    }
    std::unique_lock lock(g_host_mutex);
    HostBlocks()[reinterpret_cast<uintptr_t>(p)] = HostBlock{usable, size, call_site, pinner};
    lock.unlock();
    if (check::On()) check::NoteCreated(check::Resource::kHostMemory, p);
    *ptr = p;
    return ACL_SUCCESS;
}

aclError HostFree(void* ptr) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "hostPtr is null");
    {
        std::unique_lock lock(g_host_mutex);
        auto it = HostBlocks().find(reinterpret_cast<uintptr_t>(ptr));
        if (it != HostBlocks().end()) {
            const HostBlock block = it->second;
            HostBlocks().erase(it);
            lock.unlock();
            host_register::ForgetRange(reinterpret_cast<uintptr_t>(ptr), block.usable);
            if (check::On()) {
                check::NoteDestroyed(check::Resource::kHostMemory, ptr, block.requested, -1,
                                     "aclrtMallocHost");
            }
            FreeHostBlock(ptr, block);
            return ACL_SUCCESS;
        }
    }
    if (host_register::IsRegistered(ptr)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is host memory registered with aclrtHostRegister, not allocated by "
                    "aclrtMallocHost: undo it with aclrtHostUnregister, then free it the way it "
                    "was allocated",
                    ptr);
    }
    MemRegion region = ClassifyPointer(ptr);
    if (region.domain == MemDomain::kDevice) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is device memory (%s): free it with aclrtFree, not aclrtFreeHost", ptr,
                    DescribeAllocation(ptr).c_str());
    }
    if (region.domain == MemDomain::kHost) {
        std::string freed = FreedText(check::Resource::kHostMemory, ptr);
        if (!freed.empty()) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "double free: %p is not a live aclrtMallocHost allocation; it was %s", ptr,
                        freed.c_str());
        }
    }
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%p is not a live aclrtMallocHost allocation (already freed, a pointer into "
                "the middle of one, or memory from malloc/new)",
                ptr);
}

std::vector<std::string> PinnedHostLeakLines() {
    std::vector<std::pair<uintptr_t, HostBlock>> live;
    check::ResolveAllSites();
    {
        std::shared_lock lock(g_host_mutex);
        live.assign(HostBlocks().begin(), HostBlocks().end());
    }
    struct Group {
        uint64_t count = 0, bytes = 0;
    };
    std::map<std::string, Group> groups;
    for (const auto& [address, block] : live) {
        Group& group = groups[check::CreationSite(
            check::Resource::kHostMemory, reinterpret_cast<const void*>(address), block.call_site)];
        ++group.count;
        group.bytes += block.requested;
    }
    std::vector<std::string> lines;
    for (const auto& [site, group] : groups) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "%" PRIu64 " pinned host allocation(s) by aclrtMallocHost, %" PRIu64 " bytes",
                      group.count, group.bytes);
        lines.push_back(text + (site.empty() ? "" : ", allocated at " + site));
    }
    return lines;
}

void ReleaseAllHostMemory() {
    host_register::ReleaseAll();
    managed::ReleaseAll();
    if (check::On()) check::ReportLeaks("aclFinalize", PinnedHostLeakLines());
    std::unique_lock lock(g_host_mutex);
    auto& blocks = HostBlocks();
    if (!blocks.empty() && !check::On()) {
        Warn(
            "%zu pinned host allocation(s) from aclrtMallocHost were never freed with "
            "aclrtFreeHost; they are released now",
            blocks.size());
    }
    for (auto& [address, block] : blocks) {
        if (check::On()) {
            check::NoteDestroyed(check::Resource::kHostMemory,
                                 reinterpret_cast<const void*>(address), block.requested, -1,
                                 "aclrtMallocHost");
        }
        FreeHostBlock(reinterpret_cast<void*>(address), block);
    }
    blocks.clear();
}

aclError CheckMemcpy(void* dst, size_t dest_max, const void* src, size_t count,
                     aclrtMemcpyKind kind, MemRegion* dst_region, MemRegion* src_region) {
    if (dst == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dst is null");
    if (src == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "src is null");
    if (static_cast<unsigned>(kind) > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE) {
        return Fail(ACL_ERROR_INVALID_PARAM, "kind %d is not an aclrtMemcpyKind",
                    static_cast<int>(kind));
    }
    if (count > dest_max) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "count (%zu bytes) is larger than destMax (%zu bytes), the capacity of dst",
                    count, dest_max);
    }
    *dst_region = ClassifyPointer(dst);
    *src_region = ClassifyPointer(src);
    if (count == 0) return ACL_SUCCESS;
    auto on_device = [](const MemRegion& r) {
        return r.domain == MemDomain::kDevice || r.domain == MemDomain::kDeviceFreed;
    };
    bool dst_device = false, src_device = false;
    switch (kind) {
        case ACL_MEMCPY_HOST_TO_HOST:
            break;
        case ACL_MEMCPY_HOST_TO_DEVICE:
        case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
            dst_device = true;
            break;
        case ACL_MEMCPY_DEVICE_TO_HOST:
            src_device = true;
            break;
        case ACL_MEMCPY_DEVICE_TO_DEVICE:
        case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
        case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
            dst_device = src_device = true;
            break;
        case ACL_MEMCPY_DEFAULT:
            dst_device = on_device(*dst_region);
            src_device = on_device(*src_region);
            break;
    }
    const char* name = KindName(kind);
    if (aclError rc = CheckSide("dst", dst, *dst_region, dst_device, count, name)) return rc;
    if (aclError rc = CheckSide("src", src, *src_region, src_device, count, name)) return rc;
    if (aclError rc =
            CheckUnknownHost("dst", dst, *dst_region, count, count, 1, HostAccess::kWrite)) {
        return rc;
    }
    if (aclError rc =
            CheckUnknownHost("src", src, *src_region, count, count, 1, HostAccess::kRead)) {
        return rc;
    }
    // A copy between two devices is checked for peer access below; one device's memory used
    // from another device's context is a strict check.
    const bool two_devices = dst_region->domain == MemDomain::kDevice &&
                             src_region->domain == MemDomain::kDevice &&
                             dst_region->device != src_region->device;
    if (check::On() && !two_devices) {
        if (aclError rc = CheckOwnDevice("dst", dst, *dst_region)) return rc;
        if (aclError rc = CheckOwnDevice("src", src, *src_region)) return rc;
    }
    if (dst_region->domain == MemDomain::kDevice && src_region->domain == MemDomain::kDevice) {
        Device* a = dst_region->device;
        Device* b = src_region->device;
        if (a != b && !PeersEnabled(a, b)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "copying between device %d and device %d needs peer access: call "
                        "aclrtDeviceEnablePeerAccess first",
                        b->id(), a->id());
        }
        char text[160];
        if (kind == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE && a != b) {
            std::snprintf(text, sizeof text, "%s, but src is on device %d and dst on device %d",
                          name, b->id(), a->id());
            if (aclError rc = Mismatch(text)) return rc;
        }
        if (kind == ACL_MEMCPY_INTER_DEVICE_TO_DEVICE && a == b) {
            std::snprintf(text, sizeof text, "%s, but src and dst are both on device %d", name,
                          a->id());
            if (aclError rc = Mismatch(text)) return rc;
        }
    }
    return ACL_SUCCESS;
}

aclError Memcpy(void* dst, size_t dest_max, const void* src, size_t count, aclrtMemcpyKind kind) {
    MemRegion dst_region, src_region;
    if (aclError rc = CheckMemcpy(dst, dest_max, src, count, kind, &dst_region, &src_region)) {
        return rc;
    }
    if (count == 0) return ACL_SUCCESS;
    if (backend::Accelerator* accelerator = AcceleratorOf(dst_region, src_region)) [[unlikely]] {
        int32_t status = accelerator->CopySync(dst, src, count);
        return status == 0 ? ACL_SUCCESS : DeviceFailed(accelerator, status, "aclrtMemcpy");
    }
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}

namespace {

// The checks of a 2D copy; on success the spans (bytes from dst/src to the end of their last
// row) and regions are filled in.
aclError Check2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                 size_t height, aclrtMemcpyKind kind, bool allow_d2d, uint64_t* dst_span,
                 uint64_t* src_span, MemRegion* dst_region, MemRegion* src_region) {
    if (dst == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dst is null");
    if (src == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "src is null");
    bool d2d = allow_d2d && kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST && !d2d) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s copies only %s, not %s", CurrentApi(),
                    allow_d2d ? "ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST or "
                                "ACL_MEMCPY_DEVICE_TO_DEVICE"
                              : "ACL_MEMCPY_HOST_TO_DEVICE or ACL_MEMCPY_DEVICE_TO_HOST",
                    KindName(kind));
    }
    if (width == 0 || height == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "width (%zu) and height (%zu) must be > 0", width,
                    height);
    }
    if (width > dpitch || width > spitch) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "width (%zu) must not exceed dpitch (%zu) or spitch (%zu)", width, dpitch,
                    spitch);
    }
    // Each side spans (height - 1) whole pitches plus one row of width bytes; a span that
    // wraps around would pass the range checks and then write outside the allocation.
    if (__builtin_mul_overflow(height - 1, uint64_t{dpitch}, dst_span) ||
        __builtin_add_overflow(*dst_span, uint64_t{width}, dst_span) ||
        __builtin_mul_overflow(height - 1, uint64_t{spitch}, src_span) ||
        __builtin_add_overflow(*src_span, uint64_t{width}, src_span)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%zu rows at dpitch %zu / spitch %zu overflow the address space", height,
                    dpitch, spitch);
    }
    *dst_region = ClassifyPointer(dst);
    *src_region = ClassifyPointer(src);
    const char* name = KindName(kind);
    bool dst_device = kind != ACL_MEMCPY_DEVICE_TO_HOST;
    bool src_device = kind != ACL_MEMCPY_HOST_TO_DEVICE;
    if (aclError rc = CheckSide("dst", dst, *dst_region, dst_device, *dst_span, name)) return rc;
    if (aclError rc = CheckSide("src", src, *src_region, src_device, *src_span, name)) return rc;
    if (aclError rc =
            CheckUnknownHost("dst", dst, *dst_region, width, dpitch, height, HostAccess::kWrite)) {
        return rc;
    }
    if (aclError rc =
            CheckUnknownHost("src", src, *src_region, width, spitch, height, HostAccess::kRead)) {
        return rc;
    }
    if (check::On()) {
        if (aclError rc = CheckOwnDevice("dst", dst, *dst_region)) return rc;
        if (aclError rc = CheckOwnDevice("src", src, *src_region)) return rc;
    }
    return ACL_SUCCESS;
}

void Copy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height) {
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    for (size_t row = 0; row < height; ++row) {
        std::memmove(d + row * dpitch, s + row * spitch, width);
    }
}

aclError CheckMemset(void* ptr, size_t max_count, size_t count, MemRegion* region) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "devPtr is null");
    if (count > max_count) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "count (%zu bytes) is larger than maxCount (%zu bytes)", count, max_count);
    }
    *region = ClassifyPointer(ptr);
    if (count == 0) return ACL_SUCCESS;
    if (region->domain == MemDomain::kHost) {
        // A wild pointer is refused before the tolerated misuse is reported.
        if (aclError rc =
                CheckUnknownHost("devPtr", ptr, *region, count, count, 1, HostAccess::kWrite)) {
            return rc;
        }
        char text[200];
        std::snprintf(text, sizeof text,
                      "%p is host memory that did not come from an acl allocation (undefined "
                      "behaviour on real hardware)",
                      ptr);
        return Mismatch(text);
    }
    // Pinned host memory is a documented target (the pointer decides whether it is host or
    // device memory): only its bounds are checked.
    bool device_side = region->domain != MemDomain::kHostPinned;
    if (aclError rc = CheckSide("devPtr", ptr, *region, device_side, count, "aclrtMemset")) {
        return rc;
    }
    return check::On() ? CheckOwnDevice("devPtr", ptr, *region) : ACL_SUCCESS;
}

}  // namespace

aclError Memcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                  size_t height, aclrtMemcpyKind kind) {
    uint64_t dst_span = 0, src_span = 0;
    MemRegion dst_region, src_region;
    if (aclError rc = Check2d(dst, dpitch, src, spitch, width, height, kind, false, &dst_span,
                              &src_span, &dst_region, &src_region)) {
        return rc;
    }
    if (backend::Accelerator* accelerator = AcceleratorOf(dst_region, src_region)) [[unlikely]] {
        int32_t status = accelerator->Copy2dSync(dst, dpitch, src, spitch, width, height);
        return status == 0 ? ACL_SUCCESS : DeviceFailed(accelerator, status, "aclrtMemcpy2d");
    }
    Copy2d(dst, dpitch, src, spitch, width, height);
    return ACL_SUCCESS;
}

aclError Memset(void* ptr, size_t max_count, int32_t value, size_t count) {
    MemRegion region;
    if (aclError rc = CheckMemset(ptr, max_count, count, &region)) return rc;
    if (count == 0) return ACL_SUCCESS;
    if (region.device != nullptr && region.device->accelerator() != nullptr &&
        region.domain == MemDomain::kDevice) [[unlikely]] {
        backend::Accelerator* accelerator = region.device->accelerator();
        int32_t status = accelerator->FillSync(ptr, static_cast<uint8_t>(value), count);
        return status == 0 ? ACL_SUCCESS : DeviceFailed(accelerator, status, "aclrtMemset");
    }
    std::memset(ptr, value, count);
    return ACL_SUCCESS;
}

aclError GetMemInfo(aclrtMemAttr attr, size_t* free_bytes, size_t* total_bytes) {
    if (free_bytes == nullptr || total_bytes == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "free and total must not be null");
    }
    if (static_cast<unsigned>(attr) > ACL_MEM_P2P_HUGE1G) {
        return Fail(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclrtMemAttr",
                    static_cast<int>(attr));
    }
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    if (backend::Accelerator* accelerator = ctx->device()->accelerator()) {
        int32_t status = accelerator->MemInfo(free_bytes, total_bytes);
        if (status != 0) {
            return Fail(ACL_ERROR_RT_INTERNAL_ERROR, "cannot read the memory of %s: %s",
                        accelerator->name(), accelerator->StatusText(status).c_str());
        }
        return ACL_SUCCESS;
    }
    // The CPU backend has one kind of device memory: DDR and HBM queries both describe it.
    backend::DeviceMemory& arena = ctx->device()->memory();
    *total_bytes = arena.capacity();
    const uint64_t used = arena.used() + vmm::PhysicalBytes(ctx->device()->id());
    *free_bytes = used >= arena.capacity() ? 0 : arena.capacity() - used;
    return ACL_SUCCESS;
}

const char* LiveDeviceRangeProblem(const void* p, uint64_t bytes) {
    const MemRegion region = ClassifyPointer(p);
    if (region.domain != MemDomain::kDevice) return "is not live device memory";
    if (bytes > region.usable - (reinterpret_cast<uintptr_t>(p) - region.base)) {
        return "runs past the end of its allocation";
    }
    if (region.device != nullptr && region.device->accelerator() != nullptr) {
        return "is accelerator memory, which the host cannot reach";
    }
    return nullptr;
}

aclError GetMemUsageInfo(int32_t device_id, aclrtMemUsageInfo* info, size_t input_num,
                         size_t* output_num) {
    if (info == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "memUsageInfo is null");
    if (output_num == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "outputNum is null");
    if (input_num == 0) return Fail(ACL_ERROR_INVALID_PARAM, "inputNum must not be 0");
    Device* device = Runtime::Get().DeviceById(device_id);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    const std::string& soc = Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend950", 0) == 0) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "aclrtGetMemUsageInfo is not available on %s (CANN documents it for Atlas "
                    "A2/A3)",
                    soc.c_str());
    }
    // The components are the ways device memory is allocated, largest holder first.
    struct Row {
        const char* name;
        uint64_t current, peak;
    };
    std::vector<Row> rows;
    for (int kind = 1; kind < Device::kUsageKinds; ++kind) {
        const uint64_t peak = device->usage[kind].peak.load(std::memory_order_relaxed);
        if (peak == 0) continue;  // never used
        rows.push_back({AllocName(static_cast<DeviceAllocKind>(kind)),
                        device->usage[kind].current.load(std::memory_order_relaxed), peak});
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.current > b.current; });
    const size_t n = std::min(rows.size(), input_num);
    for (size_t i = 0; i < n; ++i) {
        info[i] = aclrtMemUsageInfo{};
        std::snprintf(info[i].name, sizeof info[i].name, "%s", rows[i].name);
        info[i].curMemSize = rows[i].current;
        info[i].memPeakSize = rows[i].peak;
    }
    *output_num = n;
    return ACL_SUCCESS;
}

aclError CheckMemType(void** addrs, uint32_t count, uint32_t mem_type, uint32_t* result,
                      uint32_t reserve) {
    if (addrs == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "addrList is null");
    if (result == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "checkResult is null");
    if (count == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
    if (reserve != 0) return Fail(ACL_ERROR_INVALID_PARAM, "reserve must be 0, not %u", reserve);
    constexpr uint32_t kKnown = ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD;
    if (mem_type == 0 || (mem_type & ~kKnown) != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "memType 0x%x is not a combination of ACL_RT_MEM_TYPE_DEV, _DVPP and _RSVD",
                    mem_type);
    }
    // The 950 has no separate DVPP memory: it is device memory there.
    const bool dvpp_is_dev = Runtime::Get().config().soc_name.rfind("Ascend950", 0) == 0;
    bool all = true;
    for (uint32_t i = 0; i < count && all; ++i) {
        const MemRegion region = ClassifyPointer(addrs[i]);
        uint32_t type = 0;
        if (region.vmm) {
            type = ACL_RT_MEM_TYPE_RSVD;
        } else if (region.domain == MemDomain::kDevice && !region.managed) {
            type =
                region.alloc_kind == static_cast<uint32_t>(DeviceAllocKind::kDvpp) && !dvpp_is_dev
                    ? ACL_RT_MEM_TYPE_DVPP
                    : ACL_RT_MEM_TYPE_DEV;
        }
        all = type != 0 && (type & mem_type) != 0;
    }
    *result = all ? 1 : 0;
    return ACL_SUCCESS;
}

aclError GetAddressRange(const void* ptr, void** base, size_t* size) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "ptr is null");
    if (base == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "pbase is null");
    if (size == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "psize is null");
    const MemRegion region = ClassifyPointer(ptr);
    switch (region.domain) {
        case MemDomain::kDevice:
        case MemDomain::kHostPinned:
            *base = reinterpret_cast<void*>(region.base);
            *size = region.requested;
            return ACL_SUCCESS;
        case MemDomain::kDeviceFreed:
            if (region.vmm) {
                return Fail(ACL_ERROR_INVALID_PARAM, "%p is in %s", ptr,
                            vmm::Describe(ptr).c_str());
            }
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%p points into device %d's memory but not into a live allocation", ptr,
                        region.device->id());
        case MemDomain::kHost:
            break;
    }
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%p is not memory openacl allocated (aclrtMalloc, aclrtMallocHost or a mapping "
                "of aclrtMapMem)",
                ptr);
}

aclError PointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "ptr is null");
    if (attributes == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "attributes is null");
    MemRegion region = ClassifyPointer(ptr);
    *attributes = aclrtPtrAttributes{};
    attributes->pageSize = 4096;
    switch (region.domain) {
        case MemDomain::kDevice:
            if (region.managed) {
                attributes->location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
                attributes->pageSize = static_cast<uint32_t>(managed::kPage);
                break;
            }
            attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
            attributes->location.id = static_cast<uint32_t>(region.device->id());
            break;
        case MemDomain::kDeviceFreed:
            if (region.vmm) {
                return Fail(ACL_ERROR_INVALID_PARAM, "%p is in %s", ptr,
                            vmm::Describe(ptr).c_str());
            }
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%p points into device %d's memory but not into a live allocation", ptr,
                        region.device->id());
        case MemDomain::kHostPinned:
            attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
            break;
        case MemDomain::kHost:
            attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
            break;
    }
    return ACL_SUCCESS;
}

}  // namespace openacl

// ---- Asynchronous data movement ------------------------------------------------------------

namespace openacl {
namespace {

// At run time a task re-checks that the acl memory it touches is still allocated: freeing a
// buffer while a copy into it is queued is the classic asynchronous bug.
struct Span {
    const void* p = nullptr;
    uint64_t bytes = 0;
    bool check = false;  // the pointer was acl memory when the task was queued
};

bool StillLive(const Span& span) {
    if (!span.check) return true;
    MemRegion region = ClassifyPointer(span.p);
    if (!region.device_accessible()) return false;
    return span.bytes <= region.usable - (reinterpret_cast<uintptr_t>(span.p) - region.base);
}

bool IsPageable(const MemRegion& region) {
    return region.domain == MemDomain::kHost;
}

// Pageable host memory cannot be copied behind the caller's back: wait for the stream's
// earlier work, then copy before returning (CANN 8.5+ does the same). With strict checks and
// "pageable_async_copy": "error" the call fails instead.
aclError AdmitPageable(const char* which, const void* p) {
    if (check::PageableAsyncCopyIsError()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p is pageable host memory (malloc/new/stack), which cannot be copied "
                    "asynchronously: allocate it with aclrtMallocHost (free it with "
                    "aclrtFreeHost), or use the synchronous call (refused because "
                    "pageable_async_copy is \"error\")",
                    which, p);
    }
    Warn(
        "%s %p is pageable host memory (malloc/new/stack): the call returns only after the copy "
        "has run; allocate host buffers with aclrtMallocHost for truly asynchronous copies",
        which, p);
    return ACL_SUCCESS;
}

// Pageable copies run in the call, so they cannot be captured (and are unsafe calls).
aclError RefusePageableInCapture(Stream* stream) {
    constexpr const char* kWhat = "an asynchronous copy of pageable host memory";
    if (aclError rc = RefuseInCallWork(stream, kWhat)) return rc;
    return CheckUnsafeCall(kWhat);
}

aclError DrainForPageable(Stream* stream, const char* which, const void* p) {
    if (aclError rc = RefusePageableInCapture(stream)) return rc;
    if (aclError rc = AdmitPageable(which, p)) return rc;
    cpu::Queue* queue = stream->queue();
    cpu::Executor::WaitPoint(queue, cpu::Executor::Submitted(queue), cpu::kWaitForever);
    return ACL_SUCCESS;
}

// A CPU stream's copy or fill of pageable memory: done before the call returns, after the work
// queued before it. While a trace records, it runs as a task of the stream, so the timeline
// shows it on the stream's track, marked as done in the call; otherwise the caller does it
// once the stream has drained, without a hand-off to a worker. `work` is a small trivially
// copyable callable (a task's payload); it runs even when the stream has failed, as the
// untraced copy does.
template <class Work>
aclError DoPageableInCall(Stream* stream, const char* which, const void* p, trace::Label label,
                          Work work) {
    if (!trace::On()) {
        if (aclError rc = DrainForPageable(stream, which, p)) return rc;
        work();
        return ACL_SUCCESS;
    }
    if (aclError rc = RefusePageableInCapture(stream)) return rc;
    if (aclError rc = AdmitPageable(which, p)) return rc;
    label.b = trace::kCopyDoneInCall;
    const uint64_t seq =
        stream->Submit(cpu::MakeTask(work, 0, cpu::Task::kCallWhenCancelled), label);
    cpu::Executor::WaitPoint(stream->queue(), seq, cpu::kWaitForever);
    return ACL_SUCCESS;
}

// Which side of a copy is pageable, for the message ("dst" first, as it is written).
const char* PageableSide(const MemRegion& dst) {
    return IsPageable(dst) ? "dst" : "src";
}

constexpr aclError kAsyncCopyFailed = ACL_ERROR_RT_COPY_DATA;

// Copies of at least this size are split into kCopyChunk pieces that the executor's idle
// workers copy together (Executor::ParallelFor): one core does not saturate the memory bus (on
// the 2-core benchmark machine two cores copy 64 MiB 1.6 to 1.9 times as fast as one; see
// docs/PERFORMANCE.md). Smaller copies are not worth waking a helper.
constexpr uint64_t kParallelCopyMin = uint64_t{4} << 20;
constexpr uint64_t kCopyChunk = uint64_t{1} << 20;

// memmove, run by the calling worker and whichever workers of its executor are idle.
void StreamCopy(void* dst, const void* src, uint64_t count) {
    const auto d = reinterpret_cast<uintptr_t>(dst);
    const auto s = reinterpret_cast<uintptr_t>(src);
    const bool overlap = d < s + count && s < d + count;  // chunks must not depend on each other
    cpu::Executor* executor = cpu::Executor::Current();
    if (count >= kParallelCopyMin && !overlap && executor != nullptr) {
        const auto chunks = static_cast<uint32_t>((count + kCopyChunk - 1) / kCopyChunk);
        const cpu::ParallelStatus status = executor->ParallelFor(chunks, [=](uint32_t i) {
            const uint64_t offset = uint64_t{i} * kCopyChunk;
            std::memcpy(static_cast<char*>(dst) + offset, static_cast<const char*>(src) + offset,
                        std::min(kCopyChunk, count - offset));
        });
        if (!status.rejected()) return;  // blocks cannot fail, and there is no timeout
    }
    std::memmove(dst, src, count);
}

}  // namespace

namespace {

// The direction a copy really takes, for traces (the declared kind may differ).
trace::Kind CopyKind(const MemRegion& dst, const MemRegion& src) {
    const bool to_device = dst.domain == MemDomain::kDevice;
    const bool from_device = src.domain == MemDomain::kDevice;
    if (to_device) return from_device ? trace::Kind::kMemcpyD2D : trace::Kind::kMemcpyH2D;
    return from_device ? trace::Kind::kMemcpyD2H : trace::Kind::kMemcpyH2H;
}

}  // namespace

namespace {

// An accelerator stream's copy: the device's own asynchronous copy, with the same checks
// and the same pageable-memory contract as the CPU backend (done when the call returns).
aclError LaneCopy(backend::Lane& lane, Stream* stream, void* dst, const void* src, size_t count,
                  aclrtMemcpyKind kind, const MemRegion& dst_region, const MemRegion& src_region) {
    backend::Accelerator* accelerator = stream->context()->device()->accelerator();
    const bool pageable = IsPageable(dst_region) || IsPageable(src_region);
    if (pageable) {
        const bool dst_side = IsPageable(dst_region);
        if (aclError rc = DrainForPageable(stream, PageableSide(dst_region),
                                           dst_side ? static_cast<const void*>(dst) : src)) {
            return rc;
        }
    }
    int32_t status = 0;
    {
        LaneTraceScope traced(stream, {CopyKind(dst_region, src_region), count,
                                       pageable ? trace::kCopyDoneInCall : 0});
        status = lane.Copy(dst, src, count);
    }
    if (status != 0) return DeviceFailed(accelerator, status, "aclrtMemcpyAsync");
    // ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE lets the caller reuse its buffer at once: on an
    // accelerator the copy is simply complete before the call returns. Failures of earlier
    // work stay for the stream's next synchronisation, as on the CPU backend.
    if (pageable || kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) lane.Drain(cpu::kWaitForever);
    return ACL_SUCCESS;
}

}  // namespace

aclError MemcpyAsync(void* dst, size_t dest_max, const void* src, size_t count,
                     aclrtMemcpyKind kind, Stream* stream) {
    MemRegion dst_region, src_region;
    if (aclError rc = CheckMemcpy(dst, dest_max, src, count, kind, &dst_region, &src_region)) {
        return rc;
    }
    if (count == 0) return ACL_SUCCESS;
    if (backend::Lane* lane = stream->lane()) [[unlikely]] {
        return LaneCopy(*lane, stream, dst, src, count, kind, dst_region, src_region);
    }
    if (IsPageable(dst_region) || IsPageable(src_region)) {
        const bool dst_side = IsPageable(dst_region);
        return DoPageableInCall(stream, PageableSide(dst_region),
                                dst_side ? static_cast<const void*>(dst) : src,
                                {CopyKind(dst_region, src_region), count},
                                [dst, src, count] { std::memmove(dst, src, count); });
    }
    struct Copy {
        Stream* stream;
        void* dst;
        const void* src;
        uint64_t count;
        unsigned char* staged;  // owned copy of the host data (HOST_TO_BUF_TO_DEVICE), or null
        bool check_dst, check_src;
    };
    static_assert(sizeof(Copy) <= cpu::Task::kPayloadSize);
    Copy copy{stream,
              dst,
              src,
              count,
              nullptr,
              dst_region.device_accessible(),
              src_region.device_accessible()};
    // ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE stages host data in a runtime buffer: the caller may
    // reuse its host memory as soon as the call returns.
    if (kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE && src_region.domain == MemDomain::kHostPinned) {
        copy.staged = new (std::nothrow) unsigned char[count];
        if (copy.staged == nullptr) {
            return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                        "cannot stage %zu bytes of host data for "
                        "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
                        count);
        }
        std::memcpy(copy.staged, src, count);
        copy.src = copy.staged;
        copy.check_src = false;
    }
    // Called when skipped or discarded too, so that a staging buffer is always freed.
    const cpu::Task task = cpu::MakeTask(
        [copy](cpu::TaskContext& ctx) {
            std::unique_ptr<unsigned char[]> staged(ctx.borrowed() ? nullptr : copy.staged);
            if (ctx.cancelled()) return cpu::TaskStatus::Done();
            bool dst_live = StillLive({copy.dst, copy.count, copy.check_dst});
            if (!dst_live || !StillLive({copy.src, copy.count, copy.check_src})) {
                copy.stream->NoteFailure(
                    "aclrtMemcpyAsync of %llu bytes from %p to %p: %s was freed before the copy "
                    "ran",
                    static_cast<unsigned long long>(copy.count), copy.src, copy.dst,
                    dst_live ? "the source" : "the destination");
                exception_info::Report(ctx, copy.stream, kAsyncCopyFailed);
                return cpu::TaskStatus::Failed(kAsyncCopyFailed);
            }
            StreamCopy(copy.dst, copy.src, copy.count);
            return cpu::TaskStatus::Done();
        },
        0,
        copy.staged != nullptr
            ? cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable | cpu::Task::kFusable
            : cpu::Task::kFusable);
    stream->Submit(task, {CopyKind(dst_region, src_region), count});
    return ACL_SUCCESS;
}

aclError Memcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, aclrtMemcpyKind kind, Stream* stream) {
    constexpr size_t kMaxWidth = 5000000, kMaxHeight = 5242880;  // documented limits
    if (width > kMaxWidth || height > kMaxHeight) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "width %zu / height %zu exceed the limits of %zu / %zu", width, height,
                    kMaxWidth, kMaxHeight);
    }
    uint64_t dst_span = 0, src_span = 0;
    MemRegion dst_region, src_region;
    if (aclError rc = Check2d(dst, dpitch, src, spitch, width, height, kind, true, &dst_span,
                              &src_span, &dst_region, &src_region)) {
        return rc;
    }
    if (backend::Lane* lane = stream->lane()) [[unlikely]] {
        const bool pageable = IsPageable(dst_region) || IsPageable(src_region);
        if (pageable) {
            const bool dst_side = IsPageable(dst_region);
            if (aclError rc = DrainForPageable(stream, PageableSide(dst_region),
                                               dst_side ? static_cast<const void*>(dst) : src)) {
                return rc;
            }
        }
        backend::Accelerator* accelerator = stream->context()->device()->accelerator();
        int32_t status = 0;
        {
            LaneTraceScope traced(stream, {trace::Kind::kMemcpy2d, uint64_t{width} * height});
            status = lane->Copy2d(dst, dpitch, src, spitch, width, height);
        }
        if (status != 0) return DeviceFailed(accelerator, status, "aclrtMemcpy2dAsync");
        if (pageable) lane->Drain(cpu::kWaitForever);
        return ACL_SUCCESS;
    }
    if (IsPageable(dst_region) || IsPageable(src_region)) {
        const bool dst_side = IsPageable(dst_region);
        return DoPageableInCall(stream, PageableSide(dst_region),
                                dst_side ? static_cast<const void*>(dst) : src,
                                {trace::Kind::kMemcpy2d, uint64_t{width} * height},
                                [dst, dpitch, src, spitch, width, height] {
                                    Copy2d(dst, dpitch, src, spitch, width, height);
                                });
    }
    if (dpitch > UINT32_MAX || spitch > UINT32_MAX) {
        return Fail(ACL_ERROR_INVALID_PARAM, "pitches of 4 GiB or more are not supported");
    }
    struct Copy2dTask {
        void* dst;
        const void* src;
        Stream* stream;
        uint32_t dpitch, spitch, width, height;
        bool check_dst, check_src;
    };
    static_assert(sizeof(Copy2dTask) <= cpu::Task::kPayloadSize);
    Copy2dTask task{dst,
                    src,
                    stream,
                    static_cast<uint32_t>(dpitch),
                    static_cast<uint32_t>(spitch),
                    static_cast<uint32_t>(width),
                    static_cast<uint32_t>(height),
                    dst_region.device_accessible(),
                    src_region.device_accessible()};
    const cpu::Task copy = cpu::MakeTask([task](cpu::TaskContext& ctx) {
        uint64_t rows = task.height - 1;
        Span dst_span{task.dst, rows * task.dpitch + task.width, task.check_dst};
        Span src_span{task.src, rows * task.spitch + task.width, task.check_src};
        if (!StillLive(dst_span) || !StillLive(src_span)) {
            task.stream->NoteFailure(
                "aclrtMemcpy2dAsync from %p to %p: a buffer was freed before the copy ran",
                task.src, task.dst);
            exception_info::Report(ctx, task.stream, kAsyncCopyFailed);
            return cpu::TaskStatus::Failed(kAsyncCopyFailed);
        }
        Copy2d(task.dst, task.dpitch, task.src, task.spitch, task.width, task.height);
        return cpu::TaskStatus::Done();
    });
    stream->Submit(copy, {trace::Kind::kMemcpy2d, uint64_t{width} * height});
    return ACL_SUCCESS;
}

aclError MemsetAsync(void* ptr, size_t max_count, int32_t value, size_t count, Stream* stream) {
    MemRegion region;
    if (aclError rc = CheckMemset(ptr, max_count, count, &region)) return rc;
    if (count == 0) return ACL_SUCCESS;
    if (backend::Lane* lane = stream->lane()) [[unlikely]] {
        if (IsPageable(region)) {
            if (aclError rc = DrainForPageable(stream, "devPtr", ptr)) return rc;
            lane->Drain(cpu::kWaitForever);
            std::memset(ptr, value, count);
            return ACL_SUCCESS;
        }
        int32_t status = 0;
        {
            LaneTraceScope traced(stream, {trace::Kind::kMemset, count});
            status = lane->Fill(ptr, static_cast<uint8_t>(value), count);
        }
        if (status != 0) {
            return DeviceFailed(stream->context()->device()->accelerator(), status,
                                "aclrtMemsetAsync");
        }
        return ACL_SUCCESS;
    }
    if (IsPageable(region)) {
        return DoPageableInCall(stream, "devPtr", ptr, {trace::Kind::kMemset, count},
                                [ptr, value, count] { std::memset(ptr, value, count); });
    }
    Span span{ptr, count, region.device_accessible()};
    const cpu::Task fill = cpu::MakeTask(
        [span, value, stream](cpu::TaskContext& ctx) {
            if (!StillLive(span)) {
                stream->NoteFailure(
                    "aclrtMemsetAsync of %llu bytes at %p: the memory was freed "
                    "before the fill ran",
                    static_cast<unsigned long long>(span.bytes), span.p);
                exception_info::Report(ctx, stream, kAsyncCopyFailed);
                return cpu::TaskStatus::Failed(kAsyncCopyFailed);
            }
            std::memset(const_cast<void*>(span.p), value, span.bytes);
            return cpu::TaskStatus::Done();
        },
        0, cpu::Task::kFusable);
    stream->Submit(fill, {trace::Kind::kMemset, count});
    return ACL_SUCCESS;
}

namespace {
void FillD32(void* ptr, uint32_t value, size_t n) {
    auto* bytes = static_cast<unsigned char*>(ptr);
    for (size_t i = 0; i < n; ++i)
        std::memcpy(bytes + 4 * i, &value, 4);  // any alignment
}
}  // namespace

aclError MemsetD32(void* ptr, size_t mem_size, uint32_t value, size_t n, Stream* stream) {
    if (n > SIZE_MAX / 4) return Fail(ACL_ERROR_INVALID_PARAM, "N %zu is too large", n);
    const size_t bytes = 4 * n;
    if (bytes > mem_size) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "N (%zu values, %zu bytes) is more than memSize (%zu bytes) holds", n, bytes,
                    mem_size);
    }
    MemRegion region;
    if (aclError rc = CheckMemset(ptr, mem_size, bytes, &region)) return rc;
    if (n == 0) return ACL_SUCCESS;
    if (region.device != nullptr && region.device->accelerator() != nullptr &&
        region.domain == MemDomain::kDevice) [[unlikely]] {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "32-bit fills of %s memory are not supported on the %s backend yet",
                    region.device->accelerator()->name(), region.device->accelerator()->name());
    }
    // Host memory is filled at once, as CANN documents; device memory in stream order. A fill
    // done in the call cannot be captured: a replay would not repeat it.
    if (stream == nullptr || region.domain != MemDomain::kDevice) {
        if (stream != nullptr) {
            if (aclError rc = RefuseInCallWork(stream, "aclrtMemsetD32Async of host memory"))
                return rc;
        }
        FillD32(ptr, value, n);
        return ACL_SUCCESS;
    }
    Span span{ptr, bytes, true};
    const cpu::Task fill = cpu::MakeTask([span, value, n, stream](cpu::TaskContext& ctx) {
        if (!StillLive(span)) {
            stream->NoteFailure(
                "aclrtMemsetD32Async of %llu values at %p: the memory was freed before the fill "
                "ran",
                static_cast<unsigned long long>(n), span.p);
            exception_info::Report(ctx, stream, kAsyncCopyFailed);
            return cpu::TaskStatus::Failed(kAsyncCopyFailed);
        }
        FillD32(const_cast<void*>(span.p), value, n);
        return cpu::TaskStatus::Done();
    });
    stream->Submit(fill, {trace::Kind::kMemset, bytes});
    return ACL_SUCCESS;
}

}  // namespace openacl
