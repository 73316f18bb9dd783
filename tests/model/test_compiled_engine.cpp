// The compiled engine: ONNX graphs built here are compiled into plans and run on oneDNN; each
// result is compared with OpenCV DNN's (the other engine) or with a plain reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "model/compiler/compiler.h"
#include "model/model_engine.h"
#include "model/onnx_graph.h"
#include "model/plan.h"
#include "onnx_builder.h"

namespace openacl::model {
namespace {

using test_onnx::Builder;
using test_onnx::Dims;

std::vector<float> Random(size_t n, uint32_t seed, float scale = 1.0f) {
    std::vector<float> v(n);
    uint32_t s = seed * 2654435761u + 1;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = scale * (static_cast<float>(s >> 8) / static_cast<float>(1u << 24) * 2.0f - 1.0f);
    }
    return v;
}

size_t Count(const Dims& d) {
    size_t n = 1;
    for (int64_t x : d)
        n *= static_cast<size_t>(x);
    return n;
}

using Tensors = std::vector<std::vector<float>>;

Tensors RunEngine(ModelEngine* engine, const std::vector<Dims>& dims, const Tensors& inputs) {
    std::string error;
    auto instance = engine->CreateInstance(&error);
    EXPECT_NE(instance, nullptr) << error;
    if (!instance) return {};
    std::vector<TensorView> in;
    for (size_t i = 0; i < inputs.size(); ++i)
        in.push_back(TensorView{ACL_FLOAT, dims[i], inputs[i].data(), inputs[i].size() * 4});
    std::vector<TensorView> out;
    EXPECT_TRUE(instance->Run(in, &out, &error)) << error;
    Tensors result;
    for (const auto& o : out) {
        const float* p = static_cast<const float*>(o.data);
        result.emplace_back(p, p + o.bytes / 4);
    }
    return result;
}

std::unique_ptr<ModelEngine> Compiled(const std::string& onnx, CompileOptions options = {},
                                      Plan* plan_out = nullptr) {
    CompileResult result;
    bool ok = CompileOnnx(onnx, options, &result);
    std::string why = result.error;
    for (const auto& u : result.unsupported)
        why += " " + u;
    EXPECT_TRUE(ok) << why;
    if (!ok) return nullptr;
    if (plan_out) *plan_out = result.plan;
    std::string error;
    auto engine = CreateDnnlEngine(std::make_shared<const Plan>(std::move(result.plan)),
                                   EngineThreads{1, 1}, &error);
    EXPECT_NE(engine, nullptr) << error;
    return engine;
}

std::unique_ptr<ModelEngine> OpenCv(const std::string& onnx) {
    GraphInfo graph;
    std::string error;
    EXPECT_TRUE(ReadOnnxGraph(onnx.data(), onnx.size(), &graph, &error)) << error;
    auto engine = CreateOpenCvEngine(onnx, graph, &error);
    EXPECT_NE(engine, nullptr) << error;
    return engine;
}

void ExpectClose(const Tensors& got, const Tensors& want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t t = 0; t < got.size(); ++t) {
        ASSERT_EQ(got[t].size(), want[t].size()) << "output " << t;
        for (size_t i = 0; i < got[t].size(); ++i) {
            ASSERT_NEAR(got[t][i], want[t][i], 1e-4f * std::max(1.0f, std::fabs(want[t][i])))
                << "output " << t << " element " << i;
        }
    }
}

// Compiles `onnx`, runs it on random inputs and compares with OpenCV DNN.
void ExpectLikeOpenCv(const std::string& onnx, const std::vector<Dims>& dims) {
    Tensors inputs;
    for (size_t i = 0; i < dims.size(); ++i)
        inputs.push_back(Random(Count(dims[i]), 100 + static_cast<uint32_t>(i)));
    auto compiled = Compiled(onnx);
    auto opencv = OpenCv(onnx);
    ASSERT_TRUE(compiled && opencv);
    EXPECT_STREQ(compiled->name(), "onednn");
    ExpectClose(RunEngine(compiled.get(), dims, inputs), RunEngine(opencv.get(), dims, inputs));
}

