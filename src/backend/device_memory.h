// A device's memory as every backend presents it to core: blocks handed out with what the
// runtime wants remembered about each (size asked for, owner, call site), so copies can be
// checked for domain and bounds and leaks reported at reset. The CPU backend carves one
// reserved address range (cpu::DeviceArena); the CUDA backend takes blocks from a stream-ordered
// CUDA memory pool (cuda::DeviceMemoryPool).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace openacl::backend {

class DeviceMemory {
 public:
    // What the owner wants remembered about a block (opaque to the backend).
    struct Tag {
        uint64_t requested = 0;  // size the caller asked for
        uint64_t usable = 0;     // size the caller may touch (the runtime's padded size)
        const void* owner = nullptr;
        const void* call_site = nullptr;
        uint32_t kind = 0;
        // The host must read and write it too (DVPP and host-engine model memory on an
        // accelerator); the CPU backend's memory always is.
        bool host_accessible = false;
    };
    struct Block {
        uintptr_t base = 0;
        uint64_t size = 0;  // bytes reserved for it
        Tag tag;
    };

    // Live blocks by base address, for implementations that keep them so: the block holding
    // `address`, if any (copied to *out when out is not null).
    using BlockMap = std::map<uintptr_t, Block>;
    static bool FindIn(const BlockMap& live, uintptr_t address, Block* out) {
        auto it = live.upper_bound(address);
        if (it == live.begin()) return false;
        --it;
        if (address >= it->first + it->second.size) return false;
        if (out != nullptr) *out = it->second;
        return true;
    }

    virtual ~DeviceMemory() = default;

    // False when the memory could not be set up at all (then nothing can be allocated).
    virtual bool valid() const = 0;
    virtual uint64_t capacity() const = 0;
    virtual uint64_t used() const = 0;

    // Returns nullptr when no block of that size can be had.
    virtual void* Allocate(uint64_t size, const Tag& tag) = 0;
    // Releases the block starting exactly at p; false if p is not the start of a live block.
    virtual bool Free(const void* p, Block* freed = nullptr) = 0;
    // True if p lies in memory this device hands out (live or freed): never host memory.
    virtual bool Contains(const void* p) const = 0;
    // The live block containing p, if any.
    virtual bool Find(const void* p, Block* out) const = 0;
    // Every live block, in address order.
    virtual std::vector<Block> LiveBlocks() const = 0;
    // Frees every block (device reset).
    virtual void ReleaseAll() = 0;
    // Where another process can map the bytes at p (live or not): a memory file of this process
    // and p's offset in it. False when this memory cannot be shared between processes.
    virtual bool ShareableFile(const void* p, int* fd, uint64_t* offset) const {
        (void)p, (void)fd, (void)offset;
        return false;
    }
};

}  // namespace openacl::backend
