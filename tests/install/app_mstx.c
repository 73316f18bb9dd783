/* An mstx application (CANN's annotation API, mstx/ms_tools_ext.h) compiled against an installed
 * openacl tree: run under OPENACL_TRACE, its marks and ranges reach the trace. */
#include <stdio.h>

#include "acl/acl.h"
#include "mstx/ms_tools_ext.h"

int main(void) {
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    aclrtStream stream = NULL;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 1;
    uint64_t tool = MSTX_TOOL_INVALID_ID;
    mstxGetToolId(&tool);
    mstxDomainHandle_t domain = mstxDomainCreateA("install_check");
    if (domain == NULL) return 1;
    mstxRangeId id = mstxDomainRangeStartA(domain, "installed range", stream);
    mstxMarkA("installed mark", NULL);
    mstxDomainRangeEnd(domain, id);
    aclrtSynchronizeStream(stream);
    aclrtDestroyStream(stream);
    mstxDomainDestroy(domain);
    aclrtResetDevice(0);
    aclFinalize();
    /* Collected (a trace records): a range id and msprof's tool id; else neither. */
    if ((id != MSTX_INVALID_ID) != (tool == MSTX_TOOL_MSPROF_ID)) return 1;
    printf("mstx works (tool 0x%llx)\n", (unsigned long long)tool);
    return 0;
}
