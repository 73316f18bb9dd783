// Races between tearing an object down and other threads' calls on it: aclFinalize,
// aclrtResetDevice[Force], aclrtDestroyContext and aclrtDestroyStream[Force] while three
// threads keep filling and synchronising their streams. Every thread must end with a
// documented error and a message, never a crash or a hang; each race runs many times, as the
// crash it guards against showed up about once in a hundred runs.
//
// The codes: after aclFinalize, aclrtResetDevice[Force] or aclrtDestroyContext the threads'
// current context is gone, and runtime calls without one fail with ACL_ERROR_RT_CONTEXT_NULL
// (runtime calls do not check aclInit, so that is the first thing they find missing); a call
// that resolved its context just before may find its stream gone (ACL_ERROR_INVALID_PARAM),
// and a fill queued just before the release finds its memory released when it runs, which
// its synchronize reports as the failed copy it is (ACL_ERROR_RT_COPY_DATA, "the memory was
// freed before the fill ran"). After aclrtDestroyStream the
// handle is no live stream: ACL_ERROR_INVALID_PARAM. A call already inside the runtime when the
// object goes finishes on it (its synchronize returns when the work has run or been
// discarded); the object is freed only after that (src/core/reclaim.h).
#include <atomic>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

namespace {

constexpr int kThreads = 3;
constexpr size_t kBytes = 64 * 1024;

struct Ending {
    aclError code = ACL_SUCCESS;
    std::string message;
    long rounds = 0;
};

// Starts kThreads threads in `context`, each looping { aclrtMemsetAsync; aclrtSynchronizeStream }
// on its own stream and buffer until a call fails; once every thread has completed a round,
// calls `teardown` on this thread; returns how each thread ended.
std::vector<Ending> RaceAgainst(aclrtContext context, const std::vector<aclrtStream>& streams,
                                const std::vector<void*>& buffers,
                                const std::function<aclError()>& teardown) {
    std::vector<Ending> endings(kThreads);
    std::atomic<int> working{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            Ending& end = endings[t];
            end.code = aclrtSetCurrentContext(context);
            bool counted = false;
            while (end.code == ACL_SUCCESS) {
                end.code = aclrtMemsetAsync(buffers[t], kBytes, t + end.rounds, kBytes, streams[t]);
                if (end.code == ACL_SUCCESS) end.code = aclrtSynchronizeStream(streams[t]);
                if (end.code == ACL_SUCCESS && !counted) {
                    counted = true;
                    working.fetch_add(1);
                }
                ++end.rounds;
            }
            if (const char* message = aclGetRecentErrMsg()) end.message = message;
        });
    }
    while (working.load() < kThreads)
        std::this_thread::yield();
    const aclError torn = teardown();
    for (auto& thread : threads)
        thread.join();
    EXPECT_EQ(torn, ACL_SUCCESS);
    return endings;
}

// Each thread ended with one of `allowed`, and said why.
void ExpectEndings(const std::vector<Ending>& endings, const std::set<aclError>& allowed,
                   int iteration) {
    for (size_t t = 0; t < endings.size(); ++t) {
        EXPECT_TRUE(allowed.count(endings[t].code) == 1)
            << "iteration " << iteration << ", thread " << t << " ended with " << endings[t].code
            << ": " << endings[t].message;
        EXPECT_FALSE(endings[t].message.empty())
            << "iteration " << iteration << ", thread " << t << " failed without a message";
        EXPECT_GE(endings[t].rounds, 1);
    }
}

// Device 0 with a stream and a buffer per thread, in the current context.
struct Workbench {
    aclrtContext context = nullptr;
    std::vector<aclrtStream> streams = std::vector<aclrtStream>(kThreads);
    std::vector<void*> buffers = std::vector<void*>(kThreads);

    bool Make() {
        if (aclrtGetCurrentContext(&context) != ACL_SUCCESS) return false;
        for (int t = 0; t < kThreads; ++t) {
            if (aclrtCreateStream(&streams[t]) != ACL_SUCCESS ||
                aclrtMalloc(&buffers[t], kBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
                return false;
            }
        }
        return true;
    }
    void FreeBuffers() {
        for (void* buffer : buffers)
            aclrtFree(buffer);
    }
};

const std::set<aclError> kContextGone = {ACL_ERROR_RT_CONTEXT_NULL, ACL_ERROR_INVALID_PARAM,
                                         ACL_ERROR_RT_COPY_DATA};

}  // namespace

