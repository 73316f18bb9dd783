// Misuse table, external allocators (acl_rt_allocator.h).
#include "misuse_table.h"

TEST(MisuseTable, ExternalAllocators) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    // Made before the destroyed one dies, so they cannot share an address.
    aclrtAllocatorDesc empty = aclrtAllocatorCreateDesc();
    aclrtAllocatorDesc destroyed = aclrtAllocatorCreateDesc();
    ASSERT_EQ(aclrtAllocatorDestroyDesc(destroyed), ACL_SUCCESS);
    int object = 0;
    aclrtAllocatorAllocFunc alloc = [](aclrtAllocator, size_t) -> aclrtAllocatorBlock {
        return nullptr;
    };
    aclrtAllocatorFreeFunc free_func = [](aclrtAllocator, aclrtAllocatorBlock) {};
    aclrtAllocatorAllocAdviseFunc advise =
        [](aclrtAllocator, size_t, aclrtAllocatorAddr) -> aclrtAllocatorBlock { return nullptr; };
    aclrtAllocatorGetAddrFromBlockFunc addr = [](aclrtAllocatorBlock b) -> aclrtAllocatorAddr {
        return b;
    };
    aclrtAllocatorDesc d = nullptr;
    aclrtAllocator o = nullptr;
    aclrtAllocatorAllocFunc a = nullptr;
    aclrtAllocatorFreeFunc f = nullptr;
    aclrtAllocatorAllocAdviseFunc v = nullptr;
    aclrtAllocatorGetAddrFromBlockFunc g = nullptr;
    int not_a_stream = 0;

    const std::vector<MisuseRow> rows = {
        {"aclrtAllocatorDestroyDesc(NULL)", [&] { return aclrtAllocatorDestroyDesc(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorDestroyDesc(destroyed)",
         [&] { return aclrtAllocatorDestroyDesc(destroyed); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorSetObjToDesc(NULL, obj)",
         [&] { return aclrtAllocatorSetObjToDesc(nullptr, &object); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorSetObjToDesc(desc, NULL)",
         [&] { return aclrtAllocatorSetObjToDesc(empty, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorSetAllocFuncToDesc(destroyed, fn)",
         [&] { return aclrtAllocatorSetAllocFuncToDesc(destroyed, alloc); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorSetFreeFuncToDesc(NULL, fn)",
         [&] { return aclrtAllocatorSetFreeFuncToDesc(nullptr, free_func); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorSetAllocAdviseFuncToDesc(NULL, fn)",
         [&] { return aclrtAllocatorSetAllocAdviseFuncToDesc(nullptr, advise); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorSetGetAddrFromBlockFuncToDesc(NULL, fn)",
         [&] { return aclrtAllocatorSetGetAddrFromBlockFuncToDesc(nullptr, addr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorRegister(NULL stream, desc without functions)",
         [&] { return aclrtAllocatorRegister(nullptr, empty); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorRegister(NULL stream, destroyed)",
         [&] { return aclrtAllocatorRegister(nullptr, destroyed); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorGetByStream(NULL stream, NULL outputs)",
         [&] { return aclrtAllocatorGetByStream(nullptr, nullptr, &o, &a, &f, &v, &g); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorGetByStream(not a stream, ...)",
         [&] { return aclrtAllocatorGetByStream(&not_a_stream, &d, &o, &a, &f, &v, &g); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtAllocatorUnregister(not a stream)",
         [&] { return aclrtAllocatorUnregister(&not_a_stream); }, ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtAllocatorDestroyDesc(empty);
    aclrtResetDeviceForce(0);
}
