#include "ops/half_runs.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "ops/element.h"

namespace openacl::ops {

#if defined(__x86_64__)
namespace {

__attribute__((target("avx,f16c"))) void ToFloats(const char* in, int64_t n, float* out) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * i));
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
    }
    for (; i < n; ++i)
        out[i] = f16::HalfToFloat(LoadRaw<uint16_t>(in + 2 * i));
}

__attribute__((target("avx,f16c"))) void ToHalfs(const float* in, int64_t n, char* out) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i), h);
    }
    for (; i < n; ++i)
        StoreRaw<uint16_t>(out + 2 * i, FloatToHalf(in[i]));
}

}  // namespace

// cpuid leaf 1 rather than __builtin_cpu_supports("f16c"), which clang 14 does not know;
// "avx" also says the OS saves the YMM registers.
bool HasF16c() {
    static const bool has = [] {
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        return __builtin_cpu_supports("avx") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) &&
               (ecx & bit_F16C) != 0;
    }();
    return has;
}

bool HalfRunToFloats(const char* in, int64_t n, float* out) {
    if (!HasF16c()) return false;
    ToFloats(in, n, out);
    return true;
}

bool FloatRunToHalfs(const float* in, int64_t n, char* out) {
    if (!HasF16c()) return false;
    ToHalfs(in, n, out);
    return true;
}
#else
bool HasF16c() {
    return false;
}
bool HalfRunToFloats(const char*, int64_t, float*) {
    return false;
}
bool FloatRunToHalfs(const float*, int64_t, char*) {
    return false;
}
#endif

}  // namespace openacl::ops
