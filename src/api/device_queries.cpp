// Device queries and limits: topology, PCI bus ids, user/logical/physical ids, peer-access
// status, atomic capabilities, stack and printf limits, core resource limits (process, stream,
// thread), utilisation, compute groups, architecture compatibility and a few chip facilities.
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "core/context.h"
#include "core/device.h"
#include "core/device_limits.h"
#include "core/error.h"
#include "core/runtime.h"
#include "core/soc.h"
#include "core/stream.h"

using openacl::ChipLine;
using openacl::Device;
using openacl::Fail;
using openacl::Runtime;

namespace {

// Logical ids are the machine's devices as ASCEND_RT_VISIBLE_DEVICES names them; outside a
// container they are also the physical ids. A process sees the visible ones by user id.
aclError CheckLogicalId(int32_t id, const char* what) {
    const uint32_t count = Runtime::Get().config().device_count;
    if (id < 0 || static_cast<uint32_t>(id) >= count) {
        return Fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s %d is not a device of this machine [0, %u)",
                    what, id, count);
    }
    return ACL_SUCCESS;
}

// PCI addresses are made up from the physical id: domain and bus count up from 0000:01, one
// device and function per bus, so every device has its own stable address.
void FormatPciBusId(uint32_t physical_id, char* out, size_t size) {
    const uint32_t n = physical_id + 1;
    std::snprintf(out, size, "%04x:%02x:00.0", (n >> 8) & 0xffff, n & 0xff);
}
constexpr int32_t kPciBusIdLength = 13;  // "dddd:bb:00.0" and its terminator

int HexDigits(const char*& p, int most, uint32_t* value) {
    int n = 0;
    *value = 0;
    while (n < most && std::isxdigit(static_cast<unsigned char>(*p))) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
        *value = *value * 16 + static_cast<uint32_t>(c <= '9' ? c - '0' : c - 'a' + 10);
        ++p;
        ++n;
    }
    return n;
}

// Parses "[domain:]bus:device.function" (hex, either case) into (domain, bus, device, function).
bool ParsePciBusId(const char* text, uint32_t parts[4]) {
    const char* p = text;
    uint32_t first = 0, second = 0;
    if (HexDigits(p, 4, &first) == 0 || *p++ != ':') return false;
    if (HexDigits(p, 2, &second) == 0) return false;
    if (*p == ':') {  // the domain was given
        ++p;
        parts[0] = first;
        parts[1] = second;
        if (HexDigits(p, 2, &parts[2]) == 0) return false;
    } else {
        if (first > 0xff) return false;
        parts[0] = 0;
        parts[1] = first;
        parts[2] = second;
    }
    if (*p++ != '.' || HexDigits(p, 1, &parts[3]) == 0) return false;
    return *p == '\0';
}

aclError RequireResLimits(const char* what, bool stream_level) {
    const ChipLine line = openacl::CurrentChipLine();
    if (line == ChipLine::kAtlasA2A3 || (line == ChipLine::kAscend950 && !stream_level)) {
        return ACL_SUCCESS;
    }
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "%s are not available on %s (CANN documents them for Atlas A2/A3%s)", what,
                Runtime::Get().config().soc_name.c_str(),
                stream_level ? "" : " and the Ascend 950");
}

// The stream a resource-limit call names (NULL: the current context's default stream).
openacl::Stream* ResStream(aclrtStream stream, aclError* rc) {
    *rc = RequireResLimits("stream resource limits", true);
    if (*rc != ACL_SUCCESS) return nullptr;
    return openacl::ResolveStream(stream, rc);
}

int32_t DeviceOf(const openacl::Stream* stream) {
    return stream->context()->device()->id();
}

// Cube/vector/AI CPU/memory utilisation is not measured here: the executor keeps no busy time
// per worker, so a figure computed from what exists would be a guess. 0 says "no load seen";
// memory is -1 as CANN documents (its runtime cannot measure it either).
constexpr int32_t kUnmeasured = 0;
constexpr int32_t kNotSupported = -1;

// The Cube/Vector hardware synchronisation word: kernels that take it (as an FFTS address)
// get one address per process that stays valid as long as the process.
alignas(64) uint64_t g_hardware_sync_word[8];

}  // namespace

aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    if (Runtime::Get().DeviceById(deviceId) == nullptr ||
        Runtime::Get().DeviceById(otherDeviceId) == nullptr) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    if (deviceId == otherDeviceId) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "deviceId and otherDeviceId are both %u: a topology links two devices",
                    deviceId);
    }
    // Every device is the host's memory seen by the same process, cache-coherent between
    // them: on the training lines that is what HCCS gives their NPUs; the inference cards sit
    // on PCIe, and one switch is the closest PCIe answer.
    const ChipLine line = openacl::CurrentChipLine();
    *value = line == ChipLine::kAtlasA2A3 || line == ChipLine::kAscend950
                 ? ACL_RT_DEVS_TOPOLOGY_HCCS
                 : ACL_RT_DEVS_TOPOLOGY_PIX;
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char* pciBusId, int32_t len) {
    OPENACL_API();
    if (pciBusId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "pciBusId is null");
    Device* device = Runtime::Get().DeviceById(deviceId);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    if (len < kPciBusIdLength) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "len %d is too short: a PCI bus id takes %d bytes with its terminator", len,
                    kPciBusIdLength);
    }
    FormatPciBusId(device->physical_id(), pciBusId, static_cast<size_t>(len));
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetByPCIBusId(const char* pciBusId, int32_t* deviceId) {
    OPENACL_API();
    if (pciBusId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "pciBusId is null");
    if (deviceId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "deviceId is null");
    uint32_t parts[4] = {};
    if (!ParsePciBusId(pciBusId, parts)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "\"%s\" is not a PCI bus id: expected [domain:]bus:device.function in hex, "
                    "such as \"0000:01:00.0\"",
                    pciBusId);
    }
    char wanted[32];  // roomier than any id, so the compiler sees no truncation
    std::snprintf(wanted, sizeof wanted, "%04x:%02x:%02x.%x", parts[0], parts[1], parts[2],
                  parts[3]);
    for (Device* device : Runtime::Get().devices()) {
        char id[32];
        FormatPciBusId(device->physical_id(), id, sizeof id);
        if (std::strcmp(id, wanted) == 0) {
            *deviceId = device->id();
            return ACL_SUCCESS;
        }
    }
    return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                "no device visible to this process is at PCI bus id %s", pciBusId);
}

aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId) {
    OPENACL_API();
    if (logicDevId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "logicDevId is null");
    Device* device = Runtime::Get().DeviceById(userDevid);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    *logicDevId = static_cast<int32_t>(device->physical_id());
    return ACL_SUCCESS;
}

aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t* const userDevid) {
    OPENACL_API();
    if (userDevid == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "userDevid is null");
    for (Device* device : Runtime::Get().devices()) {
        if (static_cast<int64_t>(device->physical_id()) == logicDevId) {
            *userDevid = device->id();
            return ACL_SUCCESS;
        }
    }
    return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                "logical device %d is not visible to this process (ASCEND_RT_VISIBLE_DEVICES)",
                logicDevId);
}

// Outside a container the physical and logical ids of a device are the same.
aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t* const logicDevId) {
    OPENACL_API();
    if (logicDevId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "logicDevId is null");
    if (aclError rc = CheckLogicalId(phyDevId, "physical device"); rc != ACL_SUCCESS) return rc;
    *logicDevId = phyDevId;
    return ACL_SUCCESS;
}

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId) {
    OPENACL_API();
    if (phyDevId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "phyDevId is null");
    if (aclError rc = CheckLogicalId(logicDevId, "logical device"); rc != ACL_SUCCESS) return rc;
    *phyDevId = logicDevId;
    return ACL_SUCCESS;
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status) {
    OPENACL_API();
    if (status == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "status is null");
    Device* device = Runtime::Get().DeviceById(deviceId);
    if (device == nullptr || Runtime::Get().DeviceById(peerDeviceId) == nullptr) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    if (deviceId == peerDeviceId) {
        return Fail(ACL_ERROR_INVALID_PARAM, "deviceId and peerDeviceId are both %d", deviceId);
    }
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    *status = device->peers.count(peerDeviceId) != 0 ? 1 : 0;
    return ACL_SUCCESS;
}

