// The matrix-product operators (aclnnop/aclnn_mm.h, aclnn_matmul.h, aclnn_batch_matmul.h,
// aclnn_mv.h, aclnn_ger.h, aclnn_trans_matmul_weight.h) against a plain double-precision
// reference: float32, float16 and bfloat16, transposed, padded, offset and repeated views,
// batch broadcasting, FRACTAL_NZ-tagged weights, empty dimensions and every documented error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"

using aclnn_test::RunPhase2;

namespace {

using Phase1 = aclnnStatus (*)(const aclTensor*, const aclTensor*, aclTensor*, int8_t, uint64_t*,
                               aclOpExecutor**);
using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

size_t ElementSize(aclDataType dtype) {
    switch (dtype) {
        case ACL_FLOAT16:
        case ACL_BF16:
        case ACL_INT16:
            return 2;
        case ACL_INT8:
        case ACL_UINT8:
        case ACL_BOOL:
            return 1;
        case ACL_DOUBLE:
        case ACL_INT64:
            return 8;
        default:
            return 4;
    }
}

// Bfloat16 with rounding to nearest even (the tests' values are exact anyway).
uint16_t ToBf16(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

void Encode(double value, aclDataType dtype, unsigned char* at) {
    switch (dtype) {
        case ACL_FLOAT16: {
            const uint16_t h = aclnn_test::Half(static_cast<float>(value));
            std::memcpy(at, &h, 2);
            return;
        }
        case ACL_BF16: {
            const uint16_t h = ToBf16(static_cast<float>(value));
            std::memcpy(at, &h, 2);
            return;
        }
        case ACL_DOUBLE:
            std::memcpy(at, &value, 8);
            return;
        case ACL_INT32: {
            const auto i = static_cast<int32_t>(value);
            std::memcpy(at, &i, 4);
            return;
        }
        case ACL_INT64: {
            const auto i = static_cast<int64_t>(value);
            std::memcpy(at, &i, 8);
            return;
        }
        case ACL_INT8: {
            const auto i = static_cast<int8_t>(value);
            std::memcpy(at, &i, 1);
            return;
        }
        default: {
            const auto f = static_cast<float>(value);
            std::memcpy(at, &f, 4);
        }
    }
}

double Decode(aclDataType dtype, const unsigned char* at) {
    switch (dtype) {
        case ACL_FLOAT16: {
            uint16_t h;
            std::memcpy(&h, at, 2);
            return aclnn_test::FromHalf(h);
        }
        case ACL_BF16: {
            uint16_t h;
            std::memcpy(&h, at, 2);
            return aclnn_test::FromBf16(h);
        }
        case ACL_DOUBLE: {
            double d;
            std::memcpy(&d, at, 8);
            return d;
        }
        case ACL_INT32: {
            int32_t i;
            std::memcpy(&i, at, 4);
            return i;
        }
        case ACL_INT64: {
            int64_t i;
            std::memcpy(&i, at, 8);
            return static_cast<double>(i);
        }
        case ACL_INT8: {
            int8_t i;
            std::memcpy(&i, at, 1);
            return i;
        }
        default: {
            float f;
            std::memcpy(&f, at, 4);
            return f;
        }
    }
}

// A tensor argument: its view and where that view lies in the storage.
struct Spec {
    Spec(std::vector<int64_t> shape_, aclDataType dtype_ = ACL_FLOAT,
         std::vector<int64_t> strides_ = {}, int64_t offset_ = 0, aclFormat format_ = ACL_FORMAT_ND)
        : shape(std::move(shape_)),
          dtype(dtype_),
          strides(std::move(strides_)),
          offset(offset_),
          format(format_) {}

    std::vector<int64_t> shape;
    aclDataType dtype;
    std::vector<int64_t> strides;  // empty: contiguous
    int64_t offset;
    aclFormat format;
};

int64_t Numel(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}

constexpr double kSentinel = -77.0;  // storage outside the view

// Device storage holding a view's logical (row-major) values where the view puts them, and
// kSentinel everywhere else.
class Dev {
 public:
    Dev(const Spec& spec, const std::vector<double>& values) : spec_(spec) {
        if (spec_.strides.empty()) spec_.strides = aclnn_test::ContiguousStrides(spec_.shape);
        int64_t extent = 0;
        if (Numel(spec_.shape) > 0) {
            extent = 1;
            for (size_t d = 0; d < spec_.shape.size(); ++d) {
                extent += (spec_.shape[d] - 1) * spec_.strides[d];
            }
        }
        count_ = spec_.offset + extent + 1;  // one element of slack after the view
        const size_t size = ElementSize(spec_.dtype);
        std::vector<unsigned char> host(static_cast<size_t>(count_) * size);
        for (int64_t i = 0; i < count_; ++i)
            Encode(kSentinel, spec_.dtype, &host[i * size]);
        const int64_t n = Numel(spec_.shape);
        for (int64_t i = 0; i < n; ++i) {
            const double value = values.empty() ? 0.0 : values[static_cast<size_t>(i)];
            Encode(value, spec_.dtype, &host[static_cast<size_t>(Position(i)) * size]);
        }
        // What the view reads: a view repeating elements (stride 0) holds the last written.
        logical_.resize(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
            logical_[static_cast<size_t>(i)] =
                Decode(spec_.dtype, &host[static_cast<size_t>(Position(i)) * size]);
        }
        EXPECT_EQ(aclrtMalloc(&dev_, host.size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        EXPECT_EQ(
            aclrtMemcpy(dev_, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
        const int64_t storage[1] = {count_};
        tensor_ =
            aclCreateTensor(spec_.shape.data(), spec_.shape.size(), spec_.dtype,
                            spec_.strides.data(), spec_.offset, spec_.format, storage, 1, dev_);
        EXPECT_NE(tensor_, nullptr);
    }
    ~Dev() {
        aclDestroyTensor(tensor_);
        aclrtFree(dev_);
    }
    Dev(const Dev&) = delete;
    Dev& operator=(const Dev&) = delete;

    aclTensor* get() const { return tensor_; }
    void* dev() const { return dev_; }
    const std::vector<double>& logical() const { return logical_; }

    // The view's values after the work queued so far; also checks nothing outside the view
    // was written.
    std::vector<double> Read() const {
        EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
        const size_t size = ElementSize(spec_.dtype);
        std::vector<unsigned char> host(static_cast<size_t>(count_) * size);
        EXPECT_EQ(
            aclrtMemcpy(host.data(), host.size(), dev_, host.size(), ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
        const int64_t n = Numel(spec_.shape);
        std::vector<bool> inside(static_cast<size_t>(count_), false);
        std::vector<double> values(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
            const int64_t at = Position(i);
            inside[static_cast<size_t>(at)] = true;
            values[static_cast<size_t>(i)] =
                Decode(spec_.dtype, &host[static_cast<size_t>(at) * size]);
        }
        for (int64_t i = 0; i < count_; ++i) {
            if (!inside[static_cast<size_t>(i)]) {
                EXPECT_EQ(Decode(spec_.dtype, &host[static_cast<size_t>(i) * size]), kSentinel)
                    << "storage element " << i << " outside the view was written";
            }
        }
        return values;
    }

 private:
    int64_t Position(int64_t index) const {
        int64_t at = spec_.offset;
        for (size_t d = spec_.shape.size(); d-- > 0;) {
            at += (index % spec_.shape[d]) * spec_.strides[d];
            index /= spec_.shape[d];
        }
        return at;
    }

    Spec spec_;
    std::vector<double> logical_;
    int64_t count_ = 0;
    void* dev_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

// Deterministic values exact in float16 and bfloat16: multiples of 1/4 in [-1, 1].
std::vector<double> Values(int64_t n, uint32_t seed) {
    std::vector<double> v(static_cast<size_t>(n));
    uint32_t state = seed * 2654435761u + 12345u;
    for (auto& x : v) {
        state = state * 1664525u + 1013904223u;
        x = static_cast<double>(static_cast<int>((state >> 24) % 9) - 4) * 0.25;
    }
    return v;
}

// torch.matmul in double: shapes of any rank >= 1, batch dimensions broadcast.
std::vector<double> Reference(const std::vector<int64_t>& sa, const std::vector<double>& a,
                              const std::vector<int64_t>& sb, const std::vector<double>& b,
                              std::vector<int64_t>* result_shape) {
    std::vector<int64_t> ma = sa, mb = sb;
    if (ma.size() == 1) ma.insert(ma.begin(), 1);
    if (mb.size() == 1) mb.push_back(1);
    const size_t ra = ma.size(), rb = mb.size();
    const int64_t m = ma[ra - 2], k = ma[ra - 1], n = mb[rb - 1];
    const size_t batch = std::max(ra, rb) - 2;
    std::vector<int64_t> bshape(batch), ba(batch, 1), bb(batch, 1);
    for (size_t d = 0; d < batch; ++d) {
        const int64_t da = static_cast<int64_t>(d) - static_cast<int64_t>(batch - (ra - 2));
        const int64_t db = static_cast<int64_t>(d) - static_cast<int64_t>(batch - (rb - 2));
        ba[d] = da >= 0 ? ma[static_cast<size_t>(da)] : 1;
        bb[d] = db >= 0 ? mb[static_cast<size_t>(db)] : 1;
        bshape[d] = ba[d] == 1 ? bb[d] : ba[d];
    }
    const int64_t batches = Numel(bshape);
    std::vector<double> out(static_cast<size_t>(batches * m * n), 0.0);
    for (int64_t t = 0; t < batches; ++t) {
        int64_t ia = 0, ib = 0, rest = t, step_a = 1, step_b = 1;
        for (size_t d = batch; d-- > 0;) {
            const int64_t idx = rest % bshape[d];
            rest /= bshape[d];
            ia += (ba[d] == 1 ? 0 : idx) * step_a;
            ib += (bb[d] == 1 ? 0 : idx) * step_b;
            step_a *= ba[d];
            step_b *= bb[d];
        }
        for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = 0; j < n; ++j) {
                double sum = 0;
                for (int64_t p = 0; p < k; ++p) {
                    sum += a[static_cast<size_t>((ia * m + i) * k + p)] *
                           b[static_cast<size_t>((ib * k + p) * n + j)];
                }
                out[static_cast<size_t>((t * m + i) * n + j)] = sum;
            }
        }
    }
    *result_shape = bshape;
    if (sa.size() > 1) result_shape->push_back(m);
    if (sb.size() > 1) result_shape->push_back(n);
    return out;
}

void ExpectClose(const std::vector<double>& got, const std::vector<double>& want,
                 aclDataType dtype) {
    ASSERT_EQ(got.size(), want.size());
    const double relative = dtype == ACL_BF16      ? 1.0 / 128
                            : dtype == ACL_FLOAT16 ? 1.0 / 1024
                                                   : 1e-6;
    for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_NEAR(got[i], want[i], relative * std::fabs(want[i]) + 1e-6) << "element " << i;
    }
}

class AclnnMatmul : public aclnn_test::AclnnTest {
 protected:
    // Runs phase1/phase2 on a and b (given logical values) into out and checks the result
    // against the reference; returns the workspace size asked for.
    uint64_t Check(Phase1 phase1, Phase2 phase2, const Spec& a, const Spec& b, const Spec& out,
                   int8_t cube = 1) {
        Dev da(a, Values(Numel(a.shape), 1)), db(b, Values(Numel(b.shape), 2)), dout(out, {});
        std::vector<int64_t> shape;
        const std::vector<double> want =
            Reference(a.shape, da.logical(), b.shape, db.logical(), &shape);
        EXPECT_EQ(shape, out.shape);
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(phase1(da.get(), db.get(), dout.get(), cube, &workspace, &executor),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        if (executor == nullptr) return workspace;
        EXPECT_EQ(RunPhase2(phase2, workspace, executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectClose(dout.Read(), want, out.dtype);
        return workspace;
    }

    aclnnStatus Phase1Only(Phase1 phase1, const Spec& a, const Spec& b, const Spec& out,
                           int8_t cube = 1) {
        Dev da(a, {}), db(b, {}), dout(out, {});
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus rc = phase1(da.get(), db.get(), dout.get(), cube, &workspace, &executor);
        if (rc == ACLNN_SUCCESS) aclDestroyAclOpExecutor(executor);
        return rc;
    }
};

// ---- aclnnMm ----

TEST_F(AclnnMatmul, MmMultipliesTwoSmallMatrices) {
    aclnn_test::DeviceTensor<float> a({2, 3}, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
    aclnn_test::DeviceTensor<float> b({3, 2}, {7, 8, 9, 10, 11, 12}, ACL_FLOAT);
    aclnn_test::DeviceTensor<float> out({2, 2}, {0, 0, 0, 0}, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMmGetWorkspaceSize(a.get(), b.get(), out.get(), 0, &workspace, &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnMm, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{58, 64, 139, 154}));
}

TEST_F(AclnnMatmul, MmFloatOfSeveralSizes) {
    for (int64_t m : {1, 7, 33}) {
        for (int64_t n : {1, 5, 40}) {
            SCOPED_TRACE("m " + std::to_string(m) + " n " + std::to_string(n));
            Check(aclnnMmGetWorkspaceSize, aclnnMm, {{m, 70}}, {{70, n}}, {{m, n}});
        }
    }
}

TEST_F(AclnnMatmul, MmReadsTransposedPaddedAndOffsetViews) {
    // mat2 [k, n] as the transpose of a row-major [n, k] weight (ggml's and torch's .t()).
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{9, 20}}, {{20, 13}, ACL_FLOAT, {1, 20}}, {{9, 13}});
    // self transposed, stored after 3 elements; mat2 with padded rows.
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{9, 20}, ACL_FLOAT, {1, 9}, 3},
          {{20, 13}, ACL_FLOAT, {16, 1}, 5}, {{9, 13}});
    // Strided in both dimensions (every other element): packed into the workspace.
    const uint64_t workspace = Check(aclnnMmGetWorkspaceSize, aclnnMm,
                                     {{9, 20}, ACL_FLOAT, {42, 2}}, {{20, 13}}, {{9, 13}});
    EXPECT_GT(workspace, 0u);
}

TEST_F(AclnnMatmul, MmWritesPaddedTransposedAndStridedOutputs) {
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{6, 11}}, {{11, 5}}, {{6, 5}, ACL_FLOAT, {8, 1}, 2});
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{6, 11}}, {{11, 5}}, {{6, 5}, ACL_FLOAT, {1, 6}});
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{6, 11}}, {{11, 5}}, {{6, 5}, ACL_FLOAT, {12, 2}});
}

