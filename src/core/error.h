// Failure reporting: every failing call returns its documented code, records a message for
// aclGetRecentErrMsg (per thread, or per process with err_msg_mode 1) and logs it in CANN's
// format. Only the runtime module's codes (ACL_ERROR_RT_*) become the thread's last error
// (aclrtGetLastError): as in CANN, a check the API layer makes before any runtime work, such as
// a null output pointer (ACL_ERROR_INVALID_PARAM), is not a runtime error.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"

namespace openacl {

namespace reclaim {
struct Pin;
}
namespace trace {
struct ThreadState;
}
struct ThreadApi;  // the calling thread's running API call (error.cpp)

// Names the API function running on this thread, so messages say who failed. Entry points
// open one with OPENACL_API(); nested scopes keep the outermost name.
class ApiScope {
 public:
    explicit ApiScope(const char* name) noexcept;
    ~ApiScope();
    ApiScope(const ApiScope&) = delete;
    ApiScope& operator=(const ApiScope&) = delete;

 private:
    // The thread's state, kept from the constructor to the destructor: each thread-local
    // lookup costs a call in a shared library.
    ThreadApi* thread_;
    const char* previous_;
    trace::ThreadState* trace_;  // non-null: the outermost scope, traced
    reclaim::Pin* pin_;          // the outermost scope's pin on the runtime (core/reclaim.h)
};
const char* CurrentApi();

// Around a blocking wait inside an API call that holds no stream, context or event meanwhile
// (a report thread waiting for callbacks): for as long as it lives, the call does not keep
// objects that other threads destroy from being freed (core/reclaim.h), which a wait of
// minutes, or forever, otherwise would. Objects the call found before the wait must not be
// touched after it unless something else keeps them alive.
class UnpinnedWait {
 public:
    UnpinnedWait() noexcept;
    ~UnpinnedWait();
    UnpinnedWait(const UnpinnedWait&) = delete;
    UnpinnedWait& operator=(const UnpinnedWait&) = delete;

 private:
    reclaim::Pin* pin_;  // the call's pin, stepped out of; nullptr outside an API call
};

// Whether `code` is one of the runtime module's (ACL_ERROR_RT_*), which aclrtGetLastError reports.
bool IsRuntimeError(aclError code);

// Records and logs a failure of the current API call and returns `code`.
aclError Fail(aclError code, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// Fail, logged at INFO: for answers a well-behaved program gets routinely, which CANN logs at
// INFO too (a report thread polling before its channel subscribes it, a report timeout).
aclError FailQuietly(aclError code, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// While one lives on a thread, the failures of the calls it wraps are kept in it instead of
// being recorded and logged, so a layer built on another API (aclop on aclnn) can report them
// with its own codes: it reads code() and message() and fails with Fail(mapped code, ...).
// Captures nest; the innermost keeps the first failure, which is the cause.
class FailureCapture {
 public:
    FailureCapture() noexcept;
    ~FailureCapture();
    FailureCapture(const FailureCapture&) = delete;
    FailureCapture& operator=(const FailureCapture&) = delete;

    bool failed() const { return code_ != 0; }
    aclError code() const { return code_; }
    // The first failure's message, without the "<api> failed (error <code>): " prefix.
    const char* message() const { return message_; }
    // Called by Fail: keeps the first failure.
    void Note(aclError code, const char* message) noexcept;

 private:
    FailureCapture* previous_;
    aclError code_ = 0;
    char message_[1024] = {};
};

// Logs a warning about the current API call (misuse the real runtime tolerates).
void Warn(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Records "<name> is not supported by openacl yet" and returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
// the code CANN gives for a feature the chip lacks: clients (the PyTorch adapter, HCCL) probe
// optional functions exactly so, and treat any other code as fatal.
aclError ApiNotSupported(const char* name);
// A generated stub of a function that means nothing off an Ascend chip: says why.
aclError ApiOffChip(const char* name, const char* why);

// Records an error code as the thread's last runtime error without a message (async errors
// surfacing at synchronisation carry their message separately).
void SetLastError(aclError code);

// aclGetRecentErrMsg: returns and clears this thread's (or the process's) messages, newest
// first; NULL when there are none. The pointer stays valid until the next call.
const char* TakeRecentErrMsg();

// aclrtPeekAtLastError / aclrtGetLastError.
aclError PeekLastError();
aclError TakeLastError();

// err_msg_mode from the aclInit configuration: false = per thread (default), true = process.
void SetProcessLevelErrMsg(bool process_level);

}  // namespace openacl

#define OPENACL_API() ::openacl::ApiScope openacl_api_scope_(__func__)
