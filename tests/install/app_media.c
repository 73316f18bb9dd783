/* A media program as CANN's samples build it: DVPP and BLAS entry points and the bounds-checked
 * C functions, linked with -lascendcl -lacl_dvpp -lacl_cblas -lc_sec from the stub folder. */
#define ENABLE_DVPP_INTERFACE
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "acl/ops/acl_dvpp.h"
#include "securec.h"

int main(void) {
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    acldvppPicDesc* pic = acldvppCreatePicDesc();
    if (pic == NULL) return 1;
    if (acldvppSetPicDescWidth(pic, 64) != ACL_SUCCESS || acldvppGetPicDescWidth(pic) != 64)
        return 1;
    acldvppDestroyPicDesc(pic);
    char name[16];
    if (strcpy_s(name, sizeof name, "media") != EOK || strcmp(name, "media") != 0) return 1;
    /* Linked from libacl_cblas: a null stream's GEMM fails its checks, but it links and answers. */
    if (aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 0, 0, 0, NULL, NULL, -1, ACL_FLOAT16,
                      NULL, -1, ACL_FLOAT16, NULL, NULL, -1, ACL_FLOAT16,
                      ACL_COMPUTE_HIGH_PRECISION, NULL) == ACL_SUCCESS)
        return 1;
    aclrtResetDevice(0);
    aclFinalize();
    printf("installed media program works\n");
    return 0;
}
