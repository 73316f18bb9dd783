// What one rank can get wrong alone is refused by the call itself, with the documented code
// and a message that names the problem; a refused call takes no turn, so the ranks stay in
// step.
#include <cstdlib>

#include "hccl_test_support.h"

namespace {

using namespace hccl_test;

constexpr uint64_t kCount = 16;

// Every entry point that takes a communicator, called with `comm`; each result in turn.
std::vector<std::pair<const char*, HcclResult>> CallEverything(HcclComm comm, aclrtStream stream,
                                                               void* buf) {
    const uint64_t counts[4] = {kCount, kCount, kCount, kCount};
    const uint64_t displs[4] = {};
    HcclSendRecvItem item{HCCL_SEND, buf, kCount, HCCL_DATA_TYPE_INT8, 1};
    const HcclDataType t = HCCL_DATA_TYPE_INT8;
    const HcclReduceOp sum = HCCL_REDUCE_SUM;
    void* other = static_cast<char*>(buf) + 64;
    uint32_t value = 0;
    HcclResult async = HCCL_SUCCESS;
    char name[COMM_NAME_MAX_LENGTH];
    HcclComm sub = nullptr;
    uint32_t members[1] = {0};
    return {
        {"HcclAllReduce", HcclAllReduce(buf, buf, kCount, t, sum, comm, stream)},
        {"HcclBroadcast", HcclBroadcast(buf, kCount, t, 0, comm, stream)},
        {"HcclReduce", HcclReduce(buf, buf, kCount, t, sum, 0, comm, stream)},
        {"HcclAllGather", HcclAllGather(buf, other, 1, t, comm, stream)},
        {"HcclAllGatherV", HcclAllGatherV(buf, 1, other, counts, displs, t, comm, stream)},
        {"HcclReduceScatter", HcclReduceScatter(buf, other, 1, t, sum, comm, stream)},
        {"HcclReduceScatterV",
         HcclReduceScatterV(buf, counts, displs, other, 1, t, sum, comm, stream)},
        {"HcclScatter", HcclScatter(buf, other, 1, t, 0, comm, stream)},
        {"HcclSend", HcclSend(buf, kCount, t, 1, comm, stream)},
        {"HcclRecv", HcclRecv(buf, kCount, t, 1, comm, stream)},
        {"HcclBatchSendRecv", HcclBatchSendRecv(&item, 1, comm, stream)},
        {"HcclAlltoAll", HcclAlltoAll(buf, 1, t, other, 1, t, comm, stream)},
        {"HcclAlltoAllV",
         HcclAlltoAllV(buf, counts, displs, t, other, counts, displs, t, comm, stream)},
        {"HcclAlltoAllVC", HcclAlltoAllVC(buf, counts, t, other, t, comm, stream)},
        {"HcclBarrier", HcclBarrier(comm, stream)},
        {"HcclGetRankSize", HcclGetRankSize(comm, &value)},
        {"HcclGetRankId", HcclGetRankId(comm, &value)},
        {"HcclGetCommName", HcclGetCommName(comm, name)},
        {"HcclGetCommAsyncError", HcclGetCommAsyncError(comm, &async)},
        {"HcclCommSuspend", HcclCommSuspend(comm)},
        {"HcclCommResume", HcclCommResume(comm)},
        {"HcclCreateSubCommConfig",
         HcclCreateSubCommConfig(&comm, 1, members, 1, 0, nullptr, &sub)},
        {"HcclCommDestroy", HcclCommDestroy(comm)},
    };
}

TEST_F(HcclTest, EveryCallRefusesANullCommunicator) {
    RunRanks(1, [](Rank& r) {
        void* buf = Filled(256, 0);
        for (const auto& [name, result] : CallEverything(nullptr, r.stream, buf))
            EXPECT_EQ(result, HCCL_E_PTR) << name;
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_SUM, nullptr, r.stream),
            HCCL_E_PTR);
        EXPECT_TRUE(ErrorMentions({"HcclAllReduce", "comm is null"}));
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, EveryCallRefusesAHandleThatIsNoCommunicator) {
    RunRanks(1, [](Rank& r) {
        void* buf = Filled(256, 0);
        int not_a_comm = 0;
        for (const auto& [name, result] : CallEverything(&not_a_comm, r.stream, buf))
            EXPECT_EQ(result, HCCL_E_PARA) << name;
        EXPECT_EQ(HcclBarrier(&not_a_comm, r.stream), HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"HcclBarrier", "not a live communicator"}));
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, EveryCallRefusesADestroyedCommunicator) {
    RunRanks(1, [](Rank& r) {
        void* buf = Filled(256, 0);
        HcclComm destroyed = r.comm;
        ASSERT_EQ(HcclCommDestroy(r.comm), HCCL_SUCCESS);
        r.comm = nullptr;
        for (const auto& [name, result] : CallEverything(destroyed, r.stream, buf))
            EXPECT_EQ(result, HCCL_E_PARA) << name;
        EXPECT_EQ(HcclCommDestroy(destroyed), HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"HcclCommDestroy", "already destroyed"}));
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, NullBufferWithElementsToMoveIsRefused) {
    RunRanks(2, [](Rank& r) {
        void* buf = Filled(kCount * 4, 0);
        EXPECT_EQ(HcclAllReduce(nullptr, buf, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm,
                                r.stream),
                  HCCL_E_PTR);
        EXPECT_TRUE(ErrorMentions({"sendBuf is null", "64 bytes"}));
        EXPECT_EQ(HcclAllGather(buf, nullptr, 1, HCCL_DATA_TYPE_FP32, r.comm, r.stream),
                  HCCL_E_PTR);
        EXPECT_TRUE(ErrorMentions({"recvBuf is null"}));
        EXPECT_EQ(HcclBroadcast(nullptr, 1, HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream), HCCL_E_PTR);
        EXPECT_TRUE(ErrorMentions({"buf is null"}));
        // The root's send buffer of a scatter matters; the others' do not.
        EXPECT_EQ(HcclScatter(nullptr, buf, 1, HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream),
                  r.rank == 0 ? HCCL_E_PTR : HCCL_SUCCESS);
        // Only the root receives a reduce.
        EXPECT_EQ(
            HcclReduce(buf, nullptr, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 1, r.comm, r.stream),
            r.rank == 1 ? HCCL_E_PTR : HCCL_SUCCESS);
        HcclSendRecvItem item{HCCL_RECV, nullptr, 4, HCCL_DATA_TYPE_FP32, 1 - r.rank};
        EXPECT_EQ(HcclBatchSendRecv(&item, 1, r.comm, r.stream), HCCL_E_PTR);
        EXPECT_EQ(HcclBatchSendRecv(nullptr, 1, r.comm, r.stream), HCCL_E_PTR);
        EXPECT_TRUE(ErrorMentions({"sendRecvInfo is null"}));
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, NullCountArraysAreRefused) {
    RunRanks(1, [](Rank& r) {
        void* send = Filled(64, 0);
        void* recv = Filled(64, 0);
        const uint64_t one[1] = {1};
        EXPECT_EQ(
            HcclAllGatherV(send, 1, recv, nullptr, one, HCCL_DATA_TYPE_INT8, r.comm, r.stream),
            HCCL_E_PTR);
        EXPECT_TRUE(ErrorMentions({"recvCounts is null"}));
        EXPECT_EQ(HcclReduceScatterV(send, one, nullptr, recv, 1, HCCL_DATA_TYPE_INT8,
                                     HCCL_REDUCE_SUM, r.comm, r.stream),
                  HCCL_E_PTR);
        EXPECT_TRUE(ErrorMentions({"sendDispls is null"}));
        EXPECT_EQ(HcclAlltoAllV(send, one, one, HCCL_DATA_TYPE_INT8, recv, one, nullptr,
                                HCCL_DATA_TYPE_INT8, r.comm, r.stream),
                  HCCL_E_PTR);
        EXPECT_TRUE(ErrorMentions({"rdispls is null"}));
        EXPECT_EQ(HcclAlltoAllVC(send, nullptr, HCCL_DATA_TYPE_INT8, recv, HCCL_DATA_TYPE_INT8,
                                 r.comm, r.stream),
                  HCCL_E_PTR);
        EXPECT_TRUE(ErrorMentions({"sendCountMatrix is null"}));
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, HostMemoryInsteadOfDeviceMemoryIsRefused) {
    RunRanks(1, [](Rank& r) {
        void* device = Filled(kCount * 4, 0);
        void* heap = std::malloc(kCount * 4);
        EXPECT_EQ(HcclAllReduce(heap, device, kCount, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm,
                                r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"sendBuf", "host memory", "aclrtMalloc"}));
        void* pinned = nullptr;
        ASSERT_EQ(aclrtMallocHost(&pinned, kCount * 4), ACL_SUCCESS);
        EXPECT_EQ(HcclAllReduce(device, pinned, kCount, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM,
                                r.comm, r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"recvBuf", "pinned host memory"}));
        std::free(heap);
        aclrtFreeHost(pinned);
        aclrtFree(device);
    });
}

TEST_F(HcclTest, FreedDeviceMemoryIsRefused) {
    RunRanks(1, [](Rank& r) {
        void* freed = Filled(kCount * 4, 0);
        ASSERT_EQ(aclrtFree(freed), ACL_SUCCESS);
        EXPECT_EQ(HcclBroadcast(freed, kCount, HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"buf", "freed device memory"}));
    });
}

TEST_F(HcclTest, BufferSmallerThanTheCountSaysIsRefused) {
    // aclrtMalloc's allocations have the runtime's padding: the size rounded up to 32 bytes,
    // plus 32. A 64-byte allocation has 96 usable bytes; a 4096-byte one 4128.
    RunRanks(2, [](Rank& r) {
        void* small = Filled(64, 0);
        void* big = Filled(4096, 0);
        EXPECT_EQ(
            HcclAllReduce(big, small, 25, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"recvBuf", "needs 100 bytes", "has 96"}));
        // An AllGather's receive buffer holds every rank's block: 2 x 13 floats.
        EXPECT_EQ(HcclAllGather(big, small, 13, HCCL_DATA_TYPE_FP32, r.comm, r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"recvBuf", "needs 104 bytes"}));
        // A pointer inside an allocation has only the rest of it.
        EXPECT_EQ(HcclBroadcast(static_cast<char*>(big) + 4000, 33, HCCL_DATA_TYPE_FP32, 0, r.comm,
                                r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"needs 132 bytes", "has 128"}));
        // The V forms need what their largest displacement plus count reaches.
        const uint64_t counts[2] = {4, 4};
        const uint64_t displs[2] = {0, 1030};
        EXPECT_EQ(
            HcclAllGatherV(small, 4, big, counts, displs, HCCL_DATA_TYPE_FP32, r.comm, r.stream),
            HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"recvBuf", "needs 4136 bytes"}));
        aclrtFree(small);
        aclrtFree(big);
    });
}

