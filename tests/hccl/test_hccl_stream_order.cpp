// A collective is one task of its stream: ordered with the stream's copies and events, several
// in a row run in order without host synchronisation, synchronisation waits for them, and a
// captured model runtime instance replays them.
#include <chrono>
#include <future>
#include <latch>

#include "hccl_test_support.h"

namespace {

using namespace hccl_test;

constexpr uint64_t kCount = 256;

TEST_F(HcclTest, CollectiveSeesTheCopiesQueuedBeforeItAndTheCopiesAfterItSeeItsResult) {
    RunRanks(3, [](Rank& r) {
        constexpr size_t kBytes = kCount * sizeof(int32_t);
        void* host_in = nullptr;
        void* host_out = nullptr;
        ASSERT_EQ(aclrtMallocHost(&host_in, kBytes), ACL_SUCCESS);
        ASSERT_EQ(aclrtMallocHost(&host_out, kBytes), ACL_SUCCESS);
        for (uint64_t i = 0; i < kCount; ++i)
            static_cast<int32_t*>(host_in)[i] = static_cast<int32_t>(r.rank * 1000 + i);
        std::memset(host_out, 0, kBytes);
        void* send = Filled(kBytes, 0);
        void* recv = Filled(kBytes, 0);
        // Copy in, reduce, copy out: all queued, one synchronisation.
        EXPECT_EQ(
            aclrtMemcpyAsync(send, kBytes, host_in, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, r.stream),
            ACL_SUCCESS);
        EXPECT_EQ(HcclAllReduce(send, recv, kCount, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm,
                                r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(
            aclrtMemcpyAsync(host_out, kBytes, recv, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, r.stream),
            ACL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        for (uint64_t i = 0; i < kCount; ++i) {
            ASSERT_EQ(static_cast<int32_t*>(host_out)[i], static_cast<int32_t>(3000 + 3 * i))
                << "element " << i;
        }
        aclrtFreeHost(host_in);
        aclrtFreeHost(host_out);
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, EventRecordedAfterACollectiveCompletesOnlyOnceEveryRankIssuedIt) {
    std::latch rank0_checked(1);
    RunRanks(2, [&](Rank& r) {
        aclrtEvent done = nullptr;
        ASSERT_EQ(aclrtCreateEvent(&done), ACL_SUCCESS);
        void* buf = r.Upload(std::vector<int32_t>(kCount, static_cast<int32_t>(r.rank + 1)));
        if (r.rank == 1) rank0_checked.wait();
        EXPECT_EQ(HcclAllReduce(buf, buf, kCount, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm,
                                r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(aclrtRecordEvent(done, r.stream), ACL_SUCCESS);
        if (r.rank == 0) {
            aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
            EXPECT_EQ(aclrtQueryEventStatus(done, &status), ACL_SUCCESS);
            EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY)
                << "the event fired before rank 1 issued the AllReduce";
            rank0_checked.count_down();
        }
        EXPECT_EQ(aclrtSynchronizeEvent(done), ACL_SUCCESS);
        // The event fired after the AllReduce: its result is there without a stream sync.
        EXPECT_EQ(r.Download<int32_t>(buf, kCount), std::vector<int32_t>(kCount, 3));
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        aclrtDestroyEvent(done);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, SynchronizeStreamWaitsForAParkedCollective) {
    std::latch rank0_waiting(1);
    RunRanks(2, [&](Rank& r) {
        void* buf = r.Upload(std::vector<float>(kCount, 1.0f));
        if (r.rank == 1) rank0_waiting.wait();
        EXPECT_EQ(
            HcclAllReduce(buf, buf, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        if (r.rank == 0) {
            auto sync = std::async(std::launch::async, [&] {
                EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
                return r.Sync();
            });
            EXPECT_EQ(sync.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout)
                << "aclrtSynchronizeStream returned before rank 1 issued the AllReduce";
            rank0_waiting.count_down();
            EXPECT_EQ(sync.get(), ACL_SUCCESS);
        } else {
            EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        }
        EXPECT_EQ(r.Download<float>(buf, kCount), std::vector<float>(kCount, 2.0f));
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, BackToBackCollectivesRunInStreamOrder) {
    RunRanks(4, [](Rank& r) {
        // Each step reads what the one before wrote; nothing synchronises in between.
        void* a = r.Upload(std::vector<int64_t>(kCount, r.rank + 1));
        void* gathered = r.Upload(std::vector<int64_t>(4 * kCount, 0));
        void* scattered = r.Upload(std::vector<int64_t>(kCount, 0));
        for (int i = 0; i < 10; ++i) {  // (1 + 2 + 3 + 4) * 4^9
            EXPECT_EQ(HcclAllReduce(a, a, kCount, HCCL_DATA_TYPE_INT64, HCCL_REDUCE_SUM, r.comm,
                                    r.stream),
                      HCCL_SUCCESS);
        }
        EXPECT_EQ(HcclBroadcast(a, kCount, HCCL_DATA_TYPE_INT64, 3, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclAllGather(a, gathered, kCount, HCCL_DATA_TYPE_INT64, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclReduceScatter(gathered, scattered, kCount, HCCL_DATA_TYPE_INT64,
                                    HCCL_REDUCE_MAX, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        const int64_t expected = 10 * (int64_t{1} << 18);
        EXPECT_EQ(r.Download<int64_t>(scattered, kCount), std::vector<int64_t>(kCount, expected));
        aclrtFree(a);
        aclrtFree(gathered);
        aclrtFree(scattered);
    });
}

TEST_F(HcclTest, CollectivesOnTwoStreamsOfARankFollowTheirEvents) {
    RunRanks(2, [](Rank& r) {
        // The AllReduce runs on a second stream, after the first stream's copy (an event) and
        // before the first stream's read-back (another event).
        aclrtStream comm_stream = nullptr;
        aclrtEvent copied = nullptr, reduced = nullptr;
        ASSERT_EQ(aclrtCreateStream(&comm_stream), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateEvent(&copied), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateEvent(&reduced), ACL_SUCCESS);
        const std::vector<int32_t> mine(kCount, static_cast<int32_t>(r.rank + 5));
        void* staging = r.Upload(mine);
        void* buf = r.Upload(std::vector<int32_t>(kCount, 0));
        void* out = r.Upload(std::vector<int32_t>(kCount, 0));
        const size_t bytes = kCount * sizeof(int32_t);
        EXPECT_EQ(
            aclrtMemcpyAsync(buf, bytes, staging, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, r.stream),
            ACL_SUCCESS);
        EXPECT_EQ(aclrtRecordEvent(copied, r.stream), ACL_SUCCESS);
        EXPECT_EQ(aclrtStreamWaitEvent(comm_stream, copied), ACL_SUCCESS);
        EXPECT_EQ(HcclAllReduce(buf, buf, kCount, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_PROD, r.comm,
                                comm_stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(aclrtRecordEvent(reduced, comm_stream), ACL_SUCCESS);
        EXPECT_EQ(aclrtStreamWaitEvent(r.stream, reduced), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpyAsync(out, bytes, buf, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, r.stream),
                  ACL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<int32_t>(out, kCount), std::vector<int32_t>(kCount, 5 * 6));
        EXPECT_EQ(aclrtDestroyStream(comm_stream), ACL_SUCCESS);
        aclrtDestroyEvent(copied);
        aclrtDestroyEvent(reduced);
        aclrtFree(staging);
        aclrtFree(buf);
        aclrtFree(out);
    });
}

TEST_F(HcclTest, CapturedCollectivesReplayCorrectlyEveryTime) {
    RunRanks(3, [](Rank& r) {
        const size_t bytes = kCount * sizeof(float);
        void* send = Filled(bytes, 0);
        void* recv = Filled(bytes, 0);
        void* gathered = Filled(3 * bytes, 0);
        aclmdlRI model = nullptr;
        ASSERT_EQ(aclmdlRICaptureBegin(r.stream, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
                  ACL_SUCCESS);
        EXPECT_EQ(HcclAllReduce(send, recv, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm,
                                r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclAllGather(recv, gathered, kCount, HCCL_DATA_TYPE_FP32, r.comm, r.stream),
                  HCCL_SUCCESS);
        ASSERT_EQ(aclmdlRICaptureEnd(r.stream, &model), ACL_SUCCESS);
        // Nothing ran while capturing.
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<float>(recv, kCount), std::vector<float>(kCount, 0.0f));
        for (int replay = 1; replay <= 3; ++replay) {
            const float mine = static_cast<float>(replay * 10 + r.rank);
            const std::vector<float> input(kCount, mine);
            EXPECT_EQ(aclrtMemcpy(send, bytes, input.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
                      ACL_SUCCESS);
            EXPECT_EQ(aclmdlRIExecuteAsync(model, r.stream), ACL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS) << "replay " << replay;
            const float sum = static_cast<float>(replay * 30 + 3);
            EXPECT_EQ(r.Download<float>(recv, kCount), std::vector<float>(kCount, sum))
                << "replay " << replay;
            EXPECT_EQ(r.Download<float>(gathered, 3 * kCount), std::vector<float>(3 * kCount, sum))
                << "replay " << replay;
        }
        EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
        // The communicator still works, in step with the other ranks, after the replays.
        EXPECT_EQ(HcclAllReduce(send, recv, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, r.comm,
                                r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<float>(recv, kCount), std::vector<float>(kCount, 32.0f));
        aclrtFree(send);
        aclrtFree(recv);
        aclrtFree(gathered);
    });
}

TEST_F(HcclTest, CapturedSendsAndReceivesReplayCorrectlyEveryTime) {
    RunRanks(3, [](Rank& r) {
        // A ring: each rank sends to the next and receives from the previous, grouped so the
        // sends do not wait for each other.
        const uint32_t next = (r.rank + 1) % 3, previous = (r.rank + 2) % 3;
        void* send = Filled(kCount * 4, 0);
        void* recv = Filled(kCount * 4, 0);
        aclmdlRI model = nullptr;
        ASSERT_EQ(aclmdlRICaptureBegin(r.stream, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
                  ACL_SUCCESS);
        HcclSendRecvItem items[2] = {{HCCL_SEND, send, kCount, HCCL_DATA_TYPE_INT32, next},
                                     {HCCL_RECV, recv, kCount, HCCL_DATA_TYPE_INT32, previous}};
        EXPECT_EQ(HcclBatchSendRecv(items, 2, r.comm, r.stream), HCCL_SUCCESS);
        ASSERT_EQ(aclmdlRICaptureEnd(r.stream, &model), ACL_SUCCESS);
        for (int32_t replay = 1; replay <= 3; ++replay) {
            const std::vector<int32_t> input(kCount, replay * 10 + static_cast<int32_t>(r.rank));
            EXPECT_EQ(
                aclrtMemcpy(send, kCount * 4, input.data(), kCount * 4, ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
            EXPECT_EQ(aclmdlRIExecuteAsync(model, r.stream), ACL_SUCCESS);
            EXPECT_EQ(r.Sync(), ACL_SUCCESS) << "replay " << replay;
            EXPECT_EQ(r.Download<int32_t>(recv, kCount),
                      std::vector<int32_t>(kCount, replay * 10 + static_cast<int32_t>(previous)))
                << "replay " << replay;
        }
        EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
        aclrtFree(send);
        aclrtFree(recv);
    });
}

}  // namespace
