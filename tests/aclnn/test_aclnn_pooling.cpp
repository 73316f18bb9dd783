// aclnnop/aclnn_avgpool2d.h, aclnn_avgpool2d_backward.h and aclnn_max_pool.h: 2-D average
// pooling, its gradient and max pooling against plain double-precision loops (ceilMode,
// countIncludePad, divisorOverride, ONNX-style pads, 3-D [C, H, W] input, float16, integers,
// strided views), and every documented bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_avgpool2d_backward.h"
#include "aclnnop/aclnn_max_pool.h"

using aclnn_test::DeviceTensor;
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

std::vector<float> Values(int64_t n, uint32_t seed) {
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) {
        seed = seed * 1103515245u + 12345u;
        x = static_cast<float>(static_cast<int>((seed >> 16) % 65) - 32) / 8.0f;
    }
    return v;
}

// A window over one axis, as PyTorch and CANN place it.
struct Axis {
    int64_t size, kernel, stride, pad_begin, pad_end;
    bool ceil;
    int64_t Out() const {
        const int64_t room = size + pad_begin + pad_end - kernel + (ceil ? stride - 1 : 0);
        int64_t out = room / stride + 1;
        if (ceil && (out - 1) * stride >= size + pad_begin) --out;
        return out;
    }
};

// Average pooling of planes [planes, h, w] (PyTorch's avg_pool2d).
std::vector<double> AvgReference(const std::vector<float>& x, int64_t planes, const Axis& ay,
                                 const Axis& ax, bool count_include_pad, int64_t divisor) {
    std::vector<double> y;
    for (int64_t p = 0; p < planes; ++p)
        for (int64_t oy = 0; oy < ay.Out(); ++oy)
            for (int64_t ox = 0; ox < ax.Out(); ++ox) {
                const int64_t y0 = oy * ay.stride - ay.pad_begin,
                              x0 = ox * ax.stride - ax.pad_begin;
                const int64_t y1 = std::min(y0 + ay.kernel, ay.size + ay.pad_end);
                const int64_t x1 = std::min(x0 + ax.kernel, ax.size + ax.pad_end);
                const int64_t padded = (y1 - y0) * (x1 - x0);
                double sum = 0;
                int64_t inside = 0;
                for (int64_t yy = std::max<int64_t>(y0, 0); yy < std::min(y1, ay.size); ++yy)
                    for (int64_t xx = std::max<int64_t>(x0, 0); xx < std::min(x1, ax.size); ++xx) {
                        sum += x[static_cast<size_t>((p * ay.size + yy) * ax.size + xx)];
                        ++inside;
                    }
                y.push_back(sum / static_cast<double>(divisor != 0        ? divisor
                                                      : count_include_pad ? padded
                                                                          : inside));
            }
    return y;
}

// The gradient of AvgReference: each output gradient divided by its window's divisor, added to
// every input the window covers.
std::vector<double> AvgBackwardReference(const std::vector<float>& grad, int64_t planes,
                                         const Axis& ay, const Axis& ax, bool count_include_pad,
                                         int64_t divisor) {
    std::vector<double> dx(static_cast<size_t>(planes * ay.size * ax.size), 0.0);
    size_t g = 0;
    for (int64_t p = 0; p < planes; ++p)
        for (int64_t oy = 0; oy < ay.Out(); ++oy)
            for (int64_t ox = 0; ox < ax.Out(); ++ox, ++g) {
                const int64_t y0 = oy * ay.stride - ay.pad_begin,
                              x0 = ox * ax.stride - ax.pad_begin;
                const int64_t y1 = std::min(y0 + ay.kernel, ay.size + ay.pad_end);
                const int64_t x1 = std::min(x0 + ax.kernel, ax.size + ax.pad_end);
                const int64_t inside = (std::min(y1, ay.size) - std::max<int64_t>(y0, 0)) *
                                       (std::min(x1, ax.size) - std::max<int64_t>(x0, 0));
                const int64_t d = divisor != 0        ? divisor
                                  : count_include_pad ? (y1 - y0) * (x1 - x0)
                                                      : inside;
                for (int64_t yy = std::max<int64_t>(y0, 0); yy < std::min(y1, ay.size); ++yy)
                    for (int64_t xx = std::max<int64_t>(x0, 0); xx < std::min(x1, ax.size); ++xx)
                        dx[static_cast<size_t>((p * ay.size + yy) * ax.size + xx)] +=
                            grad[g] / static_cast<double>(d);
            }
    return dx;
}

