// acl_base_rt.h: data buffers, half-precision conversion, data type sizes, CANN attributes and
// application logging.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "temp_dir.h"
#include "test_support.h"

namespace {

float Bits(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

uint32_t BitsOf(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

using AppLogToStdout = LogToStdoutTest;

std::string ReadFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

// ---- data buffers ----

TEST(DataBuffer, CreateRemembersAddressAndSize) {
    char memory[100];
    aclDataBuffer* buffer = aclCreateDataBuffer(memory, sizeof memory);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(aclGetDataBufferAddr(buffer), memory);
    EXPECT_EQ(aclGetDataBufferSizeV2(buffer), sizeof memory);
    EXPECT_EQ(aclGetDataBufferSize(buffer), 100u);
    EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
}

TEST(DataBuffer, NullDataWithSizeZeroIsAnEmptyBuffer) {
    aclDataBuffer* buffer = aclCreateDataBuffer(nullptr, 0);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr);
    EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 0u);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "an empty buffer is not an error";
    EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
}

TEST(DataBuffer, NullDataWithSizeIsRefused) {
    EXPECT_EQ(aclCreateDataBuffer(nullptr, 16), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("data is null but size is 16");
}

TEST(DataBuffer, UpdateReplacesAddressAndSize) {
    char first[16], second[32];
    aclDataBuffer* buffer = aclCreateDataBuffer(first, sizeof first);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(aclUpdateDataBuffer(buffer, second, sizeof second), ACL_SUCCESS);
    EXPECT_EQ(aclGetDataBufferAddr(buffer), second);
    EXPECT_EQ(aclGetDataBufferSizeV2(buffer), sizeof second);
    EXPECT_EQ(aclUpdateDataBuffer(buffer, nullptr, 0), ACL_SUCCESS);
    EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr);
    EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
}

TEST(DataBuffer, UpdateWithNullDataAndASizeIsRefused) {
    char memory[16];
    aclDataBuffer* buffer = aclCreateDataBuffer(memory, sizeof memory);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(aclUpdateDataBuffer(buffer, nullptr, 8), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("data is null but size is 8");
    EXPECT_EQ(aclGetDataBufferAddr(buffer), memory) << "a refused update changes nothing";
    EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
}

TEST(DataBuffer, BufferNeverOwnsItsMemory) {
    std::vector<char> memory(64, 'a');
    aclDataBuffer* buffer = aclCreateDataBuffer(memory.data(), memory.size());
    ASSERT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
    memory[0] = 'b';  // still ours to use (and, under a sanitizer, not freed twice)
    EXPECT_EQ(memory[0], 'b');
}

TEST(DataBuffer, DestroyedBufferIsRefused) {
    char memory[16];
    aclDataBuffer* buffer = aclCreateDataBuffer(memory, sizeof memory);
    ASSERT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
    EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a live data buffer");
    EXPECT_EQ(aclUpdateDataBuffer(buffer, memory, 8), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr);
    EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 0u);
    EXPECT_THAT_MESSAGE_CONTAINS("aclGetDataBufferSizeV2 failed");
}

TEST(DataBuffer, NullBufferIsRefused) {
    EXPECT_EQ(aclDestroyDataBuffer(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("dataBuffer is null");
    EXPECT_EQ(aclUpdateDataBuffer(nullptr, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclGetDataBufferAddr(nullptr), nullptr);
    EXPECT_EQ(aclGetDataBufferSizeV2(nullptr), 0u);
    EXPECT_EQ(aclGetDataBufferSize(nullptr), 0u);
}

// ---- half precision ----

TEST(Float16, EveryFiniteHalfRoundTripsExactly) {
    for (uint32_t h = 0; h <= 0xffff; ++h) {
        if (((h >> 10) & 0x1f) == 0x1f) continue;  // Inf and NaN: see the tests below
        auto half = static_cast<aclFloat16>(h);
        float value = aclFloat16ToFloat(half);
        ASSERT_EQ(aclFloatToFloat16(value), half) << "half 0x" << std::hex << h;
    }
}

TEST(Float16, DecodesKnownValues) {
    EXPECT_EQ(aclFloat16ToFloat(0x0000), 0.0f);
    EXPECT_TRUE(std::signbit(aclFloat16ToFloat(0x8000))) << "negative zero keeps its sign";
    EXPECT_EQ(aclFloat16ToFloat(0x3c00), 1.0f);
    EXPECT_EQ(aclFloat16ToFloat(0xc000), -2.0f);
    EXPECT_EQ(aclFloat16ToFloat(0x3555), 0.333251953125f);
    EXPECT_EQ(aclFloat16ToFloat(0x7bff), 65504.0f);
    EXPECT_EQ(aclFloat16ToFloat(0xfbff), -65504.0f);
    EXPECT_EQ(aclFloat16ToFloat(0x0400), std::ldexp(1.0f, -14)) << "smallest normal";
}

TEST(Float16, EncodesKnownValues) {
    EXPECT_EQ(aclFloatToFloat16(0.0f), 0x0000);
    EXPECT_EQ(aclFloatToFloat16(-0.0f), 0x8000);
    EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3c00);
    EXPECT_EQ(aclFloatToFloat16(-2.0f), 0xc000);
    EXPECT_EQ(aclFloatToFloat16(0.5f), 0x3800);
    EXPECT_EQ(aclFloatToFloat16(65504.0f), 0x7bff);
    EXPECT_EQ(aclFloatToFloat16(1.0f / 3.0f), 0x3555);
}

TEST(Float16, RoundsToNearestEven) {
    // 1 + 2^-11 lies halfway between 1 (0x3c00, even) and 1 + 2^-10 (0x3c01).
    EXPECT_EQ(aclFloatToFloat16(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
    // 1 + 3 * 2^-11 lies halfway between 0x3c01 and 0x3c02 (even).
    EXPECT_EQ(aclFloatToFloat16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
    // Just above halfway rounds up, just below rounds down.
    EXPECT_EQ(aclFloatToFloat16(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)), 0x3c01);
    EXPECT_EQ(aclFloatToFloat16(std::nextafter(1.0f + std::ldexp(1.0f, -11), 0.0f)), 0x3c00);
    // 2049 lies halfway between 2048 (0x6800, even) and 2050 (0x6801).
    EXPECT_EQ(aclFloatToFloat16(2049.0f), 0x6800);
    EXPECT_EQ(aclFloatToFloat16(2051.0f), 0x6802);
    EXPECT_EQ(aclFloatToFloat16(-2049.0f), 0xe800);
    // Rounding up can carry into the exponent: 2 - 2^-12 rounds to 2.0.
    EXPECT_EQ(aclFloatToFloat16(2.0f - std::ldexp(1.0f, -12)), 0x4000);
}

TEST(Float16, OverflowSaturatesToTheLargestFiniteHalf) {
    EXPECT_EQ(aclFloatToFloat16(65519.0f), 0x7bff) << "still rounds down to 65504";
    EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7bff) << "would round to Inf: saturates";
    EXPECT_EQ(aclFloatToFloat16(1.0e6f), 0x7bff);
    EXPECT_EQ(aclFloatToFloat16(std::numeric_limits<float>::max()), 0x7bff);
    EXPECT_EQ(aclFloatToFloat16(-65520.0f), 0xfbff);
    EXPECT_EQ(aclFloatToFloat16(-1.0e6f), 0xfbff);
    EXPECT_EQ(aclFloatToFloat16(std::numeric_limits<float>::lowest()), 0xfbff);
}

TEST(Float16, EncodingInfAndNanSaturatesAsDocumented) {
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(aclFloatToFloat16(inf), 0x7bff);
    EXPECT_EQ(aclFloatToFloat16(-inf), 0xfbff);
    EXPECT_EQ(aclFloatToFloat16(std::numeric_limits<float>::quiet_NaN()), 0x7bff);
    EXPECT_EQ(aclFloatToFloat16(Bits(0x7f800001u)), 0x7bff) << "signalling NaN";
}

TEST(Float16, DecodingInfAndNanReadsTheExponentAsAnOrdinaryOne) {
    EXPECT_EQ(aclFloat16ToFloat(0x7c00), 65536.0f);
    EXPECT_EQ(aclFloat16ToFloat(0xfc00), -65536.0f);
    EXPECT_EQ(aclFloat16ToFloat(0x7e00), 98304.0f);
}

TEST(Float16, Subnormals) {
    const float tiny = std::ldexp(1.0f, -24);  // the smallest subnormal half
    EXPECT_EQ(aclFloat16ToFloat(0x0001), tiny);
    EXPECT_EQ(aclFloat16ToFloat(0x03ff), 1023 * tiny) << "largest subnormal";
    EXPECT_EQ(aclFloat16ToFloat(0x8001), -tiny);
    EXPECT_EQ(aclFloatToFloat16(tiny), 0x0001);
    EXPECT_EQ(aclFloatToFloat16(1023 * tiny), 0x03ff);
    EXPECT_EQ(aclFloatToFloat16(-3 * tiny), 0x8003);
    // Halfway cases round to even: 0.5 ulp -> 0, 1.5 ulp -> 2, 2.5 ulp -> 2.
    EXPECT_EQ(aclFloatToFloat16(0.5f * tiny), 0x0000);
    EXPECT_EQ(aclFloatToFloat16(1.5f * tiny), 0x0002);
    EXPECT_EQ(aclFloatToFloat16(2.5f * tiny), 0x0002);
    EXPECT_EQ(aclFloatToFloat16(0.25f * tiny), 0x0000) << "underflows to zero";
    EXPECT_EQ(BitsOf(aclFloat16ToFloat(aclFloatToFloat16(-0.25f * tiny))), 0x80000000u)
        << "underflow keeps the sign";
    // Just below the smallest normal rounds up into it.
    EXPECT_EQ(aclFloatToFloat16(std::nextafter(std::ldexp(1.0f, -14), 0.0f)), 0x0400);
    EXPECT_EQ(aclFloatToFloat16(Bits(0x00000001u)), 0x0000) << "float subnormals vanish";
}

// ---- data type sizes ----

TEST(DataTypeSize, EveryTypeHasItsElementSize) {
    struct Row {
        aclDataType type;
        size_t size;
    };
    const Row rows[] = {
        {ACL_FLOAT, 4},
        {ACL_FLOAT16, 2},
        {ACL_INT8, 1},
        {ACL_INT32, 4},
        {ACL_UINT8, 1},
        {ACL_INT16, 2},
        {ACL_UINT16, 2},
        {ACL_UINT32, 4},
        {ACL_INT64, 8},
        {ACL_UINT64, 8},
        {ACL_DOUBLE, 8},
        {ACL_BOOL, 1},
        {ACL_COMPLEX64, 8},
        {ACL_COMPLEX128, 16},
        {ACL_BF16, 2},
        {ACL_COMPLEX32, 4},
        {ACL_HIFLOAT8, 1},
        {ACL_FLOAT8_E5M2, 1},
        {ACL_FLOAT8_E4M3FN, 1},
        {ACL_FLOAT8_E8M0, 1},
        // Sub-byte types: openacl answers one byte per element (the official rounding is
        // not documented).
        {ACL_INT4, 1},
        {ACL_UINT1, 1},
        {ACL_FLOAT6_E3M2, 1},
        {ACL_FLOAT6_E2M3, 1},
        {ACL_FLOAT4_E2M1, 1},
        {ACL_FLOAT4_E1M2, 1},
        // No fixed size.
        {ACL_STRING, 0},
        {ACL_DT_UNDEFINED, 0},
    };
    for (const Row& row : rows) {
        SCOPED_TRACE(static_cast<int>(row.type));
        EXPECT_EQ(aclDataTypeSize(row.type), row.size);
    }
}

TEST(DataTypeSize, UnusedValuesHaveNoSize) {
    for (int gap : {5, 14, 15, 18, 26, 28, 31, 32, 42, 1000}) {
        SCOPED_TRACE(gap);
        EXPECT_EQ(aclDataTypeSize(static_cast<aclDataType>(gap)), 0u);
    }
}

// ---- CANN attributes ----

TEST(CannAttribute, ListedAttributesAreAvailable) {
    const aclCannAttr* list = nullptr;
    size_t num = 0;
    ASSERT_EQ(aclGetCannAttributeList(&list, &num), ACL_SUCCESS);
    ASSERT_NE(list, nullptr);
    EXPECT_EQ(num, 2u);
    for (size_t i = 0; i < num; ++i) {
        SCOPED_TRACE(static_cast<int>(list[i]));
        int32_t value = -1;
        EXPECT_EQ(aclGetCannAttribute(list[i], &value), ACL_SUCCESS);
        EXPECT_EQ(value, 1);
    }
}

TEST(CannAttribute, InfNanAndBf16AreAvailableJitCompileIsNot) {
    int32_t value = -1;
    EXPECT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_INF_NAN, &value), ACL_SUCCESS);
    EXPECT_EQ(value, 1);
    EXPECT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &value), ACL_SUCCESS);
    EXPECT_EQ(value, 1);
    EXPECT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &value), ACL_SUCCESS);
    EXPECT_EQ(value, 0);
}

