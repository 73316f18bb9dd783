// Rounding a real value to a narrower format with one of Ascend C's round modes: the arithmetic
// behind half, bfloat16_t and Cast.
#ifndef OPENACL_ASCENDC_KERNEL_ROUNDING_H_
#define OPENACL_ASCENDC_KERNEL_ROUNDING_H_

#include <cmath>
#include <cstdint>
#include <limits>

#ifndef __aicore__
#define __aicore__
#endif

namespace AscendC {

// Precision conversion modes of Cast (values as in CANN).
enum class RoundMode : uint8_t {
    CAST_NONE = 0,  // round to nearest even where the conversion loses precision
    CAST_RINT,      // to nearest, ties to even
    CAST_FLOOR,     // towards -infinity
    CAST_CEIL,      // towards +infinity
    CAST_ROUND,     // to nearest, ties away from zero
    CAST_TRUNC,     // towards zero
    CAST_ODD,       // to the nearest odd on inexact results (von Neumann)
    CAST_HYBRID,    // stochastic; hifloat8 only
};

}  // namespace AscendC

namespace openacl::ascendc {

// x rounded to an integer (as a double). x must be finite.
__aicore__ inline double RoundToInteger(double x, AscendC::RoundMode mode) {
    using AscendC::RoundMode;
    switch (mode) {
        case RoundMode::CAST_FLOOR:
            return std::floor(x);
        case RoundMode::CAST_CEIL:
            return std::ceil(x);
        case RoundMode::CAST_ROUND:
            return std::round(x);
        case RoundMode::CAST_TRUNC:
            return std::trunc(x);
        case RoundMode::CAST_ODD: {
            double t = std::trunc(x);
            if (t != x && std::fmod(t, 2.0) == 0.0) t += std::copysign(1.0, x);
            return t;
        }
        default: {  // NONE, RINT, HYBRID: ties to even, independent of the FPU's mode
            double low = std::floor(x);
            double diff = x - low;
            if (diff > 0.5) return low + 1.0;
            if (diff < 0.5) return low;
            return std::fmod(low, 2.0) == 0.0 ? low : low + 1.0;
        }
    }
}

// A binary floating-point format: `precision` significand bits (hidden bit included),
// `minExponent` the frexp exponent of the smallest normal value, `maxFinite` its largest value.
struct FloatFormat {
    int precision;
    int minExponent;
    double maxFinite;
};
constexpr FloatFormat kHalfFormat{11, -13, 65504.0};
constexpr FloatFormat kBfloat16Format{8, -125, 3.38953138925153547590470800371487866880e+38};
constexpr FloatFormat kFloatFormat{24, -125, 3.40282346638528859811704183484516925440e+38};

// x rounded to the format (subnormals included). Overflow gives the largest finite value when
// `saturate` (Cast's behaviour), infinity otherwise (IEEE's); infinities and NaN pass through.
__aicore__ inline double RoundToFormat(double x, FloatFormat format, AscendC::RoundMode mode,
                                       bool saturate) {
    if (std::isnan(x) || std::isinf(x) || x == 0.0) return x;
    int exponent = 0;
    std::frexp(x, &exponent);
    int quantum =
        (exponent > format.minExponent ? exponent : format.minExponent) - format.precision;
    double rounded = std::ldexp(RoundToInteger(std::ldexp(x, -quantum), mode), quantum);
    if (rounded == 0.0) return std::copysign(0.0, x);  // a negative value rounds to -0
    if (std::fabs(rounded) > format.maxFinite) {
        bool towardsZero = mode == AscendC::RoundMode::CAST_TRUNC ||
                           mode == AscendC::RoundMode::CAST_ODD ||
                           (mode == AscendC::RoundMode::CAST_FLOOR && x > 0) ||
                           (mode == AscendC::RoundMode::CAST_CEIL && x < 0);
        if (saturate || towardsZero) return std::copysign(format.maxFinite, x);
        return std::copysign(std::numeric_limits<double>::infinity(), x);
    }
    return rounded;
}

}  // namespace openacl::ascendc

#endif  // OPENACL_ASCENDC_KERNEL_ROUNDING_H_
