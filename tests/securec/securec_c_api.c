/*
 * securec.h from C: the header compiles as C11 (with format checking on), and each function links
 * from libc_sec.so and works for one ordinary call. The behaviour per case is test_securec.cpp's.
 */
#include "securec.h"

static int g_failures = 0;

#define CHECK(condition)                                                    \
    do {                                                                    \
        if (!(condition)) {                                                 \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #condition); \
            ++g_failures;                                                   \
        }                                                                   \
    } while (0)

static int CallVsprintf(char* dest, size_t destMax, const char* format, ...) {
    va_list args;
    int ret;
    va_start(args, format);
    ret = vsprintf_s(dest, destMax, format, args);
    va_end(args);
    return ret;
}

static int CallVsnprintf(char* dest, size_t destMax, size_t count, const char* format, ...) {
    va_list args;
    int ret;
    va_start(args, format);
    ret = vsnprintf_s(dest, destMax, count, format, args);
    va_end(args);
    return ret;
}

static int CallVsscanf(const char* buffer, const char* format, ...) {
    va_list args;
    int ret;
    va_start(args, format);
    ret = vsscanf_s(buffer, format, args);
    va_end(args);
    return ret;
}

int main(void) {
    char buffer[16];
    char word[8];
    int number = 0;
    errno_t ret;

    ret = memset_s(buffer, sizeof(buffer), 'a', 4);
    CHECK(ret == EOK && buffer[3] == 'a');
    CHECK(memcpy_s(buffer, sizeof(buffer), "abc", 4) == EOK && strcmp(buffer, "abc") == 0);
    CHECK(memmove_s(buffer + 1, sizeof(buffer) - 1, buffer, 4) == EOK &&
          strcmp(buffer, "aabc") == 0);
    CHECK(memcpy_s(buffer, 2, "abc", 3) == ERANGE_AND_RESET && buffer[0] == '\0');
    CHECK(strcpy_s(buffer, sizeof(buffer), "ab") == EOK && strcmp(buffer, "ab") == 0);
    CHECK(strncpy_s(buffer, sizeof(buffer), "cdef", 2) == EOK && strcmp(buffer, "cd") == 0);
    CHECK(strcat_s(buffer, sizeof(buffer), "ef") == EOK && strcmp(buffer, "cdef") == 0);
    CHECK(strncat_s(buffer, sizeof(buffer), "ghij", 1) == EOK && strcmp(buffer, "cdefg") == 0);
    CHECK(strcpy_s(buffer, 2, "ab") == ERANGE_AND_RESET && buffer[0] == '\0');
    CHECK(strcpy_s(NULL, 2, "ab") == EINVAL);
    CHECK(strcat_s(buffer, 0, "ab") == ERANGE);
    CHECK(strncat_s(buffer, sizeof(buffer), NULL, 1) == EINVAL_AND_RESET);
    CHECK(memcpy_s(buffer + 1, 8, buffer, 4) == EOVERLAP_AND_RESET);
    CHECK(sprintf_s(buffer, sizeof(buffer), "%d%s", 7, "x") == 2 && strcmp(buffer, "7x") == 0);
    CHECK(snprintf_s(buffer, sizeof(buffer), 3, "%s", "abcdef") == -1 &&
          strcmp(buffer, "abc") == 0);
    CHECK(CallVsprintf(buffer, sizeof(buffer), "%c", 'z') == 1 && strcmp(buffer, "z") == 0);
    CHECK(CallVsnprintf(buffer, sizeof(buffer), 8, "%u", 12u) == 2 && strcmp(buffer, "12") == 0);
    CHECK(sscanf_s("5 abc", "%d %s", &number, word, sizeof(word)) == 2 && number == 5 &&
          strcmp(word, "abc") == 0);
    CHECK(CallVsscanf("9", "%d", &number) == 1 && number == 9);
    CHECK(SECUREC_MEM_MAX_LEN == 0x7fffffffUL && SECUREC_STRING_MAX_LEN == 0x7fffffffUL);

    if (g_failures != 0) return 1;
    printf("securec C API OK\n");
    return 0;
}
