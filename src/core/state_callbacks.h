// Stream and device state callbacks (aclrtRegStreamStateCallback, aclrtRegDeviceStateCallback):
// the runtime tells registered callbacks when a stream has been created or is about to be
// destroyed (explicit and default streams alike), and when a device is set or reset.
//
// Notifications run the callbacks on the calling thread, in name order, never under the
// lifecycle mutex (a callback may call the runtime). With nothing registered a notification
// costs one load.
#pragma once

#include <cstdint>

#include "acl/acl_rt.h"

namespace openacl {

class Stream;

aclError RegisterStreamStateCallback(const char* name, aclrtStreamStateCallback fn, void* args);
aclError RegisterDeviceStateCallback(const char* name, aclrtDeviceStateCallback fn, void* args);

// ACL_RT_STREAM_STATE_CREATE_POST after a stream was created, _DESTROY_PRE before it goes.
void NotifyStreamState(Stream* stream, aclrtStreamState state);
// Every aclrtSetDevice: _SET_PRE before, _SET_POST after it succeeded; a reset that releases the
// device: _RESET_PRE before, _RESET_POST after.
void NotifyDeviceState(int32_t device_id, aclrtDeviceState state);

// DESTROY_PRE for every stream of a context that is about to be destroyed (explicit contexts
// only: a default context goes with its device), or of a device that is about to be released.
// Take the lifecycle mutex themselves: call them without it.
void NotifyContextStreamsLeaving(const void* context);
void NotifyDeviceStreamsLeaving(int32_t device_id);

}  // namespace openacl
