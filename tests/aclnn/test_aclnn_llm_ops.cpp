// Operators llama.cpp's CANN backend calls beyond the basic ones: IndexCopy, IndexFillTensor,
// ReflectionPad1d, RepeatInterleave, Im2col, UpsampleNearest2d, SwiGlu, GeGluV3 and
// RotaryPositionEmbedding, each against a plain C++ reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"

using aclnn_test::DeviceTensor;
using aclnn_test::RunPhase2;
using aclnn_test::Scalar;

namespace {

std::vector<float> Iota(int n, float start = 0) {
    std::vector<float> v(static_cast<size_t>(n));
    std::iota(v.begin(), v.end(), start);
    return v;
}

class IntArray {
 public:
    explicit IntArray(std::vector<int64_t> values)
        : array_(aclCreateIntArray(values.data(), values.size())) {}
    ~IntArray() { aclDestroyIntArray(array_); }
    IntArray(const IntArray&) = delete;
    IntArray& operator=(const IntArray&) = delete;
    const aclIntArray* get() const { return array_; }

 private:
    aclIntArray* array_;
};

void ExpectNear(const std::vector<float>& actual, const std::vector<double>& expected,
                double tolerance) {
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t i = 0; i < actual.size(); ++i) {
        EXPECT_NEAR(actual[i], expected[i], tolerance * (1 + std::fabs(expected[i]))) << i;
    }
}

class AclnnLlmOps : public aclnn_test::AclnnTest {
 protected:
    uint64_t workspace_ = 0;
    aclOpExecutor* executor_ = nullptr;
};

