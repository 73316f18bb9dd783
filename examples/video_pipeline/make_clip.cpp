// Writes a sample clip for the video pipeline, so the demo runs without downloading anything:
// a camera panning over a fine-grained textured scene (from a fixed seed) with coloured shapes
// moving across it and the frame number burnt in. The texture gives the clip the detail of
// real footage, so decoding it costs what decoding a camera's stream does (a flat synthetic
// picture would decode almost for free). H.264 in .mp4 (or Motion-JPEG in .avi), through
// OpenCV's videoio (FFmpeg).
//
//   make_clip OUTPUT.mp4|OUTPUT.avi [FRAMES [WIDTH HEIGHT]]
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
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

}  // namespace

int main(int argc, char** argv) {
    int frames = 150, width = 1280, height = 720;
    if (argc < 2 || argc == 4 || argc > 5 ||
        (argc >= 3 && !ParseCount(argv[2], 1, 100000, &frames)) ||
        (argc == 5 &&
         (!ParseCount(argv[3], 16, 7680, &width) || !ParseCount(argv[4], 16, 4320, &height)))) {
        std::fprintf(stderr, "usage: %s OUTPUT.mp4|OUTPUT.avi [FRAMES [WIDTH HEIGHT]]\n", argv[0]);
        return 2;
    }
    const std::string path = argv[1];
    int fourcc = 0;
    if (EndsWith(path, ".mp4")) {
        fourcc = cv::VideoWriter::fourcc('a', 'v', 'c', '1');
    } else if (EndsWith(path, ".avi")) {
        fourcc = cv::VideoWriter::fourcc('M', 'J', 'P', 'G');
    } else {
        std::fprintf(stderr, "make_clip: %s: use a .mp4 (H.264) or .avi (Motion-JPEG) name\n",
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
