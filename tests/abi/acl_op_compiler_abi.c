/* ABI checks for acl/acl_op_compiler.h: enumerator values fixed by the AscendCL API. */
#include "acl/acl_op_compiler.h"

/* aclopCompileType (2) */
_Static_assert(ACL_COMPILE_SYS == 0, "ACL_COMPILE_SYS");
_Static_assert(ACL_COMPILE_UNREGISTERED == 1, "ACL_COMPILE_UNREGISTERED");
_Static_assert(sizeof(aclopCompileType) == 4, "sizeof(aclopCompileType)");

/* aclCompileOpt (17) */
_Static_assert(ACL_PRECISION_MODE == 0, "ACL_PRECISION_MODE");
_Static_assert(ACL_AICORE_NUM == 1, "ACL_AICORE_NUM");
_Static_assert(ACL_AUTO_TUNE_MODE == 2, "ACL_AUTO_TUNE_MODE");
_Static_assert(ACL_OP_SELECT_IMPL_MODE == 3, "ACL_OP_SELECT_IMPL_MODE");
_Static_assert(ACL_OPTYPELIST_FOR_IMPLMODE == 4, "ACL_OPTYPELIST_FOR_IMPLMODE");
_Static_assert(ACL_OP_DEBUG_LEVEL == 5, "ACL_OP_DEBUG_LEVEL");
_Static_assert(ACL_DEBUG_DIR == 6, "ACL_DEBUG_DIR");
_Static_assert(ACL_OP_COMPILER_CACHE_MODE == 7, "ACL_OP_COMPILER_CACHE_MODE");
_Static_assert(ACL_OP_COMPILER_CACHE_DIR == 8, "ACL_OP_COMPILER_CACHE_DIR");
_Static_assert(ACL_OP_PERFORMANCE_MODE == 9, "ACL_OP_PERFORMANCE_MODE");
_Static_assert(ACL_OP_JIT_COMPILE == 10, "ACL_OP_JIT_COMPILE");
_Static_assert(ACL_OP_DETERMINISTIC == 11, "ACL_OP_DETERMINISTIC");
_Static_assert(ACL_CUSTOMIZE_DTYPES == 12, "ACL_CUSTOMIZE_DTYPES");
_Static_assert(ACL_OP_PRECISION_MODE == 13, "ACL_OP_PRECISION_MODE");
_Static_assert(ACL_ALLOW_HF32 == 14, "ACL_ALLOW_HF32");
_Static_assert(ACL_PRECISION_MODE_V2 == 15, "ACL_PRECISION_MODE_V2");
_Static_assert(ACL_OP_DEBUG_OPTION == 16, "ACL_OP_DEBUG_OPTION");
_Static_assert(sizeof(aclCompileOpt) == 4, "sizeof(aclCompileOpt)");

/* aclOpCompileFlag (2) */
_Static_assert(ACL_OP_COMPILE_DEFAULT == 0, "ACL_OP_COMPILE_DEFAULT");
_Static_assert(ACL_OP_COMPILE_FUZZ == 1, "ACL_OP_COMPILE_FUZZ");
_Static_assert(sizeof(aclOpCompileFlag) == 4, "sizeof(aclOpCompileFlag)");

int acl_op_compiler_abi_checks(void) {
    return 24;
}
