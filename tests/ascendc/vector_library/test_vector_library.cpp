// libascendcl's vector instructions (openaclKernelVector, src/ascendc/kernel_vector.cpp) give
// the bits the kernel header's scalar loops give, for every op they take, on the values where
// vector and scalar code usually part ways: NaN, signed zeros, infinities, subnormals, the
// integer extremes, and every tail length.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "kernel_operator.h"

namespace {

using openacl::ascendc::VecOp;
using openacl::ascendc::VecType;

bool HasAvx512() {
    return __builtin_cpu_supports("avx512f");
}

int Library(VecOp op, VecType type, void* dst, const void* a, const void* b, const void* scalar,
            uint64_t n) {
    return openaclKernelVector(static_cast<uint32_t>(op), static_cast<uint32_t>(type), dst, a, b,
                               scalar, n);
}

std::vector<float> FloatInputs(size_t n, uint32_t seed) {
    const float inf = std::numeric_limits<float>::infinity();
    const float special[] = {0.0f,
                             -0.0f,
                             1.0f,
                             -1.0f,
                             inf,
                             -inf,
                             std::numeric_limits<float>::quiet_NaN(),
                             -std::numeric_limits<float>::quiet_NaN(),
                             std::numeric_limits<float>::denorm_min(),
                             -std::numeric_limits<float>::denorm_min(),
                             std::numeric_limits<float>::max(),
                             std::numeric_limits<float>::min(),
                             3.0f,
                             -7.5f};
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> value(-100.0f, 100.0f);
    std::vector<float> out(n);
    for (size_t i = 0; i < n; ++i)
        out[i] = random() % 3 == 0 ? special[random() % std::size(special)] : value(random);
    return out;
}

std::vector<int32_t> IntInputs(size_t n, uint32_t seed) {
    const int32_t special[] = {
        0,     1,     -1, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
        65536, -65537};
    std::mt19937 random(seed);
    std::vector<int32_t> out(n);
    for (size_t i = 0; i < n; ++i) {
        out[i] = random() % 3 == 0 ? special[random() % std::size(special)]
                                   : static_cast<int32_t>(random());
    }
    return out;
}

// The header's expressions (kernel_vec_binary.h, _unary.h, _scalar.h), one element at a time.
float FloatReference(VecOp op, float a, float b) {
    switch (op) {
        case VecOp::kAdd:
        case VecOp::kAdds:
            return a + b;
        case VecOp::kSub:
            return a - b;
        case VecOp::kMul:
        case VecOp::kMuls:
            return a * b;
        case VecOp::kDiv:
            return a / b;
        case VecOp::kMax:
        case VecOp::kMaxs:
            return a > b ? a : b;
        case VecOp::kMin:
        case VecOp::kMins:
            return a < b ? a : b;
        case VecOp::kLeakyRelu:
            return a > 0 ? a : a * b;
        case VecOp::kAbs:
            return a < 0 ? -a : a;
        case VecOp::kRelu:
            return a > 0 ? a : 0.0f;
        case VecOp::kSqrt:
            return std::sqrt(a);
        case VecOp::kRsqrt:
            return 1 / std::sqrt(a);
        case VecOp::kReciprocal:
            return 1 / a;
        default:
            ADD_FAILURE() << "no reference";
            return 0;
    }
}

int32_t IntReference(VecOp op, int32_t a, int32_t b) {
    const auto wrap = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
    switch (op) {
        case VecOp::kAdd:
        case VecOp::kAdds:
            return wrap(int64_t{a} + b);
        case VecOp::kSub:
            return wrap(int64_t{a} - b);
        case VecOp::kMul:
        case VecOp::kMuls:
            return wrap(int64_t{a} * b);
        case VecOp::kMax:
        case VecOp::kMaxs:
            return a > b ? a : b;
        case VecOp::kMin:
        case VecOp::kMins:
            return a < b ? a : b;
        case VecOp::kAnd:
            return a & b;
        case VecOp::kOr:
            return a | b;
        case VecOp::kLeakyRelu:
            return a > 0 ? a : wrap(int64_t{a} * b);
        case VecOp::kAbs:
            return a < 0 ? wrap(-int64_t{a}) : a;
        case VecOp::kRelu:
            return a > 0 ? a : 0;
        case VecOp::kNot:
            return ~a;
        default:
            ADD_FAILURE() << "no reference";
            return 0;
    }
}

enum class Form { kBinary, kScalar, kUnary };

struct Case {
    VecOp op;
    Form form;
    const char* name;
};

const Case kFloatCases[] = {
    {VecOp::kAdd, Form::kBinary, "Add"},
    {VecOp::kSub, Form::kBinary, "Sub"},
    {VecOp::kMul, Form::kBinary, "Mul"},
    {VecOp::kDiv, Form::kBinary, "Div"},
    {VecOp::kMax, Form::kBinary, "Max"},
    {VecOp::kMin, Form::kBinary, "Min"},
    {VecOp::kAdds, Form::kScalar, "Adds"},
    {VecOp::kMuls, Form::kScalar, "Muls"},
    {VecOp::kMaxs, Form::kScalar, "Maxs"},
    {VecOp::kMins, Form::kScalar, "Mins"},
    {VecOp::kLeakyRelu, Form::kScalar, "LeakyRelu"},
    {VecOp::kAbs, Form::kUnary, "Abs"},
    {VecOp::kRelu, Form::kUnary, "Relu"},
    {VecOp::kSqrt, Form::kUnary, "Sqrt"},
    {VecOp::kRsqrt, Form::kUnary, "Rsqrt"},
    {VecOp::kReciprocal, Form::kUnary, "Reciprocal"},
};

const Case kIntCases[] = {
    {VecOp::kAdd, Form::kBinary, "Add"},   {VecOp::kSub, Form::kBinary, "Sub"},
    {VecOp::kMul, Form::kBinary, "Mul"},   {VecOp::kMax, Form::kBinary, "Max"},
    {VecOp::kMin, Form::kBinary, "Min"},   {VecOp::kAnd, Form::kBinary, "And"},
    {VecOp::kOr, Form::kBinary, "Or"},     {VecOp::kAdds, Form::kScalar, "Adds"},
    {VecOp::kMuls, Form::kScalar, "Muls"}, {VecOp::kMaxs, Form::kScalar, "Maxs"},
    {VecOp::kMins, Form::kScalar, "Mins"}, {VecOp::kLeakyRelu, Form::kScalar, "LeakyRelu"},
    {VecOp::kAbs, Form::kUnary, "Abs"},    {VecOp::kRelu, Form::kUnary, "Relu"},
    {VecOp::kNot, Form::kUnary, "Not"},
};

const size_t kLengths[] = {0, 1, 7, 15, 16, 17, 31, 32, 33, 63, 100, 1000};

TEST(AscendcVectorLibrary, FloatOpsGiveTheHeadersBitsOnSpecialValuesAndEveryTail) {
    if (!HasAvx512()) GTEST_SKIP() << "this CPU has no AVX-512: the header's loops compute";
    const float scalars[] = {0.5f, -2.0f, 0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN()};
    for (const Case& c : kFloatCases) {
        for (size_t n : kLengths) {
            for (float scalar : scalars) {
                const std::vector<float> a = FloatInputs(n, 1);
                const std::vector<float> b = FloatInputs(n, 2);
                std::vector<float> out(n + 16, 12345.0f);
                ASSERT_EQ(Library(c.op, VecType::kFloat, out.data(), a.data(),
                                  c.form == Form::kBinary ? b.data() : nullptr,
                                  c.form == Form::kScalar ? &scalar : nullptr, n),
                          0)
                    << c.name;
                for (size_t i = 0; i < n; ++i) {
                    const float want =
                        FloatReference(c.op, a[i], c.form == Form::kBinary ? b[i] : scalar);
                    // A NaN from two NaN operands is some NaN: which operand's sign and payload
                    // it keeps is the compiler's choice in the header's loop too.
                    if (std::isnan(want)) {
                        ASSERT_TRUE(std::isnan(out[i])) << c.name << " element " << i;
                        continue;
                    }
                    uint32_t got_bits, want_bits;
                    std::memcpy(&got_bits, &out[i], 4);
                    std::memcpy(&want_bits, &want, 4);
                    ASSERT_EQ(got_bits, want_bits) << c.name << " element " << i << " of " << n
                                                   << ": " << a[i] << ", " << b[i];
                }
                for (size_t i = n; i < out.size(); ++i)
                    ASSERT_EQ(out[i], 12345.0f) << c.name << " wrote past its count " << n;
                if (c.form != Form::kScalar) break;  // the scalar matters only there
            }
        }
    }
}

// Half inputs: every kind of bit pattern (subnormals, NaNs, infinities, the largest finite
// values whose sums overflow) and ordinary numbers.
std::vector<half> HalfInputs(size_t n, uint32_t seed) {
    const uint16_t special[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0xfe00,
                                0x7d00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3555};
    std::mt19937 random(seed);
    std::vector<half> out(n);
    for (size_t i = 0; i < n; ++i) {
        const uint32_t pick = random() % 4;
        out[i].bits = pick == 0 ? special[random() % std::size(special)]
                      : pick == 1
                          ? static_cast<uint16_t>(random())
                          : half(std::uniform_real_distribution<float>(-60.0f, 60.0f)(random)).bits;
    }
    return out;
}

TEST(AscendcVectorLibrary, HalfOpsRoundOnceAsTheHeadersLoopsDo) {
    if (!HasAvx512()) GTEST_SKIP() << "this CPU has no AVX-512: the header's loops compute";
    const float scalars[] = {0.5f, -3.0f, 70000.0f, 1e-7f};  // the last two leave half's range
    for (const Case& c : kFloatCases) {
        for (size_t n : kLengths) {
            for (float scalar : scalars) {
                const std::vector<half> a = HalfInputs(n, 7);
                const std::vector<half> b = HalfInputs(n, 8);
                std::vector<half> out(n + 16, half(9.0f));
                ASSERT_EQ(Library(c.op, VecType::kHalf, out.data(), a.data(),
                                  c.form == Form::kBinary ? b.data() : nullptr,
                                  c.form == Form::kScalar ? &scalar : nullptr, n),
                          0)
                    << c.name;
                for (size_t i = 0; i < n; ++i) {
                    // The header's loop: compute in float, round once to half.
                    const half want(FloatReference(
                        c.op, static_cast<float>(a[i]),
                        c.form == Form::kBinary ? static_cast<float>(b[i]) : scalar));
                    if (std::isnan(static_cast<float>(want))) {
                        ASSERT_TRUE(std::isnan(static_cast<float>(out[i])))
                            << c.name << " element " << i;
                        continue;
                    }
                    ASSERT_EQ(out[i].bits, want.bits)
                        << c.name << " element " << i << " of " << n << ": bits " << a[i].bits
                        << ", " << b[i].bits;
                }
                for (size_t i = n; i < out.size(); ++i)
                    ASSERT_EQ(out[i].bits, half(9.0f).bits) << c.name << " wrote past " << n;
                if (c.form != Form::kScalar) break;
            }
        }
    }
}

TEST(AscendcVectorLibrary, Int32OpsWrapAsTheHeadersLoopsDo) {
    if (!HasAvx512()) GTEST_SKIP() << "this CPU has no AVX-512: the header's loops compute";
    const int32_t scalars[] = {3, -1, std::numeric_limits<int32_t>::min()};
    for (const Case& c : kIntCases) {
        for (size_t n : kLengths) {
            for (int32_t scalar : scalars) {
                const std::vector<int32_t> a = IntInputs(n, 3);
                const std::vector<int32_t> b = IntInputs(n, 4);
                std::vector<int32_t> out(n + 16, 777);
                ASSERT_EQ(Library(c.op, VecType::kInt32, out.data(), a.data(),
                                  c.form == Form::kBinary ? b.data() : nullptr,
                                  c.form == Form::kScalar ? &scalar : nullptr, n),
                          0)
                    << c.name;
                for (size_t i = 0; i < n; ++i) {
                    ASSERT_EQ(out[i],
                              IntReference(c.op, a[i], c.form == Form::kBinary ? b[i] : scalar))
                        << c.name << " element " << i << ": " << a[i] << ", " << b[i];
                }
                for (size_t i = n; i < out.size(); ++i)
                    ASSERT_EQ(out[i], 777) << c.name << " wrote past its count " << n;
                if (c.form != Form::kScalar) break;
            }
        }
    }
}

// Floats around everything a conversion to half has to get right: ties between two halves,
// values past 65504 (finite ones saturate), half's subnormals, infinities and NaN.
std::vector<float> CastInputs(size_t n, uint32_t seed) {
    std::mt19937 random(seed);
    const std::vector<float> specials = FloatInputs(64, seed);
    std::vector<float> out(n);
    for (size_t i = 0; i < n; ++i) {
        const half h = HalfInputs(1, static_cast<uint32_t>(random()))[0];
        const float f = static_cast<float>(h);
        switch (random() % 6) {
            case 0:
                out[i] = specials[random() % specials.size()];
                break;
            case 1:  // halfway to the next half up (a tie) when h is finite
                out[i] = std::isfinite(f) ? f + std::fabs(f) * 0x1p-11f : f;
                break;
            case 2:
                out[i] = std::uniform_real_distribution<float>(-7e4f, 7e4f)(random);
                break;
            case 3:
                out[i] = std::uniform_real_distribution<float>(-1e-4f, 1e-4f)(random);
                break;
            case 4:
                out[i] = std::ldexp(1.0f, -25) * (random() % 5);
                break;  // around 2^-24
            default:
                out[i] = std::uniform_real_distribution<float>(-4.0f, 4.0f)(random);
                break;
        }
    }
    return out;
}

TEST(AscendcVectorLibrary, CastFloatToHalfRoundsAndSaturatesAsTheHeaderDoesInEachMode) {
    if (!HasAvx512()) GTEST_SKIP() << "this CPU has no AVX-512: the header's loops compute";
    using AscendC::RoundMode;
    for (RoundMode mode : {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
                           RoundMode::CAST_CEIL, RoundMode::CAST_TRUNC, RoundMode::CAST_HYBRID}) {
        for (size_t n : kLengths) {
            const std::vector<float> in = CastInputs(n + 1000 * (n == 1000), 11);
            std::vector<half> out(in.size() + 16, half(9.0f));
            ASSERT_EQ(
                openaclKernelCast(static_cast<uint32_t>(VecType::kHalf),
                                  static_cast<uint32_t>(VecType::kFloat),
                                  static_cast<uint32_t>(mode), out.data(), in.data(), in.size()),
                0);
            for (size_t i = 0; i < in.size(); ++i) {
                const half want = openacl::ascendc::ConvertElement<half, float>(in[i], mode);
                if (std::isnan(in[i])) {
                    ASSERT_TRUE(std::isnan(static_cast<float>(out[i])));
                    continue;
                }
                ASSERT_EQ(out[i].bits, want.bits)
                    << "mode " << static_cast<int>(mode) << ", element " << i << ": " << in[i];
            }
            for (size_t i = in.size(); i < out.size(); ++i)
                ASSERT_EQ(out[i].bits, half(9.0f).bits) << "wrote past " << in.size();
        }
    }
}

TEST(AscendcVectorLibrary, CastHalfToFloatIsExact) {
    if (!HasAvx512()) GTEST_SKIP() << "this CPU has no AVX-512: the header's loops compute";
    for (size_t n : kLengths) {
        const std::vector<half> in = HalfInputs(n, 12);
        std::vector<float> out(n + 16, 9.0f);
        ASSERT_EQ(
            openaclKernelCast(static_cast<uint32_t>(VecType::kFloat),
                              static_cast<uint32_t>(VecType::kHalf), 0, out.data(), in.data(), n),
            0);
        for (size_t i = 0; i < n; ++i) {
            const float want = static_cast<float>(in[i]);
            if (std::isnan(want)) {
                ASSERT_TRUE(std::isnan(out[i])) << i;
                continue;
            }
            ASSERT_EQ(std::memcmp(&out[i], &want, 4), 0) << i << ": bits " << in[i].bits;
        }
        for (size_t i = n; i < out.size(); ++i)
            ASSERT_EQ(out[i], 9.0f) << "wrote past " << n;
    }
}

TEST(AscendcVectorLibrary, CastModesAndTypesTheCpuLacksAreLeftToTheHeader) {
    std::vector<float> in(32, 1.5f);
    std::vector<half> out(32, half(0.0f));
    const auto cast = [&](AscendC::RoundMode mode) {
        return openaclKernelCast(static_cast<uint32_t>(VecType::kHalf),
                                 static_cast<uint32_t>(VecType::kFloat),
                                 static_cast<uint32_t>(mode), out.data(), in.data(), 32);
    };
    EXPECT_NE(cast(AscendC::RoundMode::CAST_ROUND), 0);
    EXPECT_NE(cast(AscendC::RoundMode::CAST_ODD), 0);
    EXPECT_NE(
        openaclKernelCast(static_cast<uint32_t>(VecType::kInt32),
                          static_cast<uint32_t>(VecType::kFloat), 0, out.data(), in.data(), 16),
        0);
    EXPECT_EQ(out[0].bits, half(0.0f).bits);
}

TEST(AscendcVectorLibrary, ADestinationThatIsItsSourceIsComputedInPlace) {
    if (!HasAvx512()) GTEST_SKIP() << "this CPU has no AVX-512: the header's loops compute";
    std::vector<float> x = FloatInputs(100, 5);
    const std::vector<float> y = FloatInputs(100, 6);
    const std::vector<float> before = x;
    ASSERT_EQ(Library(VecOp::kMul, VecType::kFloat, x.data(), x.data(), y.data(), nullptr, 100), 0);
    for (size_t i = 0; i < x.size(); ++i) {
        const float want = before[i] * y[i];
        ASSERT_EQ(std::memcmp(&x[i], &want, 4), 0) << i;
    }
}

TEST(AscendcVectorLibrary, ADestinationPartlyOverlappingASourceIsLeftToTheHeader) {
    std::vector<float> x(64, 1.0f);
    const std::vector<float> before = x;
    EXPECT_NE(Library(VecOp::kAdd, VecType::kFloat, x.data() + 1, x.data(), x.data(), nullptr, 32),
              0);
    EXPECT_NE(Library(VecOp::kAdds, VecType::kFloat, x.data(), x.data() + 8, nullptr, &x[0], 32),
              0);
    EXPECT_EQ(x, before);
}

TEST(AscendcVectorLibrary, OpsAndTypesItDoesNotComputeAreLeftToTheHeader) {
    std::vector<float> x(32, 2.0f), out(32, 0.0f);
    EXPECT_NE(Library(VecOp::kExp, VecType::kFloat, out.data(), x.data(), nullptr, nullptr, 32), 0);
    EXPECT_NE(Library(VecOp::kNone, VecType::kFloat, out.data(), x.data(), x.data(), nullptr, 32),
              0);
    EXPECT_NE(Library(VecOp::kAdd, VecType::kNone, out.data(), x.data(), x.data(), nullptr, 32), 0);
    EXPECT_NE(Library(VecOp::kAdds, VecType::kFloat, out.data(), x.data(), nullptr, nullptr, 32),
              0);  // a vector-scalar op without its scalar
    EXPECT_EQ(out, std::vector<float>(32, 0.0f));
}

TEST(AscendcVectorLibrary, TheKernelHeaderHandsItsCountFormsToTheLibrary) {
    if (!HasAvx512()) GTEST_SKIP() << "this CPU has no AVX-512: the header's loops compute";
    std::vector<float> a(40, 1.5f), b(40, 2.0f), out(40, 0.0f);
    EXPECT_TRUE(
        openacl::ascendc::VectorLibrary(VecOp::kAdd, out.data(), a.data(), b.data(), nullptr, 40));
    EXPECT_EQ(out, std::vector<float>(40, 3.5f));
    std::vector<half> h(40, half(1.25f)), g(40, half(0.0f));
    EXPECT_TRUE(
        openacl::ascendc::VectorLibrary(VecOp::kMul, g.data(), h.data(), h.data(), nullptr, 40));
    EXPECT_EQ(static_cast<float>(g[39]), 1.5625f);
    // Types the library does not take are not handed over.
    std::vector<int16_t> s(40, 1), t(40, 0);
    EXPECT_FALSE(
        openacl::ascendc::VectorLibrary(VecOp::kAdd, t.data(), s.data(), s.data(), nullptr, 40));
}

}  // namespace
