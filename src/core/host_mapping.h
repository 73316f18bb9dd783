// "Does this process map [p, p+n) with read (or write) access?": the check that turns a wild
// host pointer handed to a copy or fill into ACL_ERROR_INVALID_PARAM instead of SIGSEGV.
//
// Only pointers that no registry knows (not device, pinned or DVPP memory) are asked about:
// the answer comes from the kernel's map of the process (the PROCMAP_QUERY ioctl of
// /proc/self/maps, one call per mapping the range spans; parsing /proc/self/maps where the
// kernel lacks it), so it costs a system call or more. What the kernel maps with the right
// protection can still fault (a file mapping past the end of its file, an overcommitted
// MAP_NORESERVE reservation): those faults are out of reach of any check.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"

namespace openacl {

enum class HostAccess : uint8_t { kRead, kWrite };

// Why a range cannot be accessed: the first byte that cannot, and the mapping it lies in.
struct HostMappingProblem {
    enum Kind : uint8_t {
        kNone,      // every byte is mapped with the access asked for
        kUnmapped,  // nothing is mapped at `address`
        kNoAccess,  // `address` lies in [vma_start, vma_end), mapped without the access
    };
    Kind kind = kNone;
    uintptr_t address = 0;
    uintptr_t vma_start = 0, vma_end = 0;
    bool readable = false, writable = false, executable = false, shared = false;
    explicit operator bool() const { return kind != kNone; }
};

// Checks `rows` rows of `width` bytes each, the first at `p` and each `pitch` bytes after the
// one before (pitch >= width; a plain range is one row). Bytes between rows are not checked.
// When the process's map cannot be read at all (no /proc), nothing is refused.
HostMappingProblem FindHostMappingProblem(const void* p, uint64_t width, uint64_t pitch,
                                          uint64_t rows, HostAccess access);

// The same, reported: on a problem, Fail()s with ACL_ERROR_INVALID_PARAM and a message naming
// `which` ("dst", "hostArgs"), the range and what is wrong with it. A range of 0 bytes passes.
aclError CheckHostMapping(const char* which, const void* p, uint64_t bytes, HostAccess access);
aclError CheckHostMappingRows(const char* which, const void* p, uint64_t width, uint64_t pitch,
                              uint64_t rows, HostAccess access);

// For entry points outside the copy paths (kernel arguments, model or image data): checks
// `p` like CheckHostMapping when it is host memory no acl registry knows, and lets device,
// pinned and DVPP memory through untouched (their own checks apply).
aclError CheckUnregisteredHostMemory(const char* which, const void* p, uint64_t bytes,
                                     HostAccess access);

}  // namespace openacl
