/*
 * openacl ABI checks for acl/acl_rt_allocator.h. The header defines no numeric
 * values; these checks pin the callback and handle types (all pointer sized)
 * and the exact C types of the ten functions.
 */
#include <stddef.h>

#include "acl/acl_rt_allocator.h"

/* Callback and handle types. */
_Static_assert(sizeof(aclrtAllocatorAllocFunc) == sizeof(void*), "aclrtAllocatorAllocFunc");
_Static_assert(sizeof(aclrtAllocatorFreeFunc) == sizeof(void*), "aclrtAllocatorFreeFunc");
_Static_assert(sizeof(aclrtAllocatorAllocAdviseFunc) == sizeof(void*),
               "aclrtAllocatorAllocAdviseFunc");
_Static_assert(sizeof(aclrtAllocatorGetAddrFromBlockFunc) == sizeof(void*),
               "aclrtAllocatorGetAddrFromBlockFunc");
_Static_assert(sizeof(aclrtAllocatorDesc) == sizeof(void*), "aclrtAllocatorDesc");
_Static_assert(sizeof(aclrtAllocator) == sizeof(void*), "aclrtAllocator");
_Static_assert(sizeof(aclrtAllocatorBlock) == sizeof(void*), "aclrtAllocatorBlock");
_Static_assert(sizeof(aclrtAllocatorAddr) == sizeof(void*), "aclrtAllocatorAddr");

/* Function types (Appendix E signatures). */
#define ACL_ABI_FN_TYPE_IS(fn, type) _Generic(&(fn), type : 1, default : 0)

_Static_assert(ACL_ABI_FN_TYPE_IS(aclrtAllocatorCreateDesc, aclrtAllocatorDesc (*)(void)),
               "aclrtAllocatorCreateDesc");
_Static_assert(ACL_ABI_FN_TYPE_IS(aclrtAllocatorDestroyDesc, aclError (*)(aclrtAllocatorDesc)),
               "aclrtAllocatorDestroyDesc");
_Static_assert(ACL_ABI_FN_TYPE_IS(aclrtAllocatorSetObjToDesc,
                                  aclError (*)(aclrtAllocatorDesc, aclrtAllocator)),
               "aclrtAllocatorSetObjToDesc");
_Static_assert(ACL_ABI_FN_TYPE_IS(aclrtAllocatorSetAllocFuncToDesc,
                                  aclError (*)(aclrtAllocatorDesc, aclrtAllocatorAllocFunc)),
               "aclrtAllocatorSetAllocFuncToDesc");
_Static_assert(ACL_ABI_FN_TYPE_IS(aclrtAllocatorSetFreeFuncToDesc,
                                  aclError (*)(aclrtAllocatorDesc, aclrtAllocatorFreeFunc)),
               "aclrtAllocatorSetFreeFuncToDesc");
_Static_assert(ACL_ABI_FN_TYPE_IS(aclrtAllocatorSetAllocAdviseFuncToDesc,
                                  aclError (*)(aclrtAllocatorDesc, aclrtAllocatorAllocAdviseFunc)),
               "aclrtAllocatorSetAllocAdviseFuncToDesc");
_Static_assert(ACL_ABI_FN_TYPE_IS(aclrtAllocatorSetGetAddrFromBlockFuncToDesc,
                                  aclError (*)(aclrtAllocatorDesc,
                                               aclrtAllocatorGetAddrFromBlockFunc)),
               "aclrtAllocatorSetGetAddrFromBlockFuncToDesc");
_Static_assert(ACL_ABI_FN_TYPE_IS(aclrtAllocatorRegister,
                                  aclError (*)(aclrtStream, aclrtAllocatorDesc)),
               "aclrtAllocatorRegister");
_Static_assert(ACL_ABI_FN_TYPE_IS(aclrtAllocatorGetByStream,
                                  aclError (*)(aclrtStream, aclrtAllocatorDesc*, aclrtAllocator*,
                                               aclrtAllocatorAllocFunc*, aclrtAllocatorFreeFunc*,
                                               aclrtAllocatorAllocAdviseFunc*,
                                               aclrtAllocatorGetAddrFromBlockFunc*)),
               "aclrtAllocatorGetByStream");
_Static_assert(ACL_ABI_FN_TYPE_IS(aclrtAllocatorUnregister, aclError (*)(aclrtStream)),
               "aclrtAllocatorUnregister");

// clang-format off
int acl_rt_allocator_abi_checks(void) { return 18; }
// clang-format on
