/* ABI checks for acl/acl_tdt_queue.h: values fixed by the AscendCL API. The descriptors are
 * opaque, so there are no layouts to check beyond the handle type. */
#include "acl/acl_tdt_queue.h"

_Static_assert(ACL_TDT_QUEUE_PERMISSION_MANAGE == 1, "ACL_TDT_QUEUE_PERMISSION_MANAGE");
_Static_assert(ACL_TDT_QUEUE_PERMISSION_DEQUEUE == 2, "ACL_TDT_QUEUE_PERMISSION_DEQUEUE");
_Static_assert(ACL_TDT_QUEUE_PERMISSION_ENQUEUE == 4, "ACL_TDT_QUEUE_PERMISSION_ENQUEUE");
_Static_assert(ACL_TDT_QUEUE_ROUTE_UNBIND == 0, "ACL_TDT_QUEUE_ROUTE_UNBIND");
_Static_assert(ACL_TDT_QUEUE_ROUTE_BIND == 1, "ACL_TDT_QUEUE_ROUTE_BIND");
_Static_assert(ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL == 2, "ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL");
_Static_assert(ACL_TDT_QUEUE_NAME_PTR == 0 && ACL_TDT_QUEUE_DEPTH_UINT32 == 1,
               "acltdtQueueAttrType");
_Static_assert(ACL_TDT_QUEUE_ROUTE_SRC_UINT32 == 0 && ACL_TDT_QUEUE_ROUTE_DST_UINT32 == 1 &&
                   ACL_TDT_QUEUE_ROUTE_STATUS_INT32 == 2,
               "acltdtQueueRouteParamType");
_Static_assert(ACL_TDT_QUEUE_ROUTE_QUERY_SRC == 0 && ACL_TDT_QUEUE_ROUTE_QUERY_DST == 1 &&
                   ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST == 2 &&
                   ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL == 100,
               "acltdtQueueRouteQueryMode");
_Static_assert(ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM == 0 &&
                   ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32 == 1 &&
                   ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32 == 2,
               "acltdtQueueRouteQueryInfoParamType");
_Static_assert(ACL_TDT_NORMAL_MEM == 0 && ACL_TDT_DVPP_MEM == 1, "acltdtAllocBufType");
_Static_assert(sizeof(acltdtBuf) == sizeof(void*), "acltdtBuf is a pointer");
_Static_assert(sizeof(acltdtQueueAttrType) == 4 && sizeof(acltdtQueueRouteQueryMode) == 4,
               "enums are int-sized");

int acl_tdt_queue_abi_checks(void) {
    return 13;
}
