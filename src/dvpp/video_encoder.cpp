#include "dvpp/video_encoder.h"

#include <libyuv.h>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/opt.h>
}

#include "dvpp/video_decoder.h"

namespace openacl::dvpp {

namespace {

std::string AvError(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

}  // namespace

std::unique_ptr<VideoEncoder> VideoEncoder::Open(const EncoderSettings& s, std::string* error) {
    QuietLibav();
    const bool hevc = s.format == H265_MAIN_LEVEL;
    const char* name = hevc ? "libx265" : "libx264";
    const AVCodec* codec = avcodec_find_encoder_by_name(name);
    if (codec == nullptr) {
        *error = std::string("this libavcodec was built without ") + name + ", which openacl " +
                 "uses to encode " + (hevc ? "H.265" : "H.264");
        return nullptr;
    }
    std::unique_ptr<VideoEncoder> encoder(new VideoEncoder);
    encoder->ctx_ = avcodec_alloc_context3(codec);
    encoder->frame_ = av_frame_alloc();
    encoder->packet_ = av_packet_alloc();
    if (encoder->ctx_ == nullptr || encoder->frame_ == nullptr || encoder->packet_ == nullptr) {
        *error = "no memory for an encoder";
        return nullptr;
    }
    AVCodecContext* ctx = encoder->ctx_;
    ctx->width = static_cast<int>(s.width);
    ctx->height = static_cast<int>(s.height);
    ctx->pix_fmt = AV_PIX_FMT_YUV420P;
    ctx->time_base = AVRational{1, static_cast<int>(s.frame_rate)};
    ctx->framerate = AVRational{static_cast<int>(s.frame_rate), 1};
    ctx->gop_size = static_cast<int>(s.key_frame_interval);
    ctx->max_b_frames = 0;
    ctx->thread_count = 1;
    const int64_t bps = static_cast<int64_t>(s.max_kbps) * 1000;
    ctx->rc_max_rate = bps;
    ctx->rc_buffer_size = static_cast<int>(bps);
    if (s.rc_mode == 2) {  // CBR: the target is the maximum
        ctx->bit_rate = bps;
        ctx->rc_min_rate = bps;
    } else {  // VBR: constant quality, capped at the maximum
        av_opt_set(ctx->priv_data, "crf", "23", 0);
    }
    av_opt_set(ctx->priv_data, "preset", "veryfast", 0);
    av_opt_set(ctx->priv_data, "tune", "zerolatency", 0);
    av_opt_set(ctx->priv_data, "forced-idr", "1", 0);
    if (hevc) {
        av_opt_set(ctx->priv_data, "x265-params", "log-level=error:pools=none:frame-threads=1", 0);
    } else {
        const char* profile = s.format == H264_BASELINE_LEVEL ? "baseline"
                              : s.format == H264_MAIN_LEVEL   ? "main"
                                                              : "high";
        av_opt_set(ctx->priv_data, "profile", profile, 0);
    }
    if (int rc = avcodec_open2(ctx, codec, nullptr); rc < 0) {
        *error = std::string(name) + " could not be opened: " + AvError(rc);
        return nullptr;
    }
    AVFrame* frame = encoder->frame_;
    frame->format = AV_PIX_FMT_YUV420P;
    frame->width = ctx->width;
    frame->height = ctx->height;
    if (int rc = av_frame_get_buffer(frame, 0); rc < 0) {
        *error = "no memory for the encoder's picture: " + AvError(rc);
        return nullptr;
    }
    return encoder;
}

VideoEncoder::~VideoEncoder() {
    av_packet_free(&packet_);
    av_frame_free(&frame_);
    avcodec_free_context(&ctx_);
}

void VideoEncoder::Receive(std::vector<Encoded>* out) {
    while (avcodec_receive_packet(ctx_, packet_) >= 0) {
        out->push_back({packet_->pts,
                        std::vector<uint8_t>(packet_->data, packet_->data + packet_->size),
                        (packet_->flags & AV_PKT_FLAG_KEY) != 0});
        av_packet_unref(packet_);
    }
}

bool VideoEncoder::Send(const Picture& pic, int64_t tag, bool force_key, std::vector<Encoded>* out,
                        std::string* error) {
    if (int rc = av_frame_make_writable(frame_); rc < 0) {
        *error = "the encoder's picture is busy: " + AvError(rc);
        return false;
    }
    const uint32_t hs = pic.hs != 0 ? pic.hs : pic.height;
    const uint8_t* uv = pic.data + static_cast<size_t>(pic.ws) * hs;
    const int w = static_cast<int>(pic.width), h = static_cast<int>(pic.height);
    const int ws = static_cast<int>(pic.ws);
    auto convert =
        pic.format == PIXEL_FORMAT_YVU_SEMIPLANAR_420 ? libyuv::NV21ToI420 : libyuv::NV12ToI420;
    convert(pic.data, ws, uv, ws, frame_->data[0], frame_->linesize[0], frame_->data[1],
            frame_->linesize[1], frame_->data[2], frame_->linesize[2], w, h);
    frame_->pts = tag;
    frame_->pict_type = force_key ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
    int rc = avcodec_send_frame(ctx_, frame_);
    Receive(out);
    if (rc < 0) {
        *error = "the encoder refused the picture: " + AvError(rc);
        return false;
    }
    return true;
}

void VideoEncoder::Flush(std::vector<Encoded>* out) {
    avcodec_send_frame(ctx_, nullptr);
    Receive(out);
}

}  // namespace openacl::dvpp
