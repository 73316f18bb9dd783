#include "core/kernel_block_writes.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "openacl/kernel_binary.h"

namespace openacl {
namespace {

struct CurrentBlock {
    KernelBlockWrites* writes = nullptr;
    uint32_t block = 0;
};
thread_local CurrentBlock t_current;

}  // namespace

void KernelBlockWrites::Add(uint32_t block, const uint64_t* ranges, const char* const* apis,
                            uint32_t count) {
    std::lock_guard lock(mutex_);
    writes_.reserve(writes_.size() + count);
    for (uint32_t i = 0; i < count; ++i) {
        if (ranges[2 * i] < ranges[2 * i + 1])
            writes_.push_back({ranges[2 * i], ranges[2 * i + 1], apis[i], block});
    }
}

std::string KernelBlockWrites::Overlap() {
    if (ordered_.load(std::memory_order_relaxed)) return {};
    std::lock_guard lock(mutex_);
    if (writes_.size() < 2) return {};
    std::sort(writes_.begin(), writes_.end(),
              [](const Write& a, const Write& b) { return a.begin < b.begin; });
    // The write reaching furthest so far: any overlap between two blocks shows up as a later
    // write starting before it ends (the first such overlap in begin order always does).
    const Write* reach = &writes_[0];
    for (size_t i = 1; i < writes_.size(); ++i) {
        const Write& w = writes_[i];
        if (w.begin < reach->end && w.block != reach->block) {
            const uint64_t end = std::min(w.end, reach->end);
            const Write& first = reach->block < w.block ? *reach : w;
            const Write& second = reach->block < w.block ? w : *reach;
            char text[512];
            std::snprintf(text, sizeof text,
                          "blocks %u and %u both write the %" PRIu64
                          " bytes of global memory at %#" PRIx64
                          " (%s in block %u, %s in block %u), outside atomics and with no "
                          "SyncAll, IBSet/IBWait or CrossCoreSetFlag between the blocks: on the "
                          "NPU the blocks run at once and which write lands last depends on "
                          "timing; give each block its own part of the output, or accumulate "
                          "with SetAtomicAdd",
                          first.block, second.block, end - w.begin, w.begin, first.api, first.block,
                          second.api, second.block);
            return text;
        }
        if (w.end > reach->end) reach = &w;
    }
    return {};
}

KernelBlockWrites* KernelBlockWrites::Current() {
    return t_current.writes;
}

KernelBlockWrites::BlockScope::BlockScope(KernelBlockWrites* writes, uint32_t block) {
    t_current = {writes, block};
}

KernelBlockWrites::BlockScope::~BlockScope() {
    t_current = {};
}

}  // namespace openacl

int openaclKernelBlockWrites(const uint64_t* ranges, const char* const* apis, uint32_t count) {
    if (openacl::KernelBlockWrites* writes = openacl::t_current.writes;
        writes != nullptr && ranges != nullptr && apis != nullptr) {
        writes->Add(openacl::t_current.block, ranges, apis, count);
    }
    return 0;
}
