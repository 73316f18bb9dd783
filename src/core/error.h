// Failure reporting: every failing call returns its documented code, records a message for
// aclGetRecentErrMsg (per thread, or per process with err_msg_mode 1), sets the thread's last
// runtime error and logs the message in CANN's format.
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

// Records and logs a failure of the current API call and returns `code`.
aclError Fail(aclError code, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// Logs a warning about the current API call (misuse the real runtime tolerates).
void Warn(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Records "<name> is not supported by openacl yet" and returns ACL_ERROR_API_NOT_SUPPORT.
aclError ApiNotSupported(const char* name);

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
