// aclrtReduceAsync: dst[i] = dst[i] op src[i] in stream order, for the kinds and types the
// configured chip has, checked against a reduction computed here.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "async_test_support.h"
#include "test_support.h"

namespace {

using async_test::DeviceBuffer;
using async_test::Gate;
using async_test::ScopedStream;

constexpr aclrtReduceKind kSum = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
constexpr aclrtReduceKind kMax = ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX;
constexpr aclrtReduceKind kMin = ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN;

// ---- A host reference ----------------------------------------------------------------------

// float -> binary16, to nearest even, from the float's bits.
uint16_t HalfOf(float value) {
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    const uint32_t sign = (bits >> 16) & 0x8000u;
    const uint32_t exponent = (bits >> 23) & 0xffu;
    uint32_t mantissa = bits & 0x7fffffu;
    if (exponent == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0));
    const int e = static_cast<int>(exponent) - 112;
    if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
    uint32_t shift = 13, base = static_cast<uint32_t>(e) << 10;
    if (e <= 0) {  // subnormal
        if (e < -10) return static_cast<uint16_t>(sign);
        mantissa |= 0x800000u;
        shift = static_cast<uint32_t>(14 - e);
        base = 0;
    }
    uint32_t half = base + (mantissa >> shift);
    const uint32_t rest = mantissa & ((1u << shift) - 1), tie = 1u << (shift - 1);
    if (rest > tie || (rest == tie && (half & 1u))) ++half;  // may carry into the exponent
    return static_cast<uint16_t>(sign | half);
}

float FloatOfHalf(uint16_t h) {
    return aclFloat16ToFloat(h);
}

