// Operator timeouts: the execute timeout kernel launches run under and the wait timeout of event
// waits, process-wide settings counted in the hardware's timeout steps (core/op_timeout.h).
#include "core/op_timeout.h"

#include <string>

#include "acl/acl.h"
#include "core/config.h"
#include "core/context.h"
#include "core/error.h"
#include "core/runtime.h"

using openacl::Fail;

namespace {

// The CUDA backend launches kernels without a time limit and has no timed event waits.
aclError RefuseCudaBackend(const char* what) {
    if (openacl::Runtime::Get().config().backend != openacl::BackendKind::kCuda) {
        return ACL_SUCCESS;
    }
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "%s is not supported on the CUDA backend: it runs on the CPU backend only", what);
}

// The step comes from the device (CANN reads it when a device is set): a setting needs one.
aclError RequireDevice() {
    aclError rc = ACL_SUCCESS;
    return openacl::RequireContext(&rc) == nullptr ? rc : ACL_SUCCESS;
}

}  // namespace

aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
    OPENACL_API();
    const std::string& soc = openacl::Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend310P", 0) == 0) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "aclrtSetOpWaitTimeout is not available on %s (CANN documents no event wait "
                    "timeout for the Atlas inference series)",
                    soc.c_str());
    }
    if (aclError rc = RefuseCudaBackend("an event wait timeout")) return rc;
    openacl::SetOpWaitTimeoutSeconds(timeout);
    return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
    OPENACL_API();
    if (aclError rc = RefuseCudaBackend("an operator execute timeout")) return rc;
    if (aclError rc = RequireDevice()) return rc;
    openacl::SetOpExecuteTimeoutUs(uint64_t{timeout} * 1000000);
    return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout) {
    OPENACL_API();
    (void)timeout;
    // Every product CANN documents (Atlas A2/A3, Ascend 950, Atlas 200I/500 A2, the inference
    // and training series) answers so; the millisecond form belongs to other chips.
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "aclrtSetOpExecuteTimeOutWithMs is not available on %s (CANN supports it on none "
                "of its documented products): use aclrtSetOpExecuteTimeOutV2, which takes "
                "microseconds and returns the timeout in force",
                openacl::Runtime::Get().config().soc_name.c_str());
}

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout) {
    OPENACL_API();
    if (actualTimeout == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "actualTimeout is null");
    if (aclError rc = RefuseCudaBackend("an operator execute timeout")) return rc;
    if (aclError rc = RequireDevice()) return rc;
    *actualTimeout = openacl::SetOpExecuteTimeoutUs(timeout);
    return ACL_SUCCESS;
}

aclError aclrtGetOpTimeOutInterval(uint64_t* interval) {
    OPENACL_API();
    if (interval == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "interval is null");
    *interval = openacl::OpTimeoutIntervalUs();
    return ACL_SUCCESS;
}

aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs) {
    OPENACL_API();
    if (timeoutMs == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "timeoutMs is null");
    *timeoutMs = openacl::OpExecuteTimeoutReportMs();
    return ACL_SUCCESS;
}
