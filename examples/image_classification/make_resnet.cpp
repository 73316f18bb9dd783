// Writes the image_classification example's model: a ResNet-style ONNX classifier (1x3x224x224
// image in, 1000 class probabilities out) with RANDOM weights from a fixed seed. No pretrained
// weights can be downloaded here; the model exercises the whole AscendCL model path with a real
// network's shape and cost, but its predictions are meaningless.
//
//   make_resnet OUTPUT.onnx [SEED]
#include <cstdio>
#include <cstdlib>
#include <fstream>
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
    // Written next to the target and renamed, so a build interrupted midway leaves no
    // truncated model that looks up to date.
    const std::string path = argv[1];
    const std::string partial = path + ".partial";
    {
        std::ofstream file(partial, std::ios::binary | std::ios::trunc);
        file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!file) {
            std::fprintf(stderr, "make_resnet: cannot write %s\n", partial.c_str());
            return 1;
        }
    }
    if (std::rename(partial.c_str(), path.c_str()) != 0) {
        std::perror("make_resnet: rename");
        return 1;
    }
    std::printf(
        "make_resnet: wrote %s (%.1f MB): ResNet-10-style classifier, RANDOM weights "
        "(seed %llu), not a trained model\n",
        path.c_str(), static_cast<double>(bytes.size()) / 1e6,
        static_cast<unsigned long long>(seed));
    return 0;
}
