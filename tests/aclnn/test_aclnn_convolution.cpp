// aclnnop/aclnn_convolution.h: Convolution (1-D, 2-D and 3-D, transposed or not, grouped,
// strided, padded, dilated, with and without bias), ConvTbc and ConvDepthwise2d against a plain
// double-precision loop, in float32, float16 and bfloat16 and over strided views, and every
// documented bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_convolution.h"

using aclnn_test::Bf16;
using aclnn_test::DeviceTensor;
using aclnn_test::FromBf16;
using aclnn_test::FromHalf;
using aclnn_test::Half;
using aclnn_test::RunPhase2;

namespace {

class IntArray {
 public:
    explicit IntArray(const std::vector<int64_t>& values)
        : array_(aclCreateIntArray(values.data(), values.size())) {}
    ~IntArray() { aclDestroyIntArray(array_); }
    IntArray(const IntArray&) = delete;
    IntArray& operator=(const IntArray&) = delete;
    aclIntArray* get() const { return array_; }

 private:
    aclIntArray* array_;
};

int64_t Count(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}

// Multiples of 1/8 in [-2, 2]: exact in float16 and bfloat16, and their products' sums exact
// in float32.
std::vector<float> Values(int64_t n, uint32_t seed) {
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) {
        seed = seed * 1103515245u + 12345u;
        x = static_cast<float>(static_cast<int>((seed >> 16) % 33) - 16) / 8.0f;
    }
    return v;
}

// A device tensor of float32, float16 or bfloat16 holding float values; a view over `storage`
// elements when strides are given.
class Tensor {
 public:
    Tensor(const std::vector<int64_t>& shape, const std::vector<float>& values, aclDataType dtype,
           aclFormat format)
        : Tensor(shape, aclnn_test::ContiguousStrides(shape), 0, values, dtype, format) {}
    Tensor(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int64_t offset,
           const std::vector<float>& storage, aclDataType dtype, aclFormat format)
        : dtype_(dtype) {
        if (dtype == ACL_FLOAT) {
            f32_ = std::make_unique<DeviceTensor<float>>(shape, strides, offset, storage, dtype,
                                                         format);
        } else {
            std::vector<uint16_t> bits;
            for (float v : storage)
                bits.push_back(dtype == ACL_BF16 ? Bf16(v) : Half(v));
            f16_ = std::make_unique<DeviceTensor<uint16_t>>(shape, strides, offset, bits, dtype,
                                                            format);
        }
    }
    aclTensor* get() const { return f32_ ? f32_->get() : f16_->get(); }
    std::vector<float> Read() const {
        if (f32_) return f32_->Read();
        std::vector<float> values;
        for (uint16_t bits : f16_->Read())
            values.push_back(dtype_ == ACL_BF16 ? FromBf16(bits) : FromHalf(bits));
        return values;
    }

 private:
    aclDataType dtype_;
    std::unique_ptr<DeviceTensor<float>> f32_;
    std::unique_ptr<DeviceTensor<uint16_t>> f16_;
};

aclFormat FormatOf(size_t rank) {
    return rank == 3 ? ACL_FORMAT_NCL : rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW;
}

// A convolution as the API states it, and its meaning in a plain loop.
struct Conv {
    bool transposed = false;
    int64_t n = 1, ic = 1, oc = 1, groups = 1;
    std::vector<int64_t> in, kernel, stride, dilation, padding, out_padding;
    bool bias = false;

    int r() const { return static_cast<int>(in.size()); }
    int64_t PadBegin(int i) const {
        return padding.size() == in.size() ? padding[i] : padding[2 * i];
    }
    int64_t PadEnd(int i) const {
        return padding.size() == in.size() ? padding[i] : padding[2 * i + 1];
    }
    std::vector<int64_t> Out() const {
        std::vector<int64_t> out;
        for (int i = 0; i < r(); ++i) {
            const int64_t span = dilation[i] * (kernel[i] - 1) + 1;
            const int64_t pads = PadBegin(i) + PadEnd(i);
            out.push_back(transposed ? (in[i] - 1) * stride[i] - pads + span + out_padding[i]
                                     : (in[i] + pads - span) / stride[i] + 1);
        }
        return out;
    }
    std::vector<int64_t> InputShape() const {
        std::vector<int64_t> s{n, ic};
        s.insert(s.end(), in.begin(), in.end());
        return s;
    }
    std::vector<int64_t> WeightShape() const {
        std::vector<int64_t> s = transposed ? std::vector<int64_t>{ic, oc / groups}
                                            : std::vector<int64_t>{oc, ic / groups};
        s.insert(s.end(), kernel.begin(), kernel.end());
        return s;
    }
    std::vector<int64_t> OutShape() const {
        std::vector<int64_t> s{n, oc};
        const std::vector<int64_t> out = Out();
        s.insert(s.end(), out.begin(), out.end());
        return s;
    }

