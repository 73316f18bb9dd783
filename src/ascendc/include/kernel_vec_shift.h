// Vector shifts by a scalar: ShiftLeft and ShiftRight on 16- and 32-bit integers. Left shifts are
// logical; right shifts are arithmetic for signed types and logical for unsigned ones, and may
// round (roundEn, signed types only: one is added when the last bit shifted out was 1). The
// count is 0 .. the element's width, as CANN documents; a count outside that range is refused.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_SHIFT_H_
#define OPENACL_ASCENDC_KERNEL_VEC_SHIFT_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include "kernel_vec_unary.h"

namespace openacl::ascendc {

template <typename T>
inline constexpr bool kShiftable = std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> ||
                                   std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t>;

template <typename T>
__aicore__ inline uint32_t CheckedShift(const char* api, T count) {
    constexpr int64_t kWidth = sizeof(T) * 8;
    if (static_cast<int64_t>(count) < 0 || static_cast<int64_t>(count) > kWidth) {
        Trap(api, "scalarValue " + std::to_string(static_cast<int64_t>(count)) +
                      " shifts outside 0.." + std::to_string(kWidth) + " for a " +
                      std::to_string(kWidth) + "-bit element");
    }
    return static_cast<uint32_t>(count);
}

// In 64 bits, so that a shift by the full width is defined (and gives 0, or -1 / 0 by sign).
template <typename T>
__aicore__ inline T ShiftLeftOf(T x, uint32_t count) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<uint64_t>(static_cast<U>(x)) << count));
}

template <typename T>
__aicore__ inline T ShiftRightOf(T x, uint32_t count, bool round) {
    if constexpr (std::is_signed_v<T>) {
        const int64_t wide = x;
        int64_t shifted = wide >> count;  // arithmetic: the sign fills in
        if (round && count > 0) shifted += (wide >> (count - 1)) & 1;
        return static_cast<T>(shifted);
    } else {
        return static_cast<T>(static_cast<uint64_t>(x) >> count);
    }
}

}  // namespace openacl::ascendc

namespace AscendC {

template <typename T, bool isSetMask = true>
requires(openacl::ascendc::kShiftable<T>) __aicore__
    inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                          const T& scalarValue, const int32_t& count) {
    const uint32_t s = openacl::ascendc::CheckedShift("ShiftLeft", scalarValue);
    openacl::ascendc::UnaryCount("ShiftLeft", dst, src, count,
                                 [s](auto x) { return openacl::ascendc::ShiftLeftOf<T>(x, s); });
}

template <typename T, bool isSetMask = true>
requires(openacl::ascendc::kShiftable<T>) __aicore__
    inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                          const T& scalarValue, uint64_t mask, const uint8_t repeatTime,
                          const UnaryRepeatParams& repeatParams) {
    const uint32_t s = openacl::ascendc::CheckedShift("ShiftLeft", scalarValue);
    openacl::ascendc::UnaryRepeat<T, isSetMask>(
        "ShiftLeft", dst, src, nullptr, mask, repeatTime, repeatParams,
        [s](auto x) { return openacl::ascendc::ShiftLeftOf<T>(x, s); });
}

template <typename T, bool isSetMask = true>
requires(openacl::ascendc::kShiftable<T>) __aicore__
    inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                          const T& scalarValue, const uint64_t mask[], const uint8_t repeatTime,
                          const UnaryRepeatParams& repeatParams) {
    const uint32_t s = openacl::ascendc::CheckedShift("ShiftLeft", scalarValue);
    openacl::ascendc::UnaryRepeat<T, isSetMask>(
        "ShiftLeft", dst, src, mask, 0, repeatTime, repeatParams,
        [s](auto x) { return openacl::ascendc::ShiftLeftOf<T>(x, s); });
}

template <typename T, bool isSetMask = true>
requires(openacl::ascendc::kShiftable<T>) __aicore__
    inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const T& scalarValue, const int32_t& count) {
    const uint32_t s = openacl::ascendc::CheckedShift("ShiftRight", scalarValue);
    openacl::ascendc::UnaryCount("ShiftRight", dst, src, count, [s](auto x) {
        return openacl::ascendc::ShiftRightOf<T>(x, s, false);
    });
}

template <typename T, bool isSetMask = true>
requires(openacl::ascendc::kShiftable<T>) __aicore__
    inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const T& scalarValue, uint64_t mask, const uint8_t repeatTime,
                           const UnaryRepeatParams& repeatParams, bool roundEn = false) {
    const uint32_t s = openacl::ascendc::CheckedShift("ShiftRight", scalarValue);
    openacl::ascendc::UnaryRepeat<T, isSetMask>(
        "ShiftRight", dst, src, nullptr, mask, repeatTime, repeatParams,
        [s, roundEn](auto x) { return openacl::ascendc::ShiftRightOf<T>(x, s, roundEn); });
}

template <typename T, bool isSetMask = true>
requires(openacl::ascendc::kShiftable<T>) __aicore__
    inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const T& scalarValue, const uint64_t mask[], const uint8_t repeatTime,
                           const UnaryRepeatParams& repeatParams, bool roundEn = false) {
    const uint32_t s = openacl::ascendc::CheckedShift("ShiftRight", scalarValue);
    openacl::ascendc::UnaryRepeat<T, isSetMask>(
        "ShiftRight", dst, src, mask, 0, repeatTime, repeatParams,
        [s, roundEn](auto x) { return openacl::ascendc::ShiftRightOf<T>(x, s, roundEn); });
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_VEC_SHIFT_H_
