// libc_sec.so (securec.h): what each bounds-checked function returns and leaves in the destination,
// case by case, as libboundscheck documents it (docs/SECUREC.md has the same cases as a table).
#include "securec.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <string>

namespace {

constexpr size_t kTooLarge = SECUREC_MEM_MAX_LEN + 1;
constexpr size_t kStringTooLarge = SECUREC_STRING_MAX_LEN + 1;

// A buffer of 16 bytes, all 'x', to see which bytes a call wrote.
struct Canvas {
    char bytes[16];
    Canvas() { std::memset(bytes, 'x', sizeof(bytes)); }
    bool Untouched(size_t from = 0) const {
        for (size_t i = from; i < sizeof(bytes); ++i) {
            if (bytes[i] != 'x') return false;
        }
        return true;
    }
    bool AllZero(size_t from = 0) const {
        for (size_t i = from; i < sizeof(bytes); ++i) {
            if (bytes[i] != '\0') return false;
        }
        return true;
    }
};

// The v* functions, through a va_list as callers' own variadic wrappers use them.
int CallVsprintf(char* dest, size_t destMax, const char* format, ...) {
    va_list args;
    va_start(args, format);
    int ret = vsprintf_s(dest, destMax, format, args);
    va_end(args);
    return ret;
}

int CallVsnprintf(char* dest, size_t destMax, size_t count, const char* format, ...) {
    va_list args;
    va_start(args, format);
    int ret = vsnprintf_s(dest, destMax, count, format, args);
    va_end(args);
    return ret;
}

int CallVsscanf(const char* buffer, const char* format, ...) {
    va_list args;
    va_start(args, format);
    int ret = vsscanf_s(buffer, format, args);
    va_end(args);
    return ret;
}

// A null format held in a variable, so the compiler's format checking does not reject the call.
const char* const kNoFormat = nullptr;

}  // namespace

// ---- The header ------------------------------------------------------------------------------

TEST(SecurecHeader, ResultCodesHaveLibboundscheckValues) {
    EXPECT_EQ(EOK, 0);
    EXPECT_EQ(EINVAL, 22);
    EXPECT_EQ(EINVAL_AND_RESET, 150);
    EXPECT_EQ(ERANGE, 34);
    EXPECT_EQ(ERANGE_AND_RESET, 162);
    EXPECT_EQ(EOVERLAP_AND_RESET, 182);
}

TEST(SecurecHeader, MaxLengthsAreTwoGibMinusOne) {
    EXPECT_EQ(SECUREC_MEM_MAX_LEN, 0x7fffffffUL);
    EXPECT_EQ(SECUREC_STRING_MAX_LEN, 0x7fffffffUL);
}

TEST(SecurecHeader, ErrnoTIsInt) {
    errno_t ret = EOK;
    static_assert(sizeof(ret) == sizeof(int), "errno_t is int");
    EXPECT_EQ(ret, 0);
}

// ---- memcpy_s --------------------------------------------------------------------------------

TEST(MemcpyS, CopiesCountBytesAndReturnsEok) {
    Canvas dest;
    EXPECT_EQ(memcpy_s(dest.bytes, sizeof(dest.bytes), "abcd", 4), EOK);
    EXPECT_EQ(std::memcmp(dest.bytes, "abcd", 4), 0);
    EXPECT_TRUE(dest.Untouched(4));
}

TEST(MemcpyS, ZeroCountWritesNothingAndReturnsEok) {
    Canvas dest;
    EXPECT_EQ(memcpy_s(dest.bytes, sizeof(dest.bytes), "abcd", 0), EOK);
    EXPECT_TRUE(dest.Untouched());
}

TEST(MemcpyS, CountEqualToDestMaxFills) {
    Canvas dest;
    const char src[16] = "0123456789abcde";
    EXPECT_EQ(memcpy_s(dest.bytes, sizeof(dest.bytes), src, sizeof(src)), EOK);
    EXPECT_EQ(std::memcmp(dest.bytes, src, sizeof(src)), 0);
}

TEST(MemcpyS, SameSourceAndDestIsNoOverlapAndReturnsEok) {
    Canvas dest;
    EXPECT_EQ(memcpy_s(dest.bytes, sizeof(dest.bytes), dest.bytes, 8), EOK);
    EXPECT_TRUE(dest.Untouched());
}

TEST(MemcpyS, ZeroDestMaxReturnsErangeAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(memcpy_s(dest.bytes, 0, "abcd", 4), ERANGE);
    EXPECT_TRUE(dest.Untouched());
}

TEST(MemcpyS, DestMaxAboveMemMaxLenReturnsErangeAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(memcpy_s(dest.bytes, kTooLarge, "abcd", 4), ERANGE);
    EXPECT_TRUE(dest.Untouched());
}

TEST(MemcpyS, NullDestReturnsEinval) {
    EXPECT_EQ(memcpy_s(nullptr, 16, "abcd", 4), EINVAL);
}

TEST(MemcpyS, NullSrcClearsDestAndReturnsEinvalAndReset) {
    Canvas dest;
    EXPECT_EQ(memcpy_s(dest.bytes, sizeof(dest.bytes), nullptr, 4), EINVAL_AND_RESET);
    EXPECT_TRUE(dest.AllZero());
}