TEST_F(AclnnMatmul, MmFloat16AndBfloat16AccumulateInFloat) {
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{10, 48}, ACL_FLOAT16}, {{48, 12}, ACL_FLOAT16},
          {{10, 12}, ACL_FLOAT16});
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{10, 48}, ACL_FLOAT16},
          {{48, 12}, ACL_FLOAT16, {1, 48}}, {{10, 12}, ACL_FLOAT});
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{10, 48}, ACL_BF16}, {{48, 12}, ACL_BF16},
          {{10, 12}, ACL_BF16});
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{10, 48}, ACL_BF16}, {{48, 12}, ACL_BF16, {1, 48}},
          {{10, 12}, ACL_FLOAT});
    // float16 with float deduces float.
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{10, 48}, ACL_FLOAT16}, {{48, 12}, ACL_FLOAT},
          {{10, 12}, ACL_FLOAT});
}

// The current ops-nn documents deduce any two of the three types as the general table does:
// bfloat16 with float or float16 is float (ggml-cann multiplies float activations by bfloat16
// weights this way).
TEST_F(AclnnMatmul, Bfloat16WithAnotherFloatTypeDeducesFloat) {
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{10, 48}}, {{48, 12}, ACL_BF16, {1, 48}},
          {{10, 12}, ACL_FLOAT});
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{2, 10, 48}, ACL_BF16},
          {{48, 12}, ACL_FLOAT16}, {{2, 10, 12}, ACL_FLOAT});
}

