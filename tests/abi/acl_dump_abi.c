/* ABI checks for acl/acl_dump.h: values and layouts fixed by the AscendCL API. */
#include <stddef.h>
#include "acl/acl_dump.h"

_Static_assert(ACL_DUMP_MAX_FILE_PATH_LENGTH == 4096, "ACL_DUMP_MAX_FILE_PATH_LENGTH");
_Static_assert(ACL_OP_DUMP_OP_AICORE_ARGS == 0x00000001U, "ACL_OP_DUMP_OP_AICORE_ARGS");
_Static_assert(sizeof(acldumpChunk) == 4120, "sizeof(acldumpChunk)");
_Static_assert(offsetof(acldumpChunk, fileName) == 0, "offsetof(acldumpChunk, fileName)");
_Static_assert(offsetof(acldumpChunk, bufLen) == 4096, "offsetof(acldumpChunk, bufLen)");
_Static_assert(offsetof(acldumpChunk, isLastChunk) == 4100, "offsetof(acldumpChunk, isLastChunk)");
_Static_assert(offsetof(acldumpChunk, offset) == 4104, "offsetof(acldumpChunk, offset)");
_Static_assert(offsetof(acldumpChunk, flag) == 4112, "offsetof(acldumpChunk, flag)");
_Static_assert(offsetof(acldumpChunk, dataBuf) == 4116, "offsetof(acldumpChunk, dataBuf)");

int acl_dump_abi_checks(void) {
    return 9;
}
_Static_assert(ACL_DUMP_MAX_SHAPE_NUM == 25, "ACL_DUMP_MAX_SHAPE_NUM");
_Static_assert(ACL_DUMP_TENSOR_WORKSPACE == 2, "ACL_DUMP_TENSOR_WORKSPACE");
_Static_assert(ACL_DUMP_ADDR_RAW == 2, "ACL_DUMP_ADDR_RAW");
_Static_assert(ACL_DUMP_PLACEMENT_END == 2, "ACL_DUMP_PLACEMENT_END");
_Static_assert(DATA_DUMP == 4 && OVERFLOW_DUMP == 5, "acldumpType");
_Static_assert(sizeof(acldumpTensorInfo) == 456, "sizeof(acldumpTensorInfo)");
_Static_assert(offsetof(acldumpTensorInfo, tensorSize) == 8, "acldumpTensorInfo.tensorSize");
_Static_assert(offsetof(acldumpTensorInfo, tensorAddr) == 24, "acldumpTensorInfo.tensorAddr");
_Static_assert(offsetof(acldumpTensorInfo, argsOffset) == 40, "acldumpTensorInfo.argsOffset");
_Static_assert(offsetof(acldumpTensorInfo, originShapeNum) == 48,
               "acldumpTensorInfo.originShapeNum");
_Static_assert(offsetof(acldumpTensorInfo, shape) == 56, "acldumpTensorInfo.shape");
_Static_assert(offsetof(acldumpTensorInfo, originShape) == 256, "acldumpTensorInfo.originShape");