TEST(MemcpyS, CountAboveDestMaxClearsDestAndReturnsErangeAndReset) {
    Canvas dest;
    const char src[32] = "a source longer than the dest";
    EXPECT_EQ(memcpy_s(dest.bytes, 8, src, 9), ERANGE_AND_RESET);
    for (size_t i = 0; i < 8; ++i)
        EXPECT_EQ(dest.bytes[i], '\0') << i;
    EXPECT_TRUE(dest.Untouched(8));  // Only destMax bytes are cleared.
}

TEST(MemcpyS, SourceOverlappingDestEndClearsDestAndReturnsEoverlapAndReset) {
    Canvas buffer;
    EXPECT_EQ(memcpy_s(buffer.bytes + 4, 12, buffer.bytes, 8), EOVERLAP_AND_RESET);
    EXPECT_EQ(std::string(buffer.bytes, 4), "xxxx");  // Before dest: not part of it.
    EXPECT_TRUE(buffer.AllZero(4));
}

TEST(MemcpyS, SourceOverlappingDestStartClearsDestAndReturnsEoverlapAndReset) {
    Canvas buffer;
    EXPECT_EQ(memcpy_s(buffer.bytes, 8, buffer.bytes + 4, 8), EOVERLAP_AND_RESET);
    for (size_t i = 0; i < 8; ++i)
        EXPECT_EQ(buffer.bytes[i], '\0') << i;
    EXPECT_TRUE(buffer.Untouched(8));
}

TEST(MemcpyS, AdjacentBuffersDoNotOverlap) {
    char buffer[8] = {'a', 'b', 'c', 'd', 0, 0, 0, 0};
    EXPECT_EQ(memcpy_s(buffer + 4, 4, buffer, 4), EOK);
    EXPECT_EQ(std::memcmp(buffer, "abcdabcd", 8), 0);
}

// ---- memmove_s -------------------------------------------------------------------------------

TEST(MemmoveS, CopiesOverlappingRangeForwardAndReturnsEok) {
    char buffer[9] = "abcdefgh";
    EXPECT_EQ(memmove_s(buffer + 2, 6, buffer, 6), EOK);
    EXPECT_STREQ(buffer, "ababcdef");
}

TEST(MemmoveS, CopiesOverlappingRangeBackwardAndReturnsEok) {
    char buffer[9] = "abcdefgh";
    EXPECT_EQ(memmove_s(buffer, 8, buffer + 2, 6), EOK);
    EXPECT_STREQ(buffer, "cdefghgh");
}

TEST(MemmoveS, ZeroCountWritesNothingAndReturnsEok) {
    Canvas dest;
    EXPECT_EQ(memmove_s(dest.bytes, sizeof(dest.bytes), "abcd", 0), EOK);
    EXPECT_TRUE(dest.Untouched());
}

TEST(MemmoveS, ZeroDestMaxReturnsErangeAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(memmove_s(dest.bytes, 0, "abcd", 4), ERANGE);
    EXPECT_TRUE(dest.Untouched());
}

TEST(MemmoveS, DestMaxAboveMemMaxLenReturnsErangeAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(memmove_s(dest.bytes, kTooLarge, "abcd", 4), ERANGE);
    EXPECT_TRUE(dest.Untouched());
}

TEST(MemmoveS, NullDestReturnsEinval) {
    EXPECT_EQ(memmove_s(nullptr, 16, "abcd", 4), EINVAL);
}

TEST(MemmoveS, NullSrcClearsDestAndReturnsEinvalAndReset) {
    Canvas dest;
    EXPECT_EQ(memmove_s(dest.bytes, sizeof(dest.bytes), nullptr, 4), EINVAL_AND_RESET);
    EXPECT_TRUE(dest.AllZero());
}

TEST(MemmoveS, CountAboveDestMaxClearsDestAndReturnsErangeAndReset) {
    Canvas dest;
    const char src[32] = "a source longer than the dest";
    EXPECT_EQ(memmove_s(dest.bytes, sizeof(dest.bytes), src, 17), ERANGE_AND_RESET);
    EXPECT_TRUE(dest.AllZero());
}

// ---- memset_s --------------------------------------------------------------------------------

TEST(MemsetS, SetsCountBytesAndReturnsEok) {
    Canvas dest;
    EXPECT_EQ(memset_s(dest.bytes, sizeof(dest.bytes), 'a', 4), EOK);
    EXPECT_EQ(std::string(dest.bytes, 4), "aaaa");
    EXPECT_TRUE(dest.Untouched(4));
}

TEST(MemsetS, CountAboveDestMaxFillsDestMaxBytesWithValueAndReturnsErangeAndReset) {
    Canvas dest;
    EXPECT_EQ(memset_s(dest.bytes, 8, 'a', 9), ERANGE_AND_RESET);
    EXPECT_EQ(std::string(dest.bytes, 8), "aaaaaaaa");
    EXPECT_TRUE(dest.Untouched(8));
}

TEST(MemsetS, ZeroDestMaxWithNonzeroCountReturnsErangeAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(memset_s(dest.bytes, 0, 'a', 1), ERANGE);
    EXPECT_TRUE(dest.Untouched());
}

