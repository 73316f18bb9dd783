// HcclSend / HcclRecv, HcclBatchSendRecv and HcclBarrier between ranks of one process.
#include <future>
#include <latch>

#include "hccl_test_support.h"

namespace {

using namespace hccl_test;

constexpr uint64_t kCount = 321;

using HcclPairTest = HcclRanksTest;

TEST_P(HcclPairTest, SendAndRecvAroundARingForEveryType) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        const uint32_t next = (r.rank + 1) % n, previous = (r.rank + n - 1) % n;
        for (HcclDataType type : AllTypes()) {
            const size_t es = SizeOf(type);
            void* send = Upload(Elements(type, r.rank, kCount));
            void* recv = Filled(kCount * es, 0);
            // Even ranks send first and odd ranks receive first, so the ring never waits on
            // itself even when n is odd (the last even rank sends to rank 0, which has sent).
            if (r.rank % 2 == 0) {
                EXPECT_EQ(HcclSend(send, kCount, type, next, r.comm, r.stream), HCCL_SUCCESS);
                EXPECT_EQ(HcclRecv(recv, kCount, type, previous, r.comm, r.stream), HCCL_SUCCESS);
            } else {
                EXPECT_EQ(HcclRecv(recv, kCount, type, previous, r.comm, r.stream), HCCL_SUCCESS);
                EXPECT_EQ(HcclSend(send, kCount, type, next, r.comm, r.stream), HCCL_SUCCESS);
            }
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            EXPECT_TRUE(
                SameElements(Download(recv, kCount * es), Elements(type, previous, kCount), es))
                << Describe(type) << " on rank " << r.rank;
            aclrtFree(send);
            aclrtFree(recv);
        }
    });
}

TEST_P(HcclPairTest, BatchSendRecvExchangesWithEveryPeerInAnyOrder) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        for (HcclDataType type : AllTypes()) {
            const size_t es = SizeOf(type);
            // One buffer per peer each way; the receives are listed before the sends, and the
            // peers in descending order, so nothing depends on the order of the items.
            std::vector<void*> sends(n), recvs(n);
            std::vector<HcclSendRecvItem> items;
            for (uint32_t peer = n; peer-- > 0;) {
                if (peer == r.rank) continue;
                recvs[peer] = Filled(kCount * es, 0);
                items.push_back({HCCL_RECV, recvs[peer], kCount, type, peer});
            }
            for (uint32_t peer = n; peer-- > 0;) {
                if (peer == r.rank) continue;
                sends[peer] = Upload(Elements(type, r.rank, kCount, peer));
                items.push_back({HCCL_SEND, sends[peer], kCount, type, peer});
            }
            EXPECT_EQ(HcclBatchSendRecv(items.data(), static_cast<uint32_t>(items.size()), r.comm,
                                        r.stream),
                      HCCL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            for (uint32_t peer = 0; peer < n; ++peer) {
                if (peer == r.rank) continue;
                EXPECT_TRUE(SameElements(Download(recvs[peer], kCount * es),
                                         Elements(type, peer, kCount, r.rank), es))
                    << Describe(type) << " from rank " << peer << " on rank " << r.rank;
                aclrtFree(sends[peer]);
                aclrtFree(recvs[peer]);
            }
        }
    });
}

TEST_P(HcclPairTest, SendsBetweenOnePairArriveInTheOrderTheyWereIssued) {
    const uint32_t n = GetParam();
    RunRanks(n, [n](Rank& r) {
        constexpr int kMessages = 5;
        const uint32_t last = n - 1;
        if (r.rank != 0 && r.rank != last) return;
        std::vector<void*> bufs;
        for (int m = 0; m < kMessages; ++m) {
            bufs.push_back(r.rank == 0 ? Upload(Elements(HCCL_DATA_TYPE_INT32, 0, kCount, m))
                                       : Filled(kCount * 4, 0));
            if (r.rank == 0) {
                EXPECT_EQ(HcclSend(bufs[m], kCount, HCCL_DATA_TYPE_INT32, last, r.comm, r.stream),
                          HCCL_SUCCESS);
            } else {
                EXPECT_EQ(HcclRecv(bufs[m], kCount, HCCL_DATA_TYPE_INT32, 0, r.comm, r.stream),
                          HCCL_SUCCESS);
            }
        }
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        for (int m = 0; m < kMessages; ++m) {
            if (r.rank == last) {
                EXPECT_TRUE(SameElements(Download(bufs[m], kCount * 4),
                                         Elements(HCCL_DATA_TYPE_INT32, 0, kCount, m), 4))
                    << "message " << m;
            }
            aclrtFree(bufs[m]);
        }
    });
}

