/* Runs the value checks of every header's ABI test. Most checks are _Static_asserts, so a
 * wrong value already fails the build; codes declared as `static const` are compared here at
 * run time. Each *_abi_checks() returns its number of checks, or minus its mismatches. */
#include <stdio.h>

int acl_abi_checks(void);
int acl_base_abi_checks(void);
int acl_base_mdl_abi_checks(void);
int acl_base_rt_abi_checks(void);
int acl_cblas_abi_checks(void);
int acl_dump_abi_checks(void);
int acl_dvpp_abi_checks(void);
int acl_mdl_abi_checks(void);
int acl_op_abi_checks(void);
int acl_op_compiler_abi_checks(void);
int acl_prof_abi_checks(void);
int acl_rt_abi_checks(void);
int acl_rt_allocator_abi_checks(void);
int acl_tdt_abi_checks(void);
int acl_tdt_queue_abi_checks(void);
int ge_error_codes_abi_checks(void);
int rt_error_codes_abi_checks(void);
int ms_tools_ext_abi_checks(void);

static const struct {
    const char* name;
    int (*checks)(void);
} kTests[] = {
    {"acl.h", acl_abi_checks},
    {"acl_base.h", acl_base_abi_checks},
    {"acl_base_mdl.h", acl_base_mdl_abi_checks},
    {"acl_base_rt.h", acl_base_rt_abi_checks},
    {"ops/acl_cblas.h", acl_cblas_abi_checks},
    {"acl_dump.h", acl_dump_abi_checks},
    {"ops/acl_dvpp.h", acl_dvpp_abi_checks},
    {"acl_mdl.h", acl_mdl_abi_checks},
    {"acl_op.h", acl_op_abi_checks},
    {"acl_op_compiler.h", acl_op_compiler_abi_checks},
    {"acl_prof.h", acl_prof_abi_checks},
    {"acl_rt.h", acl_rt_abi_checks},
    {"acl_rt_allocator.h", acl_rt_allocator_abi_checks},
    {"acl_tdt.h", acl_tdt_abi_checks},
    {"acl_tdt_queue.h", acl_tdt_queue_abi_checks},
    {"ge_error_codes.h", ge_error_codes_abi_checks},
    {"rt_error_codes.h", rt_error_codes_abi_checks},
    {"mstx/ms_tools_ext.h", ms_tools_ext_abi_checks},
};

int main(void) {
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof kTests / sizeof kTests[0]; ++i) {
        int n = kTests[i].checks();
        if (n > 0) {
            ++passed;
            printf("[ OK ] %-20s %d checks\n", kTests[i].name, n);
        } else {
            ++failed;
            printf("[FAIL] %-20s %d mismatches\n", kTests[i].name, -n);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