TEST_F(AclnnMatmul, Float16SumsKeepFloatPrecisionUntilTheOneRounding) {
    // 2048 + 1 + 1 in float16 steps would stay 2048; accumulated in float it is 2050.
    aclnn_test::DeviceTensor<uint16_t> a(
        {1, 3}, {aclnn_test::Half(2048), aclnn_test::Half(1), aclnn_test::Half(1)}, ACL_FLOAT16);
    aclnn_test::DeviceTensor<uint16_t> b(
        {3, 1}, {aclnn_test::Half(1), aclnn_test::Half(1), aclnn_test::Half(1)}, ACL_FLOAT16);
    aclnn_test::DeviceTensor<uint16_t> out({1, 1}, {0}, ACL_FLOAT16);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMmGetWorkspaceSize(a.get(), b.get(), out.get(), 2, &workspace, &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnMm, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(aclnn_test::FromHalf(out.Read()[0]), 2050.0f);
}

TEST_F(AclnnMatmul, LargeFloat16ProductsPackInParallel) {
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{96, 256}, ACL_FLOAT16},
          {{256, 192}, ACL_FLOAT16, {1, 256}}, {{96, 192}, ACL_FLOAT16});
}

TEST_F(AclnnMatmul, EveryCubeMathTypeComputesAtFullPrecision) {
    for (int8_t cube = 0; cube <= 4; ++cube) {
        Check(aclnnMmGetWorkspaceSize, aclnnMm, {{4, 8}}, {{8, 3}}, {{4, 3}}, cube);
    }
}

