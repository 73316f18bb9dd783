// acl/ops/acl_cblas.h: C = alpha * op(A) * op(B) + beta * C (and y = alpha * op(A) * x + beta * y)
// on row-major device matrices, enqueued on a stream. Results are checked against a plain
// double-precision product of the same inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "test_support.h"

namespace {

// A host array mirrored in device memory.
template <class T>
struct DeviceArray {
    std::vector<T> host;
    void* dev = nullptr;
    explicit DeviceArray(std::vector<T> values) : host(std::move(values)) {
        EXPECT_EQ(aclrtMalloc(&dev, host.size() * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST),
                  ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(dev, host.size() * sizeof(T), host.data(), host.size() * sizeof(T),
                              ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
    }
    ~DeviceArray() { aclrtFree(dev); }
    std::vector<T> Read() const {
        std::vector<T> out(host.size());
        EXPECT_EQ(aclrtMemcpy(out.data(), out.size() * sizeof(T), dev, out.size() * sizeof(T),
                              ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return out;
    }
};

std::vector<aclFloat16> Halves(size_t n, std::mt19937& rng) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<aclFloat16> v(n);
    for (auto& h : v)
        h = aclFloatToFloat16(dist(rng));
    return v;
}

std::vector<int8_t> Bytes(size_t n, std::mt19937& rng) {
    std::uniform_int_distribution<int> dist(-128, 127);
    std::vector<int8_t> v(n);
    for (auto& b : v)
        b = static_cast<int8_t>(dist(rng));
    return v;
}

double F(aclFloat16 h) {
    return aclFloat16ToFloat(h);
}
double F(int8_t v) {
    return v;
}

// Element (r, c) of op(X) for a row-major X with leading dimension ld.
template <class T>
double Op(const std::vector<T>& x, int ld, bool trans, int r, int c) {
    return F(trans ? x[c * ld + r] : x[r * ld + c]);
}

class Cblas : public DeviceTest {
 protected:
    std::mt19937 rng_{42};
};

TEST_F(Cblas, GemmExHalfInputsGiveAHalfProduct) {
    const int m = 5, n = 7, k = 9;
    DeviceArray<aclFloat16> a(Halves(m * k, rng_)), b(Halves(k * n, rng_)), c(Halves(m * n, rng_));
    const aclFloat16 alpha = aclFloatToFloat16(1.5f), beta = aclFloatToFloat16(0.5f);
    ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &alpha, a.dev, k,
                            ACL_FLOAT16, b.dev, n, ACL_FLOAT16, &beta, c.dev, n, ACL_FLOAT16,
                            ACL_COMPUTE_HIGH_PRECISION, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const auto out = c.Read();
    for (int r = 0; r < m; ++r) {
        for (int col = 0; col < n; ++col) {
            double want = 0.5 * F(c.host[r * n + col]);
            for (int i = 0; i < k; ++i)
                want += 1.5 * Op(a.host, k, false, r, i) * Op(b.host, n, false, i, col);
            EXPECT_NEAR(F(out[r * n + col]), want, 1e-2 + 2e-3 * std::abs(want)) << r << "," << col;
        }
    }
}

// CANN documents lda, ldb and ldc as reserved, "can only be -1": packed operands.
TEST_F(Cblas, GemmExTakesMinusOneLeadingDimensionsAsPacked) {
    const int m = 3, n = 4, k = 5;
    DeviceArray<aclFloat16> a(Halves(m * k, rng_)), b(Halves(k * n, rng_)),
        c_packed(std::vector<aclFloat16>(m * n, aclFloatToFloat16(0.0f))),
        c_explicit(std::vector<aclFloat16>(m * n, aclFloatToFloat16(0.0f)));
    const aclFloat16 alpha = aclFloatToFloat16(1.0f), beta = aclFloatToFloat16(0.0f);
    ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &alpha, a.dev, -1,
                            ACL_FLOAT16, b.dev, -1, ACL_FLOAT16, &beta, c_packed.dev, -1,
                            ACL_FLOAT16, ACL_COMPUTE_HIGH_PRECISION, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &alpha, a.dev, k,
                            ACL_FLOAT16, b.dev, n, ACL_FLOAT16, &beta, c_explicit.dev, n,
                            ACL_FLOAT16, ACL_COMPUTE_HIGH_PRECISION, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const auto packed = c_packed.Read();
    EXPECT_EQ(packed, c_explicit.Read());
    double want = 0;
    for (int i = 0; i < k; ++i)
        want += Op(a.host, k, false, 0, i) * Op(b.host, n, false, i, 0);
    EXPECT_NEAR(F(packed[0]), want, 1e-2 + 2e-3 * std::abs(want));
}

// The same for GEMV's lda, incx and incy.
TEST_F(Cblas, GemvExTakesMinusOneLeadingDimensionAndStridesAsPacked) {
    const int m = 3, n = 5;
    DeviceArray<int8_t> a(Bytes(m * n, rng_)), x(Bytes(n, rng_));
    DeviceArray<int32_t> y(std::vector<int32_t>(m, 0));
    const int32_t alpha = 1, beta = 0;
    ASSERT_EQ(aclblasGemvEx(ACL_TRANS_N, m, n, &alpha, a.dev, -1, ACL_INT8, x.dev, -1, ACL_INT8,
                            &beta, y.dev, -1, ACL_INT32, ACL_COMPUTE_HIGH_PRECISION, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const auto out = y.Read();
    for (int r = 0; r < m; ++r) {
        int32_t want = 0;
        for (int i = 0; i < n; ++i)
            want += a.host[r * n + i] * x.host[i];
        EXPECT_EQ(out[r], want) << "row " << r;
    }
}

TEST_F(Cblas, GemmExTransposesEachOperandAsAsked) {
    const int m = 4, n = 3, k = 6;
    for (int t = 0; t < 8; ++t) {
        const bool ta = t & 1, tb = t & 2, tc = t & 4;
        SCOPED_TRACE(testing::Message() << "transA " << ta << " transB " << tb << " transC " << tc);
        // Stored shapes with one spare column each, so the leading dimensions matter.
        const int lda = (ta ? m : k) + 1, ldb = (tb ? k : n) + 1, ldc = (tc ? m : n) + 1;
        DeviceArray<aclFloat16> a(Halves((ta ? k : m) * lda, rng_)),
            b(Halves((tb ? n : k) * ldb, rng_));
        DeviceArray<float> c(std::vector<float>((tc ? n : m) * ldc, NAN));  // beta 0: never read
        const float alpha = 1.0f, beta = 0.0f;
        ASSERT_EQ(aclblasGemmEx(ta ? ACL_TRANS_T : ACL_TRANS_N, tb ? ACL_TRANS_T : ACL_TRANS_N,
                                tc ? ACL_TRANS_T : ACL_TRANS_N, m, n, k, &alpha, a.dev, lda,
                                ACL_FLOAT16, b.dev, ldb, ACL_FLOAT16, &beta, c.dev, ldc, ACL_FLOAT,
                                ACL_COMPUTE_HIGH_PRECISION, nullptr),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
        const auto out = c.Read();
        for (int r = 0; r < m; ++r) {
            for (int col = 0; col < n; ++col) {
                double want = 0;
                for (int i = 0; i < k; ++i)
                    want += Op(a.host, lda, ta, r, i) * Op(b.host, ldb, tb, i, col);
                const float got = tc ? out[col * ldc + r] : out[r * ldc + col];
                EXPECT_NEAR(got, want, 1e-4) << r << "," << col;
            }
        }
    }
}

TEST_F(Cblas, S8gemmIsExactInInt32) {
    const int m = 6, n = 5, k = 300;  // sums beyond int16
    DeviceArray<int8_t> a(Bytes(m * k, rng_)), b(Bytes(k * n, rng_));
    DeviceArray<int32_t> c(std::vector<int32_t>(m * n, 7));
    const int32_t alpha = 3, beta = -2;
    ASSERT_EQ(aclblasS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &alpha,
                            static_cast<int8_t*>(a.dev), k, static_cast<int8_t*>(b.dev), n, &beta,
                            static_cast<int32_t*>(c.dev), n, ACL_COMPUTE_HIGH_PRECISION, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const auto out = c.Read();
    for (int r = 0; r < m; ++r) {
        for (int col = 0; col < n; ++col) {
            int64_t sum = 0;
            for (int i = 0; i < k; ++i)
                sum += int64_t{a.host[r * k + i]} * b.host[i * n + col];
            EXPECT_EQ(out[r * n + col], 3 * sum - 2 * 7);
        }
    }
}

TEST_F(Cblas, S8gemmIsExactAtTheExtremesAndBeyondWhatAFloatHolds) {
    // -128 * -128 everywhere: pairs of products pass int16, and k = 2500 sums pass 2^24.
    const int m = 2, n = 3, k = 2500;
    DeviceArray<int8_t> a(std::vector<int8_t>(m * k, -128)), b(std::vector<int8_t>(k * n, -128));
    DeviceArray<int32_t> c(std::vector<int32_t>(m * n, 0));
    const int32_t alpha = 1, beta = 0;
    ASSERT_EQ(aclblasS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &alpha,
                            static_cast<int8_t*>(a.dev), k, static_cast<int8_t*>(b.dev), n, &beta,
                            static_cast<int32_t*>(c.dev), n, ACL_COMPUTE_HIGH_PRECISION, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    for (int32_t value : c.Read())
        EXPECT_EQ(value, 2500 * 16384);
}

TEST_F(Cblas, GemmExInt8InputsMayGiveAFloatProduct) {
    const int m = 3, n = 4, k = 8;
    DeviceArray<int8_t> a(Bytes(m * k, rng_)), b(Bytes(k * n, rng_));
    DeviceArray<float> c(std::vector<float>(m * n, 0.0f));
    const float alpha = 0.25f, beta = 0.0f;
    ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &alpha, a.dev, k,
                            ACL_INT8, b.dev, n, ACL_INT8, &beta, c.dev, n, ACL_FLOAT,
                            ACL_COMPUTE_LOW_PRECISION, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const auto out = c.Read();
    double sum = 0;
    for (int i = 0; i < k; ++i)
        sum += F(a.host[i]) * F(b.host[i * n]);
    EXPECT_FLOAT_EQ(out[0], static_cast<float>(0.25 * sum));
}

TEST_F(Cblas, GemvWalksStridedVectorsBothWays) {
    const int m = 4, n = 6, incx = 2, incy = 3;
    DeviceArray<aclFloat16> a(Halves(m * n, rng_));
    for (bool trans : {false, true}) {
        SCOPED_TRACE(trans ? "ACL_TRANS_T" : "ACL_TRANS_N");
        const int xs = trans ? m : n, ys = trans ? n : m;
        DeviceArray<aclFloat16> x(Halves((xs - 1) * incx + 1, rng_)),
            y(Halves((ys - 1) * incy + 1, rng_));
        const aclFloat16 alpha = aclFloatToFloat16(2.0f), beta = aclFloatToFloat16(1.0f);
        ASSERT_EQ(aclblasHgemv(trans ? ACL_TRANS_T : ACL_TRANS_N, m, n, &alpha,
                               static_cast<aclFloat16*>(a.dev), n, static_cast<aclFloat16*>(x.dev),
                               incx, &beta, static_cast<aclFloat16*>(y.dev), incy,
                               ACL_COMPUTE_HIGH_PRECISION, nullptr),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
        const auto out = y.Read();
        for (int r = 0; r < ys; ++r) {
            double want = F(y.host[r * incy]);
            for (int i = 0; i < xs; ++i)
                want += 2.0 * Op(a.host, n, trans, r, i) * F(x.host[i * incx]);
            EXPECT_NEAR(F(out[r * incy]), want, 1e-2 + 2e-3 * std::abs(want));
        }
        // Elements between the strided ones are left alone.
        EXPECT_EQ(out[1], y.host[1]);
    }
}

TEST_F(Cblas, S8gemvAndGemvExAgree) {
    const int m = 3, n = 5;
    DeviceArray<int8_t> a(Bytes(m * n, rng_)), x(Bytes(n, rng_));
    DeviceArray<int32_t> y1(std::vector<int32_t>(m, 1)), y2(std::vector<int32_t>(m, 1));
    const int32_t alpha = 1, beta = 1;
    ASSERT_EQ(aclblasS8gemv(ACL_TRANS_N, m, n, &alpha, static_cast<int8_t*>(a.dev), n,
                            static_cast<int8_t*>(x.dev), 1, &beta, static_cast<int32_t*>(y1.dev), 1,
                            ACL_COMPUTE_HIGH_PRECISION, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclblasGemvEx(ACL_TRANS_N, m, n, &alpha, a.dev, n, ACL_INT8, x.dev, 1, ACL_INT8,
                            &beta, y2.dev, 1, ACL_INT32, ACL_COMPUTE_HIGH_PRECISION, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const auto r1 = y1.Read(), r2 = y2.Read();
    EXPECT_EQ(r1, r2);
    int32_t want = 1;
    for (int i = 0; i < n; ++i)
        want += a.host[i] * x.host[i];
    EXPECT_EQ(r1[0], want);
}

TEST_F(Cblas, RunsInStreamOrderAfterTheCopiesBeforeIt) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    const int m = 2, n = 2, k = 2;
    DeviceArray<aclFloat16> a(std::vector<aclFloat16>(4, aclFloatToFloat16(0.0f)));
    DeviceArray<aclFloat16> b(Halves(4, rng_)), c(Halves(4, rng_));
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 4 * sizeof(aclFloat16)), ACL_SUCCESS);
    auto* identity = static_cast<aclFloat16*>(pinned);
    for (int i = 0; i < 4; ++i)
        identity[i] = aclFloatToFloat16(i % 3 == 0 ? 1.0f : 0.0f);
    ASSERT_EQ(aclrtMemcpyAsync(a.dev, 8, pinned, 8, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    const aclFloat16 one = aclFloatToFloat16(1.0f), zero = aclFloatToFloat16(0.0f);
    ASSERT_EQ(
        aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &one,
                     static_cast<aclFloat16*>(a.dev), k, static_cast<aclFloat16*>(b.dev), n, &zero,
                     static_cast<aclFloat16*>(c.dev), n, ACL_COMPUTE_HIGH_PRECISION, stream),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(c.Read(), b.host);  // I * B
    aclrtFreeHost(pinned);
    aclrtDestroyStream(stream);
}

TEST_F(Cblas, ScalarsInDeviceMemoryAreReadWhenTheTaskRuns) {
    const int m = 1, n = 1, k = 1;
    DeviceArray<float> alpha(std::vector<float>{1.0f}), beta(std::vector<float>{0.0f});
    DeviceArray<aclFloat16> a(std::vector<aclFloat16>{aclFloatToFloat16(2.0f)});
    DeviceArray<aclFloat16> b(std::vector<aclFloat16>{aclFloatToFloat16(3.0f)});
    DeviceArray<float> c(std::vector<float>{0.0f});
    const float four = 4.0f;
    // The stream writes alpha = 4 before the product runs.
    ASSERT_EQ(aclrtMemcpyAsync(alpha.dev, 4, &four, 4, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, alpha.dev, a.dev, 1,
                            ACL_FLOAT16, b.dev, 1, ACL_FLOAT16, beta.dev, c.dev, 1, ACL_FLOAT,
                            ACL_COMPUTE_HIGH_PRECISION, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(c.Read()[0], 24.0f);
}

class CblasBadInput : public Cblas {
 protected:
    // Operands are made once the fixture has set the device.
    void SetUp() override {
        Cblas::SetUp();
        a_ = std::make_unique<DeviceArray<aclFloat16>>(std::vector<aclFloat16>(4));
        b_ = std::make_unique<DeviceArray<aclFloat16>>(std::vector<aclFloat16>(4));
        c_ = std::make_unique<DeviceArray<aclFloat16>>(std::vector<aclFloat16>(4));
    }
    void TearDown() override {
        a_.reset(), b_.reset(), c_.reset();
        Cblas::TearDown();
    }
    aclError GemmEx(aclTransType ta, int m, int lda, aclDataType ab, aclDataType c_type,
                    const void* a, void* c) {
        return aclblasGemmEx(ta, ACL_TRANS_N, ACL_TRANS_N, m, 2, 2, &alpha_, a, lda, ab, b_->dev, 2,
                             ab, &beta_, c, 2, c_type, ACL_COMPUTE_HIGH_PRECISION, nullptr);
    }
    std::unique_ptr<DeviceArray<aclFloat16>> a_, b_, c_;
    float alpha_ = 1, beta_ = 0;
};

TEST_F(CblasBadInput, FractalLayoutsAreAFormatMismatch) {
    EXPECT_EQ(GemmEx(ACL_TRANS_NZ, 2, 2, ACL_FLOAT16, ACL_FLOAT16, a_->dev, c_->dev),
              ACL_ERROR_FORMAT_NOT_MATCH);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_TRANS_NZ");
}

TEST_F(CblasBadInput, UnsupportedTypeCombinationsAreNamed) {
    EXPECT_EQ(GemmEx(ACL_TRANS_N, 2, 2, ACL_FLOAT, ACL_FLOAT, a_->dev, c_->dev),
              ACL_ERROR_UNSUPPORTED_DATA_TYPE);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_FLOAT, ACL_FLOAT and ACL_FLOAT");
    EXPECT_EQ(GemmEx(ACL_TRANS_N, 2, 2, ACL_INT8, ACL_FLOAT16, a_->dev, c_->dev),
              ACL_ERROR_UNSUPPORTED_DATA_TYPE);
}

TEST_F(CblasBadInput, HostMemoryIsNotAnOperand) {
    std::vector<aclFloat16> host(4);
    EXPECT_EQ(GemmEx(ACL_TRANS_N, 2, 2, ACL_FLOAT16, ACL_FLOAT16, host.data(), c_->dev),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("device memory");
}

TEST_F(CblasBadInput, AnOperandLargerThanItsAllocationIsRefused) {
    // 100 rows of A do not fit in an allocation of 4 halves (padded as aclrtMalloc pads).
    EXPECT_EQ(GemmEx(ACL_TRANS_N, 100, 2, ACL_FLOAT16, ACL_FLOAT16, a_->dev, c_->dev),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("matrixA");
}

TEST_F(CblasBadInput, ShortLeadingDimensionsAndEmptyShapesAreInvalid) {
    EXPECT_EQ(GemmEx(ACL_TRANS_N, 2, 1, ACL_FLOAT16, ACL_FLOAT16, a_->dev, c_->dev),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("lda is 1");
    EXPECT_EQ(GemmEx(ACL_TRANS_N, 0, 2, ACL_FLOAT16, ACL_FLOAT16, a_->dev, c_->dev),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("m is 0");
}

TEST_F(CblasBadInput, NullScalarsAndUnknownComputeTypesAreInvalid) {
    EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, nullptr, a_->dev, 2,
                            ACL_FLOAT16, b_->dev, 2, ACL_FLOAT16, &beta_, c_->dev, 2, ACL_FLOAT16,
                            ACL_COMPUTE_HIGH_PRECISION, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, &alpha_, a_->dev, 2,
                            ACL_FLOAT16, b_->dev, 2, ACL_FLOAT16, &beta_, c_->dev, 2, ACL_FLOAT16,
                            static_cast<aclComputeType>(9), nullptr),
              ACL_ERROR_INVALID_PARAM);
}

TEST_F(CblasBadInput, HandleCreationChecksItsArguments) {
    aclopHandle* handle = nullptr;
    EXPECT_EQ(aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2,
                                          ACL_COMPUTE_HIGH_PRECISION, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_T, 2, 2, 2,
                                          ACL_COMPUTE_HIGH_PRECISION, &handle),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("transC is ACL_TRANS_T");
    EXPECT_EQ(
        aclblasCreateHandleForGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, ACL_FLOAT,
                                     ACL_FLOAT, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, &handle),
        ACL_ERROR_UNSUPPORTED_DATA_TYPE);
    EXPECT_EQ(handle, nullptr);
}

// ---- Handles: a planned GEMM (inputs A, B, C, alpha, beta; output C) run repeatedly ----

// aclopExecWithHandle on a GEMM handle; alpha and beta are device memory, as CANN's GEMM reads.
template <class TAB, class TC>
aclError RunGemmHandle(aclopHandle* handle, const DeviceArray<TAB>& a, const DeviceArray<TAB>& b,
                       DeviceArray<TC>& c, const DeviceArray<TC>& alpha,
                       const DeviceArray<TC>& beta) {
    aclDataBuffer* in[] = {aclCreateDataBuffer(a.dev, a.host.size() * sizeof(TAB)),
                           aclCreateDataBuffer(b.dev, b.host.size() * sizeof(TAB)),
                           aclCreateDataBuffer(c.dev, c.host.size() * sizeof(TC)),
                           aclCreateDataBuffer(alpha.dev, sizeof(TC)),
                           aclCreateDataBuffer(beta.dev, sizeof(TC))};
    aclDataBuffer* out[] = {aclCreateDataBuffer(c.dev, c.host.size() * sizeof(TC))};
    aclError rc = aclopExecWithHandle(handle, 5, in, 1, out, nullptr);
    if (rc == ACL_SUCCESS) rc = aclrtSynchronizeStream(nullptr);
    for (aclDataBuffer* buffer : in)
        aclDestroyDataBuffer(buffer);
    aclDestroyDataBuffer(out[0]);
    return rc;
}

TEST_F(Cblas, AnHgemmHandleRunsOnNewMatricesEachTime) {
    const int m = 3, n = 4, k = 5;
    aclopHandle* handle = nullptr;
    ASSERT_EQ(aclblasCreateHandleForHgemm(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, m, n, k,
                                          ACL_COMPUTE_HIGH_PRECISION, &handle),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    DeviceArray<aclFloat16> alpha({aclFloatToFloat16(1.0f)}), beta({aclFloatToFloat16(2.0f)});
    for (int round = 0; round < 2; ++round) {
        DeviceArray<aclFloat16> a(Halves(k * m, rng_)), b(Halves(k * n, rng_)),
            c(Halves(m * n, rng_));
        ASSERT_EQ(RunGemmHandle(handle, a, b, c, alpha, beta), ACL_SUCCESS) << aclGetRecentErrMsg();
        const auto got = c.Read();
        for (int i = 0; i < m; ++i) {
            for (int j = 0; j < n; ++j) {
                double s = 2.0 * F(c.host[i * n + j]);
                for (int p = 0; p < k; ++p)
                    s += Op(a.host, m, true, i, p) * Op(b.host, n, false, p, j);
                EXPECT_NEAR(F(got[i * n + j]), s, 2e-2) << i << "," << j;
            }
        }
    }
    aclopDestroyHandle(handle);
}

TEST_F(Cblas, AnS8gemmHandleIsExactInInt32) {
    const int m = 2, n = 3, k = 4;
    aclopHandle* handle = nullptr;
    ASSERT_EQ(aclblasCreateHandleForS8gemm(ACL_TRANS_N, ACL_TRANS_T, ACL_TRANS_N, m, n, k,
                                           ACL_COMPUTE_HIGH_PRECISION, &handle),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    DeviceArray<int8_t> a(Bytes(m * k, rng_)), b(Bytes(n * k, rng_));
    DeviceArray<int32_t> c(std::vector<int32_t>(m * n, 7)), alpha({1}), beta({1});
    ASSERT_EQ(RunGemmHandle(handle, a, b, c, alpha, beta), ACL_SUCCESS) << aclGetRecentErrMsg();
    const auto got = c.Read();
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            int32_t s = 7;
            for (int p = 0; p < k; ++p)
                s += a.host[i * k + p] * b.host[j * k + p];
            EXPECT_EQ(got[i * n + j], s);
        }
    }
    aclopDestroyHandle(handle);
}

TEST_F(Cblas, AGemvExHandleMultipliesAMatrixByAVector) {
    const int m = 3, n = 5;  // A is m x n; transposed, y has n elements and x m
    aclopHandle* handle = nullptr;
    ASSERT_EQ(aclblasCreateHandleForGemvEx(ACL_TRANS_T, m, n, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT,
                                           ACL_COMPUTE_HIGH_PRECISION, &handle),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    DeviceArray<aclFloat16> a(Halves(m * n, rng_)), x(Halves(m, rng_));
    DeviceArray<float> y(std::vector<float>(n, 1.0f)), alpha({1.0f}), beta({0.0f});
    ASSERT_EQ(RunGemmHandle(handle, a, x, y, alpha, beta), ACL_SUCCESS) << aclGetRecentErrMsg();
    const auto got = y.Read();
    for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int i = 0; i < m; ++i)
            s += F(a.host[i * n + j]) * F(x.host[i]);
        EXPECT_NEAR(got[j], s, 1e-3) << j;
    }
    aclopDestroyHandle(handle);
}

TEST_F(Cblas, HgemvAndS8gemvHandlesAreMade) {
    aclopHandle* h = nullptr;
    aclopHandle* s = nullptr;
    EXPECT_EQ(aclblasCreateHandleForHgemv(ACL_TRANS_N, 4, 3, ACL_COMPUTE_HIGH_PRECISION, &h),
              ACL_SUCCESS);
    EXPECT_EQ(aclblasCreateHandleForS8gemv(ACL_TRANS_N, 4, 3, ACL_COMPUTE_LOW_PRECISION, &s),
              ACL_SUCCESS);
    EXPECT_NE(h, nullptr);
    EXPECT_NE(s, nullptr);
    aclopDestroyHandle(h);
    aclopDestroyHandle(s);
}

}  // namespace
