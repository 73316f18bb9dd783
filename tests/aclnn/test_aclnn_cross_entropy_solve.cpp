// aclnnop/aclnn_softmax_cross_entropy_with_logits.h and aclnnop/aclnn_triangular_solve.h
// against plain double-precision references, with the inputs CANN documents as refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_triangular_solve.h"

using aclnn_test::DeviceTensor;
using aclnn_test::FromHalf;
using aclnn_test::Half;
using aclnn_test::RunPhase2;

namespace {

std::vector<double> Random(size_t n, uint32_t seed) {
    std::vector<double> v(n);
    uint32_t s = seed * 2654435761u + 7;
    for (double& x : v) {
        s = s * 1664525u + 1013904223u;
        x = static_cast<double>(s >> 8) / static_cast<double>(1u << 23) - 1.0;
    }
    return v;
}

template <class T, class U>
std::vector<T> As(const std::vector<U>& v) {
    return std::vector<T>(v.begin(), v.end());
}

// loss and backprop of rows x [rows][cols] against labels y.
void CrossEntropy(const std::vector<double>& x, const std::vector<double>& y, int rows, int cols,
                  std::vector<double>* loss, std::vector<double>* grad) {
    loss->assign(rows, 0.0);
    grad->assign(x.size(), 0.0);
    for (int r = 0; r < rows; ++r) {
        double max = -INFINITY, sum = 0;
        for (int c = 0; c < cols; ++c)
            max = std::max(max, x[r * cols + c]);
        for (int c = 0; c < cols; ++c)
            sum += std::exp(x[r * cols + c] - max);
        for (int c = 0; c < cols; ++c) {
            const double log_p = x[r * cols + c] - max - std::log(sum);
            (*loss)[r] -= y[r * cols + c] * log_p;
            (*grad)[r * cols + c] = std::exp(log_p) - y[r * cols + c];
        }
    }
}

template <class T>
void ExpectNear(const std::vector<T>& actual, const std::vector<double>& expected, double tol) {
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t i = 0; i < actual.size(); ++i)
        EXPECT_NEAR(actual[i], expected[i], tol * (1 + std::fabs(expected[i]))) << i;
}

class AclnnCrossEntropy : public aclnn_test::AclnnTest {
 protected:
    uint64_t workspace_ = 0;
    aclOpExecutor* executor_ = nullptr;
};

TEST_F(AclnnCrossEntropy, Float32MatchesTheReference) {
    const int rows = 3, cols = 5;
    std::vector<double> x = Random(rows * cols, 1), y = Random(rows * cols, 2);
    for (double& v : x)
        v *= 4;
    for (double& v : y)
        v = (v + 1) / 5;  // label weights in [0, 0.4)
    x = As<double>(As<float>(x));
    y = As<double>(As<float>(y));
    DeviceTensor<float> features({rows, cols}, As<float>(x), ACL_FLOAT);
    DeviceTensor<float> labels({rows, cols}, As<float>(y), ACL_FLOAT);
    DeviceTensor<float> loss({rows}, std::vector<float>(rows, 9), ACL_FLOAT);
    DeviceTensor<float> backprop({rows, cols}, std::vector<float>(rows * cols, 9), ACL_FLOAT);
    ASSERT_EQ(
        aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(features.get(), labels.get(), loss.get(),
                                                           backprop.get(), &workspace_, &executor_),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnSoftmaxCrossEntropyWithLogits, workspace_, executor_), ACLNN_SUCCESS);
    std::vector<double> want_loss, want_grad;
    CrossEntropy(x, y, rows, cols, &want_loss, &want_grad);
    ExpectNear(loss.Read(), want_loss, 1e-6);
    ExpectNear(backprop.Read(), want_grad, 1e-6);
}

