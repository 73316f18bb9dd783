/* Runs the value checks of every header's ABI test. Most checks are _Static_asserts, so a
 * wrong value already fails the build; codes declared as `static const` are compared here at
 * run time. Each *_abi_checks() returns its number of checks, or minus its mismatches. */
#include <stdio.h>

#define ABI_TESTS(X)                                                                        \
    X(acl_abi) X(acl_base_abi) X(acl_base_mdl_abi) X(acl_base_rt_abi) X(acl_cblas_abi)      \
    X(acl_dump_abi) X(acl_dvpp_abi) X(acl_mdl_abi) X(acl_op_abi) X(acl_prof_abi)            \
    X(acl_rt_abi) X(acl_rt_allocator_abi) X(ge_error_codes_abi) X(rt_error_codes_abi)

#define DECLARE(name) int name##_checks(void);
ABI_TESTS(DECLARE)

int main(void) {
    int passed = 0, failed = 0;
#define RUN(name)                                                        \
    {                                                                    \
        int n = name##_checks();                                         \
        if (n > 0) {                                                     \
            ++passed;                                                    \
            printf("[ OK ] %-24s %d checks\n", #name, n);                \
        } else {                                                         \
            ++failed;                                                    \
            printf("[FAIL] %-24s %d mismatches\n", #name, -n);           \
        }                                                                \
    }
    ABI_TESTS(RUN)
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
