// aclrtRandomNumAsync: Philox4x32-10 numbers in stream order, checked against the generator and
// the transforms core/random_num.h documents, computed here; parameters by value and in device
// memory; reproducibility; captures; and the documented errors.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "async_test_support.h"
#include "test_support.h"

namespace {

using async_test::DeviceBuffer;
using async_test::Gate;

// ---- The generator, written again here -----------------------------------------------------

using Quad = std::array<uint32_t, 4>;

Quad PhiloxRef(Quad x, uint32_t k0, uint32_t k1) {
    for (int round = 0; round < 10; ++round) {
        const uint64_t a = 0xD2511F53ull * x[0], b = 0xCD9E8D57ull * x[2];
        x = {static_cast<uint32_t>(b >> 32) ^ x[1] ^ k0, static_cast<uint32_t>(b),
             static_cast<uint32_t>(a >> 32) ^ x[3] ^ k1, static_cast<uint32_t>(a)};
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    return x;
}

// The first n words of a task with this counter (as 4 little-endian words) and seed.
std::vector<uint32_t> WordsRef(Quad counter, uint64_t seed, size_t n) {
    std::vector<uint32_t> words;
    while (words.size() < n) {
        const Quad block =
            PhiloxRef(counter, static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32));
        words.insert(words.end(), block.begin(), block.end());
        for (uint32_t& c : counter) {  // + 1, carrying upwards
            if (++c != 0) break;
        }
    }
    words.resize(n);
    return words;
}

// float -> binary16 / bfloat16, nearest even.
uint16_t HalfOf(float f) {
    return aclFloatToFloat16(f);
}
uint16_t Bf16Of(float value) {
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}
float FromHalf(uint16_t h) {
    return aclFloat16ToFloat(h);
}
float FromBf16(uint16_t b) {
    return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

// ---- Task descriptions ---------------------------------------------------------------------

template <class T>
aclrtRandomParaInfo Value(T v) {
    aclrtRandomParaInfo p{};
    std::memcpy(p.valueOrAddr, &v, sizeof v);
    p.size = sizeof v;
    return p;
}

aclrtRandomParaInfo Address(const void* address) {
    aclrtRandomParaInfo p{};
    p.isAddr = 1;
    std::memcpy(p.valueOrAddr, &address, 8);
    p.size = 8;
    return p;
}

aclrtRandomNumTaskInfo Task(aclrtRandomNumFuncType func, aclDataType type,
                            aclrtRandomParaInfo first, aclrtRandomParaInfo second, void* result,
                            void* counter, uint64_t seed, uint64_t count) {
    aclrtRandomNumTaskInfo t{};
    t.dataType = type;
    t.randomNumFuncParaInfo.funcType = func;
    switch (func) {
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK:
            t.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation = first;
            break;
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
            t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = first;
            t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = second;
            break;
        default:
            t.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean = first;
            t.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev = second;
            break;
    }
    t.randomResultAddr = result;
    t.randomCounterAddr = counter;
    t.randomSeed = Value(seed);
    t.randomNum = Value(count);
    return t;
}

constexpr auto kUniform = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
constexpr auto kNormal = ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS;
constexpr auto kTruncated = ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS;
constexpr auto kDropout = ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK;

constexpr uint64_t kSeed = 0x0123456789ABCDEFull;
constexpr Quad kCounter = {5, 0, 0, 7};

class RandomNumAsync : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
        counter_ = std::make_unique<DeviceBuffer>(16);
        SetCounter(kCounter);
    }
    void TearDown() override {
        counter_.reset();
        aclrtDestroyStream(stream_);
        DeviceTest::TearDown();
    }
    void SetCounter(const Quad& c) {
        ASSERT_EQ(aclrtMemcpy(counter_->get(), 16, c.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
    }
    // Runs the task and returns `bytes` of the result buffer (0xEE where nothing was written).
    std::vector<uint8_t> Run(aclrtRandomNumTaskInfo task, size_t bytes) {
        DeviceBuffer result(bytes + 16);
        EXPECT_EQ(aclrtMemset(result.get(), bytes + 16, 0xEE, bytes + 16), ACL_SUCCESS);
        task.randomResultAddr = result.get();
        EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::vector<uint8_t> out(bytes + 16);
        EXPECT_EQ(aclrtMemcpy(out.data(), out.size(), result.get(), out.size(),
                              ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        for (size_t i = bytes; i < out.size(); ++i)
            EXPECT_EQ(out[i], 0xEE) << "byte " << i << " is past the numbers";
        out.resize(bytes);
        return out;
    }
    template <class T>
    static std::vector<T> As(const std::vector<uint8_t>& bytes) {
        std::vector<T> v(bytes.size() / sizeof(T));
        std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
        return v;
    }

    aclrtStream stream_ = nullptr;
    std::unique_ptr<DeviceBuffer> counter_;
};

// P(Z < z), standard normal.
double Phi(double z) {
    return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

}  // namespace

// ---- The generator -------------------------------------------------------------------------

TEST(RandomNumReference, IsRandom123sPhilox4x32_10) {
    EXPECT_EQ(PhiloxRef({0, 0, 0, 0}, 0, 0),
              (Quad{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
    EXPECT_EQ(PhiloxRef({~0u, ~0u, ~0u, ~0u}, ~0u, ~0u),
              (Quad{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
    EXPECT_EQ(PhiloxRef({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822, 0x299f31d0),
              (Quad{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST_F(RandomNumAsync, Uint32UniformNumbersOverTheFullRangeAreThePhiloxWords) {
    // [0, 2^32 - 1): floor(w * (2^32 - 1) / 2^32) is w - 1 for every w but 0.
    const auto out = As<uint32_t>(Run(
        Task(kUniform, ACL_UINT32, Value(0u), Value(~0u), nullptr, counter_->get(), 0, 10), 40));
    SetCounter({0, 0, 0, 0});
    const auto zero = As<uint32_t>(
        Run(Task(kUniform, ACL_UINT32, Value(0u), Value(~0u), nullptr, counter_->get(), 0, 4), 16));
    const auto words = WordsRef(kCounter, 0, 10);
    for (size_t i = 0; i < 10; ++i)
        EXPECT_EQ(out[i], words[i] == 0 ? 0 : words[i] - 1) << i;
    EXPECT_EQ(zero, (std::vector<uint32_t>{0x6627e8d5 - 1, 0xe169c58d - 1, 0xbc57ac4c - 1,
                                           0x9b00dbd8 - 1}))
        << "Random123's first known answer";
}

TEST_F(RandomNumAsync, UniformIntegersOfEveryTypeMatchTheReference) {
    const size_t n = 64;
    const auto words = WordsRef(kCounter, kSeed, 2 * n);
    {
        const auto out = As<int32_t>(Run(
            Task(kUniform, ACL_INT32, Value(-100), Value(250), nullptr, counter_->get(), kSeed, n),
            4 * n));
        for (size_t i = 0; i < n; ++i)
            EXPECT_EQ(out[i], -100 + static_cast<int32_t>((uint64_t{words[i]} * 350) >> 32));
    }
    {
        const auto out = As<uint32_t>(Run(
            Task(kUniform, ACL_UINT32, Value(7u), Value(1000u), nullptr, counter_->get(), kSeed, n),
            4 * n));
        for (size_t i = 0; i < n; ++i)
            EXPECT_EQ(out[i], 7u + static_cast<uint32_t>((uint64_t{words[i]} * 993) >> 32));
    }
    const int64_t low = -(int64_t{1} << 40), high = int64_t{1} << 50;
    const uint64_t range = static_cast<uint64_t>(high - low);
    {
        const auto out = As<int64_t>(Run(
            Task(kUniform, ACL_INT64, Value(low), Value(high), nullptr, counter_->get(), kSeed, n),
            8 * n));
        for (size_t i = 0; i < n; ++i) {
            const uint64_t w = words[2 * i] | uint64_t{words[2 * i + 1]} << 32;
            const auto offset =
                static_cast<uint64_t>((static_cast<unsigned __int128>(w) * range) >> 64);
            EXPECT_EQ(out[i], low + static_cast<int64_t>(offset)) << i;
            EXPECT_GE(out[i], low);
            EXPECT_LT(out[i], high);
        }
    }
    {
        const auto out =
            As<uint64_t>(Run(Task(kUniform, ACL_UINT64, Value(uint64_t{0}), Value(~uint64_t{0}),
                                  nullptr, counter_->get(), kSeed, n),
                             8 * n));
        for (size_t i = 0; i < n; ++i) {
            const uint64_t w = words[2 * i] | uint64_t{words[2 * i + 1]} << 32;
            EXPECT_EQ(out[i], w == 0 ? 0 : w - 1) << i;
        }
    }
}

TEST_F(RandomNumAsync, UniformFloatsOfEveryTypeMatchTheReferenceAndStayBelowMax) {
    const size_t n = 256;
    const auto words = WordsRef(kCounter, kSeed, n);
    // [-2, 2): -2 + 4u is exact in a float, so the reference rounds it once.
    const auto f32 = As<float>(Run(
        Task(kUniform, ACL_FLOAT, Value(-2.0f), Value(2.0f), nullptr, counter_->get(), kSeed, n),
        4 * n));
    const auto f16 = As<uint16_t>(Run(Task(kUniform, ACL_FLOAT16, Value(HalfOf(-2.0f)),
                                           Value(HalfOf(2.0f)), nullptr, counter_->get(), kSeed, n),
                                      2 * n));
    const auto b16 = As<uint16_t>(Run(Task(kUniform, ACL_BF16, Value(Bf16Of(-2.0f)),
                                           Value(Bf16Of(2.0f)), nullptr, counter_->get(), kSeed, n),
                                      2 * n));
    for (size_t i = 0; i < n; ++i) {
        const float v = -2.0f + 4.0f * std::ldexp(static_cast<float>(words[i] >> 8), -24);
        EXPECT_EQ(f32[i], v) << i;
        uint16_t h = HalfOf(v), b = Bf16Of(v);
        if (FromHalf(h) >= 2.0f) h = HalfOf(2.0f) - 1;  // the value just below 2
        if (FromBf16(b) >= 2.0f) b = Bf16Of(2.0f) - 1;
        EXPECT_EQ(f16[i], h) << i;
        EXPECT_EQ(b16[i], b) << i;
        EXPECT_LT(FromHalf(f16[i]), 2.0f);
        EXPECT_LT(FromBf16(b16[i]), 2.0f);
        EXPECT_GE(FromBf16(b16[i]), -2.0f);
    }
}

TEST_F(RandomNumAsync, UniformWithMaxNotAboveMinGivesMin) {
    const auto out = As<int32_t>(
        Run(Task(kUniform, ACL_INT32, Value(5), Value(5), nullptr, counter_->get(), 1, 8), 32));
    EXPECT_EQ(out, std::vector<int32_t>(8, 5));
}

TEST_F(RandomNumAsync, NormalNumbersAreTheQuantilesOfTheirWords) {
    const size_t n = 4096;
    const auto words = WordsRef(kCounter, kSeed, n);
    const float mean = 3.0f, stddev = 2.0f;
    const auto f32 = As<float>(Run(
        Task(kNormal, ACL_FLOAT, Value(mean), Value(stddev), nullptr, counter_->get(), kSeed, n),
        4 * n));
    const auto f16 =
        As<uint16_t>(Run(Task(kNormal, ACL_FLOAT16, Value(HalfOf(mean)), Value(HalfOf(stddev)),
                              nullptr, counter_->get(), kSeed, n),
                         2 * n));
    const auto b16 =
        As<uint16_t>(Run(Task(kNormal, ACL_BF16, Value(Bf16Of(mean)), Value(Bf16Of(stddev)),
                              nullptr, counter_->get(), kSeed, n),
                         2 * n));
    double sum = 0, squares = 0;
    for (size_t i = 0; i < n; ++i) {
        const double p = (words[i] + 0.5) * 0x1p-32;
        // Where the density is small, a float's rounding moves P(Z < z) by little.
        EXPECT_NEAR(Phi((f32[i] - mean) / stddev), p, 2e-7) << i;
        EXPECT_NEAR(Phi((FromHalf(f16[i]) - mean) / stddev), p, 2e-3) << i;
        EXPECT_NEAR(Phi((FromBf16(b16[i]) - mean) / stddev), p, 1.2e-2) << i;
        sum += f32[i];
        squares += (f32[i] - mean) * (f32[i] - mean);
    }
    EXPECT_NEAR(sum / n, mean, 0.1);
    EXPECT_NEAR(std::sqrt(squares / n), stddev, 0.1);
}

TEST_F(RandomNumAsync, TruncatedNormalNumbersStayWithinTwoStandardDeviations) {
    const size_t n = 4096;
    const auto words = WordsRef(kCounter, kSeed, n);
    const float mean = -1.0f, stddev = 0.5f;
    const auto out = As<float>(Run(
        Task(kTruncated, ACL_FLOAT, Value(mean), Value(stddev), nullptr, counter_->get(), kSeed, n),
        4 * n));
    const auto f16 =
        As<uint16_t>(Run(Task(kTruncated, ACL_FLOAT16, Value(HalfOf(mean)), Value(HalfOf(stddev)),
                              nullptr, counter_->get(), kSeed, n),
                         2 * n));
    const double low = Phi(-2), high = Phi(2);
    for (size_t i = 0; i < n; ++i) {
        const double p = low + (words[i] + 0.5) * 0x1p-32 * (high - low);
        EXPECT_NEAR(Phi((out[i] - mean) / stddev), p, 2e-7) << i;
        EXPECT_LE(std::fabs(out[i] - mean), 2 * stddev) << i;
        EXPECT_LE(std::fabs(FromHalf(f16[i]) - mean), 2 * stddev) << i;
    }
}

TEST_F(RandomNumAsync, ADropoutBitmaskDropsTheBitsWhoseWordIsBelowTheRatio) {
    const size_t n = 203;  // 25 bytes and 3 bits
    const auto words = WordsRef(kCounter, kSeed, n);
    struct Case {
        aclDataType type;
        aclrtRandomParaInfo ratio;
        double value;
    };
    const Case cases[] = {{ACL_FLOAT, Value(0.3f), 0.3f},
                          {ACL_FLOAT16, Value(HalfOf(0.75f)), 0.75},
                          {ACL_BF16, Value(Bf16Of(0.125f)), 0.125}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.type);
        const auto out = Run(
            Task(kDropout, c.type, c.ratio, {}, nullptr, counter_->get(), kSeed, n), (n + 7) / 8);
        std::vector<uint8_t> expected((n + 7) / 8, 0);
        size_t kept = 0;
        for (size_t i = 0; i < n; ++i) {
            if (words[i] >= c.value * 0x1p32) {
                expected[i / 8] = static_cast<uint8_t>(expected[i / 8] | (1u << (i % 8)));
                ++kept;
            }
        }
        EXPECT_EQ(out, expected);
        EXPECT_NEAR(static_cast<double>(kept) / n, 1 - c.value, 0.1);
    }
    const auto none =
        Run(Task(kDropout, ACL_FLOAT, Value(0.0f), {}, nullptr, counter_->get(), 1, 16), 2);
    const auto all =
        Run(Task(kDropout, ACL_FLOAT, Value(1.0f), {}, nullptr, counter_->get(), 1, 16), 2);
    EXPECT_EQ(none, (std::vector<uint8_t>{0xff, 0xff})) << "ratio 0 keeps everything";
    EXPECT_EQ(all, (std::vector<uint8_t>{0, 0})) << "ratio 1 drops everything";
}

// ---- Reproducibility -----------------------------------------------------------------------

TEST_F(RandomNumAsync, TheSameSeedAndCounterGiveTheSameNumbersAndOthersDoNot) {
    const auto task = [&](uint64_t seed) {
        return Task(kNormal, ACL_FLOAT, Value(0.0f), Value(1.0f), nullptr, counter_->get(), seed,
                    64);
    };
    const auto first = Run(task(42), 256);
    EXPECT_EQ(Run(task(42), 256), first);
    EXPECT_NE(Run(task(43), 256), first);
    SetCounter({6, 0, 0, 7});
    const auto moved = Run(task(42), 256);
    EXPECT_NE(moved, first);
    EXPECT_EQ(std::vector<uint8_t>(moved.begin(), moved.begin() + 240),
              std::vector<uint8_t>(first.begin() + 16, first.end()))
        << "counter + 1 is the next block: the numbers move on by four";
}

TEST_F(RandomNumAsync, TheCounterIsA128BitNumberThatCarries) {
    const Quad start = {~0u, ~0u, 9, 0};
    SetCounter(start);
    const auto out = As<uint32_t>(
        Run(Task(kUniform, ACL_UINT32, Value(0u), Value(~0u), nullptr, counter_->get(), kSeed, 12),
            48));
    const auto words = WordsRef(start, kSeed, 12);  // blocks {~0, ~0, 9, 0}, {0, 0, 10, 0}, ...
    for (size_t i = 0; i < 12; ++i)
        EXPECT_EQ(out[i], words[i] == 0 ? 0 : words[i] - 1) << i;
    Quad after{};
    ASSERT_EQ(aclrtMemcpy(after.data(), 16, counter_->get(), 16, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(after, start) << "the task leaves the counter as it found it";
}

// ---- Values in device memory, read when the task runs --------------------------------------

TEST_F(RandomNumAsync, SeedCountAndParametersInDeviceMemoryAreReadWhenTheTaskRuns) {
    DeviceBuffer values(64), result(64);
    ASSERT_EQ(aclrtMemset(result.get(), 64, 0, 64), ACL_SUCCESS);
    const uint64_t seed = 11, count = 4;
    const int32_t low = 10, high = 20;
    uint8_t host[64] = {};
    std::memcpy(host, &seed, 8);
    std::memcpy(host + 8, &count, 8);
    std::memcpy(host + 16, &low, 4);
    std::memcpy(host + 20, &high, 4);
    uint8_t* dev = static_cast<uint8_t*>(values.get());
    aclrtRandomNumTaskInfo task = Task(kUniform, ACL_INT32, Address(dev + 16), Address(dev + 20),
                                       result.get(), counter_->get(), 0, 0);
    task.randomSeed = Address(dev);
    task.randomNum = Address(dev + 8);
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);  // later
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    int32_t out[6] = {};
    ASSERT_EQ(aclrtMemcpy(out, 24, result.get(), 24, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    const auto words = WordsRef(kCounter, seed, 4);
    for (size_t i = 0; i < 4; ++i)
        EXPECT_EQ(out[i], low + static_cast<int32_t>((uint64_t{words[i]} * 10) >> 32)) << i;
    EXPECT_EQ(out[4], 0) << "count 4: nothing more";
}

TEST_F(RandomNumAsync, ARandomParaAddrReceivesTheParameterWordsAndIsReadWhenTheTaskRuns) {
    DeviceBuffer block(16), mean_in_memory(4);
    const float stddev = 1.0f, mean = 100.0f;
    ASSERT_EQ(aclrtMemcpy(mean_in_memory.get(), 4, &mean, 4, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    aclrtRandomNumTaskInfo task = Task(kNormal, ACL_FLOAT, Address(mean_in_memory.get()),
                                       Value(stddev), nullptr, counter_->get(), kSeed, 8);
    task.randomParaAddr = block.get();
    DeviceBuffer result(32);
    task.randomResultAddr = result.get();
    Gate gate;
    ASSERT_EQ(gate.Block(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    uint64_t words[2] = {};
    ASSERT_EQ(aclrtMemcpy(words, 16, block.get(), 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(words[0], reinterpret_cast<uintptr_t>(mean_in_memory.get()))
        << "the first word: the mean's address";
    EXPECT_EQ(words[1], std::bit_cast<uint32_t>(stddev)) << "the second: the stddev's bytes";
    // Rewritten before the task runs: the task takes the new stddev.
    const uint64_t wider[2] = {words[0], std::bit_cast<uint32_t>(4.0f)};
    ASSERT_EQ(aclrtMemcpy(block.get(), 16, wider, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    float out[8];
    ASSERT_EQ(aclrtMemcpy(out, 32, result.get(), 32, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    const auto w = WordsRef(kCounter, kSeed, 8);
    for (size_t i = 0; i < 8; ++i)
        EXPECT_NEAR(Phi((out[i] - mean) / 4.0), (w[i] + 0.5) * 0x1p-32, 1e-6) << i;
}

// ---- As a stream task ----------------------------------------------------------------------

TEST_F(RandomNumAsync, ACapturedTaskGivesTheSameNumbersAtEveryReplayUntilTheCounterMoves) {
    DeviceBuffer result(64);
    const aclrtRandomNumTaskInfo task = Task(kUniform, ACL_FLOAT, Value(0.0f), Value(1.0f),
                                             result.get(), counter_->get(), kSeed, 16);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_SUCCESS);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS) << aclGetRecentErrMsg();
    const auto replay = [&] {
        EXPECT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::vector<float> out(16);
        EXPECT_EQ(aclrtMemcpy(out.data(), 64, result.get(), 64, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return out;
    };
    const auto first = replay();
    EXPECT_EQ(replay(), first);
    const auto words = WordsRef(kCounter, kSeed, 16);
    for (size_t i = 0; i < 16; ++i)
        EXPECT_EQ(first[i], std::ldexp(static_cast<float>(words[i] >> 8), -24)) << i;
    SetCounter({9, 9, 9, 9});
    EXPECT_NE(replay(), first) << "a replay reads the counter when it runs";
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(RandomNumAsync, ACountInMemoryTooLargeForTheResultFailsTheStream) {
    DeviceBuffer count(8), result(16);
    // 68 bytes of int32: more than the 64 bytes a 16-byte aclrtMalloc holds.
    const uint64_t too_many = 17;
    ASSERT_EQ(aclrtMemcpy(count.get(), 8, &too_many, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    aclrtRandomNumTaskInfo task =
        Task(kUniform, ACL_INT32, Value(0), Value(9), result.get(), counter_->get(), 1, 0);
    task.randomNum = Address(count.get());
    ASSERT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_COPY_DATA);
    EXPECT_THAT_MESSAGE_CONTAINS("cannot take 17 numbers (68 bytes)");
}

// ---- Bad arguments -------------------------------------------------------------------------

TEST_F(RandomNumAsync, ANullTaskInfoANonNullReserveAndAnotherDataTypeAreInvalidParam) {
    DeviceBuffer result(16);
    int reserve = 0;
    aclrtRandomNumTaskInfo task =
        Task(kUniform, ACL_FLOAT, Value(0.0f), Value(1.0f), result.get(), counter_->get(), 1, 4);
    EXPECT_EQ(aclrtRandomNumAsync(nullptr, stream_, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("taskInfo is null");
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, &reserve), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("reserve is reserved");
    for (aclDataType type : {ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16}) {
        task.dataType = type;
        EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_INVALID_PARAM);
        EXPECT_THAT_MESSAGE_CONTAINS("is not a type aclrtRandomNumAsync generates");
    }
}

TEST_F(RandomNumAsync, AFunctionAndATypeThatDoNotGoTogetherAreRtParamInvalid) {
    DeviceBuffer result(64);
    aclrtRandomNumTaskInfo task =
        Task(kNormal, ACL_INT32, Value(0), Value(1), result.get(), counter_->get(), 1, 4);
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("does not go with ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS");
    task.randomNumFuncParaInfo.funcType = kDropout;
    task.dataType = ACL_UINT64;
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    task.randomNumFuncParaInfo.funcType = static_cast<aclrtRandomNumFuncType>(4);
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("is not an aclrtRandomNumFuncType");
}

TEST_F(RandomNumAsync, NullCounterOrResultAddressesAreRtParamInvalid) {
    DeviceBuffer result(16);
    aclrtRandomNumTaskInfo task =
        Task(kUniform, ACL_FLOAT, Value(0.0f), Value(1.0f), result.get(), nullptr, 1, 4);
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("randomCounterAddr is null");
    task.randomCounterAddr = counter_->get();
    task.randomResultAddr = nullptr;
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("randomResultAddr is null");
}

TEST_F(RandomNumAsync, BadIsAddrAndSizeFieldsAreRtParamInvalid) {
    DeviceBuffer result(16);
    const aclrtRandomNumTaskInfo good =
        Task(kUniform, ACL_FLOAT16, Value(HalfOf(0.0f)), Value(HalfOf(1.0f)), result.get(),
             counter_->get(), 1, 4);
    aclrtRandomNumTaskInfo task = good;
    task.randomSeed.isAddr = 2;
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("taskInfo->randomSeed.isAddr is 2");
    task = good;
    task.randomNum.size = 0;
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("taskInfo->randomNum.size is 0");
    task = good;
    task.randomSeed.size = 9;
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    task = good;
    task.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.size = 4;  // a float16 has 2
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("uniformDisInfo.max.size is 4: it counts the bytes");
}

TEST_F(RandomNumAsync, MemoryThatIsNotDeviceMemoryOrTooSmallIsInvalidParam) {
    DeviceBuffer result(16);
    std::vector<uint8_t> host(64);
    const aclrtRandomNumTaskInfo good =
        Task(kUniform, ACL_FLOAT, Value(0.0f), Value(1.0f), result.get(), counter_->get(), 1, 4);
    aclrtRandomNumTaskInfo task = good;
    task.randomCounterAddr = host.data();
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("randomCounterAddr");
    task = good;
    task.randomNum = Value(uint64_t{17});  // 68 bytes: a 16-byte aclrtMalloc holds 64
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("runs past the end of its allocation");
    task = good;
    task.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = Address(host.data());
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("uniformDisInfo.min points to");
    task = good;
    task.randomParaAddr = static_cast<uint8_t*>(result.get()) + 56;  // 8 bytes left, not 16
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("randomParaAddr");
}

TEST(RandomNumAsyncOnChip, OnlyAtlasA2AndA3GenerateRandomNumbers) {
    for (const char* soc : {"Ascend950PR_9599", "Ascend310P3", "Ascend910A", "Ascend310B1"}) {
        SCOPED_TRACE(soc);
        ScopedEnv env("OPENACL_SOC_NAME", soc);
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        {
            DeviceBuffer result(16), counter(16);
            const aclrtRandomNumTaskInfo task = Task(kUniform, ACL_FLOAT, Value(0.0f), Value(1.0f),
                                                     result.get(), counter.get(), 1, 4);
            EXPECT_EQ(aclrtRandomNumAsync(&task, nullptr, nullptr),
                      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
            EXPECT_THAT_MESSAGE_CONTAINS("CANN documents it for Atlas A2/A3 only");
        }
        EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    }
    ScopedEnv env("OPENACL_SOC_NAME", "Ascend910_9391");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    {
        DeviceBuffer result(16), counter(16);
        const aclrtRandomNumTaskInfo task =
            Task(kUniform, ACL_FLOAT, Value(0.0f), Value(1.0f), result.get(), counter.get(), 1, 4);
        EXPECT_EQ(aclrtRandomNumAsync(&task, nullptr, nullptr), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    }
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}
