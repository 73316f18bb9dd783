#include "tdt/queue_route.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <thread>

#include "acl/error_codes/rt_error_codes.h"
#include "core/error.h"
#include "core/live_set.h"
#include "core/log.h"
#include "tdt/queue.h"

namespace openacl::tdt {

namespace {

struct BoundRoute {
    uint32_t src;
    uint32_t dst;
};

// The bound routes, in bind order, and the router thread that forwards along them. `mutex`
// is held through each forwarding pass, so a route unbound is never used again once Unbind
// returns; producers and consumers wake the router through `wake_mutex` instead, so they never
// wait for a pass.
struct RouteTable {
    std::mutex mutex;
    std::vector<BoundRoute> bound;
    bool router_started = false;

    std::mutex wake_mutex;
    std::condition_variable wake;
    uint64_t changes = 0;
};
RouteTable& Routes() {
    static RouteTable* table = new RouteTable;  // its thread outlives static destructors
    return *table;
}

LiveSet<acltdtQueueRoute>& RouteHandles() {
    static auto* handles = new LiveSet<acltdtQueueRoute>;
    return *handles;
}
LiveSet<acltdtQueueRouteList>& ListHandles() {
    static auto* handles = new LiveSet<acltdtQueueRouteList>;
    return *handles;
}
LiveSet<acltdtQueueRouteQueryInfo>& QueryHandles() {
    static auto* handles = new LiveSet<acltdtQueueRouteQueryInfo>;
    return *handles;
}

bool IsBoundLocked(const RouteTable& t, uint32_t src, uint32_t dst) {
    return std::any_of(t.bound.begin(), t.bound.end(),
                       [&](const BoundRoute& r) { return r.src == src && r.dst == dst; });
}

// Whether the bound routes lead from `from` to `to` (binding to -> from would close a cycle).
bool ReachesLocked(const RouteTable& t, uint32_t from, uint32_t to) {
    std::vector<uint32_t> pending{from};
    std::vector<uint32_t> seen;
    while (!pending.empty()) {
        const uint32_t at = pending.back();
        pending.pop_back();
        if (at == to) return true;
        if (std::find(seen.begin(), seen.end(), at) != seen.end()) continue;
        seen.push_back(at);
        for (const BoundRoute& r : t.bound)
            if (r.src == at) pending.push_back(r.dst);
    }
    return false;
}

// Marks the queues of the bound routes routed and the others not. Table lock held.
void UpdateRoutedLocked(const RouteTable& t, uint32_t qid) {
    std::shared_ptr<Queue> queue = FindQueue(qid);
    if (queue == nullptr) return;
    queue->set_routed(std::any_of(t.bound.begin(), t.bound.end(), [&](const BoundRoute& r) {
        return r.src == qid || r.dst == qid;
    }));
}

// Moves the item at the front of `src` to every destination, if all have room. Table lock held.
bool ForwardOneLocked(const std::shared_ptr<Queue>& src,
                      const std::vector<std::shared_ptr<Queue>>& dsts) {
    // Every lock in ascending id order: the only place holding several, so no deadlock.
    std::vector<Queue*> all{src.get()};
    for (const auto& d : dsts)
        all.push_back(d.get());
    std::sort(all.begin(), all.end(), [](Queue* a, Queue* b) { return a->id() < b->id(); });
    std::vector<std::unique_lock<std::mutex>> locks;
    locks.reserve(all.size());
    for (Queue* q : all)
        locks.emplace_back(q->mutex());
    if (src->destroyed() || src->Empty()) return false;
    for (const auto& d : dsts)
        if (d->destroyed() || d->Full()) return false;
    MbufHandle item = src->Pop();
    for (size_t i = 0; i + 1 < dsts.size(); ++i) {
        MbufHandle share = ShareQueued(item, dsts[i]->id());
        if (share == nullptr) {
            OPENACL_LOG_WARNING("no memory to forward an item of queue %u to queue %u: dropped",
                                src->id(), dsts[i]->id());
            continue;
        }
        dsts[i]->Push(share);
    }
    MoveQueued(item, dsts.back()->id());
    dsts.back()->Push(item);
    return true;
}

// One pass: forwards along every bound route until nothing moves. Table lock held.
void ForwardAllLocked(const RouteTable& t) {
    // Destinations per source, sources in the order their first route was bound.
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> fanout;
    for (const BoundRoute& r : t.bound) {
        auto it = std::find_if(fanout.begin(), fanout.end(),
                               [&](const auto& f) { return f.first == r.src; });
        if (it == fanout.end()) {
            fanout.push_back({r.src, {r.dst}});
        } else {
            it->second.push_back(r.dst);
        }
    }
    bool moved = true;
    while (moved) {
        moved = false;
        for (const auto& [src_id, dst_ids] : fanout) {
            std::shared_ptr<Queue> src = FindQueue(src_id);
            std::vector<std::shared_ptr<Queue>> dsts;
            for (uint32_t id : dst_ids)
                dsts.push_back(FindQueue(id));
            if (src == nullptr ||
                std::any_of(dsts.begin(), dsts.end(), [](const auto& d) { return d == nullptr; }))
                continue;
            while (ForwardOneLocked(src, dsts))
                moved = true;
        }
    }
}

void RouterLoop() {
    RouteTable& t = Routes();
    uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(t.wake_mutex);
            t.wake.wait(lock, [&] { return t.changes != seen; });
            seen = t.changes;
        }
        std::lock_guard lock(t.mutex);
        ForwardAllLocked(t);
    }
}

