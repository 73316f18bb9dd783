// Writing kernels for openacl in the Ascend C entry style, for the CPU backend and, from the
// same source, the CUDA backend.
//
//     #include "openacl/kernel.h"
//     extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
//         int64_t block = GetBlockIdx();    // which block this call is, 0 .. GetBlockNum()-1
//         ...
//     }
//
// Build such sources into a kernel binary with the CMake function openacl_add_kernel_binary
// (cmake/openaclKernel.cmake) for the CPU backend, or openacl_add_cuda_kernel_binary
// (cmake/openaclCudaKernel.cmake, nvcc) for the CUDA backend; load it with
// aclrtBinaryLoadFromFile and launch it with aclrtLaunchKernel over numBlocks blocks. On the
// CPU each block is one call of the function, dealt to one of the device's worker threads; on
// CUDA each block is a thread block of as many threads as the kernel's __launch_bounds__ says
// (1 without it).
//
// What this covers of Ascend C: the kernel entry style (__global__ __aicore__, GM_ADDR global
// memory pointers) and block indexing (GetBlockIdx, GetBlockNum). It does not provide Ascend
// C's vector and cube intrinsics, local tensors or pipes: write the block's work in plain C++.
// GetThreadIdx/GetThreadNum (0 and 1 on the CPU) let one source spread a block's work over
// its CUDA threads:  for (i = begin + GetThreadIdx(); i < end; i += GetThreadNum()) ...
//
// Parameters are read from the launch's argument block in 8-byte slots, in order, each slot
// holding one parameter (pointers, integers up to 8 bytes, float, double). On CUDA the block
// is handed to the kernel as its parameter buffer, which matches the slots only when every
// parameter is 8 bytes (pointers, int64_t, uint64_t, double): widen narrower ones.
#ifndef OPENACL_KERNEL_H_
#define OPENACL_KERNEL_H_

#include <cstdint>
#include <stdexcept>
#include <string>

#if defined(__CUDACC__)
// nvcc: __global__ and __launch_bounds__ are CUDA's own; blocks and threads are CUDA's.
#include <cstdio>

#define __aicore__
#define __gm__
#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif

__device__ inline int64_t GetBlockIdx() {
    return blockIdx.x;
}
__device__ inline int64_t GetBlockNum() {
    return gridDim.x;
}
__device__ inline int64_t GetThreadIdx() {
    return threadIdx.x;
}
__device__ inline int64_t GetThreadNum() {
    return blockDim.x;
}

// Prints the message and traps: the kernel stops and the launch fails with a CUDA error
// (cudaErrorLaunchFailure / CUDA_ERROR_ILLEGAL_INSTRUCTION, reported by the stream's next
// synchronisation). Unlike on the CPU the CUDA context is then unusable, as after any trap.
__device__ inline void KernelTrap(const char* message) {
    printf("openacl kernel trap (block %u, thread %u): %s\n", blockIdx.x, threadIdx.x, message);
    __trap();
}
__device__ inline void KernelAssert(bool condition, const char* what) {
    if (!condition) {
        printf("openacl kernel trap (block %u, thread %u): assertion failed: %s\n", blockIdx.x,
               threadIdx.x, what);
        __trap();
    }
}
#else
#define __global__
#define __aicore__
#define __gm__
// Gen-3 (.asc) kernels say which cores run them; on the CPU the launch stubs read the words
// before this header defines them away (a __cube__ kernel's blocks are cube cores).
#define __vector__
#define __cube__
#define __mix__(...)
// Only the CUDA build uses the thread count a kernel asks for.
#define __launch_bounds__(...)
#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif

namespace openacl::kernel {

// The block the calling thread is running (set by the launcher around each block).
struct BlockInfo {
    uint32_t index = 0;
    uint32_t count = 1;
};
// One per thread; the launcher (a kernel binary's generated table, or an Ascend C library's
// generated launch stub) sets it before each block.
inline thread_local BlockInfo t_block;

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
// One thread per block on the CPU: a thread-stride loop over a block's work runs it all.
inline int64_t GetThreadIdx() {
    return 0;
}
inline int64_t GetThreadNum() {
    return 1;
}

// Fails the launch: the stream's next synchronisation reports the message with the kernel name
// and the block index.
[[noreturn]] inline void KernelTrap(const std::string& message) {
    throw openacl::kernel::KernelTrap(message);
}
inline void KernelAssert(bool condition, const char* what) {
    if (!condition) KernelTrap(std::string("assertion failed: ") + what);
}
#endif  // __CUDACC__
#define OPENACL_KERNEL_ASSERT(condition) KernelAssert((condition), #condition)

#endif  // OPENACL_KERNEL_H_
