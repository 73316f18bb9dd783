/* ABI checks for acl/acl_tdt.h: values and layouts fixed by the AscendCL API. */
#include "acl/acl_tdt.h"

_Static_assert(ACL_TENSOR_DATA_UNDEFINED == -1, "ACL_TENSOR_DATA_UNDEFINED");
_Static_assert(ACL_TENSOR_DATA_TENSOR == 0, "ACL_TENSOR_DATA_TENSOR");
_Static_assert(ACL_TENSOR_DATA_END_OF_SEQUENCE == 1, "ACL_TENSOR_DATA_END_OF_SEQUENCE");
_Static_assert(ACL_TENSOR_DATA_ABNORMAL == 2, "ACL_TENSOR_DATA_ABNORMAL");
_Static_assert(ACL_TENSOR_DATA_SLICE_TENSOR == 3, "ACL_TENSOR_DATA_SLICE_TENSOR");
_Static_assert(ACL_TENSOR_DATA_END_TENSOR == 4, "ACL_TENSOR_DATA_END_TENSOR");
_Static_assert(sizeof(acltdtTensorType) == 4, "sizeof(acltdtTensorType)");

int acl_tdt_abi_checks(void) {
    return 7;
}
