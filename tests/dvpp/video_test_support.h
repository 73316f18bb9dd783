// Helpers for the VDEC/VENC tests: a report thread (loops on aclrtProcessReport, as the
// samples' threads do), synthetic clips (moving gradients, NV12) encoded at test time with
// libavcodec's libx264/libx265 into one Annex-B packet per frame, an independent libavcodec
// decoder to compare with, and PSNR. Nothing is downloaded.
#pragma once

#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
}

#include "acl/acl.h"

// aclInit with the chip `soc` (OPENACL_SOC_NAME, which aclInit reads), aclFinalize after.
class ChipTest : public ::testing::Test {
 protected:
    explicit ChipTest(const char* soc) : soc_(soc) {}
    void SetUp() override {
        setenv("OPENACL_SOC_NAME", soc_, 1);
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    }
    void TearDown() override {
        aclFinalize();
        unsetenv("OPENACL_SOC_NAME");
        aclGetRecentErrMsg();
    }

 private:
    const char* soc_;
};

// A thread serving callbacks in the given context until destroyed.
class ReportThread {
 public:
    explicit ReportThread(aclrtContext context) {
        thread_ = std::thread([this, context] {
            aclrtSetCurrentContext(context);
            id_.store(static_cast<uint64_t>(pthread_self()));
            while (!stop_.load()) {
                // Times out, or no channel subscribes this thread yet: loop on.
                aclError rc = aclrtProcessReport(10);
                if (rc != ACL_SUCCESS) {
                    aclGetRecentErrMsg();
                    if (rc != ACL_ERROR_RT_REPORT_TIMEOUT)
                        std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
            }
        });
        while (id_.load() == 0)
            std::this_thread::yield();
    }
    ~ReportThread() {
        stop_.store(true);
        thread_.join();
    }
    uint64_t id() const { return id_.load(); }

 private:
    std::atomic<bool> stop_{false};
    std::atomic<uint64_t> id_{0};
    std::thread thread_;
};

// Frame i of a w x h synthetic clip, NV12 with strides w x h: a gradient moving 2 px a frame
// with a bright square, so motion compensation has something to do.
inline std::vector<uint8_t> ClipFrame(int w, int h, int i) {
    std::vector<uint8_t> nv12(static_cast<size_t>(w) * h * 3 / 2);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            int v = 40 + ((x + 2 * i) * 160 / w + y * 30 / h) % 170;
            if (x >= 20 + 3 * i && x < 50 + 3 * i && y >= 30 && y < 60) v = 230;
            nv12[static_cast<size_t>(y) * w + x] = static_cast<uint8_t>(v);
        }
    uint8_t* uv = nv12.data() + static_cast<size_t>(w) * h;
    for (int y = 0; y < h / 2; ++y)
        for (int x = 0; x < w / 2; ++x) {
            uv[y * w + 2 * x] = static_cast<uint8_t>(90 + (x + i) * 60 / (w / 2));
            uv[y * w + 2 * x + 1] = static_cast<uint8_t>(160 - y * 60 / (h / 2));
        }
    return nv12;
}

// PSNR of two luma planes (w x h, pitches pa / pb), in dB.
inline double LumaPsnr(const uint8_t* a, int pa, const uint8_t* b, int pb, int w, int h) {
    double se = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            double d = double(a[y * pa + x]) - double(b[y * pb + x]);
            se += d * d;
        }
    double mse = se / (double(w) * h);
    return mse == 0 ? 99.0 : 10 * std::log10(255.0 * 255.0 / mse);
}

