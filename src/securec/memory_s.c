/* memcpy_s, memmove_s, memset_s. */
#include "securec_internal.h"

/*
 * The checks memcpy_s and memmove_s share, in libboundscheck's order. Returns EOK when the copy
 * may go ahead; otherwise the error, with dest cleared where dest and destMax are usable.
 */
static errno_t SecCheckCopy(void* dest, size_t destMax, const void* src, size_t count) {
    if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
    if (dest == NULL) return EINVAL;
    if (src == NULL) {
        memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    return EOK;
}

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    errno_t ret = SecCheckCopy(dest, destMax, src, count);
    if (ret != EOK) return ret;
    if (dest == src || count == 0) return EOK; /* Nothing to move: not an overlap. */
    if (SecRangesOverlap(dest, count, src, count)) {
        memset(dest, 0, destMax);
        return EOVERLAP_AND_RESET;
    }
    memcpy(dest, src, count);
    return EOK;
}

errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
    errno_t ret = SecCheckCopy(dest, destMax, src, count);
    if (ret != EOK) return ret;
    if (dest != src && count > 0) memmove(dest, src, count);
    return EOK;
}

errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    /* A zero count within a zero destMax is accepted, as libboundscheck does. */
    if (dest != NULL && destMax <= SECUREC_MEM_MAX_LEN && count <= destMax) {
        memset(dest, c, count);
        return EOK;
    }
    if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
    if (dest == NULL) return EINVAL;
    /* count > destMax: the whole buffer gets c (not 0), so no byte keeps stale data. */
    memset(dest, c, destMax);
    return ERANGE_AND_RESET;
}
