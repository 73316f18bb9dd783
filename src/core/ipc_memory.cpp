#include "core/ipc_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>

#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/export_record.h"
#include "core/runtime.h"

namespace openacl::ipc {

namespace {

// Every key starts with this; what follows is the exporter's pid, a serial and 64 random bits,
// so a key cannot be guessed by a process it was not given to.
constexpr char kKeyPrefix[] = "openacl.mem.";
// A key's buffer, its terminating null included (ACL_IPC_HANDLE_SIZE).
constexpr size_t kKeySize = ACL_IPC_HANDLE_SIZE;

struct Exported {
    const Device* device = nullptr;
    uintptr_t address = 0;  // what the exporter passed
    uint64_t size = 0;
    export_record::Export record;
};

struct Imported {
    std::string key;
    void* mapping = nullptr;  // page-aligned, what munmap takes
    uint64_t mapping_size = 0;
    uintptr_t address = 0;  // what the importer got
    uint64_t size = 0;
    Device* device = nullptr;
    int32_t exporter_pid = 0;
    uint32_t refs = 1;  // each aclrtIpcMemImportByKey of the key needs its aclrtIpcMemClose
};

struct State {
    std::shared_mutex mutex;
    std::map<std::string, Exported> exports;                 // by key
    std::map<uintptr_t, std::unique_ptr<Imported>> imports;  // by address
    std::map<std::string, Imported*> imports_by_key;
    std::atomic<size_t> export_count{0};
    std::atomic<size_t> import_count{0};
};

State& Ipc() {
    static State* state = new State;  // outlives static destructors: exit paths use it
    return *state;
}

// CANN documents IPC memory for every chip but the Atlas 200I/500 A2 (310B).
aclError RequireChip() {
    const std::string& soc = Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend310B", 0) == 0) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "IPC memory sharing is not available on %s (CANN documents it for every "
                    "chip but the Atlas 200I/500 A2)",
                    soc.c_str());
    }
    return ACL_SUCCESS;
}

// Checks a key argument: present, not empty, ended within ACL_IPC_HANDLE_SIZE bytes.
aclError KeyOf(const char* key, std::string* name) {
    if (key == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "key is null");
    const size_t length = strnlen(key, kKeySize);
    if (length == 0) return Fail(ACL_ERROR_INVALID_PARAM, "key is empty");
    if (length == kKeySize) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "key has no terminating null within %zu bytes (ACL_IPC_HANDLE_SIZE): it is not "
                    "a key of aclrtIpcMemGetExportKey",
                    kKeySize);
    }
    name->assign(key, length);
    return ACL_SUCCESS;
}

// The key's record, for messages and checks: keys this runtime did not make are refused the way
// the driver refuses a name it does not know.
aclError RequireOurKey(const std::string& name) {
    if (name.rfind(kKeyPrefix, 0) == 0) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
                "key '%s' is not a key of aclrtIpcMemGetExportKey (openacl's keys start with "
                "'%s')",
                name.c_str(), kKeyPrefix);
}

// Unmaps an import (state lock held, unique).
void DropImport(State& s, Imported* imported) {
    munmap(imported->mapping, imported->mapping_size);
    s.imports_by_key.erase(imported->key);
    s.imports.erase(imported->address);
    s.import_count.fetch_sub(1, std::memory_order_release);
}

}  // namespace