TEST_F(HcclTest, CountsWhoseByteSizeOverflowAreRefused) {
    RunRanks(2, [](Rank& r) {
        void* buf = Filled(4096, 0);
        // 2^62 floats are 2^64 bytes: zero when the multiplication wraps.
        const uint64_t huge = uint64_t{1} << 62;
        EXPECT_EQ(
            HcclAllReduce(buf, buf, huge, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"count"}));
        EXPECT_EQ(
            HcclAllGather(buf, buf, uint64_t{1} << 61, HCCL_DATA_TYPE_INT32, r.comm, r.stream),
            HCCL_E_PARA);
        const uint64_t counts[2] = {4, 4};
        const uint64_t displs[2] = {0, ~uint64_t{0} - 1};
        EXPECT_EQ(HcclAllGatherV(buf, 4, static_cast<char*>(buf) + 1024, counts, displs,
                                 HCCL_DATA_TYPE_INT8, r.comm, r.stream),
                  HCCL_E_PARA);
        const uint64_t matrix[4] = {~uint64_t{0}, 1, 1, ~uint64_t{0}};  // every row overflows
        EXPECT_EQ(HcclAlltoAllVC(buf, matrix, HCCL_DATA_TYPE_INT8, static_cast<char*>(buf) + 1024,
                                 HCCL_DATA_TYPE_INT8, r.comm, r.stream),
                  HCCL_E_PARA);
        // Nothing was enqueued: the stream is clean and the ranks are in step.
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, MemoryOfAnotherDeviceIsRefused) {
    RunRanks(1, [](Rank& r) {
        void* mine = Filled(kCount * 4, 0);
        ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
        void* theirs = Filled(kCount * 4, 0);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        EXPECT_EQ(HcclAllReduce(mine, theirs, kCount, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm,
                                r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"recvBuf", "memory of device 1", "on device 0"}));
        aclrtFree(mine);
        aclrtFree(theirs);
    });
}

