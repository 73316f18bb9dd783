// DVPP next to the libraries beneath it, called directly on the same data in the same process:
//   - video decode: a 1080p H.264 clip through VDEC (send every frame, eos) against
//     libavcodec's decoder with the same settings, alone and with the NV12 write VDEC does;
//   - JPEG decode: a 1080p 4:2:0 JPEG through acldvppJpegDecodeAsync (NV12) against
//     libjpeg-turbo's tjDecompressToYUVPlanes and OpenCV's cv::imdecode (BGR);
//   - VPC resize: 1080p NV12 to 640x360, 960x540 and 1280x720 bilinear through
//     acldvppVpcResizeAsync against cv::resize of both planes and libyuv's NV12Scale, and the
//     stream hand-off (NV12Scale as a host function on the VPC's stream; an empty one).
// Each benchmark reports a rate counter (fps or megapixels/s); docs/PERFORMANCE.md ("DVPP") has
// the method and the results. Target: overhead <= 5% over the library beneath.
#include <benchmark/benchmark.h>
#include <libyuv.h>
#include <pthread.h>
#include <turbojpeg.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
}

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "bench_common.h"

namespace {

using bench::NowNs;

// Process CPU time per item (all threads: the stream workers and the report thread included),
// next to the wall-clock rate: on a loaded machine the wall clock measures the load, the CPU
// time what each path costs.
class CpuPerItem {
 public:
    CpuPerItem() : cpu0_(bench::ProcessCpuSeconds()) {}
    void Report(benchmark::State& state, double items_per_iteration) const {
        const double items = static_cast<double>(state.iterations()) * items_per_iteration;
        if (items > 0) {
            state.counters["cpu_ms_per_item"] = (bench::ProcessCpuSeconds() - cpu0_) * 1e3 / items;
        }
    }

 private:
    double cpu0_;
};

constexpr int kW = 1920;
constexpr int kH = 1080;
constexpr int kClipFrames = 30;

void Check(aclError rc, const char* what) {
    if (rc != ACL_SUCCESS) {
        const char* msg = aclGetRecentErrMsg();
        std::fprintf(stderr, "%s failed with %d: %s\n", what, rc, msg ? msg : "(no message)");
        std::abort();
    }
}
#define CHECK_ACL(call) Check((call), #call)

// A 1080p NV12 frame: gradients moving with i, a textured patch.
std::vector<uint8_t> Frame(int i) {
    std::vector<uint8_t> nv12(static_cast<size_t>(kW) * kH * 3 / 2);
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x)
            nv12[static_cast<size_t>(y) * kW + x] =
                static_cast<uint8_t>((x + 4 * i) / 8 + y / 8 + (((x ^ y) & 16) ? 12 : 0));
    uint8_t* uv = nv12.data() + static_cast<size_t>(kW) * kH;
    for (int y = 0; y < kH / 2; ++y)
        for (int x = 0; x < kW; ++x)
            uv[static_cast<size_t>(y) * kW + x] = static_cast<uint8_t>(96 + (x + y + i) % 64);
    return nv12;
}

// The clip: kClipFrames frames of libx264 (veryfast, crf 23, GOP 30, no B-frames).
const std::vector<std::vector<uint8_t>>& Clip() {
    static const auto clip = [] {
        std::vector<std::vector<uint8_t>> packets;
        av_log_set_level(AV_LOG_ERROR);
        const AVCodec* codec = avcodec_find_encoder_by_name("libx264");
        AVCodecContext* ctx = avcodec_alloc_context3(codec);
        ctx->width = kW;
        ctx->height = kH;
        ctx->pix_fmt = AV_PIX_FMT_YUV420P;
        ctx->time_base = AVRational{1, 30};
        ctx->gop_size = 30;
        ctx->max_b_frames = 0;
        av_opt_set(ctx->priv_data, "preset", "veryfast", 0);
        av_opt_set(ctx->priv_data, "tune", "zerolatency", 0);
        av_opt_set(ctx->priv_data, "crf", "23", 0);
        if (avcodec_open2(ctx, codec, nullptr) < 0) std::abort();
        AVFrame* frame = av_frame_alloc();
        frame->format = AV_PIX_FMT_YUV420P;
        frame->width = kW;
        frame->height = kH;
        av_frame_get_buffer(frame, 0);
        AVPacket* pkt = av_packet_alloc();
        auto drain = [&] {
            while (avcodec_receive_packet(ctx, pkt) == 0) {
                packets.emplace_back(pkt->data, pkt->data + pkt->size);
                av_packet_unref(pkt);
            }
        };
        for (int i = 0; i < kClipFrames; ++i) {
            const auto nv12 = Frame(i);
            av_frame_make_writable(frame);
            libyuv::NV12ToI420(nv12.data(), kW, nv12.data() + kW * kH, kW, frame->data[0],
                               frame->linesize[0], frame->data[1], frame->linesize[1],
                               frame->data[2], frame->linesize[2], kW, kH);
            frame->pts = i;
            avcodec_send_frame(ctx, frame);
            drain();
        }
        avcodec_send_frame(ctx, nullptr);
        drain();
        av_packet_free(&pkt);
        av_frame_free(&frame);
        avcodec_free_context(&ctx);
        return packets;
    }();
    return clip;
}