void StartRouterLocked(RouteTable& t) {
    if (t.router_started) return;
    t.router_started = true;
    std::thread(RouterLoop).detach();
}

aclError CheckList(const acltdtQueueRouteList* list, const char* what) {
    if (list == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s is null", what);
    if (!ListHandles().Contains(list))
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p is not a live route list (destroyed already, or not made by "
                    "acltdtCreateQueueRouteList)",
                    what, static_cast<const void*>(list));
    return ACL_SUCCESS;
}

aclError CheckRoute(const acltdtQueueRoute* route) {
    if (route == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "route is null");
    if (!RouteHandles().Contains(route))
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "route %p is not a live route (destroyed already, or not made by "
                    "acltdtCreateQueueRoute)",
                    static_cast<const void*>(route));
    return ACL_SUCCESS;
}

aclError CheckQuery(const acltdtQueueRouteQueryInfo* info, const char* what) {
    if (info == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s is null", what);
    if (!QueryHandles().Contains(info))
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p is not a live route query (destroyed already, or not made by "
                    "acltdtCreateQueueRouteQueryInfo)",
                    what, static_cast<const void*>(info));
    return ACL_SUCCESS;
}

// The first failure of a bind or unbind: every route is tried, the call reports the first.
struct FirstFailure {
    std::string reason;
    void Note(std::string why) {
        if (reason.empty()) reason = std::move(why);
    }
};

}  // namespace

std::unique_lock<std::mutex> LockRoutes() {
    return std::unique_lock(Routes().mutex);
}

bool IsRoutedLocked(uint32_t qid) {
    const RouteTable& t = Routes();
    return std::any_of(t.bound.begin(), t.bound.end(),
                       [&](const BoundRoute& r) { return r.src == qid || r.dst == qid; });
}

void NotifyRouter() {
    RouteTable& t = Routes();
    {
        std::lock_guard lock(t.wake_mutex);
        ++t.changes;
    }
    t.wake.notify_one();
}

aclError BindRoutes(acltdtQueueRouteList* list) {
    if (aclError rc = CheckList(list, "qRouteList"); rc != ACL_SUCCESS) return rc;
    RouteTable& t = Routes();
    FirstFailure failure;
    {
        std::lock_guard lock(t.mutex);
        for (acltdtQueueRoute& route : list->routes) {
            const std::string which =
                "route " + std::to_string(route.srcId) + " -> " + std::to_string(route.dstId);
            if (IsBoundLocked(t, route.srcId, route.dstId)) {
                route.status = ACL_TDT_QUEUE_ROUTE_BIND;  // binding twice changes nothing
                continue;
            }
            route.status = ACL_TDT_QUEUE_ROUTE_UNBIND;
            if (route.srcId == route.dstId) {
                failure.Note(which + ": a queue cannot forward to itself");
            } else if (FindQueue(route.srcId) == nullptr) {
                failure.Note(which + ": source " + std::to_string(route.srcId) +
                             " is not a queue of this process");
            } else if (FindQueue(route.dstId) == nullptr) {
                failure.Note(which + ": destination " + std::to_string(route.dstId) +
                             " is not a queue of this process");
            } else if (ReachesLocked(t, route.dstId, route.srcId)) {
                failure.Note(which + ": it would close a cycle of routes");
            } else {
                t.bound.push_back({route.srcId, route.dstId});
                route.status = ACL_TDT_QUEUE_ROUTE_BIND;
                UpdateRoutedLocked(t, route.srcId);
                UpdateRoutedLocked(t, route.dstId);
            }
        }
        if (!t.bound.empty()) StartRouterLocked(t);
    }
    NotifyRouter();  // items already waiting in a new source
    if (!failure.reason.empty())
        return Fail(ACL_ERROR_RT_PARAM_INVALID, "%s (each route's status says which bound)",
                    failure.reason.c_str());
    return ACL_SUCCESS;
}

