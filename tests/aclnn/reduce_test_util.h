// Helpers of the reduction, softmax and normalisation tests: device tensors of any dtype made
// from double values (rounded to the dtype as the device stores them), read back as doubles in
// the view's logical order, deterministic random data, and comparisons with a tolerance fitted
// to the output's dtype. References are computed in double on the values actually stored.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn_test_support.h"

namespace reduce_test {

inline size_t SizeOf(aclDataType type) {
    switch (type) {
        case ACL_BOOL:
        case ACL_INT8:
        case ACL_UINT8:
            return 1;
        case ACL_FLOAT16:
        case ACL_BF16:
        case ACL_INT16:
            return 2;
        case ACL_FLOAT:
        case ACL_INT32:
        case ACL_UINT32:
            return 4;
        default:
            return 8;
    }
}

inline uint16_t ToBf16(float value) {  // round to nearest even
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
    return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

template <class T>
T Raw(const uint8_t* p) {
    T value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

template <class T>
void PutRaw(uint8_t* p, T value) {
    std::memcpy(p, &value, sizeof value);
}

inline void Encode(double v, aclDataType type, uint8_t* p) {
    switch (type) {
        case ACL_FLOAT:
            return PutRaw<float>(p, static_cast<float>(v));
        case ACL_DOUBLE:
            return PutRaw<double>(p, v);
        case ACL_FLOAT16:
            return PutRaw<uint16_t>(p, aclnn_test::Half(static_cast<float>(v)));
        case ACL_BF16:
            return PutRaw<uint16_t>(p, ToBf16(static_cast<float>(v)));
        case ACL_BOOL:
            return PutRaw<uint8_t>(p, v != 0 ? 1 : 0);
        case ACL_INT8:
            return PutRaw<int8_t>(p, static_cast<int8_t>(v));
        case ACL_UINT8:
            return PutRaw<uint8_t>(p, static_cast<uint8_t>(v));
        case ACL_INT16:
            return PutRaw<int16_t>(p, static_cast<int16_t>(v));
        case ACL_INT32:
            return PutRaw<int32_t>(p, static_cast<int32_t>(v));
        case ACL_UINT32:
            return PutRaw<uint32_t>(p, static_cast<uint32_t>(v));
        case ACL_INT64:
            return PutRaw<int64_t>(p, static_cast<int64_t>(v));
        default:
            return PutRaw<uint64_t>(p, static_cast<uint64_t>(v));
    }
}

inline double Decode(aclDataType type, const uint8_t* p) {
    switch (type) {
        case ACL_FLOAT:
            return Raw<float>(p);
        case ACL_DOUBLE:
            return Raw<double>(p);
        case ACL_FLOAT16:
            return aclnn_test::FromHalf(Raw<uint16_t>(p));
        case ACL_BF16:
            return aclnn_test::FromBf16(Raw<uint16_t>(p));
        case ACL_BOOL:
            return Raw<uint8_t>(p) != 0 ? 1.0 : 0.0;
        case ACL_INT8:
            return Raw<int8_t>(p);
        case ACL_UINT8:
            return Raw<uint8_t>(p);
        case ACL_INT16:
            return Raw<int16_t>(p);
        case ACL_INT32:
            return Raw<int32_t>(p);
        case ACL_UINT32:
            return Raw<uint32_t>(p);
        case ACL_INT64:
            return static_cast<double>(Raw<int64_t>(p));
        default:
            return static_cast<double>(Raw<uint64_t>(p));
    }
}

// v as a tensor of `type` holds it.
inline double Quantize(double v, aclDataType type) {
    uint8_t bytes[8];
    Encode(v, type, bytes);
    return Decode(type, bytes);
}

inline std::vector<double> Quantize(std::vector<double> values, aclDataType type) {
    for (double& v : values)
        v = Quantize(v, type);
    return values;
}

// n values in [lo, hi) from a fixed generator.
inline std::vector<double> Random(size_t n, uint32_t seed, double lo = -2.0, double hi = 2.0) {
    std::vector<double> values(n);
    uint64_t state = 0x9e3779b97f4a7c15ull ^ seed;
    for (double& v : values) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        v = lo + (hi - lo) * static_cast<double>(state >> 11) / 9007199254740992.0;
    }
    return values;
}

inline int64_t Numel(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}

// A device tensor of any dtype: a view (strides and offset in elements) over storage.
class Tensor {
 public:
    // Contiguous, holding `values` (row-major).
    Tensor(const std::vector<int64_t>& shape, const std::vector<double>& values, aclDataType dtype,
           aclFormat format = ACL_FORMAT_ND)
        : Tensor(shape, aclnn_test::ContiguousStrides(shape), 0, values, dtype, format) {}
    // A view over storage holding `storage`.
    Tensor(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int64_t offset,
           const std::vector<double>& storage, aclDataType dtype, aclFormat format = ACL_FORMAT_ND)
        : shape_(shape), strides_(strides), offset_(offset), dtype_(dtype), count_(storage.size()) {
        const size_t size = SizeOf(dtype);
        std::vector<uint8_t> bytes(count_ * size);
        for (size_t i = 0; i < count_; ++i)
            Encode(storage[i], dtype, bytes.data() + i * size);
        const size_t alloc = bytes.empty() ? 1 : bytes.size();
        EXPECT_EQ(aclrtMalloc(&dev_, alloc, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        if (!bytes.empty()) {
            EXPECT_EQ(
                aclrtMemcpy(dev_, alloc, bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
        }
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

    // The whole storage after the work queued so far.
    std::vector<double> Storage() const {
        const size_t size = SizeOf(dtype_);
        std::vector<uint8_t> bytes(count_ * size);
        EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
        if (!bytes.empty()) {
            EXPECT_EQ(aclrtMemcpy(bytes.data(), bytes.size(), dev_, bytes.size(),
                                  ACL_MEMCPY_DEVICE_TO_HOST),
                      ACL_SUCCESS);
        }
        std::vector<double> values(count_);
        for (size_t i = 0; i < count_; ++i)
            values[i] = Decode(dtype_, bytes.data() + i * size);
        return values;
    }
    // The view's elements in row-major order.
    std::vector<double> Values() const {
        const std::vector<double> storage = Storage();
        const int64_t n = Numel(shape_);
        std::vector<double> values(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
            int64_t rest = i, at = offset_;
            for (size_t d = shape_.size(); d-- > 0;) {
                at += (rest % shape_[d]) * strides_[d];
                rest /= shape_[d];
            }
            values[static_cast<size_t>(i)] = storage[static_cast<size_t>(at)];
        }
        return values;
    }

 private:
    std::vector<int64_t> shape_, strides_;
    int64_t offset_;
    aclDataType dtype_;
    size_t count_;
    void* dev_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

// Owned aclIntArray.
class IntArray {
 public:
    explicit IntArray(const std::vector<int64_t>& values)
        : array_(aclCreateIntArray(values.data(), values.size())) {}
    ~IntArray() { aclDestroyIntArray(array_); }
    IntArray(const IntArray&) = delete;
    IntArray& operator=(const IntArray&) = delete;
    aclIntArray* get() const { return array_; }

 private:
    aclIntArray* array_;
};

// The storage of the transpose of a row-major [rows, cols] matrix: element (r, c) of the
// returned [cols, rows] storage is values[r * cols + c], so the view shape [rows, cols] with
// strides [1, rows] reads `values` row-major.
inline std::vector<double> TransposedStorage(const std::vector<double>& values, int64_t rows,
                                             int64_t cols) {
    std::vector<double> storage(values.size());
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
            storage[static_cast<size_t>(c * rows + r)] = values[static_cast<size_t>(r * cols + c)];
        }
    }
    return storage;
}

// Reference reduction: the groups of `values` (row-major over `shape`) that share a position
// of the kept dimensions, in row-major order of those positions.
inline std::vector<std::vector<double>> Groups(const std::vector<int64_t>& shape,
                                               const std::vector<double>& values,
                                               const std::vector<int>& reduced) {
    std::vector<bool> is_reduced(shape.size(), false);
    for (int d : reduced)
        is_reduced[static_cast<size_t>(d)] = true;
    int64_t outputs = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (!is_reduced[d]) outputs *= shape[d];
    }
    std::vector<std::vector<double>> groups(static_cast<size_t>(outputs));
    for (size_t i = 0; i < values.size(); ++i) {
        int64_t rest = static_cast<int64_t>(i), out = 0, scale = 1;
        for (size_t d = shape.size(); d-- > 0;) {
            const int64_t index = rest % shape[d];
            rest /= shape[d];
            if (!is_reduced[d]) {
                out += index * scale;
                scale *= shape[d];
            }
        }
        groups[static_cast<size_t>(out)].push_back(values[i]);
    }
    return groups;
}

// Relative tolerance of a result stored as `type` (a few units of its last place).
inline double Tolerance(aclDataType type) {
    switch (type) {
        case ACL_FLOAT16:
            return 2e-3;
        case ACL_BF16:
            return 1.6e-2;
        case ACL_FLOAT:
            return 2e-6;
        default:
            return 1e-12;
    }
}

inline void ExpectClose(const std::vector<double>& got, const std::vector<double>& want,
                        aclDataType type, const std::string& what, double atol = 1e-6) {
    ASSERT_EQ(got.size(), want.size()) << what;
    const double rtol = Tolerance(type);
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i])) {
            EXPECT_TRUE(std::isnan(got[i])) << what << " [" << i << "] is " << got[i];
            continue;
        }
        EXPECT_NEAR(got[i], want[i], atol + rtol * std::fabs(want[i])) << what << " [" << i << "]";
    }
}

inline const char* Name(aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
            return "float";
        case ACL_FLOAT16:
            return "float16";
        case ACL_BF16:
            return "bfloat16";
        case ACL_DOUBLE:
            return "double";
        default:
            return "integer";
    }
}

}  // namespace reduce_test
