// aclnnop/aclnn_weight_quant_batch_matmul_v2.h: y = x @ ((q + offset) * scale) + bias for int8
// and int4 weights, laid out as llama.cpp's CANN backend passes them (the weight and the scales
// as transposed views of their row-major [n, ...] storage), against a double reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"

using aclnn_test::FromHalf;
using aclnn_test::Half;
using aclnn_test::RunPhase2;

namespace {

// Device bytes and a tensor viewing them.
class Raw {
 public:
    Raw(const void* bytes, size_t size, std::vector<int64_t> shape, std::vector<int64_t> strides,
        aclDataType dtype, int64_t storage_elements, int64_t offset = 0)
        : size_(size == 0 ? 1 : size) {
        EXPECT_EQ(aclrtMalloc(&dev_, size_, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        if (size > 0) {
            EXPECT_EQ(aclrtMemcpy(dev_, size, bytes, size, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        }
        const int64_t storage[1] = {storage_elements};
        tensor_ = aclCreateTensor(shape.data(), shape.size(), dtype,
                                  strides.empty() ? nullptr : strides.data(), offset, ACL_FORMAT_ND,
                                  storage, 1, dev_);
        EXPECT_NE(tensor_, nullptr);
    }
    ~Raw() {
        aclDestroyTensor(tensor_);
        aclrtFree(dev_);
    }
    Raw(const Raw&) = delete;
    Raw& operator=(const Raw&) = delete;
    aclTensor* get() const { return tensor_; }
    std::vector<uint16_t> Halves() const {
        std::vector<uint16_t> out(size_ / 2);
        EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(out.data(), out.size() * 2, dev_, out.size() * 2,
                              ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return out;
    }

 private:
    size_t size_;
    void* dev_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

template <class T>
Raw Of(const std::vector<T>& values, std::vector<int64_t> shape, std::vector<int64_t> strides,
       aclDataType dtype) {
    return Raw(values.data(), values.size() * sizeof(T), std::move(shape), std::move(strides),
               dtype, static_cast<int64_t>(values.size()));
}

// One problem in ggml's layout: x [m, k] float16, q stored [n, k] (viewed [k, n]), the
// scales stored [n, groups] (viewed [groups, n]).
struct Problem {
    int64_t m, k, n, group;  // group 0: one scale per column
    bool int4;
    std::vector<double> x, scale, offset;  // x [m][k], scale/offset [g][n]
    std::vector<int> q;                    // q[j * k + i]: element (i, j)

    Problem(int64_t m_, int64_t k_, int64_t n_, int64_t group_, bool int4_)
        : m(m_), k(k_), n(n_), group(group_), int4(int4_) {
        uint32_t state = 12345u + static_cast<uint32_t>(m * 7 + k * 3 + n);
        auto next = [&state] {
            state = state * 1664525u + 1013904223u;
            return static_cast<int>((state >> 24) & 0xff);
        };
        for (int64_t i = 0; i < m * k; ++i)
            x.push_back((next() % 9 - 4) * 0.25);
        for (int64_t i = 0; i < n * k; ++i)
            q.push_back(int4 ? next() % 16 - 8 : next() - 128);
        for (int64_t i = 0; i < Groups() * n; ++i)
            scale.push_back((next() % 8 + 1) * 0.0625);
        for (int64_t i = 0; i < Groups() * n; ++i)
            offset.push_back(next() % 5 - 2);
    }
    int64_t Groups() const { return group == 0 ? 1 : (k + group - 1) / group; }

    std::vector<double> Reference(bool with_offset, const std::vector<double>& bias) const {
        std::vector<double> y(static_cast<size_t>(m * n));
        for (int64_t r = 0; r < m; ++r) {
            for (int64_t j = 0; j < n; ++j) {
                double sum = bias.empty() ? 0.0 : bias[static_cast<size_t>(j)];
                for (int64_t i = 0; i < k; ++i) {
                    const int64_t g = group == 0 ? 0 : i / group;
                    const size_t s = static_cast<size_t>(g * n + j);
                    const double w =
                        (q[static_cast<size_t>(j * k + i)] + (with_offset ? offset[s] : 0.0)) *
                        scale[s];
                    sum += x[static_cast<size_t>(r * k + i)] * w;
                }
                y[static_cast<size_t>(r * n + j)] = sum;
            }
        }
        return y;
    }

    // The weight's storage: int8 bytes, or int4 packed (element 2e in the low nibble).
    std::vector<uint8_t> WeightBytes() const {
        if (!int4) {
            std::vector<uint8_t> bytes;
            for (int v : q)
                bytes.push_back(static_cast<uint8_t>(static_cast<int8_t>(v)));
            return bytes;
        }
        std::vector<uint8_t> bytes(q.size() / 2, 0);
        for (size_t e = 0; e < q.size(); ++e) {
            const auto nibble = static_cast<uint8_t>(q[e] & 0x0f);
            bytes[e / 2] |= (e % 2 == 0) ? nibble : static_cast<uint8_t>(nibble << 4);
        }
        return bytes;
    }
    // Scale (or offset) values stored [n, groups] row-major, as float16.
    std::vector<uint16_t> Stored(const std::vector<double>& values) const {
        std::vector<uint16_t> out(values.size());
        for (int64_t g = 0; g < Groups(); ++g) {
            for (int64_t j = 0; j < n; ++j) {
                out[static_cast<size_t>(j * Groups() + g)] =
                    Half(static_cast<float>(values[static_cast<size_t>(g * n + j)]));
            }
        }
        return out;
    }
};

class AclnnWeightQuant : public aclnn_test::AclnnTest {
 protected:
    // y_columns: y is a column-major view (the product is then computed transposed).
    void Check(const Problem& p, bool with_offset, bool with_bias, bool y_columns = false) {
        std::vector<uint16_t> hx;
        for (double v : p.x)
            hx.push_back(Half(static_cast<float>(v)));
        Raw x = Of(hx, {p.m, p.k}, {}, ACL_FLOAT16);
        const std::vector<uint8_t> wb = p.WeightBytes();
        Raw w(wb.data(), wb.size(), {p.k, p.n}, {1, p.k}, p.int4 ? ACL_INT4 : ACL_INT8, p.k * p.n);
        const int64_t g = p.Groups();
        std::vector<int64_t> scale_shape =
            p.group == 0 ? std::vector<int64_t>{p.n} : std::vector<int64_t>{g, p.n};
        std::vector<int64_t> scale_strides =
            p.group == 0 ? std::vector<int64_t>{1} : std::vector<int64_t>{1, g};
        Raw scale = Of(p.Stored(p.scale), scale_shape, scale_strides, ACL_FLOAT16);
        Raw offset = Of(p.Stored(p.offset), scale_shape, scale_strides, ACL_FLOAT16);
        std::vector<double> bias;
        std::vector<uint16_t> hb;
        for (int64_t j = 0; j < p.n; ++j) {
            bias.push_back((j % 5 - 2) * 0.5);
            hb.push_back(Half(static_cast<float>(bias.back())));
        }
        Raw b = Of(hb, {p.n}, {}, ACL_FLOAT16);
        Raw y = Of(std::vector<uint16_t>(static_cast<size_t>(p.m * p.n), 0), {p.m, p.n},
                   y_columns ? std::vector<int64_t>{1, p.m} : std::vector<int64_t>{}, ACL_FLOAT16);
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
                      x.get(), w.get(), scale.get(), with_offset ? offset.get() : nullptr, nullptr,
                      nullptr, with_bias ? b.get() : nullptr, static_cast<int>(p.group), y.get(),
                      &workspace, &executor),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        EXPECT_GT(workspace, 0u);
        ASSERT_EQ(RunPhase2(aclnnWeightQuantBatchMatmulV2, workspace, executor), ACLNN_SUCCESS);
        const std::vector<uint16_t> got = y.Halves();
        const std::vector<double> want =
            p.Reference(with_offset, with_bias ? bias : std::vector<double>{});
        for (int64_t r = 0; r < p.m; ++r) {
            for (int64_t j = 0; j < p.n; ++j) {
                const size_t at = static_cast<size_t>(y_columns ? j * p.m + r : r * p.n + j);
                const double expected = want[static_cast<size_t>(r * p.n + j)];
                EXPECT_NEAR(FromHalf(got[at]), expected, std::fabs(expected) / 1024 + 1e-3)
                    << "y[" << r << "][" << j << "]";
            }
        }
    }
};

TEST_F(AclnnWeightQuant, Int8PerGroupScalesAsLlamaCppPassesThem) {
    Check(Problem(3, 96, 40, 32, false), false, false);
}

TEST_F(AclnnWeightQuant, Int4PerGroupScalesReadTheLowNibbleFirst) {
    Check(Problem(2, 64, 24, 32, true), false, false);
    Check(Problem(1, 128, 17, 64, true), false, false);
}

TEST_F(AclnnWeightQuant, PerChannelScalesOffsetsAndBias) {
    Check(Problem(4, 32, 20, 0, false), true, true);
    Check(Problem(4, 64, 20, 32, true), true, true);
}

TEST_F(AclnnWeightQuant, AColumnMajorOutputGetsTheBiasDownItsColumns) {
    Check(Problem(5, 64, 12, 32, false), false, true, true);
}

TEST_F(AclnnWeightQuant, APerTensorScaleAndARowMajorWeight) {
    const int64_t m = 2, k = 4, n = 3;
    std::vector<uint16_t> hx = {Half(1),  Half(2), Half(3), Half(4),
                                Half(-1), Half(0), Half(1), Half(0)};
    const std::vector<int8_t> q = {1, 2, 3, -1, -2, -3, 4, 5, 6, 0, 1, 0};  // [k, n] row-major
    Raw x = Of(hx, {m, k}, {}, ACL_FLOAT16);
    Raw w = Of(q, {k, n}, {}, ACL_INT8);
    Raw scale = Of(std::vector<uint16_t>{Half(0.5f)}, {1}, {}, ACL_FLOAT16);
    Raw y = Of(std::vector<uint16_t>(6, 0), {m, n}, {}, ACL_FLOAT16);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(x.get(), w.get(), scale.get(), nullptr,
                                                            nullptr, nullptr, nullptr, 0, y.get(),
                                                            &workspace, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(RunPhase2(aclnnWeightQuantBatchMatmulV2, workspace, executor), ACLNN_SUCCESS);
    // x @ q = [[1-2+12+0, 2-4+15+4, 3-6+18+0], [-1+4+0, -2+5+0, -3+6+0]] = [[11,17,15],[3,3,3]]
    std::vector<float> got;
    for (uint16_t h : y.Halves())
        got.push_back(FromHalf(h));
    EXPECT_EQ(got, (std::vector<float>{5.5f, 8.5f, 7.5f, 1.5f, 1.5f, 1.5f}));
}

TEST_F(AclnnWeightQuant, BadInputsAreRefused) {
    Raw x = Of(std::vector<uint16_t>(2 * 64, 0), {2, 64}, {}, ACL_FLOAT16);
    Raw w = Of(std::vector<int8_t>(64 * 8, 1), {64, 8}, {}, ACL_INT8);
    Raw scale = Of(std::vector<uint16_t>(2 * 8, Half(1)), {2, 8}, {}, ACL_FLOAT16);
    Raw y = Of(std::vector<uint16_t>(2 * 8, 0), {2, 8}, {}, ACL_FLOAT16);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    auto call = [&](const aclTensor* xx, const aclTensor* ww, const aclTensor* ss,
                    const aclTensor* quant_scale, int group, const aclTensor* yy) {
        return aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(xx, ww, ss, nullptr, quant_scale,
                                                             nullptr, nullptr, group, yy, &ws, &ex);
    };
    ASSERT_EQ(call(x.get(), w.get(), scale.get(), nullptr, 32, y.get()), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(ex);
    EXPECT_EQ(call(nullptr, w.get(), scale.get(), nullptr, 32, y.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(call(x.get(), nullptr, scale.get(), nullptr, 32, y.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(call(x.get(), w.get(), nullptr, nullptr, 32, y.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(call(x.get(), w.get(), scale.get(), nullptr, 32, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    // Group sizes: multiples of 32 below k only; the scale's shape must follow the mode.
    EXPECT_EQ(call(x.get(), w.get(), scale.get(), nullptr, 16, y.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(call(x.get(), w.get(), scale.get(), nullptr, 64, y.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(call(x.get(), w.get(), scale.get(), nullptr, 0, y.get()), ACLNN_ERR_PARAM_INVALID);
    // Output quantization is not implemented.
    Raw qs = Of(std::vector<uint64_t>(8, 1), {8}, {}, ACL_UINT64);
    EXPECT_EQ(call(x.get(), w.get(), scale.get(), qs.get(), 32, y.get()), ACLNN_ERR_PARAM_INVALID);
    // Types and shapes.
    Raw xf = Of(std::vector<float>(2 * 64, 0), {2, 64}, {}, ACL_FLOAT);
    EXPECT_EQ(call(xf.get(), w.get(), scale.get(), nullptr, 32, y.get()), ACLNN_ERR_PARAM_INVALID);
    Raw wf = Of(std::vector<uint16_t>(64 * 8, 0), {64, 8}, {}, ACL_FLOAT16);
    EXPECT_EQ(call(x.get(), wf.get(), scale.get(), nullptr, 32, y.get()), ACLNN_ERR_PARAM_INVALID);
    Raw wk = Of(std::vector<int8_t>(32 * 8, 1), {32, 8}, {}, ACL_INT8);
    EXPECT_EQ(call(x.get(), wk.get(), scale.get(), nullptr, 32, y.get()), ACLNN_ERR_PARAM_INVALID);
    Raw yw = Of(std::vector<uint16_t>(2 * 9, 0), {2, 9}, {}, ACL_FLOAT16);
    EXPECT_EQ(call(x.get(), w.get(), scale.get(), nullptr, 32, yw.get()), ACLNN_ERR_PARAM_INVALID);
    Raw empty = Of(std::vector<uint16_t>{}, {0, 64}, {}, ACL_FLOAT16);
    Raw y0 = Of(std::vector<uint16_t>{}, {0, 8}, {}, ACL_FLOAT16);
    EXPECT_EQ(call(empty.get(), w.get(), scale.get(), nullptr, 32, y0.get()),
              ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