TEST_F(AclnnMatmul, AFloatProductMayBeWrittenAsFloat16UnlessKeepDtype) {
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{4, 8}}, {{8, 3}}, {{4, 3}, ACL_FLOAT16}, 1);
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, {{4, 8}}, {{8, 3}}, {{4, 3}, ACL_FLOAT16}, 0),
              ACLNN_ERR_PARAM_INVALID);
}

// ---- FRACTAL_NZ weights (llama.cpp's CANN backend) ----

TEST_F(AclnnMatmul, AFractalNzTaggedWeightIsReadAsItsNdView) {
    // ggml: the weight [n, k] row-major, passed as mat2 [k, n] with swapped strides.
    const Spec weight{{24, 10}, ACL_FLOAT16, {1, 24}, 0, ACL_FORMAT_FRACTAL_NZ};
    Check(aclnnMmGetWorkspaceSize, aclnnMm, {{5, 24}, ACL_FLOAT16}, weight, {{5, 10}, ACL_FLOAT16});
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{2, 5, 24}, ACL_FLOAT16}, weight,
          {{2, 5, 10}, ACL_FLOAT16});
    Check(aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, {{3, 5, 24}},
          {{1, 24, 10}, ACL_FLOAT, {240, 1, 24}, 0, ACL_FORMAT_FRACTAL_NZ}, {{3, 5, 10}});
}

TEST_F(AclnnMatmul, FractalNzIsRefusedOnSelfOutAndMvsVector) {
    const Spec nz{{4, 4}, ACL_FLOAT, {}, 0, ACL_FORMAT_FRACTAL_NZ};
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, nz, {{4, 4}}, {{4, 4}}), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, {{4, 4}}, {{4, 4}}, nz), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnMvGetWorkspaceSize, {{4, 4}},
                         {{4}, ACL_FLOAT, {}, 0, ACL_FORMAT_FRACTAL_NZ}, {{4}}),
              ACLNN_ERR_PARAM_INVALID);
    // Other private formats stay refused on the weight too.
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, {{4, 4}},
                         {{4, 4}, ACL_FLOAT, {}, 0, ACL_FORMAT_NC1HWC0}, {{4, 4}}),
              ACLNN_ERR_PARAM_INVALID);
}

