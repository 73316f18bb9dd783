// Deferred reclamation (core/reclaim.h): an object retired while API calls run is freed only
// once every call that began before it was retired has returned; calls that begin later do
// not hold it back; objects are freed in the order they were retired.
#include "core/reclaim.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace openacl::reclaim {
namespace {

// Runs body on another thread inside a pinned call that lasts until release is set.
class CallOnAnotherThread {
 public:
    CallOnAnotherThread() {
        thread_ = std::thread([this] {
            Pin* pin = Enter(&cache_);
            inside_.store(true);
            while (!release_.load())
                std::this_thread::yield();
            Leave(pin);
        });
        while (!inside_.load())
            std::this_thread::yield();
    }
    void Return() {
        release_.store(true);
        thread_.join();
    }
    ~CallOnAnotherThread() {
        if (thread_.joinable()) Return();
    }

 private:
    std::atomic<bool> inside_{false}, release_{false};
    static thread_local Pin* cache_;
    std::thread thread_;
};

thread_local Pin* CallOnAnotherThread::cache_ = nullptr;

TEST(Reclaim, ObjectRetiredWithNoCallRunningIsFreedAtTheNextReclaim) {
    bool freed = false;
    Retire([&] { freed = true; });
    ReclaimDue();
    EXPECT_TRUE(freed);
}

TEST(Reclaim, ObjectRetiredDuringACallIsFreedWhenTheCallReturns) {
    std::atomic<bool> freed{false};
    CallOnAnotherThread call;
    Retire([&] { freed.store(true); });
    ReclaimDue();
    EXPECT_FALSE(freed.load()) << "a call that may have found it is still running";
    call.Return();  // its Leave reclaims
    EXPECT_TRUE(freed.load());
}

TEST(Reclaim, CallsThatBeginAfterTheRetirementDoNotHoldItBack) {
    bool freed = false;
    Retire([&] { freed = true; });
    CallOnAnotherThread later;
    ReclaimDue();
    EXPECT_TRUE(freed);
}

TEST(Reclaim, ObjectsAreFreedInTheOrderTheyWereRetired) {
    std::vector<int> order;
    {
        CallOnAnotherThread call;
        for (int i = 0; i < 5; ++i)
            Retire([&order, i] { order.push_back(i); });
    }
    ReclaimDue();
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_EQ(PendingCount(), 0u);
}

TEST(Reclaim, ThreadsThatExitedHoldNothingBack) {
    for (int i = 0; i < 50; ++i) {
        std::thread([] {
            thread_local Pin* cache = nullptr;
            Leave(Enter(&cache));
        }).join();
    }
    bool freed = false;
    Retire([&] { freed = true; });
    ReclaimDue();
    EXPECT_TRUE(freed);
}

}  // namespace
}  // namespace openacl::reclaim
