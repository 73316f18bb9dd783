// Writes the models bench/models.sh measures (RANDOM weights from fixed seeds, so every machine
// gets the same bytes), a fixed random input for each, and manifest.json, which tells the
// benchmark programs (bench_models, bench/ort_peer.js) each model's file, input and outputs.
//
//   make_bench_models OUTDIR
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "detector_onnx.h"
#include "mobilenetv2_onnx.h"
#include "resnet50_onnx.h"

namespace {

struct Spec {
    std::string model;  // resnet50, mobilenetv2, detector, tiny
    int64_t batch;
    std::function<std::string()> build;
    std::string input;
    std::vector<int64_t> input_dims;
    double input_low, input_high;  // uniform input range
    std::string output;
    std::vector<int64_t> output_dims;
};

// One Relu on 16 floats: a run costs next to nothing, so its time is each harness's fixed
// per-call cost (Node.js and the binding for ONNX Runtime; aclmdlExecute for openacl).
std::string MakeTiny() {
    resnet_onnx::GraphWriter g("tiny_relu", 1);
    g.Input("x", {1, 16});
    g.Node("Relu", {"x"}, "y");
    g.Output("y", {1, 16});
    return g.Bytes();
}

std::vector<Spec> Specs() {
    using bench_models::kDetectorAnchors;
    using bench_models::kDetectorSize;
    using bench_models::kDetectorValues;
    const int64_t g3 = kDetectorSize / 8;
    const int64_t rows = kDetectorAnchors * (g3 * g3 + g3 * g3 / 4 + g3 * g3 / 16);
    std::vector<Spec> specs;
    for (int64_t batch : {1, 8}) {
        specs.push_back({"resnet50",
                         batch,
                         [batch] { return bench_models::MakeResNet50(batch, 50); },
                         "image",
                         {batch, 3, 224, 224},
                         -2.0,
                         2.0,
                         "logits",
                         {batch, 1000}});
        specs.push_back({"mobilenetv2",
                         batch,
                         [batch] { return bench_models::MakeMobileNetV2(batch, 2); },
                         "image",
                         {batch, 3, 224, 224},
                         -2.0,
                         2.0,
                         "logits",
                         {batch, 1000}});
        specs.push_back({"detector",
                         batch,
                         [batch] { return bench_models::MakeDetector(batch, 5); },
                         "images",
                         {batch, 3, kDetectorSize, kDetectorSize},
                         0.0,
                         1.0,
                         "detections",
                         {batch, rows, kDetectorValues}});
    }
    specs.push_back({"tiny", 1, MakeTiny, "x", {1, 16}, -1.0, 1.0, "y", {1, 16}});
    return specs;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    nlohmann::json manifest = nlohmann::json::array();
    for (const Spec& s : Specs()) {
        const std::string name = s.model + "_b" + std::to_string(s.batch);
        const std::string onnx_file = name + ".onnx";
        const std::string input_file = name + ".input.bin";
        if (!resnet_onnx::WriteModelFile(dir + "/" + onnx_file, s.build(), "make_bench_models"))
            return 1;
        size_t count = 1;
        for (int64_t d : s.input_dims)
            count *= static_cast<size_t>(d);
        resnet_onnx::Random random(1000 + static_cast<uint64_t>(s.batch));
        std::vector<float> input(count);
        for (float& v : input)
            v = static_cast<float>(s.input_low + (s.input_high - s.input_low) * random.Uniform());
        const std::string bytes(reinterpret_cast<const char*>(input.data()),
                                input.size() * sizeof(float));
        if (!resnet_onnx::WriteModelFile(dir + "/" + input_file, bytes, "make_bench_models"))
            return 1;
        manifest.push_back(
            {{"name", name},
             {"model", s.model},
             {"batch", s.batch},
             {"file", onnx_file},
             {"input", {{"name", s.input}, {"dims", s.input_dims}, {"file", input_file}}},
             {"output", {{"name", s.output}, {"dims", s.output_dims}}}});
        std::printf("make_bench_models: wrote %s/%s (random weights)\n", dir.c_str(),
                    onnx_file.c_str());
    }
    std::ofstream out(dir + "/manifest.json");
    out << manifest.dump(1) << "\n";
    return out ? 0 : 1;
}
