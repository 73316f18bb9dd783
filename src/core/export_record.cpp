#include "core/export_record.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "acl/acl_rt.h"
#include "core/error.h"

namespace openacl::export_record {

namespace {

constexpr char kDirectory[] = "/dev/shm/";
constexpr char kMagic[8] = {'O', 'A', 'C', 'L', 'E', 'X', 'P', '1'};
// What every record file name starts with; the stale-record sweep looks at these only.
constexpr char kNamePrefix[] = "openacl.";

// The record's fixed part, as stored; the allow-list's pids follow it.
struct FileHeader {
    char magic[8];
    uint32_t kind;
    uint32_t revoked;
    int32_t exporter_pid;
    int32_t fd;
    uint64_t exporter_start;  // the exporter's start time: a reused pid is not the exporter
    uint64_t file_dev;        // the memory file, so a reused descriptor number is not taken
    uint64_t file_ino;        // for it
    uint64_t offset;
    uint64_t size;
    uint64_t file_size;
    int32_t device_id;
    uint32_t check_pid;
    uint64_t attr;
    uint32_t pid_count;
    uint32_t reserved;
    unsigned char payload[64];
};
static_assert(sizeof(FileHeader) == 160, "the record layout is fixed");

std::string PathOf(const std::string& name) {
    return std::string(kDirectory) + name;
}

}  // namespace

// Field 22 of /proc/<pid>/stat; 0 when the process does not exist or is a zombie (its
// descriptors are gone already).
uint64_t ProcessStartTime(int32_t pid) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[1024];
    const ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return 0;
    text[n] = '\0';
    const char* p = std::strrchr(text, ')');  // the command name may hold spaces and parentheses
    if (p == nullptr || p[1] != ' ') return 0;
    p += 2;
    if (*p == 'Z' || *p == 'X') return 0;
    for (int field = 3; field < 22 && *p != '\0'; ++p) {
        if (*p == ' ') ++field;
    }
    return std::strtoull(p, nullptr, 10);
}

namespace {

bool ReadExact(int fd, void* data, size_t size, off_t offset) {
    return pread(fd, data, size, offset) == static_cast<ssize_t>(size);
}

bool WriteExact(int fd, const void* data, size_t size, off_t offset) {
    return pwrite(fd, data, size, offset) == static_cast<ssize_t>(size);
}

bool ValidName(const std::string& name) {
    if (name.empty() || name.size() > 64 || name[0] == '.') return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '_' || c == '-';
    });
}

// Reads a record's header from an open record file (shared lock held by the caller).
bool ReadHeader(int fd, FileHeader* header) {
    return ReadExact(fd, header, sizeof *header, 0) &&
           std::memcmp(header->magic, kMagic, sizeof kMagic) == 0;
}

bool ExporterAlive(const FileHeader& header) {
    return header.exporter_pid > 0 &&
           ProcessStartTime(header.exporter_pid) == header.exporter_start;
}

// The records this process published, for the exit handler: a program that exits without
// closing its exports leaves nothing in /dev/shm. Owned by pid, so a child forked without exec
// does not remove its parent's records when it exits.
struct Published {
    std::mutex mutex;
    std::map<std::string, int32_t> names;  // name -> the pid that published it
};

Published& Names() {
    static Published* published = new Published;  // outlives static destructors: exit uses it
    return *published;
}

void RemoveOwnRecordsAtExit() {
    Published& p = Names();
    std::lock_guard lock(p.mutex);
    const int32_t self = getpid();
    for (const auto& [name, pid] : p.names) {
        if (pid == self) unlink(PathOf(name).c_str());
    }
    p.names.clear();
}

// Removes the records of exporters that died without cleaning up (SIGKILL, a crash); once per
// process, at its first export.
void SweepStaleRecords() {
    DIR* dir = opendir(kDirectory);
    if (dir == nullptr) return;
    while (dirent* entry = readdir(dir)) {
        const std::string name = entry->d_name;
        if (name.rfind(kNamePrefix, 0) != 0 || !ValidName(name)) continue;
        const int fd = openat(dirfd(dir), name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) continue;  // another user's, or gone already
        FileHeader header;
        if (flock(fd, LOCK_SH | LOCK_NB) == 0 && ReadHeader(fd, &header) &&
            !ExporterAlive(header)) {
            unlinkat(dirfd(dir), name.c_str(), 0);
        }
        close(fd);
    }
    closedir(dir);
}

void NotePublished(const std::string& name) {
    static std::once_flag once;
    std::call_once(once, [] {
        SweepStaleRecords();
        std::atexit(RemoveOwnRecordsAtExit);
    });
    Published& p = Names();
    std::lock_guard lock(p.mutex);
    p.names[name] = getpid();
}

void NoteRemoved(const std::string& name) {
    Published& p = Names();
    std::lock_guard lock(p.mutex);
    p.names.erase(name);
}

