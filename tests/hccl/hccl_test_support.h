// Running N ranks as threads, one virtual device each, as HCCL's own examples do: the root
// info is made on the main thread after aclrtSetDevice(0), then each thread sets its device,
// joins, creates a stream and runs the body.
//
// Also the host side of checking results: every HCCL data type, deterministic inputs per
// (type, rank, seed), and the reductions computed here, independently of the library:
// integers wrap around, float16 and bfloat16 are reduced in float in rank order and rounded
// to nearest even once, float and double are reduced in their own type in rank order.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace hccl_test {

using Bytes = std::vector<uint8_t>;

struct Rank {
    uint32_t rank = 0;
    uint32_t size = 0;
    HcclComm comm = nullptr;
    aclrtStream stream = nullptr;

    // Device memory holding `values`, and a way to read it back.
    template <typename T>
    void* Upload(const std::vector<T>& values) const {
        void* p = nullptr;
        const size_t bytes = std::max<size_t>(1, values.size() * sizeof(T));
        EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        if (!values.empty()) {
            EXPECT_EQ(aclrtMemcpy(p, bytes, values.data(), values.size() * sizeof(T),
                                  ACL_MEMCPY_HOST_TO_DEVICE),
                      ACL_SUCCESS);
        }
        return p;
    }
    template <typename T>
    std::vector<T> Download(const void* p, size_t n) const {
        std::vector<T> values(n);
        if (n > 0) {
            EXPECT_EQ(aclrtMemcpy(values.data(), n * sizeof(T), p, n * sizeof(T),
                                  ACL_MEMCPY_DEVICE_TO_HOST),
                      ACL_SUCCESS);
        }
        return values;
    }
    aclError Sync() const { return aclrtSynchronizeStream(stream); }
};

// Sets an environment variable for as long as it lives (tests run one per process, but the
// binary may also run them all in one).
class ScopedEnv {
 public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (old_) {
            setenv(name_.c_str(), old_->c_str(), 1);
        } else {
            unsetenv(name_.c_str());
        }
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
    std::string name_;
    std::optional<std::string> old_;
};

class HcclTest : public ::testing::Test {
 protected:
    // Four virtual devices, and loopback for anything networked. A rank that fails an
    // assertion before its collective would leave the others waiting for the default timeouts
    // (1836 s, 120 s): bound them. The environment's own values win.
    HcclTest()
        : devices_("OPENACL_DEVICE_COUNT", Or("OPENACL_DEVICE_COUNT", "4")),
          interface_("HCCL_IF_IP", Or("HCCL_IF_IP", "127.0.0.1")),
          exec_timeout_("HCCL_EXEC_TIMEOUT", Or("HCCL_EXEC_TIMEOUT", "60")),
          connect_timeout_("HCCL_CONNECT_TIMEOUT", Or("HCCL_CONNECT_TIMEOUT", "60")) {}

    void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
    void TearDown() override {
        for (uint32_t d = 0; d < 4; ++d)
            aclrtResetDevice(static_cast<int32_t>(d));
        aclFinalize();
    }

    // Runs body on n ranks (threads on devices 0..n-1) of one communicator, destroyed after
    // (with the rank's stream) unless the body did it. config: HcclCommInitRootInfoConfig with it;
    // null: HcclCommInitRootInfo.
    void RunRanks(uint32_t n, const std::function<void(Rank&)>& body,
                  const HcclCommConfig* config = nullptr) {
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        HcclRootInfo root;
        ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
        std::vector<std::thread> threads;
        for (uint32_t r = 0; r < n; ++r) {
            threads.emplace_back([&, r] {
                Rank rank;
                rank.rank = r;
                rank.size = n;
                ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
                if (config == nullptr) {
                    ASSERT_EQ(HcclCommInitRootInfo(n, &root, r, &rank.comm), HCCL_SUCCESS);
                } else {
                    ASSERT_EQ(HcclCommInitRootInfoConfig(n, &root, r, config, &rank.comm),
                              HCCL_SUCCESS);
                }
                ASSERT_EQ(aclrtCreateStream(&rank.stream), ACL_SUCCESS);
                body(rank);
                // A body that destroyed either itself sets it to null.
                if (rank.stream != nullptr) {
                    EXPECT_EQ(aclrtDestroyStream(rank.stream), ACL_SUCCESS);
                }
                if (rank.comm != nullptr) {
                    EXPECT_EQ(HcclCommDestroy(rank.comm), HCCL_SUCCESS);
                }
            });
        }
        for (std::thread& t : threads)
            t.join();
    }

