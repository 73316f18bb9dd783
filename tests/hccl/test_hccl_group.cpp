// HcclGroupStart / HcclGroupEnd: sends and receives that would wait for each other alone,
// one thread creating a rank per device, and the group's bookkeeping.
#include "hccl_test_support.h"

namespace {

using namespace hccl_test;

constexpr uint64_t kCount = 200;

TEST_F(HcclTest, GroupedRingOfSendsBeforeReceivesDoesNotDeadlock) {
    // Ungrouped, every rank's stream would wait in its send for a neighbour that waits in its
    // own send: a cycle. Grouped, each rank's pair is one batch.
    RunRanks(4, [](Rank& r) {
        const uint32_t next = (r.rank + 1) % 4, previous = (r.rank + 3) % 4;
        void* send = Upload(Elements(HCCL_DATA_TYPE_FP64, r.rank, kCount));
        void* recv = Filled(kCount * 8, 0);
        EXPECT_EQ(HcclGroupStart(), HCCL_SUCCESS);
        EXPECT_EQ(HcclSend(send, kCount, HCCL_DATA_TYPE_FP64, next, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclRecv(recv, kCount, HCCL_DATA_TYPE_FP64, previous, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclGroupEnd(), HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_TRUE(SameElements(Download(recv, kCount * 8),
                                 Elements(HCCL_DATA_TYPE_FP64, previous, kCount), 8));
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, GroupedCollectivesRunInTheOrderIssued) {
    RunRanks(3, [](Rank& r) {
        void* buf = r.Upload(std::vector<int32_t>(kCount, static_cast<int32_t>(r.rank + 1)));
        void* gathered = r.Upload(std::vector<int32_t>(3 * kCount, 0));
        EXPECT_EQ(HcclGroupStart(), HCCL_SUCCESS);
        EXPECT_EQ(HcclAllReduce(buf, buf, kCount, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm,
                                r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclAllGather(buf, gathered, kCount, HCCL_DATA_TYPE_INT32, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclGroupEnd(), HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<int32_t>(gathered, 3 * kCount), std::vector<int32_t>(3 * kCount, 6));
        aclrtFree(buf);
        aclrtFree(gathered);
    });
}

TEST_F(HcclTest, OneThreadCreatesARankPerDeviceInsideAGroup) {
    constexpr uint32_t kRanks = 4;
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    HcclRootInfo root;
    ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
    HcclComm comms[kRanks] = {};
    ASSERT_EQ(HcclGroupStart(), HCCL_SUCCESS);
    for (uint32_t d = 0; d < kRanks; ++d) {
        ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(d)), ACL_SUCCESS);
        // Alone, the first of these would wait for the others forever.
        ASSERT_EQ(HcclCommInitRootInfo(kRanks, &root, d, &comms[d]), HCCL_SUCCESS);
    }
    ASSERT_EQ(HcclGroupEnd(), HCCL_SUCCESS);
    // The same thread then drives every rank: enqueueing never blocks.
    aclrtStream streams[kRanks] = {};
    void* bufs[kRanks] = {};
    for (uint32_t d = 0; d < kRanks; ++d) {
        ASSERT_NE(comms[d], nullptr);
        uint32_t rank = 99;
        EXPECT_EQ(HcclGetRankId(comms[d], &rank), HCCL_SUCCESS);
        EXPECT_EQ(rank, d);
        ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(d)), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&streams[d]), ACL_SUCCESS);
        const std::vector<uint32_t> mine(kCount, 1u << d);
        ASSERT_EQ(aclrtMalloc(&bufs[d], kCount * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(
            aclrtMemcpy(bufs[d], kCount * 4, mine.data(), kCount * 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
        EXPECT_EQ(HcclAllReduce(bufs[d], bufs[d], kCount, HCCL_DATA_TYPE_UINT32, HCCL_REDUCE_SUM,
                                comms[d], streams[d]),
                  HCCL_SUCCESS);
    }
    for (uint32_t d = 0; d < kRanks; ++d) {
        ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(d)), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(streams[d]), ACL_SUCCESS);
        std::vector<uint32_t> got(kCount);
        EXPECT_EQ(
            aclrtMemcpy(got.data(), kCount * 4, bufs[d], kCount * 4, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
        EXPECT_EQ(got, std::vector<uint32_t>(kCount, 0xf)) << "rank " << d;
        EXPECT_EQ(aclrtDestroyStream(streams[d]), ACL_SUCCESS);
        aclrtFree(bufs[d]);
        EXPECT_EQ(HcclCommDestroy(comms[d]), HCCL_SUCCESS);
    }
}

TEST_F(HcclTest, OneThreadDrivesGroupedSendsAndReceivesOfEveryRank) {
    constexpr uint32_t kRanks = 3;
    int32_t devices[kRanks] = {0, 1, 2};
    HcclComm comms[kRanks] = {};
    ASSERT_EQ(HcclCommInitAll(kRanks, devices, comms), HCCL_SUCCESS);
    aclrtStream streams[kRanks] = {};
    void* sends[kRanks] = {};
    void* recvs[kRanks] = {};
    for (uint32_t d = 0; d < kRanks; ++d) {
        ASSERT_EQ(aclrtSetDevice(devices[d]), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&streams[d]), ACL_SUCCESS);
        sends[d] = Upload(Elements(HCCL_DATA_TYPE_INT16, d, kCount));
        recvs[d] = Filled(kCount * 2, 0);
    }
    // Every rank sends to the next and receives from the previous, all from this thread.
    ASSERT_EQ(HcclGroupStart(), HCCL_SUCCESS);
    for (uint32_t d = 0; d < kRanks; ++d) {
        ASSERT_EQ(aclrtSetDevice(devices[d]), ACL_SUCCESS);
        EXPECT_EQ(HcclSend(sends[d], kCount, HCCL_DATA_TYPE_INT16, (d + 1) % kRanks, comms[d],
                           streams[d]),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclRecv(recvs[d], kCount, HCCL_DATA_TYPE_INT16, (d + kRanks - 1) % kRanks,
                           comms[d], streams[d]),
                  HCCL_SUCCESS);
    }
    ASSERT_EQ(HcclGroupEnd(), HCCL_SUCCESS);
    for (uint32_t d = 0; d < kRanks; ++d) {
        ASSERT_EQ(aclrtSetDevice(devices[d]), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(streams[d]), ACL_SUCCESS);
        EXPECT_TRUE(SameElements(Download(recvs[d], kCount * 2),
                                 Elements(HCCL_DATA_TYPE_INT16, (d + kRanks - 1) % kRanks, kCount),
                                 2))
            << "rank " << d;
        EXPECT_EQ(aclrtDestroyStream(streams[d]), ACL_SUCCESS);
        aclrtFree(sends[d]);
        aclrtFree(recvs[d]);
        EXPECT_EQ(HcclCommDestroy(comms[d]), HCCL_SUCCESS);
    }
}

TEST_F(HcclTest, GroupStatusGetSaysWhetherAGroupIsOpenOnThisThread) {
    bool in_group = true;
    EXPECT_EQ(HcclGroupStatusGet(&in_group), HCCL_SUCCESS);
    EXPECT_FALSE(in_group);
    EXPECT_EQ(HcclGroupStart(), HCCL_SUCCESS);
    EXPECT_EQ(HcclGroupStart(), HCCL_SUCCESS);  // groups nest
    EXPECT_EQ(HcclGroupStatusGet(&in_group), HCCL_SUCCESS);
    EXPECT_TRUE(in_group);
    // Another thread has no group open.
    std::thread([] {
        bool other = true;
        EXPECT_EQ(HcclGroupStatusGet(&other), HCCL_SUCCESS);
        EXPECT_FALSE(other);
    }).join();
    EXPECT_EQ(HcclGroupEnd(), HCCL_SUCCESS);
    EXPECT_EQ(HcclGroupStatusGet(&in_group), HCCL_SUCCESS);
    EXPECT_TRUE(in_group) << "the inner end closes the inner group only";
    EXPECT_EQ(HcclGroupEnd(), HCCL_SUCCESS);
    EXPECT_EQ(HcclGroupStatusGet(&in_group), HCCL_SUCCESS);
    EXPECT_FALSE(in_group);
    EXPECT_EQ(HcclGroupStatusGet(nullptr), HCCL_E_PTR);
}

TEST_F(HcclTest, GroupEndWithoutGroupStartFails) {
    EXPECT_EQ(HcclGroupEnd(), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"HcclGroupEnd", "HcclGroupStart"}));
    EXPECT_EQ(HcclGroupStart(), HCCL_SUCCESS);
    EXPECT_EQ(HcclGroupEnd(), HCCL_SUCCESS);
    EXPECT_EQ(HcclGroupEnd(), HCCL_E_PARA) << "one end too many";
}

TEST_F(HcclTest, GroupedInitThatFailsIsReportedByGroupEndWithItsReason) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    HcclRootInfo root;
    ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
    HcclComm first = nullptr;
    ASSERT_EQ(HcclCommInitRootInfo(1, &root, 0, &first), HCCL_SUCCESS);
    // The root info's communicator is complete: joining it again fails, at HcclGroupEnd.
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    HcclComm second = nullptr;
    ASSERT_EQ(HcclGroupStart(), HCCL_SUCCESS);
    EXPECT_EQ(HcclCommInitRootInfo(1, &root, 0, &second), HCCL_SUCCESS);
    EXPECT_EQ(HcclGroupEnd(), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"HcclGroupEnd", "root info"}));
    EXPECT_EQ(second, nullptr);
    EXPECT_EQ(HcclCommDestroy(first), HCCL_SUCCESS);
}

TEST_F(HcclTest, GroupedCallThatIsWrongFailsAtOnce) {
    RunRanks(1, [](Rank& r) {
        EXPECT_EQ(HcclGroupStart(), HCCL_SUCCESS);
        EXPECT_EQ(HcclAllReduce(nullptr, nullptr, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm,
                                r.stream),
                  HCCL_E_PTR);
        EXPECT_TRUE(ErrorMentions({"sendBuf"}));
        EXPECT_EQ(HcclGroupEnd(), HCCL_SUCCESS) << "the refused call was not held";
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
    });
}

}  // namespace
