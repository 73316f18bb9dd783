#include "core/check.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>

#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/event.h"
#include "core/log.h"
#include "core/memory.h"
#include "core/runtime.h"

namespace openacl::check {

std::atomic<bool> g_enabled{false};

namespace {

std::atomic<PageableAsyncCopy> g_pageable{PageableAsyncCopy::kWarn};

constexpr int kFrames = 16;
constexpr size_t kFreedHistory = 256;  // bounded: a long run must not grow memory forever
constexpr int kReportFrames = 3;       // frames shown per site, starting at the application

struct Site {
    void* frames[kFrames];
    int count = 0;
};

struct FreedRecord {
    Resource resource;
    uintptr_t base;
    uint64_t bytes;
    int32_t device;
    const char* alloc_name;
    const char* freed_by;
    Site allocated;
    bool has_allocated;
    Site freed;
};

struct State {
    std::mutex mutex;
    std::map<std::pair<Resource, uintptr_t>, Site> created;
    std::deque<FreedRecord> freed;                                   // newest at the front
    std::map<std::pair<std::string, uintptr_t>, std::string> lines;  // addr2line cache
    ModelLister model_lister = nullptr;
    bool exit_report_armed = false;
};

State& S() {
    static auto* state = new State;  // never destroyed: used by the exit-time report
    return *state;
}

Site Capture() {
    Site site;
    site.count = backtrace(site.frames, kFrames);
    return site;
}

// The base address of the module holding openacl, to skip the runtime's own frames.
const void* OwnModule() {
    static const void* base = [] {
        Dl_info info{};
        return dladdr(reinterpret_cast<void*>(&Capture), &info) != 0 ? info.dli_fbase : nullptr;
    }();
    return base;
}

bool InOpenacl(const void* pc) {
    Dl_info info{};
    return dladdr(pc, &info) != 0 && info.dli_fbase == OwnModule();
}

// A sanitizer's runtime intercepts backtrace() itself, so its frames come first in sanitized
// builds: like openacl's own, they are not where the application made the call.
bool InSanitizer(const void* pc) {
    Dl_info info{};
    if (dladdr(pc, &info) == 0 || info.dli_fname == nullptr) return false;
    // clang links its runtimes into the executable, whose `backtrace` is then the interceptor.
    if (info.dli_sname != nullptr && (std::strcmp(info.dli_sname, "backtrace") == 0 ||
                                      std::strncmp(info.dli_sname, "__interceptor_", 14) == 0)) {
        return true;
    }
    const char* name = std::strrchr(info.dli_fname, '/');
    name = name ? name + 1 : info.dli_fname;
    for (const char* runtime : {"libasan", "libtsan", "libubsan", "liblsan", "libclang_rt"}) {
        if (std::strncmp(name, runtime, std::strlen(runtime)) == 0) return true;
    }
    return false;
}

// Frames from the C library are below main (or a thread's start): not worth showing.
bool InLibc(const void* pc) {
    Dl_info info{};
    if (dladdr(pc, &info) == 0 || info.dli_fname == nullptr) return false;
    const char* name = std::strrchr(info.dli_fname, '/');
    return std::strncmp(name ? name + 1 : info.dli_fname, "libc.so", 7) == 0;
}

// Argument lists make lines long without helping to find the call: "f(int, char)" -> "f".
std::string StripArguments(std::string text) {
    if (text.empty() || text.back() != ')') return text;
    int depth = 0;
    for (size_t i = text.size(); i-- > 0;) {
        if (text[i] == ')') ++depth;
        if (text[i] == '(' && --depth == 0) {
            if (i > 0) text.resize(i);
            break;
        }
    }
    return text;
}

std::string Demangle(const char* name) {
    int status = 0;
    char* plain = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string text = status == 0 && plain != nullptr ? plain : name;
    std::free(plain);
    return StripArguments(text);
}

// The absolute path of a module as dladdr names it: the main program may be named by the
// path it was started with, or not at all.
std::string ModulePath(const char* name) {
    char path[4096];
    if (name == nullptr || *name == '\0') {
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        if (n <= 0) return "";
        path[n] = '\0';
        return path;
    }
    if (*name == '/') return name;
    return realpath(name, path) != nullptr ? path : "";
}

// Where a frame's call is in its module: the path and the address to look up.
struct Location {
    std::string module;
    uintptr_t lookup = 0;
};

bool Locate(const void* pc, Location* out) {
    Dl_info info{};
    if (dladdr(pc, &info) == 0 || info.dli_fbase == nullptr) return false;
    auto address = reinterpret_cast<uintptr_t>(pc);
    // Executables linked at a fixed address are looked up by absolute address, others
    // (shared objects, position-independent executables) by offset; a return address points
    // after the call, so look up the byte before it.
    const auto* header = static_cast<const ElfW(Ehdr)*>(info.dli_fbase);
    out->lookup =
        (header->e_type == ET_EXEC ? address
                                   : address - reinterpret_cast<uintptr_t>(info.dli_fbase)) -
        1;
    out->module = ModulePath(info.dli_fname);
    return !out->module.empty();
}

// "function (file.cpp:42)" from addr2line's two lines, or "" when it knows no line.
std::string ParseAddr2line(std::string function, std::string where) {
    if (auto disc = where.find(" (discriminator"); disc != std::string::npos) where.resize(disc);
    if (auto slash = where.find_last_of('/'); slash != std::string::npos) where.erase(0, slash + 1);
    if (where.empty() || where.rfind("??", 0) == 0) return "";
    std::string name = StripArguments(std::move(function));
    return name.empty() || name == "??" ? where : name + " (" + where + ")";
}

// Looks up file:line for frames with binutils' addr2line (only while checks are on: it
// starts one process per module and batch, and results are cached), so that reports say
// where in the program's source a resource was made.
void Resolve(const std::vector<const void*>& pcs) {
    if (!On() || access("/usr/bin/addr2line", X_OK) != 0) return;
    State& s = S();
    std::map<std::string, std::vector<uintptr_t>> wanted;
    {
        std::lock_guard lock(s.mutex);
        for (const void* pc : pcs) {
            Location where;
            if (!Locate(pc, &where) || where.module.find('\'') != std::string::npos) continue;
            if (s.lines.count({where.module, where.lookup}) == 0) {
                wanted[where.module].push_back(where.lookup);
            }
        }
    }
    constexpr size_t kBatch = 64;  // addresses per command line
    for (auto& [module, offsets] : wanted) {
        std::sort(offsets.begin(), offsets.end());
        offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
        for (size_t first = 0; first < offsets.size(); first += kBatch) {
            size_t last = std::min(offsets.size(), first + kBatch);
            std::string command = "/usr/bin/addr2line -f -C -e '" + module + "'";
            for (size_t i = first; i < last; ++i) {
                char hex[24];
                std::snprintf(hex, sizeof hex, " 0x%" PRIxPTR, offsets[i]);
                command += hex;
            }
            command += " 2>/dev/null";
            std::vector<std::string> results(last - first);
            if (FILE* pipe = popen(command.c_str(), "r")) {
                // Two lines per address: the function, then file:line ("??" when unknown).
                char function[1024], line[1024];
                for (size_t i = 0; i < results.size(); ++i) {
                    if (std::fgets(function, sizeof function, pipe) == nullptr ||
                        std::fgets(line, sizeof line, pipe) == nullptr) {
                        break;
                    }
                    function[std::strcspn(function, "\r\n")] = '\0';
                    line[std::strcspn(line, "\r\n")] = '\0';
                    results[i] = ParseAddr2line(function, line);
                }
                pclose(pipe);
            }
            std::lock_guard lock(s.mutex);
            for (size_t i = first; i < last; ++i)
                s.lines[{module, offsets[i]}] = results[i - first];
        }
    }
}

// One frame as "function (file.cpp:42)" (once resolved), "function (module+0x1f0)" or
// "module+0x1f0".
std::string Frame(const void* pc) {
    char text[512];
    Dl_info info{};
    if (dladdr(pc, &info) == 0 || info.dli_fbase == nullptr) {
        std::snprintf(text, sizeof text, "%p", pc);
        return text;
    }
    Location where;
    if (Locate(pc, &where)) {
        std::lock_guard lock(S().mutex);
        auto it = S().lines.find({where.module, where.lookup});
        if (it != S().lines.end() && !it->second.empty()) return it->second;
    }
    auto offset = reinterpret_cast<uintptr_t>(pc) - reinterpret_cast<uintptr_t>(info.dli_fbase);
    const char* module = info.dli_fname ? std::strrchr(info.dli_fname, '/') : nullptr;
    module = module ? module + 1 : (info.dli_fname ? info.dli_fname : "?");
    std::snprintf(text, sizeof text, "%s+0x%" PRIxPTR, module, offset);
    if (info.dli_sname != nullptr) return Demangle(info.dli_sname) + " (" + text + ")";
    return text;
}

// The frames of a site worth showing: from the first one outside openacl, at most `frames`,
// and none from the C library (below main or a thread's start).
std::vector<const void*> ShownFrames(const Site& site, int frames) {
    std::vector<const void*> shown;
    for (int i = 0; i < site.count && static_cast<int>(shown.size()) < frames; ++i) {
        if (shown.empty() && (InOpenacl(site.frames[i]) || InSanitizer(site.frames[i]))) continue;
        if (InLibc(site.frames[i])) break;
        shown.push_back(site.frames[i]);
    }
    return shown;
}

std::string SiteText(const Site& site, int frames) {
    std::vector<const void*> shown = ShownFrames(site, frames);
    Resolve(shown);
    std::string text;
    for (const void* pc : shown) {
        if (!text.empty()) text += " <- ";
        text += Frame(pc);
    }
    return text;
}

// Resolves the shown frames of every recorded creation site in one batch per module, so that
// a report with many sites starts addr2line a few times, not once per site.
}  // namespace

void ResolveAllSites() {
    std::vector<const void*> pcs;
    {
        std::lock_guard lock(S().mutex);
        for (const auto& [key, site] : S().created) {
            for (const void* pc : ShownFrames(site, kReportFrames))
                pcs.push_back(pc);
        }
    }
    Resolve(pcs);
}

namespace {

void ExitReport() {
    if (!On()) return;
    Runtime& runtime = Runtime::Get();
    std::vector<std::string> lines;
    // A thread still inside a lifecycle call at exit: report nothing rather than block exit.
    std::unique_lock lock(runtime.lifecycle_mutex(), std::try_to_lock);
    if (!lock.owns_lock()) return;
    for (Device* device : runtime.OpenDevicesLocked()) {
        for (std::string& line : DeviceLeakLines(device))
            lines.push_back(std::move(line));
    }
    lock.unlock();
    for (std::string& line : PinnedHostLeakLines())
        lines.push_back(std::move(line));
    ReportLeaks("process exit (aclrtResetDevice or aclFinalize was not called)", lines);
}

}  // namespace

void Apply(const Settings& settings) {
    State& s = S();
    {
        std::lock_guard lock(s.mutex);
        if (settings.enable && !s.exit_report_armed) {
            s.exit_report_armed = true;
            std::atexit(ExitReport);
        }
    }
    g_pageable.store(settings.pageable_async_copy, std::memory_order_relaxed);
    g_enabled.store(settings.enable, std::memory_order_relaxed);
}

bool PageableAsyncCopyIsError() {
    return On() && g_pageable.load(std::memory_order_relaxed) == PageableAsyncCopy::kError;
}

void NoteCreated(Resource resource, const void* address) {
    Site site = Capture();
    State& s = S();
    std::lock_guard lock(s.mutex);
    s.created[{resource, reinterpret_cast<uintptr_t>(address)}] = site;
}

void NoteDestroyed(Resource resource, const void* address, uint64_t bytes, int32_t device,
                   const char* alloc_name) {
    FreedRecord record{resource,   reinterpret_cast<uintptr_t>(address),
                       bytes,      device,
                       alloc_name, CurrentApi(),
                       Site{},     false,
                       Site{}};
    if (resource == Resource::kDeviceMemory || resource == Resource::kHostMemory) {
        record.freed = Capture();
    }
    State& s = S();
    std::lock_guard lock(s.mutex);
    auto it = s.created.find({resource, record.base});
    if (it != s.created.end()) {
        record.allocated = it->second;
        record.has_allocated = true;
        s.created.erase(it);
    }
    if (resource != Resource::kDeviceMemory && resource != Resource::kHostMemory) return;
    s.freed.push_front(record);
    if (s.freed.size() > kFreedHistory) s.freed.pop_back();
}

std::string CreationSite(Resource resource, const void* address, const void* caller) {
    State& s = S();
    {
        std::unique_lock lock(s.mutex);
        auto it = s.created.find({resource, reinterpret_cast<uintptr_t>(address)});
        if (it != s.created.end()) {
            Site site = it->second;
            lock.unlock();
            return SiteText(site, kReportFrames);
        }
    }
    return caller != nullptr ? Frame(caller) : "";
}

bool FindFreed(Resource resource, const void* p, Freed* out) {
    auto address = reinterpret_cast<uintptr_t>(p);
    FreedRecord record{};
    {
        State& s = S();
        std::lock_guard lock(s.mutex);
        bool found = false;
        for (const FreedRecord& r : s.freed) {
            if (r.resource == resource && address >= r.base && address - r.base < r.bytes) {
                record = r;
                found = true;
                break;
            }
        }
        if (!found) return false;
    }
    out->base = record.base;
    out->bytes = record.bytes;
    out->device = record.device;
    out->alloc_name = record.alloc_name;
    out->allocated_at = record.has_allocated ? SiteText(record.allocated, kReportFrames) : "";
    out->freed_by = record.freed_by;
    out->freed_at = SiteText(record.freed, kReportFrames);
    return true;
}

std::string DescribeFreed(const Freed& freed) {
    char head[200];
    if (freed.device >= 0) {
        std::snprintf(head, sizeof head, "a %" PRIu64 "-byte %s allocation at %p on device %d",
                      freed.bytes, freed.alloc_name.c_str(), reinterpret_cast<void*>(freed.base),
                      freed.device);
    } else {
        std::snprintf(head, sizeof head, "a %" PRIu64 "-byte %s allocation at %p", freed.bytes,
                      freed.alloc_name.c_str(), reinterpret_cast<void*>(freed.base));
    }
    std::string text = head;
    if (!freed.allocated_at.empty()) text += ", allocated at " + freed.allocated_at;
    text += ", freed by " + freed.freed_by;
    if (!freed.freed_at.empty()) text += " at " + freed.freed_at;
    return text;
}

std::string DescribeContext(const Context* ctx) {
    if (ctx == nullptr) return "no context";
    char text[160];
    std::snprintf(text, sizeof text,
                  ctx->is_default() ? "context %p (the default context of device %d)"
                                    : "context %p (created by aclrtCreateContext on device %d)",
                  static_cast<const void*>(ctx), ctx->device()->id());
    return text;
}

std::string DescribeContextIfLive(const Context* ctx) {
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    return DescribeContextLocked(ctx);
}

std::string DescribeContextLocked(const Context* ctx) {
    if (ctx != nullptr && LookupContextLocked(ctx) == nullptr) {
        char text[96];
        std::snprintf(text, sizeof text, "context %p (destroyed)", static_cast<const void*>(ctx));
        return text;
    }
    return DescribeContext(ctx);
}

void ReportLeaks(const char* when, const std::vector<std::string>& lines) {
    if (lines.empty()) return;
    std::string report = "openacl leak report at " + std::string(when) + ", still alive:";
    OPENACL_LOG_WARNING("%s", report.c_str());
    for (const std::string& line : lines)
        OPENACL_LOG_WARNING("  %s", line.c_str());
    // Also on stderr, where someone running the program sees it without finding the log.
    std::string text = "[openacl] " + report + "\n";
    for (const std::string& line : lines)
        text += "[openacl]   " + line + "\n";
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
}

std::vector<std::string> DeviceLeakLines(Device* device) {
    ResolveAllSites();
    std::vector<std::string> lines;
    char text[256];
    // Device memory, one line per (kind, site): "forgot to free in a loop" shows as one line
    // with a large count.
    struct Group {
        uint64_t count = 0, bytes = 0;
    };
    std::map<std::pair<std::string, std::string>, Group> groups;
    for (const auto& block : device->memory().LiveBlocks()) {
        auto kind = static_cast<DeviceAllocKind>(block.tag.kind);
        std::string site =
            CreationSite(Resource::kDeviceMemory, reinterpret_cast<const void*>(block.base),
                         block.tag.call_site);
        Group& group = groups[{AllocName(kind), site}];
        ++group.count;
        group.bytes += block.tag.requested;
    }
    for (const auto& [key, group] : groups) {
        std::snprintf(text, sizeof text,
                      "%" PRIu64 " device allocation(s) by %s on device %d, %" PRIu64 " bytes",
                      group.count, key.first.c_str(), device->id(), group.bytes);
        lines.push_back(text + (key.second.empty() ? "" : ", allocated at " + key.second));
    }
    for (Context* ctx : device->contexts) {
        if (!ctx->is_default()) {
            lines.push_back(DescribeContext(ctx) + ", never destroyed with aclrtDestroyContext");
        }
        for (Stream* stream : ctx->streams) {
            std::snprintf(text, sizeof text, "stream %p in ", static_cast<void*>(stream));
            std::string site = CreationSite(Resource::kStream, stream, nullptr);
            lines.push_back(text + DescribeContext(ctx) + ", never destroyed" +
                            (site.empty() ? "" : ", created at " + site));
        }
    }
    for (const void* event : LiveDeviceEvents(device)) {
        std::snprintf(text, sizeof text, "event %p on device %d, never destroyed", event,
                      device->id());
        std::string site = CreationSite(Resource::kEvent, event, nullptr);
        lines.push_back(text + (site.empty() ? "" : ", created at " + site));
    }
    ModelLister lister = nullptr;
    {
        std::lock_guard lock(S().mutex);
        lister = S().model_lister;
    }
    if (lister != nullptr) lister(device, &lines);
    return lines;
}

void SetModelLister(ModelLister lister) {
    std::lock_guard lock(S().mutex);
    S().model_lister = lister;
}

}  // namespace openacl::check
