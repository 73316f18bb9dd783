// Typed copies (kinds inferred from the types), fills, kernel launches with typed arguments,
// events, host functions and callbacks that own their callables, and model executions.
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

#include "cpp_test_support.h"

using cpp_test::DeviceTest;
using cpp_test::RecentMessage;

namespace {

using Copies = DeviceTest;
using Launches = DeviceTest;
using HostWork = DeviceTest;
using Models = DeviceTest;

std::vector<float> Iota(size_t n) {
    std::vector<float> v(n);
    std::iota(v.begin(), v.end(), 0.0f);
    return v;
}

}  // namespace

TEST_F(Copies, RoundTripThroughEveryKindKeepsTheData) {
    const std::vector<float> in = Iota(1000);
    auto a = acl::DeviceBuffer<float>::create(in.size());
    auto b = acl::DeviceBuffer<float>::create(in.size());
    auto pinned = acl::PinnedHostBuffer<float>::create(in.size());
    std::vector<float> out(in.size());
    acl::copy(a, in);        // host -> device
    acl::copy(b, a);         // device -> device
    acl::copy(pinned, b);    // device -> host
    acl::copy(out, pinned);  // host -> host
    EXPECT_EQ(out, in);
    EXPECT_EQ(RecentMessage(), "") << "a kind that contradicted the pointers would warn";
}

TEST_F(Copies, StreamCopiesArePinnedAndAsynchronous) {
    auto stream = acl::Stream::create();
    auto pinned_in = acl::PinnedHostBuffer<int64_t>::create(4096);
    auto pinned_out = acl::PinnedHostBuffer<int64_t>::create(4096);
    for (size_t i = 0; i < pinned_in.size(); ++i)
        pinned_in[i] = static_cast<int64_t>(i * i);
    auto device = acl::DeviceBuffer<int64_t>::create(4096);
    stream.copy(device, pinned_in);
    stream.copy(pinned_out, device);
    stream.synchronize();
    EXPECT_TRUE(std::equal(pinned_in.begin(), pinned_in.end(), pinned_out.begin()));
}

TEST_F(Copies, SpansCopyPartsOfBuffers) {
    auto device = acl::DeviceBuffer<int>::create(10);
    acl::fill_bytes(device, 0);
    const std::array<int, 3> three = {7, 8, 9};
    acl::copy(device.span().subspan(4, 3), three);
    std::vector<int> out(10, -1);
    acl::copy(out, device);
    EXPECT_EQ(out, (std::vector<int>{0, 0, 0, 0, 7, 8, 9, 0, 0, 0}));
    // Only the first two elements of the source go into a two-element destination view.
    int two[2] = {0, 0};
    acl::copy(two, device.span().subspan(5).first(2));
    EXPECT_EQ(two[0], 8);
    EXPECT_EQ(two[1], 9);
}

TEST_F(Copies, ConstBuffersAndSpansAreCopySources) {
    auto device = acl::DeviceBuffer<double>::create(3);
    acl::copy(device, std::vector<double>{1.5, 2.5, 3.5});
    const acl::DeviceBuffer<double>& read_only = device;
    acl::DeviceSpan<const double> view = read_only;
    std::vector<double> out(3);
    acl::copy(out, view);
    EXPECT_EQ(out, (std::vector<double>{1.5, 2.5, 3.5}));
}

TEST_F(Copies, FillBytesSetsEveryByteOnTheStream) {
    auto stream = acl::Stream::create();
    auto device = acl::DeviceBuffer<uint32_t>::create(64);
    stream.fill_bytes(device, 0xAB);
    std::vector<uint32_t> out(64);
    stream.copy(out, device);
    stream.synchronize();
    EXPECT_EQ(out, std::vector<uint32_t>(64, 0xABABABABu));
}

TEST_F(Launches, TypedArgumentsReachTheKernelInTheirSlots) {
    auto binary = acl::Binary::load_file(OPENACL_TEST_KERNELS);
    acl::Kernel affine = binary.kernel("affine");  // (GM_ADDR data, uint64_t n, float, float)
    auto stream = acl::Stream::create();
    std::vector<float> host = Iota(1001);
    auto data = acl::DeviceBuffer<float>::create(host.size());
    stream.copy(data, host);
    stream.launch(affine, 7, data, uint64_t{host.size()}, 2.0f, 0.5f);
    std::vector<float> out(host.size());
    stream.copy(out, data);
    stream.synchronize();
    for (size_t i = 0; i < host.size(); ++i)
        ASSERT_EQ(out[i], host[i] * 2.0f + 0.5f) << i;
}

TEST_F(Launches, ExampleVectorAddTakesSpansAndBuffers) {
    auto binary = acl::Binary::load_file(OPENACL_EXAMPLE_KERNELS);
    auto stream = acl::Stream::create();
    const uint64_t n = 4096;
    auto x = acl::DeviceBuffer<float>::create(n);
    auto z = acl::DeviceBuffer<float>::create(2 * n);
    const std::vector<float> host = Iota(n);  // named: it must outlive the queued copy
    stream.copy(x, host);
    stream.fill_bytes(z, 0);
    // z[n:2n] = x + x: the output is a span into the second half.
    stream.launch(binary.kernel("vector_add"), 64, x, x.span(), z.span().subspan(n), n);
    std::vector<float> out(2 * n);
    stream.copy(out, z);
    stream.synchronize();
    for (uint64_t i = 0; i < n; ++i) {
        ASSERT_EQ(out[i], 0.0f);
        ASSERT_EQ(out[n + i], 2.0f * static_cast<float>(i));
    }
}

