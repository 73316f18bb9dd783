/*
 * sscanf_s, vsscanf_s: a scanf engine over a string in which %s, %c and %[ take the destination's
 * size after its pointer. Integers are read here; floating-point fields go to
 * strtof/strtod/strtold.
 */
#include <ctype.h>
#include <limits.h>

#include "securec_internal.h"

/* The length modifiers (hh, h, none, l, ll, j, z, t, L). */
typedef enum {
    SEC_LEN_CHAR,
    SEC_LEN_SHORT,
    SEC_LEN_INT,
    SEC_LEN_LONG,
    SEC_LEN_LLONG,
    SEC_LEN_INTMAX,
    SEC_LEN_SIZE,
    SEC_LEN_PTRDIFF,
    SEC_LEN_LDOUBLE
} SecLength;

/* Why a scan stopped before the end of the format. */
typedef enum {
    SEC_SCAN_DONE,     /* The whole format was matched. */
    SEC_SCAN_MISMATCH, /* The input did not match (or a string did not fit): stop, keep count. */
    SEC_SCAN_EOF,      /* The input ended before a directive could match. */
    SEC_SCAN_ERROR     /* A bad format or a null destination: the call fails. */
} SecScanStop;

/* One conversion specification, %[*][width][length]conversion. */
typedef struct {
    int suppress;
    size_t width; /* SIZE_MAX: no width given. */
    SecLength length;
    char conversion;                  /* Lowercase for the floating-point and %X conversions. */
    unsigned char set[UCHAR_MAX + 1]; /* %[: which characters the field may hold. */
} SecSpec;

static int SecIsSpace(char c) {
    return isspace((unsigned char)c) != 0;
}

static const char* SecSkipSpace(const char* s) {
    while (SecIsSpace(*s))
        ++s;
    return s;
}

/* Parses the scanset after "%[" (a leading ']' is a member, a-z a range). NULL if unterminated. */
static const char* SecParseScanset(const char* f, SecSpec* spec) {
    int negate = 0;
    int member;
    const char* first;
    memset(spec->set, 0, sizeof(spec->set));
    if (*f == '^') {
        negate = 1;
        ++f;
    }
    first = f;
    while (*f != '\0' && (*f != ']' || f == first)) {
        unsigned char low = (unsigned char)*f;
        if (f[1] == '-' && f[2] != ']' && f[2] != '\0' && (unsigned char)f[2] >= low) {
            unsigned char high = (unsigned char)f[2];
            for (member = low; member <= high; ++member)
                spec->set[member] = 1;
            f += 3;
        } else {
            spec->set[low] = 1;
            ++f;
        }
    }
    if (*f != ']') return NULL;
    if (negate) {
        for (member = 0; member <= UCHAR_MAX; ++member)
            spec->set[member] = !spec->set[member];
    }
    spec->set[0] = 0; /* The terminator ends every field. */
    return f + 1;
}

/* Parses the specification after '%'. Returns the rest of the format, or NULL if malformed. */
static const char* SecParseSpec(const char* f, SecSpec* spec) {
    spec->suppress = 0;
    spec->width = SIZE_MAX;
    spec->length = SEC_LEN_INT;
    if (*f == '*') {
        spec->suppress = 1;
        ++f;
    }
    if (isdigit((unsigned char)*f)) {
        size_t width = 0;
        while (isdigit((unsigned char)*f)) {
            if (width < SECUREC_STRING_MAX_LEN) width = width * 10 + (size_t)(*f - '0');
            ++f;
        }
        if (width == 0) return NULL; /* A zero width cannot match anything. */
        spec->width = width;
    }
    switch (*f) {
        case 'h':
            spec->length = f[1] == 'h' ? SEC_LEN_CHAR : SEC_LEN_SHORT;
            f += f[1] == 'h' ? 2 : 1;
            break;
        case 'l':
            spec->length = f[1] == 'l' ? SEC_LEN_LLONG : SEC_LEN_LONG;
            f += f[1] == 'l' ? 2 : 1;
            break;
        case 'q': /* BSD's name for ll. */
        case 'j':
        case 'z':
        case 't':
        case 'L':
            spec->length = *f == 'q'   ? SEC_LEN_LLONG
                           : *f == 'j' ? SEC_LEN_INTMAX
                           : *f == 'z' ? SEC_LEN_SIZE
                           : *f == 't' ? SEC_LEN_PTRDIFF
                                       : SEC_LEN_LDOUBLE;
            ++f;
            break;
        default:
            break;
    }
    spec->conversion = *f;
    switch (*f) {
        case 'X':
        case 'E':
        case 'F':
        case 'G':
        case 'A':
            spec->conversion = (char)tolower((unsigned char)*f);
            break;
        case '[':
            return SecParseScanset(f + 1, spec);
        case '\0':
            return NULL;
        default:
            break;
    }
    return f + 1;
}

