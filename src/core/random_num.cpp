#include "core/random_num.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>

#include "backend/cpu/task.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/float16.h"
#include "core/memory.h"
#include "core/model_ri.h"
#include "core/runtime.h"
#include "core/stream.h"

// Reproducible across machines and compilers: no a * b + c may become a fused multiply-add.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace openacl {

namespace {

// ---- Philox4x32-10 -------------------------------------------------------------------------

constexpr uint32_t kMultiplier0 = 0xD2511F53u;
constexpr uint32_t kMultiplier1 = 0xCD9E8D57u;
constexpr uint32_t kKeyStep0 = 0x9E3779B9u;  // the golden ratio
constexpr uint32_t kKeyStep1 = 0xBB67AE85u;  // sqrt(3) - 1

struct Block {
    uint32_t word[4];
};

Block Philox(uint64_t counter_low, uint64_t counter_high, uint64_t seed) {
    uint32_t x0 = static_cast<uint32_t>(counter_low), x1 = static_cast<uint32_t>(counter_low >> 32);
    uint32_t x2 = static_cast<uint32_t>(counter_high),
             x3 = static_cast<uint32_t>(counter_high >> 32);
    uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
    for (int round = 0; round < 10; ++round) {
        if (round != 0) {
            k0 += kKeyStep0;
            k1 += kKeyStep1;
        }
        const uint64_t product0 = static_cast<uint64_t>(kMultiplier0) * x0;
        const uint64_t product1 = static_cast<uint64_t>(kMultiplier1) * x2;
        const uint32_t y0 = static_cast<uint32_t>(product1 >> 32) ^ x1 ^ k0;
        const uint32_t y2 = static_cast<uint32_t>(product0 >> 32) ^ x3 ^ k1;
        x0 = y0;
        x1 = static_cast<uint32_t>(product1);
        x2 = y2;
        x3 = static_cast<uint32_t>(product0);
    }
    return {{x0, x1, x2, x3}};
}

// The words of blocks counter, counter + 1, ... in order.
class Words {
 public:
    Words(const uint8_t counter[16], uint64_t seed) : seed_(seed) {
        std::memcpy(&low_, counter, 8);  // little-endian, as the device stores it
        std::memcpy(&high_, counter + 8, 8);
    }
    uint32_t Next() {
        if (used_ == 4) {
            block_ = Philox(low_, high_, seed_);
            if (++low_ == 0) ++high_;
            used_ = 0;
        }
        return block_.word[used_++];
    }