TEST_F(HostWork, HostFunctionOwnsItsCallableUntilItHasRun) {
    auto stream = acl::Stream::create();
    auto token = std::make_shared<int>(42);
    std::atomic<int> seen{0};
    {
        // The lambda is a temporary: the stream keeps the only other copy of the token.
        stream.host_function([token, &seen] { seen = *token; });
    }
    stream.synchronize();
    EXPECT_EQ(seen.load(), 42);
    EXPECT_EQ(token.use_count(), 1) << "the callable was destroyed after it ran";
}

TEST_F(HostWork, MoveOnlyCallablesAreAccepted) {
    auto stream = acl::Stream::create();
    auto value = std::make_unique<int>(5);
    std::atomic<int> seen{0};
    stream.host_function([v = std::move(value), &seen] { seen = *v; });
    stream.synchronize();
    EXPECT_EQ(seen.load(), 5);
}

TEST_F(HostWork, HostFunctionsRunInStreamOrder) {
    auto stream = acl::Stream::create();
    std::vector<int> order;
    for (int i = 0; i < 10; ++i)
        stream.host_function([&order, i] { order.push_back(i); });
    stream.synchronize();
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST_F(HostWork, CallbacksRunOnTheReportThreadAndReleaseTheirCallable) {
    auto stream = acl::Stream::create();
    auto token = std::make_shared<int>(1);
    std::atomic<bool> on_reporter{false};
    {
        auto reporter = acl::ReportThread::create();
        reporter.subscribe(stream);
        const uint64_t reporter_id = reporter.id();
        stream.callback([token, &on_reporter, reporter_id] {
            on_reporter = static_cast<uint64_t>(pthread_self()) == reporter_id;
        });
        stream.synchronize();
    }
    EXPECT_TRUE(on_reporter);
    EXPECT_EQ(token.use_count(), 1);
    EXPECT_EQ(RecentMessage(), "") << "the reporter unsubscribed what it subscribed";
}

TEST_F(HostWork, EndingReportThreadStillRunsTheCallbacksAlreadyQueued) {
    auto stream = acl::Stream::create();
    std::atomic<bool> called{false};
    {
        auto reporter = acl::ReportThread::create();
        reporter.subscribe(stream);
        stream.host_function([] { std::this_thread::sleep_for(std::chrono::milliseconds(50)); });
        stream.callback([&called] { called = true; }, /*block=*/false);
    }  // no synchronize: the reporter's end waits for the callback
    EXPECT_TRUE(called);
    stream.synchronize();
    EXPECT_EQ(RecentMessage(), "");
}

TEST_F(HostWork, ReportThreadWithoutSubscriptionsSleeps) {
    auto reporter = acl::ReportThread::create();
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    getrusage(RUSAGE_SELF, &after);
    auto us = [](const rusage& r) {
        return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1000000L + r.ru_utime.tv_usec +
               r.ru_stime.tv_usec;
    };
    EXPECT_LT(us(after) - us(before), 100000L) << "a polling loop would use the whole 300 ms";
}

TEST_F(HostWork, EventOrdersOneStreamAfterAnother) {
    auto producer = acl::Stream::create();
    auto consumer = acl::Stream::create();
    auto ready = acl::Event::create();
    std::atomic<bool> produced{false};
    std::atomic<bool> saw_product{false};
    producer.host_function([&produced] {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        produced = true;
    });
    producer.record(ready);
    consumer.wait(ready);
    consumer.host_function([&] { saw_product = produced.load(); });
    consumer.synchronize();
    EXPECT_TRUE(saw_product);
    EXPECT_TRUE(ready.completed());
    auto later = acl::Event::create();
    producer.record(later);
    later.synchronize();
    EXPECT_GE(acl::Event::elapsed_ms(ready, later), 0.0f);
}

TEST_F(Models, ExecutesSynchronouslyAndOnAStream) {
    const char* path = OPENACL_ONNX_TESTDATA "/node/test_relu/model.onnx";
    auto model = acl::Model::load_file(path);
    acl::ModelDesc desc = model.desc();
    ASSERT_EQ(desc.num_inputs(), 1u);
    ASSERT_EQ(desc.num_outputs(), 1u);
    EXPECT_EQ(desc.input_type(0), ACL_FLOAT);
    const size_t n = desc.input_size(0) / sizeof(float);
    ASSERT_EQ(desc.output_size(0), n * sizeof(float));
    EXPECT_FALSE(desc.input_name(0).empty());

    std::vector<float> x(n);
    for (size_t i = 0; i < n; ++i)
        x[i] = static_cast<float>(i) - static_cast<float>(n) / 2;
    auto in = acl::DeviceBuffer<float>::create(n);
    auto out = acl::DeviceBuffer<float>::create(n);
    acl::copy(in, x);
    auto inputs = acl::Dataset::create();
    inputs.add(in);
    auto outputs = acl::Dataset::create();
    outputs.add(out);

    model.execute(inputs, outputs);
    std::vector<float> y(n);
    acl::copy(y, out);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(y[i], std::max(x[i], 0.0f)) << i;

    auto stream = acl::Stream::create();
    stream.fill_bytes(out, 0xFF);
    stream.execute(model, inputs, outputs);
    std::vector<float> y_async(n);
    stream.copy(y_async, out);
    stream.synchronize();
    EXPECT_EQ(y_async, y);
}