TEST_F(HcclTest, StreamOfAnotherDeviceIsRefused) {
    RunRanks(1, [](Rank& r) {
        void* buf = Filled(kCount * 4, 0);
        ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
        aclrtStream other = nullptr;
        ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
        // Device 1 current, its stream, device 0's rank.
        EXPECT_EQ(
            HcclAllReduce(buf, buf, kCount, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, other),
            HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"device 1", "device 0"}));
        EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        // Device 0 current and device 0's rank, but a destroyed stream.
        EXPECT_EQ(
            HcclAllReduce(buf, buf, kCount, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, other),
            HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"not a live stream"}));
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, UnknownDataTypeIsRefused) {
    RunRanks(1, [](Rank& r) {
        void* buf = Filled(256, 0);
        for (int type : {13, 18, 255, -1}) {
            EXPECT_EQ(HcclBroadcast(buf, 1, static_cast<HcclDataType>(type), 0, r.comm, r.stream),
                      HCCL_E_PARA)
                << type;
        }
        EXPECT_TRUE(ErrorMentions({"-1 is not an HcclDataType"}));
        EXPECT_EQ(HcclAllReduce(buf, buf, 1, static_cast<HcclDataType>(13), HCCL_REDUCE_SUM, r.comm,
                                r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"13 is not an HcclDataType"}));
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, UnknownReduceOpIsRefused) {
    RunRanks(1, [](Rank& r) {
        void* buf = Filled(256, 0);
        EXPECT_EQ(HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_FP32, static_cast<HcclReduceOp>(4),
                                r.comm, r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"op 4", "HcclReduceOp"}));
        EXPECT_EQ(HcclReduceScatter(buf, buf, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_RESERVED, r.comm,
                                    r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"op 255"}));
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, RootOutOfRangeIsRefused) {
    RunRanks(2, [](Rank& r) {
        void* buf = Filled(256, 0);
        EXPECT_EQ(HcclBroadcast(buf, 1, HCCL_DATA_TYPE_FP32, 2, r.comm, r.stream), HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"root 2 is out of range", "0..1"}));
        EXPECT_EQ(
            HcclReduce(buf, buf, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 7, r.comm, r.stream),
            HCCL_E_PARA);
        EXPECT_EQ(HcclScatter(buf, buf, 1, HCCL_DATA_TYPE_FP32, ~0u, r.comm, r.stream),
                  HCCL_E_PARA);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, PeerOutOfRangeOrSelfIsRefused) {
    RunRanks(2, [](Rank& r) {
        void* buf = Filled(256, 0);
        EXPECT_EQ(HcclSend(buf, 1, HCCL_DATA_TYPE_FP32, 2, r.comm, r.stream), HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"destRank 2 is out of range"}));
        EXPECT_EQ(HcclRecv(buf, 1, HCCL_DATA_TYPE_FP32, r.rank, r.comm, r.stream), HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"srcRank", "this rank itself"}));
        HcclSendRecvItem self{HCCL_SEND, buf, 1, HCCL_DATA_TYPE_FP32, r.rank};
        EXPECT_EQ(HcclBatchSendRecv(&self, 1, r.comm, r.stream), HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"remoteRank", "this rank itself"}));
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, BatchItemsOfUnknownKindOrRepeatedPeerAreRefused) {
    RunRanks(2, [](Rank& r) {
        void* a = Filled(64, 0);
        void* b = Filled(64, 0);
        const uint32_t peer = 1 - r.rank;
        HcclSendRecvItem unknown{HCCL_SEND_RECV_RESERVED, a, 4, HCCL_DATA_TYPE_FP32, peer};
        EXPECT_EQ(HcclBatchSendRecv(&unknown, 1, r.comm, r.stream), HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"sendRecvInfo[0].sendRecvType"}));
        HcclSendRecvItem twice[2] = {{HCCL_SEND, a, 4, HCCL_DATA_TYPE_FP32, peer},
                                     {HCCL_SEND, b, 4, HCCL_DATA_TYPE_FP32, peer}};
        EXPECT_EQ(HcclBatchSendRecv(twice, 2, r.comm, r.stream), HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"sendRecvInfo[1]", "second send"}));
        aclrtFree(a);
        aclrtFree(b);
    });
}