TEST(MemsetS, ZeroDestMaxWithZeroCountReturnsEok) {
    Canvas dest;
    EXPECT_EQ(memset_s(dest.bytes, 0, 'a', 0), EOK);
    EXPECT_TRUE(dest.Untouched());
}

TEST(MemsetS, DestMaxAboveMemMaxLenReturnsErangeAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(memset_s(dest.bytes, kTooLarge, 'a', 4), ERANGE);
    EXPECT_TRUE(dest.Untouched());
}

TEST(MemsetS, NullDestReturnsEinval) {
    EXPECT_EQ(memset_s(nullptr, 16, 0, 4), EINVAL);
}

TEST(MemsetS, NullDestWithZeroDestMaxReturnsErange) {
    EXPECT_EQ(memset_s(nullptr, 0, 0, 4), ERANGE);  // The size is checked first.
}

// ---- strcpy_s --------------------------------------------------------------------------------

TEST(StrcpyS, CopiesStringWithTerminatorAndReturnsEok) {
    Canvas dest;
    EXPECT_EQ(strcpy_s(dest.bytes, sizeof(dest.bytes), "abc"), EOK);
    EXPECT_STREQ(dest.bytes, "abc");
    EXPECT_TRUE(dest.Untouched(4));
}

TEST(StrcpyS, StringFillingDestExactlyFits) {
    Canvas dest;
    EXPECT_EQ(strcpy_s(dest.bytes, 4, "abc"), EOK);
    EXPECT_STREQ(dest.bytes, "abc");
}

TEST(StrcpyS, StringLongerThanDestSetsEmptyStringAndReturnsErangeAndReset) {
    Canvas dest;
    EXPECT_EQ(strcpy_s(dest.bytes, 4, "abcd"), ERANGE_AND_RESET);
    EXPECT_EQ(dest.bytes[0], '\0');
    EXPECT_TRUE(dest.Untouched(1));  // The reset writes dest[0] only.
}

TEST(StrcpyS, ZeroDestMaxReturnsErangeAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(strcpy_s(dest.bytes, 0, "abc"), ERANGE);
    EXPECT_TRUE(dest.Untouched());
}

TEST(StrcpyS, DestMaxAboveStringMaxLenReturnsErangeAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(strcpy_s(dest.bytes, kStringTooLarge, "abc"), ERANGE);
    EXPECT_TRUE(dest.Untouched());
}

TEST(StrcpyS, NullDestReturnsEinval) {
    EXPECT_EQ(strcpy_s(nullptr, 16, "abc"), EINVAL);
}

TEST(StrcpyS, NullSrcSetsEmptyStringAndReturnsEinvalAndReset) {
    Canvas dest;
    EXPECT_EQ(strcpy_s(dest.bytes, sizeof(dest.bytes), nullptr), EINVAL_AND_RESET);
    EXPECT_EQ(dest.bytes[0], '\0');
    EXPECT_TRUE(dest.Untouched(1));
}

TEST(StrcpyS, OverlappingStringsSetEmptyStringAndReturnEoverlapAndReset) {
    char buffer[16] = "abcdef";
    EXPECT_EQ(strcpy_s(buffer + 2, 14, buffer), EOVERLAP_AND_RESET);
    EXPECT_EQ(buffer[2], '\0');
}

TEST(StrcpyS, SourceEndingRightBeforeDestDoesNotOverlap) {
    char buffer[16] = "abc";
    EXPECT_EQ(strcpy_s(buffer + 4, 12, buffer), EOK);
    EXPECT_STREQ(buffer + 4, "abc");
}

TEST(StrcpyS, SameSourceAndDestReturnsEok) {
    char buffer[16] = "abc";
    EXPECT_EQ(strcpy_s(buffer, sizeof(buffer), buffer), EOK);
    EXPECT_STREQ(buffer, "abc");
}

// ---- strncpy_s -------------------------------------------------------------------------------

TEST(StrncpyS, CopiesAtMostCountCharactersAndTerminates) {
    Canvas dest;
    EXPECT_EQ(strncpy_s(dest.bytes, sizeof(dest.bytes), "abcdef", 3), EOK);
    EXPECT_STREQ(dest.bytes, "abc");
    EXPECT_TRUE(dest.Untouched(4));
}

TEST(StrncpyS, CopiesShorterSourceWhole) {
    Canvas dest;
    EXPECT_EQ(strncpy_s(dest.bytes, sizeof(dest.bytes), "ab", 10), EOK);
    EXPECT_STREQ(dest.bytes, "ab");
    EXPECT_TRUE(dest.Untouched(3));
}

TEST(StrncpyS, ZeroCountSetsEmptyStringAndReturnsEok) {
    Canvas dest;
    EXPECT_EQ(strncpy_s(dest.bytes, sizeof(dest.bytes), "abc", 0), EOK);
    EXPECT_EQ(dest.bytes[0], '\0');
}

TEST(StrncpyS, CountAtLeastDestMaxWithFittingSourceCopiesIt) {
    Canvas dest;
    EXPECT_EQ(strncpy_s(dest.bytes, 4, "abc", 100), EOK);
    EXPECT_STREQ(dest.bytes, "abc");
}

