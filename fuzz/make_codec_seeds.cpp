// Writes the seed corpora of jpeg_decode_fuzz, png_decode_fuzz and vdec_fuzz (fuzz/corpus/jpeg,
// fuzz/corpus/png, fuzz/corpus/vdec):
// small pictures and clips made here, so the seeds are reproducible and nothing is downloaded.
//   make_codec_seeds <corpus directory>
// Built on request (cmake --build build --target make_codec_seeds); the output is committed.
#include <turbojpeg.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/opt.h>
}

namespace {

void Write(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    std::printf("%s: %zu bytes\n", path.c_str(), bytes.size());
}

std::vector<uint8_t> Jpeg(int w, int h, int subsamp) {
    std::vector<uint8_t> rgb(static_cast<size_t>(w) * h * 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            uint8_t* p = &rgb[(static_cast<size_t>(y) * w + x) * 3];
            p[0] = static_cast<uint8_t>(255 * x / w);
            p[1] = static_cast<uint8_t>(255 * y / h);
            p[2] = static_cast<uint8_t>((x ^ y) & 0xff);
        }
    tjhandle tj = tjInitCompress();
    unsigned char* out = nullptr;
    unsigned long size = 0;
    tjCompress2(tj, rgb.data(), w, 0, h, TJPF_RGB, &out, &size, subsamp, 80, 0);
    std::vector<uint8_t> jpeg(out, out + size);
    tjFree(out);
    tjDestroy(tj);
    return jpeg;
}

// A w x h gradient PNG of `type` (CV_8UC1, CV_8UC3, CV_8UC4, CV_16UC3): grey, colour, colour
// with alpha, 16 bits per sample.
std::vector<uint8_t> Png(int w, int h, int type) {
    cv::Mat picture(h, w, type);
    const int channels = picture.channels();
    const int depth_max = CV_MAT_DEPTH(type) == CV_16U ? 65535 : 255;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < channels; ++c) {
                const int v = depth_max * ((x * (c + 1) + y * (3 - c)) % (w + h)) / (w + h);
                if (CV_MAT_DEPTH(type) == CV_16U) {
                    picture.ptr<uint16_t>(y)[x * channels + c] = static_cast<uint16_t>(v);
                } else {
                    picture.ptr<uint8_t>(y)[x * channels + c] = static_cast<uint8_t>(v);
                }
            }
    std::vector<uint8_t> png;
    cv::imencode(".png", picture, png);
    return png;
}

// One byte for vdec_fuzz's codec choice, then a 128x128 clip of `frames` frames.
std::vector<uint8_t> Clip(bool hevc, int frames) {
    std::vector<uint8_t> bytes{static_cast<uint8_t>(hevc ? 1 : 0)};
    const AVCodec* codec = avcodec_find_encoder_by_name(hevc ? "libx265" : "libx264");
    AVCodecContext* ctx = avcodec_alloc_context3(codec);
    ctx->width = 128;
    ctx->height = 128;
    ctx->pix_fmt = AV_PIX_FMT_YUV420P;
    ctx->time_base = AVRational{1, 30};
    ctx->max_b_frames = 0;
    ctx->thread_count = 1;
    av_opt_set(ctx->priv_data, "preset", "ultrafast", 0);
    av_opt_set(ctx->priv_data, "tune", "zerolatency", 0);
    av_opt_set(ctx->priv_data, "crf", "35", 0);
    if (hevc) av_opt_set(ctx->priv_data, "x265-params", "log-level=error:pools=none", 0);
    avcodec_open2(ctx, codec, nullptr);
    AVFrame* frame = av_frame_alloc();
    frame->format = AV_PIX_FMT_YUV420P;
    frame->width = 128;
    frame->height = 128;
    av_frame_get_buffer(frame, 0);
    AVPacket* pkt = av_packet_alloc();
    auto drain = [&] {
        while (avcodec_receive_packet(ctx, pkt) == 0) {
            bytes.insert(bytes.end(), pkt->data, pkt->data + pkt->size);
            av_packet_unref(pkt);
        }
    };
    for (int i = 0; i < frames; ++i) {
        av_frame_make_writable(frame);
        for (int p = 0; p < 3; ++p) {
            const int n = p == 0 ? 128 : 64;
            for (int y = 0; y < n; ++y)
                for (int x = 0; x < n; ++x)
                    frame->data[p][y * frame->linesize[p] + x] =
                        static_cast<uint8_t>(p == 0 ? (x + y + 4 * i) : 128 + (x - y) / 2);
        }
        frame->pts = i;
        avcodec_send_frame(ctx, frame);
        drain();
    }
    avcodec_send_frame(ctx, nullptr);
    drain();
    av_packet_free(&pkt);
    av_frame_free(&frame);
    avcodec_free_context(&ctx);
    return bytes;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <corpus directory>\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    Write(dir + "/jpeg/gradient_420.jpg", Jpeg(48, 40, TJSAMP_420));
    Write(dir + "/jpeg/gradient_444.jpg", Jpeg(33, 35, TJSAMP_444));
    Write(dir + "/jpeg/gradient_grey.jpg", Jpeg(40, 32, TJSAMP_GRAY));
    Write(dir + "/png/gradient_grey.png", Png(40, 32, CV_8UC1));
    Write(dir + "/png/gradient_rgb.png", Png(33, 35, CV_8UC3));
    Write(dir + "/png/gradient_rgba.png", Png(32, 32, CV_8UC4));
    Write(dir + "/png/gradient_rgb16.png", Png(32, 40, CV_16UC3));
    Write(dir + "/vdec/h264_128x128_3.bin", Clip(false, 3));
    Write(dir + "/vdec/h265_128x128_2.bin", Clip(true, 2));
    return 0;
}
