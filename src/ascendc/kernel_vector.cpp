// libascendcl's side of the kernel API's element-wise instructions (openaclKernelVector,
// declared weak in kernel_vec_library.h): their count forms on float, half and int32, 16 lanes
// at a time with AVX-512 where the CPU has it. Each lane computes exactly what the header's
// scalar expression does (same IEEE operation, same NaN and signed-zero choices, half widened to
// float and rounded back to nearest even), so a kernel's result does not depend on which of the
// two ran.

// GCC 12's AVX-512 intrinsics start some results from an "undefined" vector and then warn that
// it may be used uninitialised (GCC bug 105593, fixed in 13).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernel_vec_library.h"

namespace {

using openacl::ascendc::VecOp;
using openacl::ascendc::VecType;

#define OPENACL_AVX512 __attribute__((target("avx512f")))

// ---- float: each op maps 16 lanes (a: the element, b: the other element or the scalar) ----

struct AddF {
    static OPENACL_AVX512 __m512 Run(__m512 a, __m512 b) { return _mm512_add_ps(a, b); }
};
struct SubF {
    static OPENACL_AVX512 __m512 Run(__m512 a, __m512 b) { return _mm512_sub_ps(a, b); }
};
struct MulF {
    static OPENACL_AVX512 __m512 Run(__m512 a, __m512 b) { return _mm512_mul_ps(a, b); }
};
struct DivF {
    static OPENACL_AVX512 __m512 Run(__m512 a, __m512 b) { return _mm512_div_ps(a, b); }
};
// vmaxps is `a > b ? a : b` and vminps `a < b ? a : b`: the second operand on NaN or equality.
struct MaxF {
    static OPENACL_AVX512 __m512 Run(__m512 a, __m512 b) { return _mm512_max_ps(a, b); }
};
struct MinF {
    static OPENACL_AVX512 __m512 Run(__m512 a, __m512 b) { return _mm512_min_ps(a, b); }
};
// x > 0 ? x : x * s
struct LeakyReluF {
    static OPENACL_AVX512 __m512 Run(__m512 x, __m512 s) {
        const __mmask16 positive = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ);
        return _mm512_mask_mul_ps(x, static_cast<__mmask16>(~positive), x, s);
    }
};
// x < 0 ? -x : x (-0 and NaN keep their sign)
struct AbsF {
    static OPENACL_AVX512 __m512 Run(__m512 x, __m512) {
        const __mmask16 negative = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
        const __m512i bits = _mm512_castps_si512(x);
        return _mm512_castsi512_ps(
            _mm512_mask_xor_epi32(bits, negative, bits, _mm512_set1_epi32(INT32_MIN)));
    }
};
// x > 0 ? x : 0 (NaN and -0 give +0)
struct ReluF {
    static OPENACL_AVX512 __m512 Run(__m512 x, __m512) {
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ), x);
    }
};
struct SqrtF {
    static OPENACL_AVX512 __m512 Run(__m512 x, __m512) { return _mm512_sqrt_ps(x); }
};
struct RsqrtF {  // 1 / sqrt(x), two roundings as in the header
    static OPENACL_AVX512 __m512 Run(__m512 x, __m512) {
        return _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_sqrt_ps(x));
    }
};
struct ReciprocalF {
    static OPENACL_AVX512 __m512 Run(__m512 x, __m512) {
        return _mm512_div_ps(_mm512_set1_ps(1.0f), x);
    }
};

// kBinary: b from src1; otherwise b is the scalar broadcast (unused by unary ops). The tail
// loads only its lanes (masked lanes do not fault) and stores only them.
enum class Shape { kBinary, kScalar };

template <class Op, Shape kShape>
OPENACL_AVX512 void MapFloat(float* d, const float* a, const float* b, float scalar, uint64_t n) {
    const __m512 s = _mm512_set1_ps(scalar);
    uint64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512 y = kShape == Shape::kBinary ? _mm512_loadu_ps(b + i) : s;
        _mm512_storeu_ps(d + i, Op::Run(_mm512_loadu_ps(a + i), y));
    }
    if (i < n) {
        const __mmask16 lanes = static_cast<__mmask16>((1u << (n - i)) - 1);
        const __m512 y = kShape == Shape::kBinary ? _mm512_maskz_loadu_ps(lanes, b + i) : s;
        _mm512_mask_storeu_ps(d + i, lanes, Op::Run(_mm512_maskz_loadu_ps(lanes, a + i), y));
    }
}