aclError UnbindRoutes(acltdtQueueRouteList* list) {
    if (aclError rc = CheckList(list, "qRouteList"); rc != ACL_SUCCESS) return rc;
    RouteTable& t = Routes();
    FirstFailure failure;
    {
        std::lock_guard lock(t.mutex);
        for (acltdtQueueRoute& route : list->routes) {
            auto it = std::find_if(t.bound.begin(), t.bound.end(), [&](const BoundRoute& r) {
                return r.src == route.srcId && r.dst == route.dstId;
            });
            if (it == t.bound.end()) {
                failure.Note("route " + std::to_string(route.srcId) + " -> " +
                             std::to_string(route.dstId) + " is not bound");
                continue;
            }
            t.bound.erase(it);
            route.status = ACL_TDT_QUEUE_ROUTE_UNBIND;
            UpdateRoutedLocked(t, route.srcId);
            UpdateRoutedLocked(t, route.dstId);
        }
    }
    if (!failure.reason.empty())
        return Fail(ACL_ERROR_RT_PARAM_INVALID, "%s", failure.reason.c_str());
    return ACL_SUCCESS;
}

aclError QueryRoutes(const acltdtQueueRouteQueryInfo* info, acltdtQueueRouteList* list) {
    if (aclError rc = CheckQuery(info, "queryInfo"); rc != ACL_SUCCESS) return rc;
    if (aclError rc = CheckList(list, "qRouteList"); rc != ACL_SUCCESS) return rc;
    list->routes.clear();
    if (!info->modeSet)
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "queryInfo has no mode: set ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM first");
    bool by_src = false, by_dst = false;
    switch (info->mode) {
        case ACL_TDT_QUEUE_ROUTE_QUERY_SRC:
            by_src = true;
            break;
        case ACL_TDT_QUEUE_ROUTE_QUERY_DST:
            by_dst = true;
            break;
        case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST:
            by_src = by_dst = true;
            break;
        case ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL:
            return ACL_SUCCESS;  // a route turns abnormal when a peer process dies: none here
        default:
            return Fail(ACL_ERROR_INVALID_PARAM, "mode %d is not an acltdtQueueRouteQueryMode",
                        info->mode);
    }
    if (by_src && !info->srcSet)
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "queryInfo has no source queue: set ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32");
    if (by_dst && !info->dstSet)
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "queryInfo has no destination queue: set "
                    "ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32");
    RouteTable& t = Routes();
    std::lock_guard lock(t.mutex);
    for (const BoundRoute& r : t.bound) {
        if ((by_src && r.src != info->srcId) || (by_dst && r.dst != info->dstId)) continue;
        list->routes.push_back({r.src, r.dst, ACL_TDT_QUEUE_ROUTE_BIND});
    }
    return ACL_SUCCESS;
}

acltdtQueueRoute* CreateRoute(uint32_t src, uint32_t dst) {
    auto* route = new (std::nothrow) acltdtQueueRoute{src, dst, ACL_TDT_QUEUE_ROUTE_UNBIND};
    if (route == nullptr) Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for a route");
    return RouteHandles().Add(route);
}

aclError DestroyRoute(const acltdtQueueRoute* route) {
    if (aclError rc = CheckRoute(route); rc != ACL_SUCCESS) return rc;
    RouteHandles().Remove(route);
    delete route;
    return ACL_SUCCESS;
}

