// Stream-ordered memory pools (acl/acl_rt_memory_soma.h): memory taken with
// aclrtMemPoolMallocAsync and given back with aclrtMemPoolFreeAsync in a stream's order, reused
// by later work, handed back to the device at synchronisation or aclrtMemPoolTrimTo.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_rt_memory_soma.h"
#include "test_support.h"

namespace {

constexpr size_t kMiB = size_t{1} << 20;

aclrtMemPoolProps Props(size_t max_size = 64 * kMiB, uint32_t device = 0) {
    aclrtMemPoolProps props{};
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = device;
    props.maxSize = max_size;
    return props;
}

class MemPool : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
        const aclrtMemPoolProps props = Props();
        ASSERT_EQ(aclrtMemPoolCreate(&pool_, &props), ACL_SUCCESS) << TakeErrMsg();
    }
    void TearDown() override {
        if (pool_ != nullptr) aclrtMemPoolDestroy(pool_);
        aclrtDestroyStream(stream_);
        DeviceTest::TearDown();
    }
    uint64_t Attr(aclrtMemPoolAttr attr) {
        uint64_t value = 0;
        EXPECT_EQ(aclrtMemPoolGetAttr(pool_, attr, &value), ACL_SUCCESS) << TakeErrMsg();
        return value;
    }
    void* Take(size_t size, aclrtStream stream = nullptr) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMemPoolMallocAsync(&p, size, pool_, stream ? stream : stream_), ACL_SUCCESS)
            << TakeErrMsg();
        return p;
    }

    aclrtStream stream_ = nullptr;
    aclrtMemPool pool_ = nullptr;
};

TEST_F(MemPool, PoolMemoryIsDeviceMemoryThatCopiesAndFillsReach) {
    void* p = Take(4096);
    ASSERT_NE(p, nullptr);
    std::vector<uint8_t> in(4096), out(4096);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = static_cast<uint8_t>(i * 7);
    ASSERT_EQ(aclrtMemcpyAsync(p, 4096, in.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(out.data(), 4096, p, 4096, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(in, out);
}

TEST_F(MemPool, AFreedBlockIsReusedByLaterWorkOnTheSameStreamWithoutASynchronize) {
    void* first = Take(1000);
    ASSERT_EQ(aclrtMemPoolFreeAsync(first, stream_), ACL_SUCCESS);
    void* second = Take(1000);
    EXPECT_EQ(second, first);
    EXPECT_EQ(aclrtMemPoolFreeAsync(second, stream_), ACL_SUCCESS);
}

TEST_F(MemPool, ReuseTakesTheFreeBlockClosestInSize) {
    void* big = Take(8192);
    void* small = Take(2048);
    ASSERT_EQ(aclrtMemPoolFreeAsync(big, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemPoolFreeAsync(small, stream_), ACL_SUCCESS);
    EXPECT_EQ(Take(2000), small);
    EXPECT_EQ(Take(8000), big);
}

TEST_F(MemPool, AnotherStreamReusesABlockOnlyOnceItsFreeHasRun) {
    uint64_t keep = 64 * kMiB;  // nothing handed back at synchronisation
    ASSERT_EQ(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep),
              ACL_SUCCESS);
    aclrtStream other = nullptr;
    ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    void* p = Take(4096);
    // The free waits behind a host function that holds the stream until the test lets it go.
    std::atomic<bool> release{false};
    auto hold = [](void* flag) {
        while (!static_cast<std::atomic<bool>*>(flag)->load())
            std::this_thread::yield();
    };
    ASSERT_EQ(aclrtLaunchHostFunc(stream_, hold, &release), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_SUCCESS);
    void* while_pending = Take(4096, other);
    EXPECT_NE(while_pending, p) << "the other stream got a block the first may still be using";
    release.store(true);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Take(4096, other), p) << "once the free has run, any stream may take the block";
    aclrtDestroyStream(other);
}

TEST_F(MemPool, WithoutOpportunisticReuseAnotherStreamNeverTakesAFinishedFree) {
    uint64_t keep = 64 * kMiB;  // nothing handed back at synchronisation
    ASSERT_EQ(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep),
              ACL_SUCCESS);
    uint32_t off = 0;
    ASSERT_EQ(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &off),
              ACL_SUCCESS);
    aclrtStream other = nullptr;
    ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    void* p = Take(4096);
    ASSERT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_NE(Take(4096, other), p);
    uint32_t on = 1;
    ASSERT_EQ(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &on),
              ACL_SUCCESS);
    EXPECT_EQ(Take(4096, other), p);
    aclrtDestroyStream(other);
}

