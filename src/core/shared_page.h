// A page of memory shared between processes: where IPC events and notifies keep their state
// (core/ipc_event.h, core/notify.h). The creator makes a memory file (memfd) of one page and maps
// it; exporting publishes the file under a name (core/export_record.h), and an importer maps the
// same page through that record. Each process's mapping is reference counted: its handle holds
// one reference and every queued task that may still touch the page another, so a destroy that
// races with queued work never unmaps memory a worker reads. The page itself lives until the
// last process unmaps it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "acl/acl_base.h"
#include "core/export_record.h"

namespace openacl {

class SharedPage {
 public:
    static constexpr size_t kSize = 4096;

    // A new zeroed page (a Fail when the system refuses one). `what` names it for messages
    // ("IPC event").
    static aclError Create(const char* what, SharedPage** out);
    // Maps the page published as `name` (a Fail with the record's refusal, which says why).
    // *exporter_pid: the process that published it.
    static aclError Import(const std::string& name, export_record::Kind kind, const char* what,
                           int32_t* exporter_pid, SharedPage** out);

    void* data() const { return data_; }
    void Retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
    void Release() {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }

    // Publishes the page under a new name "<prefix><pid>.<n>.<random>" (once: later calls give
    // the same name and leave the first call's settings). check_pid: only processes on the
    // allow-list may import it.
    aclError Export(export_record::Kind kind, const char* prefix, bool check_pid, int32_t device_id,
                    std::string* name);
    bool exported();
    aclError AllowPids(const int32_t* pids, size_t count);
    // Ends the export: later imports are refused; mappings made already stay.
    void Revoke();

 private:
    SharedPage(int fd, void* data) : fd_(fd), data_(data) {}
    ~SharedPage();

    const int fd_;  // the memory file; kept open while exported (importers open it through /proc)
    void* const data_;
    std::atomic<uint32_t> refs_{1};
    std::mutex mutex_;
    export_record::Export export_;  // under mutex_
};

}  // namespace openacl
