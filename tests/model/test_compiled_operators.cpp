// Operators the compiled engine gained for trained models (element-wise math, max/min,
// reductions, bounds computed by the graph, casts) and the shape arithmetic atc folds: each
// graph is compiled, run on oneDNN and compared with a reference computed here (OpenCV DNN 4.6
// runs none of these forms).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "engine_test_support.h"

namespace openacl::model {
namespace {

// y = f(x) over one float tensor, compiled and compared element by element.
void ExpectUnary(const std::string& op, const std::vector<float>& x,
                 const std::function<float(float)>& f,
                 const std::function<void(Builder&)>& attributes = {}) {
    const Dims d{static_cast<int64_t>(x.size())};
    Builder b;
    b.Input("x", d).Output("y", d).Node(op, {"x"}, {"y"});
    if (attributes) attributes(b);
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    std::vector<float> want;
    for (float v : x)
        want.push_back(f(v));
    ExpectClose(RunEngine(engine.get(), {d}, {x}), {want});
}

const std::vector<float> kSigned = {-3.5f, -1.0f, -0.25f, 0.0f, 0.5f, 1.5f, 2.5f, 4.0f};
const std::vector<float> kPositive = {0.01f, 0.25f, 1.0f, 2.0f, 9.0f, 100.0f};

TEST(CompiledOperators, SqrtOfPositiveValues) {
    ExpectUnary("Sqrt", kPositive, [](float v) { return std::sqrt(v); });
}

TEST(CompiledOperators, ExpAndLog) {
    ExpectUnary("Exp", kSigned, [](float v) { return std::exp(v); });
    ExpectUnary("Log", kPositive, [](float v) { return std::log(v); });
}

// ONNX's own test: log(1) is 0, not oneDNN's -1.4e-6.
TEST(CompiledOperators, LogIsExactWhereTheResultIsZero) {
    Builder b;
    b.Input("x", {2}).Output("y", {2}).Node("Log", {"x"}, {"y"});
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    const Tensors out = RunEngine(engine.get(), {{2}}, {{1.0f, 10.0f}});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0][0], 0.0f);
    EXPECT_EQ(out[0][1], std::log(10.0f));
}

TEST(CompiledOperators, ErfAsTheCLibraryComputesIt) {
    ExpectUnary("Erf", kSigned, [](float v) { return std::erf(v); });
}

TEST(CompiledOperators, LogSoftmaxAlongTheLastAxis) {
    const std::vector<float> x = Random(8, 10, 3.0f);
    Builder b;
    b.Input("x", {2, 4}).Output("y", {2, 4}).Node("LogSoftmax", {"x"}, {"y"});
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    std::vector<float> want;
    for (int r = 0; r < 2; ++r) {
        float sum = 0;
        for (int c = 0; c < 4; ++c)
            sum += std::exp(x[r * 4 + c]);
        for (int c = 0; c < 4; ++c)
            want.push_back(x[r * 4 + c] - std::log(sum));
    }
    ExpectClose(RunEngine(engine.get(), {{2, 4}}, {x}), {want});
}

TEST(CompiledOperators, AbsNegAndReciprocal) {
    ExpectUnary("Abs", kSigned, [](float v) { return std::fabs(v); });
    ExpectUnary("Neg", kSigned, [](float v) { return -v; });
    ExpectUnary("Reciprocal", kPositive, [](float v) { return 1.0f / v; });
}

TEST(CompiledOperators, SoftplusAndEluWithItsAlpha) {
    ExpectUnary("Softplus", kSigned, [](float v) { return std::log1p(std::exp(v)); });
    ExpectUnary(
        "Elu", kSigned, [](float v) { return v > 0 ? v : 0.5f * (std::exp(v) - 1.0f); },
        [](Builder& b) { b.FloatAttribute("alpha", 0.5f); });
}

TEST(CompiledOperators, RoundTakesHalvesToEven) {
    ExpectUnary("Round", {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 2.6f},
                [](float v) { return std::nearbyint(v); });
}

TEST(CompiledOperators, PowWithAConstantExponent) {
    for (float e : {2.0f, 3.0f, 0.5f, -1.0f}) {
        const Dims d{6};
        Builder b;
        b.Input("x", d).Output("y", d).Weight("e", {}, {e}).Node("Pow", {"x", "e"}, {"y"});
        auto engine = Compiled(b.Bytes());
        ASSERT_TRUE(engine);
        const std::vector<float>& x = e == 2.0f || e == 3.0f ? kSigned : kPositive;
        std::vector<float> in(x.begin(), x.begin() + 6), want;
        for (float v : in)
            want.push_back(std::pow(v, e));
        ExpectClose(RunEngine(engine.get(), {d}, {in}), {want});
    }
}