TEST(Races, FinalizeWhileStreamsRunEndsEveryThreadWithAnError) {
    for (int i = 0; i < 200; ++i) {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        Workbench bench;
        ASSERT_TRUE(bench.Make());
        auto endings =
            RaceAgainst(bench.context, bench.streams, bench.buffers, [] { return aclFinalize(); });
        ExpectEndings(endings, kContextGone, i);
        if (::testing::Test::HasFailure()) break;
    }
    EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE) << "the runtime stayed finalized";
    aclGetRecentErrMsg();
}

TEST(Races, ResetDeviceWhileStreamsRunEndsEveryThreadWithAnError) {
    for (int i = 0; i < 100; ++i) {
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        Workbench bench;
        ASSERT_TRUE(bench.Make());
        auto endings = RaceAgainst(bench.context, bench.streams, bench.buffers,
                                   [] { return aclrtResetDevice(0); });
        ExpectEndings(endings, kContextGone, i);
        if (::testing::Test::HasFailure()) break;
    }
}

TEST(Races, ResetDeviceForceWhileStreamsRunEndsEveryThreadWithAnError) {
    for (int i = 0; i < 100; ++i) {
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        Workbench bench;
        ASSERT_TRUE(bench.Make());
        auto endings = RaceAgainst(bench.context, bench.streams, bench.buffers,
                                   [] { return aclrtResetDeviceForce(0); });
        ExpectEndings(endings, kContextGone, i);
        if (::testing::Test::HasFailure()) break;
    }
}

TEST(Races, DestroyContextWhileStreamsRunEndsEveryThreadWithAnError) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext main_context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&main_context), ACL_SUCCESS);
    for (int i = 0; i < 100; ++i) {
        aclrtContext context = nullptr;
        ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
        Workbench bench;
        ASSERT_TRUE(bench.Make());
        auto endings = RaceAgainst(context, bench.streams, bench.buffers,
                                   [context] { return aclrtDestroyContext(context); });
        // The context's streams went with it; its thread-less memory belongs to the device.
        ExpectEndings(endings, kContextGone, i);
        ASSERT_EQ(aclrtSetCurrentContext(main_context), ACL_SUCCESS);
        bench.FreeBuffers();
        if (::testing::Test::HasFailure()) break;
    }
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST(Races, DestroyStreamWhileItIsUsedEndsEveryThreadWithAnError) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    for (int i = 0; i < 100; ++i) {
        Workbench bench;
        ASSERT_TRUE(bench.Make());
        const bool force = i % 2 == 1;
        auto endings = RaceAgainst(bench.context, bench.streams, bench.buffers, [&] {
            aclError rc = ACL_SUCCESS;
            for (aclrtStream stream : bench.streams) {
                aclError one = force ? aclrtDestroyStreamForce(stream) : aclrtDestroyStream(stream);
                if (rc == ACL_SUCCESS) rc = one;
            }
            return rc;
        });
        ExpectEndings(endings, {ACL_ERROR_INVALID_PARAM}, i);
        for (const Ending& end : endings)
            EXPECT_NE(end.message.find("is not a live stream"), std::string::npos) << end.message;
        bench.FreeBuffers();
        if (::testing::Test::HasFailure()) break;
    }
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST(Races, DeviceWorksAfterEveryRace) {
    // A reset that raced with other threads leaves the device usable by the next one.
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    Workbench bench;
    ASSERT_TRUE(bench.Make());
    RaceAgainst(bench.context, bench.streams, bench.buffers, [] { return aclrtResetDevice(0); });
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* buffer = nullptr;
    ASSERT_EQ(aclrtMalloc(&buffer, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemsetAsync(buffer, kBytes, 7, kBytes, stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    std::vector<unsigned char> host(kBytes);
    EXPECT_EQ(aclrtMemcpy(host.data(), kBytes, buffer, kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(host.front(), 7);
    EXPECT_EQ(host.back(), 7);
    EXPECT_EQ(aclrtFree(buffer), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}
