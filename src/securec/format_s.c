/* sprintf_s, vsprintf_s, snprintf_s, vsnprintf_s: the C library's vsnprintf, bounded. */
#include "securec_internal.h"

/* What SecFormat returns when the output did not fit (the buffer then holds a prefix of it). */
#define SEC_FORMAT_TRUNCATED (-2)

/*
 * Whether format has a %n conversion, which the secure functions refuse: it would let the format
 * write through an argument. The flags, width, precision and length modifiers are skipped.
 */
static int SecFormatHasN(const char* format) {
    const char* p = format;
    while (*p != '\0') {
        if (*p++ != '%') continue;
        if (*p == '%') {
            ++p;
            continue;
        }
        while (*p != '\0' && strchr("0123456789 +-#.*$hlLjztqIwZ", *p) != NULL)
            ++p;
        if (*p == 'n') return 1;
    }
    return 0;
}

/*
 * Formats into string, size bytes (size >= 1). Returns the length, SEC_FORMAT_TRUNCATED when the
 * output needs more room, or -1 for a format the C library or the %n rule refuses.
 */
static int SecFormat(char* string, size_t size, const char* format, va_list argList) {
    int len;
    if (SecFormatHasN(format)) {
        string[0] = '\0';
        return -1;
    }
    len = vsnprintf(string, size, format, argList);
    if (len < 0) {
        string[0] = '\0';
        return -1;
    }
    if ((size_t)len >= size) return SEC_FORMAT_TRUNCATED;
    return len;
}

/* Clears strDest where it can be written, for a call refused on its arguments. */
static int SecRefuseFormat(char* strDest, size_t destMax) {
    if (strDest != NULL && destMax > 0 && destMax <= SECUREC_STRING_MAX_LEN) strDest[0] = '\0';
    return -1;
}

int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
    int len;
    if (format == NULL || strDest == NULL || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) {
        return SecRefuseFormat(strDest, destMax);
    }
    len = SecFormat(strDest, destMax, format, argList);
    if (len < 0) {
        strDest[0] = '\0';
        return -1;
    }
    return len;
}

int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
    int len;
    va_list argList;
    va_start(argList, format);
    len = vsprintf_s(strDest, destMax, format, argList);
    va_end(argList);
    return len;
}

int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
    int len;
    if (format == NULL || strDest == NULL || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN ||
        count > SECUREC_STRING_MAX_LEN - 1) {
        return SecRefuseFormat(strDest, destMax);
    }
    if (count < destMax) {
        /* Truncation to count characters is asked for: keep them, and say so with -1. */
        len = SecFormat(strDest, count + 1, format, argList);
        if (len == SEC_FORMAT_TRUNCATED) return -1;
    } else {
        len = SecFormat(strDest, destMax, format, argList);
    }
    if (len < 0) {
        strDest[0] = '\0'; /* Did not fit in destMax, or a refused format. */
        return -1;
    }
    return len;
}

int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
    int len;
    va_list argList;
    va_start(argList, format);
    len = vsnprintf_s(strDest, destMax, count, format, argList);
    va_end(argList);
    return len;
}