aclError GetExportKey(void* dev_ptr, size_t size, char* key, size_t len, uint64_t flags) {
    if (dev_ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "devPtr is null");
    if (key == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "key is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
    if (len < kKeySize) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "len %zu is too short: a key takes %zu bytes (ACL_IPC_HANDLE_SIZE)", len,
                    kKeySize);
    }
    if ((flags & ~ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flags 0x%" PRIx64
                    " is not ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT (0) or "
                    "ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION (1)",
                    flags);
    }
    if (aclError rc = RequireChip()) return rc;
    const MemRegion region = ClassifyPointer(dev_ptr);
    if (region.imported) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is in %s: only the process that allocated memory can export it", dev_ptr,
                    Describe(dev_ptr).c_str());
    }
    if (region.vmm && region.domain == MemDomain::kDevice) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is an aclrtMapMem mapping: share its physical memory with "
                    "aclrtMemExportToShareableHandle",
                    dev_ptr);
    }
    if (region.domain != MemDomain::kDevice || region.vmm || region.managed || region.variable) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is not live device memory of aclrtMalloc (it is %s): only that can be "
                    "exported",
                    dev_ptr,
                    region.managed    ? "managed memory"
                    : region.variable ? "a device variable"
                                      : DomainName(region.domain));
    }
    if (const uint64_t left = region.BytesFrom(dev_ptr); size > left) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%zu bytes at %p run past the end of the allocation (%" PRIu64
                    " usable bytes from %p, %" PRIu64 " left)",
                    size, dev_ptr, region.usable, reinterpret_cast<void*>(region.base), left);
    }
    Device* device = region.device;
    int fd = -1;
    uint64_t file_offset = 0;
    if (device->accelerator() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "IPC memory sharing is not supported on the %s backend yet",
                    device->accelerator()->name());
    }
    if (!device->memory().ShareableFile(dev_ptr, &fd, &file_offset)) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "device %d's memory cannot be shared by this process: it was forked (without "
                    "exec) from the process that opened the device, and holds a private copy",
                    device->id());
    }
    export_record::Record record;
    record.kind = export_record::Kind::kIpcMemory;
    record.offset = file_offset;
    record.size = size;
    record.device_id = device->id();
    record.check_pid = (flags & ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) == 0;
    const std::string name = export_record::NewName(kKeyPrefix);
    Exported exported;
    if (aclError rc = export_record::Export::Create(name, record, fd, &exported.record)) return rc;
    exported.device = device;
    exported.address = reinterpret_cast<uintptr_t>(dev_ptr);
    exported.size = size;
    State& s = Ipc();
    {
        std::unique_lock lock(s.mutex);
        s.exports.emplace(name, std::move(exported));
        s.export_count.fetch_add(1, std::memory_order_release);
    }
    std::memcpy(key, name.c_str(), name.size() + 1);
    return ACL_SUCCESS;
}

aclError SetImportPid(const char* key, const int32_t* pids, size_t count) {
    std::string name;
    if (aclError rc = KeyOf(key, &name)) return rc;
    if (pids == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "pid is null");
    if (count == 0) return Fail(ACL_ERROR_INVALID_PARAM, "num must not be 0");
    for (size_t i = 0; i < count; ++i) {
        if (pids[i] <= 0) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "pid[%zu] is %d, not a process id (aclrtDeviceGetBareTgid gives one)", i,
                        pids[i]);
        }
    }
    if (aclError rc = RequireOurKey(name)) return rc;
    State& s = Ipc();
    std::unique_lock lock(s.mutex);
    auto it = s.exports.find(name);
    if (it == s.exports.end()) {
        return Fail(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
                    "key %s is not an open export of this process: the exporter sets the "
                    "allow-list, before closing the key",
                    name.c_str());
    }
    return it->second.record.AllowPids(pids, count);
}

