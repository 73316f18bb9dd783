// CANN's internal name for the kernel interface, which some kernels include directly.
#ifndef OPENACL_ASCENDC_INNER_KERNEL_OPERATOR_INTF_H_
#define OPENACL_ASCENDC_INNER_KERNEL_OPERATOR_INTF_H_
#include "../kernel_operator_intf.h"
#endif  // OPENACL_ASCENDC_INNER_KERNEL_OPERATOR_INTF_H_