aclError GetRouteParam(const acltdtQueueRoute* route, acltdtQueueRouteParamType type, size_t len,
                       size_t* returned_size, void* param) {
    if (aclError rc = CheckRoute(route); rc != ACL_SUCCESS) return rc;
    if (param == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "param is null");
    if (returned_size == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "paramRetSize is null");
    const void* field = nullptr;
    switch (type) {
        case ACL_TDT_QUEUE_ROUTE_SRC_UINT32:
            field = &route->srcId;
            break;
        case ACL_TDT_QUEUE_ROUTE_DST_UINT32:
            field = &route->dstId;
            break;
        case ACL_TDT_QUEUE_ROUTE_STATUS_INT32:
            field = &route->status;
            break;
        default:
            return Fail(ACL_ERROR_INVALID_PARAM, "type %d is not an acltdtQueueRouteParamType",
                        static_cast<int>(type));
    }
    if (len < sizeof(uint32_t))
        return Fail(ACL_ERROR_INVALID_PARAM, "len %zu is less than the field's %zu bytes", len,
                    sizeof(uint32_t));
    std::memcpy(param, field, sizeof(uint32_t));
    *returned_size = sizeof(uint32_t);
    return ACL_SUCCESS;
}

acltdtQueueRouteList* CreateRouteList() {
    auto* list = new (std::nothrow) acltdtQueueRouteList;
    if (list == nullptr) Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for a route list");
    return ListHandles().Add(list);
}

aclError DestroyRouteList(const acltdtQueueRouteList* list) {
    if (aclError rc = CheckList(list, "routeList"); rc != ACL_SUCCESS) return rc;
    ListHandles().Remove(list);
    delete list;
    return ACL_SUCCESS;
}

aclError AddRoute(acltdtQueueRouteList* list, const acltdtQueueRoute* route) {
    if (aclError rc = CheckList(list, "routeList"); rc != ACL_SUCCESS) return rc;
    if (aclError rc = CheckRoute(route); rc != ACL_SUCCESS) return rc;
    list->routes.push_back(*route);
    return ACL_SUCCESS;
}

aclError GetRoute(const acltdtQueueRouteList* list, size_t index, acltdtQueueRoute* route) {
    if (aclError rc = CheckList(list, "routeList"); rc != ACL_SUCCESS) return rc;
    if (aclError rc = CheckRoute(route); rc != ACL_SUCCESS) return rc;
    if (index >= list->routes.size())
        return Fail(ACL_ERROR_INVALID_PARAM, "index %zu is past the list's %zu routes", index,
                    list->routes.size());
    *route = list->routes[index];
    return ACL_SUCCESS;
}

size_t RouteCount(const acltdtQueueRouteList* list) {
    if (CheckList(list, "routeList") != ACL_SUCCESS) return 0;
    return list->routes.size();
}

acltdtQueueRouteQueryInfo* CreateRouteQuery() {
    auto* info = new (std::nothrow) acltdtQueueRouteQueryInfo;
    if (info == nullptr) Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no memory for a route query");
    return QueryHandles().Add(info);
}

aclError DestroyRouteQuery(const acltdtQueueRouteQueryInfo* info) {
    if (aclError rc = CheckQuery(info, "info"); rc != ACL_SUCCESS) return rc;
    QueryHandles().Remove(info);
    delete info;
    return ACL_SUCCESS;
}

aclError SetRouteQuery(acltdtQueueRouteQueryInfo* info, acltdtQueueRouteQueryInfoParamType type,
                       size_t len, const void* value) {
    if (aclError rc = CheckQuery(info, "param"); rc != ACL_SUCCESS) return rc;
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    // Every field is 4 bytes (the mode is an enum).
    if (len != sizeof(uint32_t))
        return Fail(ACL_ERROR_INVALID_PARAM, "len %zu is not %zu, the field's size", len,
                    sizeof(uint32_t));
    switch (type) {
        case ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM:
            std::memcpy(&info->mode, value, sizeof(info->mode));
            info->modeSet = true;
            return ACL_SUCCESS;
        case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32:
            std::memcpy(&info->srcId, value, sizeof(info->srcId));
            info->srcSet = true;
            return ACL_SUCCESS;
        case ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32:
            std::memcpy(&info->dstId, value, sizeof(info->dstId));
            info->dstSet = true;
            return ACL_SUCCESS;
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "type %d is not an acltdtQueueRouteQueryInfoParamType",
                static_cast<int>(type));
}

}  // namespace openacl::tdt
