// What the compiled-engine tests share: inputs drawn from a fixed generator, plans compiled
// and built into engines, runs, and comparisons.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/compiler/compiler.h"
#include "model/model_engine.h"
#include "model/plan.h"
#include "onnx_builder.h"

namespace openacl::model {

using test_onnx::Builder;
using test_onnx::Dims;

inline std::vector<float> Random(size_t n, uint32_t seed, float scale = 1.0f) {
    std::vector<float> v(n);
    uint32_t s = seed * 2654435761u + 1;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = scale * (static_cast<float>(s >> 8) / static_cast<float>(1u << 24) * 2.0f - 1.0f);
    }
    return v;
}

inline size_t Count(const Dims& d) {
    size_t n = 1;
    for (int64_t x : d)
        n *= static_cast<size_t>(x);
    return n;
}

using Tensors = std::vector<std::vector<float>>;

inline Tensors RunEngine(ModelEngine* engine, const std::vector<Dims>& dims,
                         const Tensors& inputs) {
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

// Built in nChw16c unless asked otherwise: which format kMeasure picks depends on timings,
// and each test should run the path it was written for. One thread unless asked otherwise.
inline std::unique_ptr<ModelEngine> Compiled(const std::string& onnx, CompileOptions options = {},
                                             Plan* plan_out = nullptr,
                                             ConvLayout layout = ConvLayout::kBlocked,
                                             int threads = 1,
                                             ByImage by_image = ByImage::kMeasure) {
    CompileResult result;
    bool ok = CompileOnnx(onnx, options, &result);
    std::string why = result.error;
    for (const auto& u : result.unsupported)
        why += " " + u;
    EXPECT_TRUE(ok) << why;
    if (!ok) return nullptr;
    if (plan_out) *plan_out = result.plan;
    std::string error;
    auto engine = CreateDnnlEngine(std::make_shared<const Plan>(std::move(result.plan)), threads,
                                   &error, layout, by_image);
    EXPECT_NE(engine, nullptr) << error;
    return engine;
}

inline void ExpectClose(const Tensors& got, const Tensors& want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t t = 0; t < got.size(); ++t) {
        ASSERT_EQ(got[t].size(), want[t].size()) << "output " << t;
        for (size_t i = 0; i < got[t].size(); ++i) {
            ASSERT_NEAR(got[t][i], want[t][i], 1e-4f * std::max(1.0f, std::fabs(want[t][i])))
                << "output " << t << " element " << i;
        }
    }
}

}  // namespace openacl::model
