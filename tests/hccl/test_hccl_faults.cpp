// What the ranks get wrong together, and ranks that fail or go away: every rank's stream fails
// with the documented code, HcclGetCommAsyncError says why, the message names the problem
// (and the rank at fault), and waiting ranks learn of it promptly.
#include <chrono>
#include <latch>

#include "hccl_test_support.h"

namespace {

using namespace hccl_test;
using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// After the failing collective: the stream reports `code`, the message mentions `words`, the
// communicator's asynchronous error is `async`.
void ExpectStreamFailed(Rank& r, aclError code, HcclResult async,
                        std::initializer_list<const char*> words) {
    EXPECT_EQ(r.Sync(), code) << "rank " << r.rank;
    EXPECT_TRUE(ErrorMentions(words)) << "rank " << r.rank;
    HcclResult error = HCCL_SUCCESS;
    EXPECT_EQ(HcclGetCommAsyncError(r.comm, &error), HCCL_SUCCESS);
    EXPECT_EQ(error, async) << "rank " << r.rank;
}

// A collective after a disagreement still works: the failed one used up its turn on every rank.
void ExpectStillInStep(Rank& r) {
    void* buf = r.Upload(std::vector<int32_t>{1});
    EXPECT_EQ(HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
              HCCL_SUCCESS);
    EXPECT_EQ(r.Sync(), ACL_SUCCESS);
    EXPECT_EQ(r.Download<int32_t>(buf, 1)[0], static_cast<int32_t>(r.size));
    aclrtFree(buf);
}

TEST_F(HcclTest, RanksPassingDifferentDataTypesAllFail) {
    RunRanks(3, [](Rank& r) {
        void* buf = Filled(256, 0);
        const HcclDataType type = r.rank == 2 ? HCCL_DATA_TYPE_INT32 : HCCL_DATA_TYPE_FP32;
        EXPECT_EQ(HcclAllReduce(buf, buf, 8, type, HCCL_REDUCE_SUM, r.comm, r.stream),
                  HCCL_SUCCESS);
        ExpectStreamFailed(r, ACL_ERROR_RT_PARAM_INVALID, HCCL_E_PARA, {"data type"});
        ExpectStillInStep(r);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, RanksPassingDifferentReduceOpsAllFail) {
    RunRanks(2, [](Rank& r) {
        void* buf = Filled(256, 0);
        const HcclReduceOp op = r.rank == 0 ? HCCL_REDUCE_MAX : HCCL_REDUCE_MIN;
        EXPECT_EQ(HcclReduceScatter(buf, static_cast<char*>(buf) + 128, 4, HCCL_DATA_TYPE_FP32, op,
                                    r.comm, r.stream),
                  HCCL_SUCCESS);
        ExpectStreamFailed(r, ACL_ERROR_RT_PARAM_INVALID, HCCL_E_PARA,
                           {"reduce operation", "max", "min"});
        ExpectStillInStep(r);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, RanksPassingDifferentRootsAllFail) {
    RunRanks(3, [](Rank& r) {
        void* buf = Filled(256, 0);
        EXPECT_EQ(HcclBroadcast(buf, 8, HCCL_DATA_TYPE_INT8, r.rank == 1 ? 1 : 0, r.comm, r.stream),
                  HCCL_SUCCESS);
        ExpectStreamFailed(r, ACL_ERROR_RT_PARAM_INVALID, HCCL_E_PARA, {"root"});
        ExpectStillInStep(r);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, RanksPassingDifferentCountsAllFail) {
    RunRanks(2, [](Rank& r) {
        void* send = Filled(256, 0);
        void* recv = Filled(1024, 0);
        EXPECT_EQ(
            HcclAllGather(send, recv, r.rank == 0 ? 8 : 16, HCCL_DATA_TYPE_FP32, r.comm, r.stream),
            HCCL_SUCCESS);
        ExpectStreamFailed(r, ACL_ERROR_RT_PARAM_INVALID, HCCL_E_PARA, {"count", "8", "16"});
        ExpectStillInStep(r);
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, RanksIssuingDifferentCollectivesAllFail) {
    RunRanks(2, [](Rank& r) {
        void* buf = Filled(256, 0);
        if (r.rank == 0) {
            EXPECT_EQ(HcclBroadcast(buf, 8, HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream),
                      HCCL_SUCCESS);
        } else {
            EXPECT_EQ(HcclBarrier(r.comm, r.stream), HCCL_SUCCESS);
        }
        ExpectStreamFailed(r, ACL_ERROR_RT_PARAM_INVALID, HCCL_E_PARA,
                           {"HcclBroadcast", "HcclBarrier", "same order"});
        ExpectStillInStep(r);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, AllGatherVCountsThatDisagreeWithTheSenderAllFail) {
    RunRanks(2, [](Rank& r) {
        void* send = Filled(256, 0);
        void* recv = Filled(256, 0);
        // Rank 1 sends 4, but rank 0 expects 5 from it.
        const uint64_t counts0[2] = {4, 5}, counts1[2] = {4, 4};
        const uint64_t displs[2] = {0, 8};
        EXPECT_EQ(HcclAllGatherV(send, 4, recv, r.rank == 0 ? counts0 : counts1, displs,
                                 HCCL_DATA_TYPE_FP32, r.comm, r.stream),
                  HCCL_SUCCESS);
        ExpectStreamFailed(r, ACL_ERROR_RT_PARAM_INVALID, HCCL_E_PARA,
                           {"rank 0 expects 5", "recvCounts[1]"});
        ExpectStillInStep(r);
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, ReduceScatterVCountsThatDisagreeWithTheReceiverAllFail) {
    RunRanks(2, [](Rank& r) {
        void* send = Filled(256, 0);
        void* recv = Filled(256, 0);
        const uint64_t counts[2] = {3, 3}, displs[2] = {0, 3};
        // Rank 1 receives 2 where every rank sends it 3.
        EXPECT_EQ(HcclReduceScatterV(send, counts, displs, recv, r.rank == 1 ? 2 : 3,
                                     HCCL_DATA_TYPE_INT16, HCCL_REDUCE_SUM, r.comm, r.stream),
                  HCCL_SUCCESS);
        ExpectStreamFailed(r, ACL_ERROR_RT_PARAM_INVALID, HCCL_E_PARA,
                           {"sendCounts[1]", "receives 2"});
        ExpectStillInStep(r);
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, AlltoAllVCountsThatDisagreeBetweenAPairAllFail) {
    RunRanks(2, [](Rank& r) {
        void* send = Filled(256, 0);
        void* recv = Filled(256, 0);
        const uint64_t two[2] = {2, 2}, displs[2] = {0, 2};
        const uint64_t three[2] = {2, 3};
        // Rank 0 expects 3 from rank 1, which sends 2.
        EXPECT_EQ(
            HcclAlltoAllV(send, two, displs, HCCL_DATA_TYPE_FP32, recv, r.rank == 0 ? three : two,
                          displs, HCCL_DATA_TYPE_FP32, r.comm, r.stream),
            HCCL_SUCCESS);
        ExpectStreamFailed(r, ACL_ERROR_RT_PARAM_INVALID, HCCL_E_PARA,
                           {"rank 1 sends 2", "expects 3"});
        ExpectStillInStep(r);
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, SendAndRecvOfDifferentCountsBothFail) {
    RunRanks(2, [](Rank& r) {
        void* buf = Filled(256, 0);
        if (r.rank == 0) {
            EXPECT_EQ(HcclSend(buf, 8, HCCL_DATA_TYPE_FP32, 1, r.comm, r.stream), HCCL_SUCCESS);
        } else {
            EXPECT_EQ(HcclRecv(buf, 4, HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream), HCCL_SUCCESS);
        }
        ExpectStreamFailed(r, ACL_ERROR_RT_PARAM_INVALID, HCCL_E_PARA,
                           {"rank 0 sends 8 fp32 to rank 1, which receives 4 fp32"});
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, RankThatNeverIssuesItsCollectiveTimesTheOthersOut) {
    ScopedEnv timeout("HCCL_EXEC_TIMEOUT", "1");
    std::latch others_done(2);
    RunRanks(3, [&](Rank& r) {
        if (r.rank == 2) {  // never issues; leaves once the others have given up
            others_done.wait();
            return;
        }
        void* buf = Filled(64, 0);
        const auto start = Clock::now();
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        ExpectStreamFailed(r, ACL_ERROR_RT_TASK_TIMEOUT, HCCL_E_TIMEOUT,
                           {"rank 2 did not issue", "HcclAllReduce", "HCCL_EXEC_TIMEOUT"});
        const double waited = SecondsSince(start);
        EXPECT_GE(waited, 0.9);
        EXPECT_LT(waited, 5.0);
        others_done.count_down();
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, ExecutionTimeoutOfTheConfigTimesMissingRanksOut) {
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    config.hcclExecTimeOut = 1;
    std::latch rank0_done(1);
    RunRanks(
        2,
        [&](Rank& r) {
            if (r.rank == 1) {
                rank0_done.wait();
                return;
            }
            const auto start = Clock::now();
            EXPECT_EQ(HcclBarrier(r.comm, r.stream), HCCL_SUCCESS);
            ExpectStreamFailed(r, ACL_ERROR_RT_TASK_TIMEOUT, HCCL_E_TIMEOUT,
                               {"rank 1 did not issue", "HcclBarrier"});
            EXPECT_LT(SecondsSince(start), 5.0);
            rank0_done.count_down();
        },
        &config);
}

TEST_F(HcclTest, ReceiveWithoutASendTimesOut) {
    ScopedEnv timeout("HCCL_EXEC_TIMEOUT", "1");
    std::latch rank0_done(1);
    RunRanks(2, [&](Rank& r) {
        if (r.rank == 1) {
            rank0_done.wait();
            return;
        }
        void* buf = Filled(64, 0);
        EXPECT_EQ(HcclRecv(buf, 4, HCCL_DATA_TYPE_FP32, 1, r.comm, r.stream), HCCL_SUCCESS);
        ExpectStreamFailed(r, ACL_ERROR_RT_TASK_TIMEOUT, HCCL_E_TIMEOUT, {"rank 1 did not send"});
        rank0_done.count_down();
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, RankIssuingAfterTheTimeoutFailsTooAndTheRanksStayInStep) {
    ScopedEnv timeout("HCCL_EXEC_TIMEOUT", "1");
    std::latch rank0_timed_out(1);
    RunRanks(2, [&](Rank& r) {
        // A first collective that completes, then one that rank 1 issues only after rank 0
        // has timed out in it.
        ExpectStillInStep(r);
        void* buf = Filled(64, 0);
        if (r.rank == 1) rank0_timed_out.wait();
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        ExpectStreamFailed(r, ACL_ERROR_RT_TASK_TIMEOUT, HCCL_E_TIMEOUT,
                           {"rank 1 did not issue collective #1"});
        if (r.rank == 0) rank0_timed_out.count_down();
        ExpectStillInStep(r);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, SendIssuedAfterItsReceiveTimedOutFailsTooAndThePairStaysInStep) {
    ScopedEnv timeout("HCCL_EXEC_TIMEOUT", "1");
    std::latch rank0_timed_out(1);
    RunRanks(2, [&](Rank& r) {
        void* buf = Filled(64, 0);
        if (r.rank == 0) {
            EXPECT_EQ(HcclRecv(buf, 4, HCCL_DATA_TYPE_FP32, 1, r.comm, r.stream), HCCL_SUCCESS);
            ExpectStreamFailed(r, ACL_ERROR_RT_TASK_TIMEOUT, HCCL_E_TIMEOUT,
                               {"rank 1 did not send"});
            rank0_timed_out.count_down();
        } else {
            rank0_timed_out.wait();
            EXPECT_EQ(HcclSend(buf, 4, HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream), HCCL_SUCCESS);
            ExpectStreamFailed(r, ACL_ERROR_RT_TASK_TIMEOUT, HCCL_E_TIMEOUT,
                               {"the matching receive of rank 0 failed"});
        }
        // The late send met the receive that timed out; the next pair meets as issued.
        void* data = r.Upload(std::vector<int32_t>{r.rank == 1 ? 42 : 0});
        if (r.rank == 0) {
            EXPECT_EQ(HcclRecv(data, 1, HCCL_DATA_TYPE_INT32, 1, r.comm, r.stream), HCCL_SUCCESS);
        } else {
            EXPECT_EQ(HcclSend(data, 1, HCCL_DATA_TYPE_INT32, 0, r.comm, r.stream), HCCL_SUCCESS);
        }
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<int32_t>(data, 1)[0], 42);
        aclrtFree(buf);
        aclrtFree(data);
    });
}

TEST_F(HcclTest, DestroyingARankFailsThePeersWaitingForItPromptly) {
    std::latch others_queued(2);
    RunRanks(3, [&](Rank& r) {
        if (r.rank == 0) {  // leaves without issuing the collective the others wait in
            others_queued.wait();
            ASSERT_EQ(HcclCommDestroy(r.comm), HCCL_SUCCESS);
            r.comm = nullptr;
            return;
        }
        void* buf = Filled(64, 0);
        const auto start = Clock::now();
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        others_queued.count_down();
        ExpectStreamFailed(r, ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, HCCL_E_REMOTE,
                           {"rank 0 destroyed its communicator"});
        EXPECT_LT(SecondsSince(start), 5.0) << "far below the 60 s execution timeout";
        // Later collectives fail at once too.
        EXPECT_EQ(HcclBarrier(r.comm, r.stream), HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_ERROR_RT_SUSPECT_REMOTE_ERROR);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, DestroyingARankFailsThePeerWaitingToReceiveFromIt) {
    std::latch rank1_queued(1);
    RunRanks(2, [&](Rank& r) {
        if (r.rank == 0) {
            rank1_queued.wait();
            ASSERT_EQ(HcclCommDestroy(r.comm), HCCL_SUCCESS);
            r.comm = nullptr;
            return;
        }
        void* buf = Filled(64, 0);
        EXPECT_EQ(HcclRecv(buf, 4, HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream), HCCL_SUCCESS);
        rank1_queued.count_down();
        ExpectStreamFailed(r, ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, HCCL_E_REMOTE,
                           {"rank 0 destroyed its communicator"});
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, DestroyWaitsForTheRanksQueuedCollectives) {
    // A program may destroy its communicator right after its last enqueue.
    std::latch rank0_destroying(1);
    RunRanks(2, [&](Rank& r) {
        void* buf = r.Upload(std::vector<int32_t>{static_cast<int32_t>(r.rank + 1)});
        if (r.rank == 1) rank0_destroying.wait();
        EXPECT_EQ(
            HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        if (r.rank == 0) {
            // Destroy on another thread, so rank 1 issues only once it is under way.
            std::thread destroy([&] { EXPECT_EQ(HcclCommDestroy(r.comm), HCCL_SUCCESS); });
            rank0_destroying.count_down();
            destroy.join();
            r.comm = nullptr;
        }
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<int32_t>(buf, 1)[0], 3);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, CollectiveWhoseBufferWasFreedWhileItWaitedWritesNothing) {
    std::latch rank0_freed(1);
    RunRanks(2, [&](Rank& r) {
        void* send = Filled(64, 1);
        void* recv = Filled(64, 0);
        if (r.rank == 1) rank0_freed.wait();
        EXPECT_EQ(
            HcclAllReduce(send, recv, 16, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        if (r.rank == 0) {  // frees its receive buffer while the AllReduce waits for rank 1
            EXPECT_EQ(aclrtFree(recv), ACL_SUCCESS);
            recv = nullptr;
            rank0_freed.count_down();
        }
        // Copies fail the same way when their memory is freed under them.
        ExpectStreamFailed(r, ACL_ERROR_RT_COPY_DATA, HCCL_E_MEMORY,
                           {"rank 0", "recvBuf", "freed while the operation waited"});
        if (recv != nullptr) {
            EXPECT_EQ(Download(recv, 64), Bytes(64, 0)) << "nothing was written";
            aclrtFree(recv);
        }
        ExpectStillInStep(r);
        aclrtFree(send);
    });
}

TEST_F(HcclTest, ReceiveWhoseBufferWasFreedWhileItWaitedFailsTheSenderToo) {
    std::latch rank0_freed(1), rank1_done(1);
    RunRanks(2, [&](Rank& r) {
        void* buf = Filled(64, 7);
        if (r.rank == 0) {
            EXPECT_EQ(HcclRecv(buf, 16, HCCL_DATA_TYPE_FP32, 1, r.comm, r.stream), HCCL_SUCCESS);
            EXPECT_EQ(aclrtFree(buf), ACL_SUCCESS);
            buf = nullptr;
            rank0_freed.count_down();
        } else {
            rank0_freed.wait();
            EXPECT_EQ(HcclSend(buf, 16, HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream), HCCL_SUCCESS);
        }
        ExpectStreamFailed(r, ACL_ERROR_RT_COPY_DATA, HCCL_E_MEMORY,
                           {"rank 0", "recvBuf", "freed"});
        // Rank 0 stays until rank 1 has met its failed receive (a rank that left is a
        // different failure).
        if (r.rank == 1) rank1_done.count_down();
        if (r.rank == 0) rank1_done.wait();
        if (buf != nullptr) aclrtFree(buf);
    });
}

TEST_F(HcclTest, ForceDestroyingAStreamWithAParkedCollectiveFailsThePeers) {
    std::latch rank0_destroyed(1);
    RunRanks(2, [&](Rank& r) {
        void* buf = r.Upload(std::vector<int32_t>{static_cast<int32_t>(r.rank + 1)});
        if (r.rank == 0) {
            // Two collectives: the first parks waiting for rank 1, the second waits behind it.
            EXPECT_EQ(
                HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
                HCCL_SUCCESS);
            EXPECT_EQ(HcclBarrier(r.comm, r.stream), HCCL_SUCCESS);
            EXPECT_EQ(aclrtDestroyStreamForce(r.stream), ACL_SUCCESS);
            ASSERT_EQ(aclrtCreateStream(&r.stream), ACL_SUCCESS);
            rank0_destroyed.count_down();
        } else {
            rank0_destroyed.wait();
            EXPECT_EQ(
                HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
                HCCL_SUCCESS);
            EXPECT_EQ(HcclBarrier(r.comm, r.stream), HCCL_SUCCESS);
            ExpectStreamFailed(r, ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, HCCL_E_REMOTE, {"rank 0"});
        }
        // Both discarded collectives used up rank 0's turns: the next ones meet.
        void* one = r.Upload(std::vector<int32_t>{1});
        EXPECT_EQ(
            HcclAllReduce(one, one, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<int32_t>(one, 1)[0], 2);
        aclrtFree(buf);
        aclrtFree(one);
    });
}

TEST_F(HcclTest, CollectiveSkippedAfterAFailureStillTakesItsTurn) {
    RunRanks(2, [](Rank& r) {
        // Rank 0's stream stops after a failure: its second collective is skipped, not run.
        if (r.rank == 0) {
            ASSERT_EQ(aclrtSetStreamFailureMode(r.stream, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
        }
        void* buf = r.Upload(std::vector<int32_t>(8, 1));
        EXPECT_EQ(HcclAllReduce(buf, buf, r.rank == 0 ? 8 : 4, HCCL_DATA_TYPE_INT32,
                                HCCL_REDUCE_SUM, r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(HcclBarrier(r.comm, r.stream), HCCL_SUCCESS);
        // The first failure (the disagreement) is what both streams report.
        EXPECT_EQ(r.Sync(), ACL_ERROR_RT_PARAM_INVALID);
        // The skipped barrier used up rank 0's turn, so the next collectives meet.
        ExpectStillInStep(r);
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, ForceDestroyingAStreamWithAParkedReceiveFailsTheSender) {
    std::latch rank0_destroyed(1);
    RunRanks(2, [&](Rank& r) {
        void* buf = Filled(64, 0);
        if (r.rank == 0) {
            EXPECT_EQ(HcclRecv(buf, 4, HCCL_DATA_TYPE_FP32, 1, r.comm, r.stream), HCCL_SUCCESS);
            EXPECT_EQ(aclrtDestroyStreamForce(r.stream), ACL_SUCCESS);
            ASSERT_EQ(aclrtCreateStream(&r.stream), ACL_SUCCESS);
            rank0_destroyed.count_down();
        } else {
            rank0_destroyed.wait();
            EXPECT_EQ(HcclSend(buf, 4, HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream), HCCL_SUCCESS);
            ExpectStreamFailed(r, ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, HCCL_E_REMOTE, {"rank 0"});
        }
        // The pair is in step again.
        if (r.rank == 0) {
            EXPECT_EQ(HcclRecv(buf, 4, HCCL_DATA_TYPE_FP32, 1, r.comm, r.stream), HCCL_SUCCESS);
        } else {
            EXPECT_EQ(HcclSend(buf, 4, HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream), HCCL_SUCCESS);
        }
        EXPECT_EQ(r.Sync(), ACL_SUCCESS);
        aclrtFree(buf);
    });
}

// ---- Communicator creation ------------------------------------------------------------

class HcclInitTest : public HcclTest {
 protected:
    void SetUp() override {
        HcclTest::SetUp();
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(HcclGetRootInfo(&root_), HCCL_SUCCESS);
    }

    // Joins as `rank` of `n` on `device` from a thread of its own.
    std::thread Join(uint32_t n, uint32_t rank, int32_t device, HcclResult* result,
                     std::string* message, HcclComm* comm) {
        return std::thread([=, this] {
            EXPECT_EQ(aclrtSetDevice(device), ACL_SUCCESS);
            *result = HcclCommInitRootInfo(n, &root_, rank, comm);
            *message = RecentError();
        });
    }

    HcclRootInfo root_;
};

TEST_F(HcclInitTest, RankThatNeverJoinsTimesTheOthersOut) {
    ScopedEnv timeout("HCCL_CONNECT_TIMEOUT", "1");
    HcclComm comm = nullptr;
    const auto start = Clock::now();
    EXPECT_EQ(HcclCommInitRootInfo(3, &root_, 0, &comm), HCCL_E_TIMEOUT);
    EXPECT_TRUE(ErrorMentions({"1, 2 of 3 did not join", "HCCL_CONNECT_TIMEOUT"}));
    EXPECT_LT(SecondsSince(start), 5.0);
    EXPECT_EQ(comm, nullptr);
}

TEST_F(HcclInitTest, RanksDisagreeingOnTheRankCountFail) {
    ScopedEnv timeout("HCCL_CONNECT_TIMEOUT", "1");
    HcclResult results[2];
    std::string messages[2];
    HcclComm comms[2] = {};
    std::thread a = Join(2, 0, 0, &results[0], &messages[0], &comms[0]);
    std::thread b = Join(3, 1, 1, &results[1], &messages[1], &comms[1]);
    a.join();
    b.join();
    // The second to join is refused at once; the first waits in vain.
    const int refused = results[0] == HCCL_E_PARA ? 0 : 1;
    EXPECT_EQ(results[refused], HCCL_E_PARA);
    EXPECT_NE(messages[refused].find("every rank must pass the same nRanks"), std::string::npos)
        << messages[refused];
    EXPECT_EQ(results[1 - refused], HCCL_E_TIMEOUT);
}

TEST_F(HcclInitTest, RankJoiningTwiceIsRefused) {
    ScopedEnv timeout("HCCL_CONNECT_TIMEOUT", "1");
    HcclResult results[2];
    std::string messages[2];
    HcclComm comms[2] = {};
    std::thread a = Join(2, 0, 0, &results[0], &messages[0], &comms[0]);
    std::thread b = Join(2, 0, 1, &results[1], &messages[1], &comms[1]);
    a.join();
    b.join();
    const int refused = results[0] == HCCL_E_PARA ? 0 : 1;
    EXPECT_EQ(results[refused], HCCL_E_PARA);
    EXPECT_NE(messages[refused].find("rank 0 has already joined"), std::string::npos)
        << messages[refused];
    EXPECT_EQ(results[1 - refused], HCCL_E_TIMEOUT);
}

TEST_F(HcclInitTest, TwoRanksOnOneDeviceAreRefused) {
    ScopedEnv timeout("HCCL_CONNECT_TIMEOUT", "1");
    HcclResult results[2];
    std::string messages[2];
    HcclComm comms[2] = {};
    std::thread a = Join(2, 0, 2, &results[0], &messages[0], &comms[0]);
    std::thread b = Join(2, 1, 2, &results[1], &messages[1], &comms[1]);
    a.join();
    b.join();
    const int refused = results[0] == HCCL_E_PARA ? 0 : 1;
    EXPECT_EQ(results[refused], HCCL_E_PARA);
    EXPECT_NE(messages[refused].find("both on device 2"), std::string::npos) << messages[refused];
    EXPECT_EQ(results[1 - refused], HCCL_E_TIMEOUT);
}

TEST_F(HcclInitTest, RootInfoNotMadeByGetRootInfoIsRefused) {
    HcclRootInfo garbage;
    std::memset(&garbage, 0x5a, sizeof garbage);
    HcclComm comm = nullptr;
    EXPECT_EQ(HcclCommInitRootInfo(1, &garbage, 0, &comm), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"HcclGetRootInfo", "4108"}));
    EXPECT_EQ(HcclCommInitRootInfo(1, nullptr, 0, &comm), HCCL_E_PTR);
    EXPECT_EQ(HcclCommInitRootInfo(1, &root_, 0, nullptr), HCCL_E_PTR);
    EXPECT_EQ(HcclGetRootInfo(nullptr), HCCL_E_PTR);
}

TEST_F(HcclInitTest, RankOutOfRangeOrNoRanksIsRefused) {
    HcclComm comm = nullptr;
    EXPECT_EQ(HcclCommInitRootInfo(2, &root_, 2, &comm), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"rank 2 is out of range", "0..1"}));
    EXPECT_EQ(HcclCommInitRootInfo(0, &root_, 0, &comm), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"nRanks is 0"}));
}

TEST_F(HcclInitTest, RootInfoServesOneCommunicatorOnly) {
    HcclComm first = nullptr, second = nullptr;
    ASSERT_EQ(HcclCommInitRootInfo(1, &root_, 0, &first), HCCL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    EXPECT_EQ(HcclCommInitRootInfo(1, &root_, 0, &second), HCCL_E_PARA);
    EXPECT_TRUE(ErrorMentions({"root info", "HcclGetRootInfo again"}));
    EXPECT_EQ(second, nullptr);
    EXPECT_EQ(HcclCommDestroy(first), HCCL_SUCCESS);
}

TEST_F(HcclInitTest, JoiningWithoutACurrentDeviceIsRefused) {
    std::thread([&] {
        HcclComm comm = nullptr;
        EXPECT_EQ(HcclCommInitRootInfo(1, &root_, 0, &comm), HCCL_E_PARA);
        EXPECT_TRUE(ErrorMentions({"aclrtSetDevice"}));
    }).join();
}

}  // namespace
