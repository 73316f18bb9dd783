// Model runtime instances (aclmdlRI*, CANN's graph capture): the queries clients make on every
// launch. Capturing itself (aclmdlRICaptureBegin ...) is not implemented yet and answers
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT, so no stream is ever being captured: aclmdlRICaptureGetInfo
// says so, as CANN does for a stream that is not capturing.
#include "acl/acl.h"
#include "core/error.h"
#include "core/stream.h"

using openacl::Fail;

namespace {
// The calling thread's capture mode (aclmdlRICaptureThreadExchangeMode); CANN's default.
thread_local aclmdlRICaptureMode t_capture_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
}  // namespace

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status,
                                aclmdlRI* modelRI) {
    OPENACL_API();
    if (status == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "status is null");
    aclError rc = ACL_SUCCESS;
    if (openacl::ResolveStream(stream, &rc) == nullptr) return rc;
    *status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    if (modelRI != nullptr) *modelRI = nullptr;
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
    OPENACL_API();
    if (mode == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "mode is null");
    if (*mode != ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
        *mode != ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL &&
        *mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
        return Fail(ACL_ERROR_INVALID_PARAM, "*mode %d is not an aclmdlRICaptureMode",
                    static_cast<int>(*mode));
    }
    const aclmdlRICaptureMode previous = t_capture_mode;
    t_capture_mode = *mode;
    *mode = previous;
    return ACL_SUCCESS;
}
