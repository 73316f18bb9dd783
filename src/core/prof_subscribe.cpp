#include "core/prof_subscribe.h"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

#include "core/error.h"
#include "core/log.h"

namespace openacl::prof {
namespace {

struct Registry {
    std::mutex mutex;
    std::map<uint32_t, std::shared_ptr<const Subscription>> by_model;
    std::atomic<size_t> count{0};  // lets executions of unsubscribed models skip the lock
};

Registry& registry() {
    static auto* r = new Registry;  // executions may end after static destruction starts
    return *r;
}

void Copy(char* to, size_t capacity, const std::string& from) {
    const size_t n = std::min(from.size(), capacity - 1);
    std::memcpy(to, from.data(), n);
    to[n] = '\0';
}

// write() to a pipe whose reader has gone raises SIGPIPE, which would kill the program: it is
// blocked on this thread for the write, and one it raised is taken back before unblocking.
bool WriteAll(int fd, const void* data, size_t bytes, int* error) {
    sigset_t pipe_only;
    sigset_t previous;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
    const auto* p = static_cast<const char*>(data);
    bool ok = true;
    while (bytes > 0) {
        const ssize_t n = ::write(fd, p, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            *error = n < 0 ? errno : EIO;
            ok = false;
            break;
        }
        p += n;
        bytes -= static_cast<size_t>(n);
    }
    if (!ok && *error == EPIPE) {
        const timespec zero{0, 0};
        sigtimedwait(&pipe_only, nullptr, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return ok;
}

}  // namespace

Subscription::~Subscription() {
    ::close(fd_);
}

void Subscription::Note(std::vector<OpRecord>* records, const std::string& type,
                        const std::string& name, int64_t start_ns, int64_t end_ns) const {
    OpRecord r{};
    r.magic = kOpRecordMagic;
    r.model_id = model_id_;
    if (time_info_) {
        r.start_ns = static_cast<uint64_t>(start_ns);
        r.end_ns = static_cast<uint64_t>(end_ns);
    }
    r.flag = ACL_SUBSCRIBE_OP;
    r.thread_id = static_cast<uint32_t>(syscall(SYS_gettid));
    Copy(r.type, sizeof r.type, type);
    Copy(r.name, sizeof r.name, name);
    std::snprintf(r.thread_text, sizeof r.thread_text, "%u", r.thread_id);
    records->push_back(r);
}

void Subscription::Flush(const std::vector<OpRecord>& records) const {
    if (records.empty()) return;
    int error = 0;
    if (!WriteAll(fd_, records.data(), records.size() * sizeof(OpRecord), &error)) {
        OPENACL_LOG_WARNING(
            "model %u: the subscription's records could not be written to fd %d: %s", model_id_,
            fd_, std::strerror(error));
    }
}

std::shared_ptr<const Subscription> SubscriptionOf(uint32_t model_id) {
    Registry& r = registry();
    if (r.count.load(std::memory_order_acquire) == 0) return nullptr;
    std::lock_guard lock(r.mutex);
    auto it = r.by_model.find(model_id);
    return it == r.by_model.end() ? nullptr : it->second;
}

aclError Subscribe(uint32_t model_id, int fd, bool time_info) {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    if (r.by_model.count(model_id) != 0) {
        return Fail(ACL_ERROR_PROF_REPEAT_SUBSCRIBE,
                    "model %u is already subscribed; call aclprofModelUnSubscribe first", model_id);
    }
    r.by_model[model_id] = std::make_shared<const Subscription>(model_id, fd, time_info);
    r.count.store(r.by_model.size(), std::memory_order_release);
    return ACL_SUCCESS;
}

aclError Unsubscribe(uint32_t model_id) {
    Registry& r = registry();
    std::unique_lock lock(r.mutex);
    auto it = r.by_model.find(model_id);
    if (it == r.by_model.end()) {
        return Fail(ACL_ERROR_INVALID_MODEL_ID, "model %u is not subscribed", model_id);
    }
    // Closed outside the lock, when no execution holds it any more.
    std::shared_ptr<const Subscription> gone = std::move(it->second);
    r.by_model.erase(it);
    r.count.store(r.by_model.size(), std::memory_order_release);
    lock.unlock();
    return ACL_SUCCESS;
}

void UnsubscribeAll() {
    Registry& r = registry();
    std::map<uint32_t, std::shared_ptr<const Subscription>> gone;
    std::lock_guard lock(r.mutex);
    gone.swap(r.by_model);
    r.count.store(0, std::memory_order_release);
}

}  // namespace openacl::prof
