/*
 * openacl ABI check for acl/ops/acl_cblas.h: every enumerator must have the documented value.
 * The header declares no numeric macros and no public structs.
 */
#include "acl/ops/acl_cblas.h"

/* aclTransType (4) */
_Static_assert(ACL_TRANS_N == 0, "ACL_TRANS_N");
_Static_assert(ACL_TRANS_T == 1, "ACL_TRANS_T");
_Static_assert(ACL_TRANS_NZ == 2, "ACL_TRANS_NZ");
_Static_assert(ACL_TRANS_NZ_T == 3, "ACL_TRANS_NZ_T");

/* aclComputeType (2) */
_Static_assert(ACL_COMPUTE_HIGH_PRECISION == 0, "ACL_COMPUTE_HIGH_PRECISION");
_Static_assert(ACL_COMPUTE_LOW_PRECISION == 1, "ACL_COMPUTE_LOW_PRECISION");

int acl_cblas_abi_checks(void) {
    return 6;
}
