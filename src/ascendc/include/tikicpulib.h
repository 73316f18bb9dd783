// CANN's CPU-debug host interface (tikicpulib), on openacl: what a host program written for
// CANN's "CPU twin debug" mode includes under #ifdef ASCENDC_CPU_DEBUG.
//
//     #include "tikicpulib.h"
//     extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);
//     uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);   ... fill x, y ...
//     AscendC::SetKernelMode(KernelMode::AIV_MODE);
//     ICPU_RUN_KF(add_custom, numBlocks, x, y, z);        // returns when every block is done
//     AscendC::GmFree(x);
//
// CANN forks one process per core and runs the kernel in its closed instruction model. openacl
// runs the kernel's blocks through its runtime instead, as every other launch: on threads, all
// at once up to the chip's core count (so SyncAll works), with the kernel API's checks. So any
// pointer the process can read may be passed, not only GmAlloc memory, and the program may
// use AscendCL too (aclInit, aclrtMalloc, streams): the interface works with or without them.
#ifndef OPENACL_TIKICPULIB_H_
#define OPENACL_TIKICPULIB_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#include "kernel_core_state.h"  // the kernel API's per-core state each block starts afresh
#include "openacl/kernel.h"     // __global__, __aicore__, GM_ADDR, the block index
#include "openacl/kernel_binary.h"

extern "C" {
// libascendcl's side of the interface (src/ascendc/cpu_debug/cpu_debug.cpp).

// Pinned host memory (aclrtMallocHost) recorded as GmAlloc's; NULL with a message on failure.
__attribute__((visibility("default"))) void* openaclCpuDebugGmAlloc(size_t size);
// 0, or non-zero with a message on stderr when ptr is no live GmAlloc block.
__attribute__((visibility("default"))) int openaclCpuDebugGmFree(void* ptr);
__attribute__((visibility("default"))) void openaclCpuDebugSetKernelMode(int mode);
__attribute__((visibility("default"))) int openaclCpuDebugKernelMode(void);
__attribute__((visibility("default"))) void openaclCpuDebugSetTilingKey(uint64_t key);
__attribute__((visibility("default"))) uint64_t openaclCpuDebugTilingKey(void);
// Runs `numBlocks` blocks of the kernel at `kernel` (its address: one registration per
// kernel and name) through the runtime and waits for them; `run` reads the argsSize bytes at
// `args`. Uses the calling thread's current context, or device 0 when it has none. 0, or the
// ACL error code with "ICPU_RUN_KF(<name>): ..." (kernel, block, message) on stderr.
__attribute__((visibility("default"))) int openaclCpuDebugRun(const char* name, const void* kernel,
                                                              openaclKernelBlockFn run,
                                                              uint32_t paramCount,
                                                              uint32_t numBlocks, const void* args,
                                                              size_t argsSize);
}

namespace AscendC {

// Which cores a kernel runs on while debugged (separated architectures): CANN's values, and
// MIX_MODE the default. AIC_MODE makes every block a cube core (ASCEND_IS_AIC); AIV_MODE and
// the mixed modes make them vector cores (openacl does not split mix kernels into parts).
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_MODE_1_1 };

inline void SetKernelMode(KernelMode mode) {
    openaclCpuDebugSetKernelMode(static_cast<int>(mode));
}

// Memory every block of a launch can use. It is aclrtMallocHost memory, so AscendCL's copies
// and checks accept it too.
inline void* GmAlloc(size_t size) {
    return openaclCpuDebugGmAlloc(size);
}
inline void GmFree(void* ptr) {
    openaclCpuDebugGmFree(ptr);
}

