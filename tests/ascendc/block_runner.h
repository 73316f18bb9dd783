// Runs a kernel the way openacl's launcher does: one call per block, the block index set in
// openacl::kernel::t_block, blocks spread over several threads at once.
#ifndef OPENACL_TESTS_ASCENDC_BLOCK_RUNNER_H_
#define OPENACL_TESTS_ASCENDC_BLOCK_RUNNER_H_

#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernel_operator.h"

namespace openacl::test {

// Runs kernel() for blocks 0..blocks-1 on `threads` threads; returns the first trap's message
// ("" when every block finished).
template <typename Kernel>
std::string RunBlocks(uint32_t blocks, Kernel kernel, uint32_t threads = 4) {
    std::mutex mutex;
    std::string failure;
    std::vector<std::thread> workers;
    for (uint32_t t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            for (uint32_t block = t; block < blocks; block += threads) {
                openacl::kernel::t_block = {block, blocks};
                openacl::ascendc::BeginBlock();
                try {
                    kernel();
                } catch (const std::exception& error) {
                    std::lock_guard lock(mutex);
                    if (failure.empty()) failure = error.what();
                }
            }
        });
    }
    for (auto& worker : workers)
        worker.join();
    return failure;
}

// For a block that tests single instructions and sets up their operands in ways a chip kernel
// would have to order with flags (L0 filled by scalar writes, a UB buffer filled by a vector
// instruction and then copied over), so the cross-pipe check (tested on its own in
// test_pipe_hazards.cpp) is off.
inline void SingleInstructionTest() {
    openacl::ascendc::t_core.hazards.Enable(false);
}

// Runs one block on the calling thread (for tests that expect a trap).
template <typename Kernel>
void RunOneBlock(Kernel kernel, uint32_t block = 0, uint32_t blocks = 1) {
    openacl::kernel::t_block = {block, blocks};
    openacl::ascendc::BeginBlock();
    kernel();
}

// The trap message of a one-block kernel ("" when it finishes).
template <typename Body>
std::string TrapOf(Body body) {
    try {
        RunOneBlock(body);
    } catch (const openacl::kernel::KernelTrap& trap) {
        return trap.what();
    }
    return "";
}

}  // namespace openacl::test

#endif  // OPENACL_TESTS_ASCENDC_BLOCK_RUNNER_H_