// ---- half: each lane widened to float (exact), computed as above, rounded to nearest even ----

template <class Op, Shape kShape>
OPENACL_AVX512 void MapHalf16(uint16_t* d, const uint16_t* a, const uint16_t* b, __m512 s) {
    const __m512 x = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a)));
    const __m512 y = kShape == Shape::kBinary
                         ? _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b)))
                         : s;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d),
                        _mm512_cvtps_ph(Op::Run(x, y), _MM_FROUND_TO_NEAREST_INT));
}

template <class Op, Shape kShape>
OPENACL_AVX512 void MapHalf(uint16_t* d, const uint16_t* a, const uint16_t* b, float scalar,
                            uint64_t n) {
    const __m512 s = _mm512_set1_ps(scalar);
    uint64_t i = 0;
    for (; i + 16 <= n; i += 16)
        MapHalf16<Op, kShape>(d + i, a + i, kShape == Shape::kBinary ? b + i : nullptr, s);
    if (i < n) {  // the tail through a whole vector's worth of scratch
        uint16_t x[16] = {}, y[16] = {}, out[16];
        std::memcpy(x, a + i, (n - i) * 2);
        if (kShape == Shape::kBinary) std::memcpy(y, b + i, (n - i) * 2);
        MapHalf16<Op, kShape>(out, x, y, s);
        std::memcpy(d + i, out, (n - i) * 2);
    }
}

// ---- int32: two's complement wrap-around, as the header's loop gives ----

struct AddI {
    static OPENACL_AVX512 __m512i Run(__m512i a, __m512i b) { return _mm512_add_epi32(a, b); }
};
struct SubI {
    static OPENACL_AVX512 __m512i Run(__m512i a, __m512i b) { return _mm512_sub_epi32(a, b); }
};
struct MulI {
    static OPENACL_AVX512 __m512i Run(__m512i a, __m512i b) { return _mm512_mullo_epi32(a, b); }
};
struct MaxI {
    static OPENACL_AVX512 __m512i Run(__m512i a, __m512i b) { return _mm512_max_epi32(a, b); }
};
struct MinI {
    static OPENACL_AVX512 __m512i Run(__m512i a, __m512i b) { return _mm512_min_epi32(a, b); }
};
struct AndI {
    static OPENACL_AVX512 __m512i Run(__m512i a, __m512i b) { return _mm512_and_si512(a, b); }
};
struct OrI {
    static OPENACL_AVX512 __m512i Run(__m512i a, __m512i b) { return _mm512_or_si512(a, b); }
};
struct LeakyReluI {
    static OPENACL_AVX512 __m512i Run(__m512i x, __m512i s) {
        const __mmask16 positive = _mm512_cmpgt_epi32_mask(x, _mm512_setzero_si512());
        return _mm512_mask_mullo_epi32(x, static_cast<__mmask16>(~positive), x, s);
    }
};
struct AbsI {  // INT32_MIN stays INT32_MIN, as -x wraps
    static OPENACL_AVX512 __m512i Run(__m512i x, __m512i) { return _mm512_abs_epi32(x); }
};
struct ReluI {
    static OPENACL_AVX512 __m512i Run(__m512i x, __m512i) {
        return _mm512_max_epi32(x, _mm512_setzero_si512());
    }
};
struct NotI {
    static OPENACL_AVX512 __m512i Run(__m512i x, __m512i) {
        return _mm512_xor_si512(x, _mm512_set1_epi32(-1));
    }
};

