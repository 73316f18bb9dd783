// The checks every two-operand element-wise operator passes (out = self op other, the
// in-place selfRef = selfRef op other and the forms with a scalar other), run against a plain
// C++ reference for each operator of a table: each accepted dtype, broadcasting, a transposed
// and offset input with a broadcast (stride 0) other and a strided output, an empty tensor, the
// in-place and scalar forms, and the documented bad inputs. Test files define a fixture deriving
// BinaryOpTest, add the tests with OPENACL_BINARY_OP_TESTS and instantiate it with their table.
#pragma once

#include <cmath>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "eltwise_test_support.h"

namespace aclnn_test {

struct BinaryCase {
    const char* name = "";  // the test's name: "Mul"
    std::function<aclnnStatus(const aclTensor*, const aclTensor*, aclTensor*, uint64_t*,
                              aclOpExecutor**)>
        plan = nullptr;
    Phase2 phase2 = nullptr;
    // The in-place form (none when empty).
    std::function<aclnnStatus(aclTensor*, const aclTensor*, uint64_t*, aclOpExecutor**)> inplace =
        nullptr;
    Phase2 inplace_phase2 = nullptr;
    // The forms with a scalar other (none when empty).
    std::function<aclnnStatus(const aclTensor*, const aclScalar*, aclTensor*, uint64_t*,
                              aclOpExecutor**)>
        scalar_plan = nullptr;
    Phase2 scalar_phase2 = nullptr;
    std::function<aclnnStatus(aclTensor*, const aclScalar*, uint64_t*, aclOpExecutor**)>
        inplace_scalar = nullptr;
    Phase2 inplace_scalar_phase2 = nullptr;
    std::function<double(double, double)> reference = nullptr;
    // Accepted types to run (self and other alike); the first is the one the other checks use.
    std::vector<aclDataType> dtypes = {};
    aclDataType refused = ACL_DT_UNDEFINED;                    // a type the operator refuses
    enum Out { kSame, kFloatForIntegers, kBool } out = kSame;  // out's type from the operands'
    std::vector<double> a = {}, b = {};          // six operand pairs for floating types
    std::vector<double> int_a = {}, int_b = {};  // ... for integer types (bool: nonzero)
    bool exact = false;                          // the result is exact (bar rounding to out's type)
};

// gtest prints a failing test's parameter by its name.
inline void PrintTo(const BinaryCase& c, std::ostream* os) {
    *os << c.name;
}

inline std::string BinaryCaseName(const ::testing::TestParamInfo<BinaryCase>& info) {
    return info.param.name;
}

inline aclDataType Base(const BinaryCase& c) {
    return c.dtypes.front();
}

inline aclDataType OutType(const BinaryCase& c, aclDataType in) {
    switch (c.out) {
        case BinaryCase::kSame:
            return in;
        case BinaryCase::kFloatForIntegers:
            return IsFloatType(in) ? in : ACL_FLOAT;
        case BinaryCase::kBool:
            return ACL_BOOL;
    }
    return in;
}

// Operand values for `dtype` (second: other's), as that dtype holds them.
inline std::vector<double> Operand(const BinaryCase& c, aclDataType dtype, bool second) {
    std::vector<double> values =
        IsFloatType(dtype) ? (second ? c.b : c.a) : (second ? c.int_b : c.int_a);
    if (values.empty()) values = second ? c.b : c.a;
    for (double& v : values) {
        if (dtype == ACL_UINT8 || dtype == ACL_UINT16 || dtype == ACL_UINT32 ||
            dtype == ACL_UINT64) {
            v = std::fabs(v);
        }
        v = Quantize(v, dtype);
    }
    return values;
}

class BinaryOpTest : public AclnnTest, public ::testing::WithParamInterface<BinaryCase> {
 protected:
    aclnnStatus Run(const Tensor& self, const Tensor& other, const Tensor& out) {
        const BinaryCase& c = GetParam();
        return Execute(
            [&](uint64_t* w, aclOpExecutor** e) {
                return c.plan(self.get(), other.get(), out.get(), w, e);
            },
            c.phase2);
    }

