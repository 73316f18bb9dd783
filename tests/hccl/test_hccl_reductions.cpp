// The collectives that reduce (AllReduce, Reduce, ReduceScatter, ReduceScatterV) at 1 to 4
// ranks, for every reducible data type and every reduce operation, against reductions
// computed on the host (hccl_test_support.h): integers wrap around, float16 and bfloat16 are
// the float result rounded once to nearest even.
#include "hccl_test_support.h"

namespace {

using namespace hccl_test;

// Elements per rank: over one 512-element block of the reduction, and not a multiple of it.
constexpr uint64_t kCount = 1000;

// A layout for the V forms: `counts[i]` elements for rank i, the blocks placed in reverse rank
// order with a gap of two elements before each, so displacements are neither ascending nor
// packed. Returns the displacements; *extent is the elements the buffer needs.
std::vector<uint64_t> ReversedWithGaps(const std::vector<uint64_t>& counts, uint64_t* extent) {
    std::vector<uint64_t> displs(counts.size());
    uint64_t at = 0;
    for (size_t i = counts.size(); i-- > 0;) {
        at += 2;
        displs[i] = at;
        at += counts[i];
    }
    *extent = at + 2;
    return displs;
}

using HcclReduceTest = HcclRanksTest;

TEST_P(HcclReduceTest, AllReduceMatchesTheHostForEveryTypeAndOp) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        for (HcclDataType type : kReducibleTypes) {
            for (HcclReduceOp op : kReduceOps) {
                const size_t bytes = kCount * SizeOf(type);
                void* send = Upload(Elements(type, r.rank, kCount, op));
                void* recv = Filled(bytes, 0xcd);
                EXPECT_EQ(HcclAllReduce(send, recv, kCount, type, op, r.comm, r.stream),
                          HCCL_SUCCESS)
                    << Describe(type, op);
                EXPECT_EQ(r.Sync(), ACL_SUCCESS) << Describe(type, op);
                EXPECT_TRUE(SameElements(Download(recv, bytes),
                                         ReduceOfRanks(type, op, n, kCount, 0, kCount, op),
                                         SizeOf(type)))
                    << Describe(type, op) << " on rank " << r.rank;
                aclrtFree(send);
                aclrtFree(recv);
            }
        }
    });
}

TEST_P(HcclReduceTest, AllReduceInPlaceMatchesTheHostForEveryTypeAndOp) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        for (HcclDataType type : kReducibleTypes) {
            for (HcclReduceOp op : kReduceOps) {
                void* buf = Upload(Elements(type, r.rank, kCount, op));
                EXPECT_EQ(HcclAllReduce(buf, buf, kCount, type, op, r.comm, r.stream),
                          HCCL_SUCCESS);
                EXPECT_EQ(r.Sync(), ACL_SUCCESS);
                EXPECT_TRUE(SameElements(Download(buf, kCount * SizeOf(type)),
                                         ReduceOfRanks(type, op, n, kCount, 0, kCount, op),
                                         SizeOf(type)))
                    << Describe(type, op) << " on rank " << r.rank;
                aclrtFree(buf);
            }
        }
    });
}

TEST_P(HcclReduceTest, ReduceDeliversToTheRootOnlyForEveryTypeAndOp) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        uint32_t case_number = 0;
        for (HcclDataType type : kReducibleTypes) {
            for (HcclReduceOp op : kReduceOps) {
                const uint32_t root = case_number++ % n;  // every rank is the root in turn
                const size_t bytes = kCount * SizeOf(type);
                void* send = Upload(Elements(type, r.rank, kCount, op));
                void* recv = Filled(bytes, 0xcd);
                EXPECT_EQ(HcclReduce(send, recv, kCount, type, op, root, r.comm, r.stream),
                          HCCL_SUCCESS);
                EXPECT_EQ(r.Sync(), ACL_SUCCESS);
                const Bytes want = r.rank == root
                                       ? ReduceOfRanks(type, op, n, kCount, 0, kCount, op)
                                       : Bytes(bytes, 0xcd);
                EXPECT_TRUE(SameElements(Download(recv, bytes), want, SizeOf(type)))
                    << Describe(type, op) << ", root " << root << ", on rank " << r.rank;
                aclrtFree(send);
                aclrtFree(recv);
            }
        }
    });
}

TEST_P(HcclReduceTest, ReduceScatterGivesEachRankItsReducedBlockForEveryTypeAndOp) {
    const uint32_t n = GetParam();
    constexpr uint64_t kBlock = 300;
    RunRanks(n, [n](Rank& r) {
        for (HcclDataType type : kReducibleTypes) {
            for (HcclReduceOp op : kReduceOps) {
                const uint64_t total = kBlock * n;
                void* send = Upload(Elements(type, r.rank, total, op));
                void* recv = Filled(kBlock * SizeOf(type), 0xcd);
                EXPECT_EQ(HcclReduceScatter(send, recv, kBlock, type, op, r.comm, r.stream),
                          HCCL_SUCCESS);
                EXPECT_EQ(r.Sync(), ACL_SUCCESS);
                EXPECT_TRUE(SameElements(
                    Download(recv, kBlock * SizeOf(type)),
                    ReduceOfRanks(type, op, n, total, r.rank * kBlock, kBlock, op), SizeOf(type)))
                    << Describe(type, op) << " on rank " << r.rank;
                aclrtFree(send);
                aclrtFree(recv);
            }
        }
    });
}