// ---- aclnnMatmul: torch.matmul's shapes ----

TEST_F(AclnnMatmul, MatmulOfTwoVectorsIsAScalar) {
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{17}}, {{17}}, {{}});
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{17}, ACL_FLOAT, {3}, 1},
          {{17}, ACL_FLOAT, {2}}, {{}});
}

TEST_F(AclnnMatmul, MatmulDropsTheDimensionsAddedToVectors) {
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{6}}, {{6, 4}}, {{4}});
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{5, 6}}, {{6}}, {{5}});
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{3, 5, 6}}, {{6}}, {{3, 5}});
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{6}}, {{2, 6, 4}}, {{2, 4}});
}

TEST_F(AclnnMatmul, MatmulBroadcastsBatchDimensions) {
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{3, 5, 6}}, {{6, 4}}, {{3, 5, 4}});
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{5, 6}}, {{3, 6, 4}}, {{3, 5, 4}});
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{2, 1, 5, 6}}, {{3, 6, 4}}, {{2, 3, 5, 4}});
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{2, 1, 1, 5, 6}, ACL_BF16},
          {{1, 3, 2, 6, 4}, ACL_BF16}, {{2, 3, 2, 5, 4}, ACL_BF16});
    // A batch repeated with stride 0 (an expanded view) and a transposed weight per batch.
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{4, 5, 6}, ACL_FLOAT, {0, 6, 1}},
          {{4, 6, 3}, ACL_FLOAT, {18, 1, 6}}, {{4, 5, 3}});
    // Batch strides that are not the matrices' sizes, and an output batch in the middle.
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{3, 5, 6}, ACL_FLOAT, {6, 18, 1}}, {{3, 6, 4}},
          {{3, 5, 4}, ACL_FLOAT, {4, 12, 1}});
}

TEST_F(AclnnMatmul, MatmulTakesEightDimensions) {
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{2, 1, 2, 1, 1, 2, 3, 4}},
          {{1, 2, 1, 1, 2, 1, 4, 2}}, {{2, 2, 2, 1, 2, 2, 3, 2}});
}

// ---- aclnnBatchMatMul ----

TEST_F(AclnnMatmul, BatchMatMulBroadcastsABatchOfOne) {
    Check(aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, {{4, 7, 9}}, {{4, 9, 5}},
          {{4, 7, 5}});
    Check(aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, {{4, 7, 9}}, {{1, 9, 5}},
          {{4, 7, 5}});
    Check(aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, {{1, 7, 9}, ACL_FLOAT16},
          {{4, 9, 5}, ACL_FLOAT16}, {{4, 7, 5}, ACL_FLOAT16});
    EXPECT_EQ(Phase1Only(aclnnBatchMatMulGetWorkspaceSize, {{3, 7, 9}}, {{4, 9, 5}}, {{4, 7, 5}}),
              ACLNN_ERR_PARAM_INVALID);
}

// ---- aclnnMv ----

TEST_F(AclnnMatmul, MvMultipliesAMatrixByAVector) {
    aclnn_test::DeviceTensor<float> a({2, 3}, {1, 2, 3, 4, 5, 6}, ACL_FLOAT);
    aclnn_test::DeviceTensor<float> v({3}, {7, 8, 9}, ACL_FLOAT);
    aclnn_test::DeviceTensor<float> out({2}, {0, 0}, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMvGetWorkspaceSize(a.get(), v.get(), out.get(), 1, &workspace, &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnMv, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<float>{50, 122}));
    Check(aclnnMvGetWorkspaceSize, aclnnMv, {{9, 30}, ACL_BF16, {1, 9}}, {{30}, ACL_BF16, {3}},
          {{9}, ACL_BF16, {2}});
    Check(aclnnMvGetWorkspaceSize, aclnnMv, {{9, 30}, ACL_FLOAT16}, {{30}, ACL_FLOAT16},
          {{9}, ACL_FLOAT16});
}

TEST_F(AclnnMatmul, MvWantsOneTypeAndItsRanks) {
    EXPECT_EQ(Phase1Only(aclnnMvGetWorkspaceSize, {{3, 4}}, {{4}, ACL_FLOAT16}, {{3}}),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnMvGetWorkspaceSize, {{3, 4}}, {{4, 1}}, {{3}}),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnMvGetWorkspaceSize, {{3, 4}}, {{5}}, {{3}}), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnMvGetWorkspaceSize, {{3, 4}}, {{4}}, {{4}}), ACLNN_ERR_PARAM_INVALID);
}

// ---- empty tensors ----