// Device 0 with a stream and an image channel, for the whole run.
struct Device {
    aclrtContext context = nullptr;
    aclrtStream stream = nullptr;
    acldvppChannelDesc* channel = nullptr;
    Device() {
        CHECK_ACL(aclrtSetDevice(0));
        CHECK_ACL(aclrtGetCurrentContext(&context));
        CHECK_ACL(aclrtCreateStream(&stream));
        channel = acldvppCreateChannelDesc();
        CHECK_ACL(acldvppCreateChannel(channel));
    }
};
Device& Dev() {
    static Device device;
    CHECK_ACL(aclrtSetCurrentContext(device.context));
    return device;
}

void* MediaCopy(const std::vector<uint8_t>& host) {
    void* dev = nullptr;
    CHECK_ACL(acldvppMalloc(&dev, host.size()));
    CHECK_ACL(aclrtMemcpy(dev, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    return dev;
}

// ---- video decode ----

std::atomic<int> g_decoded{0};
void OnFrame(acldvppStreamDesc*, acldvppPicDesc* output, void*) {
    if (acldvppGetPicDescRetCode(output) != 0) std::abort();
    g_decoded.fetch_add(1, std::memory_order_relaxed);
}

void BM_H264Decode1080p_Vdec(benchmark::State& state) {
    Device& dev = Dev();
    const auto& clip = Clip();
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> tid{0};
    std::thread reporter([&] {
        aclrtSetCurrentContext(dev.context);
        tid.store(static_cast<uint64_t>(pthread_self()));
        while (!stop.load())
            if (aclrtProcessReport(10) != ACL_SUCCESS) aclGetRecentErrMsg();
    });
    while (tid.load() == 0)
        std::this_thread::yield();
    aclvdecChannelDesc* desc = aclvdecCreateChannelDesc();
    aclvdecSetChannelDescThreadId(desc, tid.load());
    aclvdecSetChannelDescCallback(desc, OnFrame);
    aclvdecSetChannelDescEnType(desc, H264_HIGH_LEVEL);
    CHECK_ACL(aclvdecCreateChannel(desc));
    std::vector<acldvppStreamDesc*> inputs;
    std::vector<acldvppPicDesc*> outputs;
    std::vector<void*> buffers;
    const uint32_t out_size = kW * kH * 3 / 2;  // 1080 is even: hs = 1080
    for (const auto& p : clip) {
        buffers.push_back(MediaCopy(p));
        inputs.push_back(acldvppCreateStreamDesc());
        acldvppSetStreamDescData(inputs.back(), buffers.back());
        acldvppSetStreamDescSize(inputs.back(), static_cast<uint32_t>(p.size()));
        void* out = nullptr;
        CHECK_ACL(acldvppMalloc(&out, out_size));
        buffers.push_back(out);
        outputs.push_back(acldvppCreatePicDesc());
        acldvppSetPicDescData(outputs.back(), out);
        acldvppSetPicDescSize(outputs.back(), out_size);
    }
    acldvppStreamDesc* eos = acldvppCreateStreamDesc();
    acldvppSetStreamDescEos(eos, 1);
    CpuPerItem cpu;
    for (auto _ : state) {
        g_decoded.store(0);
        const int64_t t0 = NowNs();
        for (size_t i = 0; i < inputs.size(); ++i)
            CHECK_ACL(aclvdecSendFrame(desc, inputs[i], outputs[i], nullptr, nullptr));
        CHECK_ACL(aclvdecSendFrame(desc, eos, nullptr, nullptr, nullptr));
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
        if (g_decoded.load() != static_cast<int>(inputs.size())) std::abort();
    }
    state.counters["fps"] = benchmark::Counter(
        static_cast<double>(state.iterations()) * static_cast<double>(inputs.size()),
        benchmark::Counter::kIsRate);
    cpu.Report(state, static_cast<double>(inputs.size()));
    CHECK_ACL(aclvdecDestroyChannel(desc));
    aclvdecDestroyChannelDesc(desc);
    stop.store(true);
    reporter.join();
    acldvppDestroyStreamDesc(eos);
    for (auto* d : inputs)
        acldvppDestroyStreamDesc(d);
    for (auto* d : outputs)
        acldvppDestroyPicDesc(d);
    for (void* b : buffers)
        acldvppFree(b);
}

// libavcodec with VDEC's settings (one thread, slice threading, AV_EF_EXPLODE); with_nv12
// also writes each picture as NV12, as VDEC does.
void H264DecodeDirect(benchmark::State& state, bool with_nv12) {
    const auto& clip = Clip();
    const AVCodec* codec = avcodec_find_decoder(AV_CODEC_ID_H264);
    AVCodecContext* ctx = avcodec_alloc_context3(codec);
    ctx->thread_type = FF_THREAD_SLICE;
    ctx->thread_count = 1;
    ctx->err_recognition = AV_EF_EXPLODE;
    if (avcodec_open2(ctx, codec, nullptr) < 0) std::abort();
    AVFrame* frame = av_frame_alloc();
    AVPacket* pkt = av_packet_alloc();
    std::vector<uint8_t> nv12(static_cast<size_t>(kW) * kH * 3 / 2);
    int frames = 0;
    auto drain = [&] {
        while (avcodec_receive_frame(ctx, frame) == 0) {
            if (with_nv12) {
                libyuv::I420ToNV12(frame->data[0], frame->linesize[0], frame->data[1],
                                   frame->linesize[1], frame->data[2], frame->linesize[2],
                                   nv12.data(), kW, nv12.data() + kW * kH, kW, kW, kH);
            }
            ++frames;
        }
    };
    CpuPerItem cpu;
    for (auto _ : state) {
        frames = 0;
        const int64_t t0 = NowNs();
        for (const auto& p : clip) {
            av_new_packet(pkt, static_cast<int>(p.size()));
            std::copy(p.begin(), p.end(), pkt->data);
            avcodec_send_packet(ctx, pkt);
            av_packet_unref(pkt);
            drain();
        }
        avcodec_send_packet(ctx, nullptr);
        drain();
        avcodec_flush_buffers(ctx);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
        if (frames != kClipFrames) std::abort();
    }
    state.counters["fps"] = benchmark::Counter(
        static_cast<double>(state.iterations()) * kClipFrames, benchmark::Counter::kIsRate);
    cpu.Report(state, kClipFrames);
    av_packet_free(&pkt);
    av_frame_free(&frame);
    avcodec_free_context(&ctx);
}
void BM_H264Decode1080p_Libavcodec(benchmark::State& state) {
    H264DecodeDirect(state, false);
}
void BM_H264Decode1080p_LibavcodecNv12(benchmark::State& state) {
    H264DecodeDirect(state, true);
}

// ---- JPEG decode ----

const std::vector<uint8_t>& Jpeg() {
    static const auto jpeg = [] {
        const auto nv12 = Frame(0);
        cv::Mat yuv(kH * 3 / 2, kW, CV_8UC1, const_cast<uint8_t*>(nv12.data()));
        cv::Mat bgr;
        cv::cvtColor(yuv, bgr, cv::COLOR_YUV2BGR_NV12);
        std::vector<uint8_t> out;
        cv::imencode(".jpg", bgr, out, {cv::IMWRITE_JPEG_QUALITY, 90});  // 4:2:0
        return out;
    }();
    return jpeg;
}

void SetMegapixels(benchmark::State& state) {
    state.counters["MP/s"] = benchmark::Counter(
        static_cast<double>(state.iterations()) * kW * kH * 1e-6, benchmark::Counter::kIsRate);
}

void BM_JpegDecode1080p_Dvpp(benchmark::State& state) {
    Device& dev = Dev();
    void* in = MediaCopy(Jpeg());
    const uint32_t ws = (kW + 127) / 128 * 128, hs = (kH + 15) / 16 * 16;
    const uint32_t out_size = ws * hs * 3 / 2;
    void* out = nullptr;
    CHECK_ACL(acldvppMalloc(&out, out_size));
    acldvppPicDesc* pic = acldvppCreatePicDesc();
    acldvppSetPicDescData(pic, out);
    acldvppSetPicDescSize(pic, out_size);
    acldvppSetPicDescFormat(pic, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    CpuPerItem cpu;
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        CHECK_ACL(acldvppJpegDecodeAsync(dev.channel, in, static_cast<uint32_t>(Jpeg().size()), pic,
                                         dev.stream));
        CHECK_ACL(aclrtSynchronizeStream(dev.stream));
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
    }
    SetMegapixels(state);
    cpu.Report(state, 1);
    acldvppDestroyPicDesc(pic);
    acldvppFree(in);
    acldvppFree(out);
}

void BM_JpegDecode1080p_TurboJpeg(benchmark::State& state) {
    const auto& jpeg = Jpeg();
    tjhandle tj = tjInitDecompress();
    std::vector<uint8_t> y(static_cast<size_t>(kW) * kH), u(kW * kH / 4), v(kW * kH / 4);
    unsigned char* planes[3] = {y.data(), u.data(), v.data()};
    int strides[3] = {kW, kW / 2, kW / 2};
    CpuPerItem cpu;
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        if (tjDecompressToYUVPlanes(tj, jpeg.data(), jpeg.size(), planes, kW, strides, kH, 0) !=
            0) {
            std::abort();
        }
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
    }
    SetMegapixels(state);
    cpu.Report(state, 1);
    tjDestroy(tj);
}

void BM_JpegDecode1080p_OpenCvImdecode(benchmark::State& state) {
    const auto& jpeg = Jpeg();
    cv::Mat bgr;
    CpuPerItem cpu;
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        cv::imdecode(jpeg, cv::IMREAD_COLOR, &bgr);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
    }
    SetMegapixels(state);
    cpu.Report(state, 1);
}

