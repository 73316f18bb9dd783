// ONNX test-data tensors (serialized onnx::TensorProto files) as ACL-typed bytes, and the ONNX
// backend-test comparison of an actual output against an expected one.
#pragma once

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl_base_rt.h"

namespace conformance {

struct HostTensor {
    std::string name;
    int32_t onnx_type = 0;
    aclDataType type = ACL_DT_UNDEFINED;
    std::vector<int64_t> dims;
    std::vector<uint8_t> bytes;
};

inline aclDataType AclType(int32_t onnx_type) {
    switch (onnx_type) {
        case onnx::TensorProto::FLOAT:
            return ACL_FLOAT;
        case onnx::TensorProto::UINT8:
            return ACL_UINT8;
        case onnx::TensorProto::INT8:
            return ACL_INT8;
        case onnx::TensorProto::UINT16:
            return ACL_UINT16;
        case onnx::TensorProto::INT16:
            return ACL_INT16;
        case onnx::TensorProto::INT32:
            return ACL_INT32;
        case onnx::TensorProto::INT64:
            return ACL_INT64;
        case onnx::TensorProto::STRING:
            return ACL_STRING;
        case onnx::TensorProto::BOOL:
            return ACL_BOOL;
        case onnx::TensorProto::FLOAT16:
            return ACL_FLOAT16;
        case onnx::TensorProto::DOUBLE:
            return ACL_DOUBLE;
        case onnx::TensorProto::UINT32:
            return ACL_UINT32;
        case onnx::TensorProto::UINT64:
            return ACL_UINT64;
        case onnx::TensorProto::COMPLEX64:
            return ACL_COMPLEX64;
        case onnx::TensorProto::COMPLEX128:
            return ACL_COMPLEX128;
        case onnx::TensorProto::BFLOAT16:
            return ACL_BF16;
        default:
            return ACL_DT_UNDEFINED;
    }
}

inline size_t ElementBytes(aclDataType type) {
    switch (type) {
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
        case ACL_DOUBLE:
        case ACL_INT64:
        case ACL_UINT64:
        case ACL_COMPLEX64:
            return 8;
        case ACL_COMPLEX128:
            return 16;
        default:
            return 0;
    }
}

inline int64_t ElementCount(const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims)
        n *= d;
    return n;
}

inline std::string DimsText(const std::vector<int64_t>& dims) {
    std::string text = "[";
    for (size_t i = 0; i < dims.size(); ++i)
        text += (i ? "," : "") + std::to_string(dims[i]);
    return text + "]";
}

// Reads a TensorProto file into little-endian bytes of its ACL type. False with *error for a
// file that is not a tensor, or a type without a fixed-size ACL counterpart (strings).
inline bool LoadTensor(const std::string& path, HostTensor* out, std::string* error) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream content;
    content << file.rdbuf();
    onnx::TensorProto proto;
    if (!file || !proto.ParseFromString(content.str())) {
        *error = "cannot read tensor " + path;
        return false;
    }
    HostTensor t;
    t.name = proto.name();
    t.onnx_type = proto.data_type();
    t.type = AclType(t.onnx_type);
    t.dims.assign(proto.dims().begin(), proto.dims().end());
    const size_t element = ElementBytes(t.type);
    if (element == 0) {
        *error = "tensor " + path + " has ONNX type " + std::to_string(t.onnx_type) +
                 " without a fixed-size ACL type";
        return false;
    }
    const size_t count = static_cast<size_t>(ElementCount(t.dims));
    t.bytes.resize(count * element);
    if (proto.has_raw_data()) {
        if (proto.raw_data().size() != t.bytes.size()) {
            *error = "tensor " + path + ": raw data size does not match its shape";
            return false;
        }
        std::memcpy(t.bytes.data(), proto.raw_data().data(), t.bytes.size());
    } else {
        auto put = [&](size_t i, auto value) {
            std::memcpy(t.bytes.data() + i * element, &value, element);
        };
        size_t have = 0;
        switch (t.type) {
            case ACL_FLOAT:
            case ACL_COMPLEX64:
                have = proto.float_data_size();
                if (have * 4 != t.bytes.size()) break;
                std::memcpy(t.bytes.data(), proto.float_data().data(), t.bytes.size());
                have = count;
                break;
            case ACL_DOUBLE:
            case ACL_COMPLEX128:
                have = proto.double_data_size();
                if (have * 8 != t.bytes.size()) break;
                std::memcpy(t.bytes.data(), proto.double_data().data(), t.bytes.size());
                have = count;
                break;
            case ACL_INT64:
                have = proto.int64_data_size();
                for (size_t i = 0; i < count && i < have; ++i)
                    put(i, proto.int64_data(i));
                break;
            case ACL_UINT32:
            case ACL_UINT64:
                have = proto.uint64_data_size();
                for (size_t i = 0; i < count && i < have; ++i) {
                    if (t.type == ACL_UINT32) {
                        put(i, static_cast<uint32_t>(proto.uint64_data(i)));
                    } else {
                        put(i, static_cast<uint64_t>(proto.uint64_data(i)));
                    }
                }
                break;
            default:  // int32_data holds every narrower type, float16 and bfloat16 as bits
                have = proto.int32_data_size();
                for (size_t i = 0; i < count && i < have; ++i) {
                    int32_t v = proto.int32_data(i);
                    switch (element) {
                        case 1:
                            put(i, static_cast<uint8_t>(v));
                            break;
                        case 2:
                            put(i, static_cast<uint16_t>(v));
                            break;
                        default:
                            put(i, v);
                            break;
                    }
                }
                break;
        }
        if (have != count) {
            *error = "tensor " + path + ": stored element count does not match its shape";
            return false;
        }
    }
    *out = std::move(t);
    return true;
}

