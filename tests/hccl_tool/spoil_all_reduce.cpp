// Test-only, preloaded into all_reduce_test: HcclAllReduce runs the real one, then, on rank 1,
// sets the lowest byte of the first result element to 0xFF, after the collective on the same
// stream. The tool's check must notice the one wrong element.
#include <dlfcn.h>

#include "acl/acl.h"
#include "hccl/hccl.h"

extern "C" __attribute__((visibility("default"))) HcclResult HcclAllReduce(
    void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
    HcclComm comm, aclrtStream stream) {
    using Real =
        HcclResult (*)(void*, void*, uint64_t, HcclDataType, HcclReduceOp, HcclComm, aclrtStream);
    static const Real real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "HcclAllReduce"));
    if (real == nullptr) return HCCL_E_INTERNAL;
    const HcclResult rc = real(sendBuf, recvBuf, count, dataType, op, comm, stream);
    uint32_t rank = 0;
    if (rc == HCCL_SUCCESS && count > 0 && HcclGetRankId(comm, &rank) == HCCL_SUCCESS &&
        rank == 1 && aclrtMemsetAsync(recvBuf, 1, 0xFF, 1, stream) != ACL_SUCCESS) {
        return HCCL_E_INTERNAL;
    }
    return rc;
}