// ---- VPC resize ----
// 1080p NV12 to the size in the benchmark's arguments (width, height), bilinear.

int OutW(const benchmark::State& state) {
    return static_cast<int>(state.range(0));
}
int OutH(const benchmark::State& state) {
    return static_cast<int>(state.range(1));
}

acldvppPicDesc* Nv12Desc(void* data, int w, int h) {
    acldvppPicDesc* desc = acldvppCreatePicDesc();
    acldvppSetPicDescData(desc, data);
    acldvppSetPicDescSize(desc, static_cast<uint32_t>(w * h * 3 / 2));
    acldvppSetPicDescFormat(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(desc, static_cast<uint32_t>(w));
    acldvppSetPicDescHeight(desc, static_cast<uint32_t>(h));
    acldvppSetPicDescWidthStride(desc, static_cast<uint32_t>(w));
    acldvppSetPicDescHeightStride(desc, static_cast<uint32_t>(h));
    return desc;
}

void BM_Resize1080p_Vpc(benchmark::State& state) {
    Device& dev = Dev();
    const int ow = OutW(state), oh = OutH(state);
    void* in = MediaCopy(Frame(0));
    void* out = nullptr;
    CHECK_ACL(acldvppMalloc(&out, static_cast<uint32_t>(ow * oh * 3 / 2)));
    acldvppPicDesc* src = Nv12Desc(in, kW, kH);
    acldvppPicDesc* dst = Nv12Desc(out, ow, oh);
    acldvppResizeConfig* config = acldvppCreateResizeConfig();
    acldvppSetResizeConfigInterpolation(config, 1);  // bilinear
    CpuPerItem cpu;
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        CHECK_ACL(acldvppVpcResizeAsync(dev.channel, src, dst, config, dev.stream));
        CHECK_ACL(aclrtSynchronizeStream(dev.stream));
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
    }
    SetMegapixels(state);
    cpu.Report(state, 1);
    acldvppDestroyResizeConfig(config);
    acldvppDestroyPicDesc(src);
    acldvppDestroyPicDesc(dst);
    acldvppFree(in);
    acldvppFree(out);
}