// Max pooling of planes [planes, h, w]; padding never wins.
template <class T>
std::vector<T> MaxReference(const std::vector<T>& x, int64_t planes, const Axis& ay,
                            const Axis& ax) {
    std::vector<T> y;
    for (int64_t p = 0; p < planes; ++p)
        for (int64_t oy = 0; oy < ay.Out(); ++oy)
            for (int64_t ox = 0; ox < ax.Out(); ++ox) {
                T best = std::numeric_limits<T>::lowest();
                for (int64_t i = 0; i < ay.kernel; ++i)
                    for (int64_t j = 0; j < ax.kernel; ++j) {
                        const int64_t yy = oy * ay.stride - ay.pad_begin + i;
                        const int64_t xx = ox * ax.stride - ax.pad_begin + j;
                        if (yy < 0 || yy >= ay.size || xx < 0 || xx >= ax.size) continue;
                        best = std::max(best,
                                        x[static_cast<size_t>((p * ay.size + yy) * ax.size + xx)]);
                    }
                y.push_back(best);
            }
    return y;
}

class AclnnPooling : public aclnn_test::AclnnTest {
 protected:
    // Runs AvgPool2d on a float32 [2, 3, h, w] input and compares with the reference.
    void CheckAvg(const Axis& ay, const Axis& ax, bool count_include_pad, int64_t divisor) {
        const int64_t n = 2, c = 3;
        const std::vector<float> x = Values(n * c * ay.size * ax.size, 7);
        DeviceTensor<float> self({n, c, ay.size, ax.size}, x, ACL_FLOAT, ACL_FORMAT_NCHW);
        const int64_t oh = ay.Out(), ow = ax.Out();
        DeviceTensor<float> out({n, c, oh, ow}, std::vector<float>(n * c * oh * ow, -9.0f),
                                ACL_FLOAT, ACL_FORMAT_NCHW);
        IntArray kernel({ay.kernel, ax.kernel}), stride({ay.stride, ax.stride}),
            pad({ay.pad_begin, ax.pad_begin});
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(aclnnAvgPool2dGetWorkspaceSize(self.get(), kernel.get(), stride.get(), pad.get(),
                                                 ay.ceil, count_include_pad, divisor, 0, out.get(),
                                                 &workspace, &executor),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(RunPhase2(aclnnAvgPool2d, workspace, executor), ACLNN_SUCCESS);
        const std::vector<float> got = out.Read();
        const std::vector<double> want = AvgReference(x, n * c, ay, ax, count_include_pad, divisor);
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
            EXPECT_NEAR(got[i], want[i], 1e-5) << i;
    }

    // Runs AvgPool2dBackward on a float32 [2, 3, h, w] self and compares with the reference.
    void CheckAvgBackward(const Axis& ay, const Axis& ax, bool count_include_pad, int64_t divisor) {
        const int64_t n = 2, c = 3, oh = ay.Out(), ow = ax.Out();
        const std::vector<float> grad = Values(n * c * oh * ow, 11);
        DeviceTensor<float> grad_out({n, c, oh, ow}, grad, ACL_FLOAT, ACL_FORMAT_NCHW);
        DeviceTensor<float> self({n, c, ay.size, ax.size},
                                 std::vector<float>(n * c * ay.size * ax.size, 0.0f), ACL_FLOAT,
                                 ACL_FORMAT_NCHW);
        DeviceTensor<float> grad_in({n, c, ay.size, ax.size},
                                    std::vector<float>(n * c * ay.size * ax.size, -9.0f), ACL_FLOAT,
                                    ACL_FORMAT_NCHW);
        IntArray kernel({ay.kernel, ax.kernel}), stride({ay.stride, ax.stride}),
            pad({ay.pad_begin, ax.pad_begin});
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(aclnnAvgPool2dBackwardGetWorkspaceSize(
                      grad_out.get(), self.get(), kernel.get(), stride.get(), pad.get(), ay.ceil,
                      count_include_pad, divisor, 0, grad_in.get(), &workspace, &executor),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(RunPhase2(aclnnAvgPool2dBackward, workspace, executor), ACLNN_SUCCESS);
        const std::vector<float> got = grad_in.Read();
        const std::vector<double> want =
            AvgBackwardReference(grad, n * c, ay, ax, count_include_pad, divisor);
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
            EXPECT_NEAR(got[i], want[i], 1e-5) << i;
    }
};

TEST_F(AclnnPooling, AvgPoolWithStridesAndPadding) {
    for (bool include : {true, false}) {
        CheckAvg({7, 3, 2, 1, 1, false}, {6, 2, 1, 1, 1, false}, include, 0);
    }
}

TEST_F(AclnnPooling, AvgPoolCeilModeCountsPaddingButNotTheOverhang) {
    // 6 rows, kernel 3, stride 2, pad 1, ceil: 4 windows, the last covering row 5 and one row
    // of padding and overhanging the padded image by one row.
    for (bool include : {true, false}) {
        CheckAvg({6, 3, 2, 1, 1, true}, {5, 2, 2, 1, 1, true}, include, 0);
        CheckAvg({5, 2, 2, 0, 0, true}, {7, 3, 3, 0, 0, true}, include, 0);
    }
}

TEST_F(AclnnPooling, AvgPoolDivisorOverride) {
    CheckAvg({5, 3, 1, 1, 1, false}, {4, 2, 2, 0, 0, false}, true, 4);
    CheckAvg({5, 3, 2, 1, 1, true}, {4, 2, 2, 1, 1, true}, false, 5);
}

TEST_F(AclnnPooling, AvgPoolOfAChwTensorInFloat16WithDefaultStrides) {
    // [C, H, W] is labelled NCL; empty strides take the kernel.
    const int64_t c = 2, h = 4, w = 6;
    const std::vector<float> x = Values(c * h * w, 3);
    std::vector<uint16_t> bits;
    for (float v : x)
        bits.push_back(Half(v));
    DeviceTensor<uint16_t> self({c, h, w}, bits, ACL_FLOAT16, ACL_FORMAT_NCL);
    DeviceTensor<uint16_t> out({c, 2, 2}, std::vector<uint16_t>(8, 0), ACL_FLOAT16, ACL_FORMAT_NCL);
    IntArray kernel({2, 3}), none({}), pad({0});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnAvgPool2dGetWorkspaceSize(self.get(), kernel.get(), none.get(), pad.get(), false,
                                             true, 0, 2, out.get(), &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnAvgPool2d, workspace, executor), ACLNN_SUCCESS);
    const std::vector<uint16_t> got = out.Read();
    const std::vector<double> want =
        AvgReference(x, c, {h, 2, 2, 0, 0, false}, {w, 3, 3, 0, 0, false}, true, 0);
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(FromHalf(got[i]), want[i], 2e-3 * std::max(1.0, std::fabs(want[i]))) << i;
}

TEST_F(AclnnPooling, AvgPoolReadsAStridedView) {
    // self [1, 2, 3, 3] read from a channels-last buffer.
    const std::vector<float> x = Values(18, 9);
    std::vector<float> storage(18);
    for (int64_t ch = 0; ch < 2; ++ch)
        for (int64_t i = 0; i < 9; ++i)
            storage[static_cast<size_t>(i * 2 + ch)] = x[static_cast<size_t>(ch * 9 + i)];
    DeviceTensor<float> self({1, 2, 3, 3}, {18, 1, 6, 2}, 0, storage, ACL_FLOAT, ACL_FORMAT_NCHW);
    DeviceTensor<float> out({1, 2, 2, 2}, std::vector<float>(8, 0), ACL_FLOAT, ACL_FORMAT_NCHW);
    IntArray kernel({2}), stride({1}), pad({0});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnAvgPool2dGetWorkspaceSize(self.get(), kernel.get(), stride.get(), pad.get(),
                                             false, true, 0, 0, out.get(), &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnAvgPool2d, workspace, executor), ACLNN_SUCCESS);
    const std::vector<double> want =
        AvgReference(x, 2, {3, 2, 1, 0, 0, false}, {3, 2, 1, 0, 0, false}, true, 0);
    const std::vector<float> got = out.Read();
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 1e-6) << i;
}

