/*
 * securectype.h: the limits and standard headers of the bounds-checked C functions (securec.h).
 *
 * openacl's own implementation of the interface of Huawei's securec library (libboundscheck), which
 * CANN ships as include/securec.h and lib64/libc_sec.so. securec.h includes this header; programs
 * may also include it on its own for the limits.
 */
#ifndef OPENACL_SECURECTYPE_H
#define OPENACL_SECURECTYPE_H

/* Programs written against securec.h rely on it to declare memcpy, snprintf, malloc, ... too. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The largest destMax the functions accept (2 GiB - 1, libboundscheck's default and its upper
 * bound): a larger one is taken for a negative length converted to size_t, and refused.
 */
#ifndef SECUREC_STRING_MAX_LEN
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#endif
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif
#if SECUREC_STRING_MAX_LEN > 0x7fffffffUL || SECUREC_MEM_MAX_LEN > 0x7fffffffUL
#error "SECUREC_STRING_MAX_LEN and SECUREC_MEM_MAX_LEN must not exceed 0x7fffffff"
#endif

/*
 * printf-style format checking of sprintf_s and friends is opt-in, as in libboundscheck: define
 * SECUREC_SUPPORT_FORMAT_WARNING=1 to have the compiler check the arguments against the format.
 */
#ifndef SECUREC_SUPPORT_FORMAT_WARNING
#define SECUREC_SUPPORT_FORMAT_WARNING 0
#endif
#if SECUREC_SUPPORT_FORMAT_WARNING && (defined(__GNUC__) || defined(__clang__))
#define SECUREC_ATTRIBUTE(formatIndex, firstArg) \
    __attribute__((format(printf, (formatIndex), (firstArg))))
#else
#define SECUREC_ATTRIBUTE(formatIndex, firstArg)
#endif

#endif /* OPENACL_SECURECTYPE_H */
