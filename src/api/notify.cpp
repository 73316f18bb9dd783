// Notifies: a flag one stream sets (aclrtRecordNotify) and another waits for and clears
// (aclrtWaitAndResetNotify); core/notify.h.
#include "core/notify.h"
#include "acl/acl.h"
#include "core/error.h"
#include "core/stream.h"

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) {
    OPENACL_API();
    return openacl::CreateNotify(notify, flag);
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
    OPENACL_API();
    return openacl::DestroyNotify(notify);
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::RecordNotify(notify, resolved);
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::WaitAndResetNotify(notify, resolved, timeout);
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId) {
    OPENACL_API();
    return openacl::GetNotifyId(notify, notifyId);
}

aclError aclrtNotifyBatchReset(aclrtNotify* notifies, size_t num) {
    OPENACL_API();
    return openacl::NotifyBatchReset(notifies, num);
}

aclError aclrtCntNotifyCreate(aclrtCntNotify* cntNotify, uint64_t flag) {
    OPENACL_API();
    return openacl::CreateCountingNotify(cntNotify, flag);
}

aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify) {
    OPENACL_API();
    return openacl::DestroyCountingNotify(cntNotify);
}

aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                              aclrtCntNotifyRecordInfo* info) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::RecordCountingNotify(cntNotify, resolved, info);
}

aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
                                       aclrtCntNotifyWaitInfo* info) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::WaitCountingNotify(cntNotify, resolved, info);
}

aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::ResetCountingNotify(cntNotify, resolved);
}

aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t* notifyId) {
    OPENACL_API();
    return openacl::GetCountingNotifyId(cntNotify, notifyId);
}

aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags) {
    OPENACL_API();
    return openacl::NotifyGetExportKey(notify, key, len, flags);
}

aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t* pid, size_t num) {
    OPENACL_API();
    return openacl::NotifySetImportPid(notify, pid, num);
}

aclError aclrtNotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags) {
    OPENACL_API();
    return openacl::NotifyImportByKey(notify, key, flags);
}
