// Misuse table, events and notifies shared between processes: aclrtIpcGetEventHandle /
// aclrtIpcOpenEventHandle and aclrtNotifyGetExportKey / SetImportPid / ImportByKey.
#include <cstdio>
#include <cstring>

#include "misuse_table.h"

TEST(MisuseTable, IpcEventsAndNotifies) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtEvent ipc_event = nullptr;
    aclrtEvent plain = nullptr;
    ASSERT_EQ(aclrtCreateEventExWithFlag(&ipc_event, ACL_EVENT_IPC), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventExWithFlag(&plain, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclrtIpcEventHandle handle{};
    ASSERT_EQ(aclrtIpcGetEventHandle(ipc_event, &handle), ACL_SUCCESS);
    aclrtIpcEventHandle empty{};
    aclrtIpcEventHandle unknown{};
    std::snprintf(unknown.reserved, sizeof unknown.reserved, "openacl.event.1.1.0123456789abcdef");
    aclrtIpcEventHandle unterminated{};
    std::memset(unterminated.reserved, 'a', sizeof unterminated.reserved);
    aclrtEvent out = nullptr;
    aclrtEvent made = nullptr;
    uint32_t id = 0;
    uint64_t stamp = 0;

    aclrtNotify notify = nullptr;
    aclrtNotify fresh = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateNotify(&fresh, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
    char key[65] = {};
    ASSERT_EQ(aclrtNotifyGetExportKey(notify, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT),
              ACL_SUCCESS);
    char open_key[65] = {};
    ASSERT_EQ(aclrtNotifyGetExportKey(fresh, open_key, sizeof open_key,
                                      ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION),
              ACL_SUCCESS);
    aclrtNotify imported = nullptr;
    ASSERT_EQ(aclrtNotifyImportByKey(&imported, open_key, ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT),
              ACL_SUCCESS);
    aclrtNotify unexported = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&unexported, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
    const char* unknown_key = "openacl.notify.1.1.0123456789abcdef";
    int32_t pid = 1;
    int32_t bad_pid = 0;
    aclrtNotify out_notify = nullptr;

    const std::vector<MisuseRow> rows = {
        {"aclrtCreateEventExWithFlag(ACL_EVENT_IPC | ACL_EVENT_SYNC)",
         [&] { return aclrtCreateEventExWithFlag(&made, ACL_EVENT_IPC | ACL_EVENT_SYNC); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateEventWithFlag(ACL_EVENT_IPC)",
         [&] { return aclrtCreateEventWithFlag(&made, ACL_EVENT_IPC); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcGetEventHandle(NULL event)",
         [&] { return aclrtIpcGetEventHandle(nullptr, &handle); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcGetEventHandle(NULL handle)",
         [&] { return aclrtIpcGetEventHandle(ipc_event, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcGetEventHandle(an event without ACL_EVENT_IPC)",
         [&] { return aclrtIpcGetEventHandle(plain, &handle); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcOpenEventHandle(NULL event)",
         [&] { return aclrtIpcOpenEventHandle(handle, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcOpenEventHandle(an empty handle)",
         [&] { return aclrtIpcOpenEventHandle(empty, &out); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcOpenEventHandle(a handle without its terminator)",
         [&] { return aclrtIpcOpenEventHandle(unterminated, &out); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtIpcOpenEventHandle(a handle no process made)",
         [&] { return aclrtIpcOpenEventHandle(unknown, &out); }, ACL_ERROR_RT_DRV_INTERNAL_ERROR},
        {"aclrtGetEventId(an IPC event)", [&] { return aclrtGetEventId(ipc_event, &id); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtEventGetTimestamp(an IPC event)",
         [&] { return aclrtEventGetTimestamp(ipc_event, &stamp); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyGetExportKey(NULL notify)",
         [&] { return aclrtNotifyGetExportKey(nullptr, key, sizeof key, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyGetExportKey(NULL key)",
         [&] { return aclrtNotifyGetExportKey(notify, nullptr, sizeof key, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyGetExportKey(len 64)",
         [&] { return aclrtNotifyGetExportKey(notify, key, 64, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyGetExportKey(flags 1)",
         [&] { return aclrtNotifyGetExportKey(notify, key, sizeof key, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyGetExportKey(an imported notify)",
         [&] { return aclrtNotifyGetExportKey(imported, key, sizeof key, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifySetImportPid(NULL notify)",
         [&] { return aclrtNotifySetImportPid(nullptr, &pid, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifySetImportPid(NULL pid)",
         [&] { return aclrtNotifySetImportPid(notify, nullptr, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifySetImportPid(num 0)", [&] { return aclrtNotifySetImportPid(notify, &pid, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifySetImportPid(pid 0)",
         [&] { return aclrtNotifySetImportPid(notify, &bad_pid, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifySetImportPid(a notify never exported)",
         [&] { return aclrtNotifySetImportPid(unexported, &pid, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyImportByKey(NULL notify)",
         [&] { return aclrtNotifyImportByKey(nullptr, open_key, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyImportByKey(NULL key)",
         [&] { return aclrtNotifyImportByKey(&out_notify, nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyImportByKey(empty key)",
         [&] { return aclrtNotifyImportByKey(&out_notify, "", 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyImportByKey(flags 1)",
         [&] { return aclrtNotifyImportByKey(&out_notify, open_key, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtNotifyImportByKey(unknown key)",
         [&] { return aclrtNotifyImportByKey(&out_notify, unknown_key, 0); },
         ACL_ERROR_RT_DRV_INTERNAL_ERROR},
        {"aclrtNotifyImportByKey(not on the allow-list)",
         [&] { return aclrtNotifyImportByKey(&out_notify, key, 0); },
         ACL_ERROR_RT_DRV_INTERNAL_ERROR},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtDestroyNotify(imported), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyNotify(unexported), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyNotify(fresh), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyNotify(notify), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(plain), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(ipc_event), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}
