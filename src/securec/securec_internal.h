/* Helpers shared by the securec sources (not installed). */
#ifndef OPENACL_SECUREC_INTERNAL_H
#define OPENACL_SECUREC_INTERNAL_H

#include <stdint.h>

#include "securec.h"

/*
 * Whether the byte ranges [a, a + aLen) and [b, b + bLen) share a byte. Compared as integers:
 * relational operators on pointers into different objects are undefined in C.
 */
static inline int SecRangesOverlap(const void* a, size_t aLen, const void* b, size_t bLen) {
    uintptr_t aStart = (uintptr_t)a;
    uintptr_t bStart = (uintptr_t)b;
    if (aLen == 0 || bLen == 0) return 0;
    return aStart < bStart ? bStart - aStart < aLen : aStart - bStart < bLen;
}

/*
 * strlen that reads no more than maxLen bytes, and none past the terminator (strnlen is POSIX,
 * not C11): the source of strncpy_s may be a shorter string than count, or an unterminated array.
 */
static inline size_t SecStrnlen(const char* s, size_t maxLen) {
    size_t len = 0;
    while (len < maxLen && s[len] != '\0')
        ++len;
    return len;
}

#endif /* OPENACL_SECUREC_INTERNAL_H */