namespace cpu_debug {

// What one ICPU_RUN_KF hands the runtime: the kernel, the settings of the launch and the
// arguments converted to the kernel's parameter types.
template <class... P>
struct Launch {
    void (*kernel)(P...);
    uint64_t tilingKey;
    int32_t mode;
    std::tuple<P...> values;
};

template <class... P>
int RunBlock(const void* args, uint32_t block, uint32_t blocks, char* error, size_t size) {
    using L = Launch<P...>;
    alignas(L) unsigned char copy[sizeof(L)];
    std::memcpy(copy, args, sizeof(L));
    const L& launch = *std::launder(reinterpret_cast<const L*>(copy));
    openacl::kernel::t_block = {block, blocks};
    openacl::ascendc::BeginBlock(launch.tilingKey);
    if (launch.mode == static_cast<int32_t>(KernelMode::AIC_MODE)) {
        openacl::ascendc::t_core.coreType = openacl::ascendc::CoreType::AIC;
    }
    try {
        std::apply(launch.kernel, launch.values);
        openacl::ascendc::EndBlock();  // its global-memory writes, compared with other blocks'
        return 0;
    } catch (const std::exception& e) {
        std::snprintf(error, size, "%s", e.what());
    } catch (...) {
        std::snprintf(error, size, "the kernel threw an exception");
    }
    return 1;
}

// An argument as the kernel's parameter of type P takes it. Pointers convert to any pointer
// type (GmAlloc gives void*, kernels take GM_ADDR or __gm__ T*); a struct parameter also takes a
// pointer to the struct (CANN passes tiling as GmAlloc memory).
template <class P, class A>
P Convert(A&& arg) {
    using D = std::decay_t<A>;
    if constexpr (std::is_pointer_v<P> && std::is_pointer_v<D>) {
        return (P)(arg);  // NOLINT: a C cast, to drop const and change the pointee at once
    } else if constexpr (std::is_pointer_v<P> && std::is_null_pointer_v<D>) {
        return nullptr;
    } else if constexpr (std::is_class_v<P> && std::is_pointer_v<D> &&
                         std::is_same_v<std::remove_cv_t<std::remove_pointer_t<D>>, P>) {
        return *arg;
    } else {
        return static_cast<P>(std::forward<A>(arg));
    }
}

}  // namespace cpu_debug

// What ICPU_RUN_KF expands to (CANN's name).
template <class... P, class... A>
int RunKernelFunctionOnCpu(void (*kernel)(P...), const char* name, uint32_t numBlocks,
                           A&&... args) {
    static_assert(sizeof...(P) == sizeof...(A),
                  "ICPU_RUN_KF: give as many arguments as the kernel has parameters");
    static_assert((std::is_trivially_copyable_v<P> && ...),
                  "ICPU_RUN_KF: every kernel parameter must be trivially copyable (pointers, "
                  "scalars, plain structs)");
    using L = cpu_debug::Launch<P...>;
    const L launch{kernel, openaclCpuDebugTilingKey(), openaclCpuDebugKernelMode(),
                   std::tuple<P...>(cpu_debug::Convert<P>(std::forward<A>(args))...)};
    return openaclCpuDebugRun(name, reinterpret_cast<const void*>(kernel),
                              &cpu_debug::RunBlock<P...>, static_cast<uint32_t>(sizeof...(P)),
                              numBlocks, &launch, sizeof launch);
}

}  // namespace AscendC

using AscendC::KernelMode;

// Runs the kernel `func` on numBlocks blocks with the arguments, in the kernel's parameter
// order, and returns when all blocks are done: 0, or the ACL error code (the failure, with the
// kernel, the block and the message, is printed to stderr and kept for aclGetRecentErrMsg).
#define ICPU_RUN_KF(func, numBlocks, ...) \
    AscendC::RunKernelFunctionOnCpu(func, #func, numBlocks, ##__VA_ARGS__)

// The tiling key the next ICPU_RUN_KF launches run with (TILING_KEY_IS(key) in the kernel).
#define ICPU_SET_TILING_KEY(key) openaclCpuDebugSetTilingKey(static_cast<uint64_t>(key))

#endif  // OPENACL_TIKICPULIB_H_
