// System interfaces of a kernel: core and task queries, kernel types, tiling access, printf,
// assertions, the cycle counter and the per-core reset.
#ifndef OPENACL_ASCENDC_KERNEL_SYSTEM_H_
#define OPENACL_ASCENDC_KERNEL_SYSTEM_H_

#include <chrono>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include "kernel_core_state.h"
#include "kernel_tensor_impl.h"
#include "kernel_type.h"

// The block index and count as CANN's built-in variables; each thread's reference is bound to
// its own block.
inline thread_local const uint32_t& block_idx = openacl::kernel::t_block.index;
inline thread_local const uint32_t& block_num = openacl::kernel::t_block.count;

// Kernel types for KERNEL_TASK_TYPE_DEFAULT (names as in CANN).
enum KernelMetaType : uint8_t {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_MIX_AIC_HARD_SYNC,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MIX_AIV_HARD_SYNC,
    KERNEL_TYPE_MAX,
};

namespace openacl::ascendc {

// A block runs as one core: a cube-only kernel's block is an AIC, every other block an AIV.
// In a mix kernel's block (run as one AIC and its AIVs, kernel_cross_core.h) each core already
// knows what it is.
__aicore__ inline void SetKernelType(KernelMetaType type) {
    if (t_core.group != nullptr) return;
    t_core.coreType = type == KERNEL_TYPE_AIC_ONLY || type == KERNEL_TYPE_MIX_AIC_1_0
                          ? CoreType::AIC
                          : CoreType::AIV;
}

template <typename T>
__aicore__ inline auto PrintfArgument(T value) {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                  std::is_same_v<T, float>) {
        return static_cast<double>(static_cast<float>(value));
    } else {
        return value;
    }
}

[[noreturn]] inline void AssertFailed(const char* condition, const char* file, int line,
                                      const char* format = nullptr, ...) {
    std::string message = std::string("assertion failed: ") + condition + " (" + file + ":" +
                          std::to_string(line) + ")";
    if (format != nullptr) {
        char text[512];
        va_list args;
        va_start(args, format);
        std::vsnprintf(text, sizeof text, format, args);
        va_end(args);
        message += ": ";
        message += text;
    }
    KernelTrap(message);
}

}  // namespace openacl::ascendc

#define KERNEL_TASK_TYPE_DEFAULT(type) ::openacl::ascendc::SetKernelType(type)
#define KERNEL_TASK_TYPE(key, type) ((void)(key), ::openacl::ascendc::SetKernelType(type))

#define ASCEND_IS_AIV (::openacl::ascendc::t_core.coreType == ::openacl::ascendc::CoreType::AIV)
#define ASCEND_IS_AIC (::openacl::ascendc::t_core.coreType == ::openacl::ascendc::CoreType::AIC)
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)

// Tiling. GET_TILING_DATA declares `var` as a copy of the tiling struct at the GM address;
// the struct type is OPENACL_TILING_DATA_TYPE, `TilingData` unless the build defines it (CANN's
// op compiler generates the macro per operator with the operator's type).
#ifndef OPENACL_TILING_DATA_TYPE
#define OPENACL_TILING_DATA_TYPE TilingData
#endif
#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling) \
    type var;                                          \
    std::memcpy(&var, reinterpret_cast<const void*>(tiling), sizeof(type))
#define GET_TILING_DATA(var, tiling) \
    GET_TILING_DATA_WITH_STRUCT(OPENACL_TILING_DATA_TYPE, var, tiling)
#define GET_TILING_DATA_MEMBER(type, member, var, tiling)                                \
    decltype(type::member) var;                                                          \
    std::memcpy(&var, reinterpret_cast<const uint8_t*>(tiling) + offsetof(type, member), \
                sizeof(var))
// The tiling key the launcher set for this block (openacl::ascendc::BeginBlock).
#define TILING_KEY_IS(key) (::openacl::ascendc::t_core.tilingKey == static_cast<uint64_t>(key))
#define REGISTER_TILING_DEFAULT(type) static_assert(sizeof(type) > 0, "tiling type")
#define REGISTER_TILING_FOR_TILINGKEY(condition, type) \
    static_assert(sizeof(type) > 0, "tiling type")

#define ascendc_assert(condition, ...)                                    \
    ((condition) ? (void)0                                                \
                 : ::openacl::ascendc::AssertFailed(#condition, __FILE__, \
                                                    __LINE__ __VA_OPT__(, ) __VA_ARGS__))

namespace AscendC {

// Which AIV of its group this core is (0 or 1 in a 1:2 mix kernel; 0 elsewhere).
__aicore__ inline int64_t GetSubBlockIdx() {
    return openacl::ascendc::t_core.subBlockIdx;
}
// AIVs per AIC on an AIV of a mix kernel (2 for 1:2); 1 on an AIC and in other kernels.
__aicore__ inline int64_t GetSubBlockNum() {
    return openacl::ascendc::t_core.taskRation;
}
__aicore__ inline int64_t GetTaskRation() {
    return openacl::ascendc::t_core.taskRation;
}
__aicore__ inline int64_t GetTaskRatio() {
    return openacl::ascendc::t_core.taskRation;
}

// A monotonic count in nanoseconds (the NPU's counter has its own frequency).
__aicore__ inline int64_t GetSystemCycle() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Restores the core's settings: vector mask, atomic mode, pad value, event flags.
__aicore__ inline void InitSocState() {
    openacl::ascendc::t_core.ResetSettings();
}

__aicore__ inline void SetSysWorkspace(GM_ADDR workspace) {
    openacl::ascendc::t_core.sysWorkspace = workspace;
}
__aicore__ inline GM_ADDR GetSysWorkSpacePtr() {
    return openacl::ascendc::t_core.sysWorkspace;
}

// printf to the host's stdout; half, bfloat16_t and float print with %f.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
template <typename... Args>
__aicore__ inline void printf(const char* format, Args... args) {
    std::printf(format, openacl::ascendc::PrintfArgument(args)...);
}
#pragma GCC diagnostic pop
template <typename... Args>
__aicore__ inline void PRINTF(const char* format, Args... args) {
    AscendC::printf(format, args...);
}

// Prints `count` elements of a tensor with a description number.
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t count) {
    openacl::ascendc::t_core.hazards.JoinAll();  // the dump waits for the pipes, as on the chip
    std::printf("DumpTensor: desc=%u, addr=%#llx, count=%u\n", desc,
                static_cast<unsigned long long>(tensor.GetPhyAddr()), count);
    for (uint32_t i = 0; i < count; ++i) {
        std::printf(i + 1 == count ? "%g\n" : "%g, ",
                    static_cast<double>(openacl::ascendc::PrintfArgument(tensor.GetValue(i))));
    }
}
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t count) {
    std::printf("DumpTensor: desc=%u, count=%u\n", desc, count);
    for (uint32_t i = 0; i < count; ++i) {
        std::printf(i + 1 == count ? "%g\n" : "%g, ",
                    static_cast<double>(openacl::ascendc::PrintfArgument(tensor.GetValue(i))));
    }
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_SYSTEM_H_