aclError SetAttr(const char* key, aclrtIpcMemAttrType type, uint64_t attr) {
    std::string name;
    if (aclError rc = KeyOf(key, &name)) return rc;
    if (type != ACL_RT_IPC_MEM_ATTR_ACCESS_LINK) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "type %d is not an aclrtIpcMemAttrType (ACL_RT_IPC_MEM_ATTR_ACCESS_LINK)",
                    static_cast<int>(type));
    }
    // The link a range is reached through exists on the Atlas A3 (SIO, HCCS) and the Ascend 950
    // (UB paths) only; openacl records the choice, which one process's memory does not need.
    const std::string& soc = Runtime::Get().config().soc_name;
    uint64_t first = 0, last = 0;
    if (soc.rfind("Ascend910_93", 0) == 0) {
        first = ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO;
        last = ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS;
    } else if (soc.rfind("Ascend950", 0) == 0) {
        first = ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH;
        last = ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH;
    } else {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "IPC memory attributes are not available on %s (CANN documents them for the "
                    "Atlas A3 and the Ascend 950)",
                    soc.c_str());
    }
    if (attr < first || attr > last) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "attr %" PRIu64 " is not an access link of %s (%" PRIu64 " or %" PRIu64 ")",
                    attr, soc.c_str(), first, last);
    }
    if (aclError rc = RequireOurKey(name)) return rc;
    State& s = Ipc();
    std::unique_lock lock(s.mutex);
    auto it = s.exports.find(name);
    if (it != s.exports.end()) return it->second.record.SetAttr(attr);
    if (s.imports_by_key.count(name) != 0 ||
        export_record::Exists(name, export_record::Kind::kIpcMemory)) {
        return ACL_SUCCESS;  // the importer's choice: nothing to route on one host
    }
    return Fail(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
                "key %s names no live export (closed, or its exporter ended?)", name.c_str());
}

aclError ImportByKey(void** dev_ptr, const char* key, uint64_t flags) {
    if (dev_ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "devPtr is null");
    std::string name;
    if (aclError rc = KeyOf(key, &name)) return rc;
    if ((flags & ~ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS) != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flags 0x%" PRIx64
                    " is not ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT (0) or "
                    "ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS (1)",
                    flags);
    }
    if (aclError rc = RequireChip()) return rc;
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    if (aclError bad = RequireOurKey(name)) return bad;
    State& s = Ipc();
    Device* device = nullptr;
    {
        std::unique_lock lock(s.mutex);
        auto known = s.imports_by_key.find(name);
        if (known != s.imports_by_key.end()) {
            // The same key again: the same mapping, closed once per import.
            ++known->second->refs;
            *dev_ptr = reinterpret_cast<void*>(known->second->address);
            return ACL_SUCCESS;
        }
        export_record::Record record;
        int fd = -1;
        if (aclError refused =
                export_record::Open(name, export_record::Kind::kIpcMemory, "key", &record, &fd)) {
            return refused;
        }
        const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
        const uint64_t start = record.offset / page * page;
        const uint64_t delta = record.offset - start;
        const uint64_t length = (delta + record.size + page - 1) / page * page;
        void* mapping = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                             static_cast<off_t>(start));
        const int error = errno;
        close(fd);  // the mapping keeps the exporter's memory alive, even past its exit
        if (mapping == MAP_FAILED) {
            return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                        "cannot map the %" PRIu64 " bytes of key %s: %s", record.size, name.c_str(),
                        std::strerror(error));
        }
        // The memory stays the exporter's device's: the importer's device of that id (or its own
        // device when it sees fewer).
        device = Runtime::Get().DeviceById(record.device_id);
        if (device == nullptr) device = ctx->device();
        auto imported = std::make_unique<Imported>();
        imported->key = name;
        imported->mapping = mapping;
        imported->mapping_size = length;
        imported->address = reinterpret_cast<uintptr_t>(mapping) + delta;
        imported->size = record.size;
        imported->device = device;
        imported->exporter_pid = record.exporter_pid;
        *dev_ptr = reinterpret_cast<void*>(imported->address);
        s.imports_by_key.emplace(name, imported.get());
        s.imports.emplace(imported->address, std::move(imported));
        s.import_count.fetch_add(1, std::memory_order_release);
    }
    if ((flags & ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS) != 0 && device != ctx->device()) {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        ctx->device()->peers.insert(device->id());
    }
    return ACL_SUCCESS;
}

aclError Close(const char* key) {
    std::string name;
    if (aclError rc = KeyOf(key, &name)) return rc;
    if (aclError rc = RequireOurKey(name)) return rc;
    State& s = Ipc();
    std::unique_lock lock(s.mutex);
    // A process that both exported and imported a key closes its import first, as an importer
    // closes before the exporter.
    auto imported = s.imports_by_key.find(name);
    if (imported != s.imports_by_key.end()) {
        if (--imported->second->refs == 0) DropImport(s, imported->second);
        return ACL_SUCCESS;
    }
    auto exported = s.exports.find(name);
    if (exported != s.exports.end()) {
        exported->second.record.Revoke();
        s.exports.erase(exported);
        s.export_count.fetch_sub(1, std::memory_order_release);
        return ACL_SUCCESS;
    }
    return Fail(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
                "key %s is neither exported nor imported by this process (closed already?)",
                name.c_str());
}

