// A device's memory on the CPU backend: one reserved address range of fixed capacity, kept
// apart from ordinary host memory, carved into blocks. Because the range is fixed, "is this a
// device pointer?" is a bounds check, and every live block is known for copy checks and leak
// reports. The range maps one memory file, so that other processes can map its pages too
// (aclrtIpcMemGetExportKey; docs/ARCHITECTURE.md, "Memory shared between processes").
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "backend/device_memory.h"

namespace openacl::cpu {

class DeviceArena final : public backend::DeviceMemory {
 public:
    // Block starts and sizes are multiples of this; it also satisfies DVPP's 128-byte rule.
    static constexpr uint64_t kGranule = 128;

    explicit DeviceArena(uint64_t capacity);
    ~DeviceArena() override;
    DeviceArena(const DeviceArena&) = delete;
    DeviceArena& operator=(const DeviceArena&) = delete;

    bool valid() const override { return base_ != 0; }
    uint64_t capacity() const override { return capacity_; }
    uint64_t used() const override;

    // Returns nullptr when no free range is large enough.
    void* Allocate(uint64_t size, const Tag& tag) override;
    // Releases the block starting exactly at p; false if p is not the start of a live block.
    bool Free(const void* p, Block* freed = nullptr) override;
    // True if p lies in this arena's address range (live or not).
    bool Contains(const void* p) const override {
        auto a = reinterpret_cast<uintptr_t>(p);
        return a >= base_ && a < base_ + capacity_;
    }
    // The live block containing p, if any.
    bool Find(const void* p, Block* out) const override;
    // Every live block, in address order.
    std::vector<Block> LiveBlocks() const override;
    // Frees every block (device reset) and hands the pages back to the OS.
    void ReleaseAll() override;
    bool ShareableFile(const void* p, int* fd, uint64_t* offset) const override;
    // In a child forked without exec: the arena becomes a private copy of the parent's, so the
    // child's writes and frees stay its own (called by the fork handler only).
    void BecomePrivateCopy();

 private:
    void InsertFree(uint64_t offset, uint64_t size);
    void EraseFree(uint64_t offset, uint64_t size);
    // Gives the whole pages of every free range back to the OS (mutex held).
    void ReturnFreePages();

    enum class Backing : uint8_t {
        kSharedFile,  // the memory file fd_, shared mapping: exportable
        kForkedCopy,  // a forked child's private copy of its parent's file
        kAnonymous,   // private memory, where memory files are not available
    };
    Backing backing_ = Backing::kAnonymous;
    int fd_ = -1;
    uint64_t unreturned_ = 0;  // bytes of large blocks freed since pages were last given back

    uintptr_t base_ = 0;
    uint64_t capacity_ = 0;
    mutable std::mutex mutex_;
    uint64_t used_ = 0;
    std::map<uint64_t, uint64_t> free_by_offset_;           // offset -> size
    std::set<std::pair<uint64_t, uint64_t>> free_by_size_;  // (size, offset), best fit
    std::map<uint64_t, Block> live_;                        // offset -> block
};

}  // namespace openacl::cpu
