// The collectives that only move data (Broadcast, AllGather, AllGatherV, Scatter, AlltoAll,
// AlltoAllV, AlltoAllVC) at 1 to 4 ranks, for every data type including those only moved
// (int128, hif8, the fp8 formats): every byte lands where the host says, and the bytes
// around the blocks are left alone.
#include "hccl_test_support.h"

namespace {

using namespace hccl_test;

constexpr uint8_t kUntouched = 0xee;

// Displacements for blocks of `counts`, placed in reverse index order with a gap of three
// elements before each; *extent is the elements the buffer needs.
std::vector<uint64_t> ReversedWithGaps(const std::vector<uint64_t>& counts, uint64_t* extent) {
    std::vector<uint64_t> displs(counts.size());
    uint64_t at = 0;
    for (size_t i = counts.size(); i-- > 0;) {
        at += 3;
        displs[i] = at;
        at += counts[i];
    }
    *extent = at + 3;
    return displs;
}

// A buffer of `extent` untouched elements with `blocks[i]` written at `displs[i]`.
Bytes Placed(size_t element, uint64_t extent, const std::vector<uint64_t>& displs,
             const std::vector<Bytes>& blocks) {
    Bytes out(extent * element, kUntouched);
    for (size_t i = 0; i < blocks.size(); ++i)
        std::copy(blocks[i].begin(), blocks[i].end(), out.begin() + displs[i] * element);
    return out;
}

// What rank s sends to rank d in the all-to-all tests: some pairs nothing.
uint64_t PairCount(uint32_t s, uint32_t d) {
    return (s + 2 * d + 1) % 4 * 3;
}

using HcclMoveTest = HcclRanksTest;

TEST_P(HcclMoveTest, BroadcastCopiesTheRootsBufferForEveryType) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        constexpr uint64_t kCount = 777;
        uint32_t case_number = 0;
        for (HcclDataType type : AllTypes()) {
            const uint32_t root = case_number++ % n;
            const Bytes mine = Elements(type, r.rank, kCount);
            void* buf = Upload(mine);
            EXPECT_EQ(HcclBroadcast(buf, kCount, type, root, r.comm, r.stream), HCCL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            EXPECT_TRUE(SameElements(Download(buf, mine.size()), Elements(type, root, kCount),
                                     SizeOf(type)))
                << Describe(type) << ", root " << root << ", on rank " << r.rank;
            aclrtFree(buf);
        }
    });
}

TEST_P(HcclMoveTest, AllGatherConcatenatesInRankOrderForEveryType) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        constexpr uint64_t kCount = 129;
        for (HcclDataType type : AllTypes()) {
            const size_t es = SizeOf(type);
            void* send = Upload(Elements(type, r.rank, kCount));
            void* recv = Filled(n * kCount * es, kUntouched);
            EXPECT_EQ(HcclAllGather(send, recv, kCount, type, r.comm, r.stream), HCCL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            Bytes want;
            for (uint32_t s = 0; s < n; ++s) {
                const Bytes block = Elements(type, s, kCount);
                want.insert(want.end(), block.begin(), block.end());
            }
            EXPECT_TRUE(SameElements(Download(recv, want.size()), want, es))
                << Describe(type) << " on rank " << r.rank;
            aclrtFree(send);
            aclrtFree(recv);
        }
    });
}

TEST_P(HcclMoveTest, AllGatherInPlaceFromTheRanksOwnBlock) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        constexpr uint64_t kCount = 100;
        for (HcclDataType type : AllTypes()) {
            const size_t es = SizeOf(type);
            // The receive buffer holds this rank's data at its block, garbage elsewhere.
            Bytes initial(n * kCount * es, kUntouched);
            const Bytes mine = Elements(type, r.rank, kCount);
            std::copy(mine.begin(), mine.end(), initial.begin() + r.rank * kCount * es);
            void* recv = Upload(initial);
            void* send = static_cast<char*>(recv) + r.rank * kCount * es;
            EXPECT_EQ(HcclAllGather(send, recv, kCount, type, r.comm, r.stream), HCCL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            Bytes want;
            for (uint32_t s = 0; s < n; ++s) {
                const Bytes block = Elements(type, s, kCount);
                want.insert(want.end(), block.begin(), block.end());
            }
            EXPECT_TRUE(SameElements(Download(recv, want.size()), want, es))
                << Describe(type) << " on rank " << r.rank;
            aclrtFree(recv);
        }
    });
}