// The stream hand-off alone: an empty host function and a synchronize on the stream the VPC
// benchmark uses, the part of a VPC call that is not image work.
void EmptyHostFunc(void*) {}
void BM_StreamHandOff(benchmark::State& state) {
    Device& dev = Dev();
    CpuPerItem cpu;
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        CHECK_ACL(aclrtLaunchHostFunc(dev.stream, EmptyHostFunc, nullptr));
        CHECK_ACL(aclrtSynchronizeStream(dev.stream));
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
    }
    cpu.Report(state, 1);
}

// NV12Scale run as a host function on the VPC benchmark's stream: the library beneath with the
// same hand-off as the VPC call, so the difference to BM_Resize1080p_Libyuv is the hand-off in
// context (the worker wakes for each job) and the difference to BM_Resize1080p_Vpc is VPC's
// own cost (argument checks and its image work against NV12Scale's).
struct Nv12ScaleJob {
    const uint8_t* in;
    uint8_t* out;
    int ow, oh;
};
void RunNv12Scale(void* arg) {
    const auto* job = static_cast<const Nv12ScaleJob*>(arg);
    libyuv::NV12Scale(job->in, kW, job->in + kW * kH, kW, kW, kH, job->out, job->ow,
                      job->out + job->ow * job->oh, job->ow, job->ow, job->oh,
                      libyuv::kFilterBilinear);
}
void BM_Resize1080p_LibyuvOnStream(benchmark::State& state) {
    Device& dev = Dev();
    const int ow = OutW(state), oh = OutH(state);
    const auto nv12 = Frame(0);
    std::vector<uint8_t> out(static_cast<size_t>(ow) * oh * 3 / 2);
    Nv12ScaleJob job{nv12.data(), out.data(), ow, oh};
    CpuPerItem cpu;
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        CHECK_ACL(aclrtLaunchHostFunc(dev.stream, RunNv12Scale, &job));
        CHECK_ACL(aclrtSynchronizeStream(dev.stream));
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
    }
    SetMegapixels(state);
    cpu.Report(state, 1);
}

