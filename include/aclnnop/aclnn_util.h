/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_util.h: what the operator headers share: ACLNN_API, the visibility of their
 * functions.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_UTIL_H_
#define OPENACL_ACLNNOP_ACLNN_UTIL_H_

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_UTIL_H_ */