    // Every (input position, kernel tap) pair feeds the output position it lands on.
    std::vector<double> Reference(const std::vector<float>& x, const std::vector<float>& w,
                                  const std::vector<float>& b) const {
        // Spatial axes padded to three.
        int64_t xin[3] = {1, 1, 1}, k[3] = {1, 1, 1}, o[3] = {1, 1, 1}, s[3] = {1, 1, 1},
                d[3] = {1, 1, 1}, p[3] = {0, 0, 0};
        const std::vector<int64_t> out = Out();
        for (int i = 0; i < r(); ++i) {
            xin[3 - r() + i] = in[i];
            k[3 - r() + i] = kernel[i];
            o[3 - r() + i] = out[i];
            s[3 - r() + i] = stride[i];
            d[3 - r() + i] = dilation[i];
            p[3 - r() + i] = PadBegin(i);
        }
        const int64_t icg = ic / groups, ocg = oc / groups;
        const int64_t in_plane = xin[0] * xin[1] * xin[2], out_plane = o[0] * o[1] * o[2];
        const int64_t taps = k[0] * k[1] * k[2];
        std::vector<double> y(static_cast<size_t>(n * oc * out_plane), 0.0);
        for (int64_t b0 = 0; b0 < n; ++b0)
            for (int64_t oc0 = 0; oc0 < oc; ++oc0)
                for (int64_t q = 0; q < out_plane; ++q)
                    y[static_cast<size_t>((b0 * oc + oc0) * out_plane + q)] = bias ? b[oc0] : 0.0;
        for (int64_t b0 = 0; b0 < n; ++b0) {
            for (int64_t g = 0; g < groups; ++g) {
                for (int64_t ci = 0; ci < icg; ++ci) {
                    for (int64_t co = 0; co < ocg; ++co) {
                        for (int64_t i0 = 0; i0 < xin[0]; ++i0)
                            for (int64_t i1 = 0; i1 < xin[1]; ++i1)
                                for (int64_t i2 = 0; i2 < xin[2]; ++i2)
                                    for (int64_t t0 = 0; t0 < k[0]; ++t0)
                                        for (int64_t t1 = 0; t1 < k[1]; ++t1)
                                            for (int64_t t2 = 0; t2 < k[2]; ++t2) {
                                                const int64_t idx[3] = {i0, i1, i2};
                                                const int64_t tap[3] = {t0, t1, t2};
                                                int64_t at[3];
                                                bool inside = true;
                                                for (int a = 0; a < 3; ++a) {
                                                    if (transposed) {
                                                        at[a] =
                                                            idx[a] * s[a] - p[a] + tap[a] * d[a];
                                                    } else {  // output position at[a] reads idx
                                                        const int64_t num =
                                                            idx[a] + p[a] - tap[a] * d[a];
                                                        at[a] = num % s[a] == 0 ? num / s[a] : -1;
                                                    }
                                                    inside = inside && at[a] >= 0 && at[a] < o[a];
                                                }
                                                if (!inside) continue;
                                                const int64_t c_in = g * icg + ci,
                                                              c_out = g * ocg + co;
                                                const double xv = x[static_cast<size_t>(
                                                    (b0 * ic + c_in) * in_plane +
                                                    (i0 * xin[1] + i1) * xin[2] + i2)];
                                                const int64_t t = (t0 * k[1] + t1) * k[2] + t2;
                                                const double wv = w[static_cast<size_t>(
                                                    transposed ? (c_in * ocg + co) * taps + t
                                                               : (c_out * icg + ci) * taps + t)];
                                                y[static_cast<size_t>(
                                                    (b0 * oc + c_out) * out_plane +
                                                    (at[0] * o[1] + at[1]) * o[2] + at[2])] +=
                                                    xv * wv;
                                            }
                    }
                }
            }
        }
        return y;
    }
};

void ExpectNear(const std::vector<float>& got, const std::vector<double>& want, double rel) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_NEAR(got[i], want[i], rel * std::max(1.0, std::fabs(want[i]))) << "element " << i;
    }
}

