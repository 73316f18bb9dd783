// Writes a sample clip for the video pipeline, so the demo runs without downloading anything:
// a camera panning over a fine-grained textured scene (from a fixed seed) with coloured shapes
// moving across it and the frame number burnt in. The texture gives the clip the detail of
// real footage, so decoding it costs what decoding a camera's stream does (a flat synthetic
// picture would decode almost for free). H.264 in .mp4 (or Motion-JPEG in .avi), through
// OpenCV's videoio (FFmpeg); or, for a .h264 name, an H.264 Annex-B elementary stream written
// with libavcodec's libx264 as a camera's encoder sends it to a decoder: no container, no
// B-frames, one slice per frame (the input of the pipeline's --dvpp mode, which feeds VDEC).
//
//   make_clip OUTPUT.mp4|OUTPUT.avi|OUTPUT.h264 [FRAMES [WIDTH HEIGHT [b-frames]]]
//
// b-frames (.h264 only) writes two B-frames between the others, a stream --dvpp must refuse.
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/opt.h>
}

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

bool ParseCount(const char* text, int min, int max, int* value) {
    char* end = nullptr;
    long parsed = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || parsed < min || parsed > max) return false;
    *value = static_cast<int>(parsed);
    return true;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The scene the camera pans over: uniform noise, blurred (sigma 2 px), twice the frame's size.
cv::Mat MakeScene(int width, int height) {
    cv::Mat scene(height * 2, width * 2, CV_8UC3);
    cv::RNG rng(20261130);
    rng.fill(scene, cv::RNG::UNIFORM, 0, 256);
    cv::GaussianBlur(scene, scene, cv::Size(0, 0), 2.0);
    return scene;
}

void DrawFrame(const cv::Mat& scene, cv::Mat& frame, int index) {
    const int w = frame.cols, h = frame.rows;
    // Pan slowly, back and forth, never leaving the scene.
    const int x = static_cast<int>((w - 1) * (0.5 + 0.5 * std::sin(index / 40.0)));
    const int y = static_cast<int>((h - 1) * (0.5 + 0.5 * std::sin(index / 55.0)));
    scene(cv::Rect(x, y, w, h)).copyTo(frame);
    const double t = index / 25.0;
    const cv::Scalar colours[] = {{40, 40, 230}, {40, 200, 40}, {230, 120, 30}, {230, 230, 230}};
    for (int i = 0; i < 4; ++i) {
        const double phase = t * (0.6 + 0.25 * i) + i * 1.7;
        const cv::Point centre(static_cast<int>(w * (0.5 + 0.38 * std::sin(phase))),
                               static_cast<int>(h * (0.5 + 0.35 * std::cos(phase * 1.3))));
        const int size = h / 10 + (h / 20) * i;
        if (i % 2 == 0) {
            cv::circle(frame, centre, size, colours[i], cv::FILLED, cv::LINE_AA);
        } else {
            cv::rectangle(frame, centre - cv::Point(size, size * 2 / 3),
                          centre + cv::Point(size, size * 2 / 3), colours[i], cv::FILLED);
        }
    }
    cv::putText(frame, "openacl sample clip  frame " + std::to_string(index), cv::Point(20, 40),
                cv::FONT_HERSHEY_SIMPLEX, h / 720.0 + 0.2, cv::Scalar(255, 255, 255), 2,
                cv::LINE_AA);
}

