// The chip a kernel is compiled for, and the sizes of its core-local memories.
//
// __NPU_ARCH__ and __CCE_AICORE__ are what CANN's compiler defines per SoC; kernels branch on
// them. A build that names no chip gets the Atlas A2 (910B, arch 2201), the chip openacl
// emulates by default.
#ifndef OPENACL_ASCENDC_KERNEL_ARCH_H_
#define OPENACL_ASCENDC_KERNEL_ARCH_H_

#include <cstdint>

#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

#ifndef __CCE_AICORE__
#if __NPU_ARCH__ == 1001
#define __CCE_AICORE__ 100
#elif __NPU_ARCH__ == 2002
#define __CCE_AICORE__ 200
#elif __NPU_ARCH__ == 3002
#define __CCE_AICORE__ 300
#elif __NPU_ARCH__ == 3510
#define __CCE_AICORE__ 310
#else
#define __CCE_AICORE__ 220
#endif
#endif

// ASCENDC_CPU_DEBUG is not defined here: kernel files guard their <<<>>> wrappers with
// #ifndef ASCENDC_CPU_DEBUG, which must stay in for the default (npu) build. RUN_MODE=cpu and
// tikicpulib define it, as CANN's CPU-debug flow does.

namespace openacl::ascendc {

constexpr uint32_t kKiB = 1024;

// Capacities in bytes, as the kernel-visible ASC_*_SIZE constants give them per architecture.
#if __NPU_ARCH__ == 1001 || __NPU_ARCH__ == 2002
constexpr uint32_t kUbSize = 256 * kKiB;
constexpr uint32_t kL1Size = 1024 * kKiB;
constexpr uint32_t kL0CSize = 256 * kKiB;
constexpr uint32_t kBtSize = 0;
#elif __NPU_ARCH__ == 3002
constexpr uint32_t kUbSize = 248 * kKiB;
constexpr uint32_t kL1Size = 1024 * kKiB;
constexpr uint32_t kL0CSize = 128 * kKiB;
constexpr uint32_t kBtSize = 1 * kKiB;
#elif __NPU_ARCH__ == 3510
constexpr uint32_t kUbSize = 248 * kKiB;
constexpr uint32_t kL1Size = 512 * kKiB;
constexpr uint32_t kL0CSize = 256 * kKiB;
constexpr uint32_t kBtSize = 4 * kKiB;
#else  // 2201 (910B / 910C): 256 bytes of the UB and L1 are reserved for mix kernels
constexpr uint32_t kUbSize = 192 * kKiB - 256;
constexpr uint32_t kL1Size = 512 * kKiB - 256;
constexpr uint32_t kL0CSize = 128 * kKiB;
constexpr uint32_t kBtSize = 1 * kKiB;
#endif
constexpr uint32_t kL0ASize = 64 * kKiB;
constexpr uint32_t kL0BSize = 64 * kKiB;

}  // namespace openacl::ascendc

#ifndef ASC_UB_SIZE
#define ASC_UB_SIZE (::openacl::ascendc::kUbSize)
#define ASC_L1_SIZE (::openacl::ascendc::kL1Size)
#define ASC_L0A_SIZE (::openacl::ascendc::kL0ASize)
#define ASC_L0B_SIZE (::openacl::ascendc::kL0BSize)
#define ASC_L0C_SIZE (::openacl::ascendc::kL0CSize)
#define ASC_BT_SIZE (::openacl::ascendc::kBtSize)
#endif

#endif  // OPENACL_ASCENDC_KERNEL_ARCH_H_
