// mstx memory pools (mstx/ms_tools_ext_mem.h): heaps a program registers, the regions it hands
// out of them, and the checks a memory tool would rely on: a heap is live device memory of
// the device it names, a region lies inside its heap, and what is unregistered was registered
// in that domain. Handles are numbers, never addresses the runtime would read.
#pragma once

#include <cstddef>
#include <cstdint>

namespace openacl::mstx {

// Memory as mstxMemVirtualRangeDesc_t describes it.
struct MemRange {
    uint32_t device;
    const void* ptr;
    uint64_t size;
};

// Registers a heap of `domain` (its handle; NULL: the default domain); returns the heap's
// handle, or nullptr with the error recorded.
void* RegisterHeap(const void* domain, const MemRange& heap);
// Unregisters a heap of `domain` and its regions; false with the error recorded.
bool UnregisterHeap(const void* domain, const void* heap);
// Registers `count` regions of `heap`, all or none: each must lie inside the heap. Writes their
// handles to handles_out unless it is null. False with the error recorded.
bool RegisterRegions(const void* domain, const void* heap, const MemRange* regions, size_t count,
                     void** handles_out);

// A region named by its start (by_handle false) or its handle.
struct RegionRef {
    bool by_handle;
    const void* value;
};
// Unregisters regions of `domain`'s heaps, all or none; false with the error recorded.
bool UnregisterRegions(const void* domain, const RegionRef* refs, size_t count);

// Forgets the heaps of a destroyed domain and their regions.
void DropHeaps(const void* domain);

}  // namespace openacl::mstx