INSTANTIATE_TEST_SUITE_P(Ranks, HcclPairTest, ::testing::Values(2u, 3u, 4u), RanksName);

TEST_F(HcclTest, BatchCompletesOnlyOnceEveryCopyIntoItsBuffersIsDone) {
    // Rank 0 receives a large buffer from rank 1 and a small one from rank 2. Rank 1's copy is
    // still running when rank 2's lands: rank 0's batch must not complete before both have.
    constexpr uint64_t kLarge = 32u << 20, kSmall = 4;
    std::latch rank0_queued(1), rank1_queued(1);
    RunRanks(3, [&](Rank& r) {
        if (r.rank == 0) {
            void* large = Filled(kLarge, 0);
            void* small = Filled(kSmall, 0);
            HcclSendRecvItem items[2] = {{HCCL_RECV, large, kLarge, HCCL_DATA_TYPE_UINT8, 1},
                                         {HCCL_RECV, small, kSmall, HCCL_DATA_TYPE_UINT8, 2}};
            EXPECT_EQ(HcclBatchSendRecv(items, 2, r.comm, r.stream), HCCL_SUCCESS);
            rank0_queued.count_down();
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            // The copy runs front to back: its last bytes land last.
            const Bytes tail = Download(static_cast<char*>(large) + kLarge - 4096, 4096);
            EXPECT_EQ(tail, Bytes(4096, 0x11));
            EXPECT_EQ(Download(small, kSmall), Bytes(kSmall, 0x22));
            aclrtFree(large);
            aclrtFree(small);
        } else {
            const uint64_t n = r.rank == 1 ? kLarge : kSmall;
            void* buf = Filled(n, r.rank == 1 ? 0x11 : 0x22);
            (r.rank == 1 ? rank0_queued : rank1_queued).wait();
            EXPECT_EQ(HcclSend(buf, n, HCCL_DATA_TYPE_UINT8, 0, r.comm, r.stream), HCCL_SUCCESS);
            if (r.rank == 1) rank1_queued.count_down();
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
            aclrtFree(buf);
        }
    });
}

TEST_F(HcclTest, SendAndRecvOfZeroElementsMeetWithoutBuffers) {
    RunRanks(2, [](Rank& r) {
        if (r.rank == 0) {
            EXPECT_EQ(HcclSend(nullptr, 0, HCCL_DATA_TYPE_FP32, 1, r.comm, r.stream), HCCL_SUCCESS);
        } else {
            EXPECT_EQ(HcclRecv(nullptr, 0, HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream), HCCL_SUCCESS);
        }
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
    });
}

using HcclBarrierTest = HcclRanksTest;

TEST_P(HcclBarrierTest, BarrierHoldsEveryStreamUntilTheLastRankReachesIt) {
    const uint32_t n = GetParam();
    std::latch first_ranks_queued(n - 1);
    RunRanks(n, [&, n](Rank& r) {
        aclrtEvent passed = nullptr;
        ASSERT_EQ(aclrtCreateEvent(&passed), ACL_SUCCESS);
        const bool last = r.rank == n - 1;
        // The last rank reaches the barrier only once the others have queued theirs and seen
        // that their streams stay behind it.
        if (last) first_ranks_queued.wait();
        EXPECT_EQ(HcclBarrier(r.comm, r.stream), HCCL_SUCCESS);
        EXPECT_EQ(aclrtRecordEvent(passed, r.stream), ACL_SUCCESS);
        if (!last) {
            aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
            EXPECT_EQ(aclrtQueryEventStatus(passed, &status), ACL_SUCCESS);
            EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY)
                << "rank " << r.rank << " passed the barrier before rank " << n - 1
                << " reached it";
            first_ranks_queued.count_down();
        }
        EXPECT_EQ(aclrtSynchronizeEvent(passed), ACL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        aclrtDestroyEvent(passed);
    });
}

INSTANTIATE_TEST_SUITE_P(Ranks, HcclBarrierTest, kRankCounts, RanksName);

}  // namespace