Builder ConvModel(const Dims& x, int64_t oc, int64_t k, int64_t group, int64_t stride, int64_t pad,
                  const Dims& y) {
    Builder b;
    b.Input("x", x).Output("y", y);
    b.Weight("w", {oc, x[1] / group, k, k}, Random(Count({oc, x[1] / group, k, k}), 1, 0.3f));
    b.Weight("b", {oc}, Random(Count({oc}), 2));
    b.Node("Conv", {"x", "w", "b"}, {"y"})
        .IntAttribute("group", group)
        .IntsAttribute("strides", {stride, stride})
        .IntsAttribute("pads", {pad, pad, pad, pad});
    return b;
}

TEST(CompiledEngine, ConvolutionMatchesOpenCv) {
    ExpectLikeOpenCv(ConvModel({1, 8, 10, 10}, 16, 3, 1, 1, 1, {1, 16, 10, 10}).Bytes(),
                     {{1, 8, 10, 10}});
}

TEST(CompiledEngine, StridedConvolutionMatchesOpenCv) {
    ExpectLikeOpenCv(ConvModel({2, 4, 9, 9}, 6, 3, 1, 2, 0, {2, 6, 4, 4}).Bytes(), {{2, 4, 9, 9}});
}

TEST(CompiledEngine, DepthwiseConvolutionMatchesOpenCv) {
    ExpectLikeOpenCv(ConvModel({1, 16, 8, 8}, 16, 3, 16, 1, 1, {1, 16, 8, 8}).Bytes(),
                     {{1, 16, 8, 8}});
}

TEST(CompiledEngine, WinogradSizedConvolutionMatchesOpenCv) {
    ExpectLikeOpenCv(ConvModel({1, 64, 14, 14}, 64, 3, 1, 1, 1, {1, 64, 14, 14}).Bytes(),
                     {{1, 64, 14, 14}});
}

// Conv -> BatchNormalization -> Relu: one convolution after the passes.
std::string ConvBnRelu() {
    Builder b;
    b.Input("x", {1, 8, 6, 6}).Output("r", {1, 8, 6, 6});
    b.Weight("w", {8, 8, 3, 3}, Random(8 * 8 * 9, 3, 0.3f));
    b.Weight("scale", {8}, Random(8, 4)).Weight("shift", {8}, Random(8, 5));
    std::vector<float> var = Random(8, 6);
    for (float& v : var)
        v = std::fabs(v) + 0.5f;
    b.Weight("mean", {8}, Random(8, 7)).Weight("var", {8}, var);
    b.Node("Conv", {"x", "w"}, {"c"}).IntsAttribute("pads", {1, 1, 1, 1});
    b.Node("BatchNormalization", {"c", "scale", "shift", "mean", "var"}, {"n"});
    b.Node("Relu", {"n"}, {"r"});
    return b.Bytes();
}

TEST(CompiledEngine, BatchNormAndReluFoldIntoTheConvolution) {
    Plan plan;
    auto engine = Compiled(ConvBnRelu(), {}, &plan);
    ASSERT_EQ(plan.layers.size(), 1u);
    EXPECT_EQ(plan.layers[0].kind, LayerKind::kConv);
    ASSERT_EQ(plan.layers[0].post_ops.size(), 1u);
    ExpectLikeOpenCv(ConvBnRelu(), {{1, 8, 6, 6}});
}