/* Stores value, cut to the width the length modifier names (two's complement, as a cast). */
static void SecStoreInteger(void* dest, SecLength length, unsigned long long value) {
    switch (length) {
        case SEC_LEN_CHAR:
            *(unsigned char*)dest = (unsigned char)value;
            break;
        case SEC_LEN_SHORT:
            *(unsigned short*)dest = (unsigned short)value;
            break;
        case SEC_LEN_LONG:
            *(unsigned long*)dest = (unsigned long)value;
            break;
        case SEC_LEN_LLONG:
        case SEC_LEN_LDOUBLE:
            *(unsigned long long*)dest = value;
            break; /* %Ld: glibc's ll. */
        case SEC_LEN_INTMAX:
            *(uintmax_t*)dest = (uintmax_t)value;
            break;
        case SEC_LEN_SIZE:
            *(size_t*)dest = (size_t)value;
            break;
        case SEC_LEN_PTRDIFF:
            *(ptrdiff_t*)dest = (ptrdiff_t)(intmax_t)value;
            break;
        default:
            *(unsigned int*)dest = (unsigned int)value;
            break;
    }
}

static int SecDigitValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return INT_MAX;
}

/*
 * Reads an integer field of at most width characters in base (0: by prefix, as %i). Out-of-range
 * values saturate to the 64-bit range, as strtoll/strtoull do. Returns the characters used, 0 for
 * no number.
 */
static size_t SecReadInteger(const char* in, size_t width, int base, int isSigned,
                             unsigned long long* result) {
    size_t n = 0;
    size_t digits = 0;
    int negative = 0;
    int overflow = 0;
    unsigned long long magnitude = 0;
    if (n < width && (in[n] == '+' || in[n] == '-')) negative = in[n++] == '-';
    if ((base == 0 || base == 16) && n < width && in[n] == '0') {
        /* "0x" counts as a prefix only when a hex digit follows; else the 0 is the number. */
        if (n + 2 < width && (in[n + 1] == 'x' || in[n + 1] == 'X') &&
            isxdigit((unsigned char)in[n + 2])) {
            base = 16;
            n += 2;
        } else if (base == 0) {
            base = 8;
        }
    } else if (base == 0) {
        base = 10;
    }
    while (n < width && SecDigitValue(in[n]) < base) {
        unsigned int digit = (unsigned int)SecDigitValue(in[n]);
        if (magnitude > (ULLONG_MAX - digit) / (unsigned int)base) overflow = 1;
        magnitude = magnitude * (unsigned int)base + digit;
        ++n;
        ++digits;
    }
    if (digits == 0) return 0;
    if (isSigned) {
        unsigned long long limit = negative ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX;
        if (overflow || magnitude > limit) magnitude = limit;
    } else if (overflow) {
        magnitude = ULLONG_MAX;
        negative = 0;
    }
    *result = negative ? 0 - magnitude : magnitude;
    return n;
}

/* Reads a floating-point field of at most width characters into dest. Returns the characters
 * used, 0 for no number (or no memory for a width-limited copy). */
