// What programs set and query about a device's limits: the process-wide stack and printf sizes
// (aclrtDeviceSetLimit), the cores a process, a stream or a thread may use
// (aclrt*ResLimit, aclrt*StreamResInCurrentThread), compute groups (aclrt*Group*) and the
// atomic operations host and devices share. The values are kept with CANN's defaults and
// ranges; launches do not consult them yet (a kernel gets its block count spread over the
// host's cores whatever limit is set).
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_rt.h"

namespace openacl {

class Device;

// The product line of the configured chip (openacl.soc_name), for answers CANN documents
// per line.
enum class ChipLine { kAtlasA2A3, kAscend950, kAtlas310P, kOther };
ChipLine CurrentChipLine();

// ---- aclrtDeviceSetLimit / aclrtDeviceGetLimit: one set of values for the process ----------
// Both record the documented error (with Fail) and return it when the chip lacks the limit or
// the value is out of its range; Set stores the value rounded as CANN rounds it.
aclError SetDeviceLimit(aclrtDeviceLimit limit, size_t value);
aclError GetDeviceLimit(aclrtDeviceLimit limit, size_t* value);

// ---- Core resource limits ----------------------------------------------------------------
// The chip's cores of a kind (24 cube / 48 vector on the Ascend910B1).
uint32_t HardwareCores(aclrtDevResLimitType type);
// Records ACL_ERROR_INVALID_PARAM unless type is an aclrtDevResLimitType.
aclError CheckResLimitType(aclrtDevResLimitType type);
// Records ACL_ERROR_RT_PARAM_INVALID unless 1 <= value <= HardwareCores(type).
aclError CheckResLimitValue(aclrtDevResLimitType type, uint32_t value);

// Process level, per device (ids are user device ids): the set value, else the hardware's.
void SetDeviceResLimit(int32_t device, aclrtDevResLimitType type, uint32_t value);
uint32_t DeviceResLimit(int32_t device, aclrtDevResLimitType type);
void ResetDeviceResLimit(int32_t device);

// Stream level, by stream id (unique for the life of the process): the set value, else the
// process level of the stream's device.
void SetStreamResLimit(int32_t stream, int32_t device, aclrtDevResLimitType type, uint32_t value);
uint32_t StreamResLimit(int32_t stream, int32_t device, aclrtDevResLimitType type);
void ResetStreamResLimit(int32_t stream);
bool StreamHasResLimit(int32_t stream);

// Thread level: the stream whose limits the calling thread uses (aclrtUseStreamResInCurrentThread).
void UseStreamResInThread(int32_t stream);
// False when the thread was not using that stream's limits.
bool UnuseStreamResInThread(int32_t stream);
// What the calling thread may use on `device`: its stream's limit, else the process's, else
// the hardware's.
uint32_t ResInCurrentThread(int32_t device, aclrtDevResLimitType type);

// ---- Atomic operations --------------------------------------------------------------------
// The aclrtAtomicOperationCapability bits of `operation` between the host and a device or
// between two devices, which on the CPU backend are the same thing: every party is a thread of
// this process on the same coherent memory. Records ACL_ERROR_INVALID_PARAM and returns it for
// a value that is not an aclrtAtomicOperation.
aclError AtomicCapabilities(aclrtAtomicOperation operation, uint32_t index, uint32_t* bits);

}  // namespace openacl

// ---- Compute groups (Atlas inference series only) ------------------------------------------
// aclrtGroupInfo: what aclrtGetAllGroupInfo filled in, one entry per group. A CPU device has one
// group holding all of it.
struct tagRtGroupInfo {
    bool filled = false;  // by aclrtGetAllGroupInfo
    int32_t group_id = 0;
    int32_t ai_cores = 0;
    int32_t vector_cores = 0;
    int32_t cube_cores = 0;
    int32_t sdma_engines = 0;
    int32_t async_queues = 0;
};

namespace openacl {

constexpr uint32_t kGroupCount = 1;

// Records ACL_ERROR_RT_FEATURE_NOT_SUPPORT unless the chip has compute groups.
aclError RequireGroups();
aclrtGroupInfo* CreateGroupInfo();
// False (nothing freed) for a pointer CreateGroupInfo did not return or already destroyed.
bool DestroyGroupInfo(aclrtGroupInfo* info);
bool IsLiveGroupInfo(const aclrtGroupInfo* info);
// The one group's figures: the whole configured chip.
void FillGroupInfo(aclrtGroupInfo* info);

}  // namespace openacl