TEST(CompiledOperators, PowWithATensorExponentIsRefusedWithTheReason) {
    Builder b;
    b.Input("x", {4}).Input("e", {4}).Output("y", {4}).Node("Pow", {"x", "e"}, {"y"});
    CompileResult result;
    EXPECT_FALSE(CompileOnnx(b.Bytes(), {}, &result));
    ASSERT_EQ(result.unsupported.size(), 1u);
    EXPECT_EQ(result.unsupported[0], "Pow (exponent not a constant scalar)");
}

TEST(CompiledOperators, MaxAndMinOfTwoTensorsAndOfABroadcastConstant) {
    const Dims d{2, 4};
    const std::vector<float> x = Random(8, 1), z = Random(8, 2), c = {0.1f, -0.2f, 0.3f, 0.0f};
    Builder b;
    b.Input("x", d).Input("z", d).Output("hi", d).Output("lo", d).Weight("c", {4}, c);
    b.Node("Max", {"x", "z"}, {"hi"}).Node("Min", {"c", "x"}, {"lo"});
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    std::vector<float> hi, lo;
    for (size_t i = 0; i < 8; ++i) {
        hi.push_back(std::max(x[i], z[i]));
        lo.push_back(std::min(x[i], c[i % 4]));
    }
    ExpectClose(RunEngine(engine.get(), {d, d}, {x, z}), {hi, lo});
}

TEST(CompiledOperators, MaxOfOneInputIsThatInput) {
    const std::vector<float> x = Random(5, 3);
    Builder b;
    b.Input("x", {5}).Output("y", {5}).Node("Max", {"x"}, {"y"});
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(RunEngine(engine.get(), {{5}}, {x}), {x});
}

// x + 3, x - 1, x * 2, x / 4, max(x, 0.25), min(x, 0.5): activations, which fuse into the
// layer before them (oneDNN runs a blocked tensor with a plain scalar on its reference kernel).
TEST(CompiledOperators, ArithmeticWithAScalarConstantBecomesActivations) {
    const std::vector<float> x = Random(32, 11, 2.0f);
    Builder b;
    b.Input("x", {1, 32}).Output("y", {1, 32});
    b.Weight("three", {}, {3.0f}).Weight("one", {1}, {1.0f}).Weight("two", {}, {2.0f});
    b.Weight("four", {}, {4.0f}).Weight("quarter", {}, {0.25f}).Weight("half", {}, {0.5f});
    b.Node("Add", {"x", "three"}, {"a"}).Node("Sub", {"a", "one"}, {"s"});
    b.Node("Mul", {"two", "s"}, {"m"}).Node("Div", {"m", "four"}, {"d"});
    b.Node("Max", {"d", "quarter"}, {"hi"}).Node("Min", {"hi", "half"}, {"y"});
    Plan plan;
    auto engine = Compiled(b.Bytes(), {}, &plan);
    ASSERT_TRUE(engine);
    for (const PlanLayer& layer : plan.layers)
        EXPECT_EQ(layer.kind, LayerKind::kEltwise) << layer.name;
    std::vector<float> want;
    for (float v : x)
        want.push_back(std::min(std::max((v + 3.0f - 1.0f) * 2.0f / 4.0f, 0.25f), 0.5f));
    ExpectClose(RunEngine(engine.get(), {{1, 32}}, {x}), {want});
}

// Squeeze-and-excitation: the image scaled per channel by a weight computed from it.
TEST(CompiledOperators, AChannelScaleComputedFromTheImageMatchesAReference) {
    const Dims d{1, 32, 4, 4};
    const std::vector<float> x = Random(Count(d), 12);
    Builder b;
    b.Input("x", d).Output("y", d);
    // A depthwise identity first, so that the image is in the convolutions' layout.
    b.Weight("ones", {32, 1, 1, 1}, std::vector<float>(32, 1.0f));
    b.Node("Conv", {"x", "ones"}, {"image"}).IntAttribute("group", 32);
    b.Node("GlobalAveragePool", {"image"}, {"avg"}).Node("Sigmoid", {"avg"}, {"scale"});
    b.Node("Mul", {"image", "scale"}, {"y"});
    std::vector<float> want(x.size());
    for (size_t c = 0; c < 32; ++c) {
        float sum = 0;
        for (size_t i = 0; i < 16; ++i)
            sum += x[c * 16 + i];
        const float scale = 1.0f / (1.0f + std::exp(-sum / 16.0f));
        for (size_t i = 0; i < 16; ++i)
            want[c * 16 + i] = x[c * 16 + i] * scale;
    }
    for (ConvLayout layout : {ConvLayout::kBlocked, ConvLayout::kNhwc}) {
        auto engine = Compiled(b.Bytes(), {}, nullptr, layout);
        ASSERT_TRUE(engine);
        ExpectClose(RunEngine(engine.get(), {d}, {x}), {want});
    }
}