// The function that adds a process to a record's allow-list.
const char* AllowListFunction(Kind kind) {
    switch (kind) {
        case Kind::kIpcMemory:
            return "aclrtIpcMemSetImportPid";
        case Kind::kPhysical:
            return "aclrtMemSetPidToShareableHandle";
        case Kind::kIpcNotify:
            return "aclrtNotifySetImportPid";
        case Kind::kIpcEvent:
            break;
    }
    return "the exporter";
}

aclError Refuse(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
aclError Refuse(const char* fmt, ...) {
    char text[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    return Fail(ACL_ERROR_RT_DRV_INTERNAL_ERROR, "%s", text);
}

}  // namespace

uint64_t RandomBits() {
    uint64_t value = 0;
    if (getrandom(&value, sizeof value, 0) != static_cast<ssize_t>(sizeof value)) {
        timespec now{};
        clock_gettime(CLOCK_MONOTONIC, &now);
        value = static_cast<uint64_t>(now.tv_nsec) * 0x9E3779B97F4A7C15ULL ^
                static_cast<uint64_t>(now.tv_sec) ^ (static_cast<uint64_t>(getpid()) << 32);
    }
    return value == 0 ? 1 : value;
}

std::string NewName(const char* prefix) {
    static std::atomic<uint32_t> serial{0};
    char text[80];
    std::snprintf(text, sizeof text, "%s%d.%u.%016" PRIx64, prefix, static_cast<int>(getpid()),
                  serial.fetch_add(1, std::memory_order_relaxed) + 1, RandomBits());
    return text;
}

Export::Export(Export&& other) noexcept
    : name_(std::move(other.name_)),
      record_fd_(other.record_fd_),
      header_(std::move(other.header_)),
      pids_(std::move(other.pids_)) {
    other.record_fd_ = -1;
}

Export& Export::operator=(Export&& other) noexcept {
    if (this != &other) {
        if (record_fd_ >= 0) close(record_fd_);
        name_ = std::move(other.name_);
        record_fd_ = other.record_fd_;
        header_ = std::move(other.header_);
        pids_ = std::move(other.pids_);
        other.record_fd_ = -1;
    }
    return *this;
}

Export::~Export() {
    if (record_fd_ >= 0) close(record_fd_);
}

aclError Export::Create(const std::string& name, Record record, int fd, Export* out) {
    struct stat file {};
    if (fstat(fd, &file) != 0) {
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR, "cannot examine the memory file to share: %s",
                    std::strerror(errno));
    }
    FileHeader header{};
    std::memcpy(header.magic, kMagic, sizeof kMagic);
    header.kind = static_cast<uint32_t>(record.kind);
    header.exporter_pid = getpid();
    header.fd = fd;
    header.exporter_start = ProcessStartTime(header.exporter_pid);
    header.file_dev = file.st_dev;
    header.file_ino = file.st_ino;
    header.offset = record.offset;
    header.size = record.size;
    header.file_size = record.file_size;
    header.device_id = record.device_id;
    header.check_pid = record.check_pid ? 1 : 0;
    header.attr = record.attr;
    std::memcpy(header.payload, record.payload, sizeof header.payload);
    if (!ValidName(name)) {
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR, "'%s' cannot name an export record", name.c_str());
    }
    const std::string path = PathOf(name);
    int record_fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (record_fd < 0 && errno == EEXIST) {
        // A dead process's record under a name this process now makes (a reused pid).
        const int old = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        FileHeader previous;
        if (old >= 0 && ReadHeader(old, &previous) && !ExporterAlive(previous)) {
            unlink(path.c_str());
        }
        if (old >= 0) close(old);
        record_fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    }
    if (record_fd < 0) {
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
                    "cannot create the export record %s: %s (openacl publishes exports in "
                    "/dev/shm, which must be a writable tmpfs)",
                    path.c_str(), std::strerror(errno));
    }
    Export created;
    created.name_ = name;
    created.record_fd_ = record_fd;
    created.header_.assign(reinterpret_cast<const unsigned char*>(&header),
                           reinterpret_cast<const unsigned char*>(&header) + sizeof header);
    if (aclError rc = created.Rewrite()) {
        unlink(path.c_str());
        return rc;
    }
    NotePublished(name);
    *out = std::move(created);
    return ACL_SUCCESS;
}

aclError Export::Rewrite() {
    FileHeader header;
    std::memcpy(&header, header_.data(), sizeof header);
    header.pid_count = static_cast<uint32_t>(pids_.size());
    std::memcpy(header_.data(), &header, sizeof header);
    // Importers read under a shared lock: they never see half a record.
    flock(record_fd_, LOCK_EX);
    const bool written =
        WriteExact(record_fd_, &header, sizeof header, 0) &&
        (pids_.empty() || WriteExact(record_fd_, pids_.data(), pids_.size() * sizeof(int32_t),
                                     static_cast<off_t>(sizeof header)));
    flock(record_fd_, LOCK_UN);
    if (!written) {
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR, "cannot write the export record /dev/shm/%s: %s",
                    name_.c_str(), std::strerror(errno));
    }
    return ACL_SUCCESS;
}

