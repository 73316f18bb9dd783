// The basic cube API: ND -> NZ copies, LoadData, Mmad, Fixpipe and InitConstValue.
#ifndef OPENACL_ASCENDC_KERNEL_CUBE_H_
#define OPENACL_ASCENDC_KERNEL_CUBE_H_

#include "kernel_cube_data_copy.h"
#include "kernel_cube_layout.h"
#include "kernel_cube_load_data.h"
#include "kernel_cube_mmad.h"
#include "kernel_cube_params.h"

#endif  // OPENACL_ASCENDC_KERNEL_CUBE_H_