namespace {

aclError FillAtomicCapabilities(uint32_t* capabilities, const aclrtAtomicOperation* operations,
                                uint32_t count) {
    if (capabilities == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "capabilities is null");
    if (operations == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "operations is null");
    // Check every entry before writing any, so a bad one leaves the output untouched.
    uint32_t bits = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (aclError rc = openacl::AtomicCapabilities(operations[i], i, &bits); rc != ACL_SUCCESS)
            return rc;
    }
    for (uint32_t i = 0; i < count; ++i)
        openacl::AtomicCapabilities(operations[i], i, &capabilities[i]);
    return ACL_SUCCESS;
}

}  // namespace

aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t* capabilities,
                                              const aclrtAtomicOperation* operations,
                                              const uint32_t count, int32_t deviceId) {
    OPENACL_API();
    if (Runtime::Get().DeviceById(deviceId) == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    return FillAtomicCapabilities(capabilities, operations, count);
}

aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t* capabilities,
                                             const aclrtAtomicOperation* operations,
                                             const uint32_t count, int32_t srcDeviceId,
                                             int32_t dstDeviceId) {
    OPENACL_API();
    if (Runtime::Get().DeviceById(srcDeviceId) == nullptr ||
        Runtime::Get().DeviceById(dstDeviceId) == nullptr) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    return FillAtomicCapabilities(capabilities, operations, count);
}

aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value) {
    OPENACL_API();
    return openacl::SetDeviceLimit(limit, value);
}

aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    return openacl::GetDeviceLimit(limit, value);
}

// ---- Core resource limits ----------------------------------------------------------------

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    if (aclError rc = RequireResLimits("device resource limits", false); rc != ACL_SUCCESS)
        return rc;
    if (Runtime::Get().DeviceById(deviceId) == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    if (aclError rc = openacl::CheckResLimitType(type); rc != ACL_SUCCESS) return rc;
    *value = openacl::DeviceResLimit(deviceId, type);
    return ACL_SUCCESS;
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
    OPENACL_API();
    if (aclError rc = RequireResLimits("device resource limits", false); rc != ACL_SUCCESS)
        return rc;
    if (Runtime::Get().DeviceById(deviceId) == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    if (aclError rc = openacl::CheckResLimitType(type); rc != ACL_SUCCESS) return rc;
    if (aclError rc = openacl::CheckResLimitValue(type, value); rc != ACL_SUCCESS) return rc;
    openacl::SetDeviceResLimit(deviceId, type, value);
    return ACL_SUCCESS;
}

aclError aclrtResetDeviceResLimit(int32_t deviceId) {
    OPENACL_API();
    if (aclError rc = RequireResLimits("device resource limits", false); rc != ACL_SUCCESS)
        return rc;
    if (Runtime::Get().DeviceById(deviceId) == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    openacl::ResetDeviceResLimit(deviceId);
    return ACL_SUCCESS;
}

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    aclError rc = ACL_SUCCESS;
    openacl::Stream* s = ResStream(stream, &rc);
    if (s == nullptr) return rc;
    if (rc = openacl::CheckResLimitType(type); rc != ACL_SUCCESS) return rc;
    *value = openacl::StreamResLimit(s->id(), DeviceOf(s), type);
    return ACL_SUCCESS;
}

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* s = ResStream(stream, &rc);
    if (s == nullptr) return rc;
    if (rc = openacl::CheckResLimitType(type); rc != ACL_SUCCESS) return rc;
    if (rc = openacl::CheckResLimitValue(type, value); rc != ACL_SUCCESS) return rc;
    openacl::SetStreamResLimit(s->id(), DeviceOf(s), type, value);
    return ACL_SUCCESS;
}

aclError aclrtResetStreamResLimit(aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* s = ResStream(stream, &rc);
    if (s == nullptr) return rc;
    openacl::ResetStreamResLimit(s->id());
    return ACL_SUCCESS;
}