TEST_F(AclnnPooling, AvgPoolBadInputs) {
    DeviceTensor<float> self({1, 2, 4, 4}, Values(32, 1), ACL_FLOAT, ACL_FORMAT_NCHW);
    DeviceTensor<float> out({1, 2, 2, 2}, std::vector<float>(8, 0), ACL_FLOAT, ACL_FORMAT_NCHW);
    IntArray k2({2, 2}), s2({2, 2}), p0({0, 0});
    auto first = [](const aclTensor* s, const aclIntArray* k, const aclIntArray* st,
                    const aclIntArray* p, aclTensor* o, int8_t cube = 0) {
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus rc = aclnnAvgPool2dGetWorkspaceSize(s, k, st, p, false, true, 0, cube, o,
                                                              &workspace, &executor);
        if (rc == ACLNN_SUCCESS) aclDestroyAclOpExecutor(executor);
        return rc;
    };
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), p0.get(), out.get()), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    // Nulls.
    EXPECT_EQ(first(nullptr, k2.get(), s2.get(), p0.get(), out.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(first(self.get(), nullptr, s2.get(), p0.get(), out.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(first(self.get(), k2.get(), nullptr, p0.get(), out.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), nullptr, out.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), p0.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
    // Types and formats.
    DeviceTensor<int32_t> ints({1, 2, 4, 4}, std::vector<int32_t>(32, 1), ACL_INT32,
                               ACL_FORMAT_NCHW);
    DeviceTensor<int32_t> int_out({1, 2, 2, 2}, std::vector<int32_t>(8, 0), ACL_INT32,
                                  ACL_FORMAT_NCHW);
    DeviceTensor<uint16_t> half_out({1, 2, 2, 2}, std::vector<uint16_t>(8, 0), ACL_FLOAT16,
                                    ACL_FORMAT_NCHW);
    DeviceTensor<float> nd({1, 2, 4, 4}, Values(32, 1), ACL_FLOAT, ACL_FORMAT_ND);
    DeviceTensor<float> ncl4({1, 2, 4, 4}, Values(32, 1), ACL_FLOAT, ACL_FORMAT_NCL);
    DeviceTensor<float> five({1, 1, 2, 4, 4}, Values(32, 1), ACL_FLOAT, ACL_FORMAT_NCDHW);
    EXPECT_EQ(first(ints.get(), k2.get(), s2.get(), p0.get(), int_out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), p0.get(), half_out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(nd.get(), k2.get(), s2.get(), p0.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(ncl4.get(), k2.get(), s2.get(), p0.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(five.get(), k2.get(), s2.get(), p0.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
    // Windows: a kernel of 0, a stride of 0, a negative padding, a padding over half the
    // kernel, three kernel values.
    IntArray k0({0, 2}), s0({2, 0}), pn({-1, 0}), p2({2, 0}), k3({2, 2, 2}), none({});
    EXPECT_EQ(first(self.get(), k0.get(), s2.get(), p0.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s0.get(), p0.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), pn.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), p2.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k3.get(), s2.get(), p0.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), none.get(), s2.get(), p0.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), none.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), p0.get(), out.get(), 7),
              ACLNN_ERR_PARAM_INVALID);
    // The output shape, stated in the message; empty channels.
    DeviceTensor<float> wrong({1, 2, 3, 2}, std::vector<float>(12, 0), ACL_FLOAT, ACL_FORMAT_NCHW);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), p0.get(), wrong.get()),
              ACLNN_ERR_PARAM_INVALID);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("[1, 2, 2, 2]"), std::string::npos) << message;
    DeviceTensor<float> no_channels({1, 0, 4, 4}, {}, ACL_FLOAT, ACL_FORMAT_NCHW);
    DeviceTensor<float> no_out({1, 0, 2, 2}, {}, ACL_FLOAT, ACL_FORMAT_NCHW);
    EXPECT_EQ(first(no_channels.get(), k2.get(), s2.get(), p0.get(), no_out.get()),
              ACLNN_ERR_PARAM_INVALID);
    // An empty batch is fine.
    DeviceTensor<float> no_batch({0, 2, 4, 4}, {}, ACL_FLOAT, ACL_FORMAT_NCHW);
    DeviceTensor<float> no_batch_out({0, 2, 2, 2}, {}, ACL_FLOAT, ACL_FORMAT_NCHW);
    EXPECT_EQ(first(no_batch.get(), k2.get(), s2.get(), p0.get(), no_batch_out.get()),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
}