// float -> bfloat16, to nearest even.
uint16_t Bf16Of(float value) {
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

float FloatOfBf16(uint16_t b) {
    return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

// A deterministic stream of numbers for the operands.
class Lcg {
 public:
    explicit Lcg(uint64_t seed) : state_(seed) {}
    uint32_t Next() {
        state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint32_t>(state_ >> 33);
    }

 private:
    uint64_t state_;
};

size_t SizeOf(aclDataType type) {
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

// n operands of `type` as bytes. Floating operands are multiples of 2^-4 below 64 in
// magnitude, so that a sum of two is exact in a float and the reference rounds it once.
std::vector<uint8_t> Operands(aclDataType type, size_t n, uint64_t seed) {
    Lcg lcg(seed);
    std::vector<uint8_t> bytes(n * SizeOf(type));
    for (size_t i = 0; i < n; ++i) {
        const uint32_t r = lcg.Next();
        const float f = static_cast<float>(static_cast<int32_t>(r % 2048) - 1024) / 16.0f;
        uint8_t* at = bytes.data() + i * SizeOf(type);
        switch (type) {
            case ACL_FLOAT16: {
                const uint16_t h = HalfOf(f);
                std::memcpy(at, &h, 2);
                break;
            }
            case ACL_BF16: {
                const uint16_t b = Bf16Of(f);
                std::memcpy(at, &b, 2);
                break;
            }
            case ACL_FLOAT:
                std::memcpy(at, &f, 4);
                break;
            default:  // integers: every bit pattern
                std::memcpy(at, &r, SizeOf(type));
                break;
        }
    }
    return bytes;
}

template <class T>
T Combine(T a, T b, aclrtReduceKind kind) {
    if (kind == kMax) return a < b ? b : a;
    if (kind == kMin) return b < a ? b : a;
    if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else {
        return a + b;
    }
}

template <class T>
void ReduceElements(uint8_t* dst, const uint8_t* src, size_t n, aclrtReduceKind kind) {
    for (size_t i = 0; i < n; ++i) {
        T a, b;
        std::memcpy(&a, dst + i * sizeof(T), sizeof(T));
        std::memcpy(&b, src + i * sizeof(T), sizeof(T));
        const T c = Combine(a, b, kind);
        std::memcpy(dst + i * sizeof(T), &c, sizeof(T));
    }
}

// dst op= src on the host.
std::vector<uint8_t> Reference(std::vector<uint8_t> dst, const std::vector<uint8_t>& src,
                               aclDataType type, aclrtReduceKind kind) {
    const size_t n = dst.size() / SizeOf(type);
    switch (type) {
        case ACL_INT8:
            ReduceElements<int8_t>(dst.data(), src.data(), n, kind);
            break;
        case ACL_INT16:
            ReduceElements<int16_t>(dst.data(), src.data(), n, kind);
            break;
        case ACL_INT32:
            ReduceElements<int32_t>(dst.data(), src.data(), n, kind);
            break;
        case ACL_UINT32:
            ReduceElements<uint32_t>(dst.data(), src.data(), n, kind);
            break;
        case ACL_FLOAT:
            ReduceElements<float>(dst.data(), src.data(), n, kind);
            break;
        default: {  // float16, bfloat16: computed in float (exact here), rounded once
            const bool bf16 = type == ACL_BF16;
            for (size_t i = 0; i < n; ++i) {
                uint16_t a, b;
                std::memcpy(&a, dst.data() + 2 * i, 2);
                std::memcpy(&b, src.data() + 2 * i, 2);
                const float fa = bf16 ? FloatOfBf16(a) : FloatOfHalf(a);
                const float fb = bf16 ? FloatOfBf16(b) : FloatOfHalf(b);
                uint16_t c;
                if (kind == kSum) {
                    c = bf16 ? Bf16Of(fa + fb) : HalfOf(fa + fb);
                } else {
                    c = Combine(fa, fb, kind) == fa ? a : b;
                }
                std::memcpy(dst.data() + 2 * i, &c, 2);
            }
            break;
        }
    }
    return dst;
}

const char* TypeName(aclDataType type) {
    switch (type) {
        case ACL_INT8:
            return "int8";
        case ACL_INT16:
            return "int16";
        case ACL_INT32:
            return "int32";
        case ACL_UINT32:
            return "uint32";
        case ACL_FLOAT16:
            return "float16";
        case ACL_BF16:
            return "bfloat16";
        default:
            return "float";
    }
}

// ---- Device side ---------------------------------------------------------------------------

void Upload(void* dev, const std::vector<uint8_t>& bytes) {
    ASSERT_EQ(aclrtMemcpy(dev, bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
}

std::vector<uint8_t> Download(const void* dev, size_t n) {
    std::vector<uint8_t> bytes(n);
    EXPECT_EQ(aclrtMemcpy(bytes.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return bytes;
}

// Reduces `n` operands of `type` on `stream` and compares with the reference.
void ExpectReductionMatches(aclDataType type, aclrtReduceKind kind, aclrtStream stream,
                            size_t n = 257) {
    SCOPED_TRACE(std::string(TypeName(type)) + " kind " + std::to_string(kind));
    const auto a = Operands(type, n, 1 + type), b = Operands(type, n, 100 + type);
    const size_t bytes = a.size();
    DeviceBuffer dst(bytes), src(bytes);
    Upload(dst.get(), a);
    Upload(src.get(), b);
    ASSERT_EQ(aclrtReduceAsync(dst.get(), src.get(), bytes, kind, type, stream, nullptr),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Download(dst.get(), bytes), Reference(a, b, type, kind));
    EXPECT_EQ(Download(src.get(), bytes), b) << "src is only read";
}

constexpr aclDataType kAtlasA2Types[] = {ACL_INT8,    ACL_INT16, ACL_INT32,
                                         ACL_FLOAT16, ACL_FLOAT, ACL_BF16};

class ReduceAsync : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStream(stream_);
        DeviceTest::TearDown();
    }
    aclrtStream stream_ = nullptr;
};

}  // namespace

// ---- What it computes ----------------------------------------------------------------------

TEST_F(ReduceAsync, SumAddsSourceIntoDestinationAsInCannsSample) {
    const float values[4] = {1, 2, 3, 4};
    DeviceBuffer dst(16), src(16);
    ASSERT_EQ(aclrtMemcpy(dst.get(), 16, values, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(src.get(), 16, values, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtReduceAsync(dst.get(), src.get(), 16, kSum, ACL_FLOAT, stream_, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    float out[4] = {};
    ASSERT_EQ(aclrtMemcpy(out, 16, dst.get(), 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{2, 4, 6, 8}));
}

TEST_F(ReduceAsync, SumOfEveryAtlasA2TypeMatchesTheHostReference) {
    for (aclDataType type : kAtlasA2Types)
        ExpectReductionMatches(type, kSum, stream_);
}

TEST_F(ReduceAsync, MaxOfEveryAtlasA2TypeMatchesTheHostReference) {
    for (aclDataType type : kAtlasA2Types)
        ExpectReductionMatches(type, kMax, stream_);
}

TEST_F(ReduceAsync, MinOfEveryAtlasA2TypeMatchesTheHostReference) {
    for (aclDataType type : kAtlasA2Types)
        ExpectReductionMatches(type, kMin, stream_);
}

TEST_F(ReduceAsync, TheDefaultStreamReducesToo) {
    ExpectReductionMatches(ACL_INT32, kSum, nullptr, 16);
}

TEST_F(ReduceAsync, IntegerSumsWrapAround) {
    const int8_t a[2] = {127, -128}, b[2] = {1, -1};
    DeviceBuffer dst(2), src(2);
    ASSERT_EQ(aclrtMemcpy(dst.get(), 2, a, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(src.get(), 2, b, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtReduceAsync(dst.get(), src.get(), 2, kSum, ACL_INT8, stream_, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    int8_t out[2] = {};
    ASSERT_EQ(aclrtMemcpy(out, 2, dst.get(), 2, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out[0], -128);
    EXPECT_EQ(out[1], 127);
}

TEST_F(ReduceAsync, HalfPrecisionSumsRoundOnceToNearestEven) {
    // float16: 1 + 2^-11 is halfway between 1 and 1 + 2^-10 (stays 1, even); 1 + 3 * 2^-11 is
    // halfway between 1 + 2^-10 and 1 + 2^-9 (goes up, even); 65504 + 16 reaches infinity.
    const uint16_t a[3] = {HalfOf(1.0f), HalfOf(1.0f), HalfOf(65504.0f)};
    const uint16_t b[3] = {HalfOf(0x1p-11f), HalfOf(0x3p-11f), HalfOf(16.0f)};
    DeviceBuffer dst(6), src(6);
    ASSERT_EQ(aclrtMemcpy(dst.get(), 6, a, 6, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(src.get(), 6, b, 6, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtReduceAsync(dst.get(), src.get(), 6, kSum, ACL_FLOAT16, stream_, nullptr),
              ACL_SUCCESS);
    // bfloat16: 256 + 1 is halfway between 256 and 258 (stays 256).
    const uint16_t c = Bf16Of(256.0f), d = Bf16Of(1.0f);
    DeviceBuffer bdst(2), bsrc(2);
    ASSERT_EQ(aclrtMemcpy(bdst.get(), 2, &c, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(bsrc.get(), 2, &d, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtReduceAsync(bdst.get(), bsrc.get(), 2, kSum, ACL_BF16, stream_, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    uint16_t out[3] = {}, bout = 0;
    ASSERT_EQ(aclrtMemcpy(out, 6, dst.get(), 6, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(&bout, 2, bdst.get(), 2, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out[0], HalfOf(1.0f));
    EXPECT_EQ(out[1], HalfOf(1.0f + 0x1p-9f));
    EXPECT_EQ(out[2], 0x7c00) << "infinity";
    EXPECT_EQ(bout, Bf16Of(256.0f));
}

TEST_F(ReduceAsync, MaxAndMinKeepANaNAndOrderMinusZeroBelowPlusZero) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float a[3] = {nan, 1.0f, -0.0f}, b[3] = {2.0f, nan, 0.0f};
    DeviceBuffer max_dst(12), min_dst(12), src(12);
    ASSERT_EQ(aclrtMemcpy(max_dst.get(), 12, a, 12, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(min_dst.get(), 12, a, 12, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(src.get(), 12, b, 12, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtReduceAsync(max_dst.get(), src.get(), 12, kMax, ACL_FLOAT, stream_, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtReduceAsync(min_dst.get(), src.get(), 12, kMin, ACL_FLOAT, stream_, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    float max_out[3], min_out[3];
    ASSERT_EQ(aclrtMemcpy(max_out, 12, max_dst.get(), 12, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(min_out, 12, min_dst.get(), 12, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (const float* out : {max_out, min_out}) {
        EXPECT_TRUE(std::isnan(out[0]));
        EXPECT_TRUE(std::isnan(out[1]));
    }
    EXPECT_FALSE(std::signbit(max_out[2])) << "max(-0, +0) is +0";
    EXPECT_TRUE(std::signbit(min_out[2])) << "min(-0, +0) is -0";
}

// ---- As a stream task ----------------------------------------------------------------------

TEST_F(ReduceAsync, TheReductionRunsInStreamOrderAfterTheCallReturns) {
    const int32_t one = 1, ten = 10;
    DeviceBuffer dst(4), src(4);
    ASSERT_EQ(aclrtMemcpy(dst.get(), 4, &one, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(src.get(), 4, &ten, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(src.get(), 4, 0x02, 4, stream_), ACL_SUCCESS);  // before it
    ASSERT_EQ(aclrtReduceAsync(dst.get(), src.get(), 4, kSum, ACL_INT32, stream_, nullptr),
              ACL_SUCCESS);
    int32_t out = 0;
    ASSERT_EQ(aclrtMemcpy(&out, 4, dst.get(), 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, 1) << "the stream is held: nothing ran yet";
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(&out, 4, dst.get(), 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, 1 + 0x02020202) << "the fill queued before the reduction ran first";
}

TEST_F(ReduceAsync, ACapturedReductionAccumulatesAtEveryReplay) {
    const int32_t start[2] = {5, -5}, step[2] = {3, 4};
    DeviceBuffer dst(8), src(8);
    ASSERT_EQ(aclrtMemcpy(dst.get(), 8, start, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(src.get(), 8, step, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclrtReduceAsync(dst.get(), src.get(), 8, kSum, ACL_INT32, stream_, nullptr),
              ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS) << aclGetRecentErrMsg();
    int32_t out[2] = {};
    ASSERT_EQ(aclrtMemcpy(out, 8, dst.get(), 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out[0], 5) << "capturing runs nothing";
    for (int replay = 0; replay < 3; ++replay)
        ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemcpy(out, 8, dst.get(), 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out[0], 5 + 3 * 3);
    EXPECT_EQ(out[1], -5 + 3 * 4);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ReduceAsync, AZeroCountChangesNothing) {
    const int32_t value = 7;
    DeviceBuffer dst(4), src(4);
    ASSERT_EQ(aclrtMemcpy(dst.get(), 4, &value, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(src.get(), 4, &value, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtReduceAsync(dst.get(), src.get(), 0, kSum, ACL_INT32, stream_, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    int32_t out = 0;
    ASSERT_EQ(aclrtMemcpy(&out, 4, dst.get(), 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, 7);
}

TEST_F(ReduceAsync, MemoryFreedBeforeTheReductionRunsFailsTheStream) {
    DeviceBuffer dst(64), src(64);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtReduceAsync(dst.get(), src.get(), 64, kSum, ACL_FLOAT, stream_, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(src.Free(), ACL_SUCCESS);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_COPY_DATA);
    EXPECT_THAT_MESSAGE_CONTAINS("freed before the reduction ran");
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

// ---- Bad arguments -------------------------------------------------------------------------

TEST_F(ReduceAsync, NullOperandsAndANonNullReserveAreInvalidParam) {
    DeviceBuffer buf(16);
    int reserve = 0;
    EXPECT_EQ(aclrtReduceAsync(nullptr, buf.get(), 16, kSum, ACL_FLOAT, stream_, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dst is null");
    EXPECT_EQ(aclrtReduceAsync(buf.get(), nullptr, 16, kSum, ACL_FLOAT, stream_, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("src is null");
    EXPECT_EQ(aclrtReduceAsync(buf.get(), buf.get(), 16, kSum, ACL_FLOAT, stream_, &reserve),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("reserve is reserved and must be NULL");
}

TEST_F(ReduceAsync, AKindOutsideTheEnumerationIsInvalidParam) {
    DeviceBuffer buf(16);
    for (int kind : {0, 9, 14}) {
        EXPECT_EQ(aclrtReduceAsync(buf.get(), buf.get(), 16, static_cast<aclrtReduceKind>(kind),
                                   ACL_FLOAT, stream_, nullptr),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("is not an aclrtReduceKind");
    }
}

TEST_F(ReduceAsync, ATypeNoChipReducesIsInvalidParam) {
    DeviceBuffer buf(16);
    for (aclDataType type : {ACL_UINT8, ACL_INT64, ACL_DOUBLE, ACL_DT_UNDEFINED}) {
        EXPECT_EQ(aclrtReduceAsync(buf.get(), buf.get(), 16, kSum, type, stream_, nullptr),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("is not a type aclrtReduceAsync reduces");
    }
}

TEST_F(ReduceAsync, EqualIsNotSupportedBecauseCannDocumentsNoResultForIt) {
    DeviceBuffer buf(16);
    EXPECT_EQ(aclrtReduceAsync(buf.get(), buf.get(), 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL,
                               ACL_FLOAT, stream_, nullptr),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("does not document what it computes");
}

TEST_F(ReduceAsync, MisalignedOperandsAreAddrUnaligned) {
    DeviceBuffer buf(64);
    char* base = static_cast<char*>(buf.get());
    EXPECT_EQ(aclrtReduceAsync(base + 2, base + 32, 8, kSum, ACL_FLOAT, stream_, nullptr),
              ACL_ERROR_RT_ADDR_UNALIGNED);
    EXPECT_THAT_MESSAGE_CONTAINS("is not 4-byte aligned");
    EXPECT_EQ(aclrtReduceAsync(base, base + 33, 8, kSum, ACL_FLOAT16, stream_, nullptr),
              ACL_ERROR_RT_ADDR_UNALIGNED);
    EXPECT_THAT_MESSAGE_CONTAINS("is not 2-byte aligned");
    EXPECT_EQ(aclrtReduceAsync(base + 1, base + 33, 8, kSum, ACL_INT8, stream_, nullptr),
              ACL_SUCCESS)
        << "int8 needs no alignment";
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(ReduceAsync, ACountThatSplitsAnElementIsInvalidParam) {
    DeviceBuffer buf(64);
    EXPECT_EQ(aclrtReduceAsync(buf.get(), buf.get(), 6, kSum, ACL_INT32, stream_, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a whole number of ACL_INT32 elements");
}

TEST_F(ReduceAsync, HostMemoryAndOverrunsAreInvalidParam) {
    DeviceBuffer buf(64);
    std::vector<float> host(16);
    EXPECT_EQ(aclrtReduceAsync(host.data(), buf.get(), 64, kSum, ACL_FLOAT, stream_, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not live device memory");
    EXPECT_EQ(aclrtReduceAsync(buf.get(), host.data(), 64, kSum, ACL_FLOAT, stream_, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("src");
    EXPECT_EQ(aclrtReduceAsync(buf.get(), buf.get(), 128, kSum, ACL_FLOAT, stream_, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
}

// ---- Per chip, as CANN documents ------------------------------------------------------------

namespace {

// aclInit with the given chip and device 0, for one test.
class ReduceOnChip : public ::testing::Test {
 protected:
    void Start(const char* soc, const char* devices = "1") {
        soc_.reset();  // restores the variables before they are set again
        devices_.reset();
        soc_ = std::make_unique<ScopedEnv>("OPENACL_SOC_NAME", soc);
        devices_ = std::make_unique<ScopedEnv>("OPENACL_DEVICE_COUNT", devices);
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    }
    void TearDown() override {
        aclFinalize();
        aclGetRecentErrMsg();
    }
    // The result of a 16-byte reduction of `type` on the default stream.
    static aclError Try(aclrtReduceKind kind, aclDataType type) {
        DeviceBuffer dst(16), src(16);
        const aclError rc =
            aclrtReduceAsync(dst.get(), src.get(), 16, kind, type, nullptr, nullptr);
        EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
        return rc;
    }

 private:
    std::unique_ptr<ScopedEnv> soc_, devices_;
};

}  // namespace

TEST_F(ReduceOnChip, TheAscend950AlsoReducesUint32) {
    Start("Ascend950PR_9599");
    ExpectReductionMatches(ACL_UINT32, kSum, nullptr);
    ExpectReductionMatches(ACL_UINT32, kMin, nullptr);
    ExpectReductionMatches(ACL_BF16, kMax, nullptr);
}

TEST_F(ReduceOnChip, AtlasA2AndA3DoNotReduceUint32) {
    for (const char* soc : {"Ascend910B1", "Ascend910_9391"}) {
        SCOPED_TRACE(soc);
        Start(soc);
        EXPECT_EQ(Try(kSum, ACL_UINT32), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_THAT_MESSAGE_CONTAINS("type ACL_UINT32 is not reduced on");
        EXPECT_EQ(Try(kMax, ACL_BF16), ACL_SUCCESS);
        aclFinalize();
    }
}

TEST_F(ReduceOnChip, Atlas200I500A2HasNoBfloat16) {
    Start("Ascend310B1");
    EXPECT_EQ(Try(kSum, ACL_BF16), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("int8, int16, int32, float16 and float");
    ExpectReductionMatches(ACL_INT8, kMin, nullptr);
}

TEST_F(ReduceOnChip, AtlasInferenceProductsOnlySumFloatFloat16AndInt16) {
    Start("Ascend310P3");
    ExpectReductionMatches(ACL_INT16, kSum, nullptr);
    ExpectReductionMatches(ACL_FLOAT16, kSum, nullptr);
    EXPECT_EQ(Try(kMax, ACL_FLOAT), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("CANN documents only ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM");
    EXPECT_EQ(Try(kSum, ACL_INT8), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("float, float16 and int16");
}

TEST_F(ReduceOnChip, AtlasTrainingProductsOnlySumFloat) {
    Start("Ascend910A");
    ExpectReductionMatches(ACL_FLOAT, kSum, nullptr);
    EXPECT_EQ(Try(kSum, ACL_FLOAT16), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("float only");
    EXPECT_EQ(Try(kMin, ACL_FLOAT), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST_F(ReduceOnChip, AChipCannDoesNotDocumentItForIsNotSupported) {
    Start("Ascend310");
    EXPECT_EQ(Try(kSum, ACL_FLOAT), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtReduceAsync is not available on Ascend310");
}

TEST_F(ReduceOnChip, AnOperandOfAnotherDeviceIsInvalidParam) {
    Start("Ascend910B1", "2");
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    DeviceBuffer other(16);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    DeviceBuffer own(16);
    EXPECT_EQ(aclrtReduceAsync(own.get(), other.get(), 16, kSum, ACL_FLOAT, nullptr, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is memory of device 1, but the stream belongs to device 0");
}
