// Running N ranks as threads, one virtual device each, as HCCL's own examples do: the root
// info is made on the main thread after aclrtSetDevice(0), then each thread sets its device,
// joins, creates a stream and runs the body.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace hccl_test {

struct Rank {
    uint32_t rank = 0;
    uint32_t size = 0;
    HcclComm comm = nullptr;
    aclrtStream stream = nullptr;

    // Device memory holding `values`, and a way to read it back.
    template <typename T>
    void* Upload(const std::vector<T>& values) const {
        void* p = nullptr;
        const size_t bytes = std::max<size_t>(1, values.size() * sizeof(T));
        EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        if (!values.empty()) {
            EXPECT_EQ(aclrtMemcpy(p, bytes, values.data(), values.size() * sizeof(T),
                                  ACL_MEMCPY_HOST_TO_DEVICE),
                      ACL_SUCCESS);
        }
        return p;
    }
    template <typename T>
    std::vector<T> Download(const void* p, size_t n) const {
        std::vector<T> values(n);
        if (n > 0) {
            EXPECT_EQ(aclrtMemcpy(values.data(), n * sizeof(T), p, n * sizeof(T),
                                  ACL_MEMCPY_DEVICE_TO_HOST),
                      ACL_SUCCESS);
        }
        return values;
    }
    aclError Sync() const { return aclrtSynchronizeStream(stream); }
};

class HcclTest : public ::testing::Test {
 protected:
    void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
    void TearDown() override {
        for (uint32_t d = 0; d < 4; ++d)
            aclrtResetDevice(static_cast<int32_t>(d));
        aclFinalize();
    }

    // Runs body on n ranks (threads on devices 0..n-1) of one communicator, destroyed after.
    void RunRanks(uint32_t n, const std::function<void(Rank&)>& body) {
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        HcclRootInfo root;
        ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
        std::vector<std::thread> threads;
        for (uint32_t r = 0; r < n; ++r) {
            threads.emplace_back([&, r] {
                Rank rank;
                rank.rank = r;
                rank.size = n;
                ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
                ASSERT_EQ(HcclCommInitRootInfo(n, &root, r, &rank.comm), HCCL_SUCCESS);
                ASSERT_EQ(aclrtCreateStream(&rank.stream), ACL_SUCCESS);
                body(rank);
                EXPECT_EQ(aclrtDestroyStream(rank.stream), ACL_SUCCESS);
                EXPECT_EQ(HcclCommDestroy(rank.comm), HCCL_SUCCESS);
            });
        }
        for (std::thread& t : threads)
            t.join();
    }
};

// The most recent error message of this thread.
inline std::string RecentError() {
    const char* text = aclGetRecentErrMsg();
    return text == nullptr ? "" : text;
}

}  // namespace hccl_test
