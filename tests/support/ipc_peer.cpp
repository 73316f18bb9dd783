// The other process of the inter-process tests (tests/api/test_ipc_memory.cpp,
// test_shareable_handle.cpp, test_ipc_event.cpp, test_ipc_notify.cpp): a program of its own that
// opens device 0 and then obeys one command per line on stdin, answering one line on stdout, so a
// test can drive both sides of a share.
//
//   pid                         -> <pid>
//   malloc <bytes>              -> <rc>        aclrtMalloc the buffer later commands use
//   export <flags>              -> <rc> <key>  aclrtIpcMemGetExportKey of the whole buffer
//   allow <key> <pid>           -> <rc>        aclrtIpcMemSetImportPid
//   import <key> <flags>        -> <rc>        aclrtIpcMemImportByKey; the buffer is now that
//   close <key>                 -> <rc>        aclrtIpcMemClose
//   fill <byte> <bytes>         -> <rc>        aclrtMemset of the buffer's first bytes
//   check <byte> <bytes>        -> <rc> <n>    aclrtMemcpy to the host; n bytes differ from byte
//   physical <bytes> <flags>    -> <rc> <h>    aclrtMallocPhysical + export, mapped as the buffer
//   pallow <h> <pid>            -> <rc>        aclrtMemSetPidToShareableHandle
//   pimport <h> <bytes>         -> <rc>        import + reserve + map: the buffer is now that
//   pfree                       -> <rc>        unmap, release, free the physical handle
//   hold                        -> <rc>        the stream stops at a host task until `release`
//   release                     -> 0           lets the held stream go on
//   sync <ms>                   -> <rc>        aclrtSynchronizeStreamWithTimeout (-1: no limit)
//   evcreate                    -> <rc> <name> an ACL_EVENT_IPC event and its handle's name
//   evopen <name>               -> <rc>        aclrtIpcOpenEventHandle: the event is now that
//   evrecord                    -> <rc>        aclrtRecordEvent on the stream
//   evwait                      -> <rc>        aclrtStreamWaitEvent: the stream waits for it
//   evsync <ms>                 -> <rc>        aclrtSynchronizeEventWithTimeout
//   evquery                     -> <rc> <s>    aclrtQueryEventStatus
//   evdestroy                   -> <rc>        aclrtDestroyEvent
//   ntcreate <flags>            -> <rc> <key>  a notify, exported with aclrtNotifyGetExportKey
//   ntallow <pid>               -> <rc>        aclrtNotifySetImportPid
//   ntimport <key>              -> <rc>        aclrtNotifyImportByKey: the notify is now that
//   ntrecord                    -> <rc>        aclrtRecordNotify on the stream
//   ntwait <s>                  -> <rc>        aclrtWaitAndResetNotify on the stream
//   ntdestroy                   -> <rc>        aclrtDestroyNotify
//   quit                        -> (exits 0 after aclFinalize)
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

void* g_buffer = nullptr;
size_t g_size = 0;  // of the buffer aclrtMalloc gave
aclrtDrvMemHandle g_physical = nullptr;
void* g_reserved = nullptr;
aclrtStream g_stream = nullptr;
aclrtEvent g_event = nullptr;
aclrtNotify g_notify = nullptr;
std::atomic<bool> g_held{false};

void Reply(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void Reply(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    std::vprintf(fmt, args);
    va_end(args);
    std::putchar('\n');
    std::fflush(stdout);
}

aclrtPhysicalMemProp DeviceProp() {
    aclrtPhysicalMemProp prop{};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    return prop;
}

// Maps the physical handle over a new reservation: the buffer.
aclError MapPhysical(size_t bytes) {
    aclError rc = aclrtReserveMemAddress(&g_reserved, bytes, 0, nullptr, 0);
    if (rc == ACL_SUCCESS) rc = aclrtMapMem(g_reserved, bytes, 0, g_physical, 0);
    if (rc == ACL_SUCCESS) g_buffer = g_reserved;
    return rc;
}

}  // namespace