TEST(StrncpyS, CountAtLeastDestMaxWithLongerSourceSetsEmptyStringAndReturnsErangeAndReset) {
    Canvas dest;
    EXPECT_EQ(strncpy_s(dest.bytes, 4, "abcd", 4), ERANGE_AND_RESET);
    EXPECT_EQ(dest.bytes[0], '\0');
    EXPECT_TRUE(dest.Untouched(1));
}

TEST(StrncpyS, CountAboveStringMaxLenSetsEmptyStringAndReturnsErangeAndReset) {
    Canvas dest;
    EXPECT_EQ(strncpy_s(dest.bytes, sizeof(dest.bytes), "abc", kStringTooLarge), ERANGE_AND_RESET);
    EXPECT_EQ(dest.bytes[0], '\0');
}

TEST(StrncpyS, UnterminatedSourceIsReadForCountBytesOnly) {
    const char source[4] = {'a', 'b', 'c', 'd'};  // No terminator.
    Canvas dest;
    EXPECT_EQ(strncpy_s(dest.bytes, sizeof(dest.bytes), source, sizeof(source)), EOK);
    EXPECT_STREQ(dest.bytes, "abcd");
}

TEST(StrncpyS, ZeroDestMaxReturnsErangeAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(strncpy_s(dest.bytes, 0, "abc", 3), ERANGE);
    EXPECT_TRUE(dest.Untouched());
}

TEST(StrncpyS, DestMaxAboveStringMaxLenReturnsErangeAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(strncpy_s(dest.bytes, kStringTooLarge, "abc", 3), ERANGE);
    EXPECT_TRUE(dest.Untouched());
}

TEST(StrncpyS, NullDestReturnsEinval) {
    EXPECT_EQ(strncpy_s(nullptr, 16, "abc", 3), EINVAL);
}

TEST(StrncpyS, NullSrcSetsEmptyStringAndReturnsEinvalAndReset) {
    Canvas dest;
    EXPECT_EQ(strncpy_s(dest.bytes, sizeof(dest.bytes), nullptr, 3), EINVAL_AND_RESET);
    EXPECT_EQ(dest.bytes[0], '\0');
}

TEST(StrncpyS, OverlappingStringsSetEmptyStringAndReturnEoverlapAndReset) {
    char buffer[16] = "abcdef";
    EXPECT_EQ(strncpy_s(buffer + 1, 15, buffer, 4), EOVERLAP_AND_RESET);
    EXPECT_EQ(buffer[1], '\0');
}

TEST(StrncpyS, SameSourceAndDestTruncatesInPlace) {
    char buffer[16] = "abcdef";
    EXPECT_EQ(strncpy_s(buffer, sizeof(buffer), buffer, 3), EOK);
    EXPECT_STREQ(buffer, "abc");
}

// ---- strcat_s --------------------------------------------------------------------------------

TEST(StrcatS, AppendsSourceAndReturnsEok) {
    char dest[16] = "ab";
    EXPECT_EQ(strcat_s(dest, sizeof(dest), "cd"), EOK);
    EXPECT_STREQ(dest, "abcd");
}

TEST(StrcatS, ResultFillingDestExactlyFits) {
    char dest[5] = "ab";
    EXPECT_EQ(strcat_s(dest, sizeof(dest), "cd"), EOK);
    EXPECT_STREQ(dest, "abcd");
}

TEST(StrcatS, ResultTooLongSetsEmptyStringAndReturnsErangeAndReset) {
    char dest[5] = "abc";
    EXPECT_EQ(strcat_s(dest, sizeof(dest), "de"), ERANGE_AND_RESET);
    EXPECT_EQ(dest[0], '\0');
    EXPECT_EQ(std::string(dest + 1, 2), "bc");  // The reset writes dest[0] only.
}

TEST(StrcatS, UnterminatedDestSetsEmptyStringAndReturnsEinvalAndReset) {
    char buffer[8] = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
    EXPECT_EQ(strcat_s(buffer, 4, "x"), EINVAL_AND_RESET);
    EXPECT_EQ(buffer[0], '\0');
}

TEST(StrcatS, ZeroDestMaxReturnsErangeAndWritesNothing) {
    char dest[4] = "ab";
    EXPECT_EQ(strcat_s(dest, 0, "c"), ERANGE);
    EXPECT_STREQ(dest, "ab");
}

TEST(StrcatS, DestMaxAboveStringMaxLenReturnsErangeAndWritesNothing) {
    char dest[4] = "ab";
    EXPECT_EQ(strcat_s(dest, kStringTooLarge, "c"), ERANGE);
    EXPECT_STREQ(dest, "ab");
}

TEST(StrcatS, NullDestReturnsEinval) {
    EXPECT_EQ(strcat_s(nullptr, 16, "c"), EINVAL);
}

TEST(StrcatS, NullSrcSetsEmptyStringAndReturnsEinvalAndReset) {
    char dest[4] = "ab";
    EXPECT_EQ(strcat_s(dest, sizeof(dest), nullptr), EINVAL_AND_RESET);
    EXPECT_EQ(dest[0], '\0');
}

TEST(StrcatS, SourceInsideDestSetsEmptyStringAndReturnsEoverlapAndReset) {
    char buffer[16] = "abc";
    EXPECT_EQ(strcat_s(buffer, sizeof(buffer), buffer + 1), EOVERLAP_AND_RESET);
    EXPECT_EQ(buffer[0], '\0');
}

