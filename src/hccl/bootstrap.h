// Communicator bootstrap, HCCL's model: the root rank makes a root info (HcclGetRootInfo),
// the program ships its bytes to every rank, and each rank joins with (nRanks, info, rank).
// Joining blocks until all nRanks have joined, then hands each rank its transport: when every
// rank lives in the root's process, the ranks share memory (local_transport.h); otherwise
// they reach each other through the network engine.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "hccl/communicator.h"
#include "hccl/root_info.h"
#include "hccl/transport.h"

namespace openacl::hccl {

struct JoinRequest {
    uint32_t n = 0;
    uint32_t rank = 0;
    int32_t device = 0;
    int64_t exec_timeout_ms = 0;  // 0: never
};

// HcclGetRootInfo: starts a communicator rooted in this process and describes it in `data`.
HcclResult CreateRoot(int32_t device, RootInfoData* data, std::string* why);

// HcclCommInitRootInfo: joins the communicator `data` describes, waiting for the other ranks
// at most ConnectTimeoutMs().
HcclResult Join(const RootInfoData& data, const JoinRequest& request,
                std::unique_ptr<Transport>* transport, std::string* why);

// HcclCreateSubCommConfig: joins sub-communicator `sub_id` of `parent` as `request.rank` of
// `request.n`, waiting for the other members at most ConnectTimeoutMs().
HcclResult JoinSub(const Communicator& parent, uint64_t sub_id, const JoinRequest& request,
                   std::unique_ptr<Transport>* transport, std::string* why);

}  // namespace openacl::hccl