class AclnnConvolution : public aclnn_test::AclnnTest {
 protected:
    // Runs c with contiguous tensors of the given types and compares with the reference.
    void Check(const Conv& c, aclDataType in_type, aclDataType weight_type, aclDataType out_type,
               double rel) {
        const std::vector<float> x = Values(Count(c.InputShape()), 1);
        const std::vector<float> w = Values(Count(c.WeightShape()), 2);
        const std::vector<float> b = Values(c.oc, 3);
        const aclFormat format = FormatOf(c.InputShape().size());
        Tensor input(c.InputShape(), x, in_type, format);
        Tensor weight(c.WeightShape(), w, weight_type, format);
        Tensor bias({c.oc}, b, in_type, ACL_FORMAT_ND);
        Tensor out(c.OutShape(), std::vector<float>(Count(c.OutShape()), -99.0f), out_type, format);
        IntArray stride(c.stride), padding(c.padding), dilation(c.dilation),
            out_padding(c.out_padding);
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(aclnnConvolutionGetWorkspaceSize(
                      input.get(), weight.get(), c.bias ? bias.get() : nullptr, stride.get(),
                      padding.get(), dilation.get(), c.transposed, out_padding.get(), c.groups,
                      out.get(), 1, &workspace, &executor),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(RunPhase2(aclnnConvolution, workspace, executor), ACLNN_SUCCESS);
        ExpectNear(out.Read(), c.Reference(x, w, b), rel);
    }
};

constexpr double kF32 = 1e-5;
constexpr double kF16 = 1e-3;  // one float16 rounding of the float32 result
constexpr double kBf16 = 8e-3;

TEST_F(AclnnConvolution, Conv2dWithStridePaddingDilationAndBias) {
    Conv c;
    c.n = 2, c.ic = 3, c.oc = 4;
    c.in = {7, 6}, c.kernel = {3, 2}, c.stride = {2, 1}, c.dilation = {1, 2}, c.padding = {1, 0};
    c.bias = true;
    Check(c, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kF32);
}

TEST_F(AclnnConvolution, Conv2dTakesTopBottomLeftRightPadding) {
    Conv c;
    c.ic = 2, c.oc = 3;
    c.in = {5, 6}, c.kernel = {3, 3}, c.stride = {1, 2}, c.dilation = {1, 1};
    c.padding = {0, 2, 1, 0};
    Check(c, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kF32);
}

TEST_F(AclnnConvolution, Conv1dGroupedWithLeftRightPaddingAndNoBias) {
    Conv c;
    c.n = 2, c.ic = 4, c.oc = 6, c.groups = 2;
    c.in = {9}, c.kernel = {3}, c.stride = {2}, c.dilation = {1}, c.padding = {1, 2};
    Check(c, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kF32);
}

TEST_F(AclnnConvolution, DepthwiseConv2dThroughGroups) {
    Conv c;
    c.ic = 3, c.oc = 6, c.groups = 3;
    c.in = {6, 5}, c.kernel = {3, 3}, c.stride = {1, 1}, c.dilation = {2, 1}, c.padding = {2, 1};
    c.bias = true;
    Check(c, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kF32);
}

TEST_F(AclnnConvolution, Conv3d) {
    Conv c;
    c.ic = 2, c.oc = 3;
    c.in = {4, 5, 4}, c.kernel = {2, 3, 2}, c.stride = {1, 2, 1}, c.dilation = {1, 1, 2};
    c.padding = {1, 1, 0};
    c.bias = true;
    Check(c, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kF32);
}

TEST_F(AclnnConvolution, TransposedConv2dWithGroupsAndOutputPadding) {
    Conv c;
    c.transposed = true;
    c.n = 2, c.ic = 4, c.oc = 6, c.groups = 2;
    c.in = {3, 4}, c.kernel = {3, 2}, c.stride = {2, 3}, c.dilation = {1, 1};
    c.padding = {1, 0}, c.out_padding = {1, 2};
    c.bias = true;
    Check(c, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kF32);
}

TEST_F(AclnnConvolution, TransposedConv1dAsGgmlCallsIt) {
    // ggml's conv_transpose_1d: stride s, no padding, the full result.
    Conv c;
    c.transposed = true;
    c.ic = 3, c.oc = 2;
    c.in = {5}, c.kernel = {4}, c.stride = {3}, c.dilation = {1}, c.padding = {0};
    c.out_padding = {0};
    Check(c, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kF32);
    // ggml's kernels are often float16 while the data is float32.
    Check(c, ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT, kF32);
}

TEST_F(AclnnConvolution, TransposedConv1dDilatedWithOutputPaddingBelowTheDilation) {
    Conv c;
    c.transposed = true;
    c.ic = 2, c.oc = 2;
    c.in = {4}, c.kernel = {3}, c.stride = {1}, c.dilation = {3}, c.padding = {1};
    c.out_padding = {2};  // not below the stride, but below the dilation
    c.bias = true;
    Check(c, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kF32);
    // A result that lies wholly past the full one, cropped away by the padding: the bias.
    c.in = {1}, c.kernel = {1}, c.stride = {3}, c.dilation = {1}, c.padding = {1};
    Check(c, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kF32);
}

TEST_F(AclnnConvolution, TransposedConv3d) {
    Conv c;
    c.transposed = true;
    c.ic = 2, c.oc = 2;
    c.in = {2, 3, 2}, c.kernel = {2, 2, 3}, c.stride = {2, 1, 2}, c.dilation = {1, 1, 1};
    c.padding = {0, 1, 1}, c.out_padding = {1, 0, 1};
    Check(c, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kF32);
}

TEST_F(AclnnConvolution, Float16ConvolutionAndTransposedConvolution) {
    Conv c;
    c.n = 1, c.ic = 3, c.oc = 4;
    c.in = {6, 6}, c.kernel = {3, 3}, c.stride = {1, 1}, c.dilation = {1, 1}, c.padding = {1, 1};
    c.bias = true;
    Check(c, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, kF16);
    c.transposed = true;
    c.oc = 2;
    c.stride = {2, 2}, c.out_padding = {1, 0};
    Check(c, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, kF16);
}

TEST_F(AclnnConvolution, Bfloat16AndMixedTypes) {
    Conv c;
    c.ic = 2, c.oc = 3;
    c.in = {8}, c.kernel = {3}, c.stride = {1}, c.dilation = {1}, c.padding = {1};
    c.bias = true;
    Check(c, ACL_BF16, ACL_BF16, ACL_BF16, kBf16);
    // A convolution may write another type than it reads.
    Check(c, ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT, kF32);
}

TEST_F(AclnnConvolution, LargerConvolutionsRunOnSeveralThreads) {
    // Enough multiply-adds for the primitive to borrow the device's compute threads.
    Conv c;
    c.n = 2, c.ic = 16, c.oc = 12, c.groups = 2;
    c.in = {14, 15}, c.kernel = {3, 3}, c.stride = {1, 1}, c.dilation = {1, 1};
    c.padding = {1, 1};
    c.bias = true;
    Check(c, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kF32);
    c.transposed = true;
    c.oc = 8;
    c.stride = {2, 2}, c.out_padding = {1, 1};
    Check(c, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, kF16);
}

TEST_F(AclnnConvolution, ReadsStridedViewsAndWritesAStridedOutput) {
    Conv c;
    c.ic = 2, c.oc = 3;
    c.in = {4, 3}, c.kernel = {2, 2}, c.stride = {1, 1}, c.dilation = {1, 1}, c.padding = {0, 0};
    c.bias = true;
    const std::vector<float> x = Values(Count(c.InputShape()), 5);
    const std::vector<float> w = Values(Count(c.WeightShape()), 6);
    const std::vector<float> b = Values(c.oc, 7);
    // input [1, 2, 4, 3] stored channels-last ([1, 4, 3, 2]) after one element.
    std::vector<float> x_storage(1 + x.size(), -5.0f);
    for (int64_t ch = 0; ch < 2; ++ch)
        for (int64_t y = 0; y < 4; ++y)
            for (int64_t xx = 0; xx < 3; ++xx)
                x_storage[static_cast<size_t>(1 + (y * 3 + xx) * 2 + ch)] =
                    x[static_cast<size_t>((ch * 4 + y) * 3 + xx)];
    Tensor input({1, 2, 4, 3}, {24, 1, 6, 2}, 1, x_storage, ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor weight(c.WeightShape(), w, ACL_FLOAT, ACL_FORMAT_NCHW);
    // bias: every other element.
    Tensor bias({3}, {2}, 0, {b[0], 0, b[1], 0, b[2]}, ACL_FLOAT, ACL_FORMAT_ND);
    // out [1, 3, 3, 2]: each row 4 elements apart (2 of padding).
    Tensor out({1, 3, 3, 2}, {36, 12, 4, 1}, 0, std::vector<float>(36, -7.0f), ACL_FLOAT,
               ACL_FORMAT_NCHW);
    IntArray stride(c.stride), padding(c.padding), dilation(c.dilation), none({});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnConvolutionGetWorkspaceSize(input.get(), weight.get(), bias.get(), stride.get(),
                                               padding.get(), dilation.get(), false, none.get(), 1,
                                               out.get(), 0, &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnConvolution, workspace, executor), ACLNN_SUCCESS);
    const std::vector<float> storage = out.Read();
    const std::vector<double> want = c.Reference(x, w, b);
    for (int64_t o = 0; o < 3; ++o)
        for (int64_t y = 0; y < 3; ++y)
            for (int64_t xx = 0; xx < 4; ++xx) {
                const float got = storage[static_cast<size_t>(o * 12 + y * 4 + xx)];
                if (xx >= 2) {
                    EXPECT_EQ(got, -7.0f);  // padding between rows untouched
                } else {
                    EXPECT_NEAR(got, want[static_cast<size_t>((o * 3 + y) * 2 + xx)], 1e-5);
                }
            }
}

TEST_F(AclnnConvolution, DepthwiseConv1dAsGgmlSsmConvCallsIt) {
    // ggml's ssm_conv: x [n_s, d_inner, ncs], the weight [d_inner, 1, d_conv] viewed over a
    // [d_inner][d_conv] buffer, the output [n_s, d_inner, n_t] viewed over a [n_s][n_t][d_inner]
    // buffer; groups = d_inner, stride 1, no padding, outputPadding = the padding array.
    const int64_t n_s = 2, d_inner = 5, d_conv = 4, n_t = 3, ncs = d_conv - 1 + n_t;
    Conv c;
    c.n = n_s, c.ic = d_inner, c.oc = d_inner, c.groups = d_inner;
    c.in = {ncs}, c.kernel = {d_conv}, c.stride = {1}, c.dilation = {1}, c.padding = {0};
    const std::vector<float> x = Values(n_s * d_inner * ncs, 31);
    const std::vector<float> w = Values(d_inner * d_conv, 32);
    Tensor input({n_s, d_inner, ncs}, x, ACL_FLOAT, ACL_FORMAT_NCL);
    Tensor weight({d_inner, 1, d_conv}, {d_conv, d_conv, 1}, 0, w, ACL_FLOAT, ACL_FORMAT_NCL);
    Tensor out({n_s, d_inner, n_t}, {d_inner * n_t, 1, d_inner}, 0,
               std::vector<float>(n_s * n_t * d_inner, 0.0f), ACL_FLOAT, ACL_FORMAT_NCL);
    IntArray stride({1}), padding({0}), dilation({1});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnConvolutionGetWorkspaceSize(input.get(), weight.get(), nullptr, stride.get(),
                                               padding.get(), dilation.get(), false, padding.get(),
                                               d_inner, out.get(), 0, &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnConvolution, workspace, executor), ACLNN_SUCCESS);
    const std::vector<double> want = c.Reference(x, w, {});
    const std::vector<float> got = out.Read();  // [n_s][n_t][d_inner]
    for (int64_t s = 0; s < n_s; ++s)
        for (int64_t ch = 0; ch < d_inner; ++ch)
            for (int64_t t = 0; t < n_t; ++t)
                EXPECT_NEAR(got[static_cast<size_t>((s * n_t + t) * d_inner + ch)],
                            want[static_cast<size_t>((s * d_inner + ch) * n_t + t)], 1e-5);
}

