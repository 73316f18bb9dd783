// Writes the video pipeline's model (detector_onnx.h): a small YOLO-style detector with RANDOM
// weights from a fixed seed.
//
//   make_detector OUTPUT.onnx
#include <cstdio>
#include <fstream>
#include <string>

#include "detector_onnx.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT.onnx\n", argv[0]);
        return 2;
    }
    const std::string bytes = detector_onnx::MakeDetector(7);
    // Written beside the target and renamed, so an interrupted build leaves no truncated model.
    const std::string path = argv[1];
    const std::string partial = path + ".partial";
    {
        std::ofstream file(partial, std::ios::binary | std::ios::trunc);
        file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!file) {
            std::fprintf(stderr, "make_detector: cannot write %s\n", partial.c_str());
            return 1;
        }
    }
    if (std::rename(partial.c_str(), path.c_str()) != 0) {
        std::perror("make_detector: rename");
        return 1;
    }
    std::printf(
        "make_detector: wrote %s (%.1f MB): YOLO-style detector, RANDOM weights, not a "
        "trained model\n",
        path.c_str(), static_cast<double>(bytes.size()) / 1e6);
    return 0;
}
