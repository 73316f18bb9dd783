/*
 * securec.h: bounds-checked memory, string and format functions (libc_sec.so).
 *
 * openacl's own implementation of the interface of Huawei's securec library (the open-source
 * libboundscheck), which CANN ships and AscendCL programs use: #include "securec.h", link -lc_sec.
 * Every function takes the size of the destination (destMax) and checks it before writing.
 * docs/SECUREC.md tables what each function returns and leaves in the destination per error.
 *
 * In short: destMax 0 or above the limit (SECUREC_MEM_MAX_LEN, SECUREC_STRING_MAX_LEN) is ERANGE
 * and nothing is written; a null destination is EINVAL; every other error leaves the destination
 * reset (memory functions: cleared; string and format functions: dest[0] = '\0') and returns a
 * code ending in _AND_RESET. The format functions return the length written or -1.
 */
#ifndef OPENACL_SECUREC_H
#define OPENACL_SECUREC_H

#include <errno.h>

#include "securectype.h"

/* errno_t is C11 Annex K's; glibc does not declare it. (Repeating a typedef is valid C11.) */
#ifndef errno_t
typedef int errno_t;
#endif

/* The result codes. EINVAL and ERANGE normally come from <errno.h>. */
#ifndef EOK
#define EOK 0 /* Success. */
#endif
#ifndef EINVAL
#define EINVAL 22 /* A null argument; the destination could not be reset. */
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET 150 /* A null source or unterminated destination; dest was reset. */
#endif
#ifndef ERANGE
#define ERANGE 34 /* destMax is 0 or above the limit; nothing was written. */
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET 162 /* The result does not fit in destMax; dest was reset. */
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET 182 /* Source and destination overlap; dest was reset. */
#endif

#ifndef SECUREC_API
#if defined(__GNUC__) || defined(__clang__)
#define SECUREC_API extern __attribute__((visibility("default")))
#else
#define SECUREC_API extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Copies count bytes from src to dest, which must not overlap (dest == src is a no-op). */
SECUREC_API errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);

/* Copies count bytes from src to dest; the buffers may overlap. */
SECUREC_API errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count);

/* Sets count bytes of dest to (unsigned char)c. count > destMax sets all destMax bytes to c. */
SECUREC_API errno_t memset_s(void* dest, size_t destMax, int c, size_t count);

/* Copies the string strSrc, terminator included, into strDest (destMax bytes). */
SECUREC_API errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc);

/* Copies at most count characters of strSrc into strDest and terminates it. */
SECUREC_API errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count);

/* Appends the string strSrc to the string in strDest (destMax: the whole buffer's size). */
SECUREC_API errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc);

/* Appends at most count characters of strSrc to the string in strDest and terminates it. */
SECUREC_API errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count);

/*
 * Format into strDest like sprintf. They return the length written (without the terminator),
 * or -1 with strDest[0] = '\0' when the output does not fit in destMax, on a bad argument, or for
 * a format with %n (refused: it writes through an argument).
 */
SECUREC_API int sprintf_s(char* strDest, size_t destMax, const char* format, ...)
    SECUREC_ATTRIBUTE(3, 4);
SECUREC_API int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList)
    SECUREC_ATTRIBUTE(3, 0);

/*
 * Format at most count characters into strDest. When count < destMax and the output is longer,
 * strDest keeps the first count characters (terminated) and the result is -1: check for -1 to
 * detect truncation. When count >= destMax, output that does not fit in destMax is an error:
 * strDest[0] = '\0' and -1.
 */
SECUREC_API int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...)
    SECUREC_ATTRIBUTE(4, 5);
SECUREC_API int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format,
                            va_list argList) SECUREC_ATTRIBUTE(4, 0);

/*
 * Read from the string buffer like sscanf, except that %s, %c and %[ take two arguments: the
 * destination and its size in characters (the size is read as size_t; an unsigned int also
 * works, as in libboundscheck). Input that does not fit leaves that destination empty and stops
 * the scan. They return the number of fields assigned, or -1 for a null buffer or format, an empty
 * buffer, input that ends before the first conversion, or a bad format or null argument.
 */
SECUREC_API int sscanf_s(const char* buffer, const char* format, ...);
SECUREC_API int vsscanf_s(const char* buffer, const char* format, va_list argList);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_SECUREC_H */