TEST_F(AclnnCrossEntropy, Float16WithTransposedLabelsAndLongRows) {
    const int rows = 2, cols = 300;  // more than one run of 256
    std::vector<double> x = Random(rows * cols, 3), y(rows * cols, 0.0);
    y[7] = 1;             // row 0: one-hot
    y[cols + 299] = 0.5;  // row 1: two halves
    y[cols + 3] = 0.5;
    std::vector<uint16_t> xh(x.size()), yt(y.size());
    for (size_t i = 0; i < x.size(); ++i) {
        xh[i] = Half(static_cast<float>(x[i]));
        x[i] = FromHalf(xh[i]);
    }
    for (int r = 0; r < rows; ++r)  // stored column-major: labels[r][c] at c * rows + r
        for (int c = 0; c < cols; ++c)
            yt[c * rows + r] = Half(static_cast<float>(y[r * cols + c]));
    DeviceTensor<uint16_t> features({rows, cols}, xh, ACL_FLOAT16);
    DeviceTensor<uint16_t> labels({rows, cols}, {1, rows}, 0, yt, ACL_FLOAT16);
    DeviceTensor<uint16_t> loss({rows}, std::vector<uint16_t>(rows, 0), ACL_FLOAT16);
    DeviceTensor<uint16_t> backprop({rows, cols}, std::vector<uint16_t>(rows * cols, 0),
                                    ACL_FLOAT16);
    ASSERT_EQ(
        aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(features.get(), labels.get(), loss.get(),
                                                           backprop.get(), &workspace_, &executor_),
        ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnSoftmaxCrossEntropyWithLogits, workspace_, executor_), ACLNN_SUCCESS);
    std::vector<double> want_loss, want_grad;
    CrossEntropy(x, y, rows, cols, &want_loss, &want_grad);
    std::vector<float> got_loss, got_grad;
    for (uint16_t h : loss.Read())
        got_loss.push_back(FromHalf(h));
    for (uint16_t h : backprop.Read())
        got_grad.push_back(FromHalf(h));
    ExpectNear(got_loss, want_loss, 1e-3);
    for (size_t i = 0; i < got_grad.size(); ++i)
        EXPECT_NEAR(got_grad[i], want_grad[i], 1e-3) << i;
}

TEST_F(AclnnCrossEntropy, EmptyBatchDoesNothing) {
    DeviceTensor<float> features({0, 4}, {}, ACL_FLOAT), labels({0, 4}, {}, ACL_FLOAT);
    DeviceTensor<float> loss({0}, {}, ACL_FLOAT), backprop({0, 4}, {}, ACL_FLOAT);
    ASSERT_EQ(
        aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(features.get(), labels.get(), loss.get(),
                                                           backprop.get(), &workspace_, &executor_),
        ACLNN_SUCCESS);
    EXPECT_EQ(RunPhase2(aclnnSoftmaxCrossEntropyWithLogits, workspace_, executor_), ACLNN_SUCCESS);
}