int main() {
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateStream(&g_stream) != ACL_SUCCESS) {
        return 2;
    }
    char line[256];
    while (std::fgets(line, sizeof line, stdin) != nullptr) {
        char command[32] = {}, text[128] = {};
        unsigned long long a = 0, b = 0;
        const int fields = std::sscanf(line, "%31s %127s %llu", command, text, &b);
        const std::string cmd = command;
        a = std::strtoull(text, nullptr, 0);
        if (cmd == "pid") {
            int32_t pid = 0;
            aclrtDeviceGetBareTgid(&pid);
            Reply("%d", pid);
        } else if (cmd == "malloc") {
            g_size = a;
            Reply("%d", aclrtMalloc(&g_buffer, a, ACL_MEM_MALLOC_HUGE_FIRST));
        } else if (cmd == "export") {
            char key[ACL_IPC_HANDLE_SIZE] = {};
            const aclError rc = aclrtIpcMemGetExportKey(g_buffer, g_size, key, sizeof key, a);
            Reply("%d %s", rc, rc == ACL_SUCCESS ? key : "-");
        } else if (cmd == "allow" && fields == 3) {
            int32_t pid = static_cast<int32_t>(b);
            Reply("%d", aclrtIpcMemSetImportPid(text, &pid, 1));
        } else if (cmd == "import" && fields == 3) {
            void* p = nullptr;
            const aclError rc = aclrtIpcMemImportByKey(&p, text, b);
            if (rc == ACL_SUCCESS) g_buffer = p;
            Reply("%d", rc);
        } else if (cmd == "close") {
            Reply("%d", aclrtIpcMemClose(text));
        } else if (cmd == "fill" && fields == 3) {
            Reply("%d", aclrtMemset(g_buffer, b, static_cast<int32_t>(a), b));
        } else if (cmd == "check" && fields == 3) {
            std::vector<unsigned char> host(b);
            const aclError rc = aclrtMemcpy(host.data(), b, g_buffer, b, ACL_MEMCPY_DEVICE_TO_HOST);
            size_t wrong = 0;
            for (unsigned char c : host)
                wrong += c != static_cast<unsigned char>(a);
            Reply("%d %zu", rc, wrong);
        } else if (cmd == "physical" && fields == 3) {
            aclrtPhysicalMemProp prop = DeviceProp();
            aclError rc = aclrtMallocPhysical(&g_physical, a, &prop, 0);
            uint64_t shareable = 0;
            if (rc == ACL_SUCCESS) {
                rc = aclrtMemExportToShareableHandle(g_physical, ACL_MEM_HANDLE_TYPE_NONE, b,
                                                     &shareable);
            }
            if (rc == ACL_SUCCESS) rc = MapPhysical(a);
            Reply("%d %" PRIu64, rc, shareable);
        } else if (cmd == "pallow" && fields == 3) {
            int32_t pid = static_cast<int32_t>(b);
            Reply("%d", aclrtMemSetPidToShareableHandle(a, &pid, 1));
        } else if (cmd == "pimport" && fields == 3) {
            aclError rc = aclrtMemImportFromShareableHandle(a, 0, &g_physical);
            if (rc == ACL_SUCCESS) rc = MapPhysical(b);
            Reply("%d", rc);
        } else if (cmd == "pfree") {
            aclError rc = aclrtUnmapMem(g_reserved);
            if (rc == ACL_SUCCESS) rc = aclrtReleaseMemAddress(g_reserved);
            if (rc == ACL_SUCCESS) rc = aclrtFreePhysical(g_physical);
            Reply("%d", rc);
        } else if (cmd == "hold") {
            g_held = true;
            Reply("%d", aclrtLaunchHostFunc(
                            g_stream,
                            [](void*) {
                                while (g_held)
                                    usleep(1000);
                            },
                            nullptr));
        } else if (cmd == "release") {
            g_held = false;
            Reply("0");
        } else if (cmd == "sync") {
            Reply("%d", aclrtSynchronizeStreamWithTimeout(g_stream, std::atoi(text)));
        } else if (cmd == "evcreate") {
            aclrtIpcEventHandle handle{};
            aclError rc = aclrtCreateEventExWithFlag(&g_event, ACL_EVENT_IPC);
            if (rc == ACL_SUCCESS) rc = aclrtIpcGetEventHandle(g_event, &handle);
            Reply("%d %s", rc, rc == ACL_SUCCESS ? handle.reserved : "-");
        } else if (cmd == "evopen") {
            aclrtIpcEventHandle handle{};
            std::memcpy(handle.reserved, text,
                        std::min(std::strlen(text), sizeof handle.reserved - 1));
            Reply("%d", aclrtIpcOpenEventHandle(handle, &g_event));
        } else if (cmd == "evrecord") {
            Reply("%d", aclrtRecordEvent(g_event, g_stream));
        } else if (cmd == "evwait") {
            Reply("%d", aclrtStreamWaitEvent(g_stream, g_event));
        } else if (cmd == "evsync") {
            Reply("%d", aclrtSynchronizeEventWithTimeout(g_event, std::atoi(text)));
        } else if (cmd == "evquery") {
            aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
            const aclError rc = aclrtQueryEventStatus(g_event, &status);
            Reply("%d %d", rc, static_cast<int>(status));
        } else if (cmd == "evdestroy") {
            Reply("%d", aclrtDestroyEvent(g_event));
        } else if (cmd == "ntcreate") {
            char key[65] = {};
            aclError rc = aclrtCreateNotify(&g_notify, ACL_NOTIFY_DEFAULT);
            if (rc == ACL_SUCCESS) rc = aclrtNotifyGetExportKey(g_notify, key, sizeof key, a);
            Reply("%d %s", rc, rc == ACL_SUCCESS ? key : "-");
        } else if (cmd == "ntallow") {
            int32_t pid = static_cast<int32_t>(a);
            Reply("%d", aclrtNotifySetImportPid(g_notify, &pid, 1));
        } else if (cmd == "ntimport") {
            Reply("%d", aclrtNotifyImportByKey(&g_notify, text, 0));
        } else if (cmd == "ntrecord") {
            Reply("%d", aclrtRecordNotify(g_notify, g_stream));
        } else if (cmd == "ntwait") {
            Reply("%d", aclrtWaitAndResetNotify(g_notify, g_stream, static_cast<uint32_t>(a)));
        } else if (cmd == "ntdestroy") {
            Reply("%d", aclrtDestroyNotify(g_notify));
        } else if (cmd == "quit") {
            break;
        } else {
            Reply("? %s", line);
        }
    }
    g_held = false;
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