// A small residual network with SiLU, pooling and a classifier: what the passes rewrite most.
std::string SmallNet() {
    Builder b;
    b.Input("x", {2, 3, 16, 16}).Output("prob", {2, 10});
    b.Weight("w1", {16, 3, 3, 3}, Random(16 * 27, 11, 0.3f));
    b.Weight("b1", {16}, Random(16, 12));
    b.Weight("w2", {16, 16, 3, 3}, Random(16 * 16 * 9, 13, 0.1f));
    b.Weight("w3", {16, 1, 3, 3}, Random(16 * 9, 14, 0.3f));
    b.Weight("fc", {10, 16}, Random(160, 15)).Weight("fcb", {10}, Random(10, 16));
    b.Node("Conv", {"x", "w1", "b1"}, {"c1"}).IntsAttribute("pads", {1, 1, 1, 1});
    b.Node("Relu", {"c1"}, {"r1"});
    b.Node("Conv", {"r1", "w2"}, {"c2"}).IntsAttribute("pads", {1, 1, 1, 1});
    b.Node("Add", {"c2", "r1"}, {"s2"});
    b.Node("Sigmoid", {"s2"}, {"g2"});
    b.Node("Mul", {"s2", "g2"}, {"silu"});
    b.Node("Conv", {"silu", "w3"}, {"c3"})
        .IntAttribute("group", 16)
        .IntsAttribute("pads", {1, 1, 1, 1})
        .IntsAttribute("strides", {2, 2});
    b.Node("MaxPool", {"c3"}, {"p3"})
        .IntsAttribute("kernel_shape", {2, 2})
        .IntsAttribute("strides", {2, 2});
    b.Node("GlobalAveragePool", {"p3"}, {"gap"});
    b.Node("Flatten", {"gap"}, {"flat"});
    b.Node("Gemm", {"flat", "fc", "fcb"}, {"logits"}).IntAttribute("transB", 1);
    b.Node("Softmax", {"logits"}, {"prob"}).IntAttribute("axis", 1);
    return b.Bytes();
}

TEST(CompiledEngine, SmallResidualNetworkMatchesOpenCv) {
    ExpectLikeOpenCv(SmallNet(), {{2, 3, 16, 16}});
}

TEST(CompiledEngine, PassesOnAndOffGiveTheSameOutputs) {
    const Dims dims{2, 3, 16, 16};
    Tensors input{Random(Count(dims), 21)};
    Plan fused, plain;
    auto on = Compiled(SmallNet(), CompileOptions{true, true}, &fused);
    auto off = Compiled(SmallNet(), CompileOptions{false, false}, &plain);
    ASSERT_TRUE(on && off);
    EXPECT_LT(fused.layers.size(), plain.layers.size());
    ExpectClose(RunEngine(on.get(), {dims}, input), RunEngine(off.get(), {dims}, input));
}

TEST(CompiledEngine, ReluSixFromOpset13ClipIsCompiled) {
    // OpenCV DNN 4.6 cannot import Clip with its bounds as inputs; the reference is the conv
    // run by OpenCV, clamped here.
    Builder clip;
    clip.Input("x", {1, 4, 6, 6}).Output("y", {1, 4, 6, 6});
    clip.Weight("w", {4, 4, 3, 3}, Random(144, 1, 3.0f)).Weight("b", {4}, Random(4, 2));
    clip.Weight("lo", {}, {0.0f}).Weight("hi", {}, {6.0f});
    clip.Node("Conv", {"x", "w", "b"}, {"c"}).IntsAttribute("pads", {1, 1, 1, 1});
    clip.Node("Clip", {"c", "lo", "hi"}, {"y"});
    Builder conv;
    conv.Input("x", {1, 4, 6, 6}).Output("c", {1, 4, 6, 6});
    conv.Weight("w", {4, 4, 3, 3}, Random(144, 1, 3.0f)).Weight("b", {4}, Random(4, 2));
    conv.Node("Conv", {"x", "w", "b"}, {"c"}).IntsAttribute("pads", {1, 1, 1, 1});
    Tensors input{Random(144, 9, 3.0f)};
    auto want = RunEngine(OpenCv(conv.Bytes()).get(), {{1, 4, 6, 6}}, input);
    for (float& v : want[0])
        v = std::clamp(v, 0.0f, 6.0f);
    auto compiled = Compiled(clip.Bytes());
    ASSERT_TRUE(compiled);
    ExpectClose(RunEngine(compiled.get(), {{1, 4, 6, 6}}, input), want);
}

