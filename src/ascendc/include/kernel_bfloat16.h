// bfloat16_t: the top 16 bits of a float (8 exponent, 7 mantissa bits), arithmetic through
// float. Conversions from float round to nearest even; NaN stays NaN.
#ifndef OPENACL_ASCENDC_KERNEL_BFLOAT16_H_
#define OPENACL_ASCENDC_KERNEL_BFLOAT16_H_

#include <bit>
#include <cstdint>
#include <type_traits>

#include "kernel_rounding.h"

namespace openacl::ascendc {

__aicore__ inline uint16_t FloatToBfloat16Bits(float value) {
    uint32_t f = std::bit_cast<uint32_t>(value);
    if ((f & 0x7fffffffU) > 0x7f800000U) return static_cast<uint16_t>((f >> 16) | 0x40U);
    f += 0x7fffU + ((f >> 16) & 1U);  // ties to even; a carry into the exponent is correct
    return static_cast<uint16_t>(f >> 16);
}

__aicore__ inline float Bfloat16BitsToFloat(uint16_t bits) {
    return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

}  // namespace openacl::ascendc

struct bfloat16_t {
    uint16_t bits;  // uninitialised by default, like a built-in scalar

    bfloat16_t() = default;
    __aicore__ bfloat16_t(float value) : bits(openacl::ascendc::FloatToBfloat16Bits(value)) {}
    __aicore__ bfloat16_t(double value)
        : bits(openacl::ascendc::FloatToBfloat16Bits(static_cast<float>(
              openacl::ascendc::RoundToFormat(value, openacl::ascendc::kBfloat16Format,
                                              AscendC::RoundMode::CAST_RINT, false)))) {}
    template <typename I>
    requires std::is_integral_v<I> __aicore__ bfloat16_t(I value)
        : bfloat16_t(static_cast<double>(value)) {}

    __aicore__ static bfloat16_t FromBits(uint16_t raw) {
        bfloat16_t b;
        b.bits = raw;
        return b;
    }

    __aicore__ operator float() const { return openacl::ascendc::Bfloat16BitsToFloat(bits); }

    __aicore__ bfloat16_t operator-() const {
        return FromBits(static_cast<uint16_t>(bits ^ 0x8000U));
    }

    friend __aicore__ bfloat16_t operator+(bfloat16_t a, bfloat16_t b) {
        return bfloat16_t(float(a) + float(b));
    }
    friend __aicore__ bfloat16_t operator-(bfloat16_t a, bfloat16_t b) {
        return bfloat16_t(float(a) - float(b));
    }
    friend __aicore__ bfloat16_t operator*(bfloat16_t a, bfloat16_t b) {
        return bfloat16_t(float(a) * float(b));
    }
    friend __aicore__ bfloat16_t operator/(bfloat16_t a, bfloat16_t b) {
        return bfloat16_t(float(a) / float(b));
    }
    friend __aicore__ bool operator==(bfloat16_t a, bfloat16_t b) { return float(a) == float(b); }
    friend __aicore__ bool operator<(bfloat16_t a, bfloat16_t b) { return float(a) < float(b); }
    friend __aicore__ bool operator>(bfloat16_t a, bfloat16_t b) { return float(a) > float(b); }
    __aicore__ bfloat16_t& operator+=(bfloat16_t o) { return *this = *this + o; }
    __aicore__ bfloat16_t& operator*=(bfloat16_t o) { return *this = *this * o; }
};

static_assert(sizeof(bfloat16_t) == 2 && std::is_trivial_v<bfloat16_t>);

#endif  // OPENACL_ASCENDC_KERNEL_BFLOAT16_H_