TEST(CompiledOperators, AConstantMinusOrOverATensor) {
    const std::vector<float> x = kPositive;
    const Dims d{static_cast<int64_t>(x.size())};
    Builder b;
    b.Input("x", d).Output("s", d).Output("q", d).Weight("one", {}, {1.0f});
    b.Weight("three", {1}, {3.0f});
    b.Node("Sub", {"one", "x"}, {"s"}).Node("Div", {"three", "x"}, {"q"});
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    std::vector<float> s, q;
    for (float v : x) {
        s.push_back(1.0f - v);
        q.push_back(3.0f / v);
    }
    ExpectClose(RunEngine(engine.get(), {d}, {x}), {s, q});
}

// A log-mel front end's floor: every value at least (the maximum - 2), the floor computed by
// the graph at run time.
TEST(CompiledOperators, ClipWithABoundTheGraphComputes) {
    const Dims d{1, 3, 4};
    const std::vector<float> x = Random(12, 4, 3.0f);
    Builder b;
    b.Input("x", d).Output("y", d).Weight("two", {}, {2.0f}).Weight("hi", {}, {1.5f});
    b.Node("ReduceMax", {"x"}, {"m"}).IntAttribute("keepdims", 0);
    b.Node("Sub", {"m", "two"}, {"floor"}).Node("Clip", {"x", "floor", "hi"}, {"y"});
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    const float floor = *std::max_element(x.begin(), x.end()) - 2.0f;
    std::vector<float> want;
    for (float v : x)
        want.push_back(std::min(std::max(v, floor), 1.5f));
    ExpectClose(RunEngine(engine.get(), {d}, {x}), {want});
}

// Reductions over axis 1 of a [2, 3, 4] tensor, keeping it as 1 (keepdims = 1, the default).
std::vector<float> ReduceAxis1(const std::vector<float>& x, float init,
                               const std::function<float(float, float)>& step,
                               const std::function<float(float)>& finish) {
    std::vector<float> out;
    for (int a = 0; a < 2; ++a) {
        for (int c = 0; c < 4; ++c) {
            float acc = init;
            for (int k = 0; k < 3; ++k)
                acc = step(acc, x[(a * 3 + k) * 4 + c]);
            out.push_back(finish(acc));
        }
    }
    return out;
}

struct ReduceCase {
    const char* op;
    float init;
    std::function<float(float, float)> step;
    std::function<float(float)> finish;
};

class CompiledReduction : public testing::TestWithParam<ReduceCase> {};

TEST_P(CompiledReduction, OverOneAxisGivenAsAttribute) {
    const ReduceCase& c = GetParam();
    const std::vector<float> x = Random(24, 5, 2.0f);
    Builder b;
    b.Input("x", {2, 3, 4}).Output("y", {2, 1, 4});
    b.Node(c.op, {"x"}, {"y"}).IntsAttribute("axes", {1});
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(RunEngine(engine.get(), {{2, 3, 4}}, {x}),
                {ReduceAxis1(x, c.init, c.step, c.finish)});
}

const auto kSame = [](float v) { return v; };

INSTANTIATE_TEST_SUITE_P(
    Reductions, CompiledReduction,
    testing::Values(
        ReduceCase{"ReduceMax", -FLT_MAX, [](float a, float v) { return std::max(a, v); }, kSame},
        ReduceCase{"ReduceMin", FLT_MAX, [](float a, float v) { return std::min(a, v); }, kSame},
        ReduceCase{"ReduceMean", 0.0f, [](float a, float v) { return a + v; },
                   [](float s) { return s / 3.0f; }},
        ReduceCase{"ReduceProd", 1.0f, [](float a, float v) { return a * v; }, kSame},
        ReduceCase{"ReduceL1", 0.0f, [](float a, float v) { return a + std::fabs(v); }, kSame},
        ReduceCase{"ReduceL2", 0.0f, [](float a, float v) { return a + v * v; },
                   [](float s) { return std::sqrt(s); }},
        ReduceCase{"ReduceSumSquare", 0.0f, [](float a, float v) { return a + v * v; }, kSame}),
    [](const auto& info) { return std::string(info.param.op); });