// Single-operator graphs: the compiled engine agrees with OpenCV DNN on each.
struct OpCase {
    const char* name;
    std::function<Builder()> build;
    std::vector<Dims> inputs;
};

std::vector<OpCase> OpCases() {
    const Dims x{1, 4, 6, 6};
    auto unary = [x](const char* op) {
        return [x, op] {
            Builder b;
            b.Input("x", x).Output("y", x).Node(op, {"x"}, {"y"});
            return b;
        };
    };
    return {
        {"Relu", unary("Relu"), {x}},
        {"Sigmoid", unary("Sigmoid"), {x}},
        {"Tanh", unary("Tanh"), {x}},
        {"LeakyRelu",
         [x] {
             Builder b;
             b.Input("x", x).Output("y", x).Node("LeakyRelu", {"x"}, {"y"});
             b.FloatAttribute("alpha", 0.2f);
             return b;
         },
         {x}},
        {"AddBroadcast",
         [x] {
             Builder b;
             b.Input("x", x).Output("y", x).Weight("c", {4, 1, 1}, Random(4, 3));
             b.Node("Add", {"c", "x"}, {"y"});
             return b;
         },
         {x}},
        {"MulTwoInputs",
         [x] {
             Builder b;
             b.Input("x", x).Input("z", x).Output("y", x).Node("Mul", {"x", "z"}, {"y"});
             return b;
         },
         {x, x}},
        {"SubDiv",
         [x] {
             Builder b;
             b.Input("x", x).Output("y", x).Weight("c", {1, 4, 1, 1}, {1, 2, 3, 4});
             b.Weight("d", {1}, {2.0f});
             b.Node("Sub", {"x", "c"}, {"s"}).Node("Div", {"s", "d"}, {"y"});
             return b;
         },
         {x}},
        {"AveragePool",
         [x] {
             Builder b;
             b.Input("x", x).Output("y", {1, 4, 3, 3}).Node("AveragePool", {"x"}, {"y"});
             b.IntsAttribute("kernel_shape", {3, 3}).IntsAttribute("strides", {2, 2});
             b.IntsAttribute("pads", {1, 1, 1, 1});
             return b;
         },
         {x}},
        {"MatMul",
         [] {
             Builder b;
             b.Input("a", {3, 5}).Output("y", {3, 4}).Weight("w", {5, 4}, Random(20, 4));
             b.Node("MatMul", {"a", "w"}, {"y"});
             return b;
         },
         {{3, 5}}},
        {"Concat",
         [x] {
             Builder b;
             b.Input("x", x).Input("z", x).Output("y", {1, 8, 6, 6});
             b.Node("Concat", {"x", "z"}, {"y"}).IntAttribute("axis", 1);
             return b;
         },
         {x, x}},
        {"ResizeNearest",
         [x] {
             Builder b;
             b.Input("x", x).Output("y", {1, 4, 12, 12});
             b.Weight("roi", {0}, {}).Weight("scales", {4}, {1, 1, 2, 2});
             b.Node("Resize", {"x", "roi", "scales"}, {"y"});
             b.StringAttribute("mode", "nearest")
                 .StringAttribute("coordinate_transformation_mode", "asymmetric")
                 .StringAttribute("nearest_mode", "floor");
             return b;
         },
         {x}},
        {"Transpose",
         [x] {
             Builder b;
             b.Input("x", x).Output("y", {1, 6, 6, 4});
             b.Node("Transpose", {"x"}, {"y"}).IntsAttribute("perm", {0, 2, 3, 1});
             return b;
         },
         {x}},
        {"SliceAndSplit",
         [x] {
             Builder b;
             b.Input("x", x).Output("y", {1, 1, 4, 6});
             b.Output("a", {1, 2, 6, 6}).Output("z", {1, 2, 6, 6});
             b.Int64Weight("starts", {2}, {1, 2}).Int64Weight("ends", {2}, {2, 6});
             b.Int64Weight("axes", {2}, {1, 2});
             b.Node("Slice", {"x", "starts", "ends", "axes"}, {"y"});
             b.Node("Split", {"x"}, {"a", "z"}).IntAttribute("axis", 1);
             return b;
         },
         {x}},
        {"ReshapeSoftmax",
         [x] {
             Builder b;
             b.Input("x", x).Output("y", {1, 144}).Int64Weight("shape", {2}, {1, -1});
             b.Node("Reshape", {"x", "shape"}, {"r"}).Node("Softmax", {"r"}, {"y"});
             return b;
         },
         {x}},
    };
}

