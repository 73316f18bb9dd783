// The code a failing call recorded, for functions that answer NULL, 0 or nothing. As in CANN,
// aclrtGetLastError reports only the runtime module's errors (ACL_ERROR_RT_*), so a parameter
// check's code is read from its message, "<api> failed (error N): ...".
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>

#include "acl/acl.h"

namespace recorded_error_detail {
// Messages RecordedError() took from aclGetRecentErrMsg, newest first, for TakeErrMsg().
inline thread_local std::string stashed;
inline thread_local std::string returned;
}  // namespace recorded_error_detail

// aclGetRecentErrMsg, with the messages RecordedError() took before it; nullptr when none.
inline const char* TakeErrMsg() {
    using namespace recorded_error_detail;
    const char* fresh = aclGetRecentErrMsg();
    returned = fresh != nullptr ? fresh : "";
    if (!stashed.empty()) returned += (returned.empty() ? "" : "\n") + stashed;
    stashed.clear();
    return returned.empty() ? nullptr : returned.c_str();
}

// The code in the newest message (ACL_SUCCESS when there is none); the messages stay
// available to TakeErrMsg(). Also clears the thread's last runtime error.
inline aclError RecordedError() {
    using namespace recorded_error_detail;
    aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    const char* fresh = aclGetRecentErrMsg();
    if (fresh == nullptr) return ACL_SUCCESS;
    stashed = std::string(fresh) + (stashed.empty() ? "" : "\n") + stashed;
    const char* at = std::strstr(fresh, "failed (error ");
    const char* end = std::strchr(fresh, '\n');
    if (at == nullptr || (end != nullptr && at > end)) return ACL_SUCCESS;
    return static_cast<aclError>(std::strtol(at + std::strlen("failed (error "), nullptr, 10));
}

// Forgets what RecordedError() took and the runtime's messages.
inline void ClearErrMsgs() {
    recorded_error_detail::stashed.clear();
    aclGetRecentErrMsg();
}