bool Classify(const void* p, MemRegion* region) {
    State& s = Ipc();
    if (s.import_count.load(std::memory_order_acquire) == 0) return false;
    const auto address = reinterpret_cast<uintptr_t>(p);
    std::shared_lock lock(s.mutex);
    auto it = s.imports.upper_bound(address);
    if (it == s.imports.begin()) return false;
    --it;
    const Imported& imported = *it->second;
    if (address - imported.address >= imported.size) return false;
    *region = MemRegion{};
    region->domain = MemDomain::kDevice;
    region->device = imported.device;
    region->base = imported.address;
    region->usable = imported.size;
    region->requested = imported.size;
    region->imported = true;
    return true;
}

std::string Describe(const void* p) {
    State& s = Ipc();
    if (s.import_count.load(std::memory_order_acquire) == 0) return "";
    const auto address = reinterpret_cast<uintptr_t>(p);
    std::shared_lock lock(s.mutex);
    auto it = s.imports.upper_bound(address);
    if (it == s.imports.begin()) return "";
    --it;
    const Imported& imported = *it->second;
    if (address - imported.address >= imported.size) return "";
    char text[256];
    std::snprintf(text, sizeof text,
                  "a %" PRIu64
                  "-byte range at %p imported with aclrtIpcMemImportByKey (key %s, from process "
                  "%d, device %d)",
                  imported.size, reinterpret_cast<void*>(imported.address), imported.key.c_str(),
                  imported.exporter_pid, imported.device->id());
    return text;
}

void RevokeExportsIn(const Device* device, uintptr_t base, uint64_t size) {
    State& s = Ipc();
    if (s.export_count.load(std::memory_order_acquire) == 0) return;
    std::unique_lock lock(s.mutex);
    for (auto it = s.exports.begin(); it != s.exports.end();) {
        Exported& e = it->second;
        if (e.device == device && e.address < base + size && base < e.address + e.size) {
            Warn(
                "the allocation at %p was freed while key %s still exported part of it; the key "
                "is closed now (close keys with aclrtIpcMemClose before aclrtFree)",
                reinterpret_cast<void*>(base), it->first.c_str());
            e.record.Revoke();
            it = s.exports.erase(it);
            s.export_count.fetch_sub(1, std::memory_order_release);
        } else {
            ++it;
        }
    }
}

namespace {

// Ends the exports and imports of `device`, or of every device when it is null.
void Release(const Device* device) {
    State& s = Ipc();
    if (s.export_count.load(std::memory_order_acquire) == 0 &&
        s.import_count.load(std::memory_order_acquire) == 0) {
        return;
    }
    std::unique_lock lock(s.mutex);
    for (auto it = s.exports.begin(); it != s.exports.end();) {
        if (device == nullptr || it->second.device == device) {
            it->second.record.Revoke();
            it = s.exports.erase(it);
            s.export_count.fetch_sub(1, std::memory_order_release);
        } else {
            ++it;
        }
    }
    size_t dropped = 0;
    for (auto it = s.imports.begin(); it != s.imports.end();) {
        Imported* imported = (it++)->second.get();
        if (device == nullptr || imported->device == device) {
            DropImport(s, imported);
            ++dropped;
        }
    }
    if (dropped != 0) {
        Warn(
            "%zu range(s) imported with aclrtIpcMemImportByKey were never closed with "
            "aclrtIpcMemClose; they are unmapped now",
            dropped);
    }
}

}  // namespace

void ReleaseDevice(const Device* device) {
    Release(device);
}

void ReleaseAll() {
    Release(nullptr);
}

}  // namespace openacl::ipc
