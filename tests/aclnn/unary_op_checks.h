// The checks every one-operand element-wise operator passes (out = op(self) and the in-place
// selfRef = op(selfRef)), run against a plain C++ reference for each operator of a table:
// each accepted dtype, a transposed and offset input with a strided output, an empty tensor,
// the in-place form, and the documented bad inputs. Test files define a fixture deriving
// UnaryOpTest with one TEST_P per check and instantiate it with their table.
#pragma once

#include <cmath>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "eltwise_test_support.h"

namespace aclnn_test {

struct UnaryCase {
    const char* name = "";  // the test's name: "Exp"
    std::function<aclnnStatus(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**)> plan =
        nullptr;
    Phase2 phase2 = nullptr;
    // The in-place form (none when empty).
    std::function<aclnnStatus(aclTensor*, uint64_t*, aclOpExecutor**)> inplace = nullptr;
    Phase2 inplace_phase2 = nullptr;
    std::function<double(double)> reference = nullptr;
    // Accepted self types to run; the first is the one the other checks use.
    std::vector<aclDataType> dtypes;
    aclDataType refused;                                       // a self type the operator refuses
    enum Out { kSame, kFloatForIntegers, kBool } out = kSame;  // out's type from self's
    std::vector<double> values = {};                           // six inputs for floating types
    std::vector<double> int_values = {};  // six inputs for integer types (bool: nonzero)
    bool exact = false;                   // the result is exact (bar rounding to out's type)
};

// gtest prints a failing test's parameter by its name.
inline void PrintTo(const UnaryCase& c, std::ostream* os) {
    *os << c.name;
}

inline std::string UnaryCaseName(const ::testing::TestParamInfo<UnaryCase>& info) {
    return info.param.name;
}

inline aclDataType OutType(const UnaryCase& c, aclDataType in) {
    switch (c.out) {
        case UnaryCase::kSame:
            return in;
        case UnaryCase::kFloatForIntegers:
            return IsFloatType(in) ? in : ACL_FLOAT;
        case UnaryCase::kBool:
            return ACL_BOOL;
    }
    return in;
}

// The six inputs for `dtype`, as that dtype holds them.
inline std::vector<double> Inputs(const UnaryCase& c, aclDataType dtype) {
    std::vector<double> values = IsFloatType(dtype) ? c.values : c.int_values;
    if (values.empty()) values = c.values;
    for (double& v : values) {
        if (dtype == ACL_UINT8 || dtype == ACL_UINT16 || dtype == ACL_UINT32 ||
            dtype == ACL_UINT64) {
            v = std::fabs(v);
        }
        v = Quantize(v, dtype);
    }
    return values;
}

inline std::vector<double> Reference(const UnaryCase& c, const std::vector<double>& inputs) {
    std::vector<double> out;
    for (double v : inputs)
        out.push_back(c.reference(v));
    return out;
}

inline aclDataType Base(const UnaryCase& c) {
    return c.dtypes.front();
}

class UnaryOpTest : public AclnnTest, public ::testing::WithParamInterface<UnaryCase> {
 protected:
    // Each accepted dtype: out has the type the operator's result takes.
    void CheckEveryDtype() {
        const UnaryCase& c = GetParam();
        for (aclDataType dtype : c.dtypes) {
            const std::vector<double> inputs = Inputs(c, dtype);
            const aclDataType out_type = OutType(c, dtype);
            Tensor self({2, 3}, inputs, dtype);
            Tensor out({2, 3}, std::vector<double>(6, 0.0), out_type);
            ASSERT_EQ(
                Execute([&](uint64_t* w,
                            aclOpExecutor** e) { return c.plan(self.get(), out.get(), w, e); },
                        c.phase2),
                ACLNN_SUCCESS)
                << "dtype " << dtype << ": " << RecentMessage();
            ExpectValues(out.Values(), Reference(c, inputs), out_type, c.exact,
                         std::string(c.name) + " dtype " + std::to_string(dtype));
        }
    }

    // self: the transpose of a 3x2 matrix stored after one padding element; out: every
    // other element of a 12-element buffer, whose gaps must stay as they were.
    void CheckViews() {
        const UnaryCase& c = GetParam();
        const std::vector<double> v = Inputs(c, Base(c));
        // storage [pad, m00, m01, m10, m11, m20, m21] of the 3x2 matrix m whose transpose is
        // [[v0, v1, v2], [v3, v4, v5]]: m[j][i] = v[i * 3 + j].
        Tensor self({2, 3}, {1, 2}, 1, {-1, v[0], v[3], v[1], v[4], v[2], v[5]}, Base(c));
        const aclDataType out_type = OutType(c, Base(c));
        Tensor out({2, 3}, {6, 2}, 0, std::vector<double>(12, 7.0), out_type);
        ASSERT_EQ(Execute([&](uint64_t* w,
                              aclOpExecutor** e) { return c.plan(self.get(), out.get(), w, e); },
                          c.phase2),
                  ACLNN_SUCCESS)
            << RecentMessage();
        ExpectValues(out.Values(), Reference(c, v), out_type, c.exact, c.name);
        const std::vector<double> storage = out.Storage();
        for (size_t i = 1; i < storage.size(); i += 2) {
            EXPECT_EQ(storage[i], Quantize(7.0, out_type)) << "gap " << i << " was written";
        }
    }

