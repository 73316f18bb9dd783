/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * acl/acl_base.h: aggregates the base definitions (runtime part, model part
 * and the runtime / graph-engine status codes).
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_H_
#define INC_EXTERNAL_ACL_ACL_BASE_H_

/* The include order is part of the documented header layout. */
/* clang-format off */
#include "acl/acl_base_rt.h"
#include "acl/acl_base_mdl.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"
/* clang-format on */

#endif /* INC_EXTERNAL_ACL_ACL_BASE_H_ */