static size_t SecReadFloat(const char* in, size_t width, SecLength length, int store, void* dest) {
    size_t available = SecStrnlen(in, width);
    char* copy = NULL;
    const char* field = in;
    char* end = NULL;
    size_t used;
    if (in[available] != '\0') {
        /* The C library reads to the first character that does not fit: end the field there. */
        copy = (char*)malloc(available + 1);
        if (copy == NULL) return 0;
        memcpy(copy, in, available);
        copy[available] = '\0';
        field = copy;
    }
    if (length == SEC_LEN_LDOUBLE) {
        long double value = strtold(field, &end);
        if (store && end != field) *(long double*)dest = value;
    } else if (length == SEC_LEN_LONG) {
        double value = strtod(field, &end);
        if (store && end != field) *(double*)dest = value;
    } else {
        float value = strtof(field, &end);
        if (store && end != field) *(float*)dest = value;
    }
    used = (size_t)(end - field);
    free(copy);
    return used;
}

/* Whether c may be the next character of a %c, %s or %[ field. */
static int SecFieldAccepts(const SecSpec* spec, char c) {
    if (c == '\0') return 0;
    if (spec->conversion == 'c') return 1;
    if (spec->conversion == 's') return !SecIsSpace(c);
    return spec->set[(unsigned char)c];
}

/*
 * Reads a %c, %s or %[ field at *in into dest (size bytes). A field that does not fit (with its
 * terminator, except for %c) leaves dest empty and stops the scan.
 */
static SecScanStop SecReadChars(const char** in, const SecSpec* spec, char* dest, size_t size) {
    size_t width = spec->width != SIZE_MAX ? spec->width : (spec->conversion == 'c' ? 1 : SIZE_MAX);
    size_t room = spec->conversion == 'c' ? size : size - 1;
    size_t n = 0;
    const char* s = *in;
    while (n < width && SecFieldAccepts(spec, s[n])) {
        if (dest != NULL) {
            if (n == room) {
                dest[0] = '\0';
                return SEC_SCAN_MISMATCH;
            }
            dest[n] = s[n];
        }
        ++n;
    }
    if (n == 0) return SEC_SCAN_MISMATCH;
    if (dest != NULL && spec->conversion != 'c') dest[n] = '\0';
    *in = s + n;
    return SEC_SCAN_DONE;
}

/* Takes the (pointer, size) pair of a %c, %s or %[ argument; NULL when either is unusable. */
static char* SecTakeBuffer(va_list* args, size_t* size) {
    char* dest = va_arg(*args, char*);
    /* Only the low 32 bits: callers may pass the size as an unsigned int (libboundscheck too). */
    *size = (size_t)(va_arg(*args, size_t) & 0xffffffffUL);
    if (dest == NULL || *size == 0 || *size > SECUREC_STRING_MAX_LEN) return NULL;
    return dest;
}

/* Runs one conversion at *in. Adds to *assigned what it stores. */
static SecScanStop SecConvert(const char* buffer, const char** in, SecSpec* spec, va_list* args,
                              int* assigned) {
    const char* s = *in;
    void* dest = NULL;
    size_t used;
    unsigned long long value = 0;
    char conversion = spec->conversion;
    if (conversion == 'n') {
        if (!spec->suppress) {
            dest = va_arg(*args, void*);
            if (dest == NULL) return SEC_SCAN_ERROR;
            SecStoreInteger(dest, spec->length, (unsigned long long)(s - buffer));
        }
        return SEC_SCAN_DONE;
    }
    if (conversion != 'c' && conversion != '[') s = SecSkipSpace(s);
    *in = s;
    if (conversion == '%') {
        if (*s == '\0') return SEC_SCAN_EOF;
        if (*s != '%') return SEC_SCAN_MISMATCH;
        *in = s + 1;
        return SEC_SCAN_DONE;
    }
    if (conversion == 'c' || conversion == 's' || conversion == '[') {
        size_t size = 0;
        SecScanStop stop;
        if (spec->length == SEC_LEN_LONG) return SEC_SCAN_ERROR; /* Wide characters: unsupported. */
        if (!spec->suppress && (dest = SecTakeBuffer(args, &size)) == NULL) return SEC_SCAN_ERROR;
        if (*s == '\0') return SEC_SCAN_EOF;
        stop = SecReadChars(in, spec, (char*)dest, size);
        if (stop == SEC_SCAN_DONE && !spec->suppress) ++*assigned;
        return stop;
    }
    if (*s == '\0' && strchr("diouxpaefg", conversion) != NULL) return SEC_SCAN_EOF;
    switch (conversion) {
        case 'd':
            used = SecReadInteger(s, spec->width, 10, 1, &value);
            break;
        case 'i':
            used = SecReadInteger(s, spec->width, 0, 1, &value);
            break;
        case 'u':
            used = SecReadInteger(s, spec->width, 10, 0, &value);
            break;
        case 'o':
            used = SecReadInteger(s, spec->width, 8, 0, &value);
            break;
        case 'x':
        case 'p':
            used = SecReadInteger(s, spec->width, 16, 0, &value);
            break;
        case 'a':
        case 'e':
        case 'f':
        case 'g':
            if (!spec->suppress && (dest = va_arg(*args, void*)) == NULL) return SEC_SCAN_ERROR;
            used = SecReadFloat(s, spec->width, spec->length, !spec->suppress, dest);
            if (used == 0) return SEC_SCAN_MISMATCH;
            *in = s + used;
            if (!spec->suppress) ++*assigned;
            return SEC_SCAN_DONE;
        default:
            return SEC_SCAN_ERROR; /* Not a conversion. */
    }
    if (used == 0) return SEC_SCAN_MISMATCH;
    *in = s + used;
    if (spec->suppress) return SEC_SCAN_DONE;
    dest = va_arg(*args, void*);
    if (dest == NULL) return SEC_SCAN_ERROR;
    if (conversion == 'p') {
        *(void**)dest = (void*)(uintptr_t)value;
    } else {
        SecStoreInteger(dest, spec->length, value);
    }
    ++*assigned;
    return SEC_SCAN_DONE;
}

