#include "core/reduce.h"

#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

#include "backend/cpu/task.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/float16.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl {

namespace {

// A chip line's reductions, as CANN's aclrtReduceAsync and aclrtReduceKind pages give them.
struct ReduceChip {
    const char* family;
    bool min_max;            // MAX and MIN besides SUM
    const char* type_names;  // for messages
    aclDataType types[7];
    int type_count;
};

constexpr ReduceChip kAscend950{
    "the Ascend 950",
    true,
    "int8, int16, int32, uint32, float16, float and bfloat16",
    {ACL_INT8, ACL_INT16, ACL_INT32, ACL_UINT32, ACL_FLOAT16, ACL_FLOAT, ACL_BF16},
    7};
constexpr ReduceChip kAtlasA2A3{"Atlas A2/A3",
                                true,
                                "int8, int16, int32, float16, float and bfloat16",
                                {ACL_INT8, ACL_INT16, ACL_INT32, ACL_FLOAT16, ACL_FLOAT, ACL_BF16},
                                6};
constexpr ReduceChip kAtlas310B{"Atlas 200I/500 A2 (310B)",
                                true,
                                "int8, int16, int32, float16 and float",
                                {ACL_INT8, ACL_INT16, ACL_INT32, ACL_FLOAT16, ACL_FLOAT},
                                5};
constexpr ReduceChip kAtlas310P{"Atlas inference products (310P)",
                                false,
                                "float, float16 and int16",
                                {ACL_FLOAT, ACL_FLOAT16, ACL_INT16},
                                3};
constexpr ReduceChip kAtlas910{
    "Atlas training products (910)", false, "float only", {ACL_FLOAT}, 1};

bool StartsWith(const std::string& s, const char* prefix) {
    return s.compare(0, std::strlen(prefix), prefix) == 0;
}

// The configured chip's line, or nullptr for a chip CANN does not document the call for.
const ReduceChip* CurrentReduceChip() {
    const std::string& soc = Runtime::Get().config().soc_name;
    if (StartsWith(soc, "Ascend950")) return &kAscend950;
    if (StartsWith(soc, "Ascend910B") || StartsWith(soc, "Ascend910_93")) return &kAtlasA2A3;
    if (StartsWith(soc, "Ascend310B")) return &kAtlas310B;
    if (StartsWith(soc, "Ascend310P")) return &kAtlas310P;
    if (StartsWith(soc, "Ascend910")) return &kAtlas910;
    return nullptr;
}

const char* KindName(aclrtReduceKind kind) {
    switch (kind) {
        case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM:
            return "ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM";
        case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX:
            return "ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX";
        case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN:
            return "ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN";
        case ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL:
            return "ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL";
    }
    return "?";
}

const char* TypeName(aclDataType type) {
    switch (type) {
        case ACL_INT8:
            return "ACL_INT8";
        case ACL_INT16:
            return "ACL_INT16";
        case ACL_INT32:
            return "ACL_INT32";
        case ACL_UINT32:
            return "ACL_UINT32";
        case ACL_FLOAT16:
            return "ACL_FLOAT16";
        case ACL_FLOAT:
            return "ACL_FLOAT";
        case ACL_BF16:
            return "ACL_BF16";
        default:
            return "?";
    }
}

uint64_t ElementSize(aclDataType type) {
    switch (type) {
        case ACL_INT8:
            return 1;
        case ACL_INT16:
        case ACL_FLOAT16:
        case ACL_BF16:
            return 2;
        default:
            return 4;
    }
}

aclError CheckChip(aclrtReduceKind kind, aclDataType type) {
    const std::string& soc = Runtime::Get().config().soc_name;
    const ReduceChip* chip = CurrentReduceChip();
    if (chip == nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "aclrtReduceAsync is not available on %s (CANN documents it for the Ascend "
                    "950, Atlas A2/A3, Atlas 200I/500 A2, Atlas inference and Atlas training "
                    "products)",
                    soc.c_str());
    }
    if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "kind ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL is not supported: CANN declares it "
                    "but does not document what it computes, so openacl does not emulate it "
                    "(SUM, MAX and MIN are)");
    }
    if (kind != ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM && !chip->min_max) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "kind %s is not available on %s: CANN documents only "
                    "ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM for %s",
                    KindName(kind), soc.c_str(), chip->family);
    }
    for (int i = 0; i < chip->type_count; ++i) {
        if (chip->types[i] == type) return ACL_SUCCESS;
    }
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "type %s is not reduced on %s: CANN documents %s for %s", TypeName(type),
                soc.c_str(), chip->type_names, chip->family);
}

aclError CheckAlignment(const char* name, const void* p, aclDataType type) {
    const uint64_t align = ElementSize(type);
    if (reinterpret_cast<uintptr_t>(p) % align == 0) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_ADDR_UNALIGNED,
                "%s %p is not %llu-byte aligned, as %s elements must be", name, p,
                static_cast<unsigned long long>(align), TypeName(type));
}

aclError CheckMemory(const char* name, const void* p, uint64_t count, Stream* stream) {
    if (const char* problem = LiveDeviceRangeProblem(p, count)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s %p (%llu bytes) %s", name, p,
                    static_cast<unsigned long long>(count), problem);
    }
    const MemRegion region = ClassifyPointer(p);
    Device* own = stream->context()->device();
    if (region.device != nullptr && region.device != own) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p is memory of device %d, but the stream belongs to device %d (CANN "
                    "requires dst, src and the stream on one device)",
                    name, p, region.device->id(), own->id());
    }
    return ACL_SUCCESS;
}

// ---- The arithmetic ------------------------------------------------------------------------

