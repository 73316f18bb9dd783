// Ascend C's basic kernel interface, in CANN's name for it: types, TPipe and queues, tensors,
// data movement, vector instructions, synchronisation and system functions.
#ifndef OPENACL_ASCENDC_KERNEL_OPERATOR_INTF_H_
#define OPENACL_ASCENDC_KERNEL_OPERATOR_INTF_H_

#include "kernel_core_state.h"
#include "kernel_cross_core.h"
#include "kernel_cube.h"
#include "kernel_data_copy.h"
#include "kernel_local_mem_allocator.h"
#include "kernel_sync.h"
#include "kernel_sync_all.h"
#include "kernel_system.h"
#include "kernel_tensor_impl.h"
#include "kernel_tpipe_impl.h"
#include "kernel_type.h"
#include "kernel_vec_binary.h"
#include "kernel_vec_cast.h"
#include "kernel_vec_cast_repeat.h"
#include "kernel_vec_compare.h"
#include "kernel_vec_gather.h"
#include "kernel_vec_rearrange.h"
#include "kernel_vec_reduce.h"
#include "kernel_vec_reduce_repeat.h"
#include "kernel_vec_scalar.h"
#include "kernel_vec_select.h"
#include "kernel_vec_shift.h"
#include "kernel_vec_sort.h"
#include "kernel_vec_ternary.h"
#include "kernel_vec_unary.h"
#include "kernel_workspace.h"

#endif  // OPENACL_ASCENDC_KERNEL_OPERATOR_INTF_H_