TEST_F(AclnnMatmul, AnEmptyReduceDimensionGivesZeros) {
    Dev a({{3, 0}}, {}), b({{0, 4}}, {});
    Dev out({{3, 4}}, std::vector<double>(12, 5.0));
    uint64_t workspace = 9;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMmGetWorkspaceSize(a.get(), b.get(), out.get(), 1, &workspace, &executor),
              ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    ASSERT_EQ(RunPhase2(aclnnMm, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), std::vector<double>(12, 0.0));
    Dev h({{2, 3, 0}, ACL_FLOAT16}, {}), g({{0}, ACL_FLOAT16}, {});
    Dev hout({{2, 3}, ACL_FLOAT16, {1, 2}}, std::vector<double>(6, 5.0));
    ASSERT_EQ(aclnnMatmulGetWorkspaceSize(h.get(), g.get(), hout.get(), 1, &workspace, &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnMatmul, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(hout.Read(), std::vector<double>(6, 0.0));
}

TEST_F(AclnnMatmul, EmptyOutputsSucceedWithNoWork) {
    const std::vector<std::vector<std::vector<int64_t>>> cases = {
        {{0, 5}, {5, 4}, {0, 4}}, {{3, 5}, {5, 0}, {3, 0}}, {{0, 0}, {0, 0}, {0, 0}}};
    for (const auto& c : cases) {
        Dev a({c[0]}, {}), b({c[1]}, {}), out({c[2]}, {});
        uint64_t workspace = 9;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(aclnnMmGetWorkspaceSize(a.get(), b.get(), out.get(), 1, &workspace, &executor),
                  ACLNN_SUCCESS);
        EXPECT_EQ(workspace, 0u);
        ASSERT_EQ(RunPhase2(aclnnMm, workspace, executor), ACLNN_SUCCESS);
    }
    Check(aclnnMatmulGetWorkspaceSize, aclnnMatmul, {{0, 5, 6}}, {{6, 4}}, {{0, 5, 4}});
    Check(aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, {{1, 5, 6}}, {{0, 6, 4}},
          {{0, 5, 4}});
}

// ---- workspace, reuse, aliasing ----

TEST_F(AclnnMatmul, AWorkspaceAskedForMustBeGiven) {
    Dev a({{8, 16}, ACL_FLOAT16}, Values(128, 3)), b({{16, 8}, ACL_FLOAT16}, Values(128, 4));
    Dev out({{8, 8}, ACL_FLOAT16}, {});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMmGetWorkspaceSize(a.get(), b.get(), out.get(), 1, &workspace, &executor),
              ACLNN_SUCCESS);
    ASSERT_GT(workspace, 0u);  // float16 is converted to float in the workspace
    EXPECT_EQ(aclnnMm(nullptr, workspace, executor, nullptr), ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(AclnnMatmul, ARepeatableExecutorRunsAgainOnNewAddresses) {
    Dev a({{6, 9}}, Values(54, 5)), b({{9, 4}, ACL_FLOAT, {1, 9}}, Values(36, 6));
    Dev a2({{6, 9}}, Values(54, 7)), out({{6, 4}}, {}), out2({{6, 4}}, {});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), b.get(), out.get(), 1, &workspace, &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    void* ws = nullptr;
    if (workspace > 0) {
        ASSERT_EQ(aclrtMalloc(&ws, workspace, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    ASSERT_EQ(aclnnMatmul(ws, workspace, executor, nullptr), ACLNN_SUCCESS);
    ASSERT_EQ(aclSetInputTensorAddr(executor, 0, a.get(), a2.dev()), ACLNN_SUCCESS);
    ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, out.get(), out2.dev()), ACLNN_SUCCESS);
    ASSERT_EQ(aclnnMatmul(ws, workspace, executor, nullptr), ACLNN_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    if (ws != nullptr) aclrtFree(ws);
    // b's logical values: Values(36, 6) as [9, 4] (the view reads them where Dev put them).
    std::vector<int64_t> shape;
    ExpectClose(out.Read(), Reference({6, 9}, Values(54, 5), {9, 4}, Values(36, 6), &shape),
                ACL_FLOAT);
    ExpectClose(out2.Read(), Reference({6, 9}, Values(54, 7), {9, 4}, Values(36, 6), &shape),
                ACL_FLOAT);
}

TEST_F(AclnnMatmul, AnOutputOverlappingAnInputIsComputedAsIfApart) {
    // out is self's own memory: self @ mat2 must read self before any of it is overwritten.
    const std::vector<double> va = Values(16, 8), vb = Values(16, 9);
    Dev a({{4, 4}}, va), b({{4, 4}}, vb);
    aclTensor* out = aclCreateTensor(std::vector<int64_t>{4, 4}.data(), 2, ACL_FLOAT, nullptr, 0,
                                     ACL_FORMAT_ND, std::vector<int64_t>{17}.data(), 1, a.dev());
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnMmGetWorkspaceSize(a.get(), b.get(), out, 1, &workspace, &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnMm, workspace, executor), ACLNN_SUCCESS);
    aclDestroyTensor(out);
    std::vector<int64_t> shape;
    ExpectClose(a.Read(), Reference({4, 4}, va, {4, 4}, vb, &shape), ACL_FLOAT);
}

// ---- documented errors ----

TEST_F(AclnnMatmul, NullArgumentsAreParamNullptr) {
    Dev a({{2, 3}}, {}), b({{3, 2}}, {}), out({{2, 2}}, {});
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    for (Phase1 phase1 :
         {Phase1(aclnnMmGetWorkspaceSize), Phase1(aclnnMatmulGetWorkspaceSize),
          Phase1(aclnnBatchMatMulGetWorkspaceSize), Phase1(aclnnMvGetWorkspaceSize)}) {
        EXPECT_EQ(phase1(nullptr, b.get(), out.get(), 1, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(phase1(a.get(), nullptr, out.get(), 1, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(phase1(a.get(), b.get(), nullptr, 1, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(phase1(a.get(), b.get(), out.get(), 1, nullptr, &ex), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(phase1(a.get(), b.get(), out.get(), 1, &ws, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    }
    EXPECT_EQ(ex, nullptr);
}

TEST_F(AclnnMatmul, MismatchedReduceDimensionsAreInvalidAndNamed) {
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, {{2, 3}}, {{4, 2}}, {{2, 2}}),
              ACLNN_ERR_PARAM_INVALID);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("do not multiply"), std::string::npos) << message;
    EXPECT_EQ(Phase1Only(aclnnMatmulGetWorkspaceSize, {{5}}, {{6}}, {{}}), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnBatchMatMulGetWorkspaceSize, {{2, 3, 4}}, {{2, 3, 4}}, {{2, 3, 4}}),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnMatmul, AWrongOutputShapeIsInvalid) {
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, {{2, 3}}, {{3, 4}}, {{2, 5}}),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnMatmulGetWorkspaceSize, {{3}}, {{3, 4}}, {{1, 4}}),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnMatmulGetWorkspaceSize, {{2, 1, 5, 6}}, {{3, 6, 4}}, {{2, 5, 4}}),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnBatchMatMulGetWorkspaceSize, {{1, 2, 3}}, {{4, 3, 5}}, {{1, 2, 5}}),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnMatmul, WrongRanksAreInvalid) {
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, {{1, 2, 3}}, {{3, 4}}, {{1, 2, 4}}),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, {{3}}, {{3, 4}}, {{4}}), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnBatchMatMulGetWorkspaceSize, {{2, 3}}, {{3, 4}}, {{2, 4}}),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnBatchMatMulGetWorkspaceSize, {{1, 1, 2, 3}}, {{1, 1, 3, 4}},
                         {{1, 1, 2, 4}}),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnMatmulGetWorkspaceSize, {{}}, {{3}}, {{3}}), ACLNN_ERR_PARAM_INVALID);
    const std::vector<int64_t> nine(9, 1);
    EXPECT_EQ(Phase1Only(aclnnMatmulGetWorkspaceSize, {nine}, {{1, 1}}, {nine}),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnMatmul, UnsupportedOrUndeducibleTypesAreInvalid) {
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, {{2, 3}, ACL_INT32}, {{3, 2}, ACL_INT32},
                         {{2, 2}, ACL_INT32}),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, {{2, 3}, ACL_DOUBLE}, {{3, 2}, ACL_DOUBLE},
                         {{2, 2}, ACL_DOUBLE}),
              ACLNN_ERR_PARAM_INVALID);
    // bfloat16 with float deduces float, which cannot be written as bfloat16.
    EXPECT_EQ(
        Phase1Only(aclnnMatmulGetWorkspaceSize, {{2, 3}, ACL_BF16}, {{3, 2}}, {{2, 2}, ACL_BF16}),
        ACLNN_ERR_PARAM_INVALID);
    // A float16 product may not be written as bfloat16.
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, {{2, 3}, ACL_FLOAT16}, {{3, 2}, ACL_FLOAT16},
                         {{2, 2}, ACL_BF16}),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnMatmul, ACubeMathTypeOutsideTheEnumIsInvalid) {
    EXPECT_EQ(Phase1Only(aclnnMmGetWorkspaceSize, {{2, 3}}, {{3, 2}}, {{2, 2}}, 5),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1Only(aclnnMatmulGetWorkspaceSize, {{2, 3}}, {{3, 2}}, {{2, 2}}, -1),
              ACLNN_ERR_PARAM_INVALID);
}

