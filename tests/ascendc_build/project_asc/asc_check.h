// Host-side helpers of the .asc test programs: an AscendCL call that fails ends the program
// with the call, its code and the runtime's message.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"

#define ASC_CHECK(call)                                                                    \
    do {                                                                                   \
        const aclError asc_check_status = (call);                                          \
        if (asc_check_status != ACL_SUCCESS) {                                             \
            std::fprintf(stderr, "%s:%d: %s failed: %d (%s)\n", __FILE__, __LINE__, #call, \
                         static_cast<int>(asc_check_status), aclGetRecentErrMsg());        \
            std::exit(2);                                                                  \
        }                                                                                  \
    } while (0)

// Counts mismatches; prints the first few.
class Mismatches {
 public:
    explicit Mismatches(const char* what) : what_(what) {}
    template <class T>
    void Expect(size_t index, T got, T want) {
        if (got == want) return;
        if (count_++ < 5) {
            std::fprintf(stderr, "%s[%zu]: got %g, want %g\n", what_, index,
                         static_cast<double>(got), static_cast<double>(want));
        }
    }
    int Report() const {
        if (count_ == 0) {
            std::printf("%s: every element matches\n", what_);
            return 0;
        }
        std::fprintf(stderr, "%s: %zu elements differ\n", what_, count_);
        return 1;
    }

 private:
    const char* what_;
    size_t count_ = 0;
};
