// acl::CurrentContext sets a context for a scope and restores the previous one: the way a
// worker thread borrows a context.
#include <thread>
#include <vector>

#include "cpp_test_support.h"

using cpp_test::DeviceTest;
using cpp_test::RecentMessage;

namespace {

using ContextGuard = DeviceTest;

}  // namespace

TEST_F(ContextGuard, RestoresThePreviousContextOnTheSameThread) {
    auto a = acl::Context::create(0);
    auto b = acl::Context::create(0);  // creation made b current
    ASSERT_EQ(acl::Context::current(), b.handle());
    {
        acl::CurrentContext guard(a);
        EXPECT_EQ(guard.previous(), b.handle());
        EXPECT_EQ(acl::Context::current(), a.handle());
        {
            acl::CurrentContext inner(b);
            EXPECT_EQ(acl::Context::current(), b.handle());
        }
        EXPECT_EQ(acl::Context::current(), a.handle());
    }
    EXPECT_EQ(acl::Context::current(), b.handle());
}

TEST_F(ContextGuard, WorkerThreadWithoutAContextWorksInTheBorrowedOne) {
    auto context = acl::Context::create(0);
    auto stream = acl::Stream::create();
    auto buffer = acl::DeviceBuffer<int>::create(256);
    std::vector<int> result(256, 0);
    std::thread([&] {
        // Without the guard this thread has no context: the runtime refuses its stream.
        EXPECT_FALSE(stream.try_fill_bytes(buffer, 1));
        RecentMessage();
        acl::CurrentContext guard(context);
        EXPECT_EQ(guard.previous(), nullptr);
        std::vector<int> ones(256, 1);
        stream.copy(buffer, ones);
        stream.synchronize();
        acl::copy(result, buffer);
    }).join();
    EXPECT_EQ(result, std::vector<int>(256, 1));
}

TEST_F(ContextGuard, WorkerThreadGetsItsOwnContextBackAfterTheScope) {
    auto shared = acl::Context::create(0);
    std::thread([&shared] {
        auto own = acl::Context::create(0);
        {
            acl::CurrentContext guard(shared);
            auto stream = acl::Stream::create();
            EXPECT_EQ(stream.context(), shared.handle());
        }
        EXPECT_EQ(acl::Context::current(), own.handle());
        EXPECT_EQ(RecentMessage(), "");
    }).join();
}

TEST_F(ContextGuard, ManyWorkersBorrowOneContextAtOnce) {
    auto context = acl::Context::create(0);
    constexpr int kWorkers = 4;
    std::vector<std::thread> workers;
    std::vector<int> sums(kWorkers, 0);
    for (int w = 0; w < kWorkers; ++w) {
        workers.emplace_back([&, w] {
            acl::CurrentContext guard(context);
            auto stream = acl::Stream::create();
            auto buffer = acl::DeviceBuffer<int>::create(100);
            std::vector<int> in(100, w), out(100, -1);
            stream.copy(buffer, in);
            stream.copy(out, buffer);
            stream.synchronize();
            for (int v : out)
                sums[w] += v;
        });
    }
    for (auto& t : workers)
        t.join();
    for (int w = 0; w < kWorkers; ++w)
        EXPECT_EQ(sums[w], 100 * w);
}

TEST_F(ContextGuard, ADestroyedContextIsRefusedAndTheCurrentOneStays) {
    auto keep = acl::Context::create(0);
    aclrtContext gone = acl::Context::create(0).handle();  // destroyed at the end of the line
    acl::CurrentContext restore(keep);
    auto guard = acl::CurrentContext::try_create(gone);
    ASSERT_FALSE(guard);
    EXPECT_EQ(guard.code(), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(guard.error().function, "aclrtSetCurrentContext");
    EXPECT_NE(guard.error().message.find("not a live context"), std::string::npos)
        << guard.error().message;
    EXPECT_EQ(acl::Context::current(), keep.handle());
}
