// The Ascend C kernel API on the CPU: what `#include "kernel_operator.h"` gives a kernel.
//
// Kernel sources written for CANN compile unmodified with the host compiler; each block runs as
// one call of the kernel function on a thread, with its own unified buffer and core state (see
// docs/ASCENDC.md, "The kernel API"). Misuse the NPU would hang or fault on is a KernelTrap
// (include/openacl/kernel.h): the launch fails with a message naming the API.
#ifndef OPENACL_ASCENDC_KERNEL_OPERATOR_H_
#define OPENACL_ASCENDC_KERNEL_OPERATOR_H_

#include "kernel_operator_intf.h"

#endif  // OPENACL_ASCENDC_KERNEL_OPERATOR_H_
