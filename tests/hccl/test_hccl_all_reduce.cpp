// HcclAllReduce between ranks of one process.
#include "hccl_test_support.h"

namespace {

using hccl_test::HcclTest;
using hccl_test::Rank;

TEST_F(HcclTest, AllReduceSumsFloatsOfEveryRank) {
    RunRanks(4, [](Rank& r) {
        std::vector<float> mine(1000);
        for (size_t i = 0; i < mine.size(); ++i)
            mine[i] = static_cast<float>(r.rank * 1000 + i);
        void* send = r.Upload(mine);
        void* recv = r.Upload(std::vector<float>(1000));
        ASSERT_EQ(
            HcclAllReduce(send, recv, 1000, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        ASSERT_EQ(r.Sync(), ACL_SUCCESS);
        const std::vector<float> got = r.Download<float>(recv, 1000);
        for (size_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(got[i], static_cast<float>(6000 + 4 * i)) << "element " << i;
        aclrtFree(send);
        aclrtFree(recv);
    });
}

TEST_F(HcclTest, AllReduceInPlaceTakesTheMaximum) {
    RunRanks(3, [](Rank& r) {
        std::vector<int32_t> mine = {static_cast<int32_t>(r.rank), -static_cast<int32_t>(r.rank)};
        void* buf = r.Upload(mine);
        ASSERT_EQ(
            HcclAllReduce(buf, buf, 2, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MAX, r.comm, r.stream),
            HCCL_SUCCESS);
        ASSERT_EQ(r.Sync(), ACL_SUCCESS);
        EXPECT_EQ(r.Download<int32_t>(buf, 2), (std::vector<int32_t>{2, 0}));
        aclrtFree(buf);
    });
}

TEST_F(HcclTest, AllReduceWithMismatchedCountsFailsEveryRanksStream) {
    RunRanks(2, [](Rank& r) {
        void* buf = r.Upload(std::vector<float>(8));
        ASSERT_EQ(HcclAllReduce(buf, buf, r.rank == 0 ? 8 : 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                                r.comm, r.stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_NE(hccl_test::RecentError().find("count"), std::string::npos)
            << hccl_test::RecentError();
        HcclResult async = HCCL_SUCCESS;
        EXPECT_EQ(HcclGetCommAsyncError(r.comm, &async), HCCL_SUCCESS);
        EXPECT_EQ(async, HCCL_E_PARA);
        aclrtFree(buf);
    });
}

}  // namespace
