// hccl/hccl.h: the collective operations (src/hccl/). Each entry point checks what one rank
// can get wrong alone (handles, types, counts, ranks, host arrays, the buffers' memory) and
// enqueues one task; what the ranks must agree on is checked when they meet.
#include "hccl/hccl.h"

#include <algorithm>
#include <vector>

#include "core/error.h"
#include "hccl/communicator.h"
#include "hccl/data_type.h"
#include "hccl/group.h"

using openacl::Fail;
namespace hccl = openacl::hccl;

namespace {

HcclResult Code(aclError code) {
    return static_cast<HcclResult>(code);
}

#define OPENACL_HCCL_TRY(expr)                                        \
    do {                                                              \
        if (HcclResult rc_ = (expr); rc_ != HCCL_SUCCESS) return rc_; \
    } while (0)

HcclResult CheckType(HcclDataType type, const char* what, bool reduces, size_t* size) {
    *size = hccl::DataTypeSize(type);
    if (*size == 0)
        return Code(
            Fail(HCCL_E_PARA, "%s %d is not an HcclDataType", what, static_cast<int>(type)));
    if (reduces && !hccl::Reducible(type)) {
        return Code(Fail(HCCL_E_NOT_SUPPORT,
                         "%s %s cannot be reduced: reductions take int8/16/32/64, "
                         "uint8/16/32/64, fp16, bfp16, fp32 and fp64",
                         what, hccl::DataTypeName(type)));
    }
    return HCCL_SUCCESS;
}

// What every operation starts from: the live communicator and the element size of `type`;
// null with the failure recorded in *rc.
std::shared_ptr<hccl::Communicator> Begin(HcclComm comm, HcclDataType type, const char* what,
                                          bool reduces, size_t* es, HcclResult* rc) {
    std::shared_ptr<hccl::Communicator> c = hccl::FindReadyOrFail(comm, rc);
    if (c == nullptr) return nullptr;
    *rc = CheckType(type, what, reduces, es);
    return *rc == HCCL_SUCCESS ? c : nullptr;
}

HcclResult CheckOp(HcclReduceOp op) {
    if (op == HCCL_REDUCE_SUM || op == HCCL_REDUCE_PROD || op == HCCL_REDUCE_MAX ||
        op == HCCL_REDUCE_MIN) {
        return HCCL_SUCCESS;
    }
    return Code(Fail(HCCL_E_PARA, "op %d is not an HcclReduceOp (sum, prod, max or min)",
                     static_cast<int>(op)));
}

HcclResult CheckRank(uint32_t rank, const hccl::Communicator& comm, const char* what) {
    if (rank < comm.size()) return HCCL_SUCCESS;
    return Code(Fail(HCCL_E_PARA, "%s %u is out of range: communicator \"%s\" has ranks 0..%u",
                     what, rank, comm.name().c_str(), comm.size() - 1));
}

HcclResult CheckPeer(uint32_t peer, const hccl::Communicator& comm, const char* what) {
    OPENACL_HCCL_TRY(CheckRank(peer, comm, what));
    if (peer != comm.rank()) return HCCL_SUCCESS;
    return Code(Fail(HCCL_E_PARA,
                     "%s %u is this rank itself: a rank sends to and receives from others", what,
                     peer));
}

// A host array of one uint64_t per rank, copied.
HcclResult CopyCounts(const void* array, const char* what, uint32_t n, std::vector<uint64_t>* out) {
    if (array == nullptr) {
        return Code(Fail(HCCL_E_PTR, "%s is null: it is a host array of %u uint64_t, one per rank",
                         what, n));
    }
    const auto* values = static_cast<const uint64_t*>(array);
    out->assign(values, values + n);
    return HCCL_SUCCESS;
}

// The bytes `count` elements of `es` bytes take, `times` over; fails (HCCL_E_PARA) when that
// is more than 64 bits can count, which would otherwise wrap to a small size that passes the
// buffer checks and then moves far more.
HcclResult Bytes(uint64_t count, size_t es, uint64_t times, const char* what, uint64_t* bytes) {
    if (!__builtin_mul_overflow(count, es, bytes) && !__builtin_mul_overflow(*bytes, times, bytes))
        return HCCL_SUCCESS;
    return Code(Fail(HCCL_E_PARA,
                     "%s is %llu: that many %zu-byte elements%s are more bytes than 64 bits can "
                     "count",
                     what, static_cast<unsigned long long>(count), es,
                     times == 1 ? "" : " for each rank"));
}

// Elements a buffer must hold for blocks of `counts` at `displs` (in *extent); fails when a
// block's end is past what 64 bits count.
HcclResult Extent(const std::vector<uint64_t>& counts, const std::vector<uint64_t>& displs,
                  const char* what, uint64_t* extent) {
    *extent = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
        if (counts[i] == 0) continue;
        uint64_t end = 0;
        if (__builtin_add_overflow(displs[i], counts[i], &end)) {
            return Code(Fail(HCCL_E_PARA,
                             "%s block %zu (count %llu at displacement %llu) ends past what 64 "
                             "bits can count",
                             what, i, static_cast<unsigned long long>(counts[i]),
                             static_cast<unsigned long long>(displs[i])));
        }
        *extent = std::max(*extent, end);
    }
    return HCCL_SUCCESS;
}