 private:
    uint64_t seed_;
    uint64_t low_ = 0, high_ = 0;
    Block block_{};
    int used_ = 4;
};

// ---- Distributions -------------------------------------------------------------------------

// The standard normal quantile, by Acklam's rational approximation (relative error below
// 1.15e-9 over (0, 1)).
double NormalQuantile(double p) {
    constexpr double a[6] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    constexpr double b[5] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
    constexpr double c[6] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    constexpr double d[4] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
    constexpr double kTail = 0.02425;
    const auto tail = [&](double q) {
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    };
    if (p < kTail) return tail(std::sqrt(-2.0 * std::log(p)));
    if (p > 1.0 - kTail) return -tail(std::sqrt(-2.0 * std::log(1.0 - p)));
    const double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

// P(Z < -2) for a standard normal Z: truncated normals keep probabilities in [it, 1 - it].
constexpr double kBelowMinusTwo = 0.022750131948179207;

uint64_t SizeOf(aclDataType type) {
    switch (type) {
        case ACL_INT64:
        case ACL_UINT64:
            return 8;
        case ACL_FLOAT16:
        case ACL_BF16:
            return 2;
        default:
            return 4;
    }
}

const char* TypeName(aclDataType type) {
    switch (type) {
        case ACL_INT32:
            return "ACL_INT32";
        case ACL_INT64:
            return "ACL_INT64";
        case ACL_UINT32:
            return "ACL_UINT32";
        case ACL_UINT64:
            return "ACL_UINT64";
        case ACL_BF16:
            return "ACL_BF16";
        case ACL_FLOAT16:
            return "ACL_FLOAT16";
        case ACL_FLOAT:
            return "ACL_FLOAT";
        default:
            return "?";
    }
}

const char* FuncName(aclrtRandomNumFuncType func) {
    switch (func) {
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK:
            return "ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK";
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
            return "ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS";
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS:
            return "ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS";
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS:
            return "ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS";
    }
    return "?";
}

bool IsFloatType(aclDataType type) {
    return type == ACL_FLOAT || type == ACL_FLOAT16 || type == ACL_BF16;
}

// A floating parameter of dataType, from its little-endian bytes.
double FloatValue(uint64_t raw, aclDataType type) {
    switch (type) {
        case ACL_FLOAT16:
            return f16::HalfToFloat(static_cast<uint16_t>(raw));
        case ACL_BF16:
            return f16::Bf16ToFloat(static_cast<uint16_t>(raw));
        default:
            return std::bit_cast<float>(static_cast<uint32_t>(raw));
    }
}

// Writes v, rounded to the floating type, as element i. With `below` set, the result stays
// under `limit` (the format's value `limit_raw`): one that rounds up to it takes the next value
// below.
void StoreFloat(uint8_t* out, uint64_t i, double v, aclDataType type, bool below, double limit,
                uint64_t limit_raw) {
    if (type == ACL_FLOAT) {
        float f = static_cast<float>(v);
        if (below && f >= limit) {
            f = std::nextafter(std::bit_cast<float>(static_cast<uint32_t>(limit_raw)), -INFINITY);
        }
        std::memcpy(out + 4 * i, &f, 4);
        return;
    }
    const bool bf16 = type == ACL_BF16;
    uint16_t bits = bf16 ? f16::Bf16FromDouble(v) : f16::HalfFromDouble(v);
    if (below && (bf16 ? f16::Bf16ToFloat(bits) : f16::HalfToFloat(bits)) >= limit) {
        bits = f16::NextDown(static_cast<uint16_t>(limit_raw));
    }
    std::memcpy(out + 2 * i, &bits, 2);
}

uint64_t MulHigh64(uint64_t a, uint64_t b) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
}

// Uniform integers in [low, high) of an integer type T.
template <class T>
void UniformIntegers(Words& words, uint8_t* out, uint64_t n, uint64_t low_raw, uint64_t high_raw) {
    T low, high;
    std::memcpy(&low, &low_raw, sizeof(T));  // little-endian: the low bytes
    std::memcpy(&high, &high_raw, sizeof(T));
    using Unsigned = std::make_unsigned_t<T>;
    const Unsigned range =
        high > low ? static_cast<Unsigned>(static_cast<Unsigned>(high) - static_cast<Unsigned>(low))
                   : 0;
    for (uint64_t i = 0; i < n; ++i) {
        Unsigned offset;
        if constexpr (sizeof(T) == 4) {
            offset = static_cast<Unsigned>((static_cast<uint64_t>(words.Next()) * range) >> 32);
        } else {
            const uint64_t word_low = words.Next();
            const uint64_t w = word_low | static_cast<uint64_t>(words.Next()) << 32;
            offset = MulHigh64(w, range);
        }
        const T v = static_cast<T>(static_cast<Unsigned>(static_cast<Unsigned>(low) + offset));
        std::memcpy(out + sizeof(T) * i, &v, sizeof(T));
    }
}

// What one task generates, once its values have been read.
struct Request {
    aclrtRandomNumFuncType func;
    aclDataType type;
    uint64_t seed;
    uint64_t count;
    uint8_t counter[16];
    uint64_t first, second;  // the parameters' bytes
};

void Generate(const Request& r, uint8_t* out) {
    Words words(r.counter, r.seed);
    switch (r.func) {
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK: {
            const double threshold = FloatValue(r.first, r.type) * 0x1p32;
            for (uint64_t k = 0; k * 8 < r.count; ++k) {
                uint8_t byte = 0;
                for (uint64_t j = 0; j < 8 && k * 8 + j < r.count; ++j) {
                    const bool dropped = static_cast<double>(words.Next()) < threshold;
                    if (!dropped) byte = static_cast<uint8_t>(byte | (1u << j));
                }
                out[k] = byte;
            }
            return;
        }
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
            switch (r.type) {
                case ACL_INT32:
                    return UniformIntegers<int32_t>(words, out, r.count, r.first, r.second);
                case ACL_UINT32:
                    return UniformIntegers<uint32_t>(words, out, r.count, r.first, r.second);
                case ACL_INT64:
                    return UniformIntegers<int64_t>(words, out, r.count, r.first, r.second);
                case ACL_UINT64:
                    return UniformIntegers<uint64_t>(words, out, r.count, r.first, r.second);
                default: {
                    const double low = FloatValue(r.first, r.type);
                    const double high = FloatValue(r.second, r.type);
                    const bool below = high > low;
                    for (uint64_t i = 0; i < r.count; ++i) {
                        const double u = static_cast<double>(words.Next() >> 8) * 0x1p-24;
                        StoreFloat(out, i, below ? low + u * (high - low) : low, r.type, below,
                                   high, r.second);
                    }
                    return;
                }
            }
            return;
        default: {  // normal and truncated normal
            const double mean = FloatValue(r.first, r.type);
            const double stddev = FloatValue(r.second, r.type);
            const bool truncated = r.func == ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS;
            for (uint64_t i = 0; i < r.count; ++i) {
                double p = (static_cast<double>(words.Next()) + 0.5) * 0x1p-32;
                double z;
                if (truncated) {
                    p = kBelowMinusTwo + p * (1.0 - 2.0 * kBelowMinusTwo);
                    z = std::fmin(2.0, std::fmax(-2.0, NormalQuantile(p)));
                } else {
                    z = NormalQuantile(p);
                }
                StoreFloat(out, i, mean + stddev * z, r.type, false, 0.0, 0);
            }
            return;
        }
    }
}

uint64_t OutputBytes(aclrtRandomNumFuncType func, aclDataType type, uint64_t count,
                     bool* overflow) {
    *overflow = false;
    if (func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) return count / 8 + (count % 8 != 0);
    const uint64_t size = SizeOf(type);
    if (count > UINT64_MAX / size) {
        *overflow = true;
        return 0;
    }
    return count * size;
}

// ---- Checks --------------------------------------------------------------------------------

// The chips CANN documents the call for: Atlas A2/A3.
aclError RequireChip() {
    const std::string& soc = Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtRandomNumAsync is not available on %s (CANN documents it for Atlas A2/A3 "
                "only)",
                soc.c_str());
}

aclError CheckTypeForFunc(aclrtRandomNumFuncType func, aclDataType type) {
    if (func < ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK ||
        func > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID,
                    "taskInfo->randomNumFuncParaInfo.funcType %d is not an "
                    "aclrtRandomNumFuncType (0 DROPOUT_BITMASK, 1 UNIFORM_DIS, 2 NORMAL_DIS, 3 "
                    "TRUNCATED_NORMAL_DIS)",
                    static_cast<int>(func));
    }
    if (func == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS || IsFloatType(type)) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "taskInfo->dataType %s does not go with %s: CANN allows ACL_FLOAT, ACL_FLOAT16 "
                "and ACL_BF16 there (the integer types are for uniform numbers only)",
                TypeName(type), FuncName(func));
}