TEST_F(AclnnPooling, AvgPoolBackwardSpreadsEachGradientOverItsWindow) {
    for (bool include : {true, false}) {
        CheckAvgBackward({7, 3, 2, 1, 1, false}, {6, 2, 1, 1, 1, false}, include, 0);
        // Overlapping windows, ceil mode with an overhanging last window.
        CheckAvgBackward({6, 3, 2, 1, 1, true}, {5, 2, 2, 1, 1, true}, include, 0);
    }
    CheckAvgBackward({5, 3, 2, 1, 1, true}, {4, 2, 2, 1, 1, true}, false, 5);
}

TEST_F(AclnnPooling, AvgPoolBackwardOfAChwTensorInFloat16) {
    // [C, H, W] (NCL), 2x2 windows, stride 2: each gradient splits in four equal shares.
    const int64_t c = 2, h = 4, w = 4;
    std::vector<uint16_t> grad;
    for (int i = 0; i < c * 2 * 2; ++i)
        grad.push_back(Half(static_cast<float>(4 * (i + 1))));
    DeviceTensor<uint16_t> grad_out({c, 2, 2}, grad, ACL_FLOAT16, ACL_FORMAT_NCL);
    DeviceTensor<uint16_t> self({c, h, w}, std::vector<uint16_t>(c * h * w, 0), ACL_FLOAT16,
                                ACL_FORMAT_NCL);
    DeviceTensor<uint16_t> grad_in({c, h, w}, std::vector<uint16_t>(c * h * w, 0), ACL_FLOAT16,
                                   ACL_FORMAT_NCL);
    IntArray kernel({2}), none({}), zero({0});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnAvgPool2dBackwardGetWorkspaceSize(grad_out.get(), self.get(), kernel.get(),
                                                     none.get(), zero.get(), false, true, 0, 0,
                                                     grad_in.get(), &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnAvgPool2dBackward, workspace, executor), ACLNN_SUCCESS);
    const std::vector<uint16_t> got = grad_in.Read();
    for (int64_t p = 0; p < c; ++p)
        for (int64_t y = 0; y < h; ++y)
            for (int64_t x = 0; x < w; ++x) {
                const int64_t window = (p * 2 + y / 2) * 2 + x / 2;
                EXPECT_EQ(FromHalf(got[static_cast<size_t>((p * h + y) * w + x)]),
                          static_cast<float>(window + 1))
                    << p << "," << y << "," << x;
            }
}