TEST_F(MemPool, UsedAndReservedFollowTakesAndFrees) {
    void* a = Take(1 * kMiB);
    void* b = Take(2 * kMiB);
    const uint64_t both = Attr(ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT);
    EXPECT_GE(both, 3 * kMiB);
    EXPECT_EQ(Attr(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), both);
    ASSERT_EQ(aclrtMemPoolFreeAsync(b, stream_), ACL_SUCCESS);
    EXPECT_LT(Attr(ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), both);
    EXPECT_EQ(Attr(ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), both);
    EXPECT_EQ(Attr(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), both) << "the free keeps the block";
    ASSERT_EQ(aclrtMemPoolFreeAsync(a, stream_), ACL_SUCCESS);
}

TEST_F(MemPool, ASynchronizeHandsIdleMemoryAboveTheThresholdBackToTheDevice) {
    void* p = Take(4 * kMiB);
    ASSERT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_SUCCESS);
    EXPECT_GE(Attr(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 4 * kMiB);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // threshold 0 by default
    EXPECT_EQ(Attr(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0u);
    EXPECT_GE(Attr(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), 4 * kMiB);
}

TEST_F(MemPool, AThresholdKeepsThatMuchIdleMemoryAcrossSynchronizes) {
    uint64_t keep = 8 * kMiB;
    ASSERT_EQ(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep),
              ACL_SUCCESS);
    EXPECT_EQ(Attr(ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD), keep);
    void* p = Take(4 * kMiB);
    ASSERT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_GE(Attr(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 4 * kMiB);
    EXPECT_EQ(Take(4 * kMiB), p) << "the kept block serves the next request";
}

TEST_F(MemPool, TrimToKeepsAtMostTheGivenIdleBytes) {
    uint64_t keep = 64 * kMiB;
    ASSERT_EQ(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep),
              ACL_SUCCESS);
    void* a = Take(4 * kMiB);
    void* b = Take(1 * kMiB);
    ASSERT_EQ(aclrtMemPoolFreeAsync(a, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemPoolFreeAsync(b, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemPoolTrimTo(pool_, 2 * kMiB), ACL_SUCCESS);
    const uint64_t left = Attr(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT);
    EXPECT_LE(left, 2 * kMiB);
    EXPECT_GE(left, 1 * kMiB) << "the 1 MiB block fits under the bytes to keep";
    ASSERT_EQ(aclrtMemPoolTrimTo(pool_, 0), ACL_SUCCESS);
    EXPECT_EQ(Attr(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0u);
}

TEST_F(MemPool, TakingBeyondMaxSizeIsAnAllocationErrorThatSaysWhatThePoolHolds) {
    aclrtMemPool small = nullptr;
    const aclrtMemPoolProps props = Props(1 * kMiB);
    ASSERT_EQ(aclrtMemPoolCreate(&small, &props), ACL_SUCCESS);
    void* p = nullptr;
    ASSERT_EQ(aclrtMemPoolMallocAsync(&p, 600 * 1024, small, stream_), ACL_SUCCESS);
    void* q = nullptr;
    EXPECT_EQ(aclrtMemPoolMallocAsync(&q, 600 * 1024, small, stream_),
              ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_THAT_MESSAGE_CONTAINS("of its 1048576 bytes");
    EXPECT_EQ(q, nullptr);
    ASSERT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemPoolMallocAsync(&q, 600 * 1024, small, stream_), ACL_SUCCESS)
        << "the same stream reuses the block it freed";
    ASSERT_EQ(aclrtMemPoolFreeAsync(q, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemPoolDestroy(small), ACL_SUCCESS);
}

TEST_F(MemPool, AclrtFreeRefusesPoolMemory) {
    void* p = Take(256);
    EXPECT_EQ(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("give it back with aclrtMemPoolFreeAsync");
    EXPECT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_SUCCESS);
}

TEST_F(MemPool, FreeAsyncRefusesMemoryThatIsNotFromAPool) {
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("free aclrtMalloc memory with aclrtFree");
    aclrtFree(p);
}

TEST_F(MemPool, ADoubleFreeIsRefused) {
    void* p = Take(256);
    ASSERT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("double free");
}

TEST_F(MemPool, AFreeOfAnAddressInsideABlockIsRefused) {
    void* p = Take(256);
    EXPECT_EQ(aclrtMemPoolFreeAsync(static_cast<char*>(p) + 64, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("points 64 bytes into the pool block");
    EXPECT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_SUCCESS);
}

TEST_F(MemPool, DestroyWithMemoryStillTakenSucceedsAndTheMemoryStaysUsableUntilFreed) {
    void* p = Take(4096);
    ASSERT_EQ(aclrtMemPoolDestroy(pool_), ACL_SUCCESS);
    aclrtMemPool destroyed = pool_;
    pool_ = nullptr;
    EXPECT_EQ(aclrtMemsetAsync(p, 4096, 0x5a, 4096, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    void* q = nullptr;
    EXPECT_EQ(aclrtMemPoolMallocAsync(&q, 64, destroyed, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a memory pool of this process");
}

TEST_F(MemPool, AttributesReadBackWhatWasSetAndTheReuseSwitchesDefaultToOn) {
    for (aclrtMemPoolAttr attr : {ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES,
                                  ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC,
                                  ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES}) {
        uint32_t value = 7;
        ASSERT_EQ(aclrtMemPoolGetAttr(pool_, attr, &value), ACL_SUCCESS);
        EXPECT_EQ(value, 1u);
        uint32_t off = 0;
        ASSERT_EQ(aclrtMemPoolSetAttr(pool_, attr, &off), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemPoolGetAttr(pool_, attr, &value), ACL_SUCCESS);
        EXPECT_EQ(value, 0u);
    }
}

TEST_F(MemPool, ASwitchTakesOnlyZeroOrOne) {
    uint32_t two = 2;
    EXPECT_EQ(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &two),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("1 (on) or 0 (off)");
}

TEST_F(MemPool, CurrentAmountsAreReadOnlyAndHighMarksResetOnlyToZero) {
    uint64_t value = 5;
    EXPECT_EQ(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &value),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("read-only");
    EXPECT_EQ(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &value),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("may only be set to 0");
    void* p = Take(kMiB);
    ASSERT_EQ(aclrtMemPoolFreeAsync(p, stream_), ACL_SUCCESS);
    value = 0;
    ASSERT_EQ(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &value), ACL_SUCCESS);
    EXPECT_EQ(Attr(ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH),
              Attr(ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT));
}

TEST_F(MemPool, BadArgumentsAreRefusedWithInvalidParam) {
    aclrtMemPool pool = nullptr;
    aclrtMemPoolProps props = Props();
    EXPECT_EQ(aclrtMemPoolCreate(nullptr, &props), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemPoolCreate(&pool, nullptr), ACL_ERROR_INVALID_PARAM);
    props.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    EXPECT_EQ(aclrtMemPoolCreate(&pool, &props), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not ACL_MEM_LOCATION_TYPE_DEVICE");
    props = Props(kMiB, 999);
    EXPECT_EQ(aclrtMemPoolCreate(&pool, &props), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a device of this process");
    int not_a_pool = 0;
    void* p = nullptr;
    EXPECT_EQ(aclrtMemPoolMallocAsync(&p, 64, &not_a_pool, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemPoolMallocAsync(&p, 0, pool_, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemPoolMallocAsync(nullptr, 64, pool_, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemPoolFreeAsync(nullptr, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemPoolGetAttr(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemPoolGetAttr(pool_, static_cast<aclrtMemPoolAttr>(99), &p),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemPoolDestroy(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(MemPool, ThreadsTakingAndFreeingOnTheirOwnStreamsNeverShareALiveBlock) {
    constexpr int kThreads = 4, kRounds = 200;
    std::atomic<int> overlaps{0};
    std::vector<std::thread> threads;
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            aclrtSetCurrentContext(context);
            aclrtStream s = nullptr;
            aclrtCreateStream(&s);
            for (int r = 0; r < kRounds; ++r) {
                void* p = nullptr;
                if (aclrtMemPoolMallocAsync(&p, 512, pool_, s) != ACL_SUCCESS) {
                    ++overlaps;
                    break;
                }
                // Each thread writes its own mark and checks it after its stream ran.
                const int mark = t * 1000 + r;
                aclrtMemcpyAsync(p, sizeof mark, &mark, sizeof mark, ACL_MEMCPY_HOST_TO_DEVICE, s);
                int back = -1;
                aclrtMemcpyAsync(&back, sizeof back, p, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST, s);
                aclrtMemPoolFreeAsync(p, s);
                aclrtSynchronizeStream(s);
                if (back != mark) ++overlaps;
            }
            aclrtDestroyStream(s);
        });
    }
    for (auto& th : threads)
        th.join();
    EXPECT_EQ(overlaps.load(), 0);
}

// CANN documents the pools for Atlas A2 (its samples also run on A3); the 310P has none.
class MemPoolOn310P : public InitializedDeviceTest {
 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend310P3"};
};

TEST_F(MemPoolOn310P, CreatingAPoolIsFeatureNotSupport) {
    aclrtMemPool pool = nullptr;
    const aclrtMemPoolProps props = Props();
    EXPECT_EQ(aclrtMemPoolCreate(&pool, &props), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("not available on Ascend310P3");
}

}  // namespace