// Checks one aclrtRandomParaInfo and returns its bytes (a value, or an address) in *raw.
// value_size: the bytes of the value itself.
aclError CheckParam(const char* name, const aclrtRandomParaInfo& p, uint64_t value_size,
                    const char* value_kind, uint64_t* raw) {
    if (p.isAddr > 1) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID,
                    "%s.isAddr is %u: it is 0 (valueOrAddr holds the value) or 1 (valueOrAddr "
                    "holds the device address of the value)",
                    name, static_cast<unsigned>(p.isAddr));
    }
    const uint64_t most = p.isAddr != 0 ? 8 : value_size;
    if (p.size == 0 || p.size > most) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID,
                    "%s.size is %u: it counts the bytes of valueOrAddr in use, 1 to %llu for %s",
                    name, static_cast<unsigned>(p.size), static_cast<unsigned long long>(most),
                    p.isAddr != 0 ? "an address" : value_kind);
    }
    *raw = 0;
    std::memcpy(raw, p.valueOrAddr, p.size);
    if (p.isAddr != 0) {
        const void* address = reinterpret_cast<const void*>(static_cast<uintptr_t>(*raw));
        if (const char* problem = LiveDeviceRangeProblem(address, value_size)) {
            return Fail(ACL_ERROR_INVALID_PARAM, "%s points to %p (%llu bytes), which %s", name,
                        address, static_cast<unsigned long long>(value_size), problem);
        }
    }
    return ACL_SUCCESS;
}

aclError CheckBuffer(const char* name, const void* p, uint64_t bytes) {
    if (const char* problem = LiveDeviceRangeProblem(p, bytes)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s %p (%llu bytes) %s", name, p,
                    static_cast<unsigned long long>(bytes), problem);
    }
    return ACL_SUCCESS;
}

// ---- The task ------------------------------------------------------------------------------

