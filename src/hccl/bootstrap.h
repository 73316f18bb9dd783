// Communicator bootstrap, HCCL's model: the root rank makes a root info (HcclGetRootInfo),
// the program ships its bytes to every rank, and each rank joins with (nRanks, info, rank).
// Joining blocks until all nRanks have joined, then hands each rank its transport: when every
// rank lives in the root's process, the ranks share memory (local_transport.h); otherwise
// every rank, those of the root's process too, gets the Gloo transport (gloo_transport.h).
//
// HcclGetRootInfo picks the host address and a port (socket.h, environment.h), listens, and
// leaves a service thread behind that lasts while the communicator forms. Ranks of the root's
// process join it through memory; the others connect, send (rank, nRanks, device, process,
// address) and wait. When all nRanks are in, the service closes its listener and answers
// every connected rank; if the communicator spans processes, it then keeps the key-value
// store (rendezvous.h) the ranks connect their Gloo contexts through, over the same
// connections, until each rank reports it is connected. A failure (a rank that does not join
// within HCCL_CONNECT_TIMEOUT, one that disconnects, one whose Gloo setup fails) fails every
// rank waiting, with a message naming the rank. Inconsistent joins (another nRanks, a rank
// twice, two ranks of one process on one device) fail the rank that made them at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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

// A rank table's rank 0: like CreateRoot, but listening on `host`:`port` exactly (the other
// ranks know the address from the table) for the communicator named `identifier`.
HcclResult CreateRootAt(int32_t device, const std::string& host, uint16_t port,
                        const std::string& identifier, RootInfoData* data, std::string* why);

// A root info for joining a rank table's communicator from another rank: where rank 0
// listens and which communicator it serves.
RootInfoData RootAt(const std::string& host, uint16_t port, const std::string& identifier);

// HcclCommInitRootInfo: joins the communicator `data` describes, waiting for the other ranks
// at most ConnectTimeoutMs(). retry_refused: keep trying to connect while nothing listens at
// the root's address yet (a rank table's ranks may start before rank 0); a root info's
// listener exists before the info does, so there a refused connection means it is stale.
HcclResult Join(const RootInfoData& data, const JoinRequest& request, bool retry_refused,
                std::unique_ptr<Transport>* transport, std::string* why);

// HcclCreateSubCommConfig: joins sub-communicator `sub_id` of `parent` as `request.rank` of
// `request.n`; parent_ranks[i] is sub-rank i's rank in the parent. Ranks of a parent that
// shares memory meet in memory. Over a parent that spans processes, sub-rank 0 makes a root
// info and sends it to the other members through the parent's connections; then they join it
// as HcclCommInitRootInfo does (so members that share a process with sub-rank 0 and no one
// else share memory again).
HcclResult JoinSub(const Communicator& parent, uint64_t sub_id,
                   const std::vector<uint32_t>& parent_ranks, const JoinRequest& request,
                   std::unique_ptr<Transport>* transport, std::string* why);

}  // namespace openacl::hccl
