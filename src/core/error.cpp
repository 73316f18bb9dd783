#include "core/error.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

#include "core/log.h"
#include "core/reclaim.h"
#include "core/trace.h"

namespace openacl {

// The running API call's name and the thread's pin (core/reclaim.h), together: one
// thread-local lookup serves both.
struct ThreadApi {
    const char* api = nullptr;
    reclaim::Pin* pin = nullptr;
};

namespace {

thread_local ThreadApi t_thread;
thread_local aclError t_last_error = ACL_SUCCESS;
thread_local FailureCapture* t_capture = nullptr;

// Messages accumulate newest first until aclGetRecentErrMsg takes them.
struct Messages {
    std::string pending;
    std::string returned;  // keeps the last returned pointer valid
};
thread_local Messages t_messages;

std::atomic<bool> g_process_level{false};
std::mutex g_process_mutex;
Messages g_process_messages;

constexpr size_t kMaxPending = 16 * 1024;  // a failing loop must not grow memory forever

void Record(const char* text) {
    auto prepend = [text](Messages& m) {
        std::string entry(text);
        if (!m.pending.empty()) entry += '\n';
        m.pending.insert(0, entry);
        if (m.pending.size() > kMaxPending) m.pending.resize(kMaxPending);
    };
    if (g_process_level.load(std::memory_order_relaxed)) {
        std::lock_guard lock(g_process_mutex);
        prepend(g_process_messages);
    } else {
        prepend(t_messages);
    }
}

}  // namespace

bool IsRuntimeError(aclError code) {
    // The runtime module's codes are ACL_ERROR_RT_*: 107xxx (parameters it checked), 207xxx
    // (features the device lacks) and 507xxx (what failed on the device).
    const int family = code / 1000;
    return family == 107 || family == 207 || family == 507;
}

ApiScope::ApiScope(const char* name) noexcept
    : thread_(&t_thread), previous_(nullptr), trace_(nullptr), pin_(nullptr) {
    ThreadApi& self = *thread_;
    previous_ = self.api;
    if (previous_ == nullptr) {
        self.api = name;
        // The outermost call pins the runtime's objects until it returns (core/reclaim.h).
        pin_ = reclaim::Enter(&self.pin);
        trace_ = trace::On() ? trace::ApiBegin(name) : nullptr;  // off: one relaxed load
    }
}
ApiScope::~ApiScope() {
    if (trace_ != nullptr) [[unlikely]]
        trace::ApiEnd(trace_);
    thread_->api = previous_;
    if (pin_ != nullptr) reclaim::Leave(pin_);
}

UnpinnedWait::UnpinnedWait() noexcept : pin_(nullptr) {
    const ThreadApi& self = t_thread;
    if (self.api == nullptr || self.pin == nullptr) return;  // not inside an API call
    pin_ = self.pin;
    reclaim::Leave(pin_);
}
UnpinnedWait::~UnpinnedWait() {
    if (pin_ != nullptr) reclaim::Resume(pin_);
}

const char* CurrentApi() {
    return t_thread.api != nullptr ? t_thread.api : "openacl";
}

namespace {
aclError FailV(LogLevel level, aclError code, const char* fmt, va_list args) {
    char message[1024];
    std::vsnprintf(message, sizeof message, fmt, args);
    if (t_capture != nullptr) {
        t_capture->Note(code, message);
        OPENACL_LOG(LogLevel::kDebug, "%s: captured failure (error %d): %s", CurrentApi(), code,
                    message);
        return code;
    }
    char text[1200];
    std::snprintf(text, sizeof text, "%s failed (error %d): %s", CurrentApi(), code, message);
    Record(text);
    if (IsRuntimeError(code)) t_last_error = code;
    OPENACL_LOG(level, "%s", text);
    return code;
}
}  // namespace

aclError Fail(aclError code, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    FailV(LogLevel::kError, code, fmt, args);
    va_end(args);
    return code;
}

aclError FailQuietly(aclError code, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    FailV(LogLevel::kInfo, code, fmt, args);
    va_end(args);
    return code;
}

void Warn(const char* fmt, ...) {
    if (!LogEnabled(LogLevel::kWarning)) return;
    char message[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    OPENACL_LOG_WARNING("%s: %s", CurrentApi(), message);
}

aclError ApiNotSupported(const char* name) {
    ApiScope scope(name);
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s is not supported by openacl yet", name);
}

aclError ApiOffChip(const char* name, const char* why) {
    ApiScope scope(name);
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s is not available off an Ascend chip: %s",
                name, why);
}

FailureCapture::FailureCapture() noexcept : previous_(t_capture) {
    t_capture = this;
}
FailureCapture::~FailureCapture() {
    t_capture = previous_;
}
void FailureCapture::Note(aclError code, const char* message) noexcept {
    if (code_ != 0) return;
    code_ = code;
    std::snprintf(message_, sizeof message_, "%s", message);
}

void SetLastError(aclError code) {
    t_last_error = code;
}

const char* TakeRecentErrMsg() {
    auto take = [](Messages& m) -> const char* {
        if (m.pending.empty()) return nullptr;
        m.returned.swap(m.pending);
        m.pending.clear();
        return m.returned.c_str();
    };
    if (g_process_level.load(std::memory_order_relaxed)) {
        std::lock_guard lock(g_process_mutex);
        return take(g_process_messages);
    }
    return take(t_messages);
}

aclError PeekLastError() {
    return t_last_error;
}

aclError TakeLastError() {
    aclError code = t_last_error;
    t_last_error = ACL_SUCCESS;
    return code;
}

void SetProcessLevelErrMsg(bool process_level) {
    g_process_level.store(process_level, std::memory_order_relaxed);
}

}  // namespace openacl
