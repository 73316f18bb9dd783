// One rank's part of a collective operation: what the program asked for, captured when it
// was enqueued (host arrays of counts and displacements are copied then, as HCCL reads them
// before the call returns), and the state it passes through while its stream runs it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hccl/hccl_types.h"

namespace openacl::hccl {

enum class CollKind : uint8_t {
    kAllReduce,
    kBroadcast,
    kReduce,
    kAllGather,
    kAllGatherV,
    kReduceScatter,
    kReduceScatterV,
    kScatter,
    kAlltoAll,
    kAlltoAllV,  // HcclAlltoAllV and HcclAlltoAllVC (whose matrix is turned into counts)
    kBarrier,
    kSend,
    kRecv,
    kBatchSendRecv,
};

// The HCCL function's name for messages ("HcclAllReduce").
const char* CollName(CollKind kind);
// Whether every rank of the communicator takes part (false: point to point).
bool Collective(CollKind kind);

// A buffer the op reads or writes: its address and size in bytes, for the checks.
struct BufferUse {
    const char* name;  // "sendBuf"
    const void* address;
    uint64_t bytes;
};

struct CollOp {
    CollKind kind = CollKind::kBarrier;
    HcclDataType type = HCCL_DATA_TYPE_INT8;
    HcclReduceOp op = HCCL_REDUCE_SUM;
    uint32_t root = 0;  // Broadcast, Reduce, Scatter; the peer of Send and Recv
    const void* send = nullptr;
    void* recv = nullptr;  // Broadcast's one buffer is here
    // The count the API takes: per rank for AllGather (send), ReduceScatter[V] (recv),
    // Scatter (recv), AlltoAll (per peer); the whole buffer otherwise.
    uint64_t count = 0;
    // The V forms, in elements, one per rank: AllGatherV's recv, ReduceScatterV's send,
    // AlltoAllV's send and recv. An AlltoAllVC is stored as the AlltoAllV it means.
    std::vector<uint64_t> send_counts, send_displs, recv_counts, recv_displs;
    std::vector<HcclSendRecvItem> items;  // BatchSendRecv
    // The device memory it moves (checked when enqueued), to re-check before data moves.
    std::vector<BufferUse> buffers;
};

}  // namespace openacl::hccl