 private:
    static const char* Or(const char* name, const char* fallback) {
        const char* value = std::getenv(name);
        return value != nullptr ? value : fallback;
    }

    ScopedEnv devices_;
    ScopedEnv interface_;
    ScopedEnv exec_timeout_;
    ScopedEnv connect_timeout_;
};

// Rank counts the collectives are checked at.
inline const auto kRankCounts = ::testing::Values(1u, 2u, 3u, 4u);

// HcclTest, parameterised by the number of ranks.
class HcclRanksTest : public HcclTest, public ::testing::WithParamInterface<uint32_t> {};

inline std::string RanksName(const ::testing::TestParamInfo<uint32_t>& info) {
    return std::to_string(info.param) + "Ranks";
}

// The most recent error message of this thread.
inline std::string RecentError() {
    const char* text = aclGetRecentErrMsg();
    return text == nullptr ? "" : text;
}

// Whether the most recent error message of this thread contains every one of `words`; prints
// the message when it does not.
inline ::testing::AssertionResult ErrorMentions(std::initializer_list<const char*> words) {
    const std::string message = RecentError();
    for (const char* word : words) {
        if (message.find(word) == std::string::npos) {
            return ::testing::AssertionFailure()
                   << "the error message does not mention \"" << word << "\": " << message;
        }
    }
    return ::testing::AssertionSuccess();
}

// ---- Data types ------------------------------------------------------------------------

// The types reductions take, and those collectives only move.
inline constexpr HcclDataType kReducibleTypes[] = {
    HCCL_DATA_TYPE_INT8,  HCCL_DATA_TYPE_INT16,  HCCL_DATA_TYPE_INT32,  HCCL_DATA_TYPE_INT64,
    HCCL_DATA_TYPE_UINT8, HCCL_DATA_TYPE_UINT16, HCCL_DATA_TYPE_UINT32, HCCL_DATA_TYPE_UINT64,
    HCCL_DATA_TYPE_FP16,  HCCL_DATA_TYPE_BFP16,  HCCL_DATA_TYPE_FP32,   HCCL_DATA_TYPE_FP64};
inline constexpr HcclDataType kMovedOnlyTypes[] = {HCCL_DATA_TYPE_INT128, HCCL_DATA_TYPE_HIF8,
                                                   HCCL_DATA_TYPE_FP8E4M3, HCCL_DATA_TYPE_FP8E5M2,
                                                   HCCL_DATA_TYPE_FP8E8M0};
inline constexpr HcclReduceOp kReduceOps[] = {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX,
                                              HCCL_REDUCE_MIN};

// Every type a collective that only moves data takes.
inline std::vector<HcclDataType> AllTypes() {
    std::vector<HcclDataType> types(std::begin(kReducibleTypes), std::end(kReducibleTypes));
    types.insert(types.end(), std::begin(kMovedOnlyTypes), std::end(kMovedOnlyTypes));
    return types;
}