TEST(CompiledOperators, ReduceSumTakesItsAxesAsAnInputAndDropsThemWithoutKeepdims) {
    const std::vector<float> x = Random(24, 6);
    Builder b;
    b.Input("x", {2, 3, 4}).Output("y", {2, 4}).Int64Weight("axes", {1}, {-2});
    b.Node("ReduceSum", {"x", "axes"}, {"y"}).IntAttribute("keepdims", 0);
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(RunEngine(engine.get(), {{2, 3, 4}}, {x}),
                {ReduceAxis1(
                    x, 0.0f, [](float a, float v) { return a + v; }, kSame)});
}

TEST(CompiledOperators, ReduceSumWithNoAxesAndNoopLeavesTheTensorAsItIs) {
    const std::vector<float> x = Random(6, 7);
    Builder b;
    b.Input("x", {2, 3}).Output("y", {2, 3});
    b.Node("ReduceSum", {"x"}, {"y"}).IntAttribute("noop_with_empty_axes", 1);
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(RunEngine(engine.get(), {{2, 3}}, {x}), {x});
}

TEST(CompiledOperators, ACastToFloatChangesNothing) {
    const std::vector<float> x = Random(6, 8);
    Builder b;
    b.Input("x", {6}).Output("y", {6}).Node("Cast", {"x"}, {"y"});
    b.IntAttribute("to", onnx::TensorProto::FLOAT);
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(RunEngine(engine.get(), {{6}}, {x}), {x});
}

TEST(CompiledOperators, ACastOfAnActivationToIntegersIsRefusedNamingTheType) {
    Builder b;
    b.Input("x", {6}).Output("y", {6}).Node("Cast", {"x"}, {"i"});
    b.IntAttribute("to", onnx::TensorProto::INT64);
    b.Node("Cast", {"i"}, {"y"}).IntAttribute("to", onnx::TensorProto::FLOAT);
    CompileResult result;
    EXPECT_FALSE(CompileOnnx(b.Bytes(), {}, &result));
    ASSERT_EQ(result.unsupported.size(), 1u);
    EXPECT_EQ(result.unsupported[0], "Cast (to INT64)");
}

// What PaddlePaddle's exporter writes for a flatten (opset 9): the shape of an activation, cast
// to int32, sliced with attributes, concatenated with constants cast to int64, then a Reshape.
// ONNX's own inference leaves the Reshape's shape unknown; the folder makes it a constant.
TEST(CompiledOperators, AReshapeToAShapeComputedFromShapesCompiles) {
    Builder b(9);
    b.Input("x", {1, 2, 3, 4}).Output("y", {1, 2, 12});
    b.Weight("w", {2, 1, 1, 1}, {2.0f, -1.0f});
    b.Node("Conv", {"x", "w"}, {"c"}).IntAttribute("group", 2);
    b.Node("Shape", {"c"}, {"s"});
    b.Node("Cast", {"s"}, {"s32"}).IntAttribute("to", onnx::TensorProto::INT32);
    b.Node("Slice", {"s32"}, {"lead"}).IntsAttribute("axes", {0});
    b.IntsAttribute("starts", {0}).IntsAttribute("ends", {2});
    b.Node("Cast", {"lead"}, {"lead64"}).IntAttribute("to", onnx::TensorProto::INT64);
    b.Int64Weight("rest", {1}, {-1});
    b.Node("Concat", {"lead64", "rest"}, {"shape"}).IntAttribute("axis", 0);
    b.Node("Reshape", {"c", "shape"}, {"r"}).Node("Relu", {"r"}, {"y"});
    Plan plan;
    auto engine = Compiled(b.Bytes(), {}, &plan);
    ASSERT_TRUE(engine);
    for (const PlanLayer& layer : plan.layers)
        EXPECT_NE(layer.kind, LayerKind::kSlice) << "the shape arithmetic runs at compile time";
    const std::vector<float> x = Random(24, 9);
    std::vector<float> want;
    for (size_t i = 0; i < 24; ++i)
        want.push_back(std::max(0.0f, x[i] * (i < 12 ? 2.0f : -1.0f)));
    ExpectClose(RunEngine(engine.get(), {{1, 2, 3, 4}}, {x}), {want});
}

