// The host tiling API, in the include name CANN host code uses: the Matmul tiling classes,
// optiling::TCubeTiling and the platform queries.
#ifndef OPENACL_ASCENDC_TILING_TILING_API_H_
#define OPENACL_ASCENDC_TILING_TILING_API_H_

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/matmul_tiling.h"
#include "tiling/matmul_tiling_data.h"
#include "tiling/platform/platform_ascendc.h"

#endif  // OPENACL_ASCENDC_TILING_TILING_API_H_
