// ComputeGate: the process-wide pool of compute threads (OpenMP threads for oneDNN) that the
// model engine and the BLAS operators borrow from. It never lends more than its capacity, a
// borrower waits while the threads are lent out, and it says what it lent for tests above it.
#include "backend/cpu/compute_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace openacl::cpu {
namespace {

using namespace std::chrono_literals;

class ComputeGateTest : public ::testing::Test {
 protected:
    void SetUp() override {
        ComputeGate::Get().SetCapacity(4);
        ComputeGate::Get().ResetStats();
    }
};

TEST_F(ComputeGateTest, ABorrowerGetsWhatItAsksWithinTheCapacity) {
    ComputeLease lease(3);
    EXPECT_EQ(lease.threads(), 3);
}

TEST_F(ComputeGateTest, ABorrowerAskingForMoreThanTheCapacityGetsTheCapacity) {
    ComputeLease lease(64);
    EXPECT_EQ(lease.threads(), 4);
}

TEST_F(ComputeGateTest, ABorrowerAskingForNoThreadsGetsOne) {
    ComputeLease lease(0);
    EXPECT_EQ(lease.threads(), 1);
}

TEST_F(ComputeGateTest, ABorrowerWaitsUntilEnoughThreadsAreGivenBack) {
    auto first = std::make_unique<ComputeLease>(3);
    std::atomic<bool> lent{false};
    std::thread second([&] {
        ComputeLease lease(2);
        lent = true;
    });
    std::this_thread::sleep_for(100ms);
    EXPECT_FALSE(lent) << "3 + 2 threads lent out of 4";
    first.reset();
    second.join();
    EXPECT_TRUE(lent);
    EXPECT_EQ(ComputeGate::Get().stats().most_lent, 3);
}

TEST_F(ComputeGateTest, ALargerCapacityLetsAWaitingBorrowerIn) {
    ComputeLease first(4);
    std::atomic<bool> lent{false};
    std::thread second([&] {
        ComputeLease lease(2);
        lent = true;
    });
    std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(lent);
    ComputeGate::Get().SetCapacity(6);
    second.join();
    EXPECT_TRUE(lent);
}

TEST_F(ComputeGateTest, ManyBorrowersAtOnceNeverHoldMoreThanTheCapacity) {
    std::vector<std::thread> borrowers;
    for (int t = 0; t < 8; ++t) {
        borrowers.emplace_back([t] {
            for (int i = 0; i < 200; ++i) {
                ComputeLease lease(1 + (t + i) % 4);
                std::this_thread::yield();
            }
        });
    }
    for (auto& b : borrowers)
        b.join();
    const ComputeGate::Stats stats = ComputeGate::Get().stats();
    EXPECT_EQ(stats.loans, 8u * 200u);
    EXPECT_LE(stats.most_lent, 4);
}

}  // namespace
}  // namespace openacl::cpu