aclError aclrtUseStreamResInCurrentThread(aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* s = ResStream(stream, &rc);
    if (s == nullptr) return rc;
    if (!openacl::StreamHasResLimit(s->id())) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "stream %d has no resource limits: call aclrtSetStreamResLimit on it first",
                    s->id());
    }
    openacl::UseStreamResInThread(s->id());
    return ACL_SUCCESS;
}

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* s = ResStream(stream, &rc);
    if (s == nullptr) return rc;
    if (!openacl::UnuseStreamResInThread(s->id())) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "this thread is not using the resource limits of stream %d "
                    "(aclrtUseStreamResInCurrentThread)",
                    s->id());
    }
    return ACL_SUCCESS;
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    if (aclError rc = RequireResLimits("thread resource limits", true); rc != ACL_SUCCESS)
        return rc;
    if (aclError rc = openacl::CheckResLimitType(type); rc != ACL_SUCCESS) return rc;
    aclError rc = ACL_SUCCESS;
    openacl::Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    *value = openacl::ResInCurrentThread(ctx->device()->id(), type);
    return ACL_SUCCESS;
}

// ---- Utilisation --------------------------------------------------------------------------

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo) {
    OPENACL_API();
    if (utilizationInfo == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "utilizationInfo is null");
    if (utilizationInfo->utilizationExtend != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "utilizationInfo->utilizationExtend is reserved and must be NULL");
    }
    if (Runtime::Get().DeviceById(deviceId) == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    utilizationInfo->cubeUtilization = kUnmeasured;
    utilizationInfo->vectorUtilization = kUnmeasured;
    utilizationInfo->aicpuUtilization = kUnmeasured;
    utilizationInfo->memoryUtilization = kNotSupported;
    return ACL_SUCCESS;
}

// ---- Compute groups -----------------------------------------------------------------------

aclError aclrtGetGroupCount(uint32_t* count) {
    OPENACL_API();
    if (count == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "count is null");
    if (aclError rc = openacl::RequireGroups(); rc != ACL_SUCCESS) return rc;
    aclError rc = ACL_SUCCESS;
    if (openacl::RequireContext(&rc) == nullptr) return rc;
    *count = openacl::kGroupCount;
    return ACL_SUCCESS;
}

aclrtGroupInfo* aclrtCreateGroupInfo(void) {
    OPENACL_API();
    if (openacl::RequireGroups() != ACL_SUCCESS) return nullptr;
    return openacl::CreateGroupInfo();
}

aclError aclrtDestroyGroupInfo(aclrtGroupInfo* groupInfo) {
    OPENACL_API();
    if (aclError rc = openacl::RequireGroups(); rc != ACL_SUCCESS) return rc;
    if (groupInfo == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "groupInfo is null");
    if (!openacl::DestroyGroupInfo(groupInfo)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "groupInfo %p was not made by aclrtCreateGroupInfo, or is already destroyed",
                    static_cast<void*>(groupInfo));
    }
    return ACL_SUCCESS;
}

aclError aclrtGetAllGroupInfo(aclrtGroupInfo* groupInfo) {
    OPENACL_API();
    if (aclError rc = openacl::RequireGroups(); rc != ACL_SUCCESS) return rc;
    if (groupInfo == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "groupInfo is null");
    if (!openacl::IsLiveGroupInfo(groupInfo)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "groupInfo %p is not a live aclrtCreateGroupInfo result",
                    static_cast<void*>(groupInfo));
    }
    aclError rc = ACL_SUCCESS;
    if (openacl::RequireContext(&rc) == nullptr) return rc;
    openacl::FillGroupInfo(groupInfo);
    return ACL_SUCCESS;
}

aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo* groupInfo, int32_t groupIndex,
                                 aclrtGroupAttr attr, void* attrValue, size_t valueLen,
                                 size_t* paramRetSize) {
    OPENACL_API();
    if (aclError rc = openacl::RequireGroups(); rc != ACL_SUCCESS) return rc;
    if (groupInfo == nullptr || attrValue == nullptr || paramRetSize == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "groupInfo, attrValue and paramRetSize must not be null");
    }
    if (!openacl::IsLiveGroupInfo(groupInfo)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "groupInfo %p is not a live aclrtCreateGroupInfo result",
                    static_cast<const void*>(groupInfo));
    }
    if (groupIndex < 0 || static_cast<uint32_t>(groupIndex) >= openacl::kGroupCount) {
        return Fail(ACL_ERROR_INVALID_PARAM, "groupIndex %d is outside [0, %u)", groupIndex,
                    openacl::kGroupCount);
    }
    const aclrtGroupInfo& group = groupInfo[groupIndex];
    if (!group.filled) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "groupInfo holds nothing yet: fill it with aclrtGetAllGroupInfo first");
    }
    int32_t value = 0;
    switch (attr) {
        case ACL_GROUP_AICORE_INT:
            value = group.ai_cores;
            break;
        case ACL_GROUP_AIV_INT:
            value = group.vector_cores;
            break;
        case ACL_GROUP_AIC_INT:
            value = group.cube_cores;
            break;
        case ACL_GROUP_SDMANUM_INT:
            value = group.sdma_engines;
            break;
        case ACL_GROUP_ASQNUM_INT:
            value = group.async_queues;
            break;
        case ACL_GROUP_GROUPID_INT:
            value = group.group_id;
            break;
        default:
            return Fail(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclrtGroupAttr",
                        static_cast<int>(attr));
    }
    if (valueLen < sizeof value) {
        return Fail(ACL_ERROR_INVALID_PARAM, "valueLen %zu is too small for the %zu-byte value",
                    valueLen, sizeof value);
    }
    std::memcpy(attrValue, &value, sizeof value);
    *paramRetSize = sizeof value;
    return ACL_SUCCESS;
}