template <class Op, Shape kShape>
OPENACL_AVX512 void MapInt(int32_t* d, const int32_t* a, const int32_t* b, int32_t scalar,
                           uint64_t n) {
    const __m512i s = _mm512_set1_epi32(scalar);
    uint64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512i y = kShape == Shape::kBinary ? _mm512_loadu_si512(b + i) : s;
        _mm512_storeu_si512(d + i, Op::Run(_mm512_loadu_si512(a + i), y));
    }
    if (i < n) {
        const __mmask16 lanes = static_cast<__mmask16>((1u << (n - i)) - 1);
        const __m512i y = kShape == Shape::kBinary ? _mm512_maskz_loadu_epi32(lanes, b + i) : s;
        _mm512_mask_storeu_epi32(d + i, lanes, Op::Run(_mm512_maskz_loadu_epi32(lanes, a + i), y));
    }
}

bool HasAvx512() {
    static const bool has = __builtin_cpu_supports("avx512f");
    return has;
}

// Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte.
bool OverlapsBytes(const void* a, uint64_t a_bytes, const void* b, uint64_t b_bytes) {
    const auto x = reinterpret_cast<uintptr_t>(a);
    const auto y = reinterpret_cast<uintptr_t>(b);
    return x < y + b_bytes && y < x + a_bytes;
}

// A destination that overlaps a source without being it would see lanes the header's loop
// reads after writing them: left to that loop.
bool Overlaps(const void* dst, const void* src, uint64_t bytes) {
    return src != nullptr && dst != src && OverlapsBytes(dst, bytes, src, bytes);
}

// Calls map.template operator()<Op, Shape>() with the lane operation of `op`; returns 1 for an op
// this table lacks, or a vector-scalar op without its scalar.
template <class Map>
int DispatchFloatOp(VecOp op, bool has_scalar, Map map) {
    switch (op) {
        case VecOp::kAdd:
            map.template operator()<AddF, Shape::kBinary>();
            return 0;
        case VecOp::kSub:
            map.template operator()<SubF, Shape::kBinary>();
            return 0;
        case VecOp::kMul:
            map.template operator()<MulF, Shape::kBinary>();
            return 0;
        case VecOp::kDiv:
            map.template operator()<DivF, Shape::kBinary>();
            return 0;
        case VecOp::kMax:
            map.template operator()<MaxF, Shape::kBinary>();
            return 0;
        case VecOp::kMin:
            map.template operator()<MinF, Shape::kBinary>();
            return 0;
        case VecOp::kAbs:
            map.template operator()<AbsF, Shape::kScalar>();
            return 0;
        case VecOp::kRelu:
            map.template operator()<ReluF, Shape::kScalar>();
            return 0;
        case VecOp::kSqrt:
            map.template operator()<SqrtF, Shape::kScalar>();
            return 0;
        case VecOp::kRsqrt:
            map.template operator()<RsqrtF, Shape::kScalar>();
            return 0;
        case VecOp::kReciprocal:
            map.template operator()<ReciprocalF, Shape::kScalar>();
            return 0;
        default:
            break;
    }
    if (!has_scalar) return 1;
    switch (op) {
        case VecOp::kAdds:
            map.template operator()<AddF, Shape::kScalar>();
            return 0;
        case VecOp::kMuls:
            map.template operator()<MulF, Shape::kScalar>();
            return 0;
        case VecOp::kMaxs:
            map.template operator()<MaxF, Shape::kScalar>();
            return 0;
        case VecOp::kMins:
            map.template operator()<MinF, Shape::kScalar>();
            return 0;
        case VecOp::kLeakyRelu:
            map.template operator()<LeakyReluF, Shape::kScalar>();
            return 0;
        default:
            return 1;
    }
}

