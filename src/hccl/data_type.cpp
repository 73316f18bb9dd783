// HCCL's data types and reductions (hccl/data_type.h).
#include "hccl/data_type.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/float16.h"
#include "ops/element.h"

namespace openacl::hccl {
namespace {

// Elements are reduced in blocks through a small accumulator on the stack, so a result element
// is written once, after every input's element has been read.
constexpr size_t kBlock = 512;

template <typename T>
T Apply(HcclReduceOp op, T a, T b) {
    if constexpr (std::is_integral_v<T>) {
        // Unsigned arithmetic wraps; but types narrower than int are promoted to (signed) int
        // first, where 65535 * 65535 overflows: compute in unsigned int at least.
        using U = std::common_type_t<std::make_unsigned_t<T>, unsigned>;
        switch (op) {
            case HCCL_REDUCE_SUM:
                return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
            case HCCL_REDUCE_PROD:
                return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
            case HCCL_REDUCE_MAX:
                return std::max(a, b);
            default:
                return std::min(a, b);
        }
    } else {
        switch (op) {
            case HCCL_REDUCE_SUM:
                return a + b;
            case HCCL_REDUCE_PROD:
                return a * b;
            // NaN wins, as on the NPU's vector unit: a max or min with NaN is NaN (a NaN `a`
            // is kept by the first choice, a NaN `b` by the second). Two selects, no branch:
            // the loops over blocks vectorise.
            case HCCL_REDUCE_MAX: {
                const T larger = a < b ? b : a;
                return b != b ? b : larger;
            }
            default: {
                const T smaller = b < a ? b : a;
                return b != b ? b : smaller;
            }
        }
    }
}

// The type elements are stored as, and the one they are reduced in.
template <HcclDataType kType>
struct Traits;
#define OPENACL_HCCL_TRAITS(type, stored, computed) \
    template <>                                     \
    struct Traits<type> {                           \
        using Stored = stored;                      \
        using Computed = computed;                  \
    }
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_INT8, int8_t, int8_t);
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_INT16, int16_t, int16_t);
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_INT32, int32_t, int32_t);
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_INT64, int64_t, int64_t);
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_UINT8, uint8_t, uint8_t);
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_UINT16, uint16_t, uint16_t);
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_UINT32, uint32_t, uint32_t);
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_UINT64, uint64_t, uint64_t);
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_FP32, float, float);
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_FP64, double, double);
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_FP16, uint16_t, float);
OPENACL_HCCL_TRAITS(HCCL_DATA_TYPE_BFP16, uint16_t, float);
#undef OPENACL_HCCL_TRAITS

template <HcclDataType kType>
typename Traits<kType>::Computed LoadElement(const void* base, size_t i) {
    typename Traits<kType>::Stored raw;
    std::memcpy(&raw, static_cast<const char*>(base) + i * sizeof raw, sizeof raw);
    if constexpr (kType == HCCL_DATA_TYPE_FP16) return f16::HalfToFloat(raw);
    if constexpr (kType == HCCL_DATA_TYPE_BFP16) return f16::Bf16ToFloat(raw);
    if constexpr (kType != HCCL_DATA_TYPE_FP16 && kType != HCCL_DATA_TYPE_BFP16) return raw;
}

template <HcclDataType kType>
void StoreElement(void* base, size_t i, typename Traits<kType>::Computed value) {
    typename Traits<kType>::Stored raw;
    if constexpr (kType == HCCL_DATA_TYPE_FP16) {
        raw = ops::FloatToHalf(value);
    } else if constexpr (kType == HCCL_DATA_TYPE_BFP16) {
        raw = ops::FloatToBf16(value);
    } else {
        raw = value;
    }
    std::memcpy(static_cast<char*>(base) + i * sizeof raw, &raw, sizeof raw);
}

// acc[i] = acc[i] op b[i] for i in [0, len): one loop per operation, so that the compiler
// vectorises the common cases (no per-element dispatch on the operation).
template <HcclDataType kType, HcclReduceOp kOp>
void Accumulate(typename Traits<kType>::Computed* acc, const void* b, size_t first, size_t len) {
    using C = typename Traits<kType>::Computed;
    for (size_t i = 0; i < len; ++i)
        acc[i] = Apply<C>(kOp, acc[i], LoadElement<kType>(b, first + i));
}

// The same for a whole block: a constant trip count, which GCC's -O2 vectoriser (the "very
// cheap" cost model: no epilogue, no run-time checks) takes on.
template <HcclDataType kType, HcclReduceOp kOp>
void AccumulateBlock(typename Traits<kType>::Computed* acc, const void* b, size_t first) {
    using C = typename Traits<kType>::Computed;
    for (size_t i = 0; i < kBlock; ++i)
        acc[i] = Apply<C>(kOp, acc[i], LoadElement<kType>(b, first + i));
}

