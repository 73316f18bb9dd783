// Host and device memory: allocation, the registry of every allocation, and the checks that
// keep copies from corrupting memory. Device memory comes from each device's arena; pinned host
// memory (aclrtMallocHost) is tracked here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_rt.h"

namespace openacl {

class Context;
class Device;

// What a pointer is, as far as the runtime knows.
enum class MemDomain : uint8_t {
    kDevice,       // inside a live device allocation
    kDeviceFreed,  // inside a device arena, but not in a live allocation
    kHostPinned,   // inside a live aclrtMallocHost allocation
    kHost,         // anything else: malloc'd, stack, static or freed host memory
};

struct MemRegion {
    MemDomain domain = MemDomain::kHost;
    Device* device = nullptr;  // for kDevice / kDeviceFreed
    uintptr_t base = 0;        // start of the allocation (kDevice / kHostPinned)
    uint64_t usable = 0;       // bytes a caller may touch from base
    uint64_t requested = 0;    // bytes the caller asked for
    uint32_t alloc_kind = 0;   // a DeviceAllocKind for kDevice, else 0
    // Virtual memory management (core/virtual_memory.h): a mapping, or an unmapped part of a
    // reservation (kDeviceFreed), with what the device's access allows.
    bool vmm = false;
    // Managed memory (core/managed_memory.h): host and device memory at once, any copy kind.
    bool managed = false;
    // A device variable (core/device_variable.h): a kernel's global the program asked for,
    // device memory of the current device.
    bool variable = false;
    // Another process's device memory, imported with aclrtIpcMemImportByKey (core/ipc_memory.h).
    bool imported = false;
    bool readable = true;
    bool writable = true;
    bool device_accessible() const {
        return domain == MemDomain::kDevice || domain == MemDomain::kHostPinned;
    }
    // Bytes a caller may touch from `address` on (0 when it lies outside [base, base + usable)).
    uint64_t BytesFrom(const void* address) const {
        const uint64_t offset = reinterpret_cast<uintptr_t>(address) - base;
        return offset > usable ? 0 : usable - offset;
    }
};

MemRegion ClassifyPointer(const void* p);
const char* DomainName(MemDomain domain);

// How a device allocation was asked for; decides padding, alignment and which free matches.
// kModel is a model's own weight and work memory (aclmdlLoad*), padded like aclrtMalloc.
enum class DeviceAllocKind : uint32_t {
    kMalloc = 1,
    kAlign32 = 2,
    kCached = 3,
    kDvpp = 4,
    kModel = 5,
    kPool = 6,  // a stream-ordered pool's block (core/mem_pool.h)
};
// The call that makes such an allocation ("aclrtMalloc"), for messages and leak reports.
const char* AllocName(DeviceAllocKind kind);

aclError DeviceMalloc(void** ptr, size_t size, aclrtMemMallocPolicy policy, DeviceAllocKind kind,
                      const void* call_site);
// The same in a given context (a stream's) rather than the thread's current one; size > 0.
aclError DeviceMallocIn(Context* ctx, void** ptr, size_t size, aclrtMemMallocPolicy policy,
                        DeviceAllocKind kind, const void* call_site);
// pool_release: a stream-ordered pool hands its block back (aclrtFree refuses pool blocks).
aclError DeviceFree(void* ptr, bool dvpp, bool pool_release = false);
aclError HostMalloc(void** ptr, size_t size, const void* call_site);
aclError HostFree(void* ptr);
// aclFinalize: frees all pinned host memory and managed memory, ends host registrations.
void ReleaseAllHostMemory();
// Leak report lines for the pinned host memory still allocated, grouped by site.
std::vector<std::string> PinnedHostLeakLines();
// "a 4096-byte aclrtMalloc allocation at 0x... on device 0, allocated at f (main.cpp:12)" for
// live device or pinned memory; "" for anything else.
std::string DescribeAllocation(const void* p);

// Synchronous data movement with the documented checks.
aclError Memcpy(void* dst, size_t dest_max, const void* src, size_t count, aclrtMemcpyKind kind);
aclError Memcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                  size_t height, aclrtMemcpyKind kind);
aclError Memset(void* ptr, size_t max_count, int32_t value, size_t count);

// The checks alone, for copies that run later on a stream. Fills the regions it classified.
aclError CheckMemcpy(void* dst, size_t dest_max, const void* src, size_t count,
                     aclrtMemcpyKind kind, MemRegion* dst_region, MemRegion* src_region);

aclError GetMemInfo(aclrtMemAttr attr, size_t* free_bytes, size_t* total_bytes);
// Null when [p, p + bytes) is live device memory the host can reach (the CPU backend's), else
// what is wrong with it ("is not live device memory", ...), for messages.
const char* LiveDeviceRangeProblem(const void* p, uint64_t bytes);
// aclrtGetMemUsageInfo: device memory held per way of allocating it, now and at its peak.
aclError GetMemUsageInfo(int32_t device_id, aclrtMemUsageInfo* info, size_t input_num,
                         size_t* output_num);
// aclrtCheckMemType: *result 1 when every address is memory of a type in mem_type.
aclError CheckMemType(void** addrs, uint32_t count, uint32_t mem_type, uint32_t* result,
                      uint32_t reserve);
// aclrtMemGetAddressRange: the allocation or mapping holding ptr.
aclError GetAddressRange(const void* ptr, void** base, size_t* size);
aclError PointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes);

}  // namespace openacl

namespace openacl {
class Stream;
// Asynchronous data movement on a stream. Pinned or device memory on both sides makes a truly
// asynchronous copy; pageable host memory is copied before the call returns, in stream order
// (the documented 8.5+ contract), with a warning.
aclError MemcpyAsync(void* dst, size_t dest_max, const void* src, size_t count,
                     aclrtMemcpyKind kind, Stream* stream);
aclError Memcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, aclrtMemcpyKind kind, Stream* stream);
aclError MemsetAsync(void* ptr, size_t max_count, int32_t value, size_t count, Stream* stream);
// aclrtMemsetD32 (stream null) and aclrtMemsetD32Async: n 32-bit values; host memory is filled
// in the call, device memory in stream order.
aclError MemsetD32(void* ptr, size_t mem_size, uint32_t value, size_t n, Stream* stream);
}  // namespace openacl
