/* ABI checks for acl/acl.h: values and layouts fixed by the AscendCL API. */
/* acl.h is an umbrella header; check that items of each included header are reachable. */
#include <stddef.h>
#include "acl/acl.h"

_Static_assert(ACL_RT_SUCCESS == 0, "ACL_RT_SUCCESS");
_Static_assert(ACL_MAX_DIM_CNT == 128, "ACL_MAX_DIM_CNT");
_Static_assert(ACL_ENGINE_AICORE == 1, "ACL_ENGINE_AICORE");
_Static_assert(ACL_FORMAT_ND == 2, "ACL_FORMAT_ND");
_Static_assert(ACL_TENSOR_SHAPE_RANGE_NUM == 2, "ACL_TENSOR_SHAPE_RANGE_NUM");
_Static_assert(sizeof(aclmdlIODims) == 1160, "sizeof(aclmdlIODims)");

int acl_abi_checks(void) {
    int bad = 0;
    bad += (ACL_SUCCESS != 0);
    bad += (ACL_ERROR_GE_PARAM_INVALID != 145000U);
    if (bad != 0) {
        return -bad;
    }
    return 6;
}
