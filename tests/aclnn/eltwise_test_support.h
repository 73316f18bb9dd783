// Helpers of the element-wise operator tests: device tensors of any operator dtype made from
// and read back as doubles, the rounding a reference result gets when stored in a dtype, and
// the tolerance a computed result is compared with.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_test_support.h"

namespace aclnn_test {

using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

inline size_t ElementSize(aclDataType dtype) {
    switch (dtype) {
        case ACL_BOOL:
        case ACL_INT8:
        case ACL_UINT8:
            return 1;
        case ACL_FLOAT16:
        case ACL_BF16:
        case ACL_INT16:
        case ACL_UINT16:
            return 2;
        case ACL_FLOAT:
        case ACL_INT32:
        case ACL_UINT32:
            return 4;
        default:
            return 8;
    }
}

// The name messages give a dtype.
inline std::string DtypeText(aclDataType dtype) {
    switch (dtype) {
        case ACL_FLOAT:
            return "ACL_FLOAT";
        case ACL_FLOAT16:
            return "ACL_FLOAT16";
        case ACL_BF16:
            return "ACL_BF16";
        case ACL_DOUBLE:
            return "ACL_DOUBLE";
        case ACL_INT8:
            return "ACL_INT8";
        case ACL_UINT8:
            return "ACL_UINT8";
        case ACL_INT16:
            return "ACL_INT16";
        case ACL_UINT16:
            return "ACL_UINT16";
        case ACL_INT32:
            return "ACL_INT32";
        case ACL_UINT32:
            return "ACL_UINT32";
        case ACL_INT64:
            return "ACL_INT64";
        case ACL_UINT64:
            return "ACL_UINT64";
        case ACL_BOOL:
            return "ACL_BOOL";
        case ACL_COMPLEX64:
            return "ACL_COMPLEX64";
        default:
            return "aclDataType(" + std::to_string(static_cast<int>(dtype)) + ")";
    }
}

inline bool IsFloatType(aclDataType dtype) {
    return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_DOUBLE;
}

inline uint16_t Bf16Rounded(float value) {  // round to nearest even
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
    return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

// IEEE binary16, rounded to nearest even, overflowing to infinity, NaN kept (aclFloatToFloat16
// saturates and maps NaN to 65504, as CANN documents: no use for checking operator results).
inline uint16_t HalfRounded(float value) {
    if (std::isnan(value)) return 0x7e00;
    const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
    const double magnitude = std::fabs(static_cast<double>(value));
    if (magnitude >= 65520.0) return sign | 0x7c00;  // halfway past 65504 and beyond
    if (magnitude < std::ldexp(1.0, -14)) {          // subnormal: multiples of 2^-24
        return static_cast<uint16_t>(sign |
                                     static_cast<uint16_t>(std::nearbyint(magnitude * 16777216.0)));
    }
    int exponent = 0;
    std::frexp(magnitude, &exponent);  // magnitude = 1.m * 2^(exponent - 1)
    double mantissa = std::nearbyint((magnitude / std::ldexp(1.0, exponent - 1) - 1.0) * 1024.0);
    int biased = exponent - 1 + 15;
    if (mantissa == 1024.0) mantissa = 0.0, ++biased;
    if (biased >= 31) return sign | 0x7c00;
    return static_cast<uint16_t>(sign | (biased << 10) | static_cast<int>(mantissa));
}

inline double HalfValue(uint16_t bits) {
    const int exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
    double magnitude;
    if (exponent == 31) {
        magnitude = mantissa == 0 ? INFINITY : NAN;
    } else if (exponent == 0) {
        magnitude = std::ldexp(static_cast<double>(mantissa), -24);
    } else {
        magnitude = std::ldexp(1.0 + mantissa / 1024.0, exponent - 15);
    }
    return (bits & 0x8000) ? -magnitude : magnitude;
}

template <class I>
I Truncated(double value) {  // toward zero, saturated, NaN as 0
    if (std::isnan(value)) return 0;
    if (value <= static_cast<double>(std::numeric_limits<I>::min())) {
        return std::numeric_limits<I>::min();
    }
    if (value >= static_cast<double>(std::numeric_limits<I>::max())) {
        return std::numeric_limits<I>::max();
    }
    return static_cast<I>(value);
}

// `value` stored as one element of `dtype` at p.
inline void Encode(double value, aclDataType dtype, unsigned char* p) {
    auto put = [p](auto v) { std::memcpy(p, &v, sizeof v); };
    switch (dtype) {
        case ACL_FLOAT:
            return put(static_cast<float>(value));
        case ACL_DOUBLE:
            return put(value);
        case ACL_FLOAT16:
            return put(HalfRounded(static_cast<float>(value)));
        case ACL_BF16:
            return put(Bf16Rounded(static_cast<float>(value)));
        case ACL_INT8:
            return put(Truncated<int8_t>(value));
        case ACL_UINT8:
            return put(Truncated<uint8_t>(value));
        case ACL_INT16:
            return put(Truncated<int16_t>(value));
        case ACL_UINT16:
            return put(Truncated<uint16_t>(value));
        case ACL_INT32:
            return put(Truncated<int32_t>(value));
        case ACL_UINT32:
            return put(Truncated<uint32_t>(value));
        case ACL_INT64:
            return put(Truncated<int64_t>(value));
        case ACL_UINT64:
            return put(Truncated<uint64_t>(value));
        case ACL_BOOL:
            return put(static_cast<uint8_t>(value != 0.0 ? 1 : 0));
        case ACL_COMPLEX64: {  // the real part; imaginary 0
            const float parts[2] = {static_cast<float>(value), 0.0f};
            std::memcpy(p, parts, sizeof parts);
            return;
        }
        default:
            ADD_FAILURE() << "no test encoding for dtype " << dtype;
    }
}

inline double Decode(aclDataType dtype, const unsigned char* p) {
    auto get = [p](auto v) {
        std::memcpy(&v, p, sizeof v);
        return v;
    };
    switch (dtype) {
        case ACL_FLOAT:
            return get(float{});
        case ACL_DOUBLE:
            return get(double{});
        case ACL_FLOAT16:
            return HalfValue(get(uint16_t{}));
        case ACL_BF16:
            return FromBf16(get(uint16_t{}));
        case ACL_INT8:
            return get(int8_t{});
        case ACL_UINT8:
            return get(uint8_t{});
        case ACL_INT16:
            return get(int16_t{});
        case ACL_UINT16:
            return get(uint16_t{});
        case ACL_INT32:
            return get(int32_t{});
        case ACL_UINT32:
            return get(uint32_t{});
        case ACL_INT64:
            return static_cast<double>(get(int64_t{}));
        case ACL_UINT64:
            return static_cast<double>(get(uint64_t{}));
        case ACL_BOOL:
            return get(uint8_t{}) != 0 ? 1.0 : 0.0;
        case ACL_COMPLEX64:
            return get(float{});  // the real part
        default:
            ADD_FAILURE() << "no test decoding for dtype " << dtype;
            return 0.0;
    }
}

// The value a tensor of `dtype` holds after storing `value` (rounded, truncated, or 0/1).
inline double Quantize(double value, aclDataType dtype) {
    unsigned char bytes[8] = {};
    Encode(value, dtype, bytes);
    return Decode(dtype, bytes);
}

// Device memory holding `storage` elements of any dtype (given as doubles), and an aclTensor
// viewing it.
class Tensor {
 public:
    Tensor(const std::vector<int64_t>& shape, const std::vector<double>& values, aclDataType dtype,
           aclFormat format = ACL_FORMAT_ND)
        : Tensor(shape, ContiguousStrides(shape), 0, values, dtype, format) {}
    Tensor(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int64_t offset,
           const std::vector<double>& storage, aclDataType dtype, aclFormat format = ACL_FORMAT_ND)
        : shape_(shape), strides_(strides), offset_(offset), dtype_(dtype), count_(storage.size()) {
        const size_t size = ElementSize(dtype);
        std::vector<unsigned char> bytes(count_ * size + 1);
        for (size_t i = 0; i < count_; ++i)
            Encode(storage[i], dtype, bytes.data() + i * size);
        EXPECT_EQ(aclrtMalloc(&dev_, bytes.size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        EXPECT_EQ(
            aclrtMemcpy(dev_, bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
        const int64_t storage_dims[1] = {static_cast<int64_t>(count_)};
        tensor_ = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), offset, format,
                                  storage_dims, 1, dev_);
        EXPECT_NE(tensor_, nullptr);
    }
    ~Tensor() {
        aclDestroyTensor(tensor_);
        aclrtFree(dev_);
    }
    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;

    aclTensor* get() const { return tensor_; }
    aclDataType dtype() const { return dtype_; }

    // The whole storage, after the work queued so far.
    std::vector<double> Storage() const {
        const size_t size = ElementSize(dtype_);
        std::vector<unsigned char> bytes(count_ * size + 1);
        EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
        EXPECT_EQ(
            aclrtMemcpy(bytes.data(), bytes.size(), dev_, bytes.size(), ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
        std::vector<double> out(count_);
        for (size_t i = 0; i < count_; ++i)
            out[i] = Decode(dtype_, bytes.data() + i * size);
        return out;
    }
    // The view's elements in row-major order.
    std::vector<double> Values() const {
        const std::vector<double> storage = Storage();
        int64_t numel = 1;
        for (int64_t dim : shape_)
            numel *= dim;
        std::vector<double> out;
        std::vector<int64_t> index(shape_.size(), 0);
        for (int64_t n = 0; n < numel; ++n) {
            int64_t at = offset_;
            for (size_t d = 0; d < shape_.size(); ++d)
                at += index[d] * strides_[d];
            out.push_back(storage[static_cast<size_t>(at)]);
            for (size_t d = shape_.size(); d-- > 0;) {
                if (++index[d] < shape_[d]) break;
                index[d] = 0;
            }
        }
        return out;
    }

 private:
    std::vector<int64_t> shape_, strides_;
    int64_t offset_;
    aclDataType dtype_;
    size_t count_;
    void* dev_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

// Runs a first phase (a callable taking workspaceSize and executor) and, when it succeeds, the
// second; returns the first failing code.
template <class Plan>
aclnnStatus Execute(Plan&& plan, Phase2 phase2) {
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus rc = plan(&workspace, &executor);
    if (rc != ACLNN_SUCCESS) {
        EXPECT_EQ(executor, nullptr) << "a failing first phase handed out an executor";
        return rc;
    }
    return RunPhase2(phase2, workspace, executor);
}

// How far a result stored as `dtype` may be from the exact one: `exact` results only by the
// rounding to dtype (compared after quantizing the reference), others also by a relative
// error of the kernel's float math.
inline double Tolerance(double expected, aclDataType dtype, bool exact) {
    double relative = 0.0;
    switch (dtype) {
        case ACL_FLOAT16:
            relative = 2e-3;
            break;
        case ACL_BF16:
            relative = 1e-2;
            break;
        case ACL_FLOAT:
            relative = exact ? 0.0 : 2e-6;
            break;
        case ACL_DOUBLE:
            relative = exact ? 0.0 : 1e-12;
            break;
        default:
            return 0.0;  // integers and bool: exact
    }
    if (exact && (dtype == ACL_FLOAT || dtype == ACL_DOUBLE)) return 0.0;
    return relative * std::max(1.0, std::fabs(expected));
}

// Expects every actual[i] to be reference[i] as stored in `dtype` (within Tolerance). NaN
// matches NaN.
inline void ExpectValues(const std::vector<double>& actual, const std::vector<double>& reference,
                         aclDataType dtype, bool exact, const std::string& what = "") {
    ASSERT_EQ(actual.size(), reference.size()) << what;
    for (size_t i = 0; i < actual.size(); ++i) {
        const double expected = Quantize(reference[i], dtype);
        if (std::isnan(expected)) {
            EXPECT_TRUE(std::isnan(actual[i])) << what << " element " << i << ": " << actual[i];
            continue;
        }
        EXPECT_NEAR(actual[i], expected, Tolerance(expected, dtype, exact))
            << what << " element " << i << " (dtype " << dtype << ")";
    }
}

inline const char* RecentMessage() {
    const char* message = aclGetRecentErrMsg();
    return message != nullptr ? message : "";
}

// Expects the most recent error message to contain `text`.
inline void ExpectMessageHas(const std::string& text) {
    const std::string message = RecentMessage();
    EXPECT_NE(message.find(text), std::string::npos) << "message: " << message;
}

}  // namespace aclnn_test
