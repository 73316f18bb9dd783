// The transport between ranks of one process (virtual devices of one machine): the ranks of a
// communicator share a LocalGroup, and data moves between their device memories directly, at
// memory speed, as a node's interconnect moves it between cards.
//
// Collectives meet in rounds: a rank's k-th collective joins round k. Ranks that arrive early
// park their tasks (no worker held); the last to arrive checks that every rank asked for the
// same operation, moves and reduces the data for all of them — spread over its device's
// workers — and wakes the others. Sends and receives meet in a FIFO per (sender, receiver)
// pair; whichever side comes second copies, and an op completes once all its items are
// matched and copied. A round or a pair nobody completes within the execution timeout fails
// with HCCL_E_TIMEOUT, naming the missing ranks. An operation that fails, or is discarded
// before it runs, still takes its turn: the peers that meet it fail too, and everyone's next
// operations meet as issued. Buffers are re-checked before data moves: one freed while its
// operation waited fails the operation (HCCL_E_MEMORY) rather than being written.
#pragma once

#include <cstdint>
#include <memory>

#include "hccl/transport.h"

namespace openacl::hccl {

class LocalGroup;

// A group of `size` ranks; exec_timeout_ms 0 waits forever.
std::shared_ptr<LocalGroup> MakeLocalGroup(uint32_t size, int64_t exec_timeout_ms);
// Rank `rank`'s end of `group`.
std::unique_ptr<Transport> MakeLocalTransport(std::shared_ptr<LocalGroup> group, uint32_t rank);

}  // namespace openacl::hccl