inline double HalfToDouble(uint16_t h) {
    const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double value;
    if (exponent == 0) {
        value = std::ldexp(mantissa, -24);
    } else if (exponent == 31) {
        value = mantissa ? NAN : INFINITY;
    } else {
        value = std::ldexp(mantissa + 1024, exponent - 25);
    }
    return sign ? -value : value;
}

// Element i of a tensor of `type`, widened for comparison (integers exactly up to 2^53).
inline double ElementAt(aclDataType type, const uint8_t* data, size_t i) {
    auto get = [&](auto sample) {
        std::memcpy(&sample, data + i * sizeof sample, sizeof sample);
        return static_cast<double>(sample);
    };
    switch (type) {
        case ACL_FLOAT:
            return get(float{});
        case ACL_DOUBLE:
            return get(double{});
        case ACL_FLOAT16: {
            uint16_t bits;
            std::memcpy(&bits, data + i * 2, 2);
            return HalfToDouble(bits);
        }
        case ACL_BF16: {
            uint16_t bits;
            std::memcpy(&bits, data + i * 2, 2);
            uint32_t wide = static_cast<uint32_t>(bits) << 16;
            float f;
            std::memcpy(&f, &wide, 4);
            return f;
        }
        case ACL_BOOL:
        case ACL_UINT8:
            return get(uint8_t{});
        case ACL_INT8:
            return get(int8_t{});
        case ACL_INT16:
            return get(int16_t{});
        case ACL_UINT16:
            return get(uint16_t{});
        case ACL_INT32:
            return get(int32_t{});
        case ACL_UINT32:
            return get(uint32_t{});
        case ACL_INT64:
            return get(int64_t{});
        case ACL_UINT64:
            return get(uint64_t{});
        default:
            return NAN;
    }
}

inline bool IsFloating(aclDataType type) {
    return type == ACL_FLOAT || type == ACL_DOUBLE || type == ACL_FLOAT16 || type == ACL_BF16;
}

struct Comparison {
    bool equal = true;
    size_t mismatches = 0;
    size_t worst_index = 0;
    double max_abs_error = 0;
    double worst_actual = 0;
    double worst_expected = 0;
};

// numpy.testing.assert_allclose(actual, expected, rtol=1e-3, atol=1e-7) as the ONNX backend
// tests use it (NaN equals NaN); integers and bool must match exactly. Both tensors have the
// expected tensor's element type and count.
inline Comparison Compare(aclDataType type, const uint8_t* actual, const uint8_t* expected,
                          size_t count, double rtol = 1e-3, double atol = 1e-7) {
    Comparison c;
    const bool floating = IsFloating(type);
    for (size_t i = 0; i < count; ++i) {
        const double a = ElementAt(type, actual, i), e = ElementAt(type, expected, i);
        bool ok;
        if (std::isnan(e) || std::isnan(a)) {
            ok = std::isnan(e) && std::isnan(a);
        } else if (std::isinf(e) || std::isinf(a)) {
            ok = a == e;
        } else {
            ok = floating ? std::fabs(a - e) <= atol + rtol * std::fabs(e) : a == e;
        }
        if (ok) continue;
        const double err = std::isfinite(a - e) ? std::fabs(a - e) : INFINITY;
        if (c.mismatches == 0 || err > c.max_abs_error || std::isnan(err)) {
            c.max_abs_error = err;
            c.worst_index = i;
            c.worst_actual = a;
            c.worst_expected = e;
        }
        ++c.mismatches;
        c.equal = false;
    }
    return c;
}

}  // namespace conformance
