// TDT queues (acl/acl_tdt_queue.h): queues of message buffers (tdt/queue.h), routes between them
// (tdt/queue_route.h) and the acltdt names of the buffer functions (tdt/mbuf.h).
#include "acl/acl_tdt_queue.h"
#include "core/error.h"
#include "tdt/mbuf.h"
#include "tdt/queue.h"
#include "tdt/queue_route.h"

namespace tdt = openacl::tdt;

aclError acltdtCreateQueue(const acltdtQueueAttr* attr, uint32_t* qid) {
    OPENACL_API();
    return tdt::CreateQueue(attr, qid);
}

aclError acltdtDestroyQueue(uint32_t qid) {
    OPENACL_API();
    return tdt::DestroyQueue(qid);
}

aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout) {
    OPENACL_API();
    return tdt::Enqueue(qid, buf, timeout);
}

aclError acltdtDequeue(uint32_t qid, acltdtBuf* buf, int32_t timeout) {
    OPENACL_API();
    return tdt::Dequeue(qid, buf, timeout);
}

aclError acltdtEnqueueData(uint32_t qid, const void* data, size_t dataSize, const void* userData,
                           size_t userDataSize, int32_t timeout, uint32_t /*rsv*/) {
    OPENACL_API();
    return tdt::EnqueueData(qid, data, dataSize, userData, userDataSize, timeout);
}

aclError acltdtDequeueData(uint32_t qid, void* data, size_t dataSize, size_t* retDataSize,
                           void* userData, size_t userDataSize, int32_t timeout) {
    OPENACL_API();
    return tdt::DequeueData(qid, data, dataSize, retDataSize, userData, userDataSize, timeout);
}

aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission, int32_t /*timeout*/) {
    OPENACL_API();
    return tdt::GrantQueue(qid, pid, permission);
}

aclError acltdtAttachQueue(uint32_t qid, int32_t /*timeout*/, uint32_t* permission) {
    OPENACL_API();
    return tdt::AttachQueue(qid, permission);
}

aclError acltdtBindQueueRoutes(acltdtQueueRouteList* qRouteList) {
    OPENACL_API();
    return tdt::BindRoutes(qRouteList);
}

aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList* qRouteList) {
    OPENACL_API();
    return tdt::UnbindRoutes(qRouteList);
}

aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo* queryInfo,
                                acltdtQueueRouteList* qRouteList) {
    OPENACL_API();
    return tdt::QueryRoutes(queryInfo, qRouteList);
}

aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf* buf) {
    OPENACL_API();
    // Device (DVPP) memory is host memory here, like every other kind.
    if (type != ACL_TDT_NORMAL_MEM && type != ACL_TDT_DVPP_MEM)
        return openacl::Fail(ACL_ERROR_INVALID_PARAM,
                             "type %u is not ACL_TDT_NORMAL_MEM or ACL_TDT_DVPP_MEM", type);
    return tdt::AllocMbuf(buf, size);
}

aclError acltdtFreeBuf(acltdtBuf buf) {
    OPENACL_API();
    return tdt::FreeMbuf(buf);
}

aclError acltdtGetBufData(const acltdtBuf buf, void** dataPtr, size_t* size) {
    OPENACL_API();
    return tdt::GetMbufData(buf, dataPtr, size);
}

aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len) {
    OPENACL_API();
    return tdt::SetMbufDataLen(buf, len);
}

aclError acltdtGetBufDataLen(acltdtBuf buf, size_t* len) {
    OPENACL_API();
    return tdt::GetMbufDataLen(buf, len);
}

aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf) {
    OPENACL_API();
    return tdt::AppendMbufChain(headBuf, buf);
}

aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t* num) {
    OPENACL_API();
    return tdt::GetMbufChainNum(headBuf, num);
}

aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index, acltdtBuf* buf) {
    OPENACL_API();
    return tdt::GetMbufFromChain(headBuf, index, buf);
}

aclError acltdtGetBufUserData(const acltdtBuf buf, void* dataPtr, size_t size, size_t offset) {
    OPENACL_API();
    return tdt::GetMbufUserData(buf, dataPtr, size, offset);
}

aclError acltdtSetBufUserData(acltdtBuf buf, const void* dataPtr, size_t size, size_t offset) {
    OPENACL_API();
    return tdt::SetMbufUserData(buf, dataPtr, size, offset);
}

aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf* newBuf) {
    OPENACL_API();
    return tdt::CopyMbufRef(buf, newBuf);
}

acltdtQueueAttr* acltdtCreateQueueAttr() {
    OPENACL_API();
    return tdt::CreateQueueAttr();
}

aclError acltdtDestroyQueueAttr(const acltdtQueueAttr* attr) {
    OPENACL_API();
    return tdt::DestroyQueueAttr(attr);
}

aclError acltdtSetQueueAttr(acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                            const void* param) {
    OPENACL_API();
    return tdt::SetQueueAttr(attr, type, len, param);
}

aclError acltdtGetQueueAttr(const acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                            size_t* paramRetSize, void* param) {
    OPENACL_API();
    return tdt::GetQueueAttr(attr, type, len, paramRetSize, param);
}

acltdtQueueRoute* acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId) {
    OPENACL_API();
    return tdt::CreateRoute(srcId, dstId);
}

aclError acltdtDestroyQueueRoute(const acltdtQueueRoute* route) {
    OPENACL_API();
    return tdt::DestroyRoute(route);
}

aclError acltdtGetQueueRouteParam(const acltdtQueueRoute* route, acltdtQueueRouteParamType type,
                                  size_t len, size_t* paramRetSize, void* param) {
    OPENACL_API();
    return tdt::GetRouteParam(route, type, len, paramRetSize, param);
}

acltdtQueueRouteList* acltdtCreateQueueRouteList() {
    OPENACL_API();
    return tdt::CreateRouteList();
}

aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList* routeList) {
    OPENACL_API();
    return tdt::DestroyRouteList(routeList);
}

aclError acltdtAddQueueRoute(acltdtQueueRouteList* routeList, const acltdtQueueRoute* route) {
    OPENACL_API();
    return tdt::AddRoute(routeList, route);
}

aclError acltdtGetQueueRoute(const acltdtQueueRouteList* routeList, size_t index,
                             acltdtQueueRoute* route) {
    OPENACL_API();
    return tdt::GetRoute(routeList, index, route);
}

size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList* routeList) {
    OPENACL_API();
    return tdt::RouteCount(routeList);
}

acltdtQueueRouteQueryInfo* acltdtCreateQueueRouteQueryInfo() {
    OPENACL_API();
    return tdt::CreateRouteQuery();
}

aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo* info) {
    OPENACL_API();
    return tdt::DestroyRouteQuery(info);
}

aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo* param,
                                      acltdtQueueRouteQueryInfoParamType type, size_t len,
                                      const void* value) {
    OPENACL_API();
    return tdt::SetRouteQuery(param, type, len, value);
}
