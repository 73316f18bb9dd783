// The compiled engine: ONNX graphs built here are compiled into plans and run on oneDNN; each
// result is compared with OpenCV DNN's (the other engine) or with a plain reference.
#include <gtest/gtest.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/trace.h"
#include "engine_test_support.h"
#include "model/compiler/compiler.h"
#include "model/model_engine.h"
#include "model/onnx_graph.h"
#include "model/plan.h"
#include "model/winograd.h"
#include "onnx_builder.h"
#include "scoped_env.h"
#include "temp_dir.h"

namespace openacl::model {
namespace {

std::unique_ptr<ModelEngine> OpenCv(const std::string& onnx) {
    GraphInfo graph;
    std::string error;
    EXPECT_TRUE(ReadOnnxGraph(onnx.data(), onnx.size(), &graph, &error)) << error;
    auto engine = CreateOpenCvEngine(onnx, graph, &error);
    EXPECT_NE(engine, nullptr) << error;
    return engine;
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

// A 3x3 convolution of `channels` at `grid` x `grid`, stride 1: Winograd's shape.
std::string WinogradSized(int64_t channels, int64_t grid) {
    return ConvModel({1, channels, grid, grid}, channels, 3, 1, 1, 1, {1, channels, grid, grid})
        .Bytes();
}

TEST(CompiledEngine, WinogradSizedConvolutionMatchesOpenCv) {
    ExpectLikeOpenCv(WinogradSized(64, 14), {{1, 64, 14, 14}});
}

// oneDNN 2.6 has Winograd, and the kernel names some tests check, on AVX-512 machines only.
bool HasAvx512Core() {
    return dnnl::get_effective_cpu_isa() >= dnnl::cpu_isa::avx512_core;
}

// Too large to try both ways at load: Winograd, which wins on large grids, is taken unasked.
TEST(CompiledEngine, ALargeWinogradShapedConvolutionUsesWinograd) {
    if (!HasAvx512Core()) GTEST_SKIP() << "oneDNN 2.6 has Winograd for AVX-512 only";
    auto engine = Compiled(WinogradSized(64, 56));
    ASSERT_TRUE(engine);
    EXPECT_NE(engine->kernel(0).find("wino"), std::string::npos) << engine->kernel(0);
}

int Threads();

// Conv (3x3, 64 -> 64, bias) -> `activation` at `grid` x `grid`, which the compiler fuses into
// the convolution; a Relu is what the engine's own Winograd applies itself.
Builder WinogradSizedWith(const std::string& activation, int64_t grid) {
    const Dims dims{1, 64, grid, grid};
    Builder b;
    b.Input("x", dims).Output("r", dims);
    b.Weight("w", {64, 64, 3, 3}, Random(Count({64, 64, 3, 3}), 1, 0.3f));
    b.Weight("b", {64}, Random(64, 2));
    b.Node("Conv", {"x", "w", "b"}, {"y"}).IntsAttribute("pads", {1, 1, 1, 1});
    b.Node(activation, {"y"}, {"r"});
    return b;
}
std::string WinogradSizedRelu(int64_t grid) {
    return WinogradSizedWith("Relu", grid).Bytes();
}

// OPENACL_WINOGRAD=own: the engine's own Winograd wherever it fits, untimed.
TEST(CompiledEngine, OwnWinogradRunsWhereAskedForAndMatchesOpenCv) {
    if (!WinogradAvailable()) GTEST_SKIP() << "the engine's Winograd needs AVX-512F";
    ScopedEnv own("OPENACL_WINOGRAD", "own");
    for (const int64_t grid : {14, 9}) {
        Plan plan;
        auto engine = Compiled(WinogradSizedRelu(grid), {}, &plan);
        ASSERT_TRUE(engine);
        ASSERT_EQ(plan.layers.size(), 1u);  // the Relu is the convolution's post-op
        EXPECT_EQ(engine->kernel(0).rfind("openacl:wino_", 0), 0u) << engine->kernel(0);
        ExpectLikeOpenCv(WinogradSizedRelu(grid), {{1, 64, grid, grid}});
    }
}

// Any post-op but a ReLU after the bias (here a LeakyRelu) leaves the convolution to oneDNN.
TEST(CompiledEngine, OwnWinogradLeavesOtherPostOpsToOneDnn) {
    ScopedEnv own("OPENACL_WINOGRAD", "own");
    Builder b = WinogradSizedWith("LeakyRelu", 14);
    Plan plan;
    auto engine = Compiled(b.Bytes(), {}, &plan);
    ASSERT_TRUE(engine);
    ASSERT_EQ(plan.layers.size(), 1u);
    ASSERT_EQ(plan.layers[0].post_ops.size(), 1u);
    EXPECT_EQ(engine->kernel(0).find("openacl"), std::string::npos) << engine->kernel(0);
    ExpectLikeOpenCv(b.Bytes(), {{1, 64, 14, 14}});
}

TEST(CompiledEngine, OwnWinogradNeverRunsWhenOneDnnIsAskedFor) {
    ScopedEnv onednn("OPENACL_WINOGRAD", "onednn");
    auto engine = Compiled(WinogradSizedRelu(56), {}, nullptr, ConvLayout::kMeasure, Threads());
    ASSERT_TRUE(engine);
    EXPECT_EQ(engine->kernel(0).find("openacl"), std::string::npos) << engine->kernel(0);
}

// Timed at load against oneDNN on Threads() threads (on two, 56x56 has enough tiles for F(4x4)
// and 14x14 for F(2x2)): whichever runs, the result is the same.
TEST(CompiledEngine, AWinogradConvolutionTimedAgainstTheOwnKernelMatchesOpenCv) {
    for (const int64_t grid : {56, 14}) {
        auto engine =
            Compiled(WinogradSizedRelu(grid), {}, nullptr, ConvLayout::kMeasure, Threads());
        ASSERT_TRUE(engine);
        EXPECT_FALSE(engine->kernel(0).empty());
        ExpectLikeOpenCv(WinogradSizedRelu(grid), {{1, 64, grid, grid}});
    }
}

// Small enough to time both ways at load: either may run, and the result is the same.
TEST(CompiledEngine, ASmallWinogradShapedConvolutionRunsTheFasterWayAndMatchesOpenCv) {
    auto engine = Compiled(WinogradSized(128, 13));
    ASSERT_TRUE(engine);
    EXPECT_FALSE(engine->kernel(0).empty());
    ExpectLikeOpenCv(WinogradSized(128, 13), {{1, 128, 13, 13}});
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

// Conv + BatchNormalization + SiLU written as x * Sigmoid(x), the block of YOLO-style
// detectors: the batch norm folds into the convolution and the SiLU becomes one swish layer,
// not a post-op (oneDNN 2.6 would run the convolution on its reference kernel).
std::string ConvBnSilu() {
    Builder b;
    b.Input("x", {1, 8, 6, 6}).Output("y", {1, 8, 6, 6});
    b.Weight("w", {8, 8, 3, 3}, Random(8 * 8 * 9, 3, 0.3f));
    b.Weight("scale", {8}, Random(8, 4)).Weight("shift", {8}, Random(8, 5));
    std::vector<float> var = Random(8, 6);
    for (float& v : var)
        v = std::fabs(v) + 0.5f;
    b.Weight("mean", {8}, Random(8, 7)).Weight("var", {8}, var);
    b.Node("Conv", {"x", "w"}, {"c"}).IntsAttribute("pads", {1, 1, 1, 1});
    b.Node("BatchNormalization", {"c", "scale", "shift", "mean", "var"}, {"n"});
    b.Node("Sigmoid", {"n"}, {"g"});
    b.Node("Mul", {"n", "g"}, {"y"});
    return b.Bytes();
}

TEST(CompiledEngine, BatchNormFoldsAndSiluBecomesTheConvolutionsSwishPostOp) {
    Plan plan;
    auto engine = Compiled(ConvBnSilu(), {}, &plan);
    ASSERT_EQ(plan.layers.size(), 1u);
    EXPECT_EQ(plan.layers[0].kind, LayerKind::kConv);
    ASSERT_EQ(plan.layers[0].post_ops.size(), 1u);
    EXPECT_EQ(plan.layers[0].post_ops[0].kind, PostOp::kEltwise);
    EXPECT_EQ(plan.layers[0].post_ops[0].alg, static_cast<int64_t>(EltwiseAlg::kSwish));
    ExpectLikeOpenCv(ConvBnSilu(), {{1, 8, 6, 6}});
}

// A downsampling block's two strided 1x1 convolutions of one input (ResNet v1), each with its
// own strides (`first`, `second`), on an odd 9x9 grid; their outputs are the graph's.
std::string StridedPointwisePair(int64_t first, int64_t second) {
    Builder b;
    const int64_t h1 = (9 - 1) / first + 1, h2 = (9 - 1) / second + 1;
    b.Input("x", {1, 16, 9, 9}).Output("a", {1, 32, h1, h1}).Output("b", {1, 8, h2, h2});
    b.Weight("wa", {32, 16, 1, 1}, Random(32 * 16, 41, 0.3f)).Weight("ba", {32}, Random(32, 42));
    b.Weight("wb", {8, 16, 1, 1}, Random(8 * 16, 43, 0.3f));
    b.Node("Relu", {"x"}, {"r"});
    b.Node("Conv", {"r", "wa", "ba"}, {"a"}).IntsAttribute("strides", {first, first});
    b.Node("Conv", {"r", "wb"}, {"b"}).IntsAttribute("strides", {second, second});
    return b.Bytes();
}

// Conv ints for 2-D: group, strides[2], pads_begin[2], pads_end[2], dilations[2], flags.
std::vector<int64_t> ConvStrides(const PlanLayer& conv) {
    return {conv.ints[1], conv.ints[2]};
}

TEST(CompiledEngine, TwoStridedPointwiseConvolutionsOfOneInputSubsampleItOnce) {
    Plan plan;
    auto engine = Compiled(StridedPointwisePair(2, 2), {}, &plan);
    ASSERT_TRUE(engine);
    ASSERT_EQ(plan.layers.size(), 4u);  // relu, the subsampling pool, the two convolutions
    const PlanLayer& pool = plan.layers[1];
    ASSERT_EQ(pool.kind, LayerKind::kPool);
    // Max over a 1x1 window with strides 2, no padding: every other pixel.
    EXPECT_EQ(pool.ints, (std::vector<int64_t>{0, 1, 1, 2, 2, 0, 0, 0, 0}));
    EXPECT_EQ(plan.tensors[pool.output].dims, (std::vector<int64_t>{1, 16, 5, 5}));
    for (size_t i : {2u, 3u}) {
        EXPECT_EQ(plan.layers[i].kind, LayerKind::kConv);
        EXPECT_EQ(plan.layers[i].inputs[0], pool.output);
        EXPECT_EQ(ConvStrides(plan.layers[i]), (std::vector<int64_t>{1, 1}));
    }
    ExpectLikeOpenCv(StridedPointwisePair(2, 2), {{1, 16, 9, 9}});
}

TEST(CompiledEngine, StridedPointwiseConvolutionsWithOtherStridesKeepThem) {
    Plan plan;
    auto engine = Compiled(StridedPointwisePair(2, 3), {}, &plan);
    ASSERT_TRUE(engine);
    ASSERT_EQ(plan.layers.size(), 3u);
    EXPECT_EQ(ConvStrides(plan.layers[1]), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(ConvStrides(plan.layers[2]), (std::vector<int64_t>{3, 3}));
    ExpectLikeOpenCv(StridedPointwisePair(2, 3), {{1, 16, 9, 9}});
}

TEST(CompiledEngine, SubsamplingOnceGivesTheSameOutputsAsTheStridedConvolutions) {
    const Tensors input{Random(16 * 81, 44)};
    auto once = Compiled(StridedPointwisePair(2, 2), CompileOptions{true, true});
    auto strided = Compiled(StridedPointwisePair(2, 2), CompileOptions{false, true});
    ASSERT_TRUE(once && strided);
    ExpectClose(RunEngine(once.get(), {{1, 16, 9, 9}}, input),
                RunEngine(strided.get(), {{1, 16, 9, 9}}, input));
}

// conv -> SiLU [-> Add]: `channels` wide at `grid` x `grid`, 3x3 stride 1 (Winograd's shape from
// 64 channels).
std::string ConvSilu(int64_t channels, bool residual, int64_t grid = 8) {
    Builder b;
    const Dims x{1, channels, grid, grid};
    b.Input("x", x).Output("y", x);
    b.Weight("w", {channels, channels, 3, 3}, Random(Count({channels, channels, 3, 3}), 3, 0.1f));
    b.Node("Conv", {"x", "w"}, {"c"}).IntsAttribute("pads", {1, 1, 1, 1});
    b.Node("Sigmoid", {"c"}, {"g"});
    b.Node("Mul", {"c", "g"}, {residual ? "s" : "y"});
    if (residual) b.Node("Add", {"s", "x"}, {"y"});
    return b.Bytes();
}

// oneDNN 2.6's Winograd has no swish or binary post-op (its reference kernel would run them,
// 100x slower): a large convolution runs Winograd and then the SiLU and the add as steps of
// their own.
TEST(CompiledEngine, SiluAndAddAfterALargeWinogradConvolutionRunAfterIt) {
    Plan plan;
    auto engine = Compiled(ConvSilu(64, true, 56), {}, &plan);
    ASSERT_TRUE(engine);
    ASSERT_EQ(plan.layers.size(), 1u);
    ASSERT_EQ(plan.layers[0].post_ops.size(), 2u);
    EXPECT_EQ(plan.layers[0].post_ops[0].alg, static_cast<int64_t>(EltwiseAlg::kSwish));
    EXPECT_EQ(plan.layers[0].post_ops[1].kind, PostOp::kSum);
    if (HasAvx512Core()) {
        EXPECT_NE(engine->kernel(0).find("wino"), std::string::npos) << engine->kernel(0);
    }
    ExpectLikeOpenCv(ConvSilu(64, true, 56), {{1, 64, 56, 56}});
}

// Small enough to time: Winograd and the steps after it, or direct with everything fused
// (the add then a binary post-op, which the timing run must feed too).
TEST(CompiledEngine, SiluAfterASmallWinogradShapedConvolutionMatchesOpenCv) {
    ExpectLikeOpenCv(ConvSilu(64, false), {{1, 64, 8, 8}});
}

TEST(CompiledEngine, SiluAndAddAfterASmallWinogradShapedConvolutionMatchOpenCv) {
    ExpectLikeOpenCv(ConvSilu(64, true), {{1, 64, 8, 8}});
}

// A residual add after a fused SiLU is fused too: oneDNN 2.6's jit convolutions take a sum
// post-op first only, so the engine adds with a binary post-op.
TEST(CompiledEngine, ResidualAddAfterAFusedSiluBecomesAPostOp) {
    Plan plan;
    auto engine = Compiled(ConvSilu(16, true), {}, &plan);
    ASSERT_EQ(plan.layers.size(), 1u);
    ASSERT_EQ(plan.layers[0].post_ops.size(), 2u);
    EXPECT_EQ(plan.layers[0].post_ops[0].alg, static_cast<int64_t>(EltwiseAlg::kSwish));
    EXPECT_EQ(plan.layers[0].post_ops[1].kind, PostOp::kSum);
    ExpectLikeOpenCv(ConvSilu(16, true), {{1, 16, 8, 8}});
}

TEST(CompiledEngine, ResidualAddAfterAFusedSiluInPlainLayoutsMatchesOpenCv) {
    const Dims dims{1, 16, 8, 8};
    Tensors input{Random(Count(dims), 22)};
    auto plain = Compiled(ConvSilu(16, true), CompileOptions{true, false});
    auto opencv = OpenCv(ConvSilu(16, true));
    ASSERT_TRUE(plain && opencv);
    ExpectClose(RunEngine(plain.get(), {dims}, input), RunEngine(opencv.get(), {dims}, input));
}

// conv -> Relu -> Add at Winograd's shape: Winograd takes the Relu; the add runs after it.
TEST(CompiledEngine, ResidualAddAfterTheReluOfALargeWinogradConvolutionRunsAfterIt) {
    Builder b;
    const Dims x{1, 64, 56, 56};
    b.Input("x", x).Output("y", x);
    b.Weight("w", {64, 64, 3, 3}, Random(Count({64, 64, 3, 3}), 3, 0.1f));
    b.Node("Conv", {"x", "w"}, {"c"}).IntsAttribute("pads", {1, 1, 1, 1});
    b.Node("Relu", {"c"}, {"r"});
    b.Node("Add", {"r", "x"}, {"y"});
    Plan plan;
    auto engine = Compiled(b.Bytes(), {}, &plan);
    ASSERT_TRUE(engine);
    ASSERT_EQ(plan.layers.size(), 1u);
    EXPECT_EQ(plan.layers[0].post_ops.size(), 2u);
    if (HasAvx512Core()) {
        EXPECT_NE(engine->kernel(0).find("wino"), std::string::npos) << engine->kernel(0);
    }
    ExpectLikeOpenCv(b.Bytes(), {x});
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

// SmallNet in each region format, and in the one measured faster, against OpenCV.
class ConvLayouts : public ::testing::TestWithParam<ConvLayout> {};

TEST_P(ConvLayouts, SmallResidualNetworkMatchesOpenCv) {
    const Dims dims{2, 3, 16, 16};
    Tensors input{Random(Count(dims), 23)};
    auto compiled = Compiled(SmallNet(), {}, nullptr, GetParam());
    auto opencv = OpenCv(SmallNet());
    ASSERT_TRUE(compiled && opencv);
    ExpectClose(RunEngine(compiled.get(), {dims}, input), RunEngine(opencv.get(), {dims}, input));
}

INSTANTIATE_TEST_SUITE_P(CompiledEngine, ConvLayouts,
                         ::testing::Values(ConvLayout::kBlocked, ConvLayout::kNhwc,
                                           ConvLayout::kMeasure));

// Two threads where the device has them, unless OPENACL_MODEL_THREADS says fewer, as for
// aclmdlLoad* (scripts/test.sh sets 1 under ThreadSanitizer, which cannot see how libgomp's
// threads synchronise).
int Threads() {
    return std::min(2, ComputeThreadsPerRun());
}

// Compiled for Threads() threads, in `layout` (kMeasure: as aclmdlLoad* compiles).
std::unique_ptr<ModelEngine> CompiledFor(const std::string& onnx, ConvLayout layout) {
    return Compiled(onnx, {}, nullptr, layout, Threads());
}

std::string TinyRelu() {
    Builder b;
    b.Input("x", {1, 16}).Output("y", {1, 16});
    b.Node("Relu", {"x"}, {"y"});
    return b.Bytes();
}

// 38 M multiply-adds: worth a second thread wherever there is one.
std::string LargeConv() {
    return ConvModel({1, 32, 64, 64}, 32, 3, 1, 1, 1, {1, 32, 64, 64}).Bytes();
}

// A model of a few thousand operations runs on one thread whatever it was given: a second
// thread's wake-up would cost more than the work.
// What the engine decides by timing (EngineChoices), given back on the same machine: built
// once as they say, with the same kernels and outputs; atc keeps them in the .om this way.
TEST(CompiledEngine, ChoicesTimedOnThisMachineAreBuiltWithoutTiming) {
    CompileResult result;
    ASSERT_TRUE(CompileOnnx(SmallNet(), {}, &result)) << result.error;
    auto plan = std::make_shared<const Plan>(std::move(result.plan));
    std::string error;
    EngineChoices taken;
    auto timed =
        CreateDnnlEngine(plan, 2, &error, ConvLayout::kMeasure, ByImage::kMeasure, nullptr, &taken);
    ASSERT_NE(timed, nullptr) << error;
    EXPECT_FALSE(timed->built_from_choices());
    EXPECT_FALSE(taken.machine.empty());
    ASSERT_EQ(taken.convs.size(), plan->layers.size());
    auto built = CreateDnnlEngine(plan, 2, &error, ConvLayout::kMeasure, ByImage::kMeasure, &taken);
    ASSERT_NE(built, nullptr) << error;
    EXPECT_TRUE(built->built_from_choices());
    EXPECT_EQ(built->threads(), timed->threads());
    for (size_t i = 0; i < plan->layers.size(); ++i)
        EXPECT_EQ(built->kernel(i), timed->kernel(i)) << "layer " << i;
    const Tensors input{Random(Count({2, 3, 16, 16}), 7)};
    ExpectClose(RunEngine(built.get(), {{2, 3, 16, 16}}, input),
                RunEngine(timed.get(), {{2, 3, 16, 16}}, input));
}

TEST(CompiledEngine, ChoicesTimedElsewhereOrForAnotherPlanAreTimedAgain) {
    CompileResult result;
    ASSERT_TRUE(CompileOnnx(SmallNet(), {}, &result)) << result.error;
    auto plan = std::make_shared<const Plan>(std::move(result.plan));
    std::string error;
    EngineChoices taken;
    ASSERT_NE(
        CreateDnnlEngine(plan, 2, &error, ConvLayout::kMeasure, ByImage::kMeasure, nullptr, &taken),
        nullptr);
    EngineChoices elsewhere = taken;
    elsewhere.machine = "another CPU; avx2; 2 threads";
    auto engine =
        CreateDnnlEngine(plan, 2, &error, ConvLayout::kMeasure, ByImage::kMeasure, &elsewhere);
    ASSERT_NE(engine, nullptr) << error;
    EXPECT_FALSE(engine->built_from_choices());
    EngineChoices other_plan = taken;
    other_plan.convs.push_back(kNotTimed);
    engine =
        CreateDnnlEngine(plan, 2, &error, ConvLayout::kMeasure, ByImage::kMeasure, &other_plan);
    ASSERT_NE(engine, nullptr) << error;
    EXPECT_FALSE(engine->built_from_choices());
}

TEST(CompiledEngine, ATinyModelRunsOnOneThread) {
    auto engine = CompiledFor(TinyRelu(), ConvLayout::kMeasure);
    ASSERT_TRUE(engine);
    EXPECT_EQ(engine->threads(), 1);
    const Tensors in{Random(16, 9)};
    const Tensors out = RunEngine(engine.get(), {{1, 16}}, in);
    ASSERT_EQ(out.size(), 1u);
    for (size_t i = 0; i < 16; ++i)
        EXPECT_EQ(out[0][i], std::max(0.0f, in[0][i])) << i;
}

TEST(CompiledEngine, AModelWithMuchWorkKeepsTheThreadsItWasGiven) {
    auto engine = CompiledFor(LargeConv(), ConvLayout::kMeasure);
    ASSERT_TRUE(engine);
    EXPECT_EQ(engine->threads(), Threads());
}

TEST(CompiledEngine, LoadingLeavesTheCallersOpenMpThreadCountAsItWas) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(3);
    auto tiny = CompiledFor(TinyRelu(), ConvLayout::kMeasure);
    EXPECT_EQ(omp_get_max_threads(), 3);
    auto large = CompiledFor(LargeConv(), ConvLayout::kBlocked);
    EXPECT_EQ(omp_get_max_threads(), 3);
    omp_set_num_threads(before);
}

// aclmdlExecute runs the model on the calling thread.
TEST(CompiledEngine, ARunLeavesTheCallersOpenMpThreadCountAsItWas) {
    auto engine = CompiledFor(LargeConv(), ConvLayout::kBlocked);
    ASSERT_TRUE(engine);
    const int before = omp_get_max_threads();
    omp_set_num_threads(3);
    RunEngine(engine.get(), {{1, 32, 64, 64}}, {Random(32 * 64 * 64, 4)});
    EXPECT_EQ(omp_get_max_threads(), 3);
    omp_set_num_threads(before);
}

// ---- Image by image ----

// SmallNet's batch of two, run image by image where it can be and as a whole, in `layout`.
void ExpectImageByImageLikeTheWholeBatch(ConvLayout layout) {
    const Dims dims{2, 3, 16, 16};
    const Tensors input{Random(Count(dims), 31)};
    auto by_image = Compiled(SmallNet(), {}, nullptr, layout, Threads(), ByImage::kAlways);
    auto whole = Compiled(SmallNet(), {}, nullptr, layout, Threads(), ByImage::kNever);
    ASSERT_TRUE(by_image && whole);
    EXPECT_GT(by_image->layers_by_image(), 0u);
    EXPECT_EQ(whole->layers_by_image(), 0u);
    ExpectClose(RunEngine(by_image.get(), {dims}, input), RunEngine(whole.get(), {dims}, input));
}

TEST(CompiledEngine, ABatchRunImageByImageGivesTheWholeBatchsOutputsInNChw16c) {
    ExpectImageByImageLikeTheWholeBatch(ConvLayout::kBlocked);
}

TEST(CompiledEngine, ABatchRunImageByImageGivesTheWholeBatchsOutputsInNhwc) {
    ExpectImageByImageLikeTheWholeBatch(ConvLayout::kNhwc);
}

// Two runs of one instance: each run binds its own images again.
TEST(CompiledEngine, AnInstanceRunsImageByImageAgainWithNewInputs) {
    const Dims dims{2, 3, 16, 16};
    auto by_image =
        Compiled(SmallNet(), {}, nullptr, ConvLayout::kBlocked, Threads(), ByImage::kAlways);
    auto whole =
        Compiled(SmallNet(), {}, nullptr, ConvLayout::kBlocked, Threads(), ByImage::kNever);
    ASSERT_TRUE(by_image && whole);
    std::string error;
    auto instance = by_image->CreateInstance(&error);
    ASSERT_TRUE(instance) << error;
    for (uint32_t seed : {41u, 42u}) {
        const Tensors input{Random(Count(dims), seed)};
        std::vector<TensorView> in{
            TensorView{ACL_FLOAT, dims, input[0].data(), input[0].size() * 4}};
        std::vector<TensorView> out;
        ASSERT_TRUE(instance->Run(in, &out, &error)) << error;
        const float* p = static_cast<const float*>(out[0].data);
        ExpectClose({std::vector<float>(p, p + out[0].bytes / 4)},
                    RunEngine(whole.get(), {dims}, input));
    }
}

// The images' last layer adds a residual: its output takes over the memory of the tensor it
// adds, which must then be the whole batch's too.
TEST(CompiledEngine, AResidualSumEndingTheImagesLandsInTheWholeBatch) {
    Builder b;
    b.Input("x", {3, 8, 6, 6}).Output("y", {3, 4});
    b.Weight("w1", {8, 8, 1, 1}, Random(64, 51, 0.3f));
    b.Weight("w2", {8, 8, 1, 1}, Random(64, 52, 0.3f));
    b.Weight("w3", {8, 8, 1, 1}, Random(64, 53, 0.3f));
    b.Weight("fc", {4, 288}, Random(4 * 288, 54, 0.1f));
    b.Node("Conv", {"x", "w1"}, {"c1"});
    b.Node("Relu", {"c1"}, {"r1"});
    b.Node("Conv", {"r1", "w2"}, {"c2"});
    b.Node("Conv", {"c2", "w3"}, {"c3"});
    b.Node("Add", {"c3", "r1"}, {"s"});
    b.Node("Flatten", {"s"}, {"flat"});
    b.Node("Gemm", {"flat", "fc"}, {"y"}).IntAttribute("transB", 1);
    const Dims dims{3, 8, 6, 6};
    const Tensors input{Random(Count(dims), 55)};
    for (ConvLayout layout : {ConvLayout::kBlocked, ConvLayout::kNhwc}) {
        auto by_image = Compiled(b.Bytes(), {}, nullptr, layout, Threads(), ByImage::kAlways);
        auto whole = Compiled(b.Bytes(), {}, nullptr, layout, Threads(), ByImage::kNever);
        ASSERT_TRUE(by_image && whole);
        EXPECT_GT(by_image->layers_by_image(), 0u);
        ExpectClose(RunEngine(by_image.get(), {dims}, input),
                    RunEngine(whole.get(), {dims}, input));
    }
}

// The images part at the first layer that mixes them (SmallNet's Flatten).
TEST(CompiledEngine, ImagesRunAloneUpToTheFirstLayerThatMixesThem) {
    Plan plan;
    auto engine = Compiled(SmallNet(), {}, &plan, ConvLayout::kBlocked, 1, ByImage::kAlways);
    ASSERT_TRUE(engine);
    size_t flatten = 0;
    while (flatten < plan.layers.size() && plan.layers[flatten].kind != LayerKind::kView)
        ++flatten;
    ASSERT_LT(flatten, plan.layers.size());
    EXPECT_EQ(engine->layers_by_image(), flatten);
}

// Traced, each layer run image by image is a slice per image; the others, one per run.
TEST(CompiledEngine, ALayerRunImageByImageIsASlicePerImageInATrace) {
    auto engine = Compiled(SmallNet(), {}, nullptr, ConvLayout::kBlocked, 1, ByImage::kAlways);
    ASSERT_TRUE(engine);
    const size_t by_image = engine->layers_by_image();
    ASSERT_GT(by_image, 0u);
    trace::SessionOptions options;
    TempDir dir("openacl-by-image-trace");
    ASSERT_FALSE(dir.path().empty());
    options.path = dir.File("trace.json");
    options.owner = trace::Owner::kProfApi;
    std::string why;
    ASSERT_TRUE(trace::Start(options, &why)) << why;
    RunEngine(engine.get(), {{2, 3, 16, 16}}, {Random(2 * 3 * 16 * 16, 61)});
    ASSERT_TRUE(trace::Stop(&why)) << why;
    std::ifstream file(options.path);
    const nlohmann::json trace = nlohmann::json::parse(file);
    std::map<std::string, int> slices;  // per layer name
    for (const auto& e : trace["traceEvents"]) {
        if (e.value("cat", "") == "layer") ++slices[e["name"].get<std::string>()];
    }
    size_t twice = 0;
    for (const auto& [name, count] : slices) {
        EXPECT_TRUE(count == 1 || count == 2) << name << ": " << count << " slices";
        twice += count == 2 ? 1 : 0;
    }
    EXPECT_EQ(twice, by_image);
}

TEST(CompiledEngine, ABatchOfOneRunsAsAWhole) {
    auto engine = Compiled(ConvModel({1, 8, 10, 10}, 16, 3, 1, 1, 1, {1, 16, 10, 10}).Bytes(), {},
                           nullptr, ConvLayout::kBlocked, 1, ByImage::kAlways);
    ASSERT_TRUE(engine);
    EXPECT_EQ(engine->layers_by_image(), 0u);
}

// Reading a layer's weights once per image costs more than its images' activations save when
// the weights are larger than an image's output (64 x 64 x 3 x 3 weights, 64 x 4 x 4 outputs).
TEST(CompiledEngine, ALayerWithWeightsLargerThanAnImagesOutputRunsTheWholeBatch) {
    auto engine = Compiled(ConvModel({2, 64, 4, 4}, 64, 3, 1, 1, 1, {2, 64, 4, 4}).Bytes(), {},
                           nullptr, ConvLayout::kBlocked, 1, ByImage::kAlways);
    ASSERT_TRUE(engine);
    EXPECT_EQ(engine->layers_by_image(), 0u);
}

// As aclmdlLoad* compiles: only layers doing tens of millions of multiply-adds per image are
// worth an OpenMP region per image (SmallNet's do thousands), whatever the timing would say.
TEST(CompiledEngine, LightLayersRunTheWholeBatchWhenLoadedAsUsual) {
    auto engine = CompiledFor(SmallNet(), ConvLayout::kMeasure);
    ASSERT_TRUE(engine);
    EXPECT_EQ(engine->layers_by_image(), 0u);
}

TEST(CompiledEngine, APinnedLayoutRunsTheWholeBatch) {
    auto engine = Compiled(SmallNet(), {}, nullptr, ConvLayout::kBlocked, 1);
    ASSERT_TRUE(engine);
    EXPECT_EQ(engine->layers_by_image(), 0u);
}

TEST(CompiledEngine, APinnedLayoutAlsoPinsTheThreads) {
    auto engine = CompiledFor(TinyRelu(), ConvLayout::kBlocked);
    ASSERT_TRUE(engine);
    EXPECT_EQ(engine->threads(), Threads());
}

// The nhwc build runs oneDNN's nhwc kernels: on AVX-512, brgemm-based depthwise convolution
// where the nChw16c build runs its channel-blocked jit kernel.
TEST(CompiledEngine, AnNhwcBuildRunsOneDnnsNhwcKernels) {
    if (!HasAvx512Core()) GTEST_SKIP() << "kernel names checked for AVX-512 only";
    Plan plan;
    auto blocked = Compiled(SmallNet(), {}, &plan, ConvLayout::kBlocked);
    auto nhwc = Compiled(SmallNet(), {}, nullptr, ConvLayout::kNhwc);
    ASSERT_TRUE(blocked && nhwc);
    size_t depthwise = plan.layers.size();
    for (size_t i = 0; i < plan.layers.size(); ++i) {
        if (plan.layers[i].kind == LayerKind::kConv && plan.layers[i].ints[0] > 1) depthwise = i;
    }
    ASSERT_LT(depthwise, plan.layers.size());
    EXPECT_NE(blocked->kernel(depthwise), nhwc->kernel(depthwise));
    EXPECT_EQ(blocked->kernel(depthwise).find("brdgmm"), std::string::npos);
    EXPECT_NE(nhwc->kernel(depthwise).find("brdgmm"), std::string::npos) << nhwc->kernel(depthwise);
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
        {"HardSigmoid",  // alpha 2: inputs in [-1, 1] reach both ends of the clip
         [x] {
             Builder b;
             b.Input("x", x).Output("y", x).Node("HardSigmoid", {"x"}, {"y"});
             b.FloatAttribute("alpha", 2.0f).FloatAttribute("beta", 0.5f);
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

// Built, the engine holds its constants in its primitives' formats and copies the few it reads
// as the plan stores them, so the plan and its data go with their other owners: a loaded model
// then holds its weights once.
TEST(CompiledEngine, KeepsNoReferenceToThePlanOnceBuilt) {
    CompileResult result;
    ASSERT_TRUE(CompileOnnx(ConvModel({1, 8, 10, 10}, 16, 3, 1, 1, 1, {1, 16, 10, 10}).Bytes(), {},
                            &result))
        << result.error;
    auto plan = std::make_shared<const Plan>(std::move(result.plan));
    const std::weak_ptr<const Plan> watch = plan;
    std::string error;
    auto engine = CreateDnnlEngine(std::move(plan), 1, &error);
    ASSERT_NE(engine, nullptr) << error;
    EXPECT_TRUE(watch.expired());
}

// A convolution's weights are reordered; a fully connected layer's weights and bias are read
// as the plan stored them, from the engine's copies once the plan is gone.
TEST(CompiledEngine, ConstantsReadAsThePlanStoredThemOutliveThePlan) {
    Builder b = ConvModel({2, 8, 6, 6}, 4, 3, 1, 1, 1, {2, 4, 6, 6});
    b.Output("z", {2, 10});
    b.Weight("fc_w", {10, 144}, Random(1440, 3, 0.1f)).Weight("fc_b", {10}, Random(10, 4));
    b.Node("Flatten", {"y"}, {"f"}).Node("Gemm", {"f", "fc_w", "fc_b"}, {"z"});
    b.IntAttribute("transB", 1);
    ExpectLikeOpenCv(b.Bytes(), {{2, 8, 6, 6}});
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
    EXPECT_EQ(CreateDnnlEngine(std::make_shared<const Plan>(std::move(result.plan)), 1, &error),
              nullptr);
    EXPECT_NE(error.find("MiB of activation memory"), std::string::npos) << error;
}

TEST(CompiledEngine, UnsupportedOperatorsAreNamed) {
    Builder b;
    b.Input("x", {1, 4})
        .Output("y", {1, 4})
        .Node("Hardmax", {"x"}, {"e"})
        .Node("Relu", {"e"}, {"y"});
    CompileResult result;
    EXPECT_FALSE(CompileOnnx(b.Bytes(), {}, &result));
    ASSERT_EQ(result.unsupported.size(), 1u);
    EXPECT_EQ(result.unsupported[0], "Hardmax");
}

// ConvTranspose, Pad and LayerNormalization: compared with plain references written here.

// ConvTranspose, 2-D: every input pixel scatters its kernel into the output, shifted by the
// begin pads; what lands outside is cut, an output past the contributions holds the bias.
std::vector<float> ConvTransposeReference(const std::vector<float>& x, const Dims& xd,
                                          const std::vector<float>& w, const Dims& wd,
                                          const std::vector<float>& bias, int64_t group,
                                          int64_t stride, int64_t dilation, int64_t pad_begin,
                                          const Dims& yd) {
    const int64_t icg = wd[0] / group, ocg = wd[1];
    std::vector<float> y(Count(yd), 0.0f);
    for (int64_t n = 0; n < yd[0]; ++n) {
        for (int64_t oc = 0; oc < yd[1]; ++oc) {
            for (int64_t i = 0; i < yd[2] * yd[3]; ++i)
                y[(n * yd[1] + oc) * yd[2] * yd[3] + i] = bias.empty() ? 0.0f : bias[oc];
        }
        for (int64_t ic = 0; ic < xd[1]; ++ic) {
            const int64_t g = ic / icg;
            for (int64_t iy = 0; iy < xd[2]; ++iy) {
                for (int64_t ix = 0; ix < xd[3]; ++ix) {
                    const float v = x[((n * xd[1] + ic) * xd[2] + iy) * xd[3] + ix];
                    for (int64_t o = 0; o < ocg; ++o) {
                        for (int64_t ky = 0; ky < wd[2]; ++ky) {
                            for (int64_t kx = 0; kx < wd[3]; ++kx) {
                                int64_t oy = iy * stride + ky * dilation - pad_begin;
                                int64_t ox = ix * stride + kx * dilation - pad_begin;
                                if (oy < 0 || ox < 0 || oy >= yd[2] || ox >= yd[3]) continue;
                                const int64_t oc = g * ocg + o;
                                y[((n * yd[1] + oc) * yd[2] + oy) * yd[3] + ox] +=
                                    v * w[((ic * ocg + o) * wd[2] + ky) * wd[3] + kx];
                            }
                        }
                    }
                }
            }
        }
    }
    return y;
}

struct DeconvCase {
    Dims x, w, y;
    int64_t group = 1, stride = 1, dilation = 1, pad = 0, output_padding = 0;
    bool bias = true;
    bool output_shape = false;  // the output's spatial size as output_shape instead of pads
};

void ExpectConvTransposeLikeReference(const DeconvCase& c,
                                      ConvLayout layout = ConvLayout::kBlocked) {
    const std::vector<float> x = Random(Count(c.x), 31), w = Random(Count(c.w), 32, 0.5f);
    const std::vector<float> bias =
        c.bias ? Random(static_cast<size_t>(c.y[1]), 33) : std::vector<float>{};
    Builder b;
    b.Input("x", c.x).Output("y", c.y).Weight("w", c.w, w);
    if (c.bias) b.Weight("b", {c.y[1]}, bias);
    if (c.bias) {
        b.Node("ConvTranspose", {"x", "w", "b"}, {"y"});
    } else {
        b.Node("ConvTranspose", {"x", "w"}, {"y"});
    }
    b.IntAttribute("group", c.group)
        .IntsAttribute("strides", {c.stride, c.stride})
        .IntsAttribute("dilations", {c.dilation, c.dilation});
    if (c.output_shape) {
        b.IntsAttribute("output_shape", {c.y[2], c.y[3]});
    } else {
        b.IntsAttribute("pads", {c.pad, c.pad, c.pad, c.pad});
        b.IntsAttribute("output_padding", {c.output_padding, c.output_padding});
    }
    Plan plan;
    auto engine = Compiled(b.Bytes(), {}, &plan, layout);
    ASSERT_TRUE(engine);
    ASSERT_EQ(plan.layers.size(), 1u);
    EXPECT_EQ(plan.layers[0].kind, LayerKind::kDeconv);
    ExpectClose(
        RunEngine(engine.get(), {c.x}, {x}),
        {ConvTransposeReference(x, c.x, w, c.w, bias, c.group, c.stride, c.dilation, c.pad, c.y)});
}

TEST(CompiledEngine, ConvTransposeStridedWithOutputPaddingMatchesAReference) {
    // (5 - 1) * 2 + 3 - 1 - 1 + 1 = 10
    ExpectConvTransposeLikeReference({.x = {1, 4, 5, 5},
                                      .w = {4, 3, 3, 3},
                                      .y = {1, 3, 10, 10},
                                      .stride = 2,
                                      .pad = 1,
                                      .output_padding = 1});
}

// 16 channels or more in and out: built in the convolutions' format (oneDNN's jit kernels).
TEST(CompiledEngine, ConvTransposeOfManyChannelsMatchesAReferenceInBothLayouts) {
    const DeconvCase upsampler{
        .x = {1, 24, 6, 6}, .w = {24, 16, 2, 2}, .y = {1, 16, 12, 12}, .stride = 2};
    ExpectConvTransposeLikeReference(upsampler, ConvLayout::kBlocked);
    ExpectConvTransposeLikeReference(upsampler, ConvLayout::kNhwc);
}

TEST(CompiledEngine, ConvTransposeGroupedAndDilatedMatchesAReference) {
    // (5 - 1) * 1 + (3 - 1) * 2 + 1 = 9 output channels 2 * 2
    ExpectConvTransposeLikeReference({.x = {2, 4, 5, 5},
                                      .w = {4, 2, 3, 3},
                                      .y = {2, 4, 9, 9},
                                      .group = 2,
                                      .dilation = 2,
                                      .bias = false});
}

TEST(CompiledEngine, ConvTransposeOutputPastTheContributionsHoldsTheBias) {
    // No pads and output_padding 1: the last row and column get only the bias.
    ExpectConvTransposeLikeReference({.x = {1, 2, 4, 4},
                                      .w = {2, 3, 2, 2},
                                      .y = {1, 3, 9, 9},
                                      .stride = 2,
                                      .output_padding = 1});
}

TEST(CompiledEngine, ConvTransposeOutputShapeSetsThePads) {
    // Full size (4 - 1) * 2 + 3 = 9; output_shape 8 makes a total pad of 1, which ONNX puts at
    // the start unless auto_pad is SAME_UPPER.
    ExpectConvTransposeLikeReference({.x = {1, 2, 4, 4},
                                      .w = {2, 2, 3, 3},
                                      .y = {1, 2, 8, 8},
                                      .stride = 2,
                                      .pad = 1,
                                      .output_shape = true});
}

TEST(CompiledEngine, ConvTransposeWeightsGivenAtRunTimeAreReorderedEachRun) {
    const Dims xd{1, 2, 3, 3}, wd{2, 2, 3, 3}, yd{1, 2, 7, 7};
    Builder b;
    b.Input("x", xd).Input("w", wd).Input("b", {2}).Output("y", yd);
    b.Node("ConvTranspose", {"x", "w", "b"}, {"y"}).IntsAttribute("strides", {2, 2});
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    for (uint32_t seed : {61u, 62u}) {
        const std::vector<float> x = Random(Count(xd), seed), w = Random(Count(wd), seed + 10),
                                 bias = Random(2, seed + 20);
        ExpectClose(RunEngine(engine.get(), {xd, wd, {2}}, {x, w, bias}),
                    {ConvTransposeReference(x, xd, w, wd, bias, 1, 2, 1, 0, yd)});
    }
}

TEST(CompiledEngine, ConvTransposeMatchesOpenCv) {
    Builder b;
    b.Input("x", {1, 4, 6, 6}).Output("y", {1, 6, 12, 12});
    b.Weight("w", {4, 6, 4, 4}, Random(4 * 6 * 16, 34, 0.3f)).Weight("b", {6}, Random(6, 35));
    b.Node("ConvTranspose", {"x", "w", "b"}, {"y"})
        .IntsAttribute("strides", {2, 2})
        .IntsAttribute("pads", {1, 1, 1, 1});
    ExpectLikeOpenCv(b.Bytes(), {{1, 4, 6, 6}});
}

// Concatenating convolution outputs (blocked layouts, whole channel blocks) along the channels:
// with batch 1 the sources' bytes lie one after the other, so the engine computes each source
// straight into its place in the output; with batch 2 they do not (each image's channels are
// apart) and it uses oneDNN's concat. Both must agree with OpenCV.
Builder ConvConcatModel(int64_t batch) {
    Builder b;
    b.Input("x", {batch, 8, 10, 10}).Output("y", {batch, 48, 10, 10});
    b.Weight("w1", {16, 8, 3, 3}, Random(16 * 8 * 9, 11, 0.3f)).Weight("b1", {16}, Random(16, 12));
    b.Weight("w2", {32, 8, 1, 1}, Random(32 * 8, 13, 0.3f)).Weight("b2", {32}, Random(32, 14));
    b.Node("Conv", {"x", "w1", "b1"}, {"c1"}).IntsAttribute("pads", {1, 1, 1, 1});
    b.Node("Conv", {"x", "w2", "b2"}, {"c2"});
    b.Node("Concat", {"c1", "c2"}, {"y"}).IntAttribute("axis", 1);
    return b;
}

TEST(CompiledEngine, ConcatOfConvolutionsAlongChannelsMatchesOpenCv) {
    ExpectLikeOpenCv(ConvConcatModel(1).Bytes(), {{1, 8, 10, 10}});
}

// A source that is read again after the Concat keeps bytes of its own, and the Concat copies
// it: here the later reader is a Sigmoid, which overwrites its input in place once nothing else
// reads it.
TEST(CompiledEngine, ConcatOfASourceReadAgainLaterMatchesOpenCv) {
    Builder b = ConvConcatModel(1);
    b.Output("s", {1, 16, 10, 10});
    b.Node("Sigmoid", {"c1"}, {"s"});
    ExpectLikeOpenCv(b.Bytes(), {{1, 8, 10, 10}});
}

TEST(CompiledEngine, ConcatOfConvolutionsOfABatchAlongChannelsMatchesOpenCv) {
    ExpectLikeOpenCv(ConvConcatModel(2).Bytes(), {{2, 8, 10, 10}});
}

// Rows of three tensors of batch 1 (a detector's heads joined into one list of boxes).
TEST(CompiledEngine, ConcatOfRowsMatchesOpenCv) {
    Builder b;
    b.Input("a", {1, 300, 85}).Input("b", {1, 75, 85}).Input("c", {1, 19, 85});
    b.Output("y", {1, 394, 85});
    b.Node("Concat", {"a", "b", "c"}, {"y"}).IntAttribute("axis", 1);
    ExpectLikeOpenCv(b.Bytes(), {{1, 300, 85}, {1, 75, 85}, {1, 19, 85}});
}

// A detector's head: a convolution's output (blocked; 21 channels, 3 anchors x 7 values, not a
// whole number of blocks) viewed as anchors x values x cells and transposed so that the values
// are innermost, then listed as rows. The engine does the view and the transpose in one pass
// from the blocked layout; `five_dims` splits the cells into rows and columns as YOLOv5 does.
std::string HeadModel(int64_t batch, bool five_dims) {
    Builder b;
    b.Input("x", {batch, 8, 6, 5}).Output("y", {batch, 90, 7});
    b.Weight("w", {21, 8, 1, 1}, Random(21 * 8, 21, 0.3f)).Weight("b", {21}, Random(21, 22));
    b.Node("Conv", {"x", "w", "b"}, {"c"});
    if (five_dims) {
        b.Int64Weight("grouped", {5}, {batch, 3, 7, 6, 5});
        b.Node("Reshape", {"c", "grouped"}, {"g"});
        b.Node("Transpose", {"g"}, {"t"}).IntsAttribute("perm", {0, 1, 3, 4, 2});
    } else {
        b.Int64Weight("grouped", {4}, {batch, 3, 7, 30});
        b.Node("Reshape", {"c", "grouped"}, {"g"});
        b.Node("Transpose", {"g"}, {"t"}).IntsAttribute("perm", {0, 1, 3, 2});
    }
    b.Int64Weight("rows", {3}, {batch, 90, 7});
    b.Node("Reshape", {"t", "rows"}, {"y"});
    return b.Bytes();
}

TEST(CompiledEngine, HeadViewAndTransposeOfABlockedConvolutionMatchOpenCv) {
    ExpectLikeOpenCv(HeadModel(1, false), {{1, 8, 6, 5}});
}

TEST(CompiledEngine, HeadViewAndTransposeOfABatchMatchOpenCv) {
    ExpectLikeOpenCv(HeadModel(2, false), {{2, 8, 6, 5}});
}

TEST(CompiledEngine, HeadViewOfRowsAndColumnsAndTransposeMatchOpenCv) {
    ExpectLikeOpenCv(HeadModel(1, true), {{1, 8, 6, 5}});
}

// The end of a detector: heads joined, then Sigmoid, which overwrites the joined rows in place
// (nothing reads them after it).
TEST(CompiledEngine, SigmoidOfConcatenatedRowsMatchesOpenCv) {
    Builder b;
    b.Input("a", {1, 30, 7}).Input("b", {1, 9, 7}).Output("y", {1, 39, 7});
    b.Node("Concat", {"a", "b"}, {"c"}).IntAttribute("axis", 1);
    b.Node("Sigmoid", {"c"}, {"y"});
    ExpectLikeOpenCv(b.Bytes(), {{1, 30, 7}, {1, 9, 7}});
}

// ONNX's own example: a plain 1-D tensor, where oneDNN 2.6's reference eltwise kernel (which
// it picks for an eltwise with post-ops) left the output unwritten.
TEST(CompiledEngine, HardSigmoidOfAVectorGivesOnnxsExample) {
    Builder b;
    b.Input("x", {3}).Output("y", {3});
    b.Node("HardSigmoid", {"x"}, {"y"}).FloatAttribute("alpha", 0.5f).FloatAttribute("beta", 0.6f);
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    const auto out = RunEngine(engine.get(), {{3}}, {{-1.0f, 0.0f, 1.0f}});
    ASSERT_EQ(out.size(), 1u);
    ExpectClose(out, {{0.1f, 0.6f, 1.0f}});
}

// HardSigmoid runs as oneDNN's linear and a clip. The compiler fuses nothing into an eltwise
// layer, but a plan may carry post-ops there (ValidatePlan allows them): they must see the
// clipped value (tanh(1) for a large input, not tanh of the unclipped line).
TEST(CompiledEngine, APostOpOfAHardSigmoidLayerSeesTheClippedValue) {
    Builder b;
    b.Input("x", {1, 4, 5, 5}).Output("y", {1, 4, 5, 5});
    b.Node("HardSigmoid", {"x"}, {"h"}).FloatAttribute("alpha", 2.0f).FloatAttribute("beta", 0.5f);
    b.Node("Tanh", {"h"}, {"y"});
    CompileResult result;
    ASSERT_TRUE(CompileOnnx(b.Bytes(), {}, &result));
    Plan plan = std::move(result.plan);
    ASSERT_EQ(plan.layers.size(), 2u);
    PostOp tanh_op;
    tanh_op.alg = static_cast<int64_t>(EltwiseAlg::kTanh);
    plan.layers[0].post_ops.push_back(tanh_op);
    plan.layers[0].output = plan.layers[1].output;
    plan.layers.pop_back();
    ComputeLifetimes(&plan);
    std::string error;
    ASSERT_TRUE(ValidatePlan(plan, &error)) << error;
    auto engine = CreateDnnlEngine(std::make_shared<const Plan>(std::move(plan)), 1, &error,
                                   ConvLayout::kBlocked);
    ASSERT_NE(engine, nullptr) << error;
    const Dims dims{1, 4, 5, 5};
    const Tensors inputs{Random(Count(dims), 7)};
    auto opencv = OpenCv(b.Bytes());
    ASSERT_TRUE(opencv);
    ExpectClose(RunEngine(engine.get(), {dims}, inputs), RunEngine(opencv.get(), {dims}, inputs));
}

// An activation whose input is read again later must leave that input as it was.
TEST(CompiledEngine, AnActivationWhoseInputIsReadLaterLeavesItIntact) {
    Builder b;
    b.Input("a", {1, 30, 7}).Input("b", {1, 9, 7}).Output("y", {1, 39, 7});
    b.Node("Concat", {"a", "b"}, {"c"}).IntAttribute("axis", 1);
    b.Node("Sigmoid", {"c"}, {"s"});
    b.Node("Add", {"c", "s"}, {"y"});
    ExpectLikeOpenCv(b.Bytes(), {{1, 30, 7}, {1, 9, 7}});
}

// Pad: a 2x3 input [[1, 2, 3], [4, 5, 6]] padded by one row before and two columns after.
std::vector<float> Padded(const std::string& mode, const std::vector<int64_t>& pads, const Dims& y,
                          int64_t opset = 13) {
    Builder b(opset);
    b.Input("x", {2, 3}).Output("y", y).Int64Weight("pads", {4}, pads);
    b.Weight("value", {}, {9.0f});
    b.Node("Pad", {"x", "pads", "value"}, {"y"}).StringAttribute("mode", mode);
    Plan plan;
    auto engine = Compiled(b.Bytes(), {}, &plan);
    if (!engine) return {};
    EXPECT_EQ(plan.layers[0].kind, LayerKind::kPad);
    auto out = RunEngine(engine.get(), {{2, 3}}, {{1, 2, 3, 4, 5, 6}});
    return out.empty() ? std::vector<float>{} : out[0];
}

TEST(CompiledEngine, PadConstantFillsWithTheValueInput) {
    EXPECT_EQ(Padded("constant", {1, 0, 0, 2}, {3, 5}),
              (std::vector<float>{9, 9, 9, 9, 9, 1, 2, 3, 9, 9, 4, 5, 6, 9, 9}));
}

TEST(CompiledEngine, PadReflectMirrorsWithoutTheEdge) {
    EXPECT_EQ(Padded("reflect", {1, 0, 0, 2}, {3, 5}),
              (std::vector<float>{4, 5, 6, 5, 4, 1, 2, 3, 2, 1, 4, 5, 6, 5, 4}));
}

TEST(CompiledEngine, PadReflectWiderThanTheInputRepeatsTheMirror) {
    // numpy.pad([1, 2, 3], (0, 4), "reflect") is [1, 2, 3, 2, 1, 2, 3].
    EXPECT_EQ(Padded("reflect", {0, 0, 0, 4}, {2, 7}),
              (std::vector<float>{1, 2, 3, 2, 1, 2, 3, 4, 5, 6, 5, 4, 5, 6}));
}

TEST(CompiledEngine, PadEdgeRepeatsTheBorder) {
    EXPECT_EQ(Padded("edge", {1, 0, 0, 2}, {3, 5}),
              (std::vector<float>{1, 2, 3, 3, 3, 1, 2, 3, 3, 3, 4, 5, 6, 6, 6}));
}

TEST(CompiledEngine, PadConstantWithNegativePadsCrops) {
    EXPECT_EQ(Padded("constant", {0, -1, 0, 1}, {2, 3}), (std::vector<float>{2, 3, 9, 5, 6, 9}));
}

TEST(CompiledEngine, PadFromOpset2AttributesMatchesOpenCv) {
    Builder b(2);
    b.Input("x", {1, 4, 6, 6}).Output("y", {1, 4, 9, 8});
    b.Node("Pad", {"x"}, {"y"}).IntsAttribute("pads", {0, 0, 1, 2, 0, 0, 2, 0});
    b.StringAttribute("mode", "reflect");
    ExpectLikeOpenCv(b.Bytes(), {{1, 4, 6, 6}});
}

TEST(CompiledEngine, PadWithAValueGivenAtRunTimeFillsWithIt) {
    Builder b;
    b.Input("x", {2, 3}).Input("value", {}).Output("y", {3, 5});
    b.Int64Weight("pads", {4}, {1, 0, 0, 2});
    b.Node("Pad", {"x", "pads", "value"}, {"y"});
    Plan plan;
    auto engine = Compiled(b.Bytes(), {}, &plan);
    ASSERT_TRUE(engine);
    EXPECT_EQ(plan.layers[0].kind, LayerKind::kPad);
    for (float value : {7.0f, -2.5f}) {
        auto out = RunEngine(engine.get(), {{2, 3}, {}}, {{1, 2, 3, 4, 5, 6}, {value}});
        ASSERT_EQ(out.size(), 1u);
        const float v = value;
        EXPECT_EQ(out[0], (std::vector<float>{v, v, v, v, v, 1, 2, 3, v, v, 4, 5, 6, v, v}));
    }
}

// The output's shape follows the pads: pads known only at run time would make it depend on the
// data, which a compiled plan cannot hold (the model falls back to OpenCV DNN).
TEST(CompiledEngine, PadWithPadsGivenAtRunTimeIsRefusedWithTheReason) {
    Builder b;
    b.Input("x", {2, 3}).Input("pads", {4}).Output("y", {3, 5});
    b.Node("Pad", {"x", "pads"}, {"y"});
    CompileResult result;
    EXPECT_FALSE(CompileOnnx(b.Bytes(), {}, &result));
    EXPECT_NE(std::find(result.unsupported.begin(), result.unsupported.end(),
                        "Pad (pads or axes not constant)"),
              result.unsupported.end());
}

// Large enough (74 Ki elements) to be split over the run's threads.
TEST(CompiledEngine, PadLargeEnoughToRunOnSeveralThreadsMatchesOpenCv) {
    Builder b(2);
    b.Input("x", {1, 16, 64, 64}).Output("y", {1, 16, 68, 68});
    b.Node("Pad", {"x"}, {"y"}).IntsAttribute("pads", {0, 0, 1, 3, 0, 0, 3, 1});
    b.StringAttribute("mode", "reflect");
    const Dims dims{1, 16, 64, 64};
    const Tensors input{Random(Count(dims), 31)};
    auto compiled = CompiledFor(b.Bytes(), ConvLayout::kBlocked);
    auto opencv = OpenCv(b.Bytes());
    ASSERT_TRUE(compiled && opencv);
    EXPECT_EQ(compiled->threads(), Threads());
    ExpectClose(RunEngine(compiled.get(), {dims}, input), RunEngine(opencv.get(), {dims}, input));
}

// LayerNormalization: (x - mean) / sqrt(var + epsilon) * scale + bias over the dims from `axis`.
std::vector<float> LayerNormReference(const std::vector<float>& x, int64_t outer,
                                      const std::vector<float>& scale,
                                      const std::vector<float>& bias, float epsilon) {
    const size_t inner = x.size() / static_cast<size_t>(outer);
    std::vector<float> y(x.size());
    for (size_t o = 0; o < static_cast<size_t>(outer); ++o) {
        double mean = 0, var = 0;
        for (size_t i = 0; i < inner; ++i)
            mean += x[o * inner + i];
        mean /= static_cast<double>(inner);
        for (size_t i = 0; i < inner; ++i)
            var += (x[o * inner + i] - mean) * (x[o * inner + i] - mean);
        var /= static_cast<double>(inner);
        for (size_t i = 0; i < inner; ++i) {
            double v = (x[o * inner + i] - mean) / std::sqrt(var + epsilon) * scale[i];
            y[o * inner + i] = static_cast<float>(v + (bias.empty() ? 0.0 : bias[i]));
        }
    }
    return y;
}

TEST(CompiledEngine, LayerNormalizationOverTheLastAxisMatchesAReference) {
    const Dims x{2, 3, 8};
    const std::vector<float> in = Random(Count(x), 41, 3.0f), scale = Random(8, 42),
                             bias = Random(8, 43);
    Builder b(17);
    b.Input("x", x).Output("y", x).Weight("scale", {8}, scale).Weight("bias", {8}, bias);
    b.Node("LayerNormalization", {"x", "scale", "bias"}, {"y"}).FloatAttribute("epsilon", 1e-3f);
    Plan plan;
    auto engine = Compiled(b.Bytes(), {}, &plan);
    ASSERT_TRUE(engine);
    ASSERT_EQ(plan.layers.size(), 1u);
    EXPECT_EQ(plan.layers[0].kind, LayerKind::kLayerNorm);
    ExpectClose(RunEngine(engine.get(), {x}, {in}),
                {LayerNormReference(in, 6, scale, bias, 1e-3f)});
}

TEST(CompiledEngine, LayerNormalizationOverSeveralAxesBroadcastsTheScale) {
    // Axis 1 of [2, 3, 4, 5]: each sample's 60 values; scale [4, 1] and no bias.
    const Dims x{2, 3, 4, 5};
    const std::vector<float> in = Random(Count(x), 44, 2.0f), scale = Random(4, 45);
    Builder b(17);
    b.Input("x", x).Output("y", x).Weight("scale", {4, 1}, scale);
    b.Node("LayerNormalization", {"x", "scale"}, {"y"}).IntAttribute("axis", 1);
    std::vector<float> full(60);
    for (size_t i = 0; i < full.size(); ++i)
        full[i] = scale[(i / 5) % 4];
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(RunEngine(engine.get(), {x}, {in}), {LayerNormReference(in, 2, full, {}, 1e-5f)});
}

TEST(CompiledEngine, LayerNormalizationStatisticsOutputsAreTheMeanAndInverseDeviation) {
    const Dims x{3, 2, 4};
    const std::vector<float> in = Random(Count(x), 47, 2.0f);
    Builder b(17);
    b.Input("x", x).Output("y", x).Output("mean", {3, 1, 1}).Output("inv", {3, 1, 1});
    b.Weight("scale", {2, 4}, std::vector<float>(8, 1.0f));
    b.Node("LayerNormalization", {"x", "scale"}, {"y", "mean", "inv"})
        .IntAttribute("axis", 1)
        .FloatAttribute("epsilon", 0.1f);
    std::vector<float> mean(3), inv(3);
    for (size_t o = 0; o < 3; ++o) {
        double m = 0, v = 0;
        for (size_t i = 0; i < 8; ++i)
            m += in[o * 8 + i] / 8.0;
        for (size_t i = 0; i < 8; ++i)
            v += (in[o * 8 + i] - m) * (in[o * 8 + i] - m) / 8.0;
        mean[o] = static_cast<float>(m);
        inv[o] = static_cast<float>(1.0 / std::sqrt(v + 0.1));
    }
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(RunEngine(engine.get(), {x}, {in}),
                {LayerNormReference(in, 3, std::vector<float>(8, 1.0f), {}, 0.1f), mean, inv});
}

// A graph of the three: the plan_fuzz seed for them, and the round trip of their layers.
std::string DecoderBlock() {
    Builder b(17);
    b.Input("x", {1, 4, 5, 5}).Output("y", {1, 3, 12, 12});
    b.Weight("w", {4, 3, 3, 3}, Random(108, 51, 0.3f)).Weight("b", {3}, Random(3, 52));
    b.Weight("scale", {12}, Random(12, 53)).Weight("bias", {12}, Random(12, 54));
    b.Int64Weight("pads", {8}, {0, 0, 1, 1, 0, 0, 1, 1});
    b.Node("ConvTranspose", {"x", "w", "b"}, {"up"})
        .IntsAttribute("strides", {2, 2})
        .IntsAttribute("pads", {1, 1, 1, 1})
        .IntsAttribute("output_padding", {1, 1});
    b.Node("Relu", {"up"}, {"r"});
    b.Node("Pad", {"r", "pads"}, {"p"}).StringAttribute("mode", "edge");
    b.Node("LayerNormalization", {"p", "scale", "bias"}, {"y"});
    return b.Bytes();
}

TEST(Plan, DeconvPadAndLayerNormRoundTrip) {
    CompileResult result;
    ASSERT_TRUE(CompileOnnx(DecoderBlock(), {}, &result)) << result.error;
    std::vector<LayerKind> kinds;
    for (const auto& l : result.plan.layers)
        kinds.push_back(l.kind);
    EXPECT_EQ(kinds,
              (std::vector<LayerKind>{LayerKind::kDeconv, LayerKind::kPad, LayerKind::kLayerNorm}));
    EXPECT_EQ(result.plan.layers[0].post_ops.size(), 1u);  // the Relu
    const std::string bytes = SerializePlan(result.plan);
    Plan parsed;
    std::string error;
    ASSERT_TRUE(ParsePlan(bytes.data(), bytes.size(), &parsed, &error)) << error;
    EXPECT_EQ(SerializePlan(parsed), bytes);
    const Dims dims{1, 4, 5, 5};
    Tensors input{Random(Count(dims), 55)};
    auto a = CreateDnnlEngine(std::make_shared<const Plan>(result.plan), 1, &error);
    auto b = CreateDnnlEngine(std::make_shared<const Plan>(parsed), 1, &error);
    ASSERT_TRUE(a && b) << error;
    ExpectClose(RunEngine(b.get(), {dims}, input), RunEngine(a.get(), {dims}, input));
}

TEST(Plan, ADeconvEndPadOfAWholeStrideIsRefused) {
    CompileResult result;
    ASSERT_TRUE(CompileOnnx(DecoderBlock(), {}, &result)) << result.error;
    Plan plan = result.plan;
    PlanLayer& deconv = plan.layers[0];
    // strides 2: an end pad of -2 is past what oneDNN takes (the output grows to match).
    deconv.ints[1 + 2 * 2] = -2;
    deconv.ints[1 + 2 * 2 + 1] = -2;
    plan.tensors[deconv.output].dims = {1, 3, 13, 13};
    std::string error;
    EXPECT_FALSE(ValidatePlan(plan, &error));
    EXPECT_NE(error.find("bad stride, pad or dilation"), std::string::npos) << error;
}

TEST(Plan, APadWhoseOutputIsNotTheInputPlusThePadsIsRefused) {
    CompileResult result;
    ASSERT_TRUE(CompileOnnx(DecoderBlock(), {}, &result)) << result.error;
    Plan plan = result.plan;
    plan.layers[1].ints[3] += 1;  // one more row before, the same output
    std::string error;
    EXPECT_FALSE(ValidatePlan(plan, &error));
    EXPECT_NE(error.find("input's plus the pads"), std::string::npos) << error;
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
    auto a = CreateDnnlEngine(std::make_shared<const Plan>(plan), 1, &error);
    auto b = CreateDnnlEngine(std::make_shared<const Plan>(parsed), 1, &error);
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

// The engine hands a summed tensor to convolutions only; elsewhere the plan is corrupt.
TEST(Plan, ASumPostOpOnALayerOtherThanAConvolutionIsRefused) {
    CompileResult result;  // unfused: conv, sigmoid, mul
    ASSERT_TRUE(CompileOnnx(ConvSilu(16, false), CompileOptions{false, false}, &result));
    Plan& plan = result.plan;
    ASSERT_EQ(plan.layers.size(), 3u);
    ASSERT_EQ(plan.layers[2].kind, LayerKind::kBinary);
    PostOp sum;
    sum.kind = PostOp::kSum;
    sum.tensor = plan.layers[0].output;  // defined before, of the right shape
    plan.layers[2].post_ops.push_back(sum);
    std::string error;
    EXPECT_FALSE(ValidatePlan(plan, &error));
    EXPECT_NE(error.find("not a convolution"), std::string::npos) << error;
}

// Post-ops on a layer kind whose primitive takes none would be dropped: the plan is corrupt.
TEST(Plan, PostOpsOnALayerThatCannotTakeThemAreRefused) {
    Plan plan = SmallPlan();
    size_t i = 0;
    while (i < plan.layers.size() && plan.layers[i].kind != LayerKind::kSoftmax)
        ++i;
    ASSERT_LT(i, plan.layers.size());
    PostOp relu;  // eltwise, relu
    plan.layers[i].post_ops.push_back(relu);
    std::string error;
    EXPECT_FALSE(ValidatePlan(plan, &error));
    EXPECT_NE(error.find("cannot take"), std::string::npos) << error;
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
        CompileResult decoder;
        ASSERT_TRUE(CompileOnnx(DecoderBlock(), {}, &decoder));
        std::ofstream(dir / "decoder_block.plan", std::ios::binary) << SerializePlan(decoder.plan);
        CompileResult residual;  // a sum after an activation: a binary post-op in the engine
        ASSERT_TRUE(CompileOnnx(ConvSilu(16, true), {}, &residual));
        std::ofstream(dir / "conv_silu_add.plan", std::ios::binary) << SerializePlan(residual.plan);
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
    EXPECT_GE(seeds, 4u);
}

}  // namespace
}  // namespace openacl::model
