// The AscendCL concepts chapter as a program: Device, Context, Stream, host and device
// memory, and a copy there and back with a check. Each step prints what it does and why.
// Build it against openacl (or CANN) unchanged: it uses only the public acl API.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "acl/acl.h"

namespace {

int g_step = 0;

// Prints a step and stops the walk-through if the call failed, with the runtime's message.
void Check(aclError rc, const char* what) {
    if (rc != ACL_SUCCESS) {
        const char* message = aclGetRecentErrMsg();
        std::printf("  FAILED: %s returned %d: %s\n", what, rc, message ? message : "");
        std::exit(1);
    }
    std::printf("  [%2d] %s\n", ++g_step, what);
}

void Section(const char* title) {
    std::printf("\n%s\n", title);
}

}  // namespace

int main() {
    std::printf("openacl walk-through of the AscendCL concepts chapter\n");

    Section("4.0 Initialise: aclInit once per process, aclFinalize at the end");
    Check(aclInit(nullptr), "aclInit(NULL): no configuration file");
    aclrtRunMode mode;
    Check(aclrtGetRunMode(&mode), "aclrtGetRunMode: the application runs on the host");
    std::printf("       run mode = %s, SoC = %s\n", mode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE",
                aclrtGetSocName());

    Section("4.1 Device: which card you work on");
    uint32_t count = 0;
    Check(aclrtGetDeviceCount(&count), "aclrtGetDeviceCount");
    std::printf("       %u device(s) visible\n", count);
    const int32_t device = 0;
    Check(aclrtSetDevice(device), "aclrtSetDevice(0): this thread now works on device 0");

    Section("4.2 Context: your workbench, bound to one thread at a time");
    aclrtContext context = nullptr;
    Check(aclrtCreateContext(&context, device), "aclrtCreateContext on device 0 (becomes current)");
    Check(aclrtSetCurrentContext(context), "aclrtSetCurrentContext: bind it to this thread");
    // The chapter's pitfall: another thread does not inherit this thread's context.
    std::thread([] {
        void* p = nullptr;
        aclError rc = aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
        const char* message = aclGetRecentErrMsg();
        std::printf(
            "       another thread without aclrtSetCurrentContext gets error %d:\n"
            "       %s\n",
            rc, message ? message : "");
    }).join();

    Section("4.3 Stream: an in-order task queue; different streams run in parallel");
    aclrtStream stream = nullptr;
    Check(aclrtCreateStream(&stream), "aclrtCreateStream: an explicit stream in this context");

    Section("4.4 Memory: host and device are two domains; data moves by memcpy");
    const size_t size = 1 << 20;
    size_t free_before = 0, total = 0;
    Check(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total), "aclrtGetMemInfo");
    void* host_in = nullptr;
    void* host_out = nullptr;
    void* dev_a = nullptr;
    void* dev_b = nullptr;
    Check(aclrtMallocHost(&host_in, size), "aclrtMallocHost: pinned host memory for input");
    Check(aclrtMallocHost(&host_out, size), "aclrtMallocHost: pinned host memory for output");
    Check(aclrtMalloc(&dev_a, size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc: device buffer A");
    Check(aclrtMalloc(&dev_b, size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc: device buffer B");
    size_t free_after = 0;
    Check(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total), "aclrtGetMemInfo again");
    std::printf("       device memory free: %zu -> %zu bytes of %zu\n", free_before, free_after,
                total);

    auto* in = static_cast<unsigned char*>(host_in);
    for (size_t i = 0; i < size; ++i)
        in[i] = static_cast<unsigned char>(i * 31 + 7);
    Check(aclrtMemcpy(dev_a, size, host_in, size, ACL_MEMCPY_HOST_TO_DEVICE),
          "aclrtMemcpy host -> device A");
    Check(aclrtMemcpy(dev_b, size, dev_a, size, ACL_MEMCPY_DEVICE_TO_DEVICE),
          "aclrtMemcpy device A -> device B");
    Check(aclrtMemcpy(host_out, size, dev_b, size, ACL_MEMCPY_DEVICE_TO_HOST),
          "aclrtMemcpy device B -> host");
    if (std::memcmp(host_in, host_out, size) != 0) {
        std::printf("  FAILED: the data came back different\n");
        return 1;
    }
    std::printf("       %zu bytes made the round trip unchanged\n", size);

    // The chapter's other pitfall: ordinary malloc'd memory is not device memory.
    void* pageable = std::malloc(64);
    aclError rc = aclrtMemcpy(pageable, 64, host_in, 64, ACL_MEMCPY_HOST_TO_DEVICE);
    const char* message = aclGetRecentErrMsg();
    std::printf(
        "       malloc'd memory passed as a device destination gets error %d:\n"
        "       %s\n",
        rc, message ? message : "");
    std::free(pageable);

    Section("4.5 Synchronous vs asynchronous: keep the device busy and the CPU too");
    // A callback thread, as the chapter recommends: the stream tells the host when it is done.
    static std::atomic<bool> stop{false};
    static std::atomic<int> frames_done{0};
    std::thread reporter([context] {
        aclrtSetCurrentContext(context);
        while (!stop.load())
            aclrtProcessReport(100);
    });
    const uint64_t reporter_id = static_cast<uint64_t>(reporter.native_handle());
    Check(aclrtSubscribeReport(reporter_id, stream),
          "aclrtSubscribeReport: a host thread will run this stream's callbacks");
    aclrtEvent copied = nullptr;
    Check(aclrtCreateEvent(&copied), "aclrtCreateEvent");
    Check(aclrtMemsetAsync(dev_a, size, 0, size, stream),
          "aclrtMemsetAsync: queued; the call returns at once");
    Check(aclrtMemcpyAsync(dev_a, size, host_in, size, ACL_MEMCPY_HOST_TO_DEVICE, stream),
          "aclrtMemcpyAsync host -> device A: queued behind the memset");
    Check(aclrtRecordEvent(copied, stream), "aclrtRecordEvent: marks the end of the copy");
    Check(aclrtMemcpyAsync(host_out, size, dev_a, size, ACL_MEMCPY_DEVICE_TO_HOST, stream),
          "aclrtMemcpyAsync device A -> host");
    Check(aclrtLaunchCallback([](void*) { frames_done.fetch_add(1); }, nullptr, ACL_CALLBACK_BLOCK,
                              stream),
          "aclrtLaunchCallback: notify the host when the frame is back");
    std::printf("       the CPU is free meanwhile: it could prepare the next frame here\n");
    Check(aclrtSynchronizeEvent(copied), "aclrtSynchronizeEvent: wait only for the upload");
    Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream: the whole frame is done");
    std::printf("       callbacks run: %d; data %s\n", frames_done.load(),
                std::memcmp(host_in, host_out, size) == 0 ? "intact" : "CORRUPTED");
    if (frames_done.load() != 1 || std::memcmp(host_in, host_out, size) != 0) return 1;
    Check(aclrtUnSubscribeReport(reporter_id, stream), "aclrtUnSubscribeReport");
    stop = true;
    reporter.join();
    Check(aclrtDestroyEvent(copied), "aclrtDestroyEvent");

    Section("4.3 again: a kernel on the stream, its blocks spread over every core");
    aclrtBinHandle kernels = nullptr;
    Check(aclrtBinaryLoadFromFile(OPENACL_EXAMPLE_KERNELS, nullptr, &kernels),
          "aclrtBinaryLoadFromFile: the example kernels (examples/kernels)");
    aclrtFuncHandle vector_add = nullptr;
    Check(aclrtBinaryGetFunction(kernels, "vector_add", &vector_add),
          "aclrtBinaryGetFunction(\"vector_add\")");
    // z = x + y over the first n floats of A (x), B (y) and B again (z): arguments are one
    // 8-byte slot each, in device memory, as aclrtLaunchKernel documents.
    const uint64_t n = size / sizeof(float);
    auto* x = static_cast<float*>(host_in);
    for (uint64_t i = 0; i < n; ++i)
        x[i] = static_cast<float>(i);
    Check(aclrtMemcpy(dev_a, size, host_in, size, ACL_MEMCPY_HOST_TO_DEVICE), "x -> device A");
    Check(aclrtMemcpy(dev_b, size, host_in, size, ACL_MEMCPY_HOST_TO_DEVICE), "y -> device B");
    const uint64_t slots[4] = {reinterpret_cast<uint64_t>(dev_a), reinterpret_cast<uint64_t>(dev_b),
                               reinterpret_cast<uint64_t>(dev_b), n};
    void* args = nullptr;
    Check(aclrtMalloc(&args, sizeof slots, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc: arguments");
    Check(aclrtMemcpy(args, sizeof slots, slots, sizeof slots, ACL_MEMCPY_HOST_TO_DEVICE),
          "arguments -> device");
    Check(aclrtLaunchKernel(vector_add, 64, args, sizeof slots, stream),
          "aclrtLaunchKernel(vector_add, 64 blocks): queued on the stream");
    Check(aclrtMemcpyAsync(host_out, size, dev_b, size, ACL_MEMCPY_DEVICE_TO_HOST, stream),
          "aclrtMemcpyAsync: the result back, after the kernel");
    Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
    const auto* z = static_cast<const float*>(host_out);
    for (uint64_t i = 0; i < n; ++i) {
        if (z[i] != 2.0f * x[i]) {
            std::printf("  FAILED: z[%llu] = %f\n", static_cast<unsigned long long>(i), z[i]);
            return 1;
        }
    }
    std::printf("       all %llu sums are right\n", static_cast<unsigned long long>(n));
    Check(aclrtFree(args), "aclrtFree arguments");
    Check(aclrtBinaryUnLoad(kernels), "aclrtBinaryUnLoad");

    Section("Clean up in reverse order");
    Check(aclrtFree(dev_b), "aclrtFree B");
    Check(aclrtFree(dev_a), "aclrtFree A");
    Check(aclrtFreeHost(host_out), "aclrtFreeHost output");
    Check(aclrtFreeHost(host_in), "aclrtFreeHost input");
    Check(aclrtDestroyStream(stream), "aclrtDestroyStream");
    Check(aclrtDestroyContext(context), "aclrtDestroyContext");
    Check(aclrtResetDevice(device), "aclrtResetDevice(0): a forgotten reset leaks the device");
    Check(aclFinalize(), "aclFinalize");
    std::printf("\nall steps passed\n");
    return 0;
}
