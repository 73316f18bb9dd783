/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * acl/acl.h: umbrella header; includes the runtime, single-operator and
 * model APIs.
 */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

/* The include order is part of the documented header layout. */
/* clang-format off */
#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"
/* clang-format on */

#endif /* INC_EXTERNAL_ACL_ACL_H_ */
