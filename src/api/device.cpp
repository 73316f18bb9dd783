// Device management: selection, reference counts, queries, peer access.
#include <cstring>

#include "acl/acl.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/mem_pool.h"
#include "core/runtime.h"
#include "core/soc.h"

using openacl::Device;
using openacl::Fail;
using openacl::Runtime;

aclError aclrtSetDevice(int32_t deviceId) {
    OPENACL_API();
    return openacl::SetDevice(deviceId);
}

aclError aclrtResetDevice(int32_t deviceId) {
    OPENACL_API();
    return openacl::ResetDevice(deviceId, false);
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
    OPENACL_API();
    return openacl::ResetDevice(deviceId, true);
}

aclError aclrtGetDevice(int32_t* deviceId) {
    OPENACL_API();
    if (deviceId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "deviceId is null");
    aclError rc = ACL_SUCCESS;
    openacl::Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    *deviceId = ctx->device()->id();
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
    OPENACL_API();
    if (count == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "count is null");
    *count = Runtime::Get().DeviceCount();
    return ACL_SUCCESS;
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
    OPENACL_API();
    if (runMode == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "runMode is null");
    *runMode = ACL_HOST;  // the application always runs on the host CPU
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) {
    OPENACL_API();
    const aclError rc = openacl::SynchronizeDevice(-1);
    if (rc == ACL_SUCCESS) openacl::mem_pool::AfterSynchronize();
    return rc;
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
    OPENACL_API();
    const aclError rc = openacl::SynchronizeDevice(timeout);
    if (rc == ACL_SUCCESS) openacl::mem_pool::AfterSynchronize();
    return rc;
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    Device* device = Runtime::Get().DeviceById(deviceId);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    switch (attr) {
        case ACL_DEV_ATTR_AICPU_CORE_NUM:
            // AI CPU tasks run on the host's threads; no public per-chip figure to follow.
            *value = openacl::HostCoreCount();
            return ACL_SUCCESS;
        case ACL_DEV_ATTR_AICORE_CORE_NUM:
            *value = openacl::CurrentSoc().ai_cores;
            return ACL_SUCCESS;
        case ACL_DEV_ATTR_CUBE_CORE_NUM:
            *value = openacl::CurrentSoc().cube_cores;
            return ACL_SUCCESS;
        case ACL_DEV_ATTR_VECTOR_CORE_NUM:
            *value = openacl::CurrentSoc().vector_cores;
            return ACL_SUCCESS;
        case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
            *value = static_cast<int64_t>(device->memory().capacity());
            return ACL_SUCCESS;
        case ACL_DEV_ATTR_L2_CACHE_SIZE:
            *value = openacl::CurrentSoc().l2_bytes;
            return ACL_SUCCESS;
        case ACL_DEV_ATTR_PHY_CHIP_ID:
            *value = device->physical_id();
            return ACL_SUCCESS;
        case ACL_DEV_ATTR_IS_VIRTUAL:
            *value = 0;
            return ACL_SUCCESS;
        default:
            break;
    }
    if (attr == ACL_DEV_ATTR_WARP_SIZE || attr == ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE ||
        attr == ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE || attr == ACL_DEV_ATTR_SMP_ID ||
        (attr >= ACL_DEV_ATTR_MAX_GRID_DIM_X && attr <= ACL_DEV_ATTR_MAX_BLOCK_DIM_Z) ||
        (attr >= ACL_DEV_ATTR_SUPER_POD_DEVICE_ID && attr <= ACL_DEV_ATTR_DEVICE_FORM_FACTOR) ||
        attr == ACL_DEV_ATTR_NPU_ARCH) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "attribute %d describes Ascend hardware that a CPU device does not have",
                    static_cast<int>(attr));
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclrtDevAttr", static_cast<int>(attr));
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    if (Runtime::Get().DeviceById(deviceId) == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    switch (deviceInfo) {
        case ACL_DEVICE_INFO_AI_CORE_NUM:
            *value = openacl::CurrentSoc().ai_cores;
            return ACL_SUCCESS;
        case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
            *value = openacl::CurrentSoc().vector_cores;
            return ACL_SUCCESS;
        case ACL_DEVICE_INFO_L2_SIZE:
            *value = openacl::CurrentSoc().l2_bytes;
            return ACL_SUCCESS;
        default:
            return Fail(ACL_ERROR_INVALID_PARAM, "deviceInfo %d is not an aclDeviceInfo",
                        static_cast<int>(deviceInfo));
    }
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                  int32_t* value) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    if (Runtime::Get().DeviceById(deviceId) == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    if (devFeatureType != ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV &&
        devFeatureType != ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV) {
        return Fail(ACL_ERROR_INVALID_PARAM, "devFeatureType %d is not an aclrtDevFeatureType",
                    static_cast<int>(devFeatureType));
    }
    *value = ACL_DEV_FEATURE_NOT_SUPPORT;  // both are Ascend task-scheduler features
    return ACL_SUCCESS;
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus) {
    OPENACL_API();
    if (deviceStatus == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "deviceStatus is null");
    if (Runtime::Get().DeviceById(deviceId) == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid) {
    OPENACL_API();
    if (uuid == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "uuid is null");
    Device* device = Runtime::Get().DeviceById(deviceId);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    // Stable per physical id, so programs that key caches by UUID behave across runs.
    std::memset(uuid->bytes, 0, sizeof uuid->bytes);
    std::memcpy(uuid->bytes, "openacl-cpu-", 12);
    uint32_t id = device->physical_id();
    std::memcpy(uuid->bytes + 12, &id, sizeof id);
    return ACL_SUCCESS;
}

aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t* const phyDevId) {
    OPENACL_API();
    if (phyDevId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "phyDevId is null");
    Device* device = Runtime::Get().DeviceById(userDevId);
    if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    *phyDevId = static_cast<int32_t>(device->physical_id());
    return ACL_SUCCESS;
}

aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t* const userDevId) {
    OPENACL_API();
    if (userDevId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "userDevId is null");
    for (Device* device : Runtime::Get().devices()) {
        if (static_cast<int64_t>(device->physical_id()) == phyDevId) {
            *userDevId = device->id();
            return ACL_SUCCESS;
        }
    }
    return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                "physical device %d is not visible to this process (ASCEND_RT_VISIBLE_DEVICES)",
                phyDevId);
}

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
    OPENACL_API();
    if (canAccessPeer == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "canAccessPeer is null");
    if (Runtime::Get().DeviceById(deviceId) == nullptr ||
        Runtime::Get().DeviceById(peerDeviceId) == nullptr) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    if (deviceId == peerDeviceId) {
        return Fail(ACL_ERROR_INVALID_PARAM, "deviceId and peerDeviceId are both %d", deviceId);
    }
    *canAccessPeer = 1;  // all devices share the host's memory bus
    return ACL_SUCCESS;
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
    OPENACL_API();
    if (flags != 0) return Fail(ACL_ERROR_INVALID_PARAM, "flags must be 0, not %u", flags);
    Device* peer = Runtime::Get().DeviceById(peerDeviceId);
    if (peer == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    aclError rc = ACL_SUCCESS;
    openacl::Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    if (ctx->device() == peer) {
        return Fail(ACL_ERROR_INVALID_PARAM, "device %d cannot be its own peer", peerDeviceId);
    }
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    ctx->device()->peers.insert(peerDeviceId);
    return ACL_SUCCESS;
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
    OPENACL_API();
    if (Runtime::Get().DeviceById(peerDeviceId) == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
    aclError rc = ACL_SUCCESS;
    openacl::Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    if (ctx->device()->peers.erase(peerDeviceId) == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "peer access from device %d to device %d was not enabled", ctx->device()->id(),
                    peerDeviceId);
    }
    return ACL_SUCCESS;
}

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
    OPENACL_API();
    if (mode != ACL_RT_OVERFLOW_MODE_SATURATION && mode != ACL_RT_OVERFLOW_MODE_INFNAN) {
        return Fail(ACL_ERROR_INVALID_PARAM, "mode %d is not a settable aclrtFloatOverflowMode",
                    static_cast<int>(mode));
    }
    aclError rc = ACL_SUCCESS;
    openacl::Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    ctx->device()->sat_mode = mode;
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
    OPENACL_API();
    if (mode == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "mode is null");
    aclError rc = ACL_SUCCESS;
    openacl::Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    std::lock_guard lock(Runtime::Get().lifecycle_mutex());
    *mode = ctx->device()->sat_mode;
    return ACL_SUCCESS;
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) {
    OPENACL_API();
    if (leastPriority == nullptr || greatestPriority == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "leastPriority and greatestPriority must not be null");
    }
    *leastPriority = 7;  // the header's documented range: 0 (highest) to 7
    *greatestPriority = 0;
    return ACL_SUCCESS;
}