// ---- aclnnGer ----

class AclnnGer : public aclnn_test::AclnnTest {};

TEST_F(AclnnGer, MultipliesEveryPairOfElements) {
    Dev a({{3}, ACL_FLOAT, {2}, 1}, {1, 2, 3}), b({{4}, ACL_FLOAT16}, {1, -1, 0.5, 2});
    Dev out({{3, 4}, ACL_FLOAT, {1, 3}}, {});
    uint64_t workspace = 9;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnGerGetWorkspaceSize(a.get(), b.get(), out.get(), &workspace, &executor),
              ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    ASSERT_EQ(RunPhase2(aclnnGer, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<double>{1, -1, 0.5, 2, 2, -2, 1, 4, 3, -3, 1.5, 6}));
}

TEST_F(AclnnGer, IntegersStayIntegers) {
    Dev a({{2}, ACL_INT32}, {3, -4}), b({{3}, ACL_INT8}, {1, 2, 100});
    Dev out({{2, 3}, ACL_INT64}, {});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnGerGetWorkspaceSize(a.get(), b.get(), out.get(), &workspace, &executor),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnGer, workspace, executor), ACLNN_SUCCESS);
    EXPECT_EQ(out.Read(), (std::vector<double>{3, 6, 300, -4, -8, -400}));
}

