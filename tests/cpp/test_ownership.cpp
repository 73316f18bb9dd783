// Owners are move-only, release exactly once, and release in declaration order without
// errors, also while a stream still has work queued.
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

#include "cpp_test_support.h"

using cpp_test::DeviceTest;
using cpp_test::FreeDeviceMemory;
using cpp_test::RecentMessage;

namespace {

using Ownership = DeviceTest;

template <class T>
constexpr bool kMoveOnly = !std::is_copy_constructible_v<T> && !std::is_copy_assignable_v<T> &&
                           std::is_nothrow_move_constructible_v<T>;

}  // namespace

TEST(OwnershipTypes, OwnersAreMoveOnly) {
    static_assert(kMoveOnly<acl::Context>);
    static_assert(kMoveOnly<acl::Stream>);
    static_assert(kMoveOnly<acl::Event>);
    static_assert(kMoveOnly<acl::DeviceBuffer<float>>);
    static_assert(kMoveOnly<acl::PinnedHostBuffer<float>>);
    static_assert(kMoveOnly<acl::Binary>);
    static_assert(kMoveOnly<acl::Model>);
    static_assert(kMoveOnly<acl::ModelDesc>);
    static_assert(kMoveOnly<acl::Dataset>);
    static_assert(kMoveOnly<acl::Device>);
    static_assert(kMoveOnly<acl::CurrentContext>);
    static_assert(kMoveOnly<acl::Runtime>);
    // Non-owning views copy freely.
    static_assert(std::is_trivially_copyable_v<acl::StreamRef>);
    static_assert(std::is_trivially_copyable_v<acl::DeviceSpan<float>>);
    static_assert(std::is_trivially_copyable_v<acl::Kernel>);
}

TEST_F(Ownership, MovedDeviceBufferIsFreedOnceByItsNewOwner) {
    const size_t before = FreeDeviceMemory();
    {
        auto a = acl::DeviceBuffer<float>::create(1 << 16);
        EXPECT_LT(FreeDeviceMemory(), before);
        acl::DeviceBuffer<float> b(std::move(a));
        EXPECT_FALSE(a);
        EXPECT_EQ(a.data(), nullptr);
        EXPECT_EQ(a.size(), 0u);
        EXPECT_TRUE(b);
        EXPECT_EQ(b.size(), 1u << 16);
    }
    EXPECT_EQ(FreeDeviceMemory(), before);
    EXPECT_EQ(RecentMessage(), "") << "a second aclrtFree would have recorded an error";
}

TEST_F(Ownership, MoveAssignmentFreesTheTargetsOldMemory) {
    const size_t before = FreeDeviceMemory();
    auto a = acl::DeviceBuffer<uint8_t>::create(1 << 20);
    auto b = acl::DeviceBuffer<uint8_t>::create(1 << 20);
    const size_t with_both = FreeDeviceMemory();
    a = std::move(b);
    EXPECT_GT(FreeDeviceMemory(), with_both);
    a.reset();
    EXPECT_EQ(FreeDeviceMemory(), before);
    EXPECT_EQ(RecentMessage(), "");
}

TEST_F(Ownership, ReleasedHandlesBelongToTheCaller) {
    auto buffer = acl::DeviceBuffer<int>::create(16);
    void* raw = buffer.release();
    EXPECT_FALSE(buffer);
    // Still allocated: the plain C call frees it, and only once.
    EXPECT_EQ(aclrtFree(raw), ACL_SUCCESS);
    auto stream = acl::Stream::create();
    aclrtStream raw_stream = stream.release();
    EXPECT_EQ(aclrtDestroyStream(raw_stream), ACL_SUCCESS);
    EXPECT_EQ(RecentMessage(), "");
}

TEST_F(Ownership, MovedStreamKeepsWorkingAndIsDestroyedOnce) {
    auto first = acl::Stream::create();
    aclrtStream handle = first.handle();
    acl::Stream second = std::move(first);
    EXPECT_EQ(first.handle(), nullptr);
    EXPECT_EQ(second.handle(), handle);
    std::atomic<bool> ran{false};
    second.host_function([&ran] { ran = true; });
    second.synchronize();
    EXPECT_TRUE(ran);
    acl::Stream third;
    third = std::move(second);
    third.reset();
    third.reset();  // empty now: nothing to release
    EXPECT_EQ(RecentMessage(), "");
    // The C handle is gone for good.
    EXPECT_EQ(aclrtDestroyStream(handle), ACL_ERROR_INVALID_PARAM);
}

