// Writes the image_classification example's model: a ResNet-style ONNX classifier (1x3x224x224
// image in, 1000 class probabilities out) with RANDOM weights from a fixed seed. No pretrained
// weights can be downloaded here; the model exercises the whole AscendCL model path with a real
// network's shape and cost, but its predictions are meaningless.
//
//   make_resnet OUTPUT.onnx [SEED]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "resnet_onnx.h"

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: %s OUTPUT.onnx [SEED]\n", argv[0]);
        return 2;
    }
    uint64_t seed = 2024;
    if (argc == 3) {
        char* end = nullptr;
        seed = std::strtoull(argv[2], &end, 10);
        if (end == argv[2] || *end != '\0') {
            std::fprintf(stderr, "make_resnet: SEED must be a number, not \"%s\"\n", argv[2]);
            return 2;
        }
    }
    const std::string bytes = resnet_onnx::MakeResNet(seed);
    const std::string path = argv[1];
    if (!resnet_onnx::WriteModelFile(path, bytes, "make_resnet")) return 1;
    std::printf(
        "make_resnet: wrote %s (%.1f MB): ResNet-10-style classifier, RANDOM weights "
        "(seed %llu), not a trained model\n",
        path.c_str(), static_cast<double>(bytes.size()) / 1e6,
        static_cast<unsigned long long>(seed));
    return 0;
}