    void CheckEmpty() {
        const UnaryCase& c = GetParam();
        Tensor self({0, 3}, {}, Base(c));
        Tensor out({0, 3}, {}, OutType(c, Base(c)));
        uint64_t workspace = 5;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(c.plan(self.get(), out.get(), &workspace, &executor), ACLNN_SUCCESS)
            << RecentMessage();
        EXPECT_EQ(workspace, 0u);
        EXPECT_EQ(c.phase2(nullptr, 0, executor, nullptr), ACLNN_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    }

    void CheckInplace() {
        const UnaryCase& c = GetParam();
        if (!c.inplace) GTEST_SKIP() << c.name << " has no in-place form";
        const std::vector<double> inputs = Inputs(c, Base(c));
        Tensor self({2, 3}, inputs, Base(c));
        ASSERT_EQ(
            Execute([&](uint64_t* w, aclOpExecutor** e) { return c.inplace(self.get(), w, e); },
                    c.inplace_phase2),
            ACLNN_SUCCESS)
            << RecentMessage();
        ExpectValues(self.Values(), Reference(c, inputs), Base(c), c.exact, c.name);
    }

    void CheckNulls() {
        const UnaryCase& c = GetParam();
        Tensor self({2, 3}, Inputs(c, Base(c)), Base(c));
        Tensor out({2, 3}, std::vector<double>(6, 0.0), OutType(c, Base(c)));
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(c.plan(nullptr, out.get(), &workspace, &executor), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(c.plan(self.get(), nullptr, &workspace, &executor), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(c.plan(self.get(), out.get(), nullptr, &executor), ACLNN_ERR_PARAM_NULLPTR);
        EXPECT_EQ(c.plan(self.get(), out.get(), &workspace, nullptr), ACLNN_ERR_PARAM_NULLPTR);
        if (c.inplace) {
            EXPECT_EQ(c.inplace(nullptr, &workspace, &executor), ACLNN_ERR_PARAM_NULLPTR);
        }
        EXPECT_EQ(executor, nullptr);
    }

    void CheckRefusedDtype() {
        const UnaryCase& c = GetParam();
        Tensor self({2, 3}, std::vector<double>(6, 1.0), c.refused);
        Tensor out({2, 3}, std::vector<double>(6, 0.0), c.refused);
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(c.plan(self.get(), out.get(), &workspace, &executor), ACLNN_ERR_PARAM_INVALID);
        ExpectMessageHas(DtypeText(c.refused));
        if (c.inplace) {
            EXPECT_EQ(c.inplace(self.get(), &workspace, &executor), ACLNN_ERR_PARAM_INVALID);
        }
        EXPECT_EQ(executor, nullptr);
    }

    void CheckOutShape() {
        const UnaryCase& c = GetParam();
        Tensor self({2, 3}, Inputs(c, Base(c)), Base(c));
        Tensor out({3, 2}, std::vector<double>(6, 0.0), OutType(c, Base(c)));
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(c.plan(self.get(), out.get(), &workspace, &executor), ACLNN_ERR_PARAM_INVALID);
        ExpectMessageHas("shape");
    }

    void CheckNineDimensions() {
        const UnaryCase& c = GetParam();
        const std::vector<int64_t> nine(9, 1);
        Tensor self(nine, {1.0}, Base(c));
        Tensor out(nine, {0.0}, OutType(c, Base(c)));
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(c.plan(self.get(), out.get(), &workspace, &executor), ACLNN_ERR_PARAM_INVALID);
        ExpectMessageHas("at most 8");
    }
};

// The checks as tests of fixture `Suite` (a class deriving UnaryOpTest).
#define OPENACL_UNARY_OP_TESTS(Suite)                                  \
    TEST_P(Suite, ComputesEveryAcceptedDtype) {                        \
        CheckEveryDtype();                                             \
    }                                                                  \
    TEST_P(Suite, ReadsATransposedOffsetViewAndWritesAStridedOutput) { \
        CheckViews();                                                  \
    }                                                                  \
    TEST_P(Suite, EmptyTensorSucceedsWithNoWorkspace) {                \
        CheckEmpty();                                                  \
    }                                                                  \
    TEST_P(Suite, InplaceFormWritesSelfRef) {                          \
        CheckInplace();                                                \
    }                                                                  \
    TEST_P(Suite, NullArgumentsAreParamNullptr) {                      \
        CheckNulls();                                                  \
    }                                                                  \
    TEST_P(Suite, RefusedDtypeIsInvalid) {                             \
        CheckRefusedDtype();                                           \
    }                                                                  \
    TEST_P(Suite, OutputOfAnotherShapeIsInvalid) {                     \
        CheckOutShape();                                               \
    }                                                                  \
    TEST_P(Suite, MoreThanEightDimensionsAreInvalid) {                 \
        CheckNineDimensions();                                         \
    }

}  // namespace aclnn_test