TEST(CompiledOperators, ComparisonsGiveOnesAndZerosThatCastToFloat) {
    const std::vector<float> x = {-1.0f, 0.0f, 0.5f, 2.0f}, z = {0.0f, 0.0f, 1.0f, 2.0f};
    Builder b;
    b.Input("x", {4}).Input("z", {4}).Weight("half", {}, {0.5f});
    b.Output("eq", {4}).Output("gt", {4}).Output("ge", {4}).Output("lt", {4});
    b.Output("le", {4}).Output("half_lt", {4});
    const char* ops[] = {"Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual"};
    const char* names[] = {"eq", "gt", "ge", "lt", "le"};
    for (int i = 0; i < 5; ++i) {
        b.Node(ops[i], {"x", "z"}, {std::string(names[i]) + "_b"});
        b.Node("Cast", {std::string(names[i]) + "_b"}, {names[i]});
        b.IntAttribute("to", onnx::TensorProto::FLOAT);
    }
    // The constant first: 0.5 < x is x > 0.5.
    b.Node("Less", {"half", "x"}, {"half_lt_b"}).Node("Cast", {"half_lt_b"}, {"half_lt"});
    b.IntAttribute("to", onnx::TensorProto::FLOAT);
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(
        RunEngine(engine.get(), {{4}, {4}}, {x, z}),
        {{0, 1, 0, 1}, {0, 0, 0, 0}, {0, 1, 0, 1}, {1, 0, 1, 0}, {1, 1, 1, 1}, {0, 0, 0, 1}});
}

TEST(CompiledOperators, BoolLogicAndACastToBool) {
    const std::vector<float> x = {0.0f, 3.0f, 0.0f, -2.0f}, z = {0.0f, 0.0f, 1.0f, 1.0f};
    Builder b;
    b.Input("x", {4}).Input("z", {4}).Output("and", {4}).Output("or", {4}).Output("xor", {4});
    b.Output("not", {4});
    for (const char* v : {"x", "z"}) {
        b.Node("Cast", {v}, {std::string(v) + "_b"}).IntAttribute("to", onnx::TensorProto::BOOL);
    }
    for (const char* op : {"And", "Or", "Xor"}) {
        std::string out = op;
        out[0] = static_cast<char>(std::tolower(out[0]));
        b.Node(op, {"x_b", "z_b"}, {out + "_b"}).Node("Cast", {out + "_b"}, {out});
        b.IntAttribute("to", onnx::TensorProto::FLOAT);
    }
    b.Node("Not", {"x_b"}, {"not_b"}).Node("Cast", {"not_b"}, {"not"});
    b.IntAttribute("to", onnx::TensorProto::FLOAT);
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(RunEngine(engine.get(), {{4}, {4}}, {x, z}),
                {{0, 0, 0, 1}, {0, 1, 1, 1}, {0, 1, 1, 0}, {1, 0, 1, 0}});
}

TEST(CompiledOperators, WhereBroadcastsItsConditionAndOperands) {
    const std::vector<float> x = Random(6, 13), row = {10.0f, 20.0f, 30.0f};
    Builder b;
    b.Input("x", {2, 3}).Output("y", {2, 3}).Weight("row", {3}, row).Weight("zero", {}, {0.0f});
    b.Node("Greater", {"x", "zero"}, {"positive"}).Node("Where", {"positive", "x", "row"}, {"y"});
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    std::vector<float> want;
    for (size_t i = 0; i < 6; ++i)
        want.push_back(x[i] > 0 ? x[i] : row[i % 3]);
    ExpectClose(RunEngine(engine.get(), {{2, 3}}, {x}), {want});
}

// openWakeWord's heads: a second network runs only where the first one's score passes 0.5.
Builder IfModel() {
    Builder then_branch, else_branch;
    then_branch.Output("doubled", {1, 4}).Weight("two", {}, {2.0f});
    then_branch.Node("Mul", {"x", "two"}, {"doubled"});
    else_branch.Output("negated", {1, 4}).Node("Neg", {"x"}, {"negated"});
    Builder b;
    b.Input("x", {1, 4}).Output("y", {1, 4}).Weight("half", {}, {0.5f});
    b.Node("ReduceMax", {"x"}, {"m"}).IntAttribute("keepdims", 0);
    b.Node("GreaterOrEqual", {"m", "half"}, {"high"});
    b.Node("If", {"high"}, {"y"});
    b.GraphAttribute("then_branch", then_branch).GraphAttribute("else_branch", else_branch);
    return b;
}

