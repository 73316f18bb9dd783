// Misuse table, memory shared between processes: IPC memory keys (aclrtIpcMem*) and shareable
// handles of physical memory (aclrtMem*ShareableHandle*).
#include "misuse_table.h"

TEST(MisuseTable, IpcMemory) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    char key[ACL_IPC_HANDLE_SIZE] = {};
    ASSERT_EQ(aclrtIpcMemGetExportKey(dev, 4096, key, sizeof key, 0), ACL_SUCCESS);
    const char* unknown = "openacl.mem.1.1.0123456789abcdef";
    int local = 0;
    int32_t pid = 1;
    int32_t bad_pid = 0;
    void* out = nullptr;

    const std::vector<MisuseRow> rows = {
        {"aclrtIpcMemGetExportKey(NULL devPtr)",
         [&] { return aclrtIpcMemGetExportKey(nullptr, 4096, key, sizeof key, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemGetExportKey(NULL key)",
         [&] { return aclrtIpcMemGetExportKey(dev, 4096, nullptr, sizeof key, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemGetExportKey(size 0)",
         [&] { return aclrtIpcMemGetExportKey(dev, 0, key, sizeof key, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemGetExportKey(len 64)",
         [&] { return aclrtIpcMemGetExportKey(dev, 4096, key, 64, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemGetExportKey(flags 2)",
         [&] { return aclrtIpcMemGetExportKey(dev, 4096, key, sizeof key, 2); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemGetExportKey(host memory)",
         [&] { return aclrtIpcMemGetExportKey(&local, sizeof local, key, sizeof key, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemGetExportKey(past the allocation)",
         [&] { return aclrtIpcMemGetExportKey(dev, 8192, key, sizeof key, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemSetImportPid(NULL key)",
         [&] { return aclrtIpcMemSetImportPid(nullptr, &pid, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemSetImportPid(NULL pid)",
         [&] { return aclrtIpcMemSetImportPid(key, nullptr, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemSetImportPid(num 0)", [&] { return aclrtIpcMemSetImportPid(key, &pid, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemSetImportPid(pid 0)",
         [&] { return aclrtIpcMemSetImportPid(key, &bad_pid, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemSetImportPid(a key not exported here)",
         [&] { return aclrtIpcMemSetImportPid(unknown, &pid, 1); },
         ACL_ERROR_RT_DRV_INTERNAL_ERROR},
        {"aclrtIpcMemSetAttr(NULL key)",
         [&] { return aclrtIpcMemSetAttr(nullptr, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemSetAttr(type 7)",
         [&] { return aclrtIpcMemSetAttr(key, static_cast<aclrtIpcMemAttrType>(7), 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemSetAttr(on Atlas A2)",
         [&] { return aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtIpcMemImportByKey(NULL devPtr)",
         [&] { return aclrtIpcMemImportByKey(nullptr, key, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemImportByKey(NULL key)",
         [&] { return aclrtIpcMemImportByKey(&out, nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemImportByKey(empty key)", [&] { return aclrtIpcMemImportByKey(&out, "", 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemImportByKey(flags 2)", [&] { return aclrtIpcMemImportByKey(&out, key, 2); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemImportByKey(unknown key)",
         [&] { return aclrtIpcMemImportByKey(&out, unknown, 0); }, ACL_ERROR_RT_DRV_INTERNAL_ERROR},
        {"aclrtIpcMemImportByKey(not on the allow-list)",
         [&] { return aclrtIpcMemImportByKey(&out, key, 0); }, ACL_ERROR_RT_DRV_INTERNAL_ERROR},
        {"aclrtIpcMemClose(NULL key)", [&] { return aclrtIpcMemClose(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcMemClose(unknown key)", [&] { return aclrtIpcMemClose(unknown); },
         ACL_ERROR_RT_DRV_INTERNAL_ERROR},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST(MisuseTable, ShareableHandle) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    constexpr size_t kTwoMiB = size_t{2} << 20;
    aclrtPhysicalMemProp prop{};
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    aclrtPhysicalMemProp host = prop;
    host.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    aclrtDrvMemHandle handle = nullptr, host_handle = nullptr, out = nullptr;
    ASSERT_EQ(aclrtMallocPhysical(&handle, kTwoMiB, &prop, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtMallocPhysical(&host_handle, kTwoMiB, &host, 0), ACL_SUCCESS);
    uint64_t shareable = 0, other = 0;
    ASSERT_EQ(aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable),
              ACL_SUCCESS);
    const uint64_t unknown = 0x0000000100000003ULL;
    int32_t pid = 1;
    int32_t bad_pid = -4;
    const auto bad_type = static_cast<aclrtMemSharedHandleType>(9);
    aclrtMemFabricHandle fabric{};

    const std::vector<MisuseRow> rows = {
        {"aclrtMemExportToShareableHandle(NULL handle)",
         [&] {
             return aclrtMemExportToShareableHandle(nullptr, ACL_MEM_HANDLE_TYPE_NONE, 0, &other);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemExportToShareableHandle(NULL out)",
         [&] {
             return aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 0, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemExportToShareableHandle(handleType POSIX)",
         [&] {
             return aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_POSIX, 0, &other);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemExportToShareableHandle(flags 2)",
         [&] {
             return aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 2, &other);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemExportToShareableHandle(exported already)",
         [&] {
             return aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 0, &other);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemExportToShareableHandle(host physical memory)",
         [&] {
             return aclrtMemExportToShareableHandle(host_handle, ACL_MEM_HANDLE_TYPE_NONE, 0,
                                                    &other);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemExportToShareableHandleV2(shareType 9)",
         [&] { return aclrtMemExportToShareableHandleV2(handle, 0, bad_type, &other); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemExportToShareableHandleV2(fabric on Atlas A2)",
         [&] {
             return aclrtMemExportToShareableHandleV2(handle, 0, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC,
                                                      &fabric);
         },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtMemSetPidToShareableHandle(NULL pid)",
         [&] { return aclrtMemSetPidToShareableHandle(shareable, nullptr, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemSetPidToShareableHandle(pidNum 0)",
         [&] { return aclrtMemSetPidToShareableHandle(shareable, &pid, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemSetPidToShareableHandle(pid -4)",
         [&] { return aclrtMemSetPidToShareableHandle(shareable, &bad_pid, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemSetPidToShareableHandle(not exported here)",
         [&] { return aclrtMemSetPidToShareableHandle(unknown, &pid, 1); },
         ACL_ERROR_RT_DRV_INTERNAL_ERROR},
        {"aclrtMemSetPidToShareableHandleV2(NULL handle)",
         [&] {
             return aclrtMemSetPidToShareableHandleV2(nullptr, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT,
                                                      &pid, 1);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemSetPidToShareableHandleV2(shareType 9)",
         [&] { return aclrtMemSetPidToShareableHandleV2(&shareable, bad_type, &pid, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemImportFromShareableHandle(NULL handle)",
         [&] { return aclrtMemImportFromShareableHandle(unknown, 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemImportFromShareableHandle(device 64)",
         [&] { return aclrtMemImportFromShareableHandle(unknown, 64, &out); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemImportFromShareableHandle(exported by this process)",
         [&] { return aclrtMemImportFromShareableHandle(shareable, 0, &out); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemImportFromShareableHandle(unknown)",
         [&] { return aclrtMemImportFromShareableHandle(unknown, 0, &out); },
         ACL_ERROR_RT_DRV_INTERNAL_ERROR},
        {"aclrtMemImportFromShareableHandleV2(NULL shareable)",
         [&] {
             return aclrtMemImportFromShareableHandleV2(nullptr, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT,
                                                        0, &out);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemImportFromShareableHandleV2(flags 1)",
         [&] {
             return aclrtMemImportFromShareableHandleV2(&other, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT,
                                                        1, &out);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemImportFromShareableHandleV2(fabric on Atlas A2)",
         [&] {
             return aclrtMemImportFromShareableHandleV2(&fabric, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC,
                                                        0, &out);
         },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtFreePhysical(handle), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreePhysical(host_handle), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}