aclError aclrtSetGroup(int32_t groupId) {
    OPENACL_API();
    if (aclError rc = openacl::RequireGroups(); rc != ACL_SUCCESS) return rc;
    aclError rc = ACL_SUCCESS;
    if (openacl::RequireContext(&rc) == nullptr) return rc;
    // The one group holds the whole device, so choosing it changes nothing.
    if (groupId != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "groupId %d is not a group of this device: its one group has id 0", groupId);
    }
    return ACL_SUCCESS;
}

// ---- Chip facilities ----------------------------------------------------------------------

aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible) {
    OPENACL_API();
    if (socVersion == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "socVersion is null");
    if (canCompatible == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "canCompatible is null");
    if (*socVersion == '\0') return Fail(ACL_ERROR_INVALID_PARAM, "socVersion is empty");
    const std::string& configured = Runtime::Get().config().soc_name;
    // Operator binaries built for one chip of a family run on its siblings: they share the
    // instruction set (__NPU_ARCH__). A chip the table does not know matches only itself.
    const openacl::SocSpec* given = openacl::FindSoc(socVersion);
    const openacl::SocSpec* ours = openacl::FindSoc(configured);
    bool compatible = configured == socVersion;
    if (given != nullptr && ours != nullptr) {
        compatible =
            given->npu_arch == ours->npu_arch && std::strcmp(given->family, ours->family) == 0;
    }
    *canCompatible = compatible ? 1 : 0;
    return ACL_SUCCESS;
}

aclError aclrtDeviceL2CacheFlush(void* rsv) {
    OPENACL_API();
    if (rsv != nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "rsv is reserved and must be NULL");
    aclError rc = ACL_SUCCESS;
    if (openacl::RequireContext(&rc) == nullptr) return rc;
    // Device memory is host memory, and the host's caches are coherent: nothing a device wrote
    // waits in a cache the host cannot see, so there is nothing to write back.
    return ACL_SUCCESS;
}

aclError aclrtGetHardwareSyncAddr(void** addr) {
    OPENACL_API();
    if (addr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "addr is null");
    if (openacl::CurrentChipLine() != ChipLine::kAtlasA2A3) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s has no Cube/Vector hardware synchronisation address (CANN documents it "
                    "for Atlas A2/A3)",
                    Runtime::Get().config().soc_name.c_str());
    }
    *addr = g_hardware_sync_word;
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetBareTgid(int32_t* pid) {
    OPENACL_API();
    if (pid == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "pid is null");
    // No virtual machine stands between the process and its devices: the id is getpid()'s.
    *pid = static_cast<int32_t>(getpid());
    return ACL_SUCCESS;
}

aclError aclrtSetTsDevice(aclrtTsId tsId) {
    OPENACL_API();
    if (tsId != ACL_TS_ID_AICORE && tsId != ACL_TS_ID_AIVECTOR) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "tsId %d is not ACL_TS_ID_AICORE (0) or ACL_TS_ID_AIVECTOR (1)",
                    static_cast<int>(tsId));
    }
    // One scheduler, the device's executor, runs AI Core and Vector Core tasks alike, the case
    // CANN describes as a chip with only the AI Core scheduler: the choice has no effect.
    return ACL_SUCCESS;
}
