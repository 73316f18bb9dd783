// The global memory an Ascend C launch's blocks wrote outside atomics, collected from each block
// as it ends (openaclKernelBlockWrites), and checked once every block has run: two blocks
// writing the same bytes with nothing ordering them race on the chip, where the last write to
// land wins by timing. Launches that synchronise their blocks (SyncAll, IBSet/IBWait,
// CrossCoreSetFlag mode 0) may hand data between blocks on purpose and are not checked.
#ifndef OPENACL_CORE_KERNEL_BLOCK_WRITES_H_
#define OPENACL_CORE_KERNEL_BLOCK_WRITES_H_

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace openacl {

class KernelBlockWrites {
 public:
    void Add(uint32_t block, const uint64_t* ranges, const char* const* apis, uint32_t count);
    // An inter-block synchronisation ran in the launch.
    void NoteOrdered() { ordered_.store(true, std::memory_order_relaxed); }
    // What two blocks wrote alike, in words; "" when none did (or the launch was ordered).
    std::string Overlap();

    // The launch of the block the calling thread runs, for the kernel's calls into the runtime;
    // set by the launcher around each block.
    static KernelBlockWrites* Current();
    class BlockScope {
     public:
        BlockScope(KernelBlockWrites* writes, uint32_t block);
        ~BlockScope();
        BlockScope(const BlockScope&) = delete;
        BlockScope& operator=(const BlockScope&) = delete;
    };

 private:
    struct Write {
        uint64_t begin;
        uint64_t end;
        const char* api;
        uint32_t block;
    };
    std::mutex mutex_;
    std::vector<Write> writes_;
    std::atomic<bool> ordered_{false};
};

}  // namespace openacl

#endif  // OPENACL_CORE_KERNEL_BLOCK_WRITES_H_
