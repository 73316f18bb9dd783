#include "backend/cpu/device_arena.h"

#include <sys/mman.h>

namespace openacl::cpu {
namespace {

// Large frees hand their pages back lazily so freed device memory stops counting as RSS
// without paying for page faults when a same-sized block is allocated again soon.
constexpr uint64_t kReturnPagesThreshold = uint64_t{2} << 20;

uint64_t RoundUp(uint64_t value, uint64_t granule) {
    return (value + granule - 1) / granule * granule;
}

}  // namespace

DeviceArena::DeviceArena(uint64_t capacity) {
    capacity = RoundUp(capacity, 1 << 20);
    void* p = mmap(nullptr, capacity, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return;
    base_ = reinterpret_cast<uintptr_t>(p);
    capacity_ = capacity;
    InsertFree(0, capacity_);
}

DeviceArena::~DeviceArena() {
    if (base_ != 0) munmap(reinterpret_cast<void*>(base_), capacity_);
}

uint64_t DeviceArena::used() const {
    std::lock_guard lock(mutex_);
    return used_;
}

void DeviceArena::InsertFree(uint64_t offset, uint64_t size) {
    free_by_offset_.emplace(offset, size);
    free_by_size_.emplace(size, offset);
}

void DeviceArena::EraseFree(uint64_t offset, uint64_t size) {
    free_by_offset_.erase(offset);
    free_by_size_.erase({size, offset});
}

void* DeviceArena::Allocate(uint64_t size, const Tag& tag) {
    if (size == 0 || size > capacity_) return nullptr;
    size = RoundUp(size, kGranule);
    std::lock_guard lock(mutex_);
    auto it = free_by_size_.lower_bound({size, 0});
    if (it == free_by_size_.end()) return nullptr;
    auto [free_size, offset] = *it;
    EraseFree(offset, free_size);
    if (free_size > size) InsertFree(offset + size, free_size - size);
    used_ += size;
    Block block{base_ + offset, size, tag};
    live_.emplace(offset, block);
    return reinterpret_cast<void*>(block.base);
}

bool DeviceArena::Free(const void* p, Block* freed) {
    if (!Contains(p)) return false;
    uint64_t offset = reinterpret_cast<uintptr_t>(p) - base_;
    uint64_t size = 0;
    {
        std::lock_guard lock(mutex_);
        auto it = live_.find(offset);
        if (it == live_.end()) return false;
        if (freed != nullptr) *freed = it->second;
        size = it->second.size;
        live_.erase(it);
        used_ -= size;
        // Coalesce with the free neighbours on both sides.
        uint64_t start = offset, length = size;
        auto next = free_by_offset_.find(offset + size);
        if (next != free_by_offset_.end()) {
            length += next->second;
            EraseFree(next->first, next->second);
        }
        auto prev = free_by_offset_.lower_bound(offset);
        if (prev != free_by_offset_.begin()) {
            --prev;
            if (prev->first + prev->second == offset) {
                start = prev->first;
                length += prev->second;
                EraseFree(prev->first, prev->second);
            }
        }
        InsertFree(start, length);
    }
    if (size >= kReturnPagesThreshold) {
        madvise(const_cast<void*>(p), size, MADV_FREE);
    }
    return true;
}

bool DeviceArena::Find(const void* p, Block* out) const {
    if (!Contains(p)) return false;
    uint64_t offset = reinterpret_cast<uintptr_t>(p) - base_;
    std::lock_guard lock(mutex_);
    auto it = live_.upper_bound(offset);
    if (it == live_.begin()) return false;
    --it;
    if (offset >= it->first + it->second.size) return false;
    *out = it->second;
    return true;
}

std::vector<DeviceArena::Block> DeviceArena::LiveBlocks() const {
    std::lock_guard lock(mutex_);
    std::vector<Block> blocks;
    blocks.reserve(live_.size());
    for (const auto& [offset, block] : live_)
        blocks.push_back(block);
    return blocks;
}

void DeviceArena::ReleaseAll() {
    std::lock_guard lock(mutex_);
    live_.clear();
    free_by_offset_.clear();
    free_by_size_.clear();
    used_ = 0;
    if (base_ != 0) {
        madvise(reinterpret_cast<void*>(base_), capacity_, MADV_DONTNEED);
        InsertFree(0, capacity_);
    }
}

}  // namespace openacl::cpu
