/* ABI checks for acl/acl_base.h: values and layouts fixed by the AscendCL API. */
/* acl_base.h only aggregates the other base headers; check one item from each. */
#include <stddef.h>
#include "acl/acl_base.h"

_Static_assert(ACL_RT_SUCCESS == 0, "ACL_RT_SUCCESS");
_Static_assert(ACL_ERROR_RT_PARAM_INVALID == 107000, "ACL_ERROR_RT_PARAM_INVALID");
_Static_assert(ACL_TENSOR_SHAPE_RANGE_NUM == 2, "ACL_TENSOR_SHAPE_RANGE_NUM");
_Static_assert(ACL_FORMAT_NCHW == 0, "ACL_FORMAT_NCHW");
_Static_assert(ACL_FLOAT16 == 1, "ACL_FLOAT16");

int acl_base_abi_checks(void) {
    int bad = 0;
    bad += (ACL_SUCCESS != 0);
    bad += (ACL_ERROR_GE_PARAM_INVALID != 145000U);
    if (bad != 0) {
        return -bad;
    }
    return 5;
}
