/* Must not compile: acl/ops/acl_dvpp.h insists on ENABLE_DVPP_INTERFACE, as CANN's does. */
#include "acl/ops/acl_dvpp.h"
