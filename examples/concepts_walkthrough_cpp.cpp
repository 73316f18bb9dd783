// The AscendCL concepts chapter again, with openacl's C++ layer (openacl/acl.hpp): the same
// steps as concepts_walkthrough.cpp, read side by side. Owners release what they hold when
// they go out of scope, in reverse order of declaration, so there is no clean-up section and
// no leak on an early return; a failed call throws acl::Error with the runtime's explanation.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "openacl/acl.hpp"

namespace {

int g_step = 0;

void Step(const char* what) {
    std::printf("  [%2d] %s\n", ++g_step, what);
}

void Section(const char* title) {
    std::printf("\n%s\n", title);
}

int Walkthrough() {
    std::printf("openacl walk-through of the AscendCL concepts chapter, in C++\n");

    Section("4.0 Initialise: aclInit once per process, aclFinalize at the end");
    acl::Runtime runtime;  // aclFinalize when main's scope ends, after everything below
    Step("acl::Runtime: aclInit(NULL) now, aclFinalize at the end of the scope");
    aclrtRunMode mode;
    acl::check(aclrtGetRunMode(&mode), "aclrtGetRunMode").value();  // C calls mix in
    std::printf("       run mode = %s, SoC = %s\n", mode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE",
                aclrtGetSocName());

    Section("4.1 Device: which card you work on");
    std::printf("       %u device(s) visible\n", acl::Device::count());
    acl::Device device(0);
    Step("acl::Device(0): aclrtSetDevice now, aclrtResetDevice at the end of the scope");

    Section("4.2 Context: your workbench, bound to one thread at a time");
    auto context = acl::Context::create(device.id());
    Step("acl::Context::create: a context on device 0, current on this thread");
    // The chapter's pitfall, and its cure: a worker thread borrows the context for a scope.
    std::thread([&context] {
        auto refused = acl::DeviceBuffer<char>::try_create(64);
        std::printf(
            "       another thread without a context gets error %d:\n"
            "       %s\n",
            refused.code(), refused ? "" : refused.error().message.c_str());
        acl::CurrentContext borrow(context);
        auto allowed = acl::DeviceBuffer<char>::create(64);
        std::printf("       with acl::CurrentContext it allocates %zu bytes\n", allowed.size());
    }).join();

    Section("4.3 Stream: an in-order task queue; different streams run in parallel");
    auto stream = acl::Stream::create();
    Step("acl::Stream::create: an explicit stream in this context");

    Section("4.4 Memory: host and device are two domains; data moves by memcpy");
    const size_t size = 1 << 20;
    size_t free_before = 0, free_after = 0, total = 0;
    aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total);
    auto host_in = acl::PinnedHostBuffer<unsigned char>::create(size);
    auto host_out = acl::PinnedHostBuffer<unsigned char>::create(size);
    auto dev_a = acl::DeviceBuffer<unsigned char>::create(size);
    auto dev_b = acl::DeviceBuffer<unsigned char>::create(size);
    Step("two pinned host buffers and two device buffers, typed, sized in elements");
    aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total);
    std::printf("       device memory free: %zu -> %zu bytes of %zu\n", free_before, free_after,
                total);

    for (size_t i = 0; i < size; ++i)
        host_in[i] = static_cast<unsigned char>(i * 31 + 7);
    acl::copy(dev_a, host_in);
    Step("acl::copy host -> device A (the kind follows from the types)");
    acl::copy(dev_b, dev_a);
    Step("acl::copy device A -> device B");
    acl::copy(host_out, dev_b);
    Step("acl::copy device B -> host");
    if (std::memcmp(host_in.data(), host_out.data(), size) != 0) {
        std::printf("  FAILED: the data came back different\n");
        return 1;
    }
    std::printf("       %zu bytes made the round trip unchanged\n", size);

    // The chapter's other pitfall cannot be written here: a std::vector is host memory by
    // type, so it can only be a host side of a copy. Through a raw pointer it still fails:
    std::vector<unsigned char> pageable(64);
    acl::Status status = acl::try_copy(
        acl::DeviceSpan<unsigned char>(pageable.data(), pageable.size()), host_in.span().first(64));
    std::printf(
        "       malloc'd memory passed as a device destination gets error %d:\n"
        "       %s\n",
        status.code(), status ? "" : status.error().message.c_str());

    Section("4.5 Synchronous vs asynchronous: keep the device busy and the CPU too");
    std::atomic<int> frames_done{0};
    auto reporter = acl::ReportThread::create();  // declared after the stream: ends first
    reporter.subscribe(stream);
    Step("acl::ReportThread: a host thread runs this stream's callbacks");
    auto copied = acl::Event::create();
    stream.fill_bytes(dev_a, 0);
    Step("stream.fill_bytes: queued; the call returns at once");
    stream.copy(dev_a, host_in);
    Step("stream.copy host -> device A: queued behind the fill");
    stream.record(copied);
    Step("stream.record: the event marks the end of the copy");
    stream.copy(host_out, dev_a);
    Step("stream.copy device A -> host");
    stream.callback([&frames_done] { frames_done++; });  // any callable; the runtime owns it
    Step("stream.callback: notify the host when the frame is back");
    std::printf("       the CPU is free meanwhile: it could prepare the next frame here\n");
    copied.synchronize();
    Step("event.synchronize: wait only for the upload");
    stream.synchronize();
    Step("stream.synchronize: the whole frame is done");
    const bool intact = std::memcmp(host_in.data(), host_out.data(), size) == 0;
    std::printf("       callbacks run: %d; data %s\n", frames_done.load(),
                intact ? "intact" : "CORRUPTED");
    if (frames_done.load() != 1 || !intact) return 1;

    Section("4.3 again: a kernel on the stream, its blocks spread over every core");
    auto kernels = acl::Binary::load_file(OPENACL_EXAMPLE_KERNELS);
    acl::Kernel vector_add = kernels.kernel("vector_add");
    Step("acl::Binary::load_file + kernel(\"vector_add\")");
    // z = x + y over n floats: typed buffers, and arguments passed as they are.
    const uint64_t n = size / sizeof(float);
    auto x = acl::PinnedHostBuffer<float>::create(n);
    auto z = acl::PinnedHostBuffer<float>::create(n);
    for (uint64_t i = 0; i < n; ++i)
        x[i] = static_cast<float>(i);
    auto dev_x = acl::DeviceBuffer<float>::create(n);
    auto dev_z = acl::DeviceBuffer<float>::create(n);
    stream.copy(dev_x, x);
    stream.launch(vector_add, 64, dev_x, dev_x, dev_z, n);
    Step("stream.launch(vector_add, 64 blocks, x, x, z, n): one 8-byte slot per argument");
    stream.copy(z, dev_z);
    stream.synchronize();
    Step("stream.copy the result back, then stream.synchronize");
    for (uint64_t i = 0; i < n; ++i) {
        if (z[i] != 2.0f * x[i]) {
            std::printf("  FAILED: z[%llu] = %f\n", static_cast<unsigned long long>(i), z[i]);
            return 1;
        }
    }
    std::printf("       all %llu sums are right\n", static_cast<unsigned long long>(n));

    Section("Clean up: the end of the scope releases everything in reverse order");
    return 0;
}

}  // namespace

int main() {
    try {
        if (Walkthrough() != 0) return 1;
    } catch (const acl::Error& e) {
        std::printf("  FAILED: %s\n", e.what());
        return 1;
    }
    // The releases went through the C API; one the runtime refused would have left a message.
    const char* refused = aclGetRecentErrMsg();
    if (refused != nullptr && refused[0] != '\0') {
        std::printf("  FAILED: a release was refused: %s\n", refused);
        return 1;
    }
    std::printf("       released in reverse order, every release accepted\n");
    std::printf("\nall steps passed\n");
    return 0;
}
