// Routes between TDT queues (acltdtBindQueueRoutes ...). A bound route src -> dst forwards
// every item enqueued on src to dst, in order; with several routes from one source each
// destination gets the item (the others get heads sharing its data, as aclrtCopyBufRef makes).
// CANN's queue scheduler does this on the device; here one router thread per process does it.
// An item leaves its source only once every destination has room, so a full destination holds
// the source back (and with it, once the source fills, the producers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "acl/acl_tdt_queue.h"

// The public header leaves these opaque.
struct acltdtQueueRoute {
    uint32_t srcId;
    uint32_t dstId;
    int32_t status;  // ACL_TDT_QUEUE_ROUTE_UNBIND, _BIND or _BIND_ABNORMAL
};
struct acltdtQueueRouteList {
    std::vector<acltdtQueueRoute> routes;
};
struct acltdtQueueRouteQueryInfo {
    int32_t mode = 0;
    uint32_t srcId = 0;
    uint32_t dstId = 0;
    bool modeSet = false;
    bool srcSet = false;
    bool dstSet = false;
};

namespace openacl::tdt {

aclError BindRoutes(acltdtQueueRouteList* list);
aclError UnbindRoutes(acltdtQueueRouteList* list);
aclError QueryRoutes(const acltdtQueueRouteQueryInfo* info, acltdtQueueRouteList* list);

// Descriptors: each remembered while live, so a freed or foreign one is refused.
acltdtQueueRoute* CreateRoute(uint32_t src, uint32_t dst);
aclError DestroyRoute(const acltdtQueueRoute* route);
aclError GetRouteParam(const acltdtQueueRoute* route, acltdtQueueRouteParamType type, size_t len,
                       size_t* returned_size, void* param);
acltdtQueueRouteList* CreateRouteList();
aclError DestroyRouteList(const acltdtQueueRouteList* list);
aclError AddRoute(acltdtQueueRouteList* list, const acltdtQueueRoute* route);
aclError GetRoute(const acltdtQueueRouteList* list, size_t index, acltdtQueueRoute* route);
size_t RouteCount(const acltdtQueueRouteList* list);
acltdtQueueRouteQueryInfo* CreateRouteQuery();
aclError DestroyRouteQuery(const acltdtQueueRouteQueryInfo* info);
aclError SetRouteQuery(acltdtQueueRouteQueryInfo* info, acltdtQueueRouteQueryInfoParamType type,
                       size_t len, const void* value);

// For queues. The route table's lock: held, no route can be bound to or forward through a
// queue, so DestroyQueue takes it to check and drop the queue atomically.
std::unique_lock<std::mutex> LockRoutes();
// With LockRoutes held: whether a bound route reads or writes queue `qid`.
bool IsRoutedLocked(uint32_t qid);
// A routed queue changed (an item came or left): the router looks again.
void NotifyRouter();

}  // namespace openacl::tdt
