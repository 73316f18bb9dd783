// What a process publishes so that other processes can map its memory (aclrtIpcMemGetExportKey,
// aclrtMemExportToShareableHandle): a small record file in /dev/shm, named from the key, that
// says which memory file of the exporter holds the bytes (its descriptor number, device and inode),
// where, how many, and which processes may import them. An importer reads the record, checks it
// (not revoked, exporter alive, importer allowed), and opens the exporter's memory file through
// /proc/<exporter>/fd/<n>, which the same user may do without ptrace rights. Records die with
// their export: revoked on close, unlinked at exit, and a dead exporter's record is refused and
// removed by whoever meets it first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"

namespace openacl::export_record {

enum class Kind : uint32_t {
    kIpcMemory = 1,  // aclrtIpcMemGetExportKey: part of a device arena
    kPhysical = 2,   // aclrtMemExportToShareableHandle: a physical allocation's whole file
    kIpcEvent = 3,   // aclrtIpcGetEventHandle: an event's shared page (core/shared_page.h)
    kIpcNotify = 4,  // aclrtNotifyGetExportKey: a notify's shared page
};

// What an importer learns from a record.
struct Record {
    Kind kind = Kind::kIpcMemory;
    int32_t exporter_pid = 0;
    int32_t fd = -1;                 // the memory file's descriptor in the exporter
    uint64_t offset = 0;             // of the bytes in that file
    uint64_t size = 0;               // bytes shared
    uint64_t file_size = 0;          // for kPhysical: the file's whole size
    int32_t device_id = 0;           // the exporter's device
    bool check_pid = true;           // false: any process may import (..._DISABLE_PID_VALIDATION)
    uint64_t attr = 0;               // aclrtIpcMemSetAttr's ACCESS_LINK, recorded for the importer
    unsigned char payload[64] = {};  // kind-specific (kPhysical: the aclrtPhysicalMemProp)
};

// The exporter's side of one record. Movable, not copyable; the destructor does not revoke (the
// owner decides when: close, free, finalize).
class Export {
 public:
    Export() = default;
    Export(Export&& other) noexcept;
    Export& operator=(Export&& other) noexcept;
    Export(const Export&) = delete;
    Export& operator=(const Export&) = delete;
    ~Export();

    // Publishes `record` (its pid, fd and inode fields are filled here from `fd`) under `name`.
    // Fails with a message (Fail) when /dev/shm cannot hold it.
    static aclError Create(const std::string& name, Record record, int fd, Export* out);
    bool live() const { return record_fd_ >= 0; }
    const std::string& name() const { return name_; }
    // Adds processes to the allow-list (aclrtIpcMemSetImportPid: the list grows).
    aclError AllowPids(const int32_t* pids, size_t count);
    aclError SetAttr(uint64_t attr);
    // Marks the record revoked and removes it: later imports are refused. Idempotent.
    void Revoke();

 private:
    aclError Rewrite();

    std::string name_;
    int record_fd_ = -1;
    std::vector<unsigned char> header_;  // the record's fixed part, as written
    std::vector<int32_t> pids_;
};

// The importer's side: reads and checks the record `name` (of kind `kind`), then opens the
// exporter's memory file. On success *fd is a new descriptor of that file (the caller closes it).
// Every refusal is a Fail with ACL_ERROR_RT_DRV_INTERNAL_ERROR (what CANN answers when its driver
// refuses a name) and says why: no such record, revoked, exporter gone, not on the allow-list.
// `what` names the thing for messages ("key", "shareable handle").
aclError Open(const std::string& name, Kind kind, const char* what, Record* record, int* fd);

// True when a record named `name` exists and its exporter is alive (for aclrtIpcMemSetAttr on
// the importer's side).
bool Exists(const std::string& name, Kind kind);

// A process's start time (clock ticks since boot), 0 when it has ended: with the pid, it tells a
// live process from a later one that reuses its pid.
uint64_t ProcessStartTime(int32_t pid);

// A name no other live record has, "<prefix><pid>.<serial>.<16 hex digits>", for keys.
std::string NewName(const char* prefix);
// 64 random bits (never 0).
uint64_t RandomBits();

}  // namespace openacl::export_record
