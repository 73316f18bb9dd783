// Events shared between processes: aclrtIpcGetEventHandle in the process that created an
// ACL_EVENT_IPC event, aclrtIpcOpenEventHandle in the others (core/ipc_event.h).
#include "core/ipc_event.h"
#include "acl/acl.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/event.h"

using openacl::Fail;

aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle* handle) {
    OPENACL_API();
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    aclError rc = ACL_SUCCESS;
    openacl::Event* resolved = openacl::ResolveEvent(event, &rc);
    if (resolved == nullptr) return rc;
    if (resolved->on_device()) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "aclrtIpcGetEventHandle is not supported on the %s backend yet",
                    resolved->context()->device()->accelerator()->name());
    }
    if (resolved->flags() != ACL_EVENT_IPC || !resolved->reusable() || resolved->ipc() == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "event %p is not an IPC event: create it with aclrtCreateEventExWithFlag and "
                    "ACL_EVENT_IPC",
                    event);
    }
    return openacl::ipc_event::GetHandle(resolved->ipc(), resolved->context()->device()->id(),
                                         handle);
}

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent* event) {
    OPENACL_API();
    if (event == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "event is null");
    return openacl::OpenIpcEvent(handle, event);
}
