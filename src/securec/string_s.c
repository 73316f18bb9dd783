/* strcpy_s, strncpy_s, strcat_s, strncat_s. */
#include "securec_internal.h"

/*
 * The checks every string function starts with. Returns EOK when the arguments are usable;
 * otherwise the error, with strDest[0] = '\0' where strDest and destMax are usable.
 */
static errno_t SecCheckString(char* strDest, size_t destMax, const char* strSrc) {
    if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) return ERANGE;
    if (strDest == NULL) return EINVAL;
    if (strSrc == NULL) {
        strDest[0] = '\0';
        return EINVAL_AND_RESET;
    }
    return EOK;
}

static errno_t SecResetString(char* strDest, errno_t ret) {
    strDest[0] = '\0';
    return ret;
}

errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
    size_t srcLen;
    errno_t ret = SecCheckString(strDest, destMax, strSrc);
    if (ret != EOK) return ret;
    srcLen = SecStrnlen(strSrc, destMax);
    /* The space is checked before the overlap: a string that does not fit is ERANGE either way. */
    if (srcLen == destMax) return SecResetString(strDest, ERANGE_AND_RESET);
    if (strDest == strSrc) return EOK; /* Already in place. */
    if (SecRangesOverlap(strDest, srcLen + 1, strSrc, srcLen + 1)) {
        return SecResetString(strDest, EOVERLAP_AND_RESET);
    }
    memcpy(strDest, strSrc, srcLen + 1);
    return EOK;
}

errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
    size_t copyLen;
    errno_t ret = SecCheckString(strDest, destMax, strSrc);
    if (ret != EOK) return ret;
    if (count > SECUREC_STRING_MAX_LEN) return SecResetString(strDest, ERANGE_AND_RESET);
    if (count < destMax) {
        copyLen = SecStrnlen(strSrc, count); /* Always leaves room for the terminator. */
    } else {
        copyLen = SecStrnlen(strSrc, destMax);
        if (copyLen == destMax) return SecResetString(strDest, ERANGE_AND_RESET);
    }
    if (strDest != strSrc && SecRangesOverlap(strDest, copyLen + 1, strSrc, copyLen + 1)) {
        return SecResetString(strDest, EOVERLAP_AND_RESET);
    }
    if (strDest != strSrc) memcpy(strDest, strSrc, copyLen);
    strDest[copyLen] = '\0';
    return EOK;
}

/*
 * Appends srcLen characters of strSrc to strDest, whose string is destLen long (destLen ==
 * destMax: no terminator within destMax). The checks and codes are strcat_s's and strncat_s's.
 */
static errno_t SecAppend(char* strDest, size_t destMax, size_t destLen, const char* strSrc,
                         size_t srcLen) {
    /* The bytes the result would occupy, and those the source is read from, terminators too. */
    if (strDest != strSrc && SecRangesOverlap(strDest, destLen + srcLen + 1, strSrc, srcLen + 1)) {
        /* An unterminated destination directly followed by the source is reported as such. */
        int sourceAfterDest = (uintptr_t)strSrc >= (uintptr_t)strDest + destLen;
        strDest[0] = '\0';
        return (sourceAfterDest && destLen == destMax) ? EINVAL_AND_RESET : EOVERLAP_AND_RESET;
    }
    if (destLen == destMax) return SecResetString(strDest, EINVAL_AND_RESET); /* Unterminated. */
    if (destLen + srcLen >= destMax || strDest == strSrc) {
        return SecResetString(strDest, ERANGE_AND_RESET);
    }
    memcpy(strDest + destLen, strSrc, srcLen);
    strDest[destLen + srcLen] = '\0';
    return EOK;
}

errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
    size_t destLen;
    errno_t ret = SecCheckString(strDest, destMax, strSrc);
    if (ret != EOK) return ret;
    destLen = SecStrnlen(strDest, destMax);
    /* Reading more of the source than could fit would only prove it does not fit. */
    return SecAppend(strDest, destMax, destLen, strSrc, SecStrnlen(strSrc, destMax - destLen));
}

errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
    size_t destLen;
    errno_t ret = SecCheckString(strDest, destMax, strSrc);
    if (ret != EOK) return ret;
    if (count > SECUREC_STRING_MAX_LEN) return SecResetString(strDest, ERANGE_AND_RESET);
    destLen = SecStrnlen(strDest, destMax);
    return SecAppend(strDest, destMax, destLen, strSrc, SecStrnlen(strSrc, count));
}