TEST_F(AclnnPooling, AvgPoolBackwardBadInputs) {
    DeviceTensor<float> self({1, 1, 4, 4}, std::vector<float>(16, 0), ACL_FLOAT, ACL_FORMAT_NCHW);
    DeviceTensor<float> grad_out({1, 1, 2, 2}, std::vector<float>(4, 1), ACL_FLOAT,
                                 ACL_FORMAT_NCHW);
    DeviceTensor<float> wrong_grad({1, 1, 3, 3}, std::vector<float>(9, 1), ACL_FLOAT,
                                   ACL_FORMAT_NCHW);
    DeviceTensor<float> grad_in({1, 1, 4, 4}, std::vector<float>(16, 0), ACL_FLOAT,
                                ACL_FORMAT_NCHW);
    DeviceTensor<float> small_in({1, 1, 3, 4}, std::vector<float>(12, 0), ACL_FLOAT,
                                 ACL_FORMAT_NCHW);
    DeviceTensor<uint16_t> half_in({1, 1, 4, 4}, std::vector<uint16_t>(16, 0), ACL_FLOAT16,
                                   ACL_FORMAT_NCHW);
    IntArray kernel({2}), stride({2}), pad({0}), big_pad({2});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    auto plan = [&](const aclTensor* g, const aclTensor* s, const aclIntArray* p, aclTensor* gi) {
        return aclnnAvgPool2dBackwardGetWorkspaceSize(g, s, kernel.get(), stride.get(), p, false,
                                                      true, 0, 0, gi, &workspace, &executor);
    };
    EXPECT_EQ(plan(nullptr, self.get(), pad.get(), grad_in.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(grad_out.get(), self.get(), pad.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(wrong_grad.get(), self.get(), pad.get(), grad_in.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("gradOutput"), std::string::npos);
    EXPECT_EQ(plan(grad_out.get(), self.get(), pad.get(), small_in.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(grad_out.get(), self.get(), pad.get(), half_in.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("gradInput"), std::string::npos);
    EXPECT_EQ(plan(grad_out.get(), self.get(), big_pad.get(), grad_in.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("padding"), std::string::npos);
}

TEST_F(AclnnPooling, MaxPoolWithOnnxPadsAndCeilMode) {
    // pads [top, left, bottom, right] = [1, 0, 0, 2]; kernel (3, 3), strides (2, 2), ceil.
    const int64_t n = 2, c = 2, h = 7, w = 6;
    const Axis ay{h, 3, 2, 1, 0, true}, ax{w, 3, 2, 0, 2, true};
    const std::vector<float> x = Values(n * c * h * w, 5);
    DeviceTensor<float> self({n, c, h, w}, x, ACL_FLOAT, ACL_FORMAT_NCHW);
    const int64_t oh = ay.Out(), ow = ax.Out();
    DeviceTensor<float> out({n, c, oh, ow}, std::vector<float>(n * c * oh * ow, 0), ACL_FLOAT,
                            ACL_FORMAT_NCHW);
    IntArray kernel({3, 3}), strides({2, 2}), pads({1, 0, 0, 2}), dilations({1, 1});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMaxPoolGetWorkspaceSize(self.get(), kernel.get(), strides.get(), 0, pads.get(),
                                           dilations.get(), 1, out.get(), &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnMaxPool, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), MaxReference(x, n * c, ay, ax));
}

TEST_F(AclnnPooling, LargerPoolsSplitOverWorkers) {
    const int64_t n = 2, c = 24, h = 33, w = 31;
    const Axis ay{h, 3, 2, 1, 1, true}, ax{w, 3, 2, 1, 1, true};
    const std::vector<float> x = Values(n * c * h * w, 17);
    DeviceTensor<float> self({n, c, h, w}, x, ACL_FLOAT, ACL_FORMAT_NCHW);
    const int64_t oh = ay.Out(), ow = ax.Out();
    DeviceTensor<float> max_out({n, c, oh, ow}, std::vector<float>(n * c * oh * ow, 0), ACL_FLOAT,
                                ACL_FORMAT_NCHW);
    DeviceTensor<float> avg_out({n, c, oh, ow}, std::vector<float>(n * c * oh * ow, 0), ACL_FLOAT,
                                ACL_FORMAT_NCHW);
    IntArray kernel({3, 3}), strides({2, 2}), pads({1, 1}), none({});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMaxPoolGetWorkspaceSize(self.get(), kernel.get(), strides.get(), 0, pads.get(),
                                           none.get(), 1, max_out.get(), &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnMaxPool, workspace, executor), ACLNN_SUCCESS);
    ASSERT_EQ(
        aclnnAvgPool2dGetWorkspaceSize(self.get(), kernel.get(), strides.get(), pads.get(), true,
                                       false, 0, 0, avg_out.get(), &workspace, &executor),
        ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnAvgPool2d, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(max_out.Read(), MaxReference(x, n * c, ay, ax));
    const std::vector<float> got = avg_out.Read();
    const std::vector<double> want = AvgReference(x, n * c, ay, ax, false, 0);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 1e-5) << i;
}

TEST_F(AclnnPooling, MaxPoolOfIntegersIsExact) {
    // int64 values beyond 2^53 differ in their last bits; int32 extremes.
    const int64_t big = (int64_t{1} << 60) + 1;
    const std::vector<int64_t> x64{big, big + 2, big + 1, -5, 7, big - 1, 3, big + 3, 0};
    DeviceTensor<int64_t> self({1, 1, 3, 3}, x64, ACL_INT64, ACL_FORMAT_NCHW);
    DeviceTensor<int64_t> out({1, 1, 2, 2}, std::vector<int64_t>(4, 0), ACL_INT64, ACL_FORMAT_NCHW);
    IntArray kernel({2}), none({});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMaxPoolGetWorkspaceSize(self.get(), kernel.get(), none.get(), 0, none.get(),
                                           none.get(), 0, out.get(), &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnMaxPool, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<int64_t>{big + 2, big + 2, big + 3, big + 3}));

    const std::vector<int32_t> x32{INT32_MIN, INT32_MIN + 1, -3, INT32_MAX};
    DeviceTensor<int32_t> self32({1, 2, 2}, x32, ACL_INT32, ACL_FORMAT_ND);  // [C, H, W]
    DeviceTensor<int32_t> out32({1, 1, 2}, std::vector<int32_t>(2, 0), ACL_INT32, ACL_FORMAT_ND);
    IntArray k21({2, 1});
    ASSERT_EQ(aclnnMaxPoolGetWorkspaceSize(self32.get(), k21.get(), none.get(), 0, none.get(),
                                           none.get(), 0, out32.get(), &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnMaxPool, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out32.Read(), (std::vector<int32_t>{-3, INT32_MAX}));
}

TEST_F(AclnnPooling, MaxPoolPropagatesNanAndRunsInFloat16) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> x{1, nan, 3, 4, -1, -2, -3, -4, 5, 6, 7, 8, -9, -8, -7, -6};
    std::vector<uint16_t> bits;
    for (float v : x)  // (aclFloatToFloat16 makes NaN the largest finite value)
        bits.push_back(std::isnan(v) ? uint16_t{0x7e00} : Half(v));
    DeviceTensor<uint16_t> self({1, 1, 4, 4}, bits, ACL_FLOAT16, ACL_FORMAT_NCHW);
    DeviceTensor<uint16_t> out({1, 1, 2, 2}, std::vector<uint16_t>(4, 0), ACL_FLOAT16,
                               ACL_FORMAT_NCHW);
    IntArray kernel({2, 2}), strides({2}), none({});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMaxPoolGetWorkspaceSize(self.get(), kernel.get(), strides.get(), 0, none.get(),
                                           none.get(), 0, out.get(), &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnMaxPool, workspace, executor), ACLNN_SUCCESS);
    const std::vector<uint16_t> got = out.Read();
    EXPECT_EQ(got[0] & 0x7c00, 0x7c00);  // a float16 NaN (aclFloat16ToFloat decodes none)
    EXPECT_NE(got[0] & 0x3ff, 0);
    EXPECT_EQ(FromHalf(got[1]), 4.0f);
    EXPECT_EQ(FromHalf(got[2]), 6.0f);
    EXPECT_EQ(FromHalf(got[3]), 8.0f);
}

TEST_F(AclnnPooling, MaxPoolBadInputs) {
    DeviceTensor<float> self({1, 2, 4, 4}, Values(32, 1), ACL_FLOAT, ACL_FORMAT_NCHW);
    DeviceTensor<float> out({1, 2, 2, 2}, std::vector<float>(8, 0), ACL_FLOAT, ACL_FORMAT_NCHW);
    IntArray k2({2, 2}), s2({2, 2}), none({}), ones({1, 1});
    auto first = [](const aclTensor* s, const aclIntArray* k, const aclIntArray* st,
                    int64_t auto_pad, const aclIntArray* p, const aclIntArray* d, aclTensor* o) {
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus rc =
            aclnnMaxPoolGetWorkspaceSize(s, k, st, auto_pad, p, d, 0, o, &workspace, &executor);
        if (rc == ACLNN_SUCCESS) aclDestroyAclOpExecutor(executor);
        return rc;
    };
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, none.get(), ones.get(), out.get()),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    // Nulls.
    EXPECT_EQ(first(nullptr, k2.get(), s2.get(), 0, none.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(first(self.get(), nullptr, s2.get(), 0, none.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(first(self.get(), k2.get(), nullptr, 0, none.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, nullptr, ones.get(), out.get()),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, none.get(), nullptr, out.get()),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, none.get(), ones.get(), nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    // autoPad other than NOTSET, dilations other than 1, wrong array lengths.
    IntArray two({2, 2}), three({1, 1, 1}), k0({0, 2}), s0({0});
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 1, none.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, none.get(), two.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), three.get(), s2.get(), 0, none.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), none.get(), s2.get(), 0, none.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), three.get(), 0, none.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, three.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, none.get(), three.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k0.get(), s2.get(), 0, none.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s0.get(), 0, none.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    // Pads adding up to more than the kernel, negative pads.
    IntArray over({1, 0, 2, 0}), negative({-1});
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, over.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, negative.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    // Types, formats, ranks and the output shape.
    DeviceTensor<double> doubles({1, 2, 4, 4}, std::vector<double>(32, 1), ACL_DOUBLE,
                                 ACL_FORMAT_NCHW);
    DeviceTensor<double> double_out({1, 2, 2, 2}, std::vector<double>(8, 0), ACL_DOUBLE,
                                    ACL_FORMAT_NCHW);
    DeviceTensor<int32_t> int_out({1, 2, 2, 2}, std::vector<int32_t>(8, 0), ACL_INT32,
                                  ACL_FORMAT_NCHW);
    DeviceTensor<float> nd_out({1, 2, 2, 2}, std::vector<float>(8, 0), ACL_FLOAT, ACL_FORMAT_ND);
    DeviceTensor<float> flat({2, 16}, Values(32, 1), ACL_FLOAT, ACL_FORMAT_ND);
    DeviceTensor<float> wrong({1, 2, 3, 2}, std::vector<float>(12, 0), ACL_FLOAT, ACL_FORMAT_NCHW);
    EXPECT_EQ(first(doubles.get(), k2.get(), s2.get(), 0, none.get(), ones.get(), double_out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, none.get(), ones.get(), int_out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, none.get(), ones.get(), nd_out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(flat.get(), k2.get(), s2.get(), 0, none.get(), ones.get(), out.get()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(first(self.get(), k2.get(), s2.get(), 0, none.get(), ones.get(), wrong.get()),
              ACLNN_ERR_PARAM_INVALID);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("[1, 2, 2, 2]"), std::string::npos) << message;
}

}  // namespace