// Everything a task needs, on the heap (more than a task's payload holds): owned by the task
// that is submitted or captured, shared read-only by a captured model's replays.
struct Job {
    Stream* stream;
    uint8_t* result;
    const uint8_t* counter;
    const uint8_t* param_block;  // randomParaAddr, or null: the parameters are below
    uint64_t first, second;
    uint64_t seed, count;
    aclrtRandomNumFuncType func;
    aclDataType type;
    bool first_is_address, second_is_address, seed_is_address, count_is_address;
};

// Reads `bytes` (at most 8) of device memory at `address` into *value, or explains why not.
bool ReadDevice(const Job& job, const char* what, uint64_t address, uint64_t bytes,
                uint64_t* value) {
    const void* p = reinterpret_cast<const void*>(static_cast<uintptr_t>(address));
    if (const char* problem = LiveDeviceRangeProblem(p, bytes)) {
        job.stream->NoteFailure("aclrtRandomNumAsync: %s at %p %s when the task ran", what, p,
                                problem);
        return false;
    }
    *value = 0;
    std::memcpy(value, p, bytes);
    return true;
}

cpu::TaskStatus Run(const Job& job) {
    const cpu::TaskStatus failed = cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
    Request r{};
    r.func = job.func;
    r.type = job.type;
    r.seed = job.seed;
    r.count = job.count;
    r.first = job.first;
    r.second = job.second;
    if (job.seed_is_address && !ReadDevice(job, "the seed", job.seed, 8, &r.seed)) return failed;
    if (job.count_is_address && !ReadDevice(job, "the count", job.count, 8, &r.count))
        return failed;
    if (const char* problem = LiveDeviceRangeProblem(job.counter, 16)) {
        job.stream->NoteFailure("aclrtRandomNumAsync: the counter at %p %s when the task ran",
                                static_cast<const void*>(job.counter), problem);
        return failed;
    }
    std::memcpy(r.counter, job.counter, 16);
    const uint64_t block = reinterpret_cast<uintptr_t>(job.param_block);
    if (job.param_block != nullptr && (!ReadDevice(job, "randomParaAddr", block, 8, &r.first) ||
                                       !ReadDevice(job, "randomParaAddr", block + 8, 8, &r.second)))
        return failed;
    const uint64_t size = SizeOf(job.type);
    if (job.first_is_address && !ReadDevice(job, "the first parameter", r.first, size, &r.first))
        return failed;
    if (job.second_is_address &&
        !ReadDevice(job, "the second parameter", r.second, size, &r.second))
        return failed;
    bool overflow = false;
    const uint64_t bytes = OutputBytes(r.func, r.type, r.count, &overflow);
    const char* problem =
        overflow ? "is more than memory holds" : LiveDeviceRangeProblem(job.result, bytes);
    if (problem != nullptr) {
        job.stream->NoteFailure(
            "aclrtRandomNumAsync: randomResultAddr %p cannot take %llu numbers (%llu bytes): it "
            "%s",
            static_cast<void*>(job.result), static_cast<unsigned long long>(r.count),
            static_cast<unsigned long long>(bytes), problem);
        return failed;
    }
    Generate(r, job.result);
    return cpu::TaskStatus::Done();
}

}  // namespace

bool IsRandomDataType(aclDataType type) {
    switch (type) {
        case ACL_INT32:
        case ACL_INT64:
        case ACL_UINT32:
        case ACL_UINT64:
        case ACL_BF16:
        case ACL_FLOAT16:
        case ACL_FLOAT:
            return true;
        default:
            return false;
    }
}

