// Data dumps: aclmdlInitDump / SetDump / FinalizeDump and acl_dump.h (core/dump.h decides
// where and what is written).
#include "core/dump.h"

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "core/error.h"

namespace dump = openacl::dump;

aclError aclmdlInitDump(void) {
    OPENACL_API();
    return dump::InitDump();
}

aclError aclmdlSetDump(const char* dumpCfgPath) {
    OPENACL_API();
    return dump::SetDump(dumpCfgPath);
}

aclError aclmdlFinalizeDump(void) {
    OPENACL_API();
    return dump::FinalizeDump();
}

aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk*, int32_t),
                            int32_t flag) {
    OPENACL_API();
    return dump::RegisterCallback(messageCallback, flag);
}

void acldumpUnregCallback(void) {
    OPENACL_API();
    dump::UnregisterCallback();
}

const char* acldumpGetPath(acldumpType dumpType) {
    OPENACL_API();
    return dump::PathOf(dumpType);
}

aclError aclopStartDumpArgs(uint32_t dumpType, const char* path) {
    OPENACL_API();
    return dump::StartOpArgs(dumpType, path);
}

aclError aclopStopDumpArgs(uint32_t dumpType) {
    OPENACL_API();
    return dump::StopOpArgs(dumpType);
}

aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag,
                                  const acldumpTensorInfo* tensors, size_t tensorCount) {
    OPENACL_API();
    return dump::SaveExceptionInfo(fileName, userTag, tensors, tensorCount);
}

aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen) {
    OPENACL_API();
    return dump::ExceptionInfoPath(path, maxLen);
}