// Copies a block to where it belongs, around the caches when `streaming` (non-temporal
// stores: no read of the destination lines first, and no eviction of what the caches hold)
// and the destination allows it.
void StoreBlock(char* dst, const void* block, size_t bytes, bool streaming) {
#if defined(__SSE2__)
    if (streaming && (reinterpret_cast<uintptr_t>(dst) & 15) == 0 && bytes % 16 == 0) {
        const char* src = static_cast<const char*>(block);  // 64-byte aligned
        for (size_t b = 0; b < bytes; b += 16) {
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + b),
                             _mm_load_si128(reinterpret_cast<const __m128i*>(src + b)));
        }
        return;
    }
#endif
    (void)streaming;
    std::memcpy(dst, block, bytes);
}

template <HcclDataType kType, HcclReduceOp kOp>
void ReduceManyTyped(void* const* outs, uint32_t n_out, const void* const* in, uint32_t n,
                     size_t begin, size_t end, bool streaming) {
    using S = typename Traits<kType>::Stored;
    using C = typename Traits<kType>::Computed;
    // Stored as computed (not float16 / bfloat16): whole blocks move with memcpy.
    constexpr bool kNative = std::is_same_v<S, C>;
    alignas(64) C acc[kBlock];
    for (size_t first = begin; first < end; first += kBlock) {
        const size_t len = std::min(kBlock, end - first);
        if constexpr (kNative) {
            std::memcpy(acc, static_cast<const char*>(in[0]) + first * sizeof(S), len * sizeof(S));
        } else {
            for (size_t i = 0; i < len; ++i)
                acc[i] = LoadElement<kType>(in[0], first + i);
        }
        for (uint32_t k = 1; k < n; ++k) {
            if (len == kBlock) {
                AccumulateBlock<kType, kOp>(acc, in[k], first);
            } else {
                Accumulate<kType, kOp>(acc, in[k], first, len);
            }
        }
        // Every output straight from the accumulator: the block is read once, written once
        // per output, and outputs may be inputs (every input was read above).
        for (uint32_t o = 0; o < n_out; ++o) {
            if constexpr (kNative) {
                StoreBlock(static_cast<char*>(outs[o]) + first * sizeof(S), acc, len * sizeof(S),
                           streaming);
            } else {
                for (size_t i = 0; i < len; ++i)
                    StoreElement<kType>(outs[o], first + i, acc[i]);
            }
        }
    }
#if defined(__SSE2__)
    if (streaming) _mm_sfence();  // the stores are visible before the collective completes
#endif
}

template <HcclDataType kType>
void ReducePairTyped(HcclReduceOp op, void* c, const void* a, const void* b, size_t count) {
    using C = typename Traits<kType>::Computed;
    for (size_t i = 0; i < count; ++i) {
        const C value = Apply<C>(op, LoadElement<kType>(a, i), LoadElement<kType>(b, i));
        StoreElement<kType>(c, i, value);
    }
}

// Calls f.template operator()<type>() for a reducible type.
template <typename F>
void Dispatch(HcclDataType type, F&& f) {
    switch (type) {
        case HCCL_DATA_TYPE_INT8:
            return f.template operator()<HCCL_DATA_TYPE_INT8>();
        case HCCL_DATA_TYPE_INT16:
            return f.template operator()<HCCL_DATA_TYPE_INT16>();
        case HCCL_DATA_TYPE_INT32:
            return f.template operator()<HCCL_DATA_TYPE_INT32>();
        case HCCL_DATA_TYPE_INT64:
            return f.template operator()<HCCL_DATA_TYPE_INT64>();
        case HCCL_DATA_TYPE_UINT8:
            return f.template operator()<HCCL_DATA_TYPE_UINT8>();
        case HCCL_DATA_TYPE_UINT16:
            return f.template operator()<HCCL_DATA_TYPE_UINT16>();
        case HCCL_DATA_TYPE_UINT32:
            return f.template operator()<HCCL_DATA_TYPE_UINT32>();
        case HCCL_DATA_TYPE_UINT64:
            return f.template operator()<HCCL_DATA_TYPE_UINT64>();
        case HCCL_DATA_TYPE_FP32:
            return f.template operator()<HCCL_DATA_TYPE_FP32>();
        case HCCL_DATA_TYPE_FP64:
            return f.template operator()<HCCL_DATA_TYPE_FP64>();
        case HCCL_DATA_TYPE_FP16:
            return f.template operator()<HCCL_DATA_TYPE_FP16>();
        case HCCL_DATA_TYPE_BFP16:
            return f.template operator()<HCCL_DATA_TYPE_BFP16>();
        default:
            return;  // callers check Reducible first
    }
}

}  // namespace