template <class Map>
int DispatchIntOp(VecOp op, bool has_scalar, Map map) {
    switch (op) {
        case VecOp::kAdd:
            map.template operator()<AddI, Shape::kBinary>();
            return 0;
        case VecOp::kSub:
            map.template operator()<SubI, Shape::kBinary>();
            return 0;
        case VecOp::kMul:
            map.template operator()<MulI, Shape::kBinary>();
            return 0;
        case VecOp::kMax:
            map.template operator()<MaxI, Shape::kBinary>();
            return 0;
        case VecOp::kMin:
            map.template operator()<MinI, Shape::kBinary>();
            return 0;
        case VecOp::kAnd:
            map.template operator()<AndI, Shape::kBinary>();
            return 0;
        case VecOp::kOr:
            map.template operator()<OrI, Shape::kBinary>();
            return 0;
        case VecOp::kAbs:
            map.template operator()<AbsI, Shape::kScalar>();
            return 0;
        case VecOp::kRelu:
            map.template operator()<ReluI, Shape::kScalar>();
            return 0;
        case VecOp::kNot:
            map.template operator()<NotI, Shape::kScalar>();
            return 0;
        default:
            break;
    }
    if (!has_scalar) return 1;
    switch (op) {
        case VecOp::kAdds:
            map.template operator()<AddI, Shape::kScalar>();
            return 0;
        case VecOp::kMuls:
            map.template operator()<MulI, Shape::kScalar>();
            return 0;
        case VecOp::kMaxs:
            map.template operator()<MaxI, Shape::kScalar>();
            return 0;
        case VecOp::kMins:
            map.template operator()<MinI, Shape::kScalar>();
            return 0;
        case VecOp::kLeakyRelu:
            map.template operator()<LeakyReluI, Shape::kScalar>();
            return 0;
        default:
            return 1;
    }
}

int RunFloat(VecOp op, float* d, const float* a, const float* b, const float* scalar, uint64_t n) {
    const float s = scalar != nullptr ? *scalar : 0.0f;
    return DispatchFloatOp(op, scalar != nullptr,
                           [&]<class Op, Shape kShape>() { MapFloat<Op, kShape>(d, a, b, s, n); });
}

int RunHalf(VecOp op, uint16_t* d, const uint16_t* a, const uint16_t* b, const float* scalar,
            uint64_t n) {
    const float s = scalar != nullptr ? *scalar : 0.0f;
    return DispatchFloatOp(op, scalar != nullptr,
                           [&]<class Op, Shape kShape>() { MapHalf<Op, kShape>(d, a, b, s, n); });
}

int RunInt(VecOp op, int32_t* d, const int32_t* a, const int32_t* b, const int32_t* scalar,
           uint64_t n) {
    const int32_t s = scalar != nullptr ? *scalar : 0;
    return DispatchIntOp(op, scalar != nullptr,
                         [&]<class Op, Shape kShape>() { MapInt<Op, kShape>(d, a, b, s, n); });
}

bool IsBinary(VecOp op) {
    switch (op) {
        case VecOp::kAdd:
        case VecOp::kSub:
        case VecOp::kMul:
        case VecOp::kDiv:
        case VecOp::kMax:
        case VecOp::kMin:
        case VecOp::kAnd:
        case VecOp::kOr:
            return true;
        default:
            return false;
    }
}

// ---- Cast between float and half ----

OPENACL_AVX512 void WidenHalves(float* d, const uint16_t* s, uint64_t n) {
    uint64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        _mm512_storeu_ps(
            d + i, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i))));
    }
    if (i < n) {
        uint16_t x[16] = {};
        std::memcpy(x, s + i, (n - i) * 2);
        const __mmask16 lanes = static_cast<__mmask16>((1u << (n - i)) - 1);
        _mm512_mask_storeu_ps(d + i, lanes,
                              _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<__m256i*>(x))));
    }
}

// Finite values beyond half's range become +-65504 first (Cast saturates, whatever the mode);
// infinities and NaN pass through. vcvtps2ph's rounding is an immediate, hence the template.
template <int kRounding>
OPENACL_AVX512 __m256i NarrowFloats(__m512 x) {
    const __m512 limit = _mm512_set1_ps(65504.0f);
    const __m512 clamped =
        _mm512_max_ps(_mm512_min_ps(x, limit), _mm512_sub_ps(_mm512_setzero_ps(), limit));
    const __m512 magnitude = _mm512_castsi512_ps(
        _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x7fffffff)));
    const __mmask16 not_finite =
        _mm512_cmp_ps_mask(magnitude, _mm512_set1_ps(__builtin_inff()), _CMP_NLT_UQ);  // inf or NaN
    return _mm512_cvtps_ph(_mm512_mask_mov_ps(clamped, not_finite, x), kRounding);
}

