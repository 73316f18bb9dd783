#include "core/host_mapping.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "core/check.h"
#include "core/error.h"
#include "core/memory.h"

namespace openacl {
namespace {

// The PROCMAP_QUERY ioctl of /proc/<pid>/maps (Linux 6.11+, uapi linux/fs.h), declared here
// because older kernel headers lack it: the caller names an address, the kernel answers with
// the mapping that covers it (or, with kCoveringOrNext, the first one after it) and its
// protection. The layout is the kernel's ABI: 64-bit fields, then four 32-bit ones, then two
// 64-bit buffer addresses, 104 bytes in all.
struct ProcmapQuery {
    uint64_t size;           // in: sizeof(ProcmapQuery)
    uint64_t query_flags;    // in
    uint64_t query_addr;     // in
    uint64_t vma_start;      // out
    uint64_t vma_end;        // out
    uint64_t vma_flags;      // out: kVma* bits
    uint64_t vma_page_size;  // out
    uint64_t vma_offset;     // out
    uint64_t inode;          // out
    uint32_t dev_major;      // out
    uint32_t dev_minor;      // out
    uint32_t vma_name_size;  // in: capacity of vma_name_addr; out: length with its NUL
    uint32_t build_id_size;  // in/out; 0: not asked for
    uint64_t vma_name_addr;  // in: a buffer for the mapping's name, or 0
    uint64_t build_id_addr;  // in: 0
};
static_assert(sizeof(ProcmapQuery) == 104, "the kernel's struct procmap_query is 104 bytes");

constexpr unsigned long kProcmapQueryIoctl = _IOWR('f', 17, ProcmapQuery);
constexpr uint64_t kVmaReadable = 0x01;
constexpr uint64_t kVmaWritable = 0x02;
constexpr uint64_t kVmaExecutable = 0x04;
constexpr uint64_t kVmaShared = 0x08;
constexpr uint64_t kCoveringOrNext = 0x10;

struct Vma {
    uintptr_t start = 0, end = 0;
    bool readable = false, writable = false, executable = false, shared = false;
};

Vma FromFlags(uint64_t start, uint64_t end, uint64_t flags) {
    return Vma{static_cast<uintptr_t>(start), static_cast<uintptr_t>(end),
               (flags & kVmaReadable) != 0,   (flags & kVmaWritable) != 0,
               (flags & kVmaExecutable) != 0, (flags & kVmaShared) != 0};
}

// The descriptor the ioctl goes to, opened on first use and kept. It is bound to the memory of
// the process that opened it, so a forked child drops its copy and opens its own.
constexpr int kNotOpened = -2;
constexpr int kNoProcfs = -1;
std::atomic<int> g_maps_fd{kNotOpened};
std::atomic<bool> g_no_ioctl{false};  // the kernel predates PROCMAP_QUERY: parse the text

void ForgetMapsAfterFork() {
    const int fd = g_maps_fd.exchange(kNotOpened, std::memory_order_relaxed);
    if (fd >= 0) close(fd);
}

int MapsFd() {
    int fd = g_maps_fd.load(std::memory_order_acquire);
    if (fd != kNotOpened) return fd;
    static std::once_flag fork_handler;
    std::call_once(fork_handler, [] { pthread_atfork(nullptr, nullptr, ForgetMapsAfterFork); });
    const int opened = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    int expected = kNotOpened;
    const int mine = opened >= 0 ? opened : kNoProcfs;
    if (!g_maps_fd.compare_exchange_strong(expected, mine, std::memory_order_acq_rel)) {
        if (opened >= 0) close(opened);  // another thread opened it first
        return expected;
    }
    return mine;
}

enum class Lookup : uint8_t { kFound, kNothingAfter, kUnavailable };

// The mapping covering `address`, or else the first one after it; `name` (optional) receives
// its name ("[stack]", a file's path, "" for anonymous memory).
Lookup QueryVma(int fd, uintptr_t address, Vma* vma, char* name, uint32_t name_size) {
    ProcmapQuery query{};
    query.size = sizeof query;
    query.query_flags = kCoveringOrNext;
    query.query_addr = address;
    if (name != nullptr) {
        query.vma_name_addr = reinterpret_cast<uintptr_t>(name);
        query.vma_name_size = name_size;
    }
    int rc;
    do {
        rc = ioctl(fd, kProcmapQueryIoctl, &query);
    } while (rc != 0 && errno == EINTR);
    if (rc == 0) {
        *vma = FromFlags(query.vma_start, query.vma_end, query.vma_flags);
        if (name != nullptr && query.vma_name_size == 0) name[0] = '\0';
        return Lookup::kFound;
    }
    if (errno == ENOENT) return Lookup::kNothingAfter;
    // A kernel without the ioctl (or with another layout), or a sandbox that forbids it: never
    // ask again. Other errors (out of memory, say) only send this check to the text.
    if (errno == ENOTTY || errno == EINVAL || errno == ENOSYS || errno == EPERM ||
        errno == EACCES) {
        g_no_ioctl.store(true, std::memory_order_relaxed);
    }
    return Lookup::kUnavailable;
}

// The fallback: the mappings of /proc/self/maps that overlap [start, end), in address order,
// read afresh for each check. False when the file cannot be read.
struct TextVma {
    Vma vma;
    std::string name;
};

bool ReadMapsText(uintptr_t start, uintptr_t end, std::vector<TextVma>* out) {
    const int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    std::string text;
    char buffer[16384];
    for (;;) {
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buffer, static_cast<size_t>(n));
    }
    close(fd);
    // Each line: "start-end perms offset dev inode [name]", addresses in hex.
    for (size_t line = 0; line < text.size();) {
        size_t next = text.find('\n', line);
        if (next == std::string::npos) next = text.size();
        const std::string entry = text.substr(line, next - line);
        line = next + 1;
        unsigned long long from = 0, to = 0;
        char perms[5] = {};
        int name_at = 0;
        if (std::sscanf(entry.c_str(), "%llx-%llx %4s %*s %*s %*s %n", &from, &to, perms,
                        &name_at) < 3) {
            continue;
        }
        if (to <= start || from >= end) continue;
        TextVma item;
        item.vma = Vma{static_cast<uintptr_t>(from),
                       static_cast<uintptr_t>(to),
                       perms[0] == 'r',
                       perms[1] == 'w',
                       perms[2] == 'x',
                       perms[3] == 's'};
        if (name_at > 0 && static_cast<size_t>(name_at) < entry.size()) {
            item.name = entry.substr(static_cast<size_t>(name_at));
        }
        out->push_back(std::move(item));
    }
    return true;
}

// The first byte at or after `from` and before `to` that belongs to one of the rows, if any.
bool FirstRowByte(uintptr_t base, uint64_t width, uint64_t pitch, uint64_t rows, uintptr_t from,
                  uintptr_t to, uintptr_t* first) {
    const uint64_t r0 = from - base, r1 = to - base;
    // The first row that ends after r0.
    uint64_t row = 0;
    if (r0 >= width) row = pitch == 0 ? rows : (r0 - width) / pitch + 1;
    if (row >= rows) return false;
    const uint64_t row_start = row * pitch;
    if (row_start >= r1) return false;
    *first = base + std::max(r0, row_start);
    return true;
}

bool Allows(const Vma& vma, HostAccess access) {
    return access == HostAccess::kRead ? vma.readable : vma.writable;
}

HostMappingProblem Refusal(HostMappingProblem::Kind kind, uintptr_t address, const Vma* vma) {
    HostMappingProblem problem;
    problem.kind = kind;
    problem.address = address;
    if (vma != nullptr) {
        problem.vma_start = vma->start;
        problem.vma_end = vma->end;
        problem.readable = vma->readable;
        problem.writable = vma->writable;
        problem.executable = vma->executable;
        problem.shared = vma->shared;
    }
    return problem;
}

// Walks the mappings across the rows' span with `next_vma(address, &vma)` (the mapping covering
// address or the first after it; false when there is none) and reports the first row byte in
// a gap or in a mapping without the access.
template <class NextVma>
HostMappingProblem Walk(uintptr_t base, uint64_t width, uint64_t pitch, uint64_t rows,
                        HostAccess access, NextVma next_vma) {
    const uint64_t span = (rows - 1) * pitch + width;
    uintptr_t end = base + span;
    if (end < base) end = UINTPTR_MAX;  // past the top of the address space: never mapped
    uintptr_t cursor = base;
    while (cursor < end) {
        Vma vma;
        const bool found = next_vma(cursor, &vma);
        if (found && vma.start <= cursor) {
            const uintptr_t bad_end = std::min<uintptr_t>(vma.end, end);
            uintptr_t first = 0;
            if (!Allows(vma, access) &&
                FirstRowByte(base, width, pitch, rows, cursor, bad_end, &first)) {
                return Refusal(HostMappingProblem::kNoAccess, first, &vma);
            }
            cursor = bad_end;
            continue;
        }
        // A gap up to the next mapping (or the end).
        const uintptr_t gap_end = found ? std::min<uintptr_t>(vma.start, end) : end;
        uintptr_t first = 0;
        if (FirstRowByte(base, width, pitch, rows, cursor, gap_end, &first)) {
            return Refusal(HostMappingProblem::kUnmapped, first, nullptr);
        }
        cursor = gap_end;
    }
    return HostMappingProblem{};
}

HostMappingProblem FindWithText(uintptr_t base, uint64_t width, uint64_t pitch, uint64_t rows,
                                HostAccess access, std::string* name) {
    const uint64_t span = (rows - 1) * pitch + width;
    const uintptr_t end = base + span < base ? UINTPTR_MAX : base + span;
    std::vector<TextVma> vmas;
    if (!ReadMapsText(base, end, &vmas)) return HostMappingProblem{};  // nothing to judge by
    HostMappingProblem problem =
        Walk(base, width, pitch, rows, access, [&](uintptr_t address, Vma* vma) {
            for (const TextVma& item : vmas) {
                if (item.vma.end > address) {
                    *vma = item.vma;
                    return true;
                }
            }
            return false;
        });
    if (problem.kind == HostMappingProblem::kNoAccess && name != nullptr) {
        for (const TextVma& item : vmas) {
            if (item.vma.start == problem.vma_start) *name = item.name;
        }
    }
    return problem;
}

HostMappingProblem Find(const void* p, uint64_t width, uint64_t pitch, uint64_t rows,
                        HostAccess access, std::string* name) {
    const auto base = reinterpret_cast<uintptr_t>(p);
    if (width == 0 || rows == 0) return HostMappingProblem{};
    if (!g_no_ioctl.load(std::memory_order_relaxed)) {
        const int fd = MapsFd();
        if (fd == kNoProcfs) return HostMappingProblem{};  // no /proc: nothing to judge by
        bool unavailable = false;
        HostMappingProblem problem =
            Walk(base, width, pitch, rows, access, [&](uintptr_t address, Vma* vma) {
                if (unavailable) return false;
                const Lookup found = QueryVma(fd, address, vma, nullptr, 0);
                unavailable = found == Lookup::kUnavailable;
                return found == Lookup::kFound;
            });
        if (!unavailable) {
            if (problem.kind == HostMappingProblem::kNoAccess && name != nullptr) {
                char text[PATH_MAX + 64];  // the kernel's names are paths at most
                Vma vma;
                if (QueryVma(fd, problem.vma_start, &vma, text, sizeof text) == Lookup::kFound) {
                    *name = text;
                }
            }
            return problem;
        }
    }
    return FindWithText(base, width, pitch, rows, access, name);
}

// "range [0x1000, 0x1040) (64 bytes)", or "range of 4 rows of 16 bytes, 32 bytes apart, from
// 0x1000".
std::string DescribeRange(const void* p, uint64_t width, uint64_t pitch, uint64_t rows) {
    char text[160];
    if (rows == 1) {
        std::snprintf(text, sizeof text, "range [%p, %p) (%" PRIu64 " bytes)", p,
                      static_cast<const void*>(static_cast<const char*>(p) + width), width);
    } else {
        std::snprintf(text, sizeof text,
                      "range of %" PRIu64 " rows of %" PRIu64 " bytes, %" PRIu64
                      " bytes apart, from %p",
                      rows, width, pitch, p);
    }
    return text;
}

// With strict checks, what the runtime remembers of freed pinned memory at `address`.
std::string FreedDetail(uintptr_t address) {
    check::Freed freed;
    const auto* p = reinterpret_cast<const void*>(address);
    if (!check::On() || !check::FindFreed(check::Resource::kHostMemory, p, &freed)) return "";
    return "; it was in " + check::DescribeFreed(freed) + " (use after free)";
}

}  // namespace

