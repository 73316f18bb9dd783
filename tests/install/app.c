/* A minimal AscendCL application, compiled against an installed openacl tree. */
#include <stdio.h>

#include "acl/acl.h"

int main(void) {
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    void* dev = NULL;
    if (aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    aclrtFree(dev);
    aclrtResetDevice(0);
    aclFinalize();
    printf("installed openacl works\n");
    return 0;
}
