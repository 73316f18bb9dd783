// Fuzz target: video decoding (VDEC) on arbitrary bytes. The first byte picks the codec (even:
// H.264, odd: H.265); the rest is cut into frames at each Annex-B start code, and each frame
// is sent as aclvdecSendFrame does, then an end of stream. Every send must get exactly one
// callback, with a picture or an error code: no crash, hang or leak.
#define ENABLE_DVPP_INTERFACE
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

namespace {

std::atomic<int> g_callbacks{0};

void OnFrame(acldvppStreamDesc*, acldvppPicDesc*, void*) {
    g_callbacks.fetch_add(1);
}

// The device and the report thread, for the whole run.
struct Service {
    aclrtContext context = nullptr;
    std::atomic<uint64_t> thread_id{0};
    Service() {
        aclrtSetDevice(0);
        aclrtGetCurrentContext(&context);
        std::thread([this] {
            aclrtSetCurrentContext(context);
            thread_id.store(static_cast<uint64_t>(pthread_self()));
            for (;;) {
                if (aclrtProcessReport(100) != ACL_SUCCESS) {
                    aclGetRecentErrMsg();
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
            }
        }).detach();
        while (thread_id.load() == 0)
            std::this_thread::yield();
    }
};

[[noreturn]] void Die(const char* call) {
    const char* why = aclGetRecentErrMsg();
    std::fprintf(stderr, "%s failed: %s\n", call, why != nullptr ? why : "(no message)");
    std::abort();
}

std::vector<std::pair<size_t, size_t>> SplitAtStartCodes(const uint8_t* data, size_t size) {
    std::vector<size_t> starts;
    for (size_t i = 0; i + 2 < size; ++i) {
        if (data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1) starts.push_back(i);
    }
    std::vector<std::pair<size_t, size_t>> frames;
    if (starts.empty() || starts[0] != 0) starts.insert(starts.begin(), 0);
    for (size_t k = 0; k < starts.size(); ++k) {
        size_t end = k + 1 < starts.size() ? starts[k + 1] : size;
        if (end > starts[k]) frames.emplace_back(starts[k], end - starts[k]);
    }
    return frames;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static Service service;
    if (size < 2) return 0;
    const bool hevc = data[0] & 1;
    const auto frames = SplitAtStartCodes(data + 1, size - 1);
    if (frames.size() > 64) return 0;  // bounded work per input
    aclvdecChannelDesc* channel = aclvdecCreateChannelDesc();
    aclvdecSetChannelDescThreadId(channel, service.thread_id.load());
    aclvdecSetChannelDescCallback(channel, OnFrame);
    aclvdecSetChannelDescEnType(channel, hevc ? H265_MAIN_LEVEL : H264_MAIN_LEVEL);
    aclvdecSetChannelDescOutPicWidth(channel, 1024);  // bounded pictures
    aclvdecSetChannelDescOutPicHeight(channel, 1024);
    if (aclvdecCreateChannel(channel) != ACL_SUCCESS) Die("aclvdecCreateChannel");
    const uint32_t out_size = 1024 * 1024 * 3 / 2;
    std::vector<void*> buffers;
    std::vector<acldvppStreamDesc*> inputs;
    std::vector<acldvppPicDesc*> outputs;
    g_callbacks.store(0);
    int sent = 0;
    for (const auto& [at, n] : frames) {
        void* in = nullptr;
        void* out = nullptr;
        acldvppMalloc(&in, n);
        acldvppMalloc(&out, out_size);
        aclrtMemcpy(in, n, data + 1 + at, n, ACL_MEMCPY_HOST_TO_DEVICE);
        buffers.push_back(in);
        buffers.push_back(out);
        inputs.push_back(acldvppCreateStreamDesc());
        acldvppSetStreamDescData(inputs.back(), in);
        acldvppSetStreamDescSize(inputs.back(), static_cast<uint32_t>(n));
        outputs.push_back(acldvppCreatePicDesc());
        acldvppSetPicDescData(outputs.back(), out);
        acldvppSetPicDescSize(outputs.back(), out_size);
        if (aclvdecSendFrame(channel, inputs.back(), outputs.back(), nullptr, nullptr) ==
            ACL_SUCCESS) {
            ++sent;
        }
    }
    acldvppStreamDesc* eos = acldvppCreateStreamDesc();
    acldvppSetStreamDescEos(eos, 1);
    if (aclvdecSendFrame(channel, eos, nullptr, nullptr, nullptr) != ACL_SUCCESS) {
        Die("aclvdecSendFrame with eos");
    }
    if (g_callbacks.load() != sent) std::abort();  // one callback per send, before eos returns
    aclvdecDestroyChannel(channel);
    aclvdecDestroyChannelDesc(channel);
    acldvppDestroyStreamDesc(eos);
    for (auto* d : inputs)
        acldvppDestroyStreamDesc(d);
    for (auto* d : outputs)
        acldvppDestroyPicDesc(d);
    for (void* b : buffers)
        acldvppFree(b);
    aclGetRecentErrMsg();
    return 0;
}
