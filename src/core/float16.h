// The two 16-bit floating-point formats device tasks read and write in place: IEEE 754 binary16
// (float16, ACL_FLOAT16) and bfloat16 (ACL_BF16, the upper half of a binary32). Both are
// sign-magnitude; values are rounded to them once, from a double, to nearest with ties to even,
// so that a result never depends on an intermediate float rounding (or on the thread's
// floating-point rounding mode).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace openacl::f16 {

inline float HalfToFloat(uint16_t bits) {
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1fu;
    const uint32_t fraction = bits & 0x3ffu;
    if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (fraction << 13));
    if (exponent != 0) {
        return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (fraction << 13));
    }
    // Zero or subnormal: fraction * 2^-24, exact in a float. A multiplication, not ldexp:
    // that is a libm call per element, and float16 KV caches are mostly zeros.
    const float magnitude = static_cast<float>(fraction) * 0x1p-24f;
    return sign != 0 ? -magnitude : magnitude;
}

inline float Bf16ToFloat(uint16_t bits) {
    return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

namespace detail {

// Rounds |x| (finite, non-zero) to `fraction_bits` bits after the leading one, with exponents
// below `min_exponent` given the quantum of the smallest normal (gradual underflow), ties to
// even. The result is exact in the target format, and in a float.
inline double RoundMagnitude(double magnitude, int fraction_bits, int min_exponent) {
    int exponent = std::ilogb(magnitude);
    if (exponent < min_exponent) exponent = min_exponent;
    const int quantum = exponent - fraction_bits;
    const double scaled = std::ldexp(magnitude, -quantum);  // exact: a power-of-two scaling
    double whole = std::floor(scaled);
    const double rest = scaled - whole;
    if (rest > 0.5 || (rest == 0.5 && std::fmod(whole, 2.0) != 0.0)) whole += 1.0;
    return std::ldexp(whole, quantum);
}

}  // namespace detail

// binary16 nearest to x (NaN stays NaN, beyond the largest finite value becomes infinity).
inline uint16_t HalfFromDouble(double x) {
    const uint16_t sign = std::signbit(x) ? 0x8000u : 0u;
    if (std::isnan(x)) return static_cast<uint16_t>(sign | 0x7e00u);
    const double magnitude = std::fabs(x);
    if (magnitude >= 65520.0) return static_cast<uint16_t>(sign | 0x7c00u);  // halfway to 2^16
    if (magnitude == 0.0) return sign;
    const double r = detail::RoundMagnitude(magnitude, 10, -14);
    if (r < 0x1p-14) {  // subnormal: r is a whole number of 2^-24
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::ldexp(r, 24)));
    }
    const uint32_t bits = std::bit_cast<uint32_t>(static_cast<float>(r));
    const uint32_t exponent = ((bits >> 23) & 0xffu) - 112u;  // 127 - 15
    return static_cast<uint16_t>(sign | (exponent << 10) | ((bits & 0x7fffffu) >> 13));
}

// bfloat16 nearest to x (NaN stays NaN, beyond the largest finite value becomes infinity).
inline uint16_t Bf16FromDouble(double x) {
    const uint16_t sign = std::signbit(x) ? 0x8000u : 0u;
    if (std::isnan(x)) return static_cast<uint16_t>(sign | 0x7fc0u);
    const double magnitude = std::fabs(x);
    if (magnitude >= 0x1.ffp127) return static_cast<uint16_t>(sign | 0x7f80u);  // halfway to 2^128
    if (magnitude == 0.0) return sign;
    const double r = detail::RoundMagnitude(magnitude, 7, -126);
    return static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(static_cast<float>(r)) >> 16));
}

// The next representable value below the finite value `bits` of a 16-bit sign-magnitude format
// (the largest negative value becomes minus infinity).
inline uint16_t NextDown(uint16_t bits) {
    if ((bits & 0x7fffu) == 0) return 0x8001u;  // below zero: the smallest negative subnormal
    return (bits & 0x8000u) != 0 ? static_cast<uint16_t>(bits + 1)
                                 : static_cast<uint16_t>(bits - 1);
}

}  // namespace openacl::f16
