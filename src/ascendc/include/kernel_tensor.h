// CANN's name for the tensor classes' header.
#ifndef OPENACL_ASCENDC_KERNEL_TENSOR_H_
#define OPENACL_ASCENDC_KERNEL_TENSOR_H_
#include "kernel_tensor_impl.h"
#endif  // OPENACL_ASCENDC_KERNEL_TENSOR_H_