TEST(StrcatS, SourceWhereTheResultWouldGoSetsEmptyStringAndReturnsEoverlapAndReset) {
    char buffer[16] = "ab\0cd";
    EXPECT_EQ(strcat_s(buffer, sizeof(buffer), buffer + 3), EOVERLAP_AND_RESET);
    EXPECT_EQ(buffer[0], '\0');
}

TEST(StrcatS, AppendingDestToItselfSetsEmptyStringAndReturnsErangeAndReset) {
    char buffer[16] = "ab";
    EXPECT_EQ(strcat_s(buffer, sizeof(buffer), buffer), ERANGE_AND_RESET);
    EXPECT_EQ(buffer[0], '\0');
}

// ---- strncat_s -------------------------------------------------------------------------------

TEST(StrncatS, AppendsAtMostCountCharactersAndReturnsEok) {
    char dest[16] = "ab";
    EXPECT_EQ(strncat_s(dest, sizeof(dest), "cdef", 2), EOK);
    EXPECT_STREQ(dest, "abcd");
}

TEST(StrncatS, AppendsShorterSourceWhole) {
    char dest[16] = "ab";
    EXPECT_EQ(strncat_s(dest, sizeof(dest), "cd", 10), EOK);
    EXPECT_STREQ(dest, "abcd");
}

TEST(StrncatS, ZeroCountLeavesDestAndReturnsEok) {
    char dest[16] = "ab";
    EXPECT_EQ(strncat_s(dest, sizeof(dest), "cd", 0), EOK);
    EXPECT_STREQ(dest, "ab");
}

TEST(StrncatS, ResultTooLongSetsEmptyStringAndReturnsErangeAndReset) {
    char dest[5] = "abc";
    EXPECT_EQ(strncat_s(dest, sizeof(dest), "def", 2), ERANGE_AND_RESET);
    EXPECT_EQ(dest[0], '\0');
}

TEST(StrncatS, CountLimitsWhatMustFit) {
    char dest[5] = "abc";
    EXPECT_EQ(strncat_s(dest, sizeof(dest), "def", 1), EOK);
    EXPECT_STREQ(dest, "abcd");
}

TEST(StrncatS, CountAboveStringMaxLenSetsEmptyStringAndReturnsErangeAndReset) {
    char dest[16] = "ab";
    EXPECT_EQ(strncat_s(dest, sizeof(dest), "cd", kStringTooLarge), ERANGE_AND_RESET);
    EXPECT_EQ(dest[0], '\0');
}

TEST(StrncatS, UnterminatedDestSetsEmptyStringAndReturnsEinvalAndReset) {
    char buffer[8] = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
    EXPECT_EQ(strncat_s(buffer, 4, "x", 1), EINVAL_AND_RESET);
    EXPECT_EQ(buffer[0], '\0');
}

TEST(StrncatS, ZeroDestMaxReturnsErangeAndWritesNothing) {
    char dest[4] = "ab";
    EXPECT_EQ(strncat_s(dest, 0, "c", 1), ERANGE);
    EXPECT_STREQ(dest, "ab");
}

TEST(StrncatS, DestMaxAboveStringMaxLenReturnsErangeAndWritesNothing) {
    char dest[4] = "ab";
    EXPECT_EQ(strncat_s(dest, kStringTooLarge, "c", 1), ERANGE);
    EXPECT_STREQ(dest, "ab");
}

TEST(StrncatS, NullDestReturnsEinval) {
    EXPECT_EQ(strncat_s(nullptr, 16, "c", 1), EINVAL);
}

TEST(StrncatS, NullSrcSetsEmptyStringAndReturnsEinvalAndReset) {
    char dest[4] = "ab";
    EXPECT_EQ(strncat_s(dest, sizeof(dest), nullptr, 1), EINVAL_AND_RESET);
    EXPECT_EQ(dest[0], '\0');
}

TEST(StrncatS, OverlappingStringsSetEmptyStringAndReturnEoverlapAndReset) {
    char buffer[16] = "abc";
    EXPECT_EQ(strncat_s(buffer, sizeof(buffer), buffer + 1, 1), EOVERLAP_AND_RESET);
    EXPECT_EQ(buffer[0], '\0');
}

// ---- sprintf_s, vsprintf_s -------------------------------------------------------------------

TEST(SprintfS, FormatsAndReturnsLength) {
    char dest[16];
    EXPECT_EQ(sprintf_s(dest, sizeof(dest), "%d-%s", 42, "ab"), 5);
    EXPECT_STREQ(dest, "42-ab");
}

TEST(SprintfS, OutputFillingDestExactlyFits) {
    char dest[4];
    EXPECT_EQ(sprintf_s(dest, sizeof(dest), "%s", "abc"), 3);
    EXPECT_STREQ(dest, "abc");
}

TEST(SprintfS, OutputTooLongSetsEmptyStringAndReturnsMinusOne) {
    char dest[4];
    EXPECT_EQ(sprintf_s(dest, sizeof(dest), "%s", "abcd"), -1);
    EXPECT_EQ(dest[0], '\0');
}

TEST(SprintfS, PercentNIsRefusedWithEmptyStringAndMinusOne) {
    char dest[16];
    int written = 7;
    EXPECT_EQ(sprintf_s(dest, sizeof(dest), "ab%n", &written), -1);
    EXPECT_EQ(dest[0], '\0');
    EXPECT_EQ(written, 7);
}