HcclResult Distinct(const void* send, const void* recv, const char* api) {
    if (send == nullptr || send != recv) return HCCL_SUCCESS;
    return Code(
        Fail(HCCL_E_PARA, "%s needs separate send and receive buffers (both are %p)", api, send));
}

// HcclSend and HcclRecv: one buffer, one peer.
HcclResult PointToPoint(hccl::CollKind kind, void* buf, uint64_t count, HcclDataType dataType,
                        uint32_t peer, HcclComm comm, aclrtStream stream) {
    const bool send = kind == hccl::CollKind::kSend;
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, dataType, "dataType", false, &es, &rc);
    if (c == nullptr) return rc;
    OPENACL_HCCL_TRY(CheckPeer(peer, *c, send ? "destRank" : "srcRank"));
    hccl::CollOp o;
    o.kind = kind;
    o.type = dataType;
    o.root = peer;
    if (send) {
        o.send = buf;
    } else {
        o.recv = buf;
    }
    o.count = count;
    uint64_t bytes = 0;
    OPENACL_HCCL_TRY(Bytes(count, es, 1, "count", &bytes));
    return hccl::Issue(c, stream, std::move(o), {{send ? "sendBuf" : "recvBuf", buf, bytes}});
}

}  // namespace

// HCCL's headers carry no visibility attribute (CANN's do not): export explicitly.
#pragma GCC visibility push(default)
extern "C" {

HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType,
                         HcclReduceOp op, HcclComm comm, aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, dataType, "dataType", true, &es, &rc);
    if (c == nullptr) return rc;
    OPENACL_HCCL_TRY(CheckOp(op));
    hccl::CollOp o;
    o.kind = hccl::CollKind::kAllReduce;
    o.type = dataType;
    o.op = op;
    o.send = sendBuf;
    o.recv = recvBuf;
    o.count = count;
    uint64_t bytes = 0;
    OPENACL_HCCL_TRY(Bytes(count, es, 1, "count", &bytes));
    return hccl::Issue(c, stream, std::move(o),
                       {{"sendBuf", sendBuf, bytes}, {"recvBuf", recvBuf, bytes}});
}

HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root,
                         HcclComm comm, aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, dataType, "dataType", false, &es, &rc);
    if (c == nullptr) return rc;
    OPENACL_HCCL_TRY(CheckRank(root, *c, "root"));
    hccl::CollOp o;
    o.kind = hccl::CollKind::kBroadcast;
    o.type = dataType;
    o.root = root;
    o.recv = buf;
    o.count = count;
    uint64_t bytes = 0;
    OPENACL_HCCL_TRY(Bytes(count, es, 1, "count", &bytes));
    return hccl::Issue(c, stream, std::move(o), {{"buf", buf, bytes}});
}

HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType,
                      HcclReduceOp op, uint32_t root, HcclComm comm, aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, dataType, "dataType", true, &es, &rc);
    if (c == nullptr) return rc;
    OPENACL_HCCL_TRY(CheckOp(op));
    OPENACL_HCCL_TRY(CheckRank(root, *c, "root"));
    hccl::CollOp o;
    o.kind = hccl::CollKind::kReduce;
    o.type = dataType;
    o.op = op;
    o.root = root;
    o.send = sendBuf;
    o.recv = recvBuf;
    o.count = count;
    uint64_t bytes = 0;
    OPENACL_HCCL_TRY(Bytes(count, es, 1, "count", &bytes));
    // Only the root receives.
    const uint64_t recv_bytes = c->rank() == root ? bytes : 0;
    return hccl::Issue(c, stream, std::move(o),
                       {{"sendBuf", sendBuf, bytes}, {"recvBuf", recvBuf, recv_bytes}});
}

HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType,
                         HcclComm comm, aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, dataType, "dataType", false, &es, &rc);
    if (c == nullptr) return rc;
    hccl::CollOp o;
    o.kind = hccl::CollKind::kAllGather;
    o.type = dataType;
    o.send = sendBuf;
    o.recv = recvBuf;
    o.count = sendCount;
    uint64_t send_bytes = 0, recv_bytes = 0;
    OPENACL_HCCL_TRY(Bytes(sendCount, es, 1, "sendCount", &send_bytes));
    OPENACL_HCCL_TRY(Bytes(sendCount, es, c->size(), "sendCount", &recv_bytes));
    return hccl::Issue(c, stream, std::move(o),
                       {{"sendBuf", sendBuf, send_bytes}, {"recvBuf", recvBuf, recv_bytes}});
}

HcclResult HcclAllGatherV(void* sendBuf, uint64_t sendCount, void* recvBuf, const void* recvCounts,
                          const void* recvDispls, HcclDataType dataType, HcclComm comm,
                          aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, dataType, "dataType", false, &es, &rc);
    if (c == nullptr) return rc;
    OPENACL_HCCL_TRY(Distinct(sendBuf, recvBuf, "HcclAllGatherV"));
    hccl::CollOp o;
    o.kind = hccl::CollKind::kAllGatherV;
    o.type = dataType;
    o.send = sendBuf;
    o.recv = recvBuf;
    o.count = sendCount;
    OPENACL_HCCL_TRY(CopyCounts(recvCounts, "recvCounts", c->size(), &o.recv_counts));
    OPENACL_HCCL_TRY(CopyCounts(recvDispls, "recvDispls", c->size(), &o.recv_displs));
    if (o.recv_counts[c->rank()] != sendCount) {
        return Code(Fail(HCCL_E_PARA,
                         "recvCounts[%u] is %llu but this rank sends %llu (sendCount): a rank's "
                         "own entry is what it sends",
                         c->rank(), static_cast<unsigned long long>(o.recv_counts[c->rank()]),
                         static_cast<unsigned long long>(sendCount)));
    }
    uint64_t extent = 0, send_bytes = 0, recv_bytes = 0;
    OPENACL_HCCL_TRY(Extent(o.recv_counts, o.recv_displs, "recvCounts/recvDispls", &extent));
    OPENACL_HCCL_TRY(Bytes(sendCount, es, 1, "sendCount", &send_bytes));
    OPENACL_HCCL_TRY(Bytes(extent, es, 1, "the receive extent", &recv_bytes));
    return hccl::Issue(c, stream, std::move(o),
                       {{"sendBuf", sendBuf, send_bytes}, {"recvBuf", recvBuf, recv_bytes}});
}

HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount,
                             HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                             aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, dataType, "dataType", true, &es, &rc);
    if (c == nullptr) return rc;
    OPENACL_HCCL_TRY(CheckOp(op));
    hccl::CollOp o;
    o.kind = hccl::CollKind::kReduceScatter;
    o.type = dataType;
    o.op = op;
    o.send = sendBuf;
    o.recv = recvBuf;
    o.count = recvCount;
    uint64_t send_bytes = 0, recv_bytes = 0;
    OPENACL_HCCL_TRY(Bytes(recvCount, es, c->size(), "recvCount", &send_bytes));
    OPENACL_HCCL_TRY(Bytes(recvCount, es, 1, "recvCount", &recv_bytes));
    return hccl::Issue(c, stream, std::move(o),
                       {{"sendBuf", sendBuf, send_bytes}, {"recvBuf", recvBuf, recv_bytes}});
}

HcclResult HcclReduceScatterV(void* sendBuf, const void* sendCounts, const void* sendDispls,
                              void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                              HcclReduceOp op, HcclComm comm, aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, dataType, "dataType", true, &es, &rc);
    if (c == nullptr) return rc;
    OPENACL_HCCL_TRY(CheckOp(op));
    hccl::CollOp o;
    o.kind = hccl::CollKind::kReduceScatterV;
    o.type = dataType;
    o.op = op;
    o.send = sendBuf;
    o.recv = recvBuf;
    o.count = recvCount;
    OPENACL_HCCL_TRY(CopyCounts(sendCounts, "sendCounts", c->size(), &o.send_counts));
    OPENACL_HCCL_TRY(CopyCounts(sendDispls, "sendDispls", c->size(), &o.send_displs));
    uint64_t extent = 0, send_bytes = 0, recv_bytes = 0;
    OPENACL_HCCL_TRY(Extent(o.send_counts, o.send_displs, "sendCounts/sendDispls", &extent));
    OPENACL_HCCL_TRY(Bytes(extent, es, 1, "the send extent", &send_bytes));
    OPENACL_HCCL_TRY(Bytes(recvCount, es, 1, "recvCount", &recv_bytes));
    return hccl::Issue(c, stream, std::move(o),
                       {{"sendBuf", sendBuf, send_bytes}, {"recvBuf", recvBuf, recv_bytes}});
}

HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                       uint32_t root, HcclComm comm, aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, dataType, "dataType", false, &es, &rc);
    if (c == nullptr) return rc;
    OPENACL_HCCL_TRY(CheckRank(root, *c, "root"));
    hccl::CollOp o;
    o.kind = hccl::CollKind::kScatter;
    o.type = dataType;
    o.root = root;
    o.send = sendBuf;
    o.recv = recvBuf;
    o.count = recvCount;
    uint64_t all_bytes = 0, recv_bytes = 0;
    OPENACL_HCCL_TRY(Bytes(recvCount, es, c->size(), "recvCount", &all_bytes));
    OPENACL_HCCL_TRY(Bytes(recvCount, es, 1, "recvCount", &recv_bytes));
    // Only the root sends.
    const uint64_t send_bytes = c->rank() == root ? all_bytes : 0;
    return hccl::Issue(c, stream, std::move(o),
                       {{"sendBuf", sendBuf, send_bytes}, {"recvBuf", recvBuf, recv_bytes}});
}

HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank,
                    HcclComm comm, aclrtStream stream) {
    OPENACL_API();
    return PointToPoint(hccl::CollKind::kSend, sendBuf, count, dataType, destRank, comm, stream);
}

HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
                    HcclComm comm, aclrtStream stream) {
    OPENACL_API();
    return PointToPoint(hccl::CollKind::kRecv, recvBuf, count, dataType, srcRank, comm, stream);
}

HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm,
                             aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    auto c = hccl::FindReadyOrFail(comm, &rc);
    if (c == nullptr) return rc;
    if (sendRecvInfo == nullptr && itemNum > 0)
        return Code(Fail(HCCL_E_PTR, "sendRecvInfo is null but itemNum is %u", itemNum));
    hccl::CollOp o;
    o.kind = hccl::CollKind::kBatchSendRecv;
    std::vector<hccl::BufferUse> buffers;
    std::vector<uint8_t> sends_to(c->size()), recvs_from(c->size());
    for (uint32_t i = 0; i < itemNum; ++i) {
        const HcclSendRecvItem& item = sendRecvInfo[i];
        if (item.sendRecvType != HCCL_SEND && item.sendRecvType != HCCL_RECV) {
            return Code(Fail(HCCL_E_PARA,
                             "sendRecvInfo[%u].sendRecvType is %d: HCCL_SEND or HCCL_RECV", i,
                             static_cast<int>(item.sendRecvType)));
        }
        size_t es = 0;
        OPENACL_HCCL_TRY(CheckType(item.dataType, "dataType", false, &es));
        OPENACL_HCCL_TRY(CheckPeer(item.remoteRank, *c, "remoteRank"));
        const bool send = item.sendRecvType == HCCL_SEND;
        uint8_t& seen = send ? sends_to[item.remoteRank] : recvs_from[item.remoteRank];
        if (seen++ != 0) {
            return Code(Fail(HCCL_E_PARA,
                             "sendRecvInfo[%u] is a second %s rank %u in one call: a batch moves "
                             "one buffer per direction between two ranks",
                             i, send ? "send to" : "receive from", item.remoteRank));
        }
        uint64_t bytes = 0;
        OPENACL_HCCL_TRY(Bytes(item.count, es, 1, "sendRecvInfo[].count", &bytes));
        buffers.push_back(
            {send ? "sendRecvInfo[].buf (send)" : "sendRecvInfo[].buf (receive)", item.buf, bytes});
        o.items.push_back(item);
    }
    return hccl::Issue(c, stream, std::move(o), std::move(buffers));
}

HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType,
                        const void* recvBuf, uint64_t recvCount, HcclDataType recvType,
                        HcclComm comm, aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, sendType, "sendType", false, &es, &rc);
    if (c == nullptr) return rc;
    if (recvType != sendType || recvCount != sendCount) {
        return Code(Fail(HCCL_E_PARA,
                         "HcclAlltoAll sends %llu %s and receives %llu %s per rank: the counts "
                         "and the types must be equal",
                         static_cast<unsigned long long>(sendCount), hccl::DataTypeName(sendType),
                         static_cast<unsigned long long>(recvCount), hccl::DataTypeName(recvType)));
    }
    OPENACL_HCCL_TRY(Distinct(sendBuf, recvBuf, "HcclAlltoAll"));
    hccl::CollOp o;
    o.kind = hccl::CollKind::kAlltoAll;
    o.type = sendType;
    o.send = sendBuf;
    o.recv = const_cast<void*>(recvBuf);
    o.count = sendCount;
    uint64_t bytes = 0;
    OPENACL_HCCL_TRY(Bytes(sendCount, es, c->size(), "sendCount", &bytes));
    return hccl::Issue(c, stream, std::move(o),
                       {{"sendBuf", sendBuf, bytes}, {"recvBuf", recvBuf, bytes}});
}

HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls,
                         HcclDataType sendType, const void* recvBuf, const void* recvCounts,
                         const void* rdispls, HcclDataType recvType, HcclComm comm,
                         aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, sendType, "sendType", false, &es, &rc);
    if (c == nullptr) return rc;
    if (recvType != sendType) {
        return Code(Fail(HCCL_E_PARA, "sendType is %s but recvType is %s: they must be equal",
                         hccl::DataTypeName(sendType), hccl::DataTypeName(recvType)));
    }
    OPENACL_HCCL_TRY(Distinct(sendBuf, recvBuf, "HcclAlltoAllV"));
    hccl::CollOp o;
    o.kind = hccl::CollKind::kAlltoAllV;
    o.type = sendType;
    o.send = sendBuf;
    o.recv = const_cast<void*>(recvBuf);
    OPENACL_HCCL_TRY(CopyCounts(sendCounts, "sendCounts", c->size(), &o.send_counts));
    OPENACL_HCCL_TRY(CopyCounts(sdispls, "sdispls", c->size(), &o.send_displs));
    OPENACL_HCCL_TRY(CopyCounts(recvCounts, "recvCounts", c->size(), &o.recv_counts));
    OPENACL_HCCL_TRY(CopyCounts(rdispls, "rdispls", c->size(), &o.recv_displs));
    uint64_t send_extent = 0, recv_extent = 0, send_bytes = 0, recv_bytes = 0;
    OPENACL_HCCL_TRY(Extent(o.send_counts, o.send_displs, "sendCounts/sdispls", &send_extent));
    OPENACL_HCCL_TRY(Extent(o.recv_counts, o.recv_displs, "recvCounts/rdispls", &recv_extent));
    OPENACL_HCCL_TRY(Bytes(send_extent, es, 1, "the send extent", &send_bytes));
    OPENACL_HCCL_TRY(Bytes(recv_extent, es, 1, "the receive extent", &recv_bytes));
    return hccl::Issue(c, stream, std::move(o),
                       {{"sendBuf", sendBuf, send_bytes}, {"recvBuf", recvBuf, recv_bytes}});
}

HcclResult HcclAlltoAllVC(const void* sendBuf, const void* sendCountMatrix, HcclDataType sendType,
                          const void* recvBuf, HcclDataType recvType, HcclComm comm,
                          aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    size_t es = 0;
    auto c = Begin(comm, sendType, "sendType", false, &es, &rc);
    if (c == nullptr) return rc;
    if (recvType != sendType) {
        return Code(Fail(HCCL_E_PARA, "sendType is %s but recvType is %s: they must be equal",
                         hccl::DataTypeName(sendType), hccl::DataTypeName(recvType)));
    }
    OPENACL_HCCL_TRY(Distinct(sendBuf, recvBuf, "HcclAlltoAllVC"));
    const uint32_t n = c->size();
    std::vector<uint64_t> matrix;
    OPENACL_HCCL_TRY(CopyCounts(sendCountMatrix, "sendCountMatrix", n * n, &matrix));
    // Row `rank` is what this rank sends, column `rank` what it receives, both packed.
    hccl::CollOp o;
    o.kind = hccl::CollKind::kAlltoAllV;
    o.type = sendType;
    o.send = sendBuf;
    o.recv = const_cast<void*>(recvBuf);
    uint64_t sent = 0, received = 0;
    bool overflow = false;
    for (uint32_t peer = 0; peer < n; ++peer) {
        o.send_counts.push_back(matrix[c->rank() * n + peer]);
        o.send_displs.push_back(sent);
        overflow |= __builtin_add_overflow(sent, o.send_counts.back(), &sent);
        o.recv_counts.push_back(matrix[peer * n + c->rank()]);
        o.recv_displs.push_back(received);
        overflow |= __builtin_add_overflow(received, o.recv_counts.back(), &received);
    }
    if (overflow) {
        return Code(Fail(HCCL_E_PARA,
                         "sendCountMatrix's row or column %u adds up to more elements than 64 "
                         "bits can count",
                         c->rank()));
    }
    uint64_t send_bytes = 0, recv_bytes = 0;
    OPENACL_HCCL_TRY(Bytes(sent, es, 1, "the elements sent", &send_bytes));
    OPENACL_HCCL_TRY(Bytes(received, es, 1, "the elements received", &recv_bytes));
    return hccl::Issue(c, stream, std::move(o),
                       {{"sendBuf", sendBuf, send_bytes}, {"recvBuf", recvBuf, recv_bytes}});
}

}  // extern "C"
#pragma GCC visibility pop