TEST_P(HcclMoveTest, AllGatherVPlacesBlocksAtTheirDisplacementsForEveryType) {
    const uint32_t n = GetParam();
    // Rank 1 sends nothing.
    const std::vector<uint64_t> all_counts = {11, 0, 600, 4};
    const std::vector<uint64_t> counts(all_counts.begin(), all_counts.begin() + n);
    uint64_t extent = 0;
    const std::vector<uint64_t> displs = ReversedWithGaps(counts, &extent);
    RunRanks(n, [&, n](Rank& r) {
        for (HcclDataType type : AllTypes()) {
            const size_t es = SizeOf(type);
            const uint64_t mine = counts[r.rank];
            void* send = Upload(Elements(type, r.rank, mine));
            void* recv = Filled(extent * es, kUntouched);
            EXPECT_EQ(HcclAllGatherV(send, mine, recv, counts.data(), displs.data(), type, r.comm,
                                     r.stream),
                      HCCL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            std::vector<Bytes> blocks;
            for (uint32_t s = 0; s < n; ++s)
                blocks.push_back(Elements(type, s, counts[s]));
            EXPECT_TRUE(
                SameElements(Download(recv, extent * es), Placed(es, extent, displs, blocks), es))
                << Describe(type) << " on rank " << r.rank;
            aclrtFree(send);
            aclrtFree(recv);
        }
    });
}

TEST_P(HcclMoveTest, ScatterHandsEachRankItsBlockOfTheRootsBufferForEveryType) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        constexpr uint64_t kCount = 65;
        uint32_t case_number = 0;
        for (HcclDataType type : AllTypes()) {
            const size_t es = SizeOf(type);
            const uint32_t root = (n - 1 + case_number++) % n;
            const Bytes all = Elements(type, root, n * kCount);
            // Only the root needs a send buffer.
            void* send = r.rank == root ? Upload(all) : nullptr;
            void* recv = Filled(kCount * es, kUntouched);
            EXPECT_EQ(HcclScatter(send, recv, kCount, type, root, r.comm, r.stream), HCCL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            EXPECT_TRUE(SameElements(Download(recv, kCount * es),
                                     Slice(all, r.rank * kCount * es, kCount * es), es))
                << Describe(type) << ", root " << root << ", on rank " << r.rank;
            if (send != nullptr) aclrtFree(send);
            aclrtFree(recv);
        }
    });
}

TEST_P(HcclMoveTest, AlltoAllExchangesBlocksBetweenEveryPairForEveryType) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        constexpr uint64_t kCount = 33;
        for (HcclDataType type : AllTypes()) {
            const size_t es = SizeOf(type);
            void* send = Upload(Elements(type, r.rank, n * kCount));
            void* recv = Filled(n * kCount * es, kUntouched);
            EXPECT_EQ(HcclAlltoAll(send, kCount, type, recv, kCount, type, r.comm, r.stream),
                      HCCL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            Bytes want;
            for (uint32_t s = 0; s < n; ++s) {
                const Bytes block =
                    Slice(Elements(type, s, n * kCount), r.rank * kCount * es, kCount * es);
                want.insert(want.end(), block.begin(), block.end());
            }
            EXPECT_TRUE(SameElements(Download(recv, want.size()), want, es))
                << Describe(type) << " on rank " << r.rank;
            aclrtFree(send);
            aclrtFree(recv);
        }
    });
}