template <class T>
void ReduceIntegers(T* dst, const T* src, uint64_t n, aclrtReduceKind kind) {
    using Unsigned = std::make_unsigned_t<T>;
    for (uint64_t i = 0; i < n; ++i) {
        const T a = dst[i], b = src[i];
        switch (kind) {
            case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM:  // wraps around, in unsigned arithmetic
                dst[i] = static_cast<T>(
                    static_cast<Unsigned>(static_cast<Unsigned>(a) + static_cast<Unsigned>(b)));
                break;
            case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX:
                dst[i] = a < b ? b : a;
                break;
            default:  // MIN
                dst[i] = b < a ? b : a;
                break;
        }
    }
}

// MAX/MIN of two floating values: a NaN wins (the first one seen), -0 orders below +0. True
// when b is the result.
bool TakeSecond(double a, double b, bool max) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
    if (a == b) {
        const bool a_negative = std::signbit(a), b_negative = std::signbit(b);
        return max ? (a_negative && !b_negative) : (!a_negative && b_negative);
    }
    return max ? b > a : b < a;
}

void ReduceFloats(float* dst, const float* src, uint64_t n, aclrtReduceKind kind) {
    for (uint64_t i = 0; i < n; ++i) {
        if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM) {
            dst[i] = dst[i] + src[i];
        } else if (TakeSecond(dst[i], src[i], kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX)) {
            dst[i] = src[i];
        }
    }
}

// float16 (bf16 false) or bfloat16 elements, as bits.
void ReduceHalves(uint16_t* dst, const uint16_t* src, uint64_t n, aclrtReduceKind kind, bool bf16) {
    for (uint64_t i = 0; i < n; ++i) {
        const double a = bf16 ? f16::Bf16ToFloat(dst[i]) : f16::HalfToFloat(dst[i]);
        const double b = bf16 ? f16::Bf16ToFloat(src[i]) : f16::HalfToFloat(src[i]);
        if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM) {
            // Exact in a double for float16; for bfloat16 a double keeps every bit that can
            // change the rounding. One rounding, to the format.
            if (std::isnan(a)) continue;  // keeps dst's NaN
            if (std::isnan(b)) {
                dst[i] = src[i];
                continue;
            }
            dst[i] = bf16 ? f16::Bf16FromDouble(a + b) : f16::HalfFromDouble(a + b);
        } else if (TakeSecond(a, b, kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX)) {
            dst[i] = src[i];
        }
    }
}

void Reduce(void* dst, const void* src, uint64_t count, aclrtReduceKind kind, aclDataType type) {
    switch (type) {
        case ACL_INT8:
            ReduceIntegers(static_cast<int8_t*>(dst), static_cast<const int8_t*>(src), count, kind);
            break;
        case ACL_INT16:
            ReduceIntegers(static_cast<int16_t*>(dst), static_cast<const int16_t*>(src), count / 2,
                           kind);
            break;
        case ACL_INT32:
            ReduceIntegers(static_cast<int32_t*>(dst), static_cast<const int32_t*>(src), count / 4,
                           kind);
            break;
        case ACL_UINT32:
            ReduceIntegers(static_cast<uint32_t*>(dst), static_cast<const uint32_t*>(src),
                           count / 4, kind);
            break;
        case ACL_FLOAT:
            ReduceFloats(static_cast<float*>(dst), static_cast<const float*>(src), count / 4, kind);
            break;
        case ACL_FLOAT16:
        case ACL_BF16:
            ReduceHalves(static_cast<uint16_t*>(dst), static_cast<const uint16_t*>(src), count / 2,
                         kind, type == ACL_BF16);
            break;
        default:
            break;
    }
}

}  // namespace

bool IsReducibleType(aclDataType type) {
    for (int i = 0; i < kAscend950.type_count; ++i) {  // the widest list holds every other
        if (kAscend950.types[i] == type) return true;
    }
    return false;
}

aclError ReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind,
                     aclDataType type, Stream* stream) {
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "aclrtReduceAsync is not supported on the %s backend yet",
                    stream->context()->device()->accelerator()->name());
    }
    if (aclError rc = CheckChip(kind, type)) return rc;
    // CANN's order: the chip, then the alignment of src and dst.
    if (aclError rc = CheckAlignment("src", src, type)) return rc;
    if (aclError rc = CheckAlignment("dst", dst, type)) return rc;
    const uint64_t size = ElementSize(type);
    if (count % size != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "count %llu is not a whole number of %s elements (%llu bytes each): count "
                    "is the size of src in bytes",
                    static_cast<unsigned long long>(count), TypeName(type),
                    static_cast<unsigned long long>(size));
    }
    if (aclError rc = CheckMemory("src", src, count, stream)) return rc;
    if (aclError rc = CheckMemory("dst", dst, count, stream)) return rc;
    if (count == 0) return ACL_SUCCESS;
    struct Reduction {
        Stream* stream;
        void* dst;
        const void* src;
        uint64_t count;
        aclrtReduceKind kind;
        aclDataType type;
    };
    const Reduction r{stream, dst, src, count, kind, type};
    stream->Submit(cpu::MakeTask([r](cpu::TaskContext& ctx) {
        if (LiveDeviceRangeProblem(r.dst, r.count) != nullptr ||
            LiveDeviceRangeProblem(r.src, r.count) != nullptr) {
            r.stream->NoteFailure(
                "aclrtReduceAsync of %llu bytes from %p into %p: the memory was "
                "freed before the reduction ran",
                static_cast<unsigned long long>(r.count), r.src, r.dst);
            exception_info::Report(ctx, r.stream, ACL_ERROR_RT_COPY_DATA);
            return cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
        }
        Reduce(r.dst, r.src, r.count, r.kind, r.type);
        return cpu::TaskStatus::Done();
    }));
    return ACL_SUCCESS;
}

}  // namespace openacl