size_t DataTypeSize(HcclDataType type) {
    switch (type) {
        case HCCL_DATA_TYPE_INT8:
        case HCCL_DATA_TYPE_UINT8:
        case HCCL_DATA_TYPE_HIF8:
        case HCCL_DATA_TYPE_FP8E4M3:
        case HCCL_DATA_TYPE_FP8E5M2:
        case HCCL_DATA_TYPE_FP8E8M0:
            return 1;
        case HCCL_DATA_TYPE_INT16:
        case HCCL_DATA_TYPE_UINT16:
        case HCCL_DATA_TYPE_FP16:
        case HCCL_DATA_TYPE_BFP16:
            return 2;
        case HCCL_DATA_TYPE_INT32:
        case HCCL_DATA_TYPE_UINT32:
        case HCCL_DATA_TYPE_FP32:
            return 4;
        case HCCL_DATA_TYPE_INT64:
        case HCCL_DATA_TYPE_UINT64:
        case HCCL_DATA_TYPE_FP64:
            return 8;
        case HCCL_DATA_TYPE_INT128:
            return 16;
        default:
            return 0;
    }
}

const char* DataTypeName(HcclDataType type) {
    switch (type) {
        case HCCL_DATA_TYPE_INT8:
            return "int8";
        case HCCL_DATA_TYPE_INT16:
            return "int16";
        case HCCL_DATA_TYPE_INT32:
            return "int32";
        case HCCL_DATA_TYPE_FP16:
            return "fp16";
        case HCCL_DATA_TYPE_FP32:
            return "fp32";
        case HCCL_DATA_TYPE_INT64:
            return "int64";
        case HCCL_DATA_TYPE_UINT64:
            return "uint64";
        case HCCL_DATA_TYPE_UINT8:
            return "uint8";
        case HCCL_DATA_TYPE_UINT16:
            return "uint16";
        case HCCL_DATA_TYPE_UINT32:
            return "uint32";
        case HCCL_DATA_TYPE_FP64:
            return "fp64";
        case HCCL_DATA_TYPE_BFP16:
            return "bfp16";
        case HCCL_DATA_TYPE_INT128:
            return "int128";
        case HCCL_DATA_TYPE_HIF8:
            return "hif8";
        case HCCL_DATA_TYPE_FP8E4M3:
            return "fp8e4m3";
        case HCCL_DATA_TYPE_FP8E5M2:
            return "fp8e5m2";
        case HCCL_DATA_TYPE_FP8E8M0:
            return "fp8e8m0";
        default:
            return "unknown";
    }
}

const char* ReduceOpName(HcclReduceOp op) {
    switch (op) {
        case HCCL_REDUCE_SUM:
            return "sum";
        case HCCL_REDUCE_PROD:
            return "prod";
        case HCCL_REDUCE_MAX:
            return "max";
        case HCCL_REDUCE_MIN:
            return "min";
        default:
            return "unknown";
    }
}

bool Reducible(HcclDataType type) {
    switch (type) {
        case HCCL_DATA_TYPE_INT8:
        case HCCL_DATA_TYPE_INT16:
        case HCCL_DATA_TYPE_INT32:
        case HCCL_DATA_TYPE_INT64:
        case HCCL_DATA_TYPE_UINT8:
        case HCCL_DATA_TYPE_UINT16:
        case HCCL_DATA_TYPE_UINT32:
        case HCCL_DATA_TYPE_UINT64:
        case HCCL_DATA_TYPE_FP32:
        case HCCL_DATA_TYPE_FP64:
        case HCCL_DATA_TYPE_FP16:
        case HCCL_DATA_TYPE_BFP16:
            return true;
        default:
            return false;
    }
}

void ReduceMany(HcclDataType type, HcclReduceOp op, void* const* outs, uint32_t n_out,
                const void* const* in, uint32_t n, size_t begin, size_t end, bool streaming) {
    Dispatch(type, [&]<HcclDataType kType>() {
        auto run = [&]<HcclReduceOp kOp>() {
            ReduceManyTyped<kType, kOp>(outs, n_out, in, n, begin, end, streaming);
        };
        switch (op) {
            case HCCL_REDUCE_SUM:
                return run.template operator()<HCCL_REDUCE_SUM>();
            case HCCL_REDUCE_PROD:
                return run.template operator()<HCCL_REDUCE_PROD>();
            case HCCL_REDUCE_MAX:
                return run.template operator()<HCCL_REDUCE_MAX>();
            default:
                return run.template operator()<HCCL_REDUCE_MIN>();
        }
    });
}

void ReduceMany(HcclDataType type, HcclReduceOp op, void* out, const void* const* in, uint32_t n,
                size_t begin, size_t end) {
    ReduceMany(type, op, &out, 1, in, n, begin, end, false);
}

void ReducePair(HcclDataType type, HcclReduceOp op, void* c, const void* a, const void* b,
                size_t count) {
    Dispatch(type, [&]<HcclDataType kType>() { ReducePairTyped<kType>(op, c, a, b, count); });
}

}  // namespace openacl::hccl
