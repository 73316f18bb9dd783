/* ABI checks for acl/error_codes/ge_error_codes.h: values and layouts fixed by the AscendCL API. */
/* The ACL_ERROR_GE_* codes are `static const uint32_t` objects (not integer constant expressions in
 * C); they are checked at run time by ge_error_codes_abi_checks() (negative result = number of
 * mismatches). */
#include <stddef.h>
#include "acl/error_codes/ge_error_codes.h"

_Static_assert(sizeof(ACL_ERROR_GE_PARAM_INVALID) == 4, "sizeof(ACL_ERROR_GE_PARAM_INVALID)");

int ge_error_codes_abi_checks(void) {
    int bad = 0;
    bad += (ACL_ERROR_GE_PARAM_INVALID != 145000U);
    bad += (ACL_ERROR_GE_EXEC_NOT_INIT != 145001U);
    bad += (ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID != 145002U);
    bad += (ACL_ERROR_GE_EXEC_MODEL_ID_INVALID != 145003U);
    bad += (ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID != 145006U);
    bad += (ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID != 145007U);
    bad += (ACL_ERROR_GE_EXEC_MODEL_QUEUE_ID_INVALID != 145008U);
    bad += (ACL_ERROR_GE_EXEC_LOAD_MODEL_REPEATED != 145009U);
    bad += (ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID != 145011U);
    bad += (ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID != 145012U);
    bad += (ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID != 145013U);
    bad += (ACL_ERROR_GE_AIPP_BATCH_EMPTY != 145014U);
    bad += (ACL_ERROR_GE_AIPP_NOT_EXIST != 145015U);
    bad += (ACL_ERROR_GE_AIPP_MODE_INVALID != 145016U);
    bad += (ACL_ERROR_GE_OP_TASK_TYPE_INVALID != 145017U);
    bad += (ACL_ERROR_GE_OP_KERNEL_TYPE_INVALID != 145018U);
    bad += (ACL_ERROR_GE_PLGMGR_PATH_INVALID != 145019U);
    bad += (ACL_ERROR_GE_FORMAT_INVALID != 145020U);
    bad += (ACL_ERROR_GE_SHAPE_INVALID != 145021U);
    bad += (ACL_ERROR_GE_DATATYPE_INVALID != 145022U);
    bad += (ACL_ERROR_GE_MEMORY_ALLOCATION != 245000U);
    bad += (ACL_ERROR_GE_MEMORY_OPERATE_FAILED != 245001U);
    bad += (ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED != 245002U);
    bad += (ACL_ERROR_GE_SUBHEALTHY != 345102U);
    bad += (ACL_ERROR_GE_USER_RAISE_EXCEPTION != 345103U);
    bad += (ACL_ERROR_GE_DATA_NOT_ALIGNED != 345104U);
    bad += (ACL_ERROR_GE_INTERNAL_ERROR != 545000U);
    bad += (ACL_ERROR_GE_LOAD_MODEL != 545001U);
    bad += (ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED != 545002U);
    bad += (ACL_ERROR_GE_EXEC_LOAD_WEIGHT_PARTITION_FAILED != 545003U);
    bad += (ACL_ERROR_GE_EXEC_LOAD_TASK_PARTITION_FAILED != 545004U);
    bad += (ACL_ERROR_GE_EXEC_LOAD_KERNEL_PARTITION_FAILED != 545005U);
    bad += (ACL_ERROR_GE_EXEC_RELEASE_MODEL_DATA != 545006U);
    bad += (ACL_ERROR_GE_COMMAND_HANDLE != 545007U);
    bad += (ACL_ERROR_GE_GET_TENSOR_INFO != 545008U);
    bad += (ACL_ERROR_GE_UNLOAD_MODEL != 545009U);
    bad += (ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT != 545601U);
    bad += (ACL_ERROR_GE_REDEPLOYING != 545602U);
    if (bad != 0) {
        return -bad;
    }
    return 1;
}