void BM_Resize1080p_Libyuv(benchmark::State& state) {
    const int ow = OutW(state), oh = OutH(state);
    const auto nv12 = Frame(0);
    std::vector<uint8_t> out(static_cast<size_t>(ow) * oh * 3 / 2);
    CpuPerItem cpu;
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        libyuv::NV12Scale(nv12.data(), kW, nv12.data() + kW * kH, kW, kW, kH, out.data(), ow,
                          out.data() + ow * oh, ow, ow, oh, libyuv::kFilterBilinear);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
    }
    SetMegapixels(state);
    cpu.Report(state, 1);
}

void BM_Resize1080p_OpenCv(benchmark::State& state) {
    const int ow = OutW(state), oh = OutH(state);
    const auto nv12 = Frame(0);
    std::vector<uint8_t> out(static_cast<size_t>(ow) * oh * 3 / 2);
    cv::Mat sy(kH, kW, CV_8UC1, const_cast<uint8_t*>(nv12.data()));
    cv::Mat suv(kH / 2, kW / 2, CV_8UC2, const_cast<uint8_t*>(nv12.data()) + kW * kH);
    cv::Mat dy(oh, ow, CV_8UC1, out.data());
    cv::Mat duv(oh / 2, ow / 2, CV_8UC2, out.data() + ow * oh);
    CpuPerItem cpu;
    for (auto _ : state) {
        const int64_t t0 = NowNs();
        cv::resize(sy, dy, dy.size(), 0, 0, cv::INTER_LINEAR);
        cv::resize(suv, duv, duv.size(), 0, 0, cv::INTER_LINEAR);
        state.SetIterationTime(static_cast<double>(NowNs() - t0) * 1e-9);
    }
    SetMegapixels(state);
    cpu.Report(state, 1);
}

}  // namespace

#define OPENACL_DVPP_BENCH(fn)          \
    BENCHMARK(fn)                       \
        ->UseManualTime()               \
        ->Unit(benchmark::kMillisecond) \
        ->Repetitions(5)                \
        ->ReportAggregatesOnly(true)

OPENACL_DVPP_BENCH(BM_H264Decode1080p_Vdec);
OPENACL_DVPP_BENCH(BM_H264Decode1080p_LibavcodecNv12);
OPENACL_DVPP_BENCH(BM_H264Decode1080p_Libavcodec);
OPENACL_DVPP_BENCH(BM_JpegDecode1080p_Dvpp);
OPENACL_DVPP_BENCH(BM_JpegDecode1080p_TurboJpeg);
OPENACL_DVPP_BENCH(BM_JpegDecode1080p_OpenCvImdecode);
// 640x360 and 960x540: integer factors (1/3, 1/2), where VPC scales the interleaved chroma as
// NV12Scale does; 1280x720 (2/3): the planar chroma path.
#define OPENACL_RESIZE_SIZES(b) \
    OPENACL_DVPP_BENCH(b)->Args({640, 360})->Args({960, 540})->Args({1280, 720})
OPENACL_RESIZE_SIZES(BM_Resize1080p_Vpc);
OPENACL_RESIZE_SIZES(BM_Resize1080p_Libyuv);
OPENACL_RESIZE_SIZES(BM_Resize1080p_LibyuvOnStream);
OPENACL_RESIZE_SIZES(BM_Resize1080p_OpenCv);
OPENACL_DVPP_BENCH(BM_StreamHandOff);

BENCHMARK_MAIN();