inline size_t SizeOf(HcclDataType type) {
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

inline std::string Describe(HcclDataType type) {
    return "data type " + std::to_string(static_cast<int>(type));
}

inline std::string Describe(HcclDataType type, HcclReduceOp op) {
    static const char* const kOpNames[] = {"sum", "prod", "max", "min"};
    return Describe(type) + ", op " + kOpNames[op];
}

// ---- float16 and bfloat16, written here so the reference does not share the library's code

inline float HalfToFloat(uint16_t h) {
    const int sign = (h >> 15) != 0 ? -1 : 1;
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    if (exponent == 0x1f) return mantissa != 0 ? NAN : sign * INFINITY;
    if (exponent == 0) return static_cast<float>(sign * std::ldexp(mantissa, -24));
    return static_cast<float>(sign * std::ldexp(1024 + mantissa, exponent - 25));
}

// Rounds to the nearest float16, ties to even.
inline uint16_t FloatToHalf(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
    const uint32_t magnitude = bits & 0x7fffffff;
    if (magnitude > 0x7f800000) return sign | 0x7e00;   // NaN
    if (magnitude >= 0x477ff000) return sign | 0x7c00;  // 65520 and up round to infinity
    if (magnitude <= 0x33000000) return sign;           // 2^-25 and below round to zero
    const int exponent = static_cast<int>(magnitude >> 23) - 127;
    uint32_t significand = (magnitude & 0x7fffff) | 0x800000;
    // Bits of the float's 24-bit significand that do not fit the half's.
    const int dropped = exponent >= -14 ? 13 : 13 + (-14 - exponent);
    uint32_t kept = significand >> dropped;
    const uint32_t rest = significand & ((1u << dropped) - 1);
    const uint32_t half_way = 1u << (dropped - 1);
    if (rest > half_way || (rest == half_way && (kept & 1) != 0)) ++kept;
    if (exponent < -14)
        return sign | static_cast<uint16_t>(kept);  // subnormal (or the least normal)
    // kept holds the implicit bit at 2^10; a carry out of the significand bumps the exponent.
    const uint32_t value = (static_cast<uint32_t>(exponent + 15) << 10) + (kept - 0x400);
    return sign | static_cast<uint16_t>(value);
}

inline float Bf16ToFloat(uint16_t b) {
    const uint32_t bits = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// Rounds to the nearest bfloat16, ties to even.
inline uint16_t FloatToBf16(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    if ((bits & 0x7fffffff) > 0x7f800000) return static_cast<uint16_t>((bits >> 16) | 0x40);
    bits += 0x7fff + ((bits >> 16) & 1);
    return static_cast<uint16_t>(bits >> 16);
}

// ---- Inputs ------------------------------------------------------------------------------

// A small deterministic generator (splitmix64).
class Random {
 public:
    explicit Random(uint64_t seed) : state_(seed) {}
    uint64_t Next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // A value in [lo, hi].
    int Between(int lo, int hi) { return lo + static_cast<int>(Next() % (hi - lo + 1)); }

 private:
    uint64_t state_;
};

template <typename T>
void Put(Bytes& bytes, size_t i, T value) {
    std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T));
}
template <typename T>
T Get(const Bytes& bytes, size_t i) {
    T value;
    std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
    return value;
}
template <typename T>
T Get(const uint8_t* bytes, size_t i) {
    T value;
    std::memcpy(&value, bytes + i * sizeof(T), sizeof(T));
    return value;
}