TEST_F(AclnnCrossEntropy, RefusesWrongArguments) {
    DeviceTensor<float> f({2, 3}, std::vector<float>(6, 0), ACL_FLOAT);
    DeviceTensor<float> l({2, 3}, std::vector<float>(6, 0), ACL_FLOAT);
    DeviceTensor<float> loss({2}, {0, 0}, ACL_FLOAT);
    DeviceTensor<float> grad({2, 3}, std::vector<float>(6, 0), ACL_FLOAT);
    DeviceTensor<float> f1({6}, std::vector<float>(6, 0), ACL_FLOAT);
    DeviceTensor<float> l_wide({2, 4}, std::vector<float>(8, 0), ACL_FLOAT);
    DeviceTensor<float> loss_keep({2, 1}, {0, 0}, ACL_FLOAT);
    DeviceTensor<uint16_t> l_half({2, 3}, std::vector<uint16_t>(6, 0), ACL_FLOAT16);
    DeviceTensor<int32_t> f_int({2, 3}, std::vector<int32_t>(6, 0), ACL_INT32);
    DeviceTensor<double> f_double({2, 3}, std::vector<double>(6, 0), ACL_DOUBLE);
    auto plan = [&](const aclTensor* a, aclTensor* b, aclTensor* c, aclTensor* d) {
        return aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(a, b, c, d, &workspace_,
                                                                  &executor_);
    };
    EXPECT_EQ(plan(nullptr, l.get(), loss.get(), grad.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(f.get(), nullptr, loss.get(), grad.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(f.get(), l.get(), nullptr, grad.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(f.get(), l.get(), loss.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(f1.get(), f1.get(), loss.get(), f1.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(f.get(), l_wide.get(), loss.get(), grad.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(f.get(), l.get(), loss_keep.get(), grad.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(f.get(), l.get(), loss.get(), l_wide.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(f.get(), l_half.get(), loss.get(), grad.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(f_int.get(), f_int.get(), loss.get(), f_int.get()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(f_double.get(), f_double.get(), loss.get(), f_double.get()),
              ACLNN_ERR_PARAM_INVALID);
}

// ---- TriangularSolve ------------------------------------------------------------------------

// X solving op(A) X = B for [m][m] A and [m][n] B (only A's triangle read).
std::vector<double> Solve(const std::vector<double>& a, const std::vector<double>& b, int m, int n,
                          bool upper, bool transpose, bool unit) {
    auto at = [&](int i, int j) {  // op(A)(i, j) within the triangle, else 0
        const int r = transpose ? j : i, c = transpose ? i : j;
        if (upper ? c < r : c > r) return 0.0;
        if (r == c && unit) return 1.0;
        return a[r * m + c];
    };
    const bool op_upper = upper != transpose;
    std::vector<double> x = b;
    for (int k = 0; k < n; ++k) {
        for (int step = 0; step < m; ++step) {
            const int i = op_upper ? m - 1 - step : step;
            double s = b[i * n + k];
            for (int j = 0; j < m; ++j)
                if (j != i) s -= at(i, j) * x[j * n + k];
            x[i * n + k] = s / at(i, i);
        }
    }
    return x;
}

class AclnnTriangularSolve : public aclnn_test::AclnnTest {
 protected:
    uint64_t workspace_ = 0;
    aclOpExecutor* executor_ = nullptr;
};

TEST_F(AclnnTriangularSolve, EveryTriangleTransposeAndDiagonalInFloat32) {
    const int m = 4, n = 3;
    std::vector<double> a = Random(m * m, 10), b = Random(m * n, 11);
    for (int i = 0; i < m; ++i)
        a[i * m + i] += a[i * m + i] >= 0 ? 2 : -2;  // well conditioned
    a = As<double>(As<float>(a));
    b = As<double>(As<float>(b));
    for (bool upper : {true, false}) {
        for (bool transpose : {false, true}) {
            for (bool unit : {false, true}) {
                DeviceTensor<float> self({m, n}, As<float>(b), ACL_FLOAT);
                DeviceTensor<float> A({m, m}, As<float>(a), ACL_FLOAT);
                DeviceTensor<float> x({m, n}, std::vector<float>(m * n, 0), ACL_FLOAT);
                DeviceTensor<float> mo({m, m}, std::vector<float>(m * m, 0), ACL_FLOAT);
                ASSERT_EQ(aclnnTriangularSolveGetWorkspaceSize(self.get(), A.get(), upper,
                                                               transpose, unit, x.get(), mo.get(),
                                                               &workspace_, &executor_),
                          ACLNN_SUCCESS);
                ASSERT_EQ(RunPhase2(aclnnTriangularSolve, workspace_, executor_), ACLNN_SUCCESS);
                ExpectNear(x.Read(), Solve(a, b, m, n, upper, transpose, unit), 1e-5);
                EXPECT_EQ(mo.Read(), As<float>(a));  // A whole, diagonal as given
            }
        }
    }
}

TEST_F(AclnnTriangularSolve, BroadcastBatchesInFloat64WithoutMOut) {
    // A [2, 1, 3, 3] against self [2, 3, 2]: X [2, 2, 3, 2].
    const int m = 3, n = 2;
    std::vector<double> a = Random(2 * m * m, 12), b = Random(2 * m * n, 13);
    for (int k = 0; k < 2; ++k)
        for (int i = 0; i < m; ++i)
            a[k * m * m + i * m + i] = 3 + i;
    DeviceTensor<double> A({2, 1, m, m}, a, ACL_DOUBLE);
    DeviceTensor<double> self({2, m, n}, b, ACL_DOUBLE);
    DeviceTensor<double> x({2, 2, m, n}, std::vector<double>(2 * 2 * m * n, 0), ACL_DOUBLE);
    DeviceTensor<double> mo({2, 2, m, m}, std::vector<double>(4 * m * m, 0), ACL_DOUBLE);
    ASSERT_EQ(aclnnTriangularSolveGetWorkspaceSize(self.get(), A.get(), false, false, false,
                                                   x.get(), mo.get(), &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnTriangularSolve, workspace_, executor_), ACLNN_SUCCESS);
    const std::vector<double> got = x.Read(), got_m = mo.Read();
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
            const std::vector<double> ai(a.begin() + i * m * m, a.begin() + (i + 1) * m * m);
            const std::vector<double> bj(b.begin() + j * m * n, b.begin() + (j + 1) * m * n);
            const std::vector<double> want = Solve(ai, bj, m, n, false, false, false);
            for (int e = 0; e < m * n; ++e)
                EXPECT_NEAR(got[(i * 2 + j) * m * n + e], want[e], 1e-12);
            for (int e = 0; e < m * m; ++e)
                EXPECT_EQ(got_m[(i * 2 + j) * m * m + e], ai[e]);
        }
    }
    // mOut may be null, as CANN's implementation allows.
    ASSERT_EQ(aclnnTriangularSolveGetWorkspaceSize(self.get(), A.get(), true, true, false, x.get(),
                                                   nullptr, &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnTriangularSolve, workspace_, executor_), ACLNN_SUCCESS);
    const std::vector<double> got_t = x.Read();
    const std::vector<double> a1(a.begin() + m * m, a.end()), b0(b.begin(), b.begin() + m * n);
    const std::vector<double> want = Solve(a1, b0, m, n, true, true, false);
    for (int e = 0; e < m * n; ++e)
        EXPECT_NEAR(got_t[2 * m * n + e], want[e], 1e-12);  // batch (1, 0)
}

TEST_F(AclnnTriangularSolve, ReadsATransposedViewOfA) {
    const int m = 3;
    // Storage holds A^T; the view's strides make it A = [[2, 1, 1], [0, 4, 1], [0, 0, 5]].
    DeviceTensor<float> A({m, m}, {1, m}, 0, {2, 0, 0, 1, 4, 0, 1, 1, 5}, ACL_FLOAT);
    DeviceTensor<float> self({m, 1}, {5, 9, 10}, ACL_FLOAT);
    DeviceTensor<float> x({m, 1}, {0, 0, 0}, ACL_FLOAT);
    ASSERT_EQ(aclnnTriangularSolveGetWorkspaceSize(self.get(), A.get(), true, false, false, x.get(),
                                                   nullptr, &workspace_, &executor_),
              ACLNN_SUCCESS);
    ASSERT_EQ(RunPhase2(aclnnTriangularSolve, workspace_, executor_), ACLNN_SUCCESS);
    ExpectNear(x.Read(), {0.625, 1.75, 2.0}, 1e-6);
}

TEST_F(AclnnTriangularSolve, RefusesWrongArguments) {
    DeviceTensor<float> a({3, 3}, std::vector<float>(9, 1), ACL_FLOAT);
    DeviceTensor<float> b({3, 2}, std::vector<float>(6, 1), ACL_FLOAT);
    DeviceTensor<float> x({3, 2}, std::vector<float>(6, 0), ACL_FLOAT);
    DeviceTensor<float> mo({3, 3}, std::vector<float>(9, 0), ACL_FLOAT);
    DeviceTensor<float> rect({3, 4}, std::vector<float>(12, 1), ACL_FLOAT);
    DeviceTensor<float> b4({4, 2}, std::vector<float>(8, 1), ACL_FLOAT);
    DeviceTensor<float> vec({3}, {1, 1, 1}, ACL_FLOAT);
    DeviceTensor<float> x_wrong({3, 3}, std::vector<float>(9, 0), ACL_FLOAT);
    DeviceTensor<float> a_batch({2, 3, 3}, std::vector<float>(18, 1), ACL_FLOAT);
    DeviceTensor<float> b_batch({3, 3, 2}, std::vector<float>(18, 1), ACL_FLOAT);
    DeviceTensor<double> ad({3, 3}, std::vector<double>(9, 1), ACL_DOUBLE);
    DeviceTensor<double> bd({3, 2}, std::vector<double>(6, 1), ACL_DOUBLE);
    DeviceTensor<double> xd({3, 2}, std::vector<double>(6, 0), ACL_DOUBLE);
    DeviceTensor<uint16_t> ah({3, 3}, std::vector<uint16_t>(9, 0), ACL_FLOAT16);
    auto plan = [&](const aclTensor* self, const aclTensor* A, aclTensor* xo, aclTensor* m,
                    bool unit = false) {
        return aclnnTriangularSolveGetWorkspaceSize(self, A, true, false, unit, xo, m, &workspace_,
                                                    &executor_);
    };
    EXPECT_EQ(plan(nullptr, a.get(), x.get(), mo.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(b.get(), nullptr, x.get(), mo.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(b.get(), a.get(), nullptr, mo.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(b.get(), rect.get(), x.get(), nullptr), ACLNN_ERR_PARAM_INVALID);   // not square
    EXPECT_EQ(plan(b4.get(), a.get(), b4.get(), nullptr), ACLNN_ERR_PARAM_INVALID);    // rows
    EXPECT_EQ(plan(vec.get(), a.get(), vec.get(), nullptr), ACLNN_ERR_PARAM_INVALID);  // rank 1
    EXPECT_EQ(plan(b.get(), a.get(), x_wrong.get(), nullptr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(b.get(), a.get(), x.get(), x.get()), ACLNN_ERR_PARAM_INVALID);  // mOut shape
    EXPECT_EQ(plan(b_batch.get(), a_batch.get(), b_batch.get(), nullptr),
              ACLNN_ERR_PARAM_INVALID);  // batches 2 and 3 do not broadcast
    EXPECT_EQ(plan(b.get(), ad.get(), x.get(), nullptr), ACLNN_ERR_PARAM_INVALID);  // types
    EXPECT_EQ(plan(b.get(), ah.get(), x.get(), nullptr), ACLNN_ERR_PARAM_INVALID);  // float16
    EXPECT_EQ(plan(bd.get(), ad.get(), xd.get(), nullptr, true), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(plan(bd.get(), ad.get(), xd.get(), nullptr, false), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(executor_);
}

TEST_F(AclnnTriangularSolve, EmptyMatricesDoNothing) {
    DeviceTensor<float> a({0, 0}, {}, ACL_FLOAT);
    DeviceTensor<float> b({0, 2}, {}, ACL_FLOAT);
    DeviceTensor<float> x({0, 2}, {}, ACL_FLOAT);
    ASSERT_EQ(aclnnTriangularSolveGetWorkspaceSize(b.get(), a.get(), true, false, false, x.get(),
                                                   nullptr, &workspace_, &executor_),
              ACLNN_SUCCESS);
    EXPECT_EQ(RunPhase2(aclnnTriangularSolve, workspace_, executor_), ACLNN_SUCCESS);
}

}  // namespace
