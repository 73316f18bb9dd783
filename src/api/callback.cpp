// Host callbacks and host functions: work that runs on the host when a stream reaches it.
#include "core/callback.h"

#include <string>

#include "acl/acl.h"
#include "core/error.h"
#include "core/stream.h"

using openacl::Fail;
using openacl::Stream;

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::SubscribeReport(threadId, resolved);
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::UnsubscribeReport(threadId, resolved);
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
    OPENACL_API();
    if (fn == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "fn is null");
    if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "blockType %d is neither ACL_CALLBACK_NO_BLOCK nor ACL_CALLBACK_BLOCK",
                    static_cast<int>(blockType));
    }
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::LaunchCallback(fn, userData, blockType, resolved);
}

aclError aclrtProcessReport(int32_t timeout) {
    OPENACL_API();
    if (timeout != -1 && timeout <= 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %d ms is invalid: use -1 (wait forever) or a value > 0", timeout);
    }
    return openacl::ProcessReport(timeout);
}

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(exeStream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::SubscribeHostFunc(hostFuncThreadId, resolved);
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(exeStream, &rc);
    if (resolved == nullptr) return rc;
    return openacl::UnsubscribeHostFunc(hostFuncThreadId, resolved);
}

aclError aclrtProcessHostFunc(int32_t timeout) {
    OPENACL_API();
    if (timeout != -1 && timeout <= 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "timeout %d ms is invalid: use -1 (wait forever) or a value > 0", timeout);
    }
    return openacl::ProcessHostFunc(timeout);
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
    OPENACL_API();
    if (fn == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "fn is null");
    aclError rc = ACL_SUCCESS;
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    // A stream with a host function thread (aclrtSubscribeHostFunc) hands it the function.
    if (openacl::LaunchSubscribedHostFunc(fn, args, resolved, &rc)) return rc;
    // Runs on the stream's worker, holding the stream until it returns. One that throws fails
    // the stream (reported at its next synchronize) instead of taking the worker down.
    resolved->Submit(openacl::cpu::MakeTask([fn, args, resolved](openacl::cpu::TaskContext&) {
                         const std::string thrown = openacl::RunUserCode(fn, args);
                         if (thrown.empty()) return openacl::cpu::TaskStatus::Done();
                         resolved->NoteFailure("host function %p threw %s",
                                               reinterpret_cast<void*>(fn), thrown.c_str());
                         return openacl::cpu::TaskStatus::Failed(ACL_ERROR_RT_FAILURE);
                     }),
                     {openacl::trace::Kind::kHostFunc, reinterpret_cast<uintptr_t>(fn)});
    return ACL_SUCCESS;
}