// `count` elements of `type` that depend on (rank, seed) only. Integers take their whole
// range, so sums and products wrap; floating-point values are finite, non-zero, of either
// sign and of magnitudes 2^-4..2^4, so that sums and products round but stay finite.
inline Bytes Elements(HcclDataType type, uint32_t rank, uint64_t count, uint32_t seed = 0) {
    Random random((static_cast<uint64_t>(seed) << 40) ^ (static_cast<uint64_t>(rank) << 20) ^
                  static_cast<uint64_t>(type) ^ 0x5eed);
    Bytes bytes(count * SizeOf(type));
    for (size_t i = 0; i < count; ++i) {
        const uint64_t bits = random.Next();
        const bool negative = (bits & 1) != 0;
        switch (type) {
            case HCCL_DATA_TYPE_FP16: {
                const uint16_t exponent = static_cast<uint16_t>(random.Between(11, 19));
                const uint16_t h = static_cast<uint16_t>((negative ? 0x8000 : 0) | exponent << 10 |
                                                         ((bits >> 8) & 0x3ff));
                Put(bytes, i, h);
                break;
            }
            case HCCL_DATA_TYPE_BFP16: {
                const uint16_t exponent = static_cast<uint16_t>(random.Between(123, 131));
                const uint16_t b = static_cast<uint16_t>((negative ? 0x8000 : 0) | exponent << 7 |
                                                         ((bits >> 8) & 0x7f));
                Put(bytes, i, b);
                break;
            }
            case HCCL_DATA_TYPE_FP32: {
                const float f =
                    std::ldexp(1.0f + static_cast<float>((bits >> 8) & 0x7fffff) / 8388608.0f,
                               random.Between(-4, 4));
                Put(bytes, i, negative ? -f : f);
                break;
            }
            case HCCL_DATA_TYPE_FP64: {
                const double d =
                    std::ldexp(1.0 + static_cast<double>(bits >> 12) / 4503599627370496.0,
                               random.Between(-4, 4));
                Put(bytes, i, negative ? -d : d);
                break;
            }
            default:  // integers, and the bytes of the types that are only moved
                for (size_t b = 0; b < SizeOf(type); b += 8) {
                    const uint64_t word = b == 0 ? bits : random.Next();
                    std::memcpy(bytes.data() + i * SizeOf(type) + b, &word,
                                std::min<size_t>(8, SizeOf(type) - b));
                }
                break;
        }
    }
    return bytes;
}

// ---- Reductions on the host ----------------------------------------------------------------

template <typename T>
T ReduceIntegers(HcclReduceOp op, T a, T b) {
    using U = std::make_unsigned_t<T>;
    switch (op) {
        case HCCL_REDUCE_SUM:  // in uint64_t: wraps around, never overflows
            return static_cast<T>(static_cast<uint64_t>(static_cast<U>(a)) +
                                  static_cast<uint64_t>(static_cast<U>(b)));
        case HCCL_REDUCE_PROD:
            return static_cast<T>(static_cast<uint64_t>(static_cast<U>(a)) *
                                  static_cast<uint64_t>(static_cast<U>(b)));
        case HCCL_REDUCE_MAX:
            return a < b ? b : a;
        default:
            return b < a ? b : a;
    }
}

template <typename F>
F ReduceFloats(HcclReduceOp op, F a, F b) {
    switch (op) {
        case HCCL_REDUCE_SUM:
            return a + b;
        case HCCL_REDUCE_PROD:
            return a * b;
        case HCCL_REDUCE_MAX:
            return a < b ? b : a;
        default:
            return b < a ? b : a;
    }
}

// out[i] = inputs[0][i] op inputs[1][i] op ... for i in [0, count), in rank order.
inline Bytes Reduce(HcclDataType type, HcclReduceOp op, const std::vector<const uint8_t*>& inputs,
                    uint64_t count) {
    Bytes out(count * SizeOf(type));
    auto integers = [&]<typename T>(T) {
        for (size_t i = 0; i < count; ++i) {
            T acc = Get<T>(inputs[0], i);
            for (size_t r = 1; r < inputs.size(); ++r)
                acc = ReduceIntegers<T>(op, acc, Get<T>(inputs[r], i));
            Put(out, i, acc);
        }
    };
    auto floats = [&]<typename F>(F) {
        for (size_t i = 0; i < count; ++i) {
            F acc = Get<F>(inputs[0], i);
            for (size_t r = 1; r < inputs.size(); ++r)
                acc = ReduceFloats<F>(op, acc, Get<F>(inputs[r], i));
            Put(out, i, acc);
        }
    };
    auto halves = [&](float (*load)(uint16_t), uint16_t (*store)(float)) {
        for (size_t i = 0; i < count; ++i) {
            float acc = load(Get<uint16_t>(inputs[0], i));
            for (size_t r = 1; r < inputs.size(); ++r)
                acc = ReduceFloats<float>(op, acc, load(Get<uint16_t>(inputs[r], i)));
            Put(out, i, store(acc));
        }
    };
    switch (type) {
        case HCCL_DATA_TYPE_INT8:
            integers(int8_t{});
            break;
        case HCCL_DATA_TYPE_INT16:
            integers(int16_t{});
            break;
        case HCCL_DATA_TYPE_INT32:
            integers(int32_t{});
            break;
        case HCCL_DATA_TYPE_INT64:
            integers(int64_t{});
            break;
        case HCCL_DATA_TYPE_UINT8:
            integers(uint8_t{});
            break;
        case HCCL_DATA_TYPE_UINT16:
            integers(uint16_t{});
            break;
        case HCCL_DATA_TYPE_UINT32:
            integers(uint32_t{});
            break;
        case HCCL_DATA_TYPE_UINT64:
            integers(uint64_t{});
            break;
        case HCCL_DATA_TYPE_FP32:
            floats(float{});
            break;
        case HCCL_DATA_TYPE_FP64:
            floats(double{});
            break;
        case HCCL_DATA_TYPE_FP16:
            halves(HalfToFloat, FloatToHalf);
            break;
        case HCCL_DATA_TYPE_BFP16:
            halves(Bf16ToFloat, FloatToBf16);
            break;
        default:
            ADD_FAILURE() << Describe(type) << " cannot be reduced";
    }
    return out;
}