aclError Export::AllowPids(const int32_t* pids, size_t count) {
    for (size_t i = 0; i < count; ++i) {
        if (std::find(pids_.begin(), pids_.end(), pids[i]) == pids_.end()) pids_.push_back(pids[i]);
    }
    return Rewrite();
}

aclError Export::SetAttr(uint64_t attr) {
    FileHeader header;
    std::memcpy(&header, header_.data(), sizeof header);
    header.attr = attr;
    std::memcpy(header_.data(), &header, sizeof header);
    return Rewrite();
}

void Export::Revoke() {
    if (record_fd_ < 0) return;
    FileHeader header;
    std::memcpy(&header, header_.data(), sizeof header);
    header.revoked = 1;
    // An importer that opened the record before the unlink sees the mark under its lock.
    flock(record_fd_, LOCK_EX);
    WriteExact(record_fd_, &header, sizeof header, 0);
    unlink(PathOf(name_).c_str());
    flock(record_fd_, LOCK_UN);
    close(record_fd_);
    record_fd_ = -1;
    NoteRemoved(name_);
}

aclError Open(const std::string& name, Kind kind, const char* what, Record* record, int* fd) {
    if (!ValidName(name)) return Refuse("%s '%s' is not one openacl exported", what, name.c_str());
    const std::string path = PathOf(name);
    const int record_fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (record_fd < 0) {
        return Refuse(
            "%s %s names no export: it was never exported, was closed by its exporter, or its "
            "exporter ended",
            what, name.c_str());
    }
    flock(record_fd, LOCK_SH);
    FileHeader header;
    aclError rc = ACL_SUCCESS;
    std::vector<int32_t> pids;
    const int32_t self = getpid();
    if (!ReadHeader(record_fd, &header) || header.kind != static_cast<uint32_t>(kind)) {
        rc = Refuse("%s %s does not name an export of this kind", what, name.c_str());
    } else if (header.revoked != 0) {
        rc = Refuse("%s %s was closed by its exporter (process %d)", what, name.c_str(),
                    header.exporter_pid);
    } else if (!ExporterAlive(header)) {
        unlink(path.c_str());  // nobody else will: the exporter is gone
        rc = Refuse("%s %s was exported by process %d, which has ended; what it shared is gone",
                    what, name.c_str(), header.exporter_pid);
    } else if (header.check_pid != 0) {
        pids.resize(header.pid_count);
        if (header.pid_count > (1u << 20) ||
            (!pids.empty() && !ReadExact(record_fd, pids.data(), pids.size() * sizeof(int32_t),
                                         static_cast<off_t>(sizeof header)))) {
            rc = Refuse("%s %s has a damaged allow-list", what, name.c_str());
        } else if (std::find(pids.begin(), pids.end(), self) == pids.end()) {
            rc = Refuse(
                "process %d is not allowed to import %s %s: its exporter (process %d) allows %zu "
                "process(es); add this one with %s, or export with pid validation disabled",
                self, what, name.c_str(), header.exporter_pid, pids.size(),
                AllowListFunction(kind));
        }
    }
    int file = -1;
    if (rc == ACL_SUCCESS) {
        char proc[64];
        std::snprintf(proc, sizeof proc, "/proc/%d/fd/%d", header.exporter_pid, header.fd);
        file = open(proc, O_RDWR | O_CLOEXEC);
        struct stat st {};
        if (file < 0) {
            rc = Refuse("cannot open the memory of %s %s in process %d (%s): %s", what,
                        name.c_str(), header.exporter_pid, proc, std::strerror(errno));
        } else if (fstat(file, &st) != 0 || st.st_dev != header.file_dev ||
                   st.st_ino != header.file_ino) {
            rc = Refuse("process %d no longer holds the memory of %s %s", header.exporter_pid, what,
                        name.c_str());
        }
    }
    flock(record_fd, LOCK_UN);
    close(record_fd);
    if (rc != ACL_SUCCESS) {
        if (file >= 0) close(file);
        return rc;
    }
    record->kind = kind;
    record->exporter_pid = header.exporter_pid;
    record->fd = header.fd;
    record->offset = header.offset;
    record->size = header.size;
    record->file_size = header.file_size;
    record->device_id = header.device_id;
    record->check_pid = header.check_pid != 0;
    record->attr = header.attr;
    std::memcpy(record->payload, header.payload, sizeof record->payload);
    *fd = file;
    return ACL_SUCCESS;
}

bool Exists(const std::string& name, Kind kind) {
    if (!ValidName(name)) return false;
    const int record_fd = open(PathOf(name).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (record_fd < 0) return false;
    flock(record_fd, LOCK_SH);
    FileHeader header;
    const bool live = ReadHeader(record_fd, &header) &&
                      header.kind == static_cast<uint32_t>(kind) && header.revoked == 0 &&
                      ExporterAlive(header);
    flock(record_fd, LOCK_UN);
    close(record_fd);
    return live;
}

}  // namespace openacl::export_record
