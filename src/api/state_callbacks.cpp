// Stream and device state callbacks (core/state_callbacks.h).
#include "core/state_callbacks.h"
#include "acl/acl.h"
#include "core/error.h"
#include "core/named_callbacks.h"

aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback,
                                     void* args) {
    OPENACL_API();
    if (aclError rc = openacl::CheckCallbackName(regName)) return rc;
    return openacl::RegisterStreamStateCallback(regName, callback, args);
}

aclError aclrtRegDeviceStateCallback(const char* regName, aclrtDeviceStateCallback callback,
                                     void* args) {
    OPENACL_API();
    if (aclError rc = openacl::CheckCallbackName(regName)) return rc;
    return openacl::RegisterDeviceStateCallback(regName, callback, args);
}
