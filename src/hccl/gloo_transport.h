// The transport between ranks in different processes or on different machines: Gloo over TCP
// (Debian's libgloo). Each rank owns a Gloo context fully connected to its peers, and an
// engine thread that runs the rank's operations one after the other, in the order its
// streams start them: Start queues an op and returns at once, so no stream worker ever waits
// on the network.
//
// Every collective begins with a small header every rank sends every other (kind, type,
// count, op, root and the V forms' counts). All ranks judge the same headers the same way, so
// when they disagree each fails with HCCL_E_PARA and the same message, before any data moves
// (Gloo would otherwise corrupt memory or wait forever). Sends and receives trade headers
// with their partner the same way. The data then moves with Gloo's collectives (allreduce,
// broadcast, reduce, allgather, scatter, alltoall), or directly between pairs where Gloo has
// no such call or cannot place blocks at arbitrary displacements (AllGatherV, AlltoAllV,
// ReduceScatter[V], which reduces locally with ReduceMany).
//
// A failure of the network (a peer that died or left, a timeout) breaks the communicator:
// the rank closes every connection so its peers fail at once too, and every later operation
// fails with the same error. HCCL_E_REMOTE when a peer went away, HCCL_E_TIMEOUT when the
// execution timeout passed, HCCL_E_TCP_TRANSFER for other socket errors.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hccl/rendezvous.h"
#include "hccl/transport.h"

namespace openacl::hccl {

struct GlooSetup {
    uint32_t rank = 0;
    uint32_t size = 0;
    std::string host_ip;  // the address this rank's connections use (numeric: never resolved)
    int64_t connect_timeout_ms = 0;
    int64_t exec_timeout_ms = 0;  // 0: never
};

// Connects rank setup.rank to every other rank through `store`.
HcclResult MakeGlooTransport(const GlooSetup& setup, KvStore& store,
                             std::unique_ptr<Transport>* out, std::string* why);

// Whether `transport` is a Gloo transport.
bool IsGloo(const Transport& transport);

// Sub-communicators of a communicator that spans processes: rank `from` of `parent` sends the
// `size` bytes at `blob` to every other rank of `members` (who receive them into `blob`), over
// the parent's connections but apart from its collectives. `tag` keeps concurrent exchanges
// apart.
HcclResult GlooShare(Transport& parent, uint32_t from, const std::vector<uint32_t>& members,
                     uint64_t tag, void* blob, size_t size, int64_t timeout_ms, std::string* why);

}  // namespace openacl::hccl
