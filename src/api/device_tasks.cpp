// Device-side tasks the runtime provides without a kernel: in-line reductions
// (aclrtReduceAsync, core/reduce.h) and random numbers (aclrtRandomNumAsync,
// core/random_num.h).
#include "acl/acl.h"
#include "core/error.h"
#include "core/random_num.h"
#include "core/reduce.h"
#include "core/stream.h"

using openacl::Fail;

aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind,
                          aclDataType type, aclrtStream stream, void* reserve) {
    OPENACL_API();
    if (dst == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dst is null");
    if (src == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "src is null");
    if (reserve != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "reserve is reserved and must be NULL, not %p",
                    reserve);
    }
    if (kind < ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || kind > ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "kind %d is not an aclrtReduceKind (ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM 10, "
                    "_MAX 11, _MIN 12, _EQUAL 13)",
                    static_cast<int>(kind));
    }
    if (!openacl::IsReducibleType(type)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "type %d is not a type aclrtReduceAsync reduces (CANN documents int8, int16, "
                    "int32, uint32, float16, float and bfloat16, each on some chips)",
                    static_cast<int>(type));
    }
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::ReduceAsync(dst, src, count, kind, type, resolved);
}

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream,
                             void* reserve) {
    OPENACL_API();
    if (taskInfo == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "taskInfo is null");
    if (reserve != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "reserve is reserved and must be NULL, not %p",
                    reserve);
    }
    if (!openacl::IsRandomDataType(taskInfo->dataType)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "taskInfo->dataType %d is not a type aclrtRandomNumAsync generates "
                    "(ACL_INT32, ACL_INT64, ACL_UINT32, ACL_UINT64, ACL_BF16, ACL_FLOAT16, "
                    "ACL_FLOAT)",
                    static_cast<int>(taskInfo->dataType));
    }
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::RandomNumAsync(*taskInfo, resolved);
}