// Writes `frames` frames to `path` as an H.264 elementary stream; false (after saying why) when
// libavcodec cannot.
bool WriteH264(const std::string& path, const cv::Mat& scene, int frames, int width, int height,
               bool b_frames) {
    av_log_set_level(AV_LOG_ERROR);
    const AVCodec* codec = avcodec_find_encoder_by_name("libx264");
    if (codec == nullptr) {
        std::fprintf(stderr, "make_clip: libavcodec has no libx264 encoder\n");
        return false;
    }
    AVCodecContext* ctx = avcodec_alloc_context3(codec);
    ctx->width = width;
    ctx->height = height;
    ctx->pix_fmt = AV_PIX_FMT_YUV420P;
    ctx->time_base = AVRational{1, 25};
    ctx->gop_size = 50;
    ctx->max_b_frames = b_frames ? 2 : 0;  // none: each frame comes out as it goes in
    ctx->thread_count = 1;                 // one slice per frame
    av_opt_set(ctx->priv_data, "preset", "veryfast", 0);
    av_opt_set(ctx->priv_data, "crf", "20", 0);
    AVFrame* frame = av_frame_alloc();
    AVPacket* packet = av_packet_alloc();
    std::FILE* file = std::fopen(path.c_str(), "wb");
    bool ok = file != nullptr && avcodec_open2(ctx, codec, nullptr) == 0;
    frame->format = AV_PIX_FMT_YUV420P;
    frame->width = width;
    frame->height = height;
    ok = ok && av_frame_get_buffer(frame, 0) == 0;
    auto drain = [&] {
        while (ok && avcodec_receive_packet(ctx, packet) == 0) {
            ok = std::fwrite(packet->data, 1, static_cast<size_t>(packet->size), file) ==
                 static_cast<size_t>(packet->size);
            av_packet_unref(packet);
        }
    };
    cv::Mat bgr(height, width, CV_8UC3), i420;
    for (int i = 0; ok && i < frames; ++i) {
        DrawFrame(scene, bgr, i);
        cv::cvtColor(bgr, i420, cv::COLOR_BGR2YUV_I420);  // BT.601, limited range
        ok = av_frame_make_writable(frame) == 0;
        const uint8_t* planes[3] = {i420.data, i420.data + width * height,
                                    i420.data + width * height * 5 / 4};
        for (int p = 0; ok && p < 3; ++p) {
            const int w = p == 0 ? width : width / 2, h = p == 0 ? height : height / 2;
            for (int y = 0; y < h; ++y)
                std::memcpy(frame->data[p] + y * frame->linesize[p], planes[p] + y * w,
                            static_cast<size_t>(w));
        }
        frame->pts = i;
        ok = ok && avcodec_send_frame(ctx, frame) == 0;
        drain();
    }
    if (ok) avcodec_send_frame(ctx, nullptr);
    drain();
    if (file != nullptr && std::fclose(file) != 0) ok = false;
    av_packet_free(&packet);
    av_frame_free(&frame);
    avcodec_free_context(&ctx);
    if (!ok) std::fprintf(stderr, "make_clip: cannot encode or write %s\n", path.c_str());
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    int frames = 150, width = 1280, height = 720;
    const bool b_frames = argc == 6 && std::string(argv[5]) == "b-frames";
    if (argc < 2 || argc == 4 || argc > 6 || (argc == 6 && !b_frames) ||
        (argc >= 3 && !ParseCount(argv[2], 1, 100000, &frames)) ||
        (argc >= 5 &&
         (!ParseCount(argv[3], 16, 7680, &width) || !ParseCount(argv[4], 16, 4320, &height)))) {
        std::fprintf(
            stderr,
            "usage: %s OUTPUT.mp4|OUTPUT.avi|OUTPUT.h264 [FRAMES [WIDTH HEIGHT [b-frames]]]\n",
            argv[0]);
        return 2;
    }
    const std::string path = argv[1];
    if (EndsWith(path, ".h264")) {
        if (width % 2 != 0 || height % 2 != 0) {
            std::fprintf(stderr, "make_clip: H.264 (4:2:0) needs an even width and height\n");
            return 2;
        }
        const std::string partial = path.substr(0, path.size() - 5) + ".partial.h264";
        if (!WriteH264(partial, MakeScene(width, height), frames, width, height, b_frames))
            return 1;
        if (std::rename(partial.c_str(), path.c_str()) != 0) {
            std::perror("make_clip: rename");
            return 1;
        }
        std::printf("make_clip: wrote %s: %d frames, %dx%d, H.264 Annex-B\n", path.c_str(), frames,
                    width, height);
        return 0;
    }
    if (b_frames) {
        std::fprintf(stderr, "make_clip: b-frames is for .h264 outputs\n");
        return 2;
    }
    int fourcc = 0;
    if (EndsWith(path, ".mp4")) {
        fourcc = cv::VideoWriter::fourcc('a', 'v', 'c', '1');
    } else if (EndsWith(path, ".avi")) {
        fourcc = cv::VideoWriter::fourcc('M', 'J', 'P', 'G');
    } else {
        std::fprintf(stderr,
                     "make_clip: %s: use a .mp4 (H.264), .avi (Motion-JPEG) or .h264 name\n",
                     path.c_str());
        return 2;
    }
    // Written beside the target and renamed, so an interrupted build leaves no truncated clip.
    const std::string partial =
        path.substr(0, path.size() - 4) + ".partial" + path.substr(path.size() - 4);
    cv::VideoWriter writer(partial, cv::CAP_FFMPEG, fourcc, 25.0, cv::Size(width, height));
    if (!writer.isOpened()) {
        std::fprintf(stderr, "make_clip: OpenCV cannot write %s (is FFmpeg's encoder installed?)\n",
                     partial.c_str());
        return 1;
    }
    const cv::Mat scene = MakeScene(width, height);
    cv::Mat frame(height, width, CV_8UC3);
    for (int i = 0; i < frames; ++i) {
        DrawFrame(scene, frame, i);
        writer.write(frame);
    }
    writer.release();
    if (std::rename(partial.c_str(), path.c_str()) != 0) {
        std::perror("make_clip: rename");
        return 1;
    }
    std::printf("make_clip: wrote %s: %d frames, %dx%d, 25 fps\n", path.c_str(), frames, width,
                height);
    return 0;
}