TEST(CannAttribute, UnknownAttributeAndNullOutputsAreInvalidParam) {
    int32_t value = -1;
    EXPECT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &value), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("cannAttr -1 is not an aclCannAttr");
    EXPECT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_BF16, nullptr), ACL_ERROR_INVALID_PARAM);
    size_t num = 0;
    const aclCannAttr* list = nullptr;
    EXPECT_EQ(aclGetCannAttributeList(nullptr, &num), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclGetCannAttributeList(&list, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclGetCannAttributeList failed");
}

// ---- application log ----

TEST_F(AppLogToStdout, WritesOneLineInCannFormat) {
    std::string out = Capture([] {
        aclAppLog(ACL_INFO, "PrepareInputs", "/src/app/main.cpp", 42, "loaded %d images of %s", 3,
                  "cats");
    });
    // [INFO] APP(pid,process):2024-01-31-12:34:56.789.012 [main.cpp:42]tid func: message
    std::regex line(
        R"(\[INFO\] APP\((\d+),openacl_api_tests\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} )"
        R"(\[main\.cpp:42\]\d+ PrepareInputs: loaded 3 images of cats\n)");
    std::smatch match;
    ASSERT_TRUE(std::regex_match(out, match, line)) << out;
    EXPECT_EQ(match[1].str(), std::to_string(getpid()));
}

TEST_F(AppLogToStdout, LevelNamesFollowTheLogLevel) {
    const std::pair<aclLogLevel, const char*> levels[] = {
        {ACL_DEBUG, "[DEBUG] APP("},
        {ACL_INFO, "[INFO] APP("},
        {ACL_WARNING, "[WARNING] APP("},
        {ACL_ERROR, "[ERROR] APP("},
    };
    for (const auto& [level, prefix] : levels) {
        SCOPED_TRACE(prefix);
        std::string out = Capture([level = level] { aclAppLog(level, "f", "a.cpp", 1, "x"); });
        EXPECT_EQ(out.rfind(prefix, 0), 0u) << out;
    }
}

TEST_F(AppLogToStdout, MessagesLongerThan1024BytesAreTruncated) {
    std::string long_text(2000, 'x');
    std::string out =
        Capture([&] { aclAppLog(ACL_INFO, "F", "a.cpp", 1, "%s", long_text.c_str()); });
    const std::string suffix = "...[truncated]\n";
    ASSERT_GE(out.size(), suffix.size());
    EXPECT_EQ(out.substr(out.size() - suffix.size()), suffix) << out;
    // 1024 bytes including the terminator: 1009 bytes of text, then the 14-byte suffix.
    std::string message = out.substr(out.find("F: ") + 3);
    EXPECT_EQ(message.size(), 1023u + 1);
    EXPECT_EQ(message.find_first_not_of('x'), 1009u);
}

TEST_F(AppLogToStdout, MessageOf1023BytesIsNotTruncated) {
    std::string text(1023, 'y');
    std::string out = Capture([&] { aclAppLog(ACL_INFO, "F", "a.cpp", 1, "%s", text.c_str()); });
    EXPECT_EQ(out.find("[truncated]"), std::string::npos);
    EXPECT_NE(out.find("F: " + text + "\n"), std::string::npos);
}

TEST_F(AppLogToStdout, NullFormatWritesNothing) {
    std::string out = Capture([] { aclAppLog(ACL_ERROR, "F", "a.cpp", 1, nullptr); });
    EXPECT_EQ(out, "");
}

TEST(AppLog, LevelsBelowTheGlobalLogLevelAreDropped) {
    ScopedEnv print("ASCEND_SLOG_PRINT_TO_STDOUT", "1");
    ScopedEnv level("ASCEND_GLOBAL_LOG_LEVEL", "2");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    testing::internal::CaptureStdout();
    aclAppLog(ACL_INFO, "F", "a.cpp", 1, "info");
    aclAppLog(ACL_WARNING, "F", "a.cpp", 1, "warning");
    std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(out.find("F: info"), std::string::npos);
    EXPECT_NE(out.find("[WARNING] APP("), std::string::npos) << out;
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(AppLog, WritesToAPlogFileUnderAscendProcessLogPath) {
    TempDir dir;
    ASSERT_FALSE(dir.path().empty());
    ScopedEnv path("ASCEND_PROCESS_LOG_PATH", dir.path().c_str());
    ScopedEnv print("ASCEND_SLOG_PRINT_TO_STDOUT", "0");
    ScopedEnv level("ASCEND_GLOBAL_LOG_LEVEL", "1");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    testing::internal::CaptureStdout();
    aclAppLog(ACL_WARNING, "SaveResult", "/x/post.cpp", 7, "wrote %s", "out.bin");
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
    std::vector<std::string> files = dir.Files();
    ASSERT_EQ(files.size(), 1u);
    std::string prefix = dir.path() + "/debug/plog/plog-" + std::to_string(getpid()) + "_";
    EXPECT_EQ(files[0].rfind(prefix, 0), 0u) << files[0];
    EXPECT_EQ(files[0].substr(files[0].size() - 4), ".log");
    std::string text = ReadFile(files[0]);
    EXPECT_NE(text.find("[WARNING] APP("), std::string::npos) << text;
    EXPECT_NE(text.find("[post.cpp:7]"), std::string::npos) << text;
    EXPECT_NE(text.find("SaveResult: wrote out.bin\n"), std::string::npos) << text;
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}
