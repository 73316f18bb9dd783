// Floating-point overflow status: stream tasks that copy what the watched tasks raised into
// device memory or clear it, and the context's overflow word (core/overflow.h). Streams are
// watched through aclrtSetStreamOverflowSwitch (api/stream.cpp).
#include "core/overflow.h"

#include "acl/acl.h"
#include "core/context.h"
#include "core/error.h"
#include "core/stream.h"

using openacl::Fail;
using openacl::Stream;

namespace {

aclError GetStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream) {
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::overflow::EnqueueGetStatus(outputAddr, outputSize, resolved,
                                               openacl::CurrentApi());
}

aclError ResetStatus(aclrtStream stream) {
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::overflow::EnqueueResetStatus(resolved);
}

}  // namespace

aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream) {
    OPENACL_API();
    return GetStatus(outputAddr, outputSize, stream);
}

aclError aclrtResetOverflowStatus(aclrtStream stream) {
    OPENACL_API();
    return ResetStatus(stream);
}

aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream) {
    OPENACL_API();
    return GetStatus(outputAddr, outputSize, stream);
}

aclError aclrtResetFloatOverflowStatus(aclrtStream stream) {
    OPENACL_API();
    return ResetStatus(stream);
}

// checkMode selects what the NPU's status register reports; CANN's runtime hands it to the
// device unchecked, and openacl has one status, so every mode reads (and clears) it.
aclError aclrtNpuGetFloatOverFlowStatus(void* outputAddr, uint64_t outputSize, uint32_t checkMode,
                                        aclrtStream stream) {
    OPENACL_API();
    (void)checkMode;
    return GetStatus(outputAddr, outputSize, stream);
}

aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream) {
    OPENACL_API();
    (void)checkMode;
    return ResetStatus(stream);
}

aclError aclrtCtxGetFloatOverflowAddr(void** overflowAddr) {
    OPENACL_API();
    if (overflowAddr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "overflowAddr is null");
    aclError rc = ACL_SUCCESS;
    openacl::Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    return openacl::overflow::ContextOverflowAddress(ctx, overflowAddr);
}
