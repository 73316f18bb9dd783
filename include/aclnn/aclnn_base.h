/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnn/aclnn_base.h: what every aclnn operator header includes: the objects of acl_meta.h and
 * the optional process-wide aclnnInit/aclnnFinalize (operators work without them).
 */
#ifndef OPENACL_ACLNN_ACLNN_BASE_H_
#define OPENACL_ACLNN_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* configPath: NULL, or a JSON file of operator debug settings. At most once per process. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char* configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNN_ACLNN_BASE_H_ */