TEST(SprintfS, PercentPercentIsNotPercentN) {
    char dest[16];
    EXPECT_EQ(sprintf_s(dest, sizeof(dest), "100%%n"), 5);
    EXPECT_STREQ(dest, "100%n");
}

TEST(SprintfS, NullFormatSetsEmptyStringAndReturnsMinusOne) {
    Canvas dest;
    EXPECT_EQ(sprintf_s(dest.bytes, sizeof(dest.bytes), kNoFormat), -1);
    EXPECT_EQ(dest.bytes[0], '\0');
}

TEST(SprintfS, NullDestReturnsMinusOne) {
    EXPECT_EQ(sprintf_s(nullptr, 16, "%d", 1), -1);
}

TEST(SprintfS, ZeroDestMaxReturnsMinusOneAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(sprintf_s(dest.bytes, 0, "%d", 1), -1);
    EXPECT_TRUE(dest.Untouched());
}

TEST(SprintfS, DestMaxAboveStringMaxLenReturnsMinusOneAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(sprintf_s(dest.bytes, kStringTooLarge, "%d", 1), -1);
    EXPECT_TRUE(dest.Untouched());
}

TEST(VsprintfS, FormatsVaListAndReturnsLength) {
    char dest[16];
    EXPECT_EQ(CallVsprintf(dest, sizeof(dest), "%u:%c", 7u, 'z'), 3);
    EXPECT_STREQ(dest, "7:z");
}

TEST(VsprintfS, OutputTooLongSetsEmptyStringAndReturnsMinusOne) {
    char dest[4];
    EXPECT_EQ(CallVsprintf(dest, sizeof(dest), "%d", 12345), -1);
    EXPECT_EQ(dest[0], '\0');
}

// ---- snprintf_s, vsnprintf_s -----------------------------------------------------------------

TEST(SnprintfS, FormatsAndReturnsLengthWhenOutputFits) {
    char dest[16];
    EXPECT_EQ(snprintf_s(dest, sizeof(dest), sizeof(dest) - 1, "%s=%d", "x", 5), 3);
    EXPECT_STREQ(dest, "x=5");
}

TEST(SnprintfS, CountBelowDestMaxTruncatesToCountCharactersAndReturnsMinusOne) {
    char dest[16];
    EXPECT_EQ(snprintf_s(dest, sizeof(dest), 4, "%s", "abcdefgh"), -1);
    EXPECT_STREQ(dest, "abcd");  // Truncation asked for: the prefix is kept.
}

TEST(SnprintfS, OutputOfExactlyCountCharactersIsNotTruncated) {
    char dest[16];
    EXPECT_EQ(snprintf_s(dest, sizeof(dest), 4, "%s", "abcd"), 4);
    EXPECT_STREQ(dest, "abcd");
}

TEST(SnprintfS, CountAtLeastDestMaxAndOutputTooLongSetsEmptyStringAndReturnsMinusOne) {
    char dest[4];
    EXPECT_EQ(snprintf_s(dest, sizeof(dest), sizeof(dest), "%s", "abcdefgh"), -1);
    EXPECT_EQ(dest[0], '\0');  // Not a truncation asked for: an error.
}

TEST(SnprintfS, CountAtLeastDestMaxAndOutputFittingFormats) {
    char dest[4];
    EXPECT_EQ(snprintf_s(dest, sizeof(dest), 100, "%s", "abc"), 3);
    EXPECT_STREQ(dest, "abc");
}

TEST(SnprintfS, ZeroCountTruncatesToEmptyStringAndReturnsMinusOne) {
    char dest[16] = "old";
    EXPECT_EQ(snprintf_s(dest, sizeof(dest), 0, "%s", "abc"), -1);
    EXPECT_EQ(dest[0], '\0');
}

TEST(SnprintfS, CountAboveStringMaxLenMinusOneSetsEmptyStringAndReturnsMinusOne) {
    char dest[16] = "old";
    EXPECT_EQ(snprintf_s(dest, sizeof(dest), SECUREC_STRING_MAX_LEN, "%d", 1), -1);
    EXPECT_EQ(dest[0], '\0');
}

TEST(SnprintfS, PercentNIsRefusedWithEmptyStringAndMinusOne) {
    char dest[16];
    int written = 7;
    EXPECT_EQ(snprintf_s(dest, sizeof(dest), 4, "ab%n", &written), -1);
    EXPECT_EQ(dest[0], '\0');
    EXPECT_EQ(written, 7);
}

TEST(SnprintfS, NullFormatSetsEmptyStringAndReturnsMinusOne) {
    char dest[16] = "old";
    EXPECT_EQ(snprintf_s(dest, sizeof(dest), 4, kNoFormat), -1);
    EXPECT_EQ(dest[0], '\0');
}

TEST(SnprintfS, NullDestReturnsMinusOne) {
    EXPECT_EQ(snprintf_s(nullptr, 16, 4, "%d", 1), -1);
}

TEST(SnprintfS, ZeroDestMaxReturnsMinusOneAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(snprintf_s(dest.bytes, 0, 4, "%d", 1), -1);
    EXPECT_TRUE(dest.Untouched());
}