// Encodes `frames` clip frames with libx264 (hevc: libx265) at high quality, no B-frames:
// one Annex-B packet per frame, the first with the parameter sets.
// With b_frames > 0 (H.264 only) the packets come in decoding order; *display (if given) gets
// each packet's frame index.
inline std::vector<std::vector<uint8_t>> EncodeClip(bool hevc, int w, int h, int frames,
                                                    int gop = 30, int b_frames = 0,
                                                    std::vector<int>* display = nullptr) {
    std::vector<std::vector<uint8_t>> packets;
    av_log_set_level(AV_LOG_ERROR);  // no encoder statistics in the test log
    const AVCodec* codec = avcodec_find_encoder_by_name(hevc ? "libx265" : "libx264");
    if (codec == nullptr) {
        ADD_FAILURE() << "libavcodec has no " << (hevc ? "libx265" : "libx264");
        return packets;
    }
    AVCodecContext* ctx = avcodec_alloc_context3(codec);
    ctx->width = w;
    ctx->height = h;
    ctx->pix_fmt = AV_PIX_FMT_YUV420P;
    ctx->time_base = AVRational{1, 30};
    ctx->gop_size = gop;
    ctx->max_b_frames = b_frames;
    ctx->thread_count = 1;
    av_opt_set(ctx->priv_data, "preset", "veryfast", 0);
    if (b_frames == 0) av_opt_set(ctx->priv_data, "tune", "zerolatency", 0);
    av_opt_set(ctx->priv_data, "crf", "18", 0);
    if (hevc) av_opt_set(ctx->priv_data, "x265-params", "log-level=error:pools=none", 0);
    EXPECT_EQ(avcodec_open2(ctx, codec, nullptr), 0);
    AVFrame* frame = av_frame_alloc();
    frame->format = AV_PIX_FMT_YUV420P;
    frame->width = w;
    frame->height = h;
    EXPECT_EQ(av_frame_get_buffer(frame, 0), 0);
    AVPacket* pkt = av_packet_alloc();
    auto drain = [&] {
        while (avcodec_receive_packet(ctx, pkt) == 0) {
            packets.emplace_back(pkt->data, pkt->data + pkt->size);
            if (display != nullptr) display->push_back(static_cast<int>(pkt->pts));
            av_packet_unref(pkt);
        }
    };
    for (int i = 0; i < frames; ++i) {
        std::vector<uint8_t> nv12 = ClipFrame(w, h, i);
        av_frame_make_writable(frame);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                frame->data[0][y * frame->linesize[0] + x] = nv12[static_cast<size_t>(y) * w + x];
        const uint8_t* uv = nv12.data() + static_cast<size_t>(w) * h;
        for (int y = 0; y < h / 2; ++y)
            for (int x = 0; x < w / 2; ++x) {
                frame->data[1][y * frame->linesize[1] + x] = uv[y * w + 2 * x];
                frame->data[2][y * frame->linesize[2] + x] = uv[y * w + 2 * x + 1];
            }
        frame->pts = i;
        EXPECT_EQ(avcodec_send_frame(ctx, frame), 0);
        drain();
    }
    avcodec_send_frame(ctx, nullptr);
    drain();
    av_packet_free(&pkt);
    av_frame_free(&frame);
    avcodec_free_context(&ctx);
    return packets;
}

// Decodes packets with libavcodec directly: the luma planes (w x h, packed) in output order.
inline std::vector<std::vector<uint8_t>> ReferenceDecode(
    bool hevc, const std::vector<std::vector<uint8_t>>& packets) {
    std::vector<std::vector<uint8_t>> lumas;
    const AVCodec* codec = avcodec_find_decoder(hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264);
    AVCodecContext* ctx = avcodec_alloc_context3(codec);
    ctx->thread_count = 1;
    EXPECT_EQ(avcodec_open2(ctx, codec, nullptr), 0);
    AVFrame* frame = av_frame_alloc();
    AVPacket* pkt = av_packet_alloc();
    auto drain = [&] {
        while (avcodec_receive_frame(ctx, frame) == 0) {
            std::vector<uint8_t> y(static_cast<size_t>(frame->width) * frame->height);
            for (int r = 0; r < frame->height; ++r)
                std::copy_n(frame->data[0] + r * frame->linesize[0], frame->width,
                            y.data() + static_cast<size_t>(r) * frame->width);
            lumas.push_back(std::move(y));
        }
    };
    for (const auto& p : packets) {
        av_new_packet(pkt, static_cast<int>(p.size()));
        std::copy(p.begin(), p.end(), pkt->data);
        avcodec_send_packet(ctx, pkt);
        av_packet_unref(pkt);
        drain();
    }
    avcodec_send_packet(ctx, nullptr);
    drain();
    av_packet_free(&pkt);
    av_frame_free(&frame);
    avcodec_free_context(&ctx);
    return lumas;
}
