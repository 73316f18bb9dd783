// Failures carry the aclError, the C function and the runtime's explanation, thrown as
// acl::Error or returned by the try_ forms as acl::Expected.
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "cpp_test_support.h"

using cpp_test::DeviceTest;
using cpp_test::RecentMessage;

namespace {

using Errors = DeviceTest;

bool Contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_F(Errors, ThrownErrorCarriesCodeFunctionAndTheRuntimesMessage) {
    auto small = acl::DeviceBuffer<int>::create(4);
    const std::vector<int> big(8, 1);
    try {
        acl::copy(small, big);
        FAIL() << "a copy larger than its destination must throw";
    } catch (const acl::Error& e) {
        EXPECT_EQ(e.code(), ACL_ERROR_INVALID_PARAM);
        EXPECT_EQ(e.function(), "aclrtMemcpy");
        EXPECT_TRUE(Contains(e.message(), "count")) << e.message();
        const std::string what = e.what();
        EXPECT_TRUE(Contains(what, "aclrtMemcpy failed with error 100000")) << what;
        EXPECT_TRUE(Contains(what, e.message())) << what;
    }
}

TEST_F(Errors, TryFormReturnsTheSameFailureWithoutThrowing) {
    auto small = acl::DeviceBuffer<int>::create(4);
    const std::vector<int> big(8, 1);
    acl::Status status = acl::try_copy(small, big);
    ASSERT_FALSE(status);
    EXPECT_EQ(status.code(), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(status.error().function, "aclrtMemcpy");
    EXPECT_TRUE(Contains(status.error().message, "count")) << status.error().message;
    EXPECT_THROW(status.value(), acl::Error);
}

TEST_F(Errors, FailedCreationReturnsNoObject) {
    // More than any device holds.
    auto buffer = acl::DeviceBuffer<uint8_t>::try_create(SIZE_MAX / 2);
    ASSERT_FALSE(buffer);
    EXPECT_EQ(buffer.error().function, "aclrtMalloc");
    EXPECT_NE(buffer.code(), ACL_SUCCESS);
    EXPECT_FALSE(buffer.error().message.empty());
    EXPECT_THROW(acl::DeviceBuffer<uint8_t>::create(SIZE_MAX / 2), acl::Error);
}

TEST_F(Errors, ElementCountWhoseByteSizeOverflowsIsRefusedBeforeAllocating) {
    // SIZE_MAX / 2 floats would wrap around to a small byte count.
    auto buffer = acl::DeviceBuffer<float>::try_create(SIZE_MAX / 2);
    ASSERT_FALSE(buffer);
    EXPECT_EQ(buffer.code(), ACL_ERROR_INVALID_PARAM);
    EXPECT_TRUE(Contains(buffer.error().message, "do not fit in size_t")) << buffer.error().message;
    auto pinned = acl::PinnedHostBuffer<double>::try_create(SIZE_MAX / 4);
    ASSERT_FALSE(pinned);
    EXPECT_EQ(pinned.error().function, "aclrtMallocHost");
}

TEST_F(Errors, SuccessfulTryFormHoldsTheObject) {
    acl::Expected<acl::Stream> stream = acl::Stream::try_create();
    ASSERT_TRUE(stream);
    EXPECT_NE(stream->handle(), nullptr);
    acl::Stream owned = std::move(stream).value();
    EXPECT_NE(owned.handle(), nullptr);
    EXPECT_EQ(stream.code(), ACL_SUCCESS);
}

TEST_F(Errors, MissingKernelBinaryAndKernelAreExplained) {
    auto missing = acl::Binary::try_load_file("/nonexistent/kernels.so");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().function, "aclrtBinaryLoadFromFile");
    EXPECT_TRUE(Contains(missing.error().message, "/nonexistent/kernels.so"))
        << missing.error().message;
    auto binary = acl::Binary::load_file(OPENACL_EXAMPLE_KERNELS);
    auto kernel = binary.try_kernel("no_such_kernel");
    ASSERT_FALSE(kernel);
    EXPECT_TRUE(Contains(kernel.error().message, "no_such_kernel")) << kernel.error().message;
}

TEST_F(Errors, KernelFailureSurfacesAtSynchronize) {
    auto binary = acl::Binary::load_file(OPENACL_TEST_KERNELS);
    auto stream = acl::Stream::create();
    stream.launch(binary.kernel("throw_in_block"), 4, int64_t{2}, int64_t{0});
    try {
        stream.synchronize();
        FAIL() << "the kernel threw in block 2";
    } catch (const acl::Error& e) {
        EXPECT_EQ(e.function(), "aclrtSynchronizeStream");
        EXPECT_TRUE(Contains(e.message(), "throw_in_block")) << e.message();
    }
}

TEST_F(Errors, StreamOfAnotherContextIsRefusedWithTheFix) {
    auto first = acl::Context::create(0);
    auto stream = acl::Stream::create();
    auto second = acl::Context::create(0);  // now current
    auto buffer = acl::DeviceBuffer<int>::create(4);
    acl::Status status = stream.try_fill_bytes(buffer, 0);
    ASSERT_FALSE(status);
    EXPECT_EQ(status.code(), ACL_ERROR_RT_STREAM_CONTEXT);
    EXPECT_TRUE(Contains(status.error().message, "aclrtSetCurrentContext"))
        << status.error().message;
}

TEST_F(Errors, LaunchWithTheWrongNumberOfArgumentsIsRefused) {
    auto binary = acl::Binary::load_file(OPENACL_EXAMPLE_KERNELS);
    auto stream = acl::Stream::create();
    auto x = acl::DeviceBuffer<float>::create(4);
    acl::Status status = stream.try_launch(binary.kernel("vector_add"), 1, x, x);
    ASSERT_FALSE(status);
    EXPECT_EQ(status.error().function, "aclrtLaunchKernelWithHostArgs");
    EXPECT_FALSE(status.error().message.empty());
}

TEST_F(Errors, ReportThreadNeedsACurrentContext) {
    std::thread([] {
        auto reporter = acl::ReportThread::try_create();
        ASSERT_FALSE(reporter);
        EXPECT_EQ(reporter.error().function, "aclrtGetCurrentContext");
        EXPECT_TRUE(Contains(reporter.error().message, "no current context"))
            << reporter.error().message;
    }).join();
}
