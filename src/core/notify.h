// Notifies (aclrtCreateNotify, aclrtRecordNotify, aclrtWaitAndResetNotify ...): a flag one
// stream sets and another waits for, then clears. Unlike an event, a wait does not refer to a
// record made before it: it holds its stream until some record sets the flag, before or after
// the wait was enqueued. Each record releases at most one wait (the wait resets the flag).
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_rt.h"

namespace openacl {

class Stream;

aclError CreateNotify(aclrtNotify* notify, uint64_t flag);
aclError DestroyNotify(aclrtNotify notify);
aclError RecordNotify(aclrtNotify notify, Stream* stream);
// timeout_s: 0 waits for ever; otherwise the wait fails the stream after that many seconds.
aclError WaitAndResetNotify(aclrtNotify notify, Stream* stream, uint32_t timeout_s);
aclError GetNotifyId(aclrtNotify notify, uint32_t* id);
aclError NotifyBatchReset(aclrtNotify* notifies, size_t count);

// Notifies shared between processes: the creator exports a notify under a key (with or without
// an allow-list of processes), others import it; records and waits then work across them.
aclError NotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags);
aclError NotifySetImportPid(aclrtNotify notify, const int32_t* pids, size_t count);
aclError NotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags);
// The shortest key buffer aclrtNotifyGetExportKey takes (CANN documents 65).
constexpr size_t kNotifyKeyMinLength = 65;

// Counting notifies (aclrtCntNotify*, the Ascend 950's): a 32-bit value records set, add, or
// or and; a wait holds its stream until the value compares as asked (less, equal, bigger,
// bigger or equal, every bit of a mask), then clears it if asked.
aclError CreateCountingNotify(aclrtCntNotify* notify, uint64_t flag);
aclError DestroyCountingNotify(aclrtCntNotify notify);
aclError RecordCountingNotify(aclrtCntNotify notify, Stream* stream,
                              const aclrtCntNotifyRecordInfo* info);
aclError ResetCountingNotify(aclrtCntNotify notify, Stream* stream);
// info->timeout: seconds, 0 for ever.
aclError WaitCountingNotify(aclrtCntNotify notify, Stream* stream,
                            const aclrtCntNotifyWaitInfo* info);
aclError GetCountingNotifyId(aclrtCntNotify notify, uint32_t* id);

// aclFinalize: releases the notifies left (their streams are gone by then), with a warning.
void ReleaseAllNotifies();

// The most notifies one device holds (Atlas A2/A3; the 950 has 65535).
constexpr uint32_t kMaxNotifiesPerDevice = 8192;

}  // namespace openacl
