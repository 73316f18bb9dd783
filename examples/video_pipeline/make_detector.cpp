// Writes the video pipeline's model (detector_onnx.h): a small YOLO-style detector with RANDOM
// weights from a fixed seed.
//
//   make_detector OUTPUT.onnx
#include <cstdio>
#include <string>

#include "detector_onnx.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT.onnx\n", argv[0]);
        return 2;
    }
    const std::string bytes = detector_onnx::MakeDetector(7);
    const std::string path = argv[1];
    if (!resnet_onnx::WriteModelFile(path, bytes, "make_detector")) return 1;
    std::printf(
        "make_detector: wrote %s (%.1f MB): YOLO-style detector, RANDOM weights, not a "
        "trained model\n",
        path.c_str(), static_cast<double>(bytes.size()) / 1e6);
    return 0;
}