aclError BuildRandomNumTask(const aclrtRandomNumTaskInfo& info, Stream* stream, cpu::Task* out) {
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "aclrtRandomNumAsync is not supported on the %s backend yet",
                    stream->context()->device()->accelerator()->name());
    }
    if (aclError rc = RequireChip()) return rc;
    const aclrtRandomNumFuncType func = info.randomNumFuncParaInfo.funcType;
    const aclDataType type = info.dataType;
    if (aclError rc = CheckTypeForFunc(func, type)) return rc;
    if (info.randomCounterAddr == nullptr) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID,
                    "taskInfo->randomCounterAddr is null: it must be 16 bytes of device memory "
                    "holding the generator's counter");
    }
    if (info.randomResultAddr == nullptr) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID,
                    "taskInfo->randomResultAddr is null: it must be device memory for the "
                    "numbers");
    }

    Job job{};
    job.stream = stream;
    job.func = func;
    job.type = type;
    job.result = static_cast<uint8_t*>(info.randomResultAddr);
    job.counter = static_cast<const uint8_t*>(info.randomCounterAddr);
    job.param_block = static_cast<const uint8_t*>(info.randomParaAddr);
    job.seed_is_address = info.randomSeed.isAddr == 1;
    job.count_is_address = info.randomNum.isAddr == 1;
    if (aclError rc =
            CheckParam("taskInfo->randomSeed", info.randomSeed, 8, "a 64-bit seed", &job.seed))
        return rc;
    if (aclError rc =
            CheckParam("taskInfo->randomNum", info.randomNum, 8, "a 64-bit count", &job.count))
        return rc;
    const auto& params = info.randomNumFuncParaInfo.paramInfo;
    const uint64_t size = SizeOf(type);
    char value_kind[48];
    std::snprintf(value_kind, sizeof value_kind, "a %s value", TypeName(type));
    const aclrtRandomParaInfo* first = nullptr;
    const aclrtRandomParaInfo* second = nullptr;
    const char* first_name = "";
    const char* second_name = "";
    switch (func) {
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK:
            first = &params.dropoutBitmaskInfo.dropoutRation;
            first_name = "dropoutBitmaskInfo.dropoutRation";
            break;
        case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
            first = &params.uniformDisInfo.min;
            second = &params.uniformDisInfo.max;
            first_name = "uniformDisInfo.min";
            second_name = "uniformDisInfo.max";
            break;
        default:
            first = &params.normalDisInfo.mean;
            second = &params.normalDisInfo.stddev;
            first_name = "normalDisInfo.mean";
            second_name = "normalDisInfo.stddev";
            break;
    }
    if (aclError rc = CheckParam(first_name, *first, size, value_kind, &job.first)) return rc;
    job.first_is_address = first->isAddr == 1;
    if (second != nullptr) {
        if (aclError rc = CheckParam(second_name, *second, size, value_kind, &job.second))
            return rc;
        job.second_is_address = second->isAddr == 1;
    }

    // The memory the task will use.
    if (aclError rc = CheckBuffer("taskInfo->randomCounterAddr", job.counter, 16)) return rc;
    if (job.param_block != nullptr) {
        if (aclError rc = CheckBuffer("taskInfo->randomParaAddr", job.param_block, 16)) return rc;
    }
    if (job.count_is_address) {  // the size is known when the task runs
        if (aclError rc = CheckBuffer("taskInfo->randomResultAddr", job.result, 0)) return rc;
    } else {
        bool overflow = false;
        const uint64_t bytes = OutputBytes(func, type, job.count, &overflow);
        if (overflow) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "taskInfo->randomNum %llu numbers of %s is more than memory holds",
                        static_cast<unsigned long long>(job.count), TypeName(type));
        }
        if (aclError rc = CheckBuffer("taskInfo->randomResultAddr", job.result, bytes)) return rc;
    }

    // As CANN's runtime does, the parameter words go to randomParaAddr in the call.
    if (job.param_block != nullptr) {
        uint8_t words[16];
        std::memcpy(words, &job.first, 8);
        std::memcpy(words + 8, &job.second, 8);
        std::memcpy(const_cast<uint8_t*>(job.param_block), words, 16);
    }

    Job* owned = new (std::nothrow) Job(job);
    if (owned == nullptr) {
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "no host memory for the task's description");
    }
    // Replayable: a captured model's replays run borrowed copies that read the job; the
    // original frees it, once (after running, or when discarded or released).
    *out = cpu::MakeTask(
        [owned](cpu::TaskContext& ctx) {
            cpu::TaskStatus status = cpu::TaskStatus::Done();
            if (!ctx.cancelled()) status = Run(*owned);
            if (status.failed()) exception_info::Report(ctx, owned->stream, status.code);
            if (!ctx.borrowed()) delete owned;
            return status;
        },
        0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable);
    return ACL_SUCCESS;
}

aclError RandomNumAsync(const aclrtRandomNumTaskInfo& info, Stream* stream) {
    cpu::Task task;
    if (aclError rc = BuildRandomNumTask(info, stream, &task)) return rc;
    // A capture keeps the description, which aclrtTaskUpdateAsync starts from.
    CaptureInfo capture;
    capture.random = std::make_shared<const aclrtRandomNumTaskInfo>(info);
    stream->Submit(task, {}, &capture);
    return ACL_SUCCESS;
}

}  // namespace openacl
