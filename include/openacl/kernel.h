// Writing kernels for openacl's CPU backend in the Ascend C entry style.
//
//     #include "openacl/kernel.h"
//     extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
//         int64_t block = GetBlockIdx();    // which block this call is, 0 .. GetBlockNum()-1
//         ...
//     }
//
// Build such sources into a kernel binary with the CMake function openacl_add_kernel_binary
// (cmake/openaclKernel.cmake); load it with aclrtBinaryLoadFromFile and launch it with
// aclrtLaunchKernel over numBlocks blocks. Each block is one call of the function, dealt to
// one of the device's worker threads.
//
// What this covers of Ascend C: the kernel entry style (__global__ __aicore__, GM_ADDR global
// memory pointers) and block indexing (GetBlockIdx, GetBlockNum). It does not provide Ascend
// C's vector and cube intrinsics, local tensors or pipes: write the block's work in plain C++.
//
// Parameters are read from the launch's argument block in 8-byte slots, in order, each slot
// holding one parameter (pointers, integers up to 8 bytes, float, double).
#ifndef OPENACL_KERNEL_H_
#define OPENACL_KERNEL_H_

#include <cstdint>
#include <stdexcept>
#include <string>

#define __global__
#define __aicore__
#define __gm__
#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif

namespace openacl::kernel {

// The block the calling thread is running (set by the launcher around each block).
struct BlockInfo {
    uint32_t index = 0;
    uint32_t count = 1;
};
// Defined once per kernel binary by the generated launch table.
extern thread_local BlockInfo t_block;

// Thrown by OPENACL_KERNEL_TRAP / KernelAssert: fails the launch with this message.
class KernelTrap : public std::runtime_error {
 public:
    using std::runtime_error::runtime_error;
};

}  // namespace openacl::kernel

// Ascend C's names for "which block am I" and "how many blocks are there".
inline int64_t GetBlockIdx() {
    return openacl::kernel::t_block.index;
}
inline int64_t GetBlockNum() {
    return openacl::kernel::t_block.count;
}

// Fails the launch: the stream's next synchronisation reports the message with the kernel name
// and the block index.
[[noreturn]] inline void KernelTrap(const std::string& message) {
    throw openacl::kernel::KernelTrap(message);
}
inline void KernelAssert(bool condition, const char* what) {
    if (!condition) KernelTrap(std::string("assertion failed: ") + what);
}
#define OPENACL_KERNEL_ASSERT(condition) KernelAssert((condition), #condition)

#endif  // OPENACL_KERNEL_H_
