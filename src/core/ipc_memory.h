// IPC memory sharing (aclrtIpcMemGetExportKey, aclrtIpcMemImportByKey, aclrtIpcMemClose, ...):
// one process exports part of an aclrtMalloc allocation under a key, another maps the same pages
// and uses them as device memory. On the CPU backend a device's arena is one memory file
// (backend/cpu/device_arena.h), so exporting publishes where in that file the bytes lie
// (core/export_record.h) and importing maps that part of the file. Imported ranges are device
// memory for every check: ClassifyPointer asks here, and pays nothing while nothing is imported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "acl/acl_rt.h"
#include "core/memory.h"

namespace openacl {
class Device;
}

namespace openacl::ipc {

aclError GetExportKey(void* dev_ptr, size_t size, char* key, size_t len, uint64_t flags);
aclError SetImportPid(const char* key, const int32_t* pids, size_t count);
aclError SetAttr(const char* key, aclrtIpcMemAttrType type, uint64_t attr);
aclError ImportByKey(void** dev_ptr, const char* key, uint64_t flags);
aclError Close(const char* key);

// For ClassifyPointer: true when `p` lies in imported memory; fills the region.
bool Classify(const void* p, MemRegion* region);
// "a 4096-byte range imported by aclrtIpcMemImportByKey(openacl.mem...) from process 12 at
// 0x...", or "".
std::string Describe(const void* p);
// aclrtFree of [base, base + size) on `device`: its exports end (an importer must not map memory
// the exporter reuses), with a warning.
void RevokeExportsIn(const Device* device, uintptr_t base, uint64_t size);
// A device is reset: its exports end and the memory imported onto it is unmapped.
void ReleaseDevice(const Device* device);
// aclFinalize: every export ends and every import is unmapped.
void ReleaseAll();

}  // namespace openacl::ipc
