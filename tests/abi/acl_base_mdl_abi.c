/* ABI checks for acl/acl_base_mdl.h: values and layouts fixed by the AscendCL API. */
#include <stddef.h>
#include "acl/acl_base_mdl.h"

_Static_assert(ACL_TENSOR_SHAPE_RANGE_NUM == 2, "ACL_TENSOR_SHAPE_RANGE_NUM");
_Static_assert(ACL_TENSOR_VALUE_RANGE_NUM == 2, "ACL_TENSOR_VALUE_RANGE_NUM");
_Static_assert(ACL_UNKNOWN_RANK == 0xFFFFFFFFFFFFFFFEULL, "ACL_UNKNOWN_RANK");

int acl_base_mdl_abi_checks(void) {
    return 3;
}
