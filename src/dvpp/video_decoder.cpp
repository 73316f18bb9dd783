#include "dvpp/video_decoder.h"

#include <libyuv.h>

#include <cstring>
#include <mutex>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>
}

namespace openacl::dvpp {

namespace {

std::string AvError(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

}  // namespace

void QuietLibav() {
    static std::once_flag once;
    // Only when nobody chose a level: a program that uses FFmpeg itself keeps its setting.
    std::call_once(once, [] {
        if (av_log_get_level() == AV_LOG_INFO) av_log_set_level(AV_LOG_FATAL);
    });
}

std::unique_ptr<VideoDecoder> VideoDecoder::Open(bool hevc, bool low_delay, std::string* error) {
    QuietLibav();
    const AVCodec* codec = avcodec_find_decoder(hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264);
    if (codec == nullptr) {
        *error = std::string("this libavcodec has no ") + (hevc ? "H.265" : "H.264") + " decoder";
        return nullptr;
    }
    std::unique_ptr<VideoDecoder> decoder(new VideoDecoder);
    decoder->ctx_ = avcodec_alloc_context3(codec);
    decoder->packet_ = av_packet_alloc();
    if (decoder->ctx_ == nullptr || decoder->packet_ == nullptr) {
        *error = "no memory for a decoder";
        return nullptr;
    }
    AVCodecContext* ctx = decoder->ctx_;
    // Slice threads only: frame threads would report a packet's errors on a later packet.
    ctx->thread_type = FF_THREAD_SLICE;
    ctx->thread_count = 1;
    // A damaged packet is an error on that frame, not a silently concealed picture.
    ctx->err_recognition = AV_EF_EXPLODE;
    if (low_delay) ctx->flags |= AV_CODEC_FLAG_LOW_DELAY;
    if (int rc = avcodec_open2(ctx, codec, nullptr); rc < 0) {
        *error = "libavcodec could not open the decoder: " + AvError(rc);
        return nullptr;
    }
    return decoder;
}

VideoDecoder::~VideoDecoder() {
    for (AVFrame* f : frames_)
        av_frame_free(&f);
    for (AVFrame* f : spare_)
        av_frame_free(&f);
    sws_freeContext(sws_);
    av_packet_free(&packet_);
    avcodec_free_context(&ctx_);
}

void VideoDecoder::Receive(std::vector<Decoded>* out) {
    for (;;) {
        AVFrame* frame = nullptr;
        if (!spare_.empty()) {
            frame = spare_.back();
            spare_.pop_back();
        } else {
            frame = av_frame_alloc();
            if (frame == nullptr) return;
        }
        if (avcodec_receive_frame(ctx_, frame) < 0) {
            spare_.push_back(frame);
            return;
        }
        frames_.push_back(frame);
        bool corrupt = (frame->flags & AV_FRAME_FLAG_CORRUPT) != 0 || frame->decode_error_flags;
        out->push_back({frame->pts, frame, corrupt});
    }
}

bool VideoDecoder::Send(const uint8_t* data, size_t size, int64_t tag, std::vector<Decoded>* out,
                        std::string* error) {
    for (AVFrame* f : frames_) {
        av_frame_unref(f);
        spare_.push_back(f);
    }
    frames_.clear();
    // libavcodec reads up to AV_INPUT_BUFFER_PADDING_SIZE bytes past a packet: decode a copy.
    av_packet_unref(packet_);
    if (int rc = av_new_packet(packet_, static_cast<int>(size)); rc < 0) {
        *error = "no memory for the packet: " + AvError(rc);
        return false;
    }
    std::memcpy(packet_->data, data, size);
    packet_->pts = tag;
    packet_->dts = AV_NOPTS_VALUE;
    int rc = avcodec_send_packet(ctx_, packet_);
    if (rc == AVERROR(EAGAIN)) {  // not expected with one packet per receive loop; retry once
        Receive(out);
        rc = avcodec_send_packet(ctx_, packet_);
    }
    Receive(out);
    if (rc < 0) {
        *error = "libavcodec rejected the frame: " + AvError(rc);
        return false;
    }
    return true;
}

void VideoDecoder::Flush(std::vector<Decoded>* out) {
    for (AVFrame* f : frames_) {
        av_frame_unref(f);
        spare_.push_back(f);
    }
    frames_.clear();
    avcodec_send_packet(ctx_, nullptr);
    Receive(out);
    avcodec_flush_buffers(ctx_);
}

bool VideoDecoder::Write(const AVFrame* frame, const Picture& dst, std::string* error) {
    const int w = frame->width;
    const int h = frame->height;
    const uint8_t* y = frame->data[0];
    const uint8_t* u = frame->data[1];
    const uint8_t* v = frame->data[2];
    int ys = frame->linesize[0], us = frame->linesize[1], vs = frame->linesize[2];
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    // 8-bit 4:2:0 goes straight to libyuv; anything else (10-bit, 4:2:2...) is first turned
    // into 8-bit 4:2:0 by libswscale.
    if (frame->format != AV_PIX_FMT_YUV420P && frame->format != AV_PIX_FMT_YUVJ420P) {
        sws_ = sws_getCachedContext(sws_, w, h, static_cast<AVPixelFormat>(frame->format), w, h,
                                    AV_PIX_FMT_YUV420P, SWS_BILINEAR, nullptr, nullptr, nullptr);
        if (sws_ == nullptr) {
            *error = std::string("libswscale cannot convert pixel format ") +
                     std::to_string(frame->format);
            return false;
        }
        scratch_.resize(static_cast<size_t>(w) * h + 2 * static_cast<size_t>(cw) * ch);
        uint8_t* planes[4] = {
            scratch_.data(), scratch_.data() + static_cast<size_t>(w) * h,
            scratch_.data() + static_cast<size_t>(w) * h + static_cast<size_t>(cw) * ch, nullptr};
        int strides[4] = {w, cw, cw, 0};
        sws_scale(sws_, frame->data, frame->linesize, 0, h, planes, strides);
        y = planes[0], u = planes[1], v = planes[2];
        ys = w, us = cw, vs = cw;
    }
    uint8_t* dy = dst.data;
    uint8_t* duv = dst.data + static_cast<size_t>(dst.ws) * dst.hs;
    const int dw = static_cast<int>(dst.width), dh = static_cast<int>(dst.height);
    const int ds = static_cast<int>(dst.ws);
    std::vector<uint8_t> scaled;
    if (dw != w || dh != h) {
        const int dcw = (dw + 1) / 2, dch = (dh + 1) / 2;
        scaled.resize(static_cast<size_t>(dw) * dh + 2 * static_cast<size_t>(dcw) * dch);
        uint8_t* sy = scaled.data();
        uint8_t* su = sy + static_cast<size_t>(dw) * dh;
        uint8_t* sv = su + static_cast<size_t>(dcw) * dch;
        libyuv::I420Scale(y, ys, u, us, v, vs, w, h, sy, dw, su, dcw, sv, dcw, dw, dh,
                          libyuv::kFilterBilinear);
        y = sy, u = su, v = sv;
        ys = dw, us = dcw, vs = dcw;
    }
    int rc = dst.format == PIXEL_FORMAT_YVU_SEMIPLANAR_420
                 ? libyuv::I420ToNV21(y, ys, u, us, v, vs, dy, ds, duv, ds, dw, dh)
                 : libyuv::I420ToNV12(y, ys, u, us, v, vs, dy, ds, duv, ds, dw, dh);
    if (rc != 0) {
        *error = "libyuv could not write the picture";
        return false;
    }
    return true;
}

}  // namespace openacl::dvpp