TEST_F(Ownership, EveryOwnerMovedThenDestroyedReleasesOnce) {
    auto context = acl::Context::create(0);
    auto stream = acl::Stream::create();
    auto event = acl::Event::create();
    auto pinned = acl::PinnedHostBuffer<double>::create(8);
    auto binary = acl::Binary::load_file(OPENACL_EXAMPLE_KERNELS);
    auto dataset = acl::Dataset::create();
    auto buffer = acl::DeviceBuffer<float>::create(4);
    dataset.add(buffer);
    {
        auto context2 = std::move(context);
        auto stream2 = std::move(stream);
        auto event2 = std::move(event);
        auto pinned2 = std::move(pinned);
        auto binary2 = std::move(binary);
        auto dataset2 = std::move(dataset);
        EXPECT_EQ(dataset2.size(), 1u);
        EXPECT_FALSE(context || stream || event || pinned || binary || dataset);
    }
    EXPECT_EQ(RecentMessage(), "");
}

TEST_F(Ownership, StreamDestroyedWithQueuedWorkFinishesItBeforeBuffersDeclaredEarlierAreFreed) {
    std::vector<int> host(1 << 16, 7), back(1 << 16, 0);
    std::atomic<bool> slow_work_done{false};
    {
        auto device = acl::DeviceBuffer<int>::create(host.size());
        auto pinned = acl::PinnedHostBuffer<int>::create(host.size());
        auto stream = acl::Stream::create();  // declared last: destroyed first
        stream.host_function([&slow_work_done] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            slow_work_done = true;
        });
        stream.copy(device, host);
        stream.copy(pinned, device);
        // Leaving the scope: the stream waits for its work, then the buffers are freed.
    }
    EXPECT_TRUE(slow_work_done);
    EXPECT_EQ(RecentMessage(), "");
}

TEST(OwnershipOrder, GuardsAndOwnersInDeclarationOrderReleaseEverything) {
    acl::Runtime runtime;
    std::atomic<int> ran{0};
    {
        acl::Device device(0);
        auto context = acl::Context::create(0);
        auto stream = acl::Stream::create();
        auto event = acl::Event::create();
        auto binary = acl::Binary::load_file(OPENACL_EXAMPLE_KERNELS);
        auto buffer = acl::DeviceBuffer<float>::create(1 << 16);
        stream.fill_bytes(buffer, 0);
        stream.host_function([&ran] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            ran++;
        });
        stream.record(event);
    }
    EXPECT_EQ(ran.load(), 1);
    EXPECT_EQ(RecentMessage(), "");
    // The device guard reset the device: it is no longer in use.
    EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_NE(RecentMessage().find("not in use"), std::string::npos);
}

TEST_F(Ownership, StreamEndsOnAThreadWhoseCurrentContextIsAnother) {
    auto context = acl::Context::create(0);  // current on this thread
    auto stream = acl::Stream::create();
    aclrtStream handle = stream.handle();
    std::thread([&stream] {
        auto worker_context = acl::Context::create(0);
        aclrtContext before = acl::Context::current();
        stream.reset();  // the owner makes the stream's context current for the call
        EXPECT_EQ(RecentMessage(), "");
        EXPECT_EQ(acl::Context::current(), before);
    }).join();
    EXPECT_EQ(acl::Context::current(), context.handle());
    EXPECT_EQ(aclrtDestroyStream(handle), ACL_ERROR_INVALID_PARAM)
        << "destroyed once, by the owner";
}

TEST_F(Ownership, StreamEndsOnAThreadWithoutAnyContextSilently) {
    auto stream = acl::Stream::create();
    aclrtStream handle = stream.handle();
    std::thread([&stream] {
        stream.reset();
        EXPECT_EQ(RecentMessage(), "") << "nothing failed, so nothing is reported";
    }).join();
    EXPECT_EQ(aclrtDestroyStream(handle), ACL_ERROR_INVALID_PARAM)
        << "destroyed once, by the owner";
}