/*
 * For an empty or oversized buffer: empties the destination of the format's first directive if
 * that is a %s, %c or %[ (libboundscheck does this, so a caller that ignores -1 sees "").
 */
static void SecClearFirstString(const char* format, va_list args) {
    SecSpec spec;
    const char* f = strchr(format, '%');
    char* dest;
    size_t size;
    va_list copy;
    if (f == NULL || SecParseSpec(f + 1, &spec) == NULL || spec.suppress) return;
    if (strchr("cs[", spec.conversion) == NULL || spec.length == SEC_LEN_LONG) return;
    va_copy(copy, args);
    dest = SecTakeBuffer(&copy, &size);
    va_end(copy);
    if (dest != NULL) dest[0] = '\0';
}

int vsscanf_s(const char* buffer, const char* format, va_list argList) {
    const char* in = buffer;
    const char* f = format;
    int assigned = 0;
    int directives =
        0; /* Conversions matched, stored or not: input ending after one is no error. */
    SecScanStop stop = SEC_SCAN_DONE;
    size_t bufferLen;
    va_list args;
    SecSpec spec;
    if (buffer == NULL || format == NULL) return -1;
    bufferLen = SecStrnlen(buffer, (size_t)SECUREC_STRING_MAX_LEN + 1);
    if (bufferLen == 0 || bufferLen > SECUREC_STRING_MAX_LEN) {
        SecClearFirstString(format, argList);
        return -1;
    }
    va_copy(args, argList);
    while (stop == SEC_SCAN_DONE && *f != '\0') {
        if (SecIsSpace(*f)) {
            /* Whitespace in the format matches any amount of it in the input, none included. */
            in = SecSkipSpace(in);
            f = SecSkipSpace(f);
        } else if (*f != '%') {
            if (*in == *f) {
                ++in;
                ++f;
            } else {
                stop = *in == '\0' ? SEC_SCAN_EOF : SEC_SCAN_MISMATCH;
            }
        } else if ((f = SecParseSpec(f + 1, &spec)) == NULL) {
            stop = SEC_SCAN_ERROR;
        } else {
            stop = SecConvert(buffer, &in, &spec, &args, &assigned);
            if (stop == SEC_SCAN_DONE) ++directives;
        }
    }
    va_end(args);
    if (stop == SEC_SCAN_ERROR) return -1;
    if (stop == SEC_SCAN_EOF && assigned == 0 && directives == 0) return -1;
    return assigned;
}

int sscanf_s(const char* buffer, const char* format, ...) {
    int ret;
    va_list argList;
    va_start(argList, format);
    ret = vsscanf_s(buffer, format, argList);
    va_end(argList);
    return ret;
}