TEST(SnprintfS, DestMaxAboveStringMaxLenReturnsMinusOneAndWritesNothing) {
    Canvas dest;
    EXPECT_EQ(snprintf_s(dest.bytes, kStringTooLarge, 4, "%d", 1), -1);
    EXPECT_TRUE(dest.Untouched());
}

TEST(VsnprintfS, TruncatesVaListOutputToCountAndReturnsMinusOne) {
    char dest[16];
    EXPECT_EQ(CallVsnprintf(dest, sizeof(dest), 2, "%d", 12345), -1);
    EXPECT_STREQ(dest, "12");
}

TEST(VsnprintfS, FormatsVaListAndReturnsLength) {
    char dest[16];
    EXPECT_EQ(CallVsnprintf(dest, sizeof(dest), 8, "%x", 255u), 2);
    EXPECT_STREQ(dest, "ff");
}

// ---- sscanf_s, vsscanf_s ---------------------------------------------------------------------

TEST(SscanfS, ReadsIntegersAndReturnsFieldsAssigned) {
    int a = 0;
    long b = 0;
    EXPECT_EQ(sscanf_s("12 -34", "%d %ld", &a, &b), 2);
    EXPECT_EQ(a, 12);
    EXPECT_EQ(b, -34);
}

TEST(SscanfS, StringConversionTakesDestinationSize) {
    char word[8];
    int n = 0;
    EXPECT_EQ(sscanf_s("hello 5", "%s %d", word, sizeof(word), &n), 2);
    EXPECT_STREQ(word, "hello");
    EXPECT_EQ(n, 5);
}

TEST(SscanfS, StringExactlyFillingDestinationFits) {
    char word[6];
    EXPECT_EQ(sscanf_s("hello", "%s", word, sizeof(word)), 1);
    EXPECT_STREQ(word, "hello");
}

TEST(SscanfS, StringTooLongForDestinationLeavesItEmptyAndStops) {
    char word[5] = "old";
    int n = 0;
    EXPECT_EQ(sscanf_s("hello 5", "%s %d", word, sizeof(word), &n), 0);
    EXPECT_EQ(word[0], '\0');
    EXPECT_EQ(n, 0);
}

TEST(SscanfS, FieldsBeforeAStringThatDoesNotFitAreCounted) {
    int n = 0;
    char word[2];
    EXPECT_EQ(sscanf_s("5 hello", "%d %s", &n, word, sizeof(word)), 1);
    EXPECT_EQ(n, 5);
    EXPECT_EQ(word[0], '\0');
}

TEST(SscanfS, SizeMayBePassedAsUnsignedInt) {
    char word[8];
    EXPECT_EQ(sscanf_s("abc", "%s", word, static_cast<unsigned>(sizeof(word))), 1);
    EXPECT_STREQ(word, "abc");
}

TEST(SscanfS, CharConversionReadsWidthCharactersWithoutTerminator) {
    char chars[3] = {'x', 'x', 'x'};
    EXPECT_EQ(sscanf_s("ab", "%2c", chars, sizeof(chars)), 1);
    EXPECT_EQ(chars[0], 'a');
    EXPECT_EQ(chars[1], 'b');
    EXPECT_EQ(chars[2], 'x');
}

TEST(SscanfS, CharConversionDoesNotSkipWhitespace) {
    char c = 0;
    EXPECT_EQ(sscanf_s(" a", "%c", &c, sizeof(c)), 1);
    EXPECT_EQ(c, ' ');
}

TEST(SscanfS, ScansetReadsMatchingCharacters) {
    char digits[8];
    char rest[8];
    EXPECT_EQ(sscanf_s("123abc", "%[0-9]%[^\n]", digits, sizeof(digits), rest, sizeof(rest)), 2);
    EXPECT_STREQ(digits, "123");
    EXPECT_STREQ(rest, "abc");
}

TEST(SscanfS, WidthLimitsAField) {
    int a = 0;
    int b = 0;
    char word[8];
    EXPECT_EQ(sscanf_s("12345abcdef", "%2d%3d%3s", &a, &b, word, sizeof(word)), 3);
    EXPECT_EQ(a, 12);
    EXPECT_EQ(b, 345);
    EXPECT_STREQ(word, "abc");
}

TEST(SscanfS, SuppressedFieldsAreReadButNotCounted) {
    int n = 0;
    EXPECT_EQ(sscanf_s("skip 7", "%*s %d", &n), 1);
    EXPECT_EQ(n, 7);
}

TEST(SscanfS, BasesFollowTheConversion) {
    unsigned hex = 0;
    unsigned octal = 0;
    int detectedHex = 0;
    int detectedOctal = 0;
    EXPECT_EQ(sscanf_s("ff 17 0x1A 010", "%x %o %i %i", &hex, &octal, &detectedHex, &detectedOctal),
              4);
    EXPECT_EQ(hex, 0xffu);
    EXPECT_EQ(octal, 017u);
    EXPECT_EQ(detectedHex, 0x1a);
    EXPECT_EQ(detectedOctal, 8);
}

