// acl_base_rt.h: data buffers, half-precision conversion, type sizes, SoC name, CANN
// attributes and application logging.
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "core/data_buffer.h"
#include "core/error.h"
#include "core/log.h"
#include "core/runtime.h"

using openacl::Fail;

using openacl::IsLiveDataBuffer;

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
    OPENACL_API();
    if (data == nullptr && size != 0) {
        Fail(ACL_ERROR_INVALID_PARAM, "data is null but size is %zu: a null buffer must be empty",
             size);
        return nullptr;
    }
    auto* buffer = new (std::nothrow) aclDataBuffer{data, size};
    if (buffer == nullptr) {
        Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
        return nullptr;
    }
    openacl::RegisterDataBuffer(buffer);
    return buffer;
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
    OPENACL_API();
    if (dataBuffer == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataBuffer is null");
    if (!openacl::UnregisterDataBuffer(dataBuffer)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataBuffer %p is not a live data buffer (destroyed already?)",
                    static_cast<const void*>(dataBuffer));
    }
    delete dataBuffer;
    return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
    OPENACL_API();
    if (dataBuffer == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataBuffer is null");
    if (data == nullptr && size != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "data is null but size is %zu", size);
    }
    if (!IsLiveDataBuffer(dataBuffer)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dataBuffer %p is not a live data buffer",
                    static_cast<void*>(dataBuffer));
    }
    dataBuffer->data = data;
    dataBuffer->size = size;
    return ACL_SUCCESS;
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
    OPENACL_API();
    if (dataBuffer == nullptr || !IsLiveDataBuffer(dataBuffer)) {
        Fail(ACL_ERROR_INVALID_PARAM, "dataBuffer %p is not a live data buffer",
             static_cast<const void*>(dataBuffer));
        return nullptr;
    }
    return dataBuffer->data;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
    OPENACL_API();
    if (dataBuffer == nullptr || !IsLiveDataBuffer(dataBuffer)) {
        Fail(ACL_ERROR_INVALID_PARAM, "dataBuffer %p is not a live data buffer",
             static_cast<const void*>(dataBuffer));
        return 0;
    }
    return dataBuffer->size;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
    OPENACL_API();  // messages name this function, not the V2 it forwards to
    return static_cast<uint32_t>(aclGetDataBufferSizeV2(dataBuffer));
}

// Half precision as the documentation describes it: decoding treats the all-ones exponent as
// an ordinary one (so +Inf reads 65536 and NaN 98304), and encoding saturates to +-65504.
float aclFloat16ToFloat(aclFloat16 value) {
    int sign = (value >> 15) & 1;
    int exponent = (value >> 10) & 0x1f;
    int mantissa = value & 0x3ff;
    float magnitude = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -24)
                                    : std::ldexp(1.0f + mantissa / 1024.0f, exponent - 15);
    return sign ? -magnitude : magnitude;
}

aclFloat16 aclFloatToFloat16(float value) {
    constexpr aclFloat16 kMaxPositive = 0x7bff, kMaxNegative = 0xfbff;
    if (std::isnan(value)) return kMaxPositive;
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
    float magnitude = std::fabs(value);
    if (magnitude >= 65520.0f) return sign ? kMaxNegative : kMaxPositive;  // rounds past 65504
    if (magnitude < std::ldexp(1.0f, -14)) {
        // Subnormal half: a multiple of 2^-24, rounded to nearest even.
        float scaled = magnitude * 16777216.0f;
        auto units = static_cast<uint16_t>(std::nearbyint(scaled));
        return static_cast<aclFloat16>(sign | units);
    }
    int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
    uint32_t mantissa = bits & 0x7fffff;
    uint32_t half = (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
    uint32_t rest = mantissa & 0x1fff;  // the 13 bits dropped: round to nearest even
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;
    if (half >= 0x7c00) half = kMaxPositive;
    return static_cast<aclFloat16>(sign | half);
}

size_t aclDataTypeSize(aclDataType dataType) {
    switch (dataType) {
        case ACL_BOOL:
        case ACL_INT8:
        case ACL_UINT8:
        case ACL_HIFLOAT8:
        case ACL_FLOAT8_E5M2:
        case ACL_FLOAT8_E4M3FN:
        case ACL_FLOAT8_E8M0:
        case ACL_FLOAT6_E3M2:
        case ACL_FLOAT6_E2M3:
        case ACL_FLOAT4_E2M1:
        case ACL_FLOAT4_E1M2:
        case ACL_INT4:
        case ACL_UINT1:
            return 1;  // sub-byte types occupy at least one byte per element
        case ACL_FLOAT16:
        case ACL_BF16:
        case ACL_INT16:
        case ACL_UINT16:
            return 2;
        case ACL_FLOAT:
        case ACL_INT32:
        case ACL_UINT32:
        case ACL_COMPLEX32:
            return 4;
        case ACL_INT64:
        case ACL_UINT64:
        case ACL_DOUBLE:
        case ACL_COMPLEX64:
            return 8;
        case ACL_COMPLEX128:
            return 16;
        default:
            return 0;  // ACL_STRING and unknown types have no fixed size
    }
}

const char* aclrtGetSocName(void) {
    // Copied once per configuration so the returned pointer stays valid.
    static std::mutex mutex;
    static std::string name;
    std::lock_guard lock(mutex);
    name = openacl::Runtime::Get().config().soc_name;
    return name.c_str();
}

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) {
    OPENACL_API();
    if (cannAttrList == nullptr || num == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "cannAttrList and num must not be null");
    }
    static const aclCannAttr kAvailable[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16};
    *cannAttrList = kAvailable;
    *num = sizeof kAvailable / sizeof kAvailable[0];
    return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    switch (cannAttr) {
        case ACL_CANN_ATTR_INF_NAN:
        case ACL_CANN_ATTR_BF16:
            *value = 1;
            return ACL_SUCCESS;
        case ACL_CANN_ATTR_JIT_COMPILE:
            *value = 0;
            return ACL_SUCCESS;
        default:
            return Fail(ACL_ERROR_INVALID_PARAM, "cannAttr %d is not an aclCannAttr",
                        static_cast<int>(cannAttr));
    }
}

void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line,
               const char* fmt, ...) {
    if (fmt == nullptr || static_cast<unsigned>(logLevel) > ACL_ERROR) return;
    auto level = static_cast<openacl::LogLevel>(logLevel);
    if (!openacl::LogEnabled(level)) return;
    // The formatted message is limited to 1024 bytes including the terminator.
    constexpr size_t kLimit = 1024;
    static const char kSuffix[] = "...[truncated]";
    char message[kLimit];
    va_list args;
    va_start(args, fmt);
    int n = std::vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    if (n >= static_cast<int>(kLimit)) {
        std::memcpy(message + kLimit - sizeof kSuffix, kSuffix, sizeof kSuffix);
    }
    openacl::Log(level, "APP", file ? file : "?", static_cast<int>(line), "%s: %s",
                 func ? func : "?", message);
}