class CompiledOperator : public testing::TestWithParam<OpCase> {};

TEST_P(CompiledOperator, MatchesOpenCv) {
    ExpectLikeOpenCv(GetParam().build().Bytes(), GetParam().inputs);
}

INSTANTIATE_TEST_SUITE_P(Operators, CompiledOperator, testing::ValuesIn(OpCases()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(CompiledEngine, ATransposedConstantIsReadWithItsPermutation) {
    // OpenCV DNN 4.6 cannot run this graph; the reference is computed here.
    const std::vector<float> c = Random(6, 8), x = Random(6, 9);
    Builder b;
    b.Input("x", {2, 3}).Output("y", {2, 3}).Weight("c", {3, 2}, c);
    b.Node("Transpose", {"c"}, {"t"}).Node("Add", {"x", "t"}, {"y"});
    std::vector<float> want(6);
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j)
            want[i * 3 + j] = x[i * 3 + j] + c[j * 2 + i];
    }
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(RunEngine(engine.get(), {{2, 3}}, {x}), {want});
}

TEST(CompiledEngine, ActivationsNoMachineHoldsAreRefusedAtLoad) {
    // 1x48x64x64 upsampled 128 times in each direction: 12.9 GB of output.
    Builder b;
    b.Input("x", {1, 48, 64, 64}).Output("y", {1, 48, 8192, 8192});
    b.Weight("roi", {0}, {}).Weight("scales", {4}, {1, 1, 128, 128});
    b.Node("Resize", {"x", "roi", "scales"}, {"y"}).StringAttribute("mode", "nearest");
    CompileResult result;
    ASSERT_TRUE(CompileOnnx(b.Bytes(), {}, &result)) << result.error;
    std::string error;
    EXPECT_EQ(
        CreateDnnlEngine(std::make_shared<const Plan>(std::move(result.plan)), {1, 1}, &error),
        nullptr);
    EXPECT_NE(error.find("MiB of activation memory"), std::string::npos) << error;
}

TEST(CompiledEngine, UnsupportedOperatorsAreNamed) {
    Builder b;
    b.Input("x", {1, 4}).Output("y", {1, 4}).Node("Erf", {"x"}, {"e"}).Node("Relu", {"e"}, {"y"});
    CompileResult result;
    EXPECT_FALSE(CompileOnnx(b.Bytes(), {}, &result));
    ASSERT_EQ(result.unsupported.size(), 1u);
    EXPECT_EQ(result.unsupported[0], "Erf");
}

// Plans: serialisation and the parser's refusals.
Plan SmallPlan() {
    CompileResult result;
    EXPECT_TRUE(CompileOnnx(SmallNet(), {}, &result)) << result.error;
    return result.plan;
}