TEST_P(HcclReduceTest, ReduceScatterVWithGapsAndReversedBlocksForEveryTypeAndOp) {
    const uint32_t n = GetParam();
    // Rank 1 receives nothing; the others blocks of different sizes.
    const std::vector<uint64_t> all_counts = {5, 0, 513, 7};
    const std::vector<uint64_t> counts(all_counts.begin(), all_counts.begin() + n);
    uint64_t extent = 0;
    const std::vector<uint64_t> displs = ReversedWithGaps(counts, &extent);
    RunRanks(n, [&, n](Rank& r) {
        for (HcclDataType type : kReducibleTypes) {
            for (HcclReduceOp op : kReduceOps) {
                const uint64_t mine = counts[r.rank];
                void* send = Upload(Elements(type, r.rank, extent, op));
                void* recv = Filled(std::max<uint64_t>(1, mine) * SizeOf(type), 0xcd);
                EXPECT_EQ(HcclReduceScatterV(send, counts.data(), displs.data(), recv, mine, type,
                                             op, r.comm, r.stream),
                          HCCL_SUCCESS);
                EXPECT_EQ(r.Sync(), ACL_SUCCESS);
                EXPECT_TRUE(SameElements(
                    Download(recv, mine * SizeOf(type)),
                    ReduceOfRanks(type, op, n, extent, displs[r.rank], mine, op), SizeOf(type)))
                    << Describe(type, op) << " on rank " << r.rank;
                aclrtFree(send);
                aclrtFree(recv);
            }
        }
    });
}

INSTANTIATE_TEST_SUITE_P(Ranks, HcclReduceTest, kRankCounts, RanksName);

TEST_F(HcclTest, AllReduceOfOneMebibyteIsExact) {
    // Large enough that the data is moved in several chunks on several workers.
    constexpr uint64_t kFloats = (1u << 20) / sizeof(float);
    RunRanks(4, [](Rank& r) {
        void* send = Upload(Elements(HCCL_DATA_TYPE_FP32, r.rank, kFloats));
        void* recv = Filled(kFloats * sizeof(float), 0);
        EXPECT_EQ(HcclAllReduce(send, recv, kFloats, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm,
                                r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_TRUE(SameElements(
            Download(recv, kFloats * sizeof(float)),
            ReduceOfRanks(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 4, kFloats, 0, kFloats), 4));
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, Float16SumIsRoundedOnceToNearestEven) {
    // 2048 + 1 + 1 + 1: adding one at a time in float16 would stay at 2048 (each 2049 is a tie
    // that rounds to the even 2048); the float sum 2051 rounds once, to 2052.
    RunRanks(4, [](Rank& r) {
        const uint16_t value = FloatToHalf(r.rank == 0 ? 2048.0f : 1.0f);
        void* buf = r.Upload(std::vector<uint16_t>{value});
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(HalfToFloat(r.Download<uint16_t>(buf, 1)[0]), 2052.0f);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, Bfloat16SumIsRoundedOnceToNearestEven) {
    // 256 + 1 + 1 + 1 = 259 in float; bfloat16 holds 256, 258, 260: 259 is a tie, to 260.
    RunRanks(4, [](Rank& r) {
        const uint16_t value = FloatToBf16(r.rank == 0 ? 256.0f : 1.0f);
        void* buf = r.Upload(std::vector<uint16_t>{value});
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(Bf16ToFloat(r.Download<uint16_t>(buf, 1)[0]), 260.0f);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, IntegerSumsAndProductsWrapAround) {
    RunRanks(2, [](Rank& r) {
        void* sum = r.Upload(std::vector<int8_t>{127, -128});
        void* product = r.Upload(std::vector<uint16_t>{65535, 256});
        EXPECT_EQ(
            HcclAllReduce(sum, sum, 2, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        EXPECT_EQ(HcclAllReduce(product, product, 2, HCCL_DATA_TYPE_UINT16, HCCL_REDUCE_PROD,
                                r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<int8_t>(sum, 2), (std::vector<int8_t>{-2, 0}));
        EXPECT_EQ(r.Download<uint16_t>(product, 2), (std::vector<uint16_t>{1, 0}));
        aclrtFree(sum);
        aclrtFree(product);
    });
}

TEST_F(HcclTest, ReductionsOfZeroElementsSucceedWithoutBuffers) {
    RunRanks(3, [](Rank& r) {
        EXPECT_EQ(HcclAllReduce(nullptr, nullptr, 0, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm,
                                r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclReduce(nullptr, nullptr, 0, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MAX, 1, r.comm,
                             r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclReduceScatter(nullptr, nullptr, 0, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_MIN,
                                    r.comm, r.stream),
                  HCCL_SUCCESS);
        const uint64_t zeros[3] = {0, 0, 0};
        EXPECT_EQ(HcclReduceScatterV(nullptr, zeros, zeros, nullptr, 0, HCCL_DATA_TYPE_INT8,
                                     HCCL_REDUCE_PROD, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
    });
}

}  // namespace