HostMappingProblem FindHostMappingProblem(const void* p, uint64_t width, uint64_t pitch,
                                          uint64_t rows, HostAccess access) {
    return Find(p, width, pitch, rows, access, nullptr);
}

aclError CheckHostMappingRows(const char* which, const void* p, uint64_t width, uint64_t pitch,
                              uint64_t rows, HostAccess access) {
    std::string name;
    const HostMappingProblem problem = Find(p, width, pitch, rows, access, &name);
    if (!problem) return ACL_SUCCESS;
    const std::string range = DescribeRange(p, width, pitch, rows);
    const auto* at = reinterpret_cast<const void*>(problem.address);
    if (problem.kind == HostMappingProblem::kUnmapped) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %s is not mapped in this process: nothing is mapped at %p (a freed, "
                    "stale or made-up pointer, or a size larger than the buffer?)%s",
                    which, range.c_str(), at, FreedDetail(problem.address).c_str());
    }
    const char perms[5] = {problem.readable ? 'r' : '-', problem.writable ? 'w' : '-',
                           problem.executable ? 'x' : '-', problem.shared ? 's' : 'p', '\0'};
    const bool inaccessible = !problem.readable && !problem.writable && !problem.executable;
    const std::string named = name.empty() ? "" : " of " + name;
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s %s is not %s in this process: %p lies in the mapping%s [%p, %p) with "
                "protection %s%s",
                which, range.c_str(), access == HostAccess::kRead ? "readable" : "writable", at,
                named.c_str(), reinterpret_cast<const void*>(problem.vma_start),
                reinterpret_cast<const void*>(problem.vma_end), perms,
                inaccessible ? " (PROT_NONE: a reservation or a guard page)" : "");
}

aclError CheckHostMapping(const char* which, const void* p, uint64_t bytes, HostAccess access) {
    return CheckHostMappingRows(which, p, bytes, bytes, 1, access);
}

aclError CheckUnregisteredHostMemory(const char* which, const void* p, uint64_t bytes,
                                     HostAccess access) {
    if (bytes == 0 || ClassifyPointer(p).domain != MemDomain::kHost) return ACL_SUCCESS;
    return CheckHostMapping(which, p, bytes, access);
}

}  // namespace openacl
