/* ABI checks for acl/acl_op.h: values and layouts fixed by the AscendCL API. */
/* ACL_COMPILE_FLAG_BIN_SELECTOR is a `static const int` (not an integer constant expression in C);
 * it is checked at run time by acl_op_abi_checks() (negative result = number of mismatches). */
#include <stddef.h>
#include "acl/acl_op.h"

_Static_assert(ACL_ENGINE_SYS == 0, "ACL_ENGINE_SYS");
_Static_assert(ACL_ENGINE_AICORE == 1, "ACL_ENGINE_AICORE");
_Static_assert(ACL_ENGINE_VECTOR == 2, "ACL_ENGINE_VECTOR");
_Static_assert(sizeof(aclopEngineType) == 4, "sizeof(aclopEngineType)");
_Static_assert(sizeof(enum aclEngineType) == 4, "sizeof(enum aclEngineType)");
_Static_assert(sizeof(ACL_COMPILE_FLAG_BIN_SELECTOR) == sizeof(int),
               "sizeof(ACL_COMPILE_FLAG_BIN_SELECTOR)");

int acl_op_abi_checks(void) {
    int bad = 0;
    bad += (ACL_COMPILE_FLAG_BIN_SELECTOR != 1);
    if (bad != 0) {
        return -bad;
    }
    return 6;
}