TEST_P(HcclMoveTest, AlltoAllVWithZerosGapsAndReversedBlocksForEveryType) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        // The layout rank s sends from: PairCount(s, d) elements for each d, reversed, gaps.
        auto send_layout = [n](uint32_t s, std::vector<uint64_t>* counts, uint64_t* extent) {
            counts->clear();
            for (uint32_t d = 0; d < n; ++d)
                counts->push_back(PairCount(s, d));
            return ReversedWithGaps(*counts, extent);
        };
        std::vector<uint64_t> send_counts, recv_counts;
        uint64_t send_extent = 0, recv_extent = 0;
        const std::vector<uint64_t> sdispls = send_layout(r.rank, &send_counts, &send_extent);
        for (uint32_t s = 0; s < n; ++s)
            recv_counts.push_back(PairCount(s, r.rank));
        const std::vector<uint64_t> rdispls = ReversedWithGaps(recv_counts, &recv_extent);
        for (HcclDataType type : AllTypes()) {
            const size_t es = SizeOf(type);
            void* send = Upload(Elements(type, r.rank, send_extent));
            void* recv = Filled(recv_extent * es, kUntouched);
            EXPECT_EQ(HcclAlltoAllV(send, send_counts.data(), sdispls.data(), type, recv,
                                    recv_counts.data(), rdispls.data(), type, r.comm, r.stream),
                      HCCL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            std::vector<Bytes> blocks;
            for (uint32_t s = 0; s < n; ++s) {
                std::vector<uint64_t> their_counts;
                uint64_t their_extent = 0;
                const std::vector<uint64_t> their_displs =
                    send_layout(s, &their_counts, &their_extent);
                blocks.push_back(Slice(Elements(type, s, their_extent), their_displs[r.rank] * es,
                                       their_counts[r.rank] * es));
            }
            EXPECT_TRUE(SameElements(Download(recv, recv_extent * es),
                                     Placed(es, recv_extent, rdispls, blocks), es))
                << Describe(type) << " on rank " << r.rank;
            aclrtFree(send);
            aclrtFree(recv);
        }
    });
}

TEST_P(HcclMoveTest, AlltoAllVCFollowsTheCountMatrixForEveryType) {
    const uint32_t n = GetParam();
    std::vector<uint64_t> matrix(n * n);
    for (uint32_t s = 0; s < n; ++s) {
        for (uint32_t d = 0; d < n; ++d)
            matrix[s * n + d] = PairCount(s, d);
    }
    RunRanks(n, [&, n](Rank& r) {
        uint64_t sent = 0, received = 0;
        for (uint32_t peer = 0; peer < n; ++peer) {
            sent += matrix[r.rank * n + peer];
            received += matrix[peer * n + r.rank];
        }
        for (HcclDataType type : AllTypes()) {
            const size_t es = SizeOf(type);
            void* send = Upload(Elements(type, r.rank, sent));
            void* recv = Filled(std::max<uint64_t>(1, received) * es, kUntouched);
            EXPECT_EQ(HcclAlltoAllVC(send, matrix.data(), type, recv, type, r.comm, r.stream),
                      HCCL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            // Row s of the matrix is packed in rank s's send buffer; what reaches this rank is
            // packed in sender order.
            Bytes want;
            for (uint32_t s = 0; s < n; ++s) {
                uint64_t offset = 0;
                for (uint32_t d = 0; d < r.rank; ++d)
                    offset += matrix[s * n + d];
                uint64_t row = 0;
                for (uint32_t d = 0; d < n; ++d)
                    row += matrix[s * n + d];
                const Bytes block =
                    Slice(Elements(type, s, row), offset * es, matrix[s * n + r.rank] * es);
                want.insert(want.end(), block.begin(), block.end());
            }
            EXPECT_TRUE(SameElements(Download(recv, received * es), want, es))
                << Describe(type) << " on rank " << r.rank;
            aclrtFree(send);
            aclrtFree(recv);
        }
    });
}

INSTANTIATE_TEST_SUITE_P(Ranks, HcclMoveTest, kRankCounts, RanksName);

TEST_F(HcclTest, MovementsOfZeroElementsSucceedWithoutBuffers) {
    RunRanks(3, [](Rank& r) {
        const uint64_t zeros[9] = {};
        EXPECT_EQ(HcclBroadcast(nullptr, 0, HCCL_DATA_TYPE_FP32, 2, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclAllGather(nullptr, nullptr, 0, HCCL_DATA_TYPE_INT64, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclAllGatherV(nullptr, 0, nullptr, zeros, zeros, HCCL_DATA_TYPE_INT8, r.comm,
                                 r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclScatter(nullptr, nullptr, 0, HCCL_DATA_TYPE_UINT8, 0, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclAlltoAll(nullptr, 0, HCCL_DATA_TYPE_FP16, nullptr, 0, HCCL_DATA_TYPE_FP16,
                               r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclAlltoAllV(nullptr, zeros, zeros, HCCL_DATA_TYPE_BFP16, nullptr, zeros, zeros,
                                HCCL_DATA_TYPE_BFP16, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclAlltoAllVC(nullptr, zeros, HCCL_DATA_TYPE_INT128, nullptr,
                                 HCCL_DATA_TYPE_INT128, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
    });
}

}  // namespace
