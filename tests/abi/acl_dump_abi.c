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