    void CheckEveryDtype() {
        const BinaryCase& c = GetParam();
        for (aclDataType dtype : c.dtypes) {
            const std::vector<double> a = Operand(c, dtype, false), b = Operand(c, dtype, true);
            const aclDataType out_type = OutType(c, dtype);
            Tensor self({2, 3}, a, dtype), other({2, 3}, b, dtype);
            Tensor out({2, 3}, std::vector<double>(6, 0.0), out_type);
            ASSERT_EQ(Run(self, other, out), ACLNN_SUCCESS)
                << "dtype " << dtype << ": " << RecentMessage();
            std::vector<double> reference;
            for (size_t i = 0; i < a.size(); ++i)
                reference.push_back(c.reference(a[i], b[i]));
            ExpectValues(out.Values(), reference, out_type, c.exact,
                         std::string(c.name) + " dtype " + std::to_string(dtype));
        }
    }

    // self [2, 1] and other [1, 3] give out [2, 3].
    void CheckBroadcast() {
        const BinaryCase& c = GetParam();
        const aclDataType dtype = Base(c);
        const std::vector<double> a = Operand(c, dtype, false), b = Operand(c, dtype, true);
        Tensor self({2, 1}, {a[0], a[3]}, dtype), other({1, 3}, {b[0], b[1], b[2]}, dtype);
        Tensor out({2, 3}, std::vector<double>(6, 0.0), OutType(c, dtype));
        ASSERT_EQ(Run(self, other, out), ACLNN_SUCCESS) << RecentMessage();
        std::vector<double> reference;
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 3; ++j)
                reference.push_back(c.reference(a[i * 3], b[j]));
        }
        ExpectValues(out.Values(), reference, OutType(c, dtype), c.exact, c.name);
    }

    // self: the transpose of a 3x2 matrix stored after one padding element; other: one row
    // repeated with stride 0; out: every other element of a 12-element buffer.
    void CheckViews() {
        const BinaryCase& c = GetParam();
        const aclDataType dtype = Base(c);
        const std::vector<double> a = Operand(c, dtype, false), b = Operand(c, dtype, true);
        Tensor self({2, 3}, {1, 2}, 1, {-1, a[0], a[3], a[1], a[4], a[2], a[5]}, dtype);
        Tensor other({2, 3}, {0, 1}, 0, {b[0], b[1], b[2]}, dtype);
        const aclDataType out_type = OutType(c, dtype);
        Tensor out({2, 3}, {6, 2}, 0, std::vector<double>(12, 7.0), out_type);
        ASSERT_EQ(Run(self, other, out), ACLNN_SUCCESS) << RecentMessage();
        std::vector<double> reference;
        for (int i = 0; i < 6; ++i)
            reference.push_back(c.reference(a[i], b[i % 3]));
        ExpectValues(out.Values(), reference, out_type, c.exact, c.name);
        const std::vector<double> storage = out.Storage();
        for (size_t i = 1; i < storage.size(); i += 2) {
            EXPECT_EQ(storage[i], Quantize(7.0, out_type)) << "gap " << i << " was written";
        }
    }

    void CheckEmpty() {
        const BinaryCase& c = GetParam();
        Tensor self({0, 3}, {}, Base(c));
        Tensor other({3}, Operand(c, Base(c), true), Base(c));
        Tensor out({0, 3}, {}, OutType(c, Base(c)));
        uint64_t workspace = 5;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(c.plan(self.get(), other.get(), out.get(), &workspace, &executor), ACLNN_SUCCESS)
            << RecentMessage();
        EXPECT_EQ(workspace, 0u);
        EXPECT_EQ(c.phase2(nullptr, 0, executor, nullptr), ACLNN_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    }

    // selfRef [2, 3] with other [3] broadcast over its rows.
    void CheckInplace() {
        const BinaryCase& c = GetParam();
        if (!c.inplace) GTEST_SKIP() << c.name << " has no in-place form";
        const aclDataType dtype = Base(c);
        const std::vector<double> a = Operand(c, dtype, false), b = Operand(c, dtype, true);
        Tensor self({2, 3}, a, dtype), other({3}, {b[0], b[1], b[2]}, dtype);
        ASSERT_EQ(
            Execute([&](uint64_t* w,
                        aclOpExecutor** e) { return c.inplace(self.get(), other.get(), w, e); },
                    c.inplace_phase2),
            ACLNN_SUCCESS)
            << RecentMessage();
        std::vector<double> reference;
        for (int i = 0; i < 6; ++i)
            reference.push_back(c.reference(a[i], b[i % 3]));
        ExpectValues(self.Values(), reference, dtype, c.exact, c.name);
    }

    // other = b[1] as a float scalar (an int64 one for integer base types).
    void CheckScalarForms() {
        const BinaryCase& c = GetParam();
        if (!c.scalar_plan) GTEST_SKIP() << c.name << " has no scalar form";
        const aclDataType dtype = Base(c);
        const std::vector<double> a = Operand(c, dtype, false), b = Operand(c, dtype, true);
        const bool floating = IsFloatType(dtype);
        Scalar other = floating ? Scalar(static_cast<float>(b[1]), ACL_FLOAT)
                                : Scalar(static_cast<int64_t>(b[1]), ACL_INT64);
        std::vector<double> reference;
        for (double v : a)
            reference.push_back(c.reference(v, b[1]));
        {
            Tensor self({2, 3}, a, dtype);
            Tensor out({2, 3}, std::vector<double>(6, 0.0), OutType(c, dtype));
            ASSERT_EQ(Execute(
                          [&](uint64_t* w, aclOpExecutor** e) {
                              return c.scalar_plan(self.get(), other.get(), out.get(), w, e);
                          },
                          c.scalar_phase2),
                      ACLNN_SUCCESS)
                << RecentMessage();
            ExpectValues(out.Values(), reference, OutType(c, dtype), c.exact, c.name);
        }
        if (c.inplace_scalar) {
            Tensor self({2, 3}, a, dtype);
            ASSERT_EQ(Execute(
                          [&](uint64_t* w, aclOpExecutor** e) {
                              return c.inplace_scalar(self.get(), other.get(), w, e);
                          },
                          c.inplace_scalar_phase2),
                      ACLNN_SUCCESS)
                << RecentMessage();
            ExpectValues(self.Values(), reference, dtype, c.exact, c.name);
        }
    }

    void CheckNulls() {
        const BinaryCase& c = GetParam();
        const aclDataType dtype = Base(c);
        Tensor self({2, 3}, Operand(c, dtype, false), dtype);
        Tensor other({2, 3}, Operand(c, dtype, true), dtype);
        Tensor out({2, 3}, std::vector<double>(6, 0.0), OutType(c, dtype));
        Scalar scalar(int64_t{1}, ACL_INT64);
        uint64_t ws = 0;
        aclOpExecutor* ex = nullptr;
        EXPECT_EQ(c.plan(nullptr, other.get(), out.get(), &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(c.plan(self.get(), nullptr, out.get(), &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(c.plan(self.get(), other.get(), nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(c.plan(self.get(), other.get(), out.get(), nullptr, &ex),
                  ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(c.plan(self.get(), other.get(), out.get(), &ws, nullptr),
                  ACLNN_ERR_PARAM_NULLPTR);
        if (c.inplace) {
            EXPECT_EQ(c.inplace(nullptr, other.get(), &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
            EXPECT_EQ(c.inplace(self.get(), nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
        }
        if (c.scalar_plan) {
            EXPECT_EQ(c.scalar_plan(nullptr, scalar.get(), out.get(), &ws, &ex),
                      ACLNN_ERR_PARAM_NULLPTR);
            EXPECT_EQ(c.scalar_plan(self.get(), nullptr, out.get(), &ws, &ex),
                      ACLNN_ERR_PARAM_NULLPTR);
            EXPECT_EQ(c.scalar_plan(self.get(), scalar.get(), nullptr, &ws, &ex),
                      ACLNN_ERR_PARAM_NULLPTR);
        }
        if (c.inplace_scalar) {
            EXPECT_EQ(c.inplace_scalar(nullptr, scalar.get(), &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
            EXPECT_EQ(c.inplace_scalar(self.get(), nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
        }
        EXPECT_EQ(ex, nullptr);
    }

    void CheckRefusedDtype() {
        const BinaryCase& c = GetParam();
        Tensor bad({2, 3}, std::vector<double>(6, 1.0), c.refused);
        Tensor other({2, 3}, Operand(c, Base(c), true), Base(c));
        Tensor out({2, 3}, std::vector<double>(6, 0.0), OutType(c, Base(c)));
        uint64_t ws = 0;
        aclOpExecutor* ex = nullptr;
        EXPECT_EQ(c.plan(bad.get(), other.get(), out.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
        ExpectMessageHas(DtypeText(c.refused));
        EXPECT_EQ(c.plan(other.get(), bad.get(), out.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
        if (c.scalar_plan) {
            Scalar scalar(int64_t{1}, ACL_INT64);
            EXPECT_EQ(c.scalar_plan(bad.get(), scalar.get(), out.get(), &ws, &ex),
                      ACLNN_ERR_PARAM_INVALID);
        }
        EXPECT_EQ(ex, nullptr);
    }

    void CheckNoBroadcast() {
        const BinaryCase& c = GetParam();
        Tensor self({2, 3}, Operand(c, Base(c), false), Base(c));
        Tensor other({4}, {1, 1, 1, 1}, Base(c));
        Tensor out({2, 3}, std::vector<double>(6, 0.0), OutType(c, Base(c)));
        EXPECT_EQ(Run(self, other, out), ACLNN_ERR_PARAM_INVALID);
        ExpectMessageHas("do not broadcast");
    }

    void CheckOutShape() {
        const BinaryCase& c = GetParam();
        Tensor self({2, 3}, Operand(c, Base(c), false), Base(c));
        Tensor other({3}, {1, 1, 1}, Base(c));
        Tensor out({3, 3}, std::vector<double>(9, 0.0), OutType(c, Base(c)));
        EXPECT_EQ(Run(self, other, out), ACLNN_ERR_PARAM_INVALID);
        ExpectMessageHas("result's shape");
    }

    // The in-place form cannot widen selfRef: other [2, 3] against selfRef [3].
    void CheckInplaceWidening() {
        const BinaryCase& c = GetParam();
        if (!c.inplace) GTEST_SKIP() << c.name << " has no in-place form";
        Tensor self({3}, {1, 1, 1}, Base(c));
        Tensor other({2, 3}, Operand(c, Base(c), true), Base(c));
        uint64_t ws = 0;
        aclOpExecutor* ex = nullptr;
        EXPECT_EQ(c.inplace(self.get(), other.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID);
        EXPECT_EQ(ex, nullptr);
    }

    void CheckNineDimensions() {
        const BinaryCase& c = GetParam();
        const std::vector<int64_t> nine(9, 1);
        Tensor self(nine, {1.0}, Base(c)), other({1}, {1.0}, Base(c));
        Tensor out(nine, {0.0}, OutType(c, Base(c)));
        EXPECT_EQ(Run(self, other, out), ACLNN_ERR_PARAM_INVALID);
        ExpectMessageHas("at most 8");
    }
};

// The checks as tests of fixture `Suite` (a class deriving BinaryOpTest).
#define OPENACL_BINARY_OP_TESTS(Suite)                                        \
    TEST_P(Suite, ComputesEveryAcceptedDtype) {                               \
        CheckEveryDtype();                                                    \
    }                                                                         \
    TEST_P(Suite, BroadcastsAColumnAgainstARow) {                             \
        CheckBroadcast();                                                     \
    }                                                                         \
    TEST_P(Suite, ReadsTransposedAndStrideZeroViewsAndWritesAStridedOutput) { \
        CheckViews();                                                         \
    }                                                                         \
    TEST_P(Suite, EmptyTensorSucceedsWithNoWorkspace) {                       \
        CheckEmpty();                                                         \
    }                                                                         \
    TEST_P(Suite, InplaceFormWritesSelfRef) {                                 \
        CheckInplace();                                                       \
    }                                                                         \
    TEST_P(Suite, ScalarFormsUseTheScalarForEveryElement) {                   \
        CheckScalarForms();                                                   \
    }                                                                         \
    TEST_P(Suite, NullArgumentsAreParamNullptr) {                             \
        CheckNulls();                                                         \
    }                                                                         \
    TEST_P(Suite, RefusedDtypeIsInvalid) {                                    \
        CheckRefusedDtype();                                                  \
    }                                                                         \
    TEST_P(Suite, ShapesThatDoNotBroadcastAreInvalid) {                       \
        CheckNoBroadcast();                                                   \
    }                                                                         \
    TEST_P(Suite, OutputOfAnotherShapeIsInvalid) {                            \
        CheckOutShape();                                                      \
    }                                                                         \
    TEST_P(Suite, InplaceFormCannotWidenSelfRef) {                            \
        CheckInplaceWidening();                                               \
    }                                                                         \
    TEST_P(Suite, MoreThanEightDimensionsAreInvalid) {                        \
        CheckNineDimensions();                                                \
    }

}  // namespace aclnn_test
