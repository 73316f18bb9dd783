// Cast: element type conversion with a RoundMode. Results out of the destination's range
// saturate (to the largest finite value, or the integer limits); NaN becomes 0 in integers.
#ifndef OPENACL_ASCENDC_KERNEL_VEC_CAST_H_
#define OPENACL_ASCENDC_KERNEL_VEC_CAST_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernel_rounding.h"
#include "kernel_vec_common.h"
#include "kernel_vec_library.h"

namespace openacl::ascendc {

template <typename T>
__aicore__ inline double ToDouble(T value) {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        return static_cast<double>(static_cast<float>(value));
    } else {
        return static_cast<double>(value);
    }
}

// One element converted: exact where the destination holds the value, otherwise rounded by
// `mode` (CAST_NONE rounds to nearest even).
template <typename D, typename S>
__aicore__ inline D ConvertElement(S value, AscendC::RoundMode mode) {
    double x = ToDouble(value);
    if constexpr (std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t> ||
                  std::is_same_v<D, float>) {
        constexpr FloatFormat format = std::is_same_v<D, half>         ? kHalfFormat
                                       : std::is_same_v<D, bfloat16_t> ? kBfloat16Format
                                                                       : kFloatFormat;
        // The rounded value is exact in float and in D.
        return D(static_cast<float>(RoundToFormat(x, format, mode, true)));
    } else if constexpr (std::is_same_v<D, double>) {
        return x;
    } else {
        static_assert(std::is_integral_v<D>, "Cast: unsupported destination type");
        if (std::isnan(x)) return 0;
        double r = std::isinf(x) ? x : RoundToInteger(x, mode);
        constexpr double lowest = static_cast<double>(std::numeric_limits<D>::lowest());
        constexpr double highest = static_cast<double>(std::numeric_limits<D>::max());
        if (r <= lowest) return std::numeric_limits<D>::lowest();
        if (r >= highest) return std::numeric_limits<D>::max();
        return static_cast<D>(r);
    }
}

}  // namespace openacl::ascendc

namespace AscendC {

// dst (type T) = src (type U) converted, for the first `count` elements.
template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                            const RoundMode& roundMode, const uint32_t count) {
    openacl::ascendc::CheckOperand("Cast", "dst", dst, uint64_t(count) * sizeof(T),
                                   openacl::ascendc::kVectorWrite);
    openacl::ascendc::CheckOperand("Cast", "src", src, uint64_t(count) * sizeof(U));
    T* d = dst.Data();
    const U* s = src.Data();
    RoundMode mode = roundMode;
    if (openacl::ascendc::CastLibrary(static_cast<uint32_t>(mode), d, s, count)) return;
    for (uint32_t i = 0; i < count; ++i)
        d[i] = openacl::ascendc::ConvertElement<T, U>(s[i], mode);
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_VEC_CAST_H_