TEST_F(HcclTest, ReductionsOfTypesWithoutArithmeticAreNotSupported) {
    RunRanks(1, [](Rank& r) {
        void* buf = Filled(256, 0);
        const uint64_t one[1] = {1};
        for (HcclDataType type : kMovedOnlyTypes) {
            EXPECT_EQ(HcclAllReduce(buf, buf, 1, type, HCCL_REDUCE_SUM, r.comm, r.stream),
                      HCCL_E_NOT_SUPPORT)
                << Describe(type);
            EXPECT_EQ(HcclReduce(buf, buf, 1, type, HCCL_REDUCE_MAX, 0, r.comm, r.stream),
                      HCCL_E_NOT_SUPPORT)
                << Describe(type);
            EXPECT_EQ(HcclReduceScatter(buf, buf, 1, type, HCCL_REDUCE_MIN, r.comm, r.stream),
                      HCCL_E_NOT_SUPPORT)
                << Describe(type);
            EXPECT_EQ(
                HcclReduceScatterV(buf, one, one, buf, 1, type, HCCL_REDUCE_PROD, r.comm, r.stream),
                HCCL_E_NOT_SUPPORT)
                << Describe(type);
        }
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_FP8E4M3, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_E_NOT_SUPPORT);
        EXPECT_TRUE(ErrorMentions({"fp8e4m3 cannot be reduced"}));
        // Moving them is fine.
        EXPECT_EQ(HcclBroadcast(buf, 4, HCCL_DATA_TYPE_FP8E4M3, 0, r.comm, r.stream), HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, AlltoAllNeedsEqualSendAndReceiveShapes) {
    RunRanks(1, [](Rank& r) {
        void* send = Filled(256, 0);
        void* recv = Filled(256, 0);
        EXPECT_EQ(HcclAlltoAll(send, 4, HCCL_DATA_TYPE_FP32, recv, 4, HCCL_DATA_TYPE_INT32, r.comm,
                               r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"types must be equal"}));
        EXPECT_EQ(HcclAlltoAll(send, 4, HCCL_DATA_TYPE_FP32, recv, 8, HCCL_DATA_TYPE_FP32, r.comm,
                               r.stream),
                  HCCL_E_PARA);
        const uint64_t one[1] = {1};
        EXPECT_EQ(HcclAlltoAllV(send, one, one, HCCL_DATA_TYPE_FP16, recv, one, one,
                                HCCL_DATA_TYPE_BFP16, r.comm, r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"recvType"}));
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, SameBufferWhereSeparateOnesAreNeededIsRefused) {
    RunRanks(1, [](Rank& r) {
        void* buf = Filled(256, 0);
        const uint64_t one[1] = {1}, zero[1] = {0};
        EXPECT_EQ(HcclAlltoAll(buf, 1, HCCL_DATA_TYPE_FP32, buf, 1, HCCL_DATA_TYPE_FP32, r.comm,
                               r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"HcclAlltoAll", "separate"}));
        EXPECT_EQ(HcclAllGatherV(buf, 1, buf, one, zero, HCCL_DATA_TYPE_FP32, r.comm, r.stream),
                  HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"HcclAllGatherV", "separate"}));
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, AllGatherVCountOfThisRankMustBeItsSendCount) {
    RunRanks(2, [](Rank& r) {
        void* send = Filled(64, 0);
        void* recv = Filled(64, 0);
        const uint64_t counts[2] = {3, 3};
        const uint64_t displs[2] = {0, 3};
        EXPECT_EQ(
            HcclAllGatherV(send, 2, recv, counts, displs, HCCL_DATA_TYPE_FP32, r.comm, r.stream),
            HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"recvCounts", "sendCount"}));
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, RefusedCallTakesNoTurnInTheOrderOfCollectives) {
    RunRanks(3, [](Rank& r) {
        void* buf = r.Upload(std::vector<int32_t>{static_cast<int32_t>(r.rank)});
        // Rank 1 makes a mistake; the call is refused and never meets the others.
        if (r.rank == 1) {
            EXPECT_EQ(HcclAllReduce(buf, buf, 1, static_cast<HcclDataType>(99), HCCL_REDUCE_SUM,
                                    r.comm, r.stream),
                      HCCL_E_PARA);
        }
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<int32_t>(buf, 1)[0], 3);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, CollectiveWithoutACurrentDeviceIsRefused) {
    RunRanks(1, [](Rank& r) {
        void* buf = Filled(64, 0);
        std::thread([&] {
            // A thread that never set a device, with an explicit stream.
            EXPECT_NE(
                HcclAllReduce(buf, buf, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
                HCCL_SUCCESS);
            EXPECT_FALSE(RecentError().empty());
        }).join();
        aclrtFree(buf);
    });
}

}  // namespace