TEST_F(AclnnLlmOps, InplaceIndexCopyWritesRowsWhereTheIndexSays) {
    DeviceTensor<float> cache({4, 2}, std::vector<float>(8, 0), ACL_FLOAT);
    DeviceTensor<int64_t> rows({2}, {3, 1}, ACL_INT64);
    DeviceTensor<float> source({2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
    ASSERT_EQ(aclnnInplaceIndexCopyGetWorkspaceSize(cache.get(), 0, rows.get(), source.get(),
                                                    &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnInplaceIndexCopy, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(cache.Read(), (std::vector<float>{0, 0, 3, 4, 0, 0, 1, 2}));
}

TEST_F(AclnnLlmOps, IndexCopyLeavesSelfAndWritesOut) {
    DeviceTensor<float> self({3}, {7, 8, 9}, ACL_FLOAT);
    DeviceTensor<int32_t> index({1}, {2}, ACL_INT32);
    DeviceTensor<float> source({1}, {-1}, ACL_FLOAT);
    DeviceTensor<float> out({3}, {0, 0, 0}, ACL_FLOAT);
    ASSERT_EQ(aclnnIndexCopyGetWorkspaceSize(self.get(), 0, index.get(), source.get(), out.get(),
                                             &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnIndexCopy, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{7, 8, -1}));
    EXPECT_EQ(self.Read(), (std::vector<float>{7, 8, 9}));
}

TEST_F(AclnnLlmOps, IndexCopyWithASourceOfTheWrongLengthIsInvalid) {
    DeviceTensor<float> cache({4, 2}, std::vector<float>(8, 0), ACL_FLOAT);
    DeviceTensor<int64_t> rows({2}, {3, 1}, ACL_INT64);
    DeviceTensor<float> source({3, 2}, std::vector<float>(6, 1), ACL_FLOAT);
    EXPECT_EQ(aclnnInplaceIndexCopyGetWorkspaceSize(cache.get(), 0, rows.get(), source.get(),
                                                    &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnLlmOps, InplaceIndexFillTensorFillsTheNamedColumns) {
    DeviceTensor<float> x({2, 3}, Iota(6), ACL_FLOAT);
    IntArray columns({0, -1});
    Scalar value(-5.0f, ACL_FLOAT);
    ASSERT_EQ(aclnnInplaceIndexFillTensorGetWorkspaceSize(x.get(), 1, columns.get(), value.get(),
                                                          &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnInplaceIndexFillTensor, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(x.Read(), (std::vector<float>{-5, 1, -5, -5, 4, -5}));
}

TEST_F(AclnnLlmOps, ReflectionPad1dMirrorsWithoutTheEdge) {
    DeviceTensor<float> x({1, 4}, {1, 2, 3, 4}, ACL_FLOAT);
    IntArray padding({2, 3});
    DeviceTensor<float> out({1, 9}, std::vector<float>(9, 0), ACL_FLOAT);
    ASSERT_EQ(aclnnReflectionPad1dGetWorkspaceSize(x.get(), padding.get(), out.get(), &workspace_,
                                                   &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnReflectionPad1d, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{3, 2, 1, 2, 3, 4, 3, 2, 1}));
}

TEST_F(AclnnLlmOps, ReflectionPad1dWritesNothingPastTheOutput) {
    DeviceTensor<float> x({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}, ACL_FLOAT);
    IntArray padding({2, 3});
    // out is the first 18 elements of a 22-element buffer: the last 4 must stay as they were.
    DeviceTensor<float> out({2, 9}, {9, 1}, 0, std::vector<float>(22, -7), ACL_FLOAT);
    ASSERT_EQ(aclnnReflectionPad1dGetWorkspaceSize(x.get(), padding.get(), out.get(), &workspace_,
                                                   &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnReflectionPad1d, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{3, 2, 1, 2, 3, 4, 3, 2,  1,  7,  6,
                                              5, 6, 7, 8, 7, 6, 5, -7, -7, -7, -7}));
}

TEST_F(AclnnLlmOps, ReflectionPadAsWideAsTheInputIsInvalid) {
    DeviceTensor<float> x({1, 3}, {1, 2, 3}, ACL_FLOAT);
    IntArray padding({3, 0});
    DeviceTensor<float> out({1, 6}, std::vector<float>(6, 0), ACL_FLOAT);
    EXPECT_EQ(aclnnReflectionPad1dGetWorkspaceSize(x.get(), padding.get(), out.get(), &workspace_,
                                                   &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnLlmOps, RepeatInterleaveRepeatsEachElementInPlace) {
    DeviceTensor<float> x({2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
    DeviceTensor<float> out({2, 6}, std::vector<float>(12, 0), ACL_FLOAT);
    ASSERT_EQ(aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(x.get(), 3, 1, 6, out.get(),
                                                              &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnRepeatInterleaveIntWithDim, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4}));
}

TEST_F(AclnnLlmOps, RepeatInterleaveAlongTheFirstDimension) {
    DeviceTensor<float> x({2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
    DeviceTensor<float> out({4, 2}, std::vector<float>(8, 0), ACL_FLOAT);
    ASSERT_EQ(aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(x.get(), 2, 0, 4, out.get(),
                                                              &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnRepeatInterleaveIntWithDim, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{1, 2, 1, 2, 3, 4, 3, 4}));
}

TEST_F(AclnnLlmOps, RepeatInterleaveWithATensorOfCounts) {
    DeviceTensor<float> x({3, 1}, {1, 2, 3}, ACL_FLOAT);
    DeviceTensor<int64_t> counts({3}, {2, 0, 3}, ACL_INT64);
    DeviceTensor<float> out({5, 1}, std::vector<float>(5, 0), ACL_FLOAT);
    ASSERT_EQ(aclnnRepeatInterleaveWithDimGetWorkspaceSize(x.get(), counts.get(), 0, 5, out.get(),
                                                           &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnRepeatInterleaveWithDim, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{1, 1, 3, 3, 3}));
}

TEST_F(AclnnLlmOps, RepeatCountsThatDoNotFillOutFailTheStream) {
    DeviceTensor<float> x({2}, {1, 2}, ACL_FLOAT);
    DeviceTensor<int32_t> counts({1}, {2}, ACL_INT32);  // 2 * 2 = 4 elements, out holds 3
    DeviceTensor<float> out({3}, {0, 0, 0}, ACL_FLOAT);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclnnRepeatInterleaveGetWorkspaceSize(x.get(), counts.get(), 3, out.get(),
                                                    &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(aclnnRepeatInterleave(nullptr, 0, executor_, stream), ACLNN_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    aclrtDestroyStream(stream);
}

TEST_F(AclnnLlmOps, RepeatInterleaveTensorRepeatsEachIndex) {
    DeviceTensor<int64_t> counts({3}, {1, 0, 2}, ACL_INT64);
    DeviceTensor<int64_t> out({3}, {9, 9, 9}, ACL_INT64);
    ASSERT_EQ(aclnnRepeatInterleaveTensorGetWorkspaceSize(counts.get(), 3, out.get(), &workspace_,
                                                          &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnRepeatInterleaveTensor, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<int64_t>{0, 2, 2}));
}

TEST_F(AclnnLlmOps, GeGluActivatesTheRightHalf) {
    DeviceTensor<float> x({1, 4}, {0.5f, -1, 2, 3}, ACL_FLOAT);
    DeviceTensor<float> out({1, 2}, {0, 0}, ACL_FLOAT), gelu({1, 2}, {0, 0}, ACL_FLOAT);
    ASSERT_EQ(
        aclnnGeGluGetWorkspaceSize(x.get(), -1, 1, out.get(), gelu.get(), &workspace_, &executor_),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnGeGlu, workspace_, executor_), ACLNN_SUCCESS);
    const auto tanh_gelu = [](double v) {
        return 0.5 * v * (1 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    };
    ExpectNear(gelu.Read(), {tanh_gelu(2), tanh_gelu(3)}, 1e-6);
    ExpectNear(out.Read(), {tanh_gelu(2) * 0.5, tanh_gelu(3) * -1}, 1e-6);
}

TEST_F(AclnnLlmOps, Im2colLaysWindowsOutAsColumns) {
    const int h = 3, w = 4, kh = 2, kw = 2, ph = 1, pw = 0;
    DeviceTensor<float> x({1, 1, h, w}, Iota(h * w, 1), ACL_FLOAT);
    const int oh = h + 2 * ph - kh + 1, ow = w + 2 * pw - kw + 1;  // stride 1, dilation 1
    DeviceTensor<float> out({1, kh * kw, oh * ow}, std::vector<float>(kh * kw * oh * ow, -9),
                            ACL_FLOAT);
    IntArray kernel({kh, kw}), dilation({1}), padding({ph, pw}), stride({1, 1});
    ASSERT_EQ(aclnnIm2colGetWorkspaceSize(x.get(), kernel.get(), dilation.get(), padding.get(),
                                          stride.get(), out.get(), &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnIm2col, workspace_, executor_), ACLNN_SUCCESS);
    const std::vector<float> result = out.Read();
    for (int i = 0; i < kh; ++i)
        for (int j = 0; j < kw; ++j)
            for (int y = 0; y < oh; ++y)
                for (int xx = 0; xx < ow; ++xx) {
                    const int r = y - ph + i, c = xx - pw + j;
                    const float want = (r >= 0 && r < h && c >= 0 && c < w) ? r * w + c + 1 : 0;
                    EXPECT_EQ(result[(i * kw + j) * oh * ow + y * ow + xx], want)
                        << i << j << y << xx;
                }
}

TEST_F(AclnnLlmOps, UpsampleNearestByWholeFactors) {
    DeviceTensor<float> x({1, 1, 2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
    DeviceTensor<float> out({1, 1, 4, 4}, std::vector<float>(16, 0), ACL_FLOAT);
    IntArray size({4, 4});
    ASSERT_EQ(aclnnUpsampleNearest2dGetWorkspaceSize(x.get(), size.get(), out.get(), &workspace_,
                                                     &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnUpsampleNearest2d, workspace_, executor_), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
}

TEST_F(AclnnLlmOps, UpsampleNearestToAnOddSize) {
    DeviceTensor<float> x({1, 1, 2, 2}, {1, 2, 3, 4}, ACL_FLOAT);
    DeviceTensor<float> out({1, 1, 3, 3}, std::vector<float>(9, 0), ACL_FLOAT);
    IntArray size({3, 3});
    ASSERT_EQ(aclnnUpsampleNearest2dGetWorkspaceSize(x.get(), size.get(), out.get(), &workspace_,
                                                     &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnUpsampleNearest2d, workspace_, executor_), ACLNN_SUCCESS);
    // Rows and columns 0, 1, 2 read floor(k * 2 / 3) = 0, 0, 1.
    EXPECT_EQ(out.Read(), (std::vector<float>{1, 1, 2, 1, 1, 2, 3, 3, 4}));
}

TEST_F(AclnnLlmOps, SwiGluMultipliesTheSiluOfTheFirstHalfByTheSecond) {
    const std::vector<float> values = {-2, -0.5f, 1, 3, 0.5f, 2, -1, 4};
    DeviceTensor<float> x({2, 4}, values, ACL_FLOAT);
    DeviceTensor<float> out({2, 2}, std::vector<float>(4, 0), ACL_FLOAT);
    ASSERT_EQ(aclnnSwiGluGetWorkspaceSize(x.get(), -1, out.get(), &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnSwiGlu, workspace_, executor_), ACLNN_SUCCESS);
    std::vector<double> expected;
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c) {
            const double a = values[r * 4 + c], b = values[r * 4 + 2 + c];
            expected.push_back(a / (1 + std::exp(-a)) * b);
        }
    ExpectNear(out.Read(), expected, 1e-6);
}

TEST_F(AclnnLlmOps, GeGluV3ActivatesTheChosenHalfAndReturnsIt) {
    const std::vector<float> values = {0.5f, -1, 2, 3};
    DeviceTensor<float> x({1, 4}, values, ACL_FLOAT);
    DeviceTensor<float> out({1, 2}, {0, 0}, ACL_FLOAT), gelu({1, 2}, {0, 0}, ACL_FLOAT);
    ASSERT_EQ(aclnnGeGluV3GetWorkspaceSize(x.get(), -1, 0, false, out.get(), gelu.get(),
                                           &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnGeGluV3, workspace_, executor_), ACLNN_SUCCESS);
    const auto exact = [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); };
    ExpectNear(gelu.Read(), {exact(2), exact(3)}, 1e-6);  // the right half, activateLeft false
    ExpectNear(out.Read(), {exact(2) * 0.5, exact(3) * -1}, 1e-6);
}

TEST_F(AclnnLlmOps, RotaryEmbeddingHalfModeRotatesHalves) {
    // x [1, 1, 2, 4], cos/sin broadcast over the first three dimensions' last two.
    const std::vector<float> xs = {1, 2, 3, 4, 5, 6, 7, 8};
    const std::vector<float> cs = {0.5f, 0.25f, 1, -1}, ss = {0.1f, 0.2f, 0.3f, 0.4f};
    DeviceTensor<float> x({1, 1, 2, 4}, xs, ACL_FLOAT);
    DeviceTensor<float> cos({1, 1, 1, 4}, cs, ACL_FLOAT), sin({1, 1, 1, 4}, ss, ACL_FLOAT);
    DeviceTensor<float> out({1, 1, 2, 4}, std::vector<float>(8, 0), ACL_FLOAT);
    ASSERT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x.get(), cos.get(), sin.get(), 0,
                                                           out.get(), &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnRotaryPositionEmbedding, workspace_, executor_), ACLNN_SUCCESS);
    std::vector<double> expected;
    for (int r = 0; r < 2; ++r) {
        const float* v = &xs[r * 4];
        const double rotated[4] = {-v[2], -v[3], v[0], v[1]};
        for (int k = 0; k < 4; ++k)
            expected.push_back(v[k] * cs[k] + rotated[k] * ss[k]);
    }
    ExpectNear(out.Read(), expected, 1e-6);
}

TEST_F(AclnnLlmOps, RotaryEmbeddingInterleaveModeRotatesPairs) {
    const std::vector<float> xs = {1, 2, 3, 4};
    const std::vector<float> cs = {0.5f, 0.5f, 2, 2}, ss = {1, 1, -1, -1};
    DeviceTensor<float> x({1, 1, 1, 4}, xs, ACL_FLOAT);
    DeviceTensor<float> cos({1, 1, 1, 4}, cs, ACL_FLOAT), sin({1, 1, 1, 4}, ss, ACL_FLOAT);
    DeviceTensor<float> out({1, 1, 1, 4}, std::vector<float>(4, 0), ACL_FLOAT);
    ASSERT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x.get(), cos.get(), sin.get(), 1,
                                                           out.get(), &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnRotaryPositionEmbedding, workspace_, executor_), ACLNN_SUCCESS);
    // rotate: (1, 2, 3, 4) -> (-2, 1, -4, 3)
    ExpectNear(out.Read(), {1 * 0.5 - 2 * 1, 2 * 0.5 + 1 * 1, 3 * 2 + 4 * 1, 4 * 2 - 3 * 1}, 1e-6);
}

// ggml-cann rotates the head of each row (a strided view) and frees its output buffer to its
// pool before the call, so a workspace would be handed that same buffer: the operator needs
// none, and rotates in place over rows longer than its chunks.
TEST_F(AclnnLlmOps, RotaryEmbeddingInPlaceOnAStridedHeadNeedsNoWorkspace) {
    const int64_t seqs = 2, heads = 3, dims = 260, width = 300;
    for (int64_t mode : {0, 1}) {
        std::vector<float> xs(seqs * heads * width), cs(seqs * dims), ss(seqs * dims);
        for (size_t i = 0; i < xs.size(); ++i)
            xs[i] = std::sin(0.37f * static_cast<float>(i));
        for (size_t i = 0; i < cs.size(); ++i) {
            cs[i] = std::cos(0.1f * static_cast<float>(i));
            ss[i] = std::sin(0.1f * static_cast<float>(i));
        }
        DeviceTensor<float> x({1, seqs, heads, dims},
                              {seqs * heads * width, heads * width, width, 1}, 0, xs, ACL_FLOAT);
        DeviceTensor<float> cos({1, seqs, 1, dims}, cs, ACL_FLOAT),
            sin({1, seqs, 1, dims}, ss, ACL_FLOAT);
        ASSERT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x.get(), cos.get(), sin.get(), mode,
                                                               x.get(), &workspace_, &executor_),
                  ACLNN_SUCCESS);
        EXPECT_EQ(workspace_, 0u);
        ASSERT_EQ(RunPhase2(aclnnRotaryPositionEmbedding, workspace_, executor_), ACLNN_SUCCESS);
        std::vector<double> expected(xs.begin(), xs.end());
        for (int64_t r = 0; r < seqs * heads; ++r) {
            const float* v = &xs[r * width];
            const float* c = &cs[r / heads * dims];
            const float* sn = &ss[r / heads * dims];
            for (int64_t k = 0; k < dims; ++k) {
                const double rotated = mode == 0
                                           ? (k < dims / 2 ? -v[k + dims / 2] : v[k - dims / 2])
                                           : (k % 2 == 0 ? -v[k + 1] : v[k - 1]);
                expected[r * width + k] = v[k] * c[k] + rotated * sn[k];
            }
        }
        ExpectNear(x.Read(), expected, 1e-5);
    }
}

TEST_F(AclnnLlmOps, RotaryEmbeddingRefusesTheUnimplementedModes) {
    DeviceTensor<float> x({1, 1, 1, 4}, Iota(4), ACL_FLOAT);
    EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x.get(), x.get(), x.get(), 2, x.get(),
                                                           &workspace_, &executor_),
              ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