TEST_F(AclnnGer, BadInputsAreRefused) {
    Dev a({{2}}, {}), b({{3}}, {}), out({{2, 3}}, {}), wrong({{3, 2}}, {}),
        ints({{2, 3}, ACL_INT32}, {});
    Dev matrix({{2, 1}}, {});
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(aclnnGerGetWorkspaceSize(nullptr, b.get(), out.get(), &ws, &ex),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnGerGetWorkspaceSize(a.get(), b.get(), nullptr, &ws, &ex),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnGerGetWorkspaceSize(a.get(), b.get(), wrong.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnGerGetWorkspaceSize(a.get(), b.get(), ints.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnGerGetWorkspaceSize(matrix.get(), b.get(), out.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
}

// ---- aclnnTransMatmulWeight and the weight sizes ----

class AclnnTransMatmulWeight : public aclnn_test::AclnnTest {};

TEST_F(AclnnTransMatmulWeight, KeepsTheWeightAsItIsAndStaysInStreamOrder) {
    const std::vector<double> values = Values(24, 11);
    Dev w({{4, 6}, ACL_FLOAT16}, values);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    uint64_t workspace = 9;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(w.get(), &workspace, &executor),
              ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    ASSERT_EQ(aclnnTransMatmulWeight(nullptr, 0, executor, stream), ACLNN_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(w.Read(), values);
    // A consumed executor is not run twice.
    EXPECT_EQ(aclnnTransMatmulWeight(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnTransMatmulWeight, TakesItsTypesRanksAndNdOnly) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    for (aclDataType ok : {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_FLOAT}) {
        Dev w({{4, 4}, ok}, {});
        EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(w.get(), &ws, &ex), ACLNN_SUCCESS);
        EXPECT_EQ(RunPhase2(aclnnTransMatmulWeight, ws, ex), ACLNN_SUCCESS);
    }
    Dev ints({{4, 4}, ACL_INT32}, {}), vector({{4}, ACL_FLOAT16}, {});
    Dev four({{1, 1, 4, 4}, ACL_FLOAT16}, {}), int8_four({{1, 1, 4, 4}, ACL_INT8}, {});
    Dev nz({{4, 4}, ACL_FLOAT16, {}, 0, ACL_FORMAT_FRACTAL_NZ}, {});
    EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(ints.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(vector.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(four.get(), &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(nz.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(int8_four.get(), &ws, &ex), ACLNN_SUCCESS);
    EXPECT_EQ(RunPhase2(aclnnTransMatmulWeight, ws, ex), ACLNN_SUCCESS);
    EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnTransMatmulWeightGetWorkspaceSize(ints.get(), nullptr, &ex),
              ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(AclnnTransMatmulWeight, WeightSizesAreElementCounts) {
    uint64_t size = 0;
    const int64_t square[] = {510, 510};
    aclIntArray* shape = aclCreateIntArray(square, 2);
    // CANN's documented example: [510, 510] is padded to [512, 512].
    EXPECT_EQ(aclnnCalculateMatmulWeightSize(shape, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 262144u);
    // openacl keeps ND layout: V2 counts the weight's own elements.
    EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(shape, ACL_FLOAT16, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 260100u);
    EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(shape, ACL_INT8, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 260100u);
    EXPECT_EQ(aclnnCalculateMatmulWeightSize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnCalculateMatmulWeightSize(shape, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(nullptr, ACL_FLOAT16, &size),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(shape, ACL_FLOAT16, nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    aclDestroyIntArray(shape);

    const int64_t batched[] = {3, 17, 33};
    shape = aclCreateIntArray(batched, 3);
    EXPECT_EQ(aclnnCalculateMatmulWeightSize(shape, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 3u * 32u * 48u);
    EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(shape, ACL_BF16, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 3u * 17u * 33u);
    aclDestroyIntArray(shape);

    const int64_t one[] = {8}, zero[] = {8, 0}, seven[] = {1, 1, 1, 1, 1, 2, 2};
    const std::initializer_list<std::pair<const int64_t*, uint64_t>> bad = {
        {one, 1}, {zero, 2}, {seven, 7}};
    for (const auto& [dims, n] : bad) {
        shape = aclCreateIntArray(dims, n);
        EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(shape, ACL_FLOAT16, &size),
                  ACLNN_ERR_PARAM_INVALID);
        aclDestroyIntArray(shape);
    }
    shape = aclCreateIntArray(one, 1);
    EXPECT_EQ(aclnnCalculateMatmulWeightSize(shape, &size), ACLNN_ERR_PARAM_INVALID);
    aclDestroyIntArray(shape);
}

}  // namespace
