#include "core/shared_page.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace openacl {

namespace {

void* MapPage(int fd) {
    void* data = mmap(nullptr, SharedPage::kSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return data == MAP_FAILED ? nullptr : data;
}

}  // namespace

aclError SharedPage::Create(const char* what, SharedPage** out) {
    const int fd = memfd_create("openacl-ipc-sync", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(kSize)) != 0) {
        const int error = errno;
        if (fd >= 0) close(fd);
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR, "cannot make the shared memory of an %s: %s", what,
                    std::strerror(error));
    }
    void* data = MapPage(fd);
    if (data == nullptr) {
        const int error = errno;
        close(fd);
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR, "cannot map the shared memory of an %s: %s", what,
                    std::strerror(error));
    }
    *out = new SharedPage(fd, data);
    return ACL_SUCCESS;
}

aclError SharedPage::Import(const std::string& name, export_record::Kind kind, const char* what,
                            int32_t* exporter_pid, SharedPage** out) {
    export_record::Record record;
    int fd = -1;
    if (aclError rc = export_record::Open(name, kind, what, &record, &fd)) return rc;
    void* data = MapPage(fd);
    const int error = errno;
    close(fd);  // the mapping keeps the page
    if (data == nullptr) {
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR, "cannot map the %s %s of process %d: %s", what,
                    name.c_str(), record.exporter_pid, std::strerror(error));
    }
    *exporter_pid = record.exporter_pid;
    *out = new SharedPage(-1, data);
    return ACL_SUCCESS;
}

SharedPage::~SharedPage() {
    export_.Revoke();
    munmap(data_, kSize);
    if (fd_ >= 0) close(fd_);
}

aclError SharedPage::Export(export_record::Kind kind, const char* prefix, bool check_pid,
                            int32_t device_id, std::string* name) {
    std::lock_guard lock(mutex_);
    if (!export_.live()) {
        if (fd_ < 0) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "it was imported from another process: only its creator exports it");
        }
        export_record::Record record;
        record.kind = kind;
        record.size = kSize;
        record.file_size = kSize;
        record.device_id = device_id;
        record.check_pid = check_pid;
        if (aclError rc = export_record::Export::Create(export_record::NewName(prefix), record, fd_,
                                                        &export_)) {
            return rc;
        }
    }
    *name = export_.name();
    return ACL_SUCCESS;
}

bool SharedPage::exported() {
    std::lock_guard lock(mutex_);
    return export_.live();
}

aclError SharedPage::AllowPids(const int32_t* pids, size_t count) {
    std::lock_guard lock(mutex_);
    return export_.AllowPids(pids, count);
}

void SharedPage::Revoke() {
    std::lock_guard lock(mutex_);
    export_.Revoke();
}

}  // namespace openacl