TEST(CompiledOperators, IfRunsTheBranchTheConditionNamesAtRunTime) {
    auto engine = Compiled(IfModel().Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(RunEngine(engine.get(), {{1, 4}}, {{0.1f, 0.9f, -1.0f, 0.0f}}),
                {{0.2f, 1.8f, -2.0f, 0.0f}});
    ExpectClose(RunEngine(engine.get(), {{1, 4}}, {{0.1f, 0.2f, -1.0f, 0.0f}}),
                {{-0.1f, -0.2f, 1.0f, 0.0f}});
}

TEST(CompiledOperators, IfWithAConstantConditionImportsOnlyTheBranchTaken) {
    Builder then_branch, else_branch;
    then_branch.Output("t", {3}).Node("Relu", {"x"}, {"t"});
    else_branch.Output("e", {3}).Node("Hardmax", {"x"}, {"e"});  // not compiled, not needed
    Builder b(11);
    b.Input("x", {3}).Output("y", {3});
    b.Weight("cond", {}, {1.0f}).Node("Cast", {"cond"}, {"c"}).IntAttribute("to", 9);
    b.Node("If", {"c"}, {"y"});
    b.GraphAttribute("then_branch", then_branch).GraphAttribute("else_branch", else_branch);
    auto engine = Compiled(b.Bytes());
    ASSERT_TRUE(engine);
    ExpectClose(RunEngine(engine.get(), {{3}}, {{-1.0f, 0.5f, 2.0f}}), {{0.0f, 0.5f, 2.0f}});
}

// A convolution, then three operations with a scalar constant (activations that fuse into it
// as post-ops): the same outputs as the plan without fusion. oneDNN 2.6 gives every post-op of
// one algorithm the parameters of the first, which the compiler and the engine work around.
class FusedScalarChain : public testing::TestWithParam<std::array<const char*, 3>> {};

TEST_P(FusedScalarChain, GivesTheUnfusedResultInBothLayouts) {
    const auto ops = GetParam();
    const int64_t c = 32;
    const Dims d{1, c, 8, 8};
    const std::vector<float> x = Random(Count(d), 21), w = Random(Count({c, 1, 3, 3}), 22);
    Builder b;
    b.Input("x", d).Output("y", d).Weight("w", {c, 1, 3, 3}, w);
    b.Weight("k", {}, {1.7f}).Weight("b", {}, {0.586f}).Weight("z", {}, {-0.25f});
    b.Node("Conv", {"x", "w"}, {"conv"}).IntAttribute("group", c);
    b.IntsAttribute("pads", {1, 1, 1, 1});
    b.Node(ops[0], {"k", "conv"}, {"a"}).Node(ops[1], {"a", "b"}, {"m"});
    b.Node(ops[2], {"m", "z"}, {"y"});
    CompileOptions unfused;
    unfused.fuse = false;
    for (ConvLayout layout : {ConvLayout::kBlocked, ConvLayout::kNhwc}) {
        Plan plan;
        auto fused = Compiled(b.Bytes(), {}, &plan, layout);
        auto plain = Compiled(b.Bytes(), unfused, nullptr, layout);
        ASSERT_TRUE(fused && plain);
        EXPECT_FALSE(plan.layers[0].post_ops.empty()) << "something fused";
        ExpectClose(RunEngine(fused.get(), {d}, {x}), RunEngine(plain.get(), {d}, {x}));
    }
}

INSTANTIATE_TEST_SUITE_P(Chains, FusedScalarChain,
                         testing::Values(std::array<const char*, 3>{"Mul", "Add", "Add"},
                                         std::array<const char*, 3>{"Max", "Min", "Max"},
                                         std::array<const char*, 3>{"Mul", "Max", "Add"},
                                         std::array<const char*, 3>{"Add", "Max", "Mul"},
                                         std::array<const char*, 3>{"Max", "Add", "Min"},
                                         std::array<const char*, 3>{"Mul", "Add", "Mul"}),
                         [](const auto& info) {
                             return std::string(info.param[0]) + info.param[1] + info.param[2];
                         });

}  // namespace
}  // namespace openacl::model