// Reduces elements [offset, offset + count) of every rank's Elements(type, rank, total, seed).
inline Bytes ReduceOfRanks(HcclDataType type, HcclReduceOp op, uint32_t ranks, uint64_t total,
                           uint64_t offset, uint64_t count, uint32_t seed = 0) {
    std::vector<Bytes> all;
    std::vector<const uint8_t*> inputs;
    for (uint32_t r = 0; r < ranks; ++r)
        all.push_back(Elements(type, r, total, seed));
    for (const Bytes& b : all)
        inputs.push_back(b.data() + offset * SizeOf(type));
    return Reduce(type, op, inputs, count);
}

// ---- Device buffers of bytes -----------------------------------------------------------

// Device memory of `bytes.size()` bytes (at least 1) holding `bytes`.
inline void* Upload(const Bytes& bytes) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, std::max<size_t>(1, bytes.size()), ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_SUCCESS);
    if (!bytes.empty()) {
        EXPECT_EQ(
            aclrtMemcpy(p, bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
    }
    return p;
}

// Device memory of `n` bytes, each `fill`.
inline void* Filled(size_t n, uint8_t fill) {
    return Upload(Bytes(n, fill));
}

inline Bytes Download(const void* p, size_t n) {
    Bytes bytes(n);
    if (n > 0) {
        EXPECT_EQ(aclrtMemcpy(bytes.data(), n, p, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    }
    return bytes;
}

// Compares byte strings made of `element`-byte elements, naming the first element that
// differs rather than printing both.
inline ::testing::AssertionResult SameElements(const Bytes& got, const Bytes& want,
                                               size_t element) {
    if (got.size() != want.size()) {
        return ::testing::AssertionFailure()
               << got.size() << " bytes where " << want.size() << " were expected";
    }
    for (size_t i = 0; i < got.size(); ++i) {
        if (got[i] == want[i]) continue;
        const size_t first = i / element * element;
        auto hex = [&](const Bytes& b) {
            std::string text;
            char digits[4];
            for (size_t k = element; k-- > 0;) {
                std::snprintf(digits, sizeof digits, "%02x", b[first + k]);
                text += digits;
            }
            return text;
        };
        return ::testing::AssertionFailure()
               << "element " << i / element << " is 0x" << hex(got) << ", expected 0x" << hex(want);
    }
    return ::testing::AssertionSuccess();
}

// A byte slice.
inline Bytes Slice(const Bytes& bytes, size_t offset, size_t n) {
    return Bytes(bytes.begin() + static_cast<std::ptrdiff_t>(offset),
                 bytes.begin() + static_cast<std::ptrdiff_t>(offset + n));
}

}  // namespace hccl_test
