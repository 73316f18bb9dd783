// What each of hccl_test's collectives does with a data size: the buffers and counts it passes
// (Layout), the call itself (Issue), the values every rank puts in (a pattern that depends on
// the rank and the element, so data that lands in the wrong place or from the wrong rank is
// caught) and the result a correct collective leaves, computed on the host (Expect).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl_test.h"

namespace hccl_test {

// The program's name ("all_reduce_test") and the HCCL function it calls ("HcclAllReduce").
const char* ProgramName(Collective c);
const char* FunctionName(Collective c);
// Whether -o applies (AllReduce, Reduce, ReduceScatter[V]) and whether -r does.
bool Reduces(Collective c);
bool Rooted(Collective c);
// Whether the data is split among the ranks, so CANN aligns data sizes to the rank count.
bool SplitsData(Collective c);
// nccl-tests' bus bandwidth factor: busbw = algbw x factor.
double BusFactor(Collective c, uint32_t ranks);

// Bytes per element (0: not a type hccl_test takes).
size_t ElementSize(HcclDataType type);

// One rank's buffers and arguments for one data size. Counts are in elements.
struct Layout {
    uint64_t count = 0;       // the count argument (per rank, per peer or whole, as the API has it)
    uint64_t send_elems = 0;  // the send buffer (0: none)
    uint64_t recv_elems = 0;  // the receive buffer (Broadcast's one buffer)
    uint64_t moved_bytes = 0;  // what alg_bandwidth divides by the time (CANN's definition)
    // The V forms' host arrays: AllGatherV's recv, ReduceScatterV's send, AlltoAllV's both.
    std::vector<uint64_t> send_counts, send_displs, recv_counts, recv_displs;
    std::vector<uint64_t> matrix;  // AlltoAllVC: ranks x ranks, [i][j] = what i sends to j
};

struct Setup {
    Collective collective = Collective::kAllReduce;
    HcclDataType type = HCCL_DATA_TYPE_FP32;
    HcclReduceOp op = HCCL_REDUCE_SUM;
    uint32_t ranks = 1;
    uint32_t root = 0;
};

Layout Plan(const Setup& setup, uint32_t rank, uint64_t data_size);

// Enqueues the collective once on `stream`.
HcclResult Issue(const Setup& setup, const Layout& layout, void* send, void* recv, HcclComm comm,
                 aclrtStream stream);

// False when the expected result of a reduction cannot be represented exactly in the data type
// (a sum over too many ranks): the result is then not checked, and the table says NULL.
bool Checkable(const Setup& setup);

// What the buffers hold before the first call: the rank's contribution in the send buffer (and
// Broadcast's buffer), a fixed filler byte everywhere the collective should not write.
void FillSend(const Setup& setup, const Layout& layout, uint32_t rank, std::vector<uint8_t>* send);
void FillRecv(const Setup& setup, const Layout& layout, uint32_t rank, std::vector<uint8_t>* recv);
// The receive buffer a correct collective leaves on `rank`; false when that rank's buffer is not
// defined by the collective (Reduce's non-root ranks).
bool Expect(const Setup& setup, const Layout& layout, uint32_t rank, std::vector<uint8_t>* recv);

// Describes the first element where `got` differs from `want` ("" when they are equal).
std::string FirstDifference(const Setup& setup, const std::vector<uint8_t>& got,
                            const std::vector<uint8_t>& want);

}  // namespace hccl_test