TEST(Plan, SerialisationRoundTripsAndRunsTheSame) {
    Plan plan = SmallPlan();
    std::string bytes = SerializePlan(plan);
    Plan parsed;
    std::string error;
    ASSERT_TRUE(ParsePlan(bytes.data(), bytes.size(), &parsed, &error)) << error;
    EXPECT_EQ(SerializePlan(parsed), bytes);
    const Dims dims{2, 3, 16, 16};
    Tensors input{Random(Count(dims), 5)};
    auto a = CreateDnnlEngine(std::make_shared<const Plan>(plan), {1, 1}, &error);
    auto b = CreateDnnlEngine(std::make_shared<const Plan>(parsed), {1, 1}, &error);
    ASSERT_TRUE(a && b) << error;
    ExpectClose(RunEngine(b.get(), {dims}, input), RunEngine(a.get(), {dims}, input));
}

TEST(Plan, EveryTruncationIsRefused) {
    std::string bytes = SerializePlan(SmallPlan());
    for (size_t n = 0; n < bytes.size(); n += std::max<size_t>(1, n / 64)) {
        Plan plan;
        std::string error;
        EXPECT_FALSE(ParsePlan(bytes.data(), n, &plan, &error)) << n;
        EXPECT_FALSE(error.empty());
    }
}

TEST(Plan, ACountLargerThanTheBytesIsRefused) {
    std::string bytes = SerializePlan(SmallPlan());
    bytes[8] = '\xff';  // the tensor count's low byte
    bytes[11] = '\x7f';
    Plan plan;
    std::string error;
    EXPECT_FALSE(ParsePlan(bytes.data(), bytes.size(), &plan, &error));
    EXPECT_NE(error.find("count"), std::string::npos) << error;
}

TEST(Plan, AnOutOfRangeTensorIdIsRefused) {
    Plan plan = SmallPlan();
    plan.layers[0].inputs[0] = static_cast<uint32_t>(plan.tensors.size() + 5);
    std::string bytes = SerializePlan(plan), error;
    Plan parsed;
    EXPECT_FALSE(ParsePlan(bytes.data(), bytes.size(), &parsed, &error));
    EXPECT_NE(error.find("not defined"), std::string::npos) << error;
}

TEST(Plan, AConstantOfTheWrongSizeIsRefused) {
    Plan plan = SmallPlan();
    plan.constants[0].pop_back();
    std::string bytes = SerializePlan(plan), error;
    Plan parsed;
    EXPECT_FALSE(ParsePlan(bytes.data(), bytes.size(), &parsed, &error));
    EXPECT_NE(error.find("values for dims"), std::string::npos) << error;
}

TEST(Plan, InconsistentShapesAreRefused) {
    Plan plan = SmallPlan();
    plan.tensors[plan.layers[0].output].dims[3] += 1;
    std::string error;
    EXPECT_FALSE(ValidatePlan(plan, &error));
    EXPECT_FALSE(error.empty());
}

// The plan_fuzz seeds (fuzz/corpus/plan) are plans this compiler makes. Regenerate them after a
// format change with OPENACL_WRITE_PLAN_SEEDS=1.
TEST(Plan, FuzzSeedsAreCurrentPlans) {
    const std::filesystem::path dir =
        std::filesystem::path(OPENACL_SOURCE_DIR) / "fuzz/corpus/plan";
    if (std::getenv("OPENACL_WRITE_PLAN_SEEDS")) {
        std::ofstream(dir / "small_net.plan", std::ios::binary) << SerializePlan(SmallPlan());
        CompileResult conv;
        ASSERT_TRUE(CompileOnnx(ConvBnRelu(), {}, &conv));
        std::ofstream(dir / "conv_bn_relu.plan", std::ios::binary) << SerializePlan(conv.plan);
    }
    size_t seeds = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        std::ifstream file(entry.path(), std::ios::binary);
        std::stringstream bytes;
        bytes << file.rdbuf();
        const std::string data = bytes.str();
        Plan plan;
        std::string error;
        EXPECT_TRUE(ParsePlan(data.data(), data.size(), &plan, &error))
            << entry.path() << ": " << error;
        ++seeds;
    }
    EXPECT_GE(seeds, 2u);
}

}  // namespace
}  // namespace openacl::model