TEST_F(AclnnConvolution, AnEmptyBatchNeedsNoWorkspace) {
    Tensor input({0, 2, 5, 5}, {}, ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor weight({3, 2, 3, 3}, Values(54, 1), ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor out({0, 3, 3, 3}, {}, ACL_FLOAT, ACL_FORMAT_NCHW);
    IntArray ones({1, 1}), zeros({0, 0});
    uint64_t workspace = 99;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnConvolutionGetWorkspaceSize(input.get(), weight.get(), nullptr, ones.get(),
                                               zeros.get(), ones.get(), false, nullptr, 1,
                                               out.get(), 0, &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(workspace, 0u);
    EXPECT_EQ(aclnnConvolution(nullptr, 0, executor, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

TEST_F(AclnnConvolution, ConvTbcConvolvesTimeBatchChannelData) {
    // self [T=5, B=2, C=3], weight [K=3, C=3, O=4], pad 1: out [5, 2, 4].
    const int64_t T = 5, B = 2, C = 3, K = 3, O = 4, pad = 1, To = T + 2 * pad - K + 1;
    const std::vector<float> x = Values(T * B * C, 11), w = Values(K * C * O, 12),
                             b = Values(O, 13);
    Tensor self({T, B, C}, x, ACL_FLOAT16, ACL_FORMAT_NCL);
    Tensor weight({K, C, O}, w, ACL_FLOAT16, ACL_FORMAT_NCL);
    Tensor bias({O}, b, ACL_FLOAT16, ACL_FORMAT_ND);
    Tensor out({To, B, O}, std::vector<float>(To * B * O, 0.0f), ACL_FLOAT16, ACL_FORMAT_NCL);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnConvTbcGetWorkspaceSize(self.get(), weight.get(), bias.get(), pad, out.get(), 1,
                                           &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnConvTbc, workspace, executor), ACLNN_SUCCESS);
    std::vector<double> want(static_cast<size_t>(To * B * O));
    for (int64_t t = 0; t < To; ++t)
        for (int64_t bb = 0; bb < B; ++bb)
            for (int64_t o = 0; o < O; ++o) {
                double sum = b[o];
                for (int64_t k = 0; k < K; ++k) {
                    const int64_t src = t + k - pad;
                    if (src < 0 || src >= T) continue;
                    for (int64_t c = 0; c < C; ++c)
                        sum += double{x[static_cast<size_t>((src * B + bb) * C + c)]} *
                               w[static_cast<size_t>((k * C + c) * O + o)];
                }
                want[static_cast<size_t>((t * B + bb) * O + o)] = sum;
            }
    ExpectNear(out.Read(), want, kF16);
}

TEST_F(AclnnConvolution, ConvDepthwise2dConvolvesEachChannelOnItsOwn) {
    Conv c;
    c.n = 2, c.ic = 3, c.oc = 6, c.groups = 3;
    c.in = {5, 6}, c.kernel = {3, 2}, c.stride = {2, 1}, c.dilation = {1, 2}, c.padding = {1, 1};
    c.bias = true;
    const std::vector<float> x = Values(Count(c.InputShape()), 21);
    const std::vector<float> w = Values(Count(c.WeightShape()), 22);
    const std::vector<float> b = Values(c.oc, 23);
    Tensor input(c.InputShape(), x, ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor weight(c.WeightShape(), w, ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor bias({c.oc}, b, ACL_FLOAT, ACL_FORMAT_ND);
    Tensor out(c.OutShape(), std::vector<float>(Count(c.OutShape()), 0.0f), ACL_FLOAT,
               ACL_FORMAT_NCHW);
    IntArray kernel(c.kernel), stride(c.stride), padding(c.padding), dilation(c.dilation);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnConvDepthwise2dGetWorkspaceSize(
                  input.get(), weight.get(), kernel.get(), bias.get(), stride.get(), padding.get(),
                  dilation.get(), out.get(), 0, &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnConvDepthwise2d, workspace, executor), ACLNN_SUCCESS);
    ExpectNear(out.Read(), c.Reference(x, w, b), kF32);
}

// The bad inputs: a valid 2-D convolution (input [1, 4, 5, 5], weight [6, 2, 3, 3], groups 2,
// out [1, 6, 3, 3]) with one thing changed at a time.
class AclnnConvolutionChecks : public aclnn_test::AclnnTest {
 protected:
    struct Call {
        const aclTensor* input;
        const aclTensor* weight;
        const aclTensor* bias;
        const aclIntArray* stride;
        const aclIntArray* padding;
        const aclIntArray* dilation;
        bool transposed = false;
        const aclIntArray* out_padding;
        int64_t groups = 2;
        aclTensor* out;
        int8_t cube = 0;
    };
    Call Valid() const {
        return {input_.get(),
                weight_.get(),
                bias_.get(),
                ones_.get(),
                zeros_.get(),
                ones_.get(),
                false,
                zeros_.get(),
                2,
                out_.get(),
                0};
    }
    aclnnStatus First(const Call& c) {
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus rc = aclnnConvolutionGetWorkspaceSize(
            c.input, c.weight, c.bias, c.stride, c.padding, c.dilation, c.transposed, c.out_padding,
            c.groups, c.out, c.cube, &workspace, &executor);
        if (rc == ACLNN_SUCCESS) aclDestroyAclOpExecutor(executor);
        return rc;
    }

    Tensor input_{{1, 4, 5, 5}, Values(100, 1), ACL_FLOAT, ACL_FORMAT_NCHW};
    Tensor weight_{{6, 2, 3, 3}, Values(108, 2), ACL_FLOAT, ACL_FORMAT_NCHW};
    Tensor bias_{{6}, Values(6, 3), ACL_FLOAT, ACL_FORMAT_ND};
    Tensor out_{{1, 6, 3, 3}, std::vector<float>(54, 0.0f), ACL_FLOAT, ACL_FORMAT_NCHW};
    IntArray ones_{{1, 1}}, zeros_{{0, 0}};
};

TEST_F(AclnnConvolutionChecks, TheValidCallPasses) {
    EXPECT_EQ(First(Valid()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    Call c = Valid();
    c.bias = nullptr;         // bias is optional
    c.out_padding = nullptr;  // and outputPadding ignored when not transposed
    EXPECT_EQ(First(c), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

TEST_F(AclnnConvolutionChecks, NullsAre161001) {
    for (int which = 0; which < 6; ++which) {
        Call c = Valid();
        switch (which) {
            case 0:
                c.input = nullptr;
                break;
            case 1:
                c.weight = nullptr;
                break;
            case 2:
                c.stride = nullptr;
                break;
            case 3:
                c.padding = nullptr;
                break;
            case 4:
                c.dilation = nullptr;
                break;
            default:
                c.out = nullptr;
                break;
        }
        EXPECT_EQ(First(c), ACLNN_ERR_PARAM_NULLPTR) << which;
    }
    Call c = Valid();
    c.transposed = true;
    c.out_padding = nullptr;
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_NULLPTR);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnConvolutionGetWorkspaceSize(input_.get(), weight_.get(), nullptr, ones_.get(),
                                               zeros_.get(), ones_.get(), false, nullptr, 2,
                                               out_.get(), 0, nullptr, &executor),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnConvolutionGetWorkspaceSize(input_.get(), weight_.get(), nullptr, ones_.get(),
                                               zeros_.get(), ones_.get(), false, nullptr, 2,
                                               out_.get(), 0, &workspace, nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(AclnnConvolutionChecks, UnsupportedTypesAndFormatsAre161002) {
    DeviceTensor<int32_t> int_input({1, 4, 5, 5}, std::vector<int32_t>(100, 1), ACL_INT32,
                                    ACL_FORMAT_NCHW);
    DeviceTensor<double> double_weight({6, 2, 3, 3}, std::vector<double>(108, 1), ACL_DOUBLE,
                                       ACL_FORMAT_NCHW);
    DeviceTensor<int32_t> int_bias({6}, std::vector<int32_t>(6, 1), ACL_INT32);
    Tensor nd_input({1, 4, 5, 5}, Values(100, 1), ACL_FLOAT, ACL_FORMAT_ND);
    Tensor nhwc_out({1, 6, 3, 3}, std::vector<float>(54, 0.0f), ACL_FLOAT, ACL_FORMAT_NHWC);
    Tensor ncl_weight({6, 2, 3, 3}, Values(108, 2), ACL_FLOAT, ACL_FORMAT_NCL);
    Tensor half_out({1, 6, 3, 3}, std::vector<float>(54, 0.0f), ACL_FLOAT16, ACL_FORMAT_NCHW);
    Call c = Valid();
    c.input = int_input.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.weight = double_weight.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.bias = int_bias.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.input = nd_input.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.out = nhwc_out.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.weight = ncl_weight.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    // Another output type is fine for a convolution, not for a transposed one.
    c = Valid();
    c.out = half_out.get();
    EXPECT_EQ(First(c), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    Tensor t_input({1, 6, 3, 3}, Values(54, 1), ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor t_out({1, 4, 5, 5}, std::vector<float>(100, 0.0f), ACL_FLOAT16, ACL_FORMAT_NCHW);
    Tensor t_bias({4}, Values(4, 3), ACL_FLOAT, ACL_FORMAT_ND);
    c = Valid();
    c.transposed = true;
    c.input = t_input.get();
    c.bias = t_bias.get();
    c.out = t_out.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    // A private format.
    DeviceTensor<float> fractal({1, 4, 5, 5}, Values(100, 1), ACL_FLOAT, ACL_FORMAT_NC1HWC0);
    c = Valid();
    c.input = fractal.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnConvolutionChecks, RanksMustBeThreeToFiveAndAgree) {
    Tensor two_d({4, 25}, Values(100, 1), ACL_FLOAT, ACL_FORMAT_ND);
    Tensor weight_3d({6, 2, 9}, Values(108, 2), ACL_FLOAT, ACL_FORMAT_NCL);
    Tensor out_5d({1, 6, 3, 3, 1}, std::vector<float>(54, 0.0f), ACL_FLOAT, ACL_FORMAT_NCDHW);
    Tensor bias_2d({6, 1}, Values(6, 3), ACL_FLOAT, ACL_FORMAT_ND);
    Call c = Valid();
    c.input = two_d.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.weight = weight_3d.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.out = out_5d.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.bias = bias_2d.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnConvolutionChecks, BadChannelsAndGroupsAre161002) {
    Call c = Valid();
    c.groups = 0;
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c.groups = 1;  // weight's 2 input channels x 1 != 4
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    // 5 filters do not split into 2 groups.
    Tensor weight5({5, 2, 3, 3}, Values(90, 2), ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor out5({1, 5, 3, 3}, std::vector<float>(45, 0.0f), ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor bias5({5}, Values(5, 3), ACL_FLOAT, ACL_FORMAT_ND);
    c = Valid();
    c.weight = weight5.get();
    c.out = out5.get();
    c.bias = bias5.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    // Bias must have one value per output channel.
    Tensor bias4({4}, Values(4, 3), ACL_FLOAT, ACL_FORMAT_ND);
    c = Valid();
    c.bias = bias4.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    // Transposed: weight's dimension 0 must be the input's channels (6 here, 4 given).
    Tensor t_out({1, 4, 5, 5}, std::vector<float>(100, 0.0f), ACL_FLOAT, ACL_FORMAT_NCHW);
    c = Valid();
    c.transposed = true;
    c.bias = nullptr;
    c.out = t_out.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnConvolutionChecks, BadWindowsAre161002) {
    IntArray zero_one({0, 1}), one({1}), three({1, 1, 1}), negative({-1, 0}), five({0, 0, 0});
    Call c = Valid();
    c.stride = zero_one.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.dilation = zero_one.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.stride = one.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.dilation = three.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.padding = negative.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.padding = five.get();  // 2-D takes 2 or 4 values
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.padding = one.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    // A 7x7 kernel does not fit a 5x5 image.
    Tensor big({6, 2, 7, 7}, Values(588, 2), ACL_FLOAT, ACL_FORMAT_NCHW);
    c = Valid();
    c.weight = big.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c = Valid();
    c.cube = 9;
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnConvolutionChecks, OutputPaddingMustBeBelowTheStrideOrTheDilation) {
    // Transposed: input [1, 6, 3, 3], weight [6, 2, 3, 3], groups 2: out [1, 4, 5 + op, ...].
    Tensor t_input({1, 6, 3, 3}, Values(54, 1), ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor t_out({1, 4, 6, 6}, std::vector<float>(144, 0.0f), ACL_FLOAT, ACL_FORMAT_NCHW);
    IntArray two({2, 2}), one({1, 1}), one_value({1}), negative({-1, -1});
    Call c = Valid();
    c.transposed = true;
    c.input = t_input.get();
    c.bias = nullptr;
    c.out = t_out.get();
    c.out_padding = one.get();
    c.stride = two.get();  // (3 - 1) * 2 + 3 + 1 = 8 would be right: 6 is wrong
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c.stride = ones_.get();  // 1 + op: op 1 is not below stride 1 nor dilation 1
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c.dilation = two.get();  // below the dilation: (3 - 1) + 5 + 1 = 8 expected, 6 given
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c.dilation = ones_.get();
    c.out_padding = negative.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c.out_padding = one_value.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    c.out_padding = zeros_.get();
    Tensor good_out({1, 4, 5, 5}, std::vector<float>(100, 0.0f), ACL_FLOAT, ACL_FORMAT_NCHW);
    c.out = good_out.get();
    EXPECT_EQ(First(c), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

TEST_F(AclnnConvolutionChecks, AWrongOutputShapeIsRefusedWithTheRightOne) {
    Tensor wrong({1, 6, 4, 3}, std::vector<float>(72, 0.0f), ACL_FLOAT, ACL_FORMAT_NCHW);
    Call c = Valid();
    c.out = wrong.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("[1, 6, 3, 3]"), std::string::npos) << message;
    // Empty operands cannot make a non-empty result.
    Tensor no_channels({1, 0, 5, 5}, {}, ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor empty_weight({6, 0, 3, 3}, {}, ACL_FLOAT, ACL_FORMAT_NCHW);
    c = Valid();
    c.input = no_channels.get();
    c.weight = empty_weight.get();
    EXPECT_EQ(First(c), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnConvolutionChecks, ConvTbcAndConvDepthwise2dChecks) {
    Tensor self({5, 2, 3}, Values(30, 1), ACL_FLOAT, ACL_FORMAT_ND);
    Tensor weight({3, 3, 4}, Values(36, 2), ACL_FLOAT, ACL_FORMAT_ND);
    Tensor bias({4}, Values(4, 3), ACL_FLOAT, ACL_FORMAT_ND);
    Tensor out({5, 2, 4}, std::vector<float>(40, 0.0f), ACL_FLOAT, ACL_FORMAT_ND);
    Tensor half_out({5, 2, 4}, std::vector<float>(40, 0.0f), ACL_FLOAT16, ACL_FORMAT_ND);
    Tensor short_out({4, 2, 4}, std::vector<float>(32, 0.0f), ACL_FLOAT, ACL_FORMAT_ND);
    Tensor bad_weight({3, 2, 4}, Values(24, 2), ACL_FLOAT, ACL_FORMAT_ND);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnConvTbcGetWorkspaceSize(self.get(), weight.get(), bias.get(), 1, out.get(), 0,
                                           &ws, &ex),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    aclDestroyAclOpExecutor(ex);
    EXPECT_EQ(
        aclnnConvTbcGetWorkspaceSize(self.get(), weight.get(), nullptr, 1, out.get(), 0, &ws, &ex),
        ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnConvTbcGetWorkspaceSize(self.get(), weight.get(), bias.get(), 1, half_out.get(),
                                           0, &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnConvTbcGetWorkspaceSize(self.get(), weight.get(), bias.get(), 1, short_out.get(),
                                           0, &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnConvTbcGetWorkspaceSize(self.get(), bad_weight.get(), bias.get(), 1, out.get(),
                                           0, &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnConvTbcGetWorkspaceSize(self.get(), weight.get(), bias.get(), -1, out.get(), 0,
                                           &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);

    Tensor image({1, 2, 4, 4}, Values(32, 1), ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor filters({4, 1, 3, 3}, Values(36, 2), ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor two_in({4, 2, 3, 3}, Values(72, 2), ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor three_filters({3, 1, 3, 3}, Values(27, 2), ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor result({1, 4, 2, 2}, std::vector<float>(16, 0.0f), ACL_FLOAT, ACL_FORMAT_NCHW);
    Tensor result3({1, 3, 2, 2}, std::vector<float>(12, 0.0f), ACL_FLOAT, ACL_FORMAT_NCHW);
    IntArray k33({3, 3}), k22({2, 2}), ones({1, 1}), zeros({0, 0});
    auto depthwise = [&](const aclTensor* w, const aclIntArray* k, aclTensor* o) {
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus rc =
            aclnnConvDepthwise2dGetWorkspaceSize(image.get(), w, k, nullptr, ones.get(),
                                                 zeros.get(), ones.get(), o, 0, &size, &executor);
        if (rc == ACLNN_SUCCESS) aclDestroyAclOpExecutor(executor);
        return rc;
    };
    EXPECT_EQ(depthwise(filters.get(), k33.get(), result.get()), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(depthwise(filters.get(), nullptr, result.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(depthwise(filters.get(), k22.get(), result.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(depthwise(two_in.get(), k33.get(), result.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(depthwise(three_filters.get(), k33.get(), result3.get()), ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
