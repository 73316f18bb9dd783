// Strict checks (OPENACL_CHECK=1, or aclInit's "openacl": {"check": ...}): misuse that real
// hardware answers with a crash, corruption or a silent slowdown becomes an error that names
// the allocation, the context or the call involved, and resources left alive at
// aclrtResetDevice, aclFinalize or process exit are listed with where they were created.
//
// Off, the checks cost one relaxed load of a global flag on the paths that consult it; what is
// always recorded (an allocation's size, device, kind and caller's return address) was
// recorded before the checks existed. On, every allocation, stream and event also records a
// backtrace, and frees go to a bounded history so that a stale pointer can be named.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace openacl {

class Context;
class Device;

namespace check {

extern std::atomic<bool> g_enabled;

// True while strict checks are on: one relaxed load, for hot paths.
inline bool On() {
    return g_enabled.load(std::memory_order_relaxed);
}

// What an asynchronous copy of pageable host memory does while checks are on.
enum class PageableAsyncCopy : uint8_t { kWarn, kError };

struct Settings {
    bool enable = false;
    PageableAsyncCopy pageable_async_copy = PageableAsyncCopy::kWarn;
};

// Puts the configured settings in force (aclInit, or the first use without aclInit). Turning
// the checks on also arranges the exit-time leak report.
void Apply(const Settings& settings);
// True when an asynchronous copy of pageable host memory must fail (checks on, "error").
bool PageableAsyncCopyIsError();

// What a tracked resource is.
enum class Resource : uint8_t { kDeviceMemory, kHostMemory, kStream, kEvent, kModel };

// Records where the resource at `address` was created: a backtrace, taken only while checks
// are on (callers test On() first, so that off costs nothing).
void NoteCreated(Resource resource, const void* address);
// Forgets a destroyed resource; device and pinned memory go to the freed history with their
// size, device (-1 for host) and the API that freed them.
void NoteDestroyed(Resource resource, const void* address, uint64_t bytes, int32_t device,
                   const char* alloc_name);

// Where a resource was created, as "func (file:line) <- caller ..." when checks recorded a
// backtrace; otherwise from `caller` (a return address recorded at allocation), or "" when
// nothing is known.
std::string CreationSite(Resource resource, const void* address, const void* caller);

// The freed allocation that contained `p`, newest first (only frees made while checks were on
// are remembered, the last few hundred of them).
struct Freed {
    uintptr_t base = 0;
    uint64_t bytes = 0;
    int32_t device = -1;  // -1: pinned host memory
    std::string alloc_name;
    std::string allocated_at;
    std::string freed_by;  // the API that freed it
    std::string freed_at;
};
bool FindFreed(Resource resource, const void* p, Freed* out);
// "a 4096-byte aclrtMalloc allocation at 0x... on device 0 (allocated at ...), freed by
// aclrtFree at ..."; for messages.
std::string DescribeFreed(const Freed& freed);

// "context 0x... (the default context of device 0)" / "(created by aclrtCreateContext on
// device 1)" / "no context".
// The context must be live (lifecycle mutex held, or the caller's own current context).
std::string DescribeContext(const Context* ctx);
// The same for a context that may have been destroyed since it was recorded (takes the
// lifecycle mutex): "context 0x... (destroyed)" then.
std::string DescribeContextIfLive(const Context* ctx);
// The same with the lifecycle mutex already held.
std::string DescribeContextLocked(const Context* ctx);

// The leak report: everything a device (or the host, device == nullptr) still holds, one line
// per allocation site. Written at WARNING level through the log and to stderr.
void ReportLeaks(const char* when, const std::vector<std::string>& lines);
// Looks up file:line for every recorded site at once (one addr2line per module) before a
// report formats many sites.
void ResolveAllSites();
// The lines of a report for `device` (lifecycle mutex held): device memory grouped by kind and
// site, explicit streams, events and, via the model layer's lister, loaded models.
std::vector<std::string> DeviceLeakLines(Device* device);
// Lists the models still loaded on a device ("model 3 loaded at ..."); set by the model layer.
using ModelLister = void (*)(const Device* device, std::vector<std::string>* lines);
void SetModelLister(ModelLister lister);

}  // namespace check
}  // namespace openacl
