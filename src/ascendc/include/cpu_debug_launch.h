// CANN's Gen-3 CPU-debug header: a .asc source includes it under #ifdef ASCENDC_CPU_DEBUG (which
// CMAKE_ASC_RUN_MODE=cpu, or bisheng --run-mode=cpu, defines). CANN's compiler then lowers each
// k<<<n, dynUBuf, stream>>>(args) into a CPU run of the kernel. openacl's bisheng lowers it the
// same way in every run mode (an asynchronous launch on openacl's stream), so this header only
// brings the CPU-debug host interface the source's CPU branch may use: GmAlloc/GmFree,
// SetKernelMode and ICPU_RUN_KF (tikicpulib.h).
#ifndef OPENACL_CPU_DEBUG_LAUNCH_H_
#define OPENACL_CPU_DEBUG_LAUNCH_H_

#include "tikicpulib.h"

#endif  // OPENACL_CPU_DEBUG_LAUNCH_H_
