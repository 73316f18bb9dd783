// The high-level Matmul API, in the include name CANN kernels use.
#ifndef OPENACL_ASCENDC_LIB_MATMUL_INTF_H_
#define OPENACL_ASCENDC_LIB_MATMUL_INTF_H_

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/matmul/matmul.h"
#include "lib/matmul/matmul_config.h"
#include "lib/matmul/matmul_type.h"

#endif  // OPENACL_ASCENDC_LIB_MATMUL_INTF_H_