template <int kRounding>
OPENACL_AVX512 void NarrowFloatsTo(uint16_t* d, const float* s, uint64_t n) {
    uint64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i),
                            NarrowFloats<kRounding>(_mm512_loadu_ps(s + i)));
    }
    if (i < n) {
        const __mmask16 lanes = static_cast<__mmask16>((1u << (n - i)) - 1);
        uint16_t out[16];
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                            NarrowFloats<kRounding>(_mm512_maskz_loadu_ps(lanes, s + i)));
        std::memcpy(d + i, out, (n - i) * 2);
    }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int openaclKernelVector(
    uint32_t op, uint32_t type, void* dst, const void* src0, const void* src1, const void* scalar,
    uint64_t count) {
    if (count == 0) return 0;  // nothing to compute, whatever the op
    if (!HasAvx512() || dst == nullptr || src0 == nullptr) return 1;
    const auto vec_op = static_cast<VecOp>(op);
    if (IsBinary(vec_op) && src1 == nullptr) return 1;
    const auto vec_type = static_cast<VecType>(type);
    const uint64_t bytes = count * (vec_type == VecType::kHalf ? 2 : 4);
    if (Overlaps(dst, src0, bytes) || (IsBinary(vec_op) && Overlaps(dst, src1, bytes))) return 1;
    switch (vec_type) {
        case VecType::kHalf:
            return RunHalf(vec_op, static_cast<uint16_t*>(dst), static_cast<const uint16_t*>(src0),
                           static_cast<const uint16_t*>(src1), static_cast<const float*>(scalar),
                           count);
        case VecType::kFloat:
            return RunFloat(vec_op, static_cast<float*>(dst), static_cast<const float*>(src0),
                            static_cast<const float*>(src1), static_cast<const float*>(scalar),
                            count);
        case VecType::kInt32:
            return RunInt(vec_op, static_cast<int32_t*>(dst), static_cast<const int32_t*>(src0),
                          static_cast<const int32_t*>(src1), static_cast<const int32_t*>(scalar),
                          count);
        default:
            return 1;
    }
}

extern "C" __attribute__((visibility("default"))) int openaclKernelCast(uint32_t dst_type,
                                                                        uint32_t src_type,
                                                                        uint32_t mode, void* dst,
                                                                        const void* src,
                                                                        uint64_t count) {
    if (count == 0) return 0;
    if (!HasAvx512() || dst == nullptr || src == nullptr) return 1;
    const auto to = static_cast<VecType>(dst_type);
    const auto from = static_cast<VecType>(src_type);
    if (to == VecType::kFloat && from == VecType::kHalf) {
        if (OverlapsBytes(dst, count * 4, src, count * 2)) return 1;
        WidenHalves(static_cast<float*>(dst), static_cast<const uint16_t*>(src), count);
        return 0;  // exact: every mode gives the same
    }
    if (to != VecType::kHalf || from != VecType::kFloat) return 1;
    if (OverlapsBytes(dst, count * 2, src, count * 4)) return 1;
    auto* d = static_cast<uint16_t*>(dst);
    const auto* s = static_cast<const float*>(src);
    switch (mode) {  // AscendC::RoundMode
        case 0:      // CAST_NONE
        case 1:      // CAST_RINT
        case 7:      // CAST_HYBRID (stochastic for hifloat8 only; to nearest even here)
            NarrowFloatsTo<_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC>(d, s, count);
            return 0;
        case 2:
            NarrowFloatsTo<_MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC>(d, s, count);
            return 0;
        case 3:
            NarrowFloatsTo<_MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC>(d, s, count);
            return 0;
        case 5:
            NarrowFloatsTo<_MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC>(d, s, count);
            return 0;
        default:
            return 1;  // CAST_ROUND, CAST_ODD: not the CPU's
    }
}
