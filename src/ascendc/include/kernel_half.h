// half: IEEE 754 binary16 storage with arithmetic through float (Ascend C's scalar half type).
//
// Conversions from float round to nearest even and keep infinities, NaN and subnormals; the
// result of +, -, *, / is the float result rounded once, which is the correctly rounded binary16
// result. Mixed with a floating-point scalar, half promotes to it (h * 0.5f is a float); mixed
// with an integer it stays half.
#ifndef OPENACL_ASCENDC_KERNEL_HALF_H_
#define OPENACL_ASCENDC_KERNEL_HALF_H_

#include <bit>
#include <cstdint>
#include <type_traits>

#include "kernel_rounding.h"

namespace openacl::ascendc {

__aicore__ inline uint16_t FloatToHalfBits(float value) {
    uint32_t f = std::bit_cast<uint32_t>(value);
    uint32_t sign = (f >> 16) & 0x8000U;
    uint32_t magnitude = f & 0x7fffffffU;
    if (magnitude > 0x7f800000U) {  // NaN: quiet, keeping the top payload bits
        return static_cast<uint16_t>(sign | 0x7e00U | ((magnitude >> 13) & 0x3ffU));
    }
    if (magnitude >= 0x477ff000U) {  // >= 65520 rounds past 65504: infinity
        return static_cast<uint16_t>(sign | 0x7c00U);
    }
    if (magnitude < 0x38800000U) {  // below 2^-14: a subnormal half or zero
        uint32_t exponent = magnitude >> 23;
        if (exponent < 102) return static_cast<uint16_t>(sign);  // <= 2^-25 rounds to zero
        uint32_t mantissa = (magnitude & 0x7fffffU) | 0x800000U;
        uint32_t shift = 126 - exponent;
        uint32_t result = mantissa >> shift;
        uint32_t rest = mantissa & ((1U << shift) - 1);
        uint32_t halfway = 1U << (shift - 1);
        if (rest > halfway || (rest == halfway && (result & 1U))) ++result;
        return static_cast<uint16_t>(sign | result);
    }
    uint32_t result = (magnitude - 0x38000000U) >> 13;  // rebias the exponent from 127 to 15
    uint32_t rest = magnitude & 0x1fffU;
    if (rest > 0x1000U || (rest == 0x1000U && (result & 1U))) ++result;
    return static_cast<uint16_t>(sign | result);
}

__aicore__ inline float HalfBitsToFloat(uint16_t bits) {
    uint32_t sign = static_cast<uint32_t>(bits & 0x8000U) << 16;
    uint32_t exponent = (bits >> 10) & 0x1fU;
    uint32_t mantissa = bits & 0x3ffU;
    if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000U | (mantissa << 13));
    if (exponent == 0) {
        float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    }
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

template <typename U>
concept HalfScalar = std::is_arithmetic_v<U> && !std::is_same_v<U, bool>;

}  // namespace openacl::ascendc

struct half {
    uint16_t bits;  // uninitialised by default, like a built-in scalar

    half() = default;
    __aicore__ half(float value) : bits(openacl::ascendc::FloatToHalfBits(value)) {}
    // Rounded once from the double (through float would round twice).
    __aicore__ half(double value)
        : bits(openacl::ascendc::FloatToHalfBits(static_cast<float>(openacl::ascendc::RoundToFormat(
              value, openacl::ascendc::kHalfFormat, AscendC::RoundMode::CAST_RINT, false)))) {}
    template <typename I>
    requires std::is_integral_v<I> __aicore__ half(I value) : half(static_cast<double>(value)) {}

    __aicore__ static half FromBits(uint16_t raw) {
        half h;
        h.bits = raw;
        return h;
    }

    __aicore__ operator float() const { return openacl::ascendc::HalfBitsToFloat(bits); }

    __aicore__ half operator-() const { return FromBits(static_cast<uint16_t>(bits ^ 0x8000U)); }
    __aicore__ half operator+() const { return *this; }

    friend __aicore__ half operator+(half a, half b) { return half(float(a) + float(b)); }
    friend __aicore__ half operator-(half a, half b) { return half(float(a) - float(b)); }
    friend __aicore__ half operator*(half a, half b) { return half(float(a) * float(b)); }
    friend __aicore__ half operator/(half a, half b) { return half(float(a) / float(b)); }
    friend __aicore__ bool operator==(half a, half b) { return float(a) == float(b); }
    friend __aicore__ bool operator<(half a, half b) { return float(a) < float(b); }
    friend __aicore__ bool operator>(half a, half b) { return float(a) > float(b); }
    friend __aicore__ bool operator<=(half a, half b) { return float(a) <= float(b); }
    friend __aicore__ bool operator>=(half a, half b) { return float(a) >= float(b); }

    __aicore__ half& operator+=(half o) { return *this = *this + o; }
    __aicore__ half& operator-=(half o) { return *this = *this - o; }
    __aicore__ half& operator*=(half o) { return *this = *this * o; }
    __aicore__ half& operator/=(half o) { return *this = *this / o; }
    __aicore__ half& operator++() { return *this += half(1.0f); }
    __aicore__ half& operator--() { return *this -= half(1.0f); }
};

// half with another arithmetic scalar: floating-point scalars promote, integers stay half. These
// are exact matches, so they win over the built-in operators reached through operator float().
#define OPENACL_HALF_MIXED_OPERATOR(op)               \
    template <openacl::ascendc::HalfScalar U>         \
    __aicore__ inline auto operator op(half a, U b) { \
        if constexpr (std::is_floating_point_v<U>)    \
            return static_cast<U>(float(a)) op b;     \
        else                                          \
            return a op half(b);                      \
    }                                                 \
    template <openacl::ascendc::HalfScalar U>         \
    __aicore__ inline auto operator op(U a, half b) { \
        if constexpr (std::is_floating_point_v<U>)    \
            return a op static_cast<U>(float(b));     \
        else                                          \
            return half(a) op b;                      \
    }
OPENACL_HALF_MIXED_OPERATOR(+)
OPENACL_HALF_MIXED_OPERATOR(-)
OPENACL_HALF_MIXED_OPERATOR(*)
OPENACL_HALF_MIXED_OPERATOR(/)
OPENACL_HALF_MIXED_OPERATOR(==)
OPENACL_HALF_MIXED_OPERATOR(<)
OPENACL_HALF_MIXED_OPERATOR(>)
OPENACL_HALF_MIXED_OPERATOR(<=)
OPENACL_HALF_MIXED_OPERATOR(>=)
#undef OPENACL_HALF_MIXED_OPERATOR

static_assert(sizeof(half) == 2 && std::is_trivial_v<half>);

#endif  // OPENACL_ASCENDC_KERNEL_HALF_H_
