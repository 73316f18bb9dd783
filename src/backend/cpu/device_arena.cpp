#include "backend/cpu/device_arena.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace openacl::cpu {
namespace {

// Frees of blocks this large count towards giving pages back; smaller ones share pages with
// their neighbours and are not worth a system call.
constexpr uint64_t kReturnPagesThreshold = uint64_t{2} << 20;
// Freed large blocks keep their pages until this many bytes of them have been freed; then every
// free range gives its pages back at once. A block allocated again soon after its free so reuses
// its pages without page faults (what MADV_FREE gave the private arena; a shared memory file has
// no lazy free), and the freed memory still resident stays bounded.
constexpr uint64_t kReturnBudget = uint64_t{512} << 20;

uint64_t RoundUp(uint64_t value, uint64_t granule) {
    return (value + granule - 1) / granule * granule;
}

uint64_t PageSize() {
    static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    return page;
}

// The arenas backed by a shared memory file, so that a child forked without exec can be given
// private copies of them (fork would otherwise share every device's pages with the child).
struct SharedArenas {
    std::mutex mutex;
    std::set<DeviceArena*> all;
};

SharedArenas& Shared() {
    static SharedArenas* arenas = new SharedArenas;  // outlives static destructors
    return *arenas;
}

void LockBeforeFork() {
    Shared().mutex.lock();
}
void UnlockInParent() {
    Shared().mutex.unlock();
}
void PrivatizeInChild() {
    for (DeviceArena* arena : Shared().all)
        arena->BecomePrivateCopy();
    Shared().mutex.unlock();
}

}  // namespace

DeviceArena::DeviceArena(uint64_t capacity) {
    capacity = RoundUp(capacity, 1 << 20);
    // One memory file per device, mapped shared, so that aclrtIpcMemGetExportKey can name its
    // pages to another process. Sparse: pages exist once touched.
    void* p = MAP_FAILED;
    int fd = memfd_create("openacl-device-memory", MFD_CLOEXEC);
    if (fd >= 0 && ftruncate(fd, static_cast<off_t>(capacity)) == 0) {
        p = mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    }
    if (p != MAP_FAILED) {
        backing_ = Backing::kSharedFile;
        fd_ = fd;
    } else {
        // No memory files (a sandbox): private memory, which works but cannot be exported.
        if (fd >= 0) close(fd);
        p = mmap(nullptr, capacity, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) return;
        backing_ = Backing::kAnonymous;
    }
    base_ = reinterpret_cast<uintptr_t>(p);
    capacity_ = capacity;
    InsertFree(0, capacity_);
    if (backing_ == Backing::kSharedFile) {
        static const int registered =
            pthread_atfork(LockBeforeFork, UnlockInParent, PrivatizeInChild);
        (void)registered;
        std::lock_guard lock(Shared().mutex);
        Shared().all.insert(this);
    }
}

DeviceArena::~DeviceArena() {
    if (backing_ == Backing::kSharedFile) {
        std::lock_guard lock(Shared().mutex);
        Shared().all.erase(this);
    }
    if (base_ != 0) munmap(reinterpret_cast<void*>(base_), capacity_);
    if (fd_ >= 0) close(fd_);
}

void DeviceArena::BecomePrivateCopy() {
    // In a child right after fork: one thread, no lock taken (a parent's thread may have held
    // one). The child sees the file as it was and keeps its own writes; the parent's memory file
    // is closed here, so the child neither changes nor holds it.
    if (backing_ != Backing::kSharedFile) return;
    void* p = mmap(reinterpret_cast<void*>(base_), capacity_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_FIXED | MAP_NORESERVE, fd_, 0);
    if (p == MAP_FAILED) return;  // stays shared: better than losing the contents
    close(fd_);
    fd_ = -1;
    backing_ = Backing::kForkedCopy;
}

bool DeviceArena::ShareableFile(const void* p, int* fd, uint64_t* offset) const {
    if (backing_ != Backing::kSharedFile || !Contains(p)) return false;
    *fd = fd_;
    *offset = reinterpret_cast<uintptr_t>(p) - base_;
    return true;
}

void DeviceArena::ReturnFreePages() {
    const uint64_t page = PageSize();
    for (const auto& [offset, size] : free_by_offset_) {
        // Whole pages only: the partial ones at the ends belong to live neighbours too.
        const uint64_t start = RoundUp(offset, page);
        const uint64_t end = (offset + size) / page * page;
        if (end <= start) continue;
        if (backing_ == Backing::kSharedFile) {
            fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(start),
                      static_cast<off_t>(end - start));
        } else {
            madvise(reinterpret_cast<void*>(base_ + start), end - start, MADV_DONTNEED);
        }
    }
    unreturned_ = 0;
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
        if (size >= kReturnPagesThreshold && backing_ != Backing::kAnonymous) {
            unreturned_ += size;
            if (unreturned_ >= kReturnBudget) ReturnFreePages();
        }
    }
    if (size >= kReturnPagesThreshold && backing_ == Backing::kAnonymous) {
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
    unreturned_ = 0;
    if (base_ != 0) {
        if (backing_ == Backing::kSharedFile) {
            fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
                      static_cast<off_t>(capacity_));
        } else {
            madvise(reinterpret_cast<void*>(base_), capacity_, MADV_DONTNEED);
        }
        InsertFree(0, capacity_);
    }
}

}  // namespace openacl::cpu
