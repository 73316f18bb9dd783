// IPC memory sharing: export part of an aclrtMalloc allocation under a key, import it in another
// process, close either side (core/ipc_memory.h).
#include "core/ipc_memory.h"
#include "acl/acl.h"
#include "core/error.h"

namespace ipc = openacl::ipc;

aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags) {
    OPENACL_API();
    return ipc::GetExportKey(devPtr, size, key, len, flags);
}

aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num) {
    OPENACL_API();
    return ipc::SetImportPid(key, pid, num);
}

aclError aclrtIpcMemSetAttr(const char* key, aclrtIpcMemAttrType type, uint64_t attr) {
    OPENACL_API();
    return ipc::SetAttr(key, type, attr);
}

aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags) {
    OPENACL_API();
    return ipc::ImportByKey(devPtr, key, flags);
}

aclError aclrtIpcMemClose(const char* key) {
    OPENACL_API();
    return ipc::Close(key);
}