TEST(SscanfS, LengthModifiersNameTheDestinationType) {
    signed char c = 0;
    short s = 0;
    long long ll = 0;
    size_t z = 0;
    EXPECT_EQ(sscanf_s("-5 300 -9000000000 42", "%hhd %hd %lld %zu", &c, &s, &ll, &z), 4);
    EXPECT_EQ(c, -5);
    EXPECT_EQ(s, 300);
    EXPECT_EQ(ll, -9000000000LL);
    EXPECT_EQ(z, 42u);
}

TEST(SscanfS, OutOfRangeIntegerSaturatesTo64Bits) {
    long long big = 0;
    EXPECT_EQ(sscanf_s("99999999999999999999", "%lld", &big), 1);
    EXPECT_EQ(big, LLONG_MAX);
}

TEST(SscanfS, ReadsFloatDoubleAndLongDouble) {
    float f = 0;
    double d = 0;
    long double ld = 0;
    EXPECT_EQ(sscanf_s("1.5 -2.25e1 3", "%f %lf %Lf", &f, &d, &ld), 3);
    EXPECT_FLOAT_EQ(f, 1.5f);
    EXPECT_DOUBLE_EQ(d, -22.5);
    EXPECT_EQ(ld, 3.0L);
}

TEST(SscanfS, FloatWidthEndsTheField) {
    double d = 0;
    int rest = 0;
    EXPECT_EQ(sscanf_s("1.2345", "%4lf%d", &d, &rest), 2);
    EXPECT_DOUBLE_EQ(d, 1.23);
    EXPECT_EQ(rest, 45);
}

TEST(SscanfS, PercentNStoresCharactersConsumedAndIsNotCounted) {
    int n = 0;
    int consumed = 0;
    EXPECT_EQ(sscanf_s("  42xyz", "%d%n", &n, &consumed), 1);
    EXPECT_EQ(consumed, 4);
}

TEST(SscanfS, LiteralsAndPercentPercentMustMatch) {
    int a = 0;
    int b = 0;
    EXPECT_EQ(sscanf_s("a=1, 50%", "a=%d, %d%%", &a, &b), 2);
    EXPECT_EQ(a, 1);
    EXPECT_EQ(b, 50);
}

TEST(SscanfS, MismatchStopsAndReturnsFieldsAssignedSoFar) {
    int a = 0;
    int b = 9;
    EXPECT_EQ(sscanf_s("1 x", "%d %d", &a, &b), 1);
    EXPECT_EQ(a, 1);
    EXPECT_EQ(b, 9);
}

TEST(SscanfS, MismatchAtFirstConversionReturnsZero) {
    int a = 9;
    EXPECT_EQ(sscanf_s("x", "%d", &a), 0);
    EXPECT_EQ(a, 9);
}

TEST(SscanfS, InputEndingBeforeFirstConversionReturnsMinusOne) {
    int a = 9;
    EXPECT_EQ(sscanf_s("   ", "%d", &a), -1);
    EXPECT_EQ(a, 9);
}

TEST(SscanfS, InputEndingAfterAConversionReturnsFieldsAssigned) {
    int a = 0;
    int b = 9;
    EXPECT_EQ(sscanf_s("1", "%d %d", &a, &b), 1);
    EXPECT_EQ(b, 9);
}

TEST(SscanfS, EmptyBufferReturnsMinusOneAndEmptiesFirstStringDestination) {
    char word[8] = "old";
    EXPECT_EQ(sscanf_s("", "%s", word, sizeof(word)), -1);
    EXPECT_EQ(word[0], '\0');
}

TEST(SscanfS, NullBufferReturnsMinusOne) {
    int a = 0;
    EXPECT_EQ(sscanf_s(nullptr, "%d", &a), -1);
}

TEST(SscanfS, NullFormatReturnsMinusOne) {
    EXPECT_EQ(sscanf_s("1", nullptr), -1);
}

TEST(SscanfS, NullStringDestinationReturnsMinusOne) {
    EXPECT_EQ(sscanf_s("abc", "%s", static_cast<char*>(nullptr), size_t{8}), -1);
}

TEST(SscanfS, NullNumberDestinationReturnsMinusOne) {
    EXPECT_EQ(sscanf_s("1", "%d", static_cast<int*>(nullptr)), -1);
}

TEST(SscanfS, ZeroDestinationSizeReturnsMinusOneAndWritesNothing) {
    char word[4] = "old";
    EXPECT_EQ(sscanf_s("abc", "%s", word, size_t{0}), -1);
    EXPECT_STREQ(word, "old");
}

TEST(SscanfS, ZeroWidthInFormatReturnsMinusOne) {
    int a = 0;
    EXPECT_EQ(sscanf_s("1", "%0d", &a), -1);
}

TEST(SscanfS, UnknownConversionReturnsMinusOne) {
    int a = 0;
    EXPECT_EQ(sscanf_s("1", "%y", &a), -1);
}

TEST(VsscanfS, ReadsThroughVaList) {
    int a = 0;
    char word[4];
    EXPECT_EQ(CallVsscanf("3 abc", "%d %s", &a, word, sizeof(word)), 2);
    EXPECT_EQ(a, 3);
    EXPECT_STREQ(word, "abc");
}

TEST(VsscanfS, NullBufferReturnsMinusOne) {
    int a = 0;
    EXPECT_EQ(CallVsscanf(nullptr, "%d", &a), -1);
}
