// Names of the collectives (hccl/collective.h).
#include "hccl/collective.h"

namespace openacl::hccl {

const char* CollName(CollKind kind) {
    switch (kind) {
        case CollKind::kAllReduce:
            return "HcclAllReduce";
        case CollKind::kBroadcast:
            return "HcclBroadcast";
        case CollKind::kReduce:
            return "HcclReduce";
        case CollKind::kAllGather:
            return "HcclAllGather";
        case CollKind::kAllGatherV:
            return "HcclAllGatherV";
        case CollKind::kReduceScatter:
            return "HcclReduceScatter";
        case CollKind::kReduceScatterV:
            return "HcclReduceScatterV";
        case CollKind::kScatter:
            return "HcclScatter";
        case CollKind::kAlltoAll:
            return "HcclAlltoAll";
        case CollKind::kAlltoAllV:
            return "HcclAlltoAllV";
        case CollKind::kBarrier:
            return "HcclBarrier";
        case CollKind::kSend:
            return "HcclSend";
        case CollKind::kRecv:
            return "HcclRecv";
        case CollKind::kBatchSendRecv:
            return "HcclBatchSendRecv";
    }
    return "?";
}

bool Collective(CollKind kind) {
    return kind != CollKind::kSend && kind != CollKind::kRecv && kind != CollKind::kBatchSendRecv;
}

}  // namespace openacl::hccl
