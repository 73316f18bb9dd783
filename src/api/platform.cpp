// acl/acl_platform.h: the configured chip's figures (core/soc.h) as text, as CANN reads them
// from the chip's platform description. Figures openacl's table lacks (clock rates, the AI Core
// version, the memory type) answer ACL_ERROR_OP_NOT_FOUND, as CANN does for a missing key.
#include "acl/acl_platform.h"

#include <cstdio>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "core/device.h"
#include "core/error.h"
#include "core/runtime.h"
#include "core/soc.h"

namespace {

using openacl::Fail;

constexpr int64_t kKiB = 1024;

// The cube unit's buffers per architecture (the sizes Ascend C kernels see in
// src/ascendc/include/kernel_arch.h, before the bytes mix kernels reserve).
struct CubeBuffers {
    int64_t l0a, l0b, l0c, l1, bias_table;
};

CubeBuffers BuffersOf(int32_t npu_arch) {
    switch (npu_arch) {
        case 2002:
            return {64 * kKiB, 64 * kKiB, 256 * kKiB, 1024 * kKiB, 0};
        case 3510:
            return {64 * kKiB, 64 * kKiB, 256 * kKiB, 512 * kKiB, 4 * kKiB};
        default:  // 2201: Atlas A2/A3
            return {64 * kKiB, 64 * kKiB, 128 * kKiB, 512 * kKiB, 1 * kKiB};
    }
}

aclError Answer(const std::string& text, char* value, uint32_t max_len) {
    if (text.size() + 1 > max_len) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "maxLen %u is too small for \"%s\": it needs %zu bytes with the NUL", max_len,
                    text.c_str(), text.size() + 1);
    }
    std::memcpy(value, text.c_str(), text.size() + 1);
    return ACL_SUCCESS;
}

}  // namespace

aclError aclplatformGetDeviceInfo(aclplatformDevInfo infoType, char* value, uint32_t maxLen) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    if (maxLen == 0) return Fail(ACL_ERROR_INVALID_PARAM, "maxLen is 0");
    const openacl::SocSpec soc = openacl::CurrentSoc();
    const CubeBuffers cube = BuffersOf(soc.npu_arch);
    const std::string& soc_name = openacl::Runtime::Get().config().soc_name;
    auto number = [&](int64_t n) { return Answer(std::to_string(n), value, maxLen); };
    switch (infoType) {
        case ACL_PLATFORM_AICORE_CNT:
            return number(soc.ai_cores);
        case ACL_PLATFORM_AICORE_UB_SIZE:
            return number(soc.ub_bytes);
        case ACL_PLATFORM_CUBE_CORE_CNT:
            return number(soc.cube_cores);
        case ACL_PLATFORM_VECTOR_CORE_CNT:
            return number(soc.vector_cores);
        case ACL_PLATFORM_L2_SIZE:
            return number(soc.l2_bytes);
        case ACL_PLATFORM_MEMORY_SIZE: {
            // The device memory openacl gives device 0 (aclrtGetMemInfo's total).
            openacl::Device* device = openacl::Runtime::Get().DeviceById(0);
            if (device == nullptr) return ACL_ERROR_RT_INVALID_DEVICEID;
            return number(static_cast<int64_t>(device->memory().capacity()));
        }
        case ACL_PLATFORM_BT_SIZE:
            return number(cube.bias_table);
        case ACL_PLATFORM_L0_A_SIZE:
            return number(cube.l0a);
        case ACL_PLATFORM_L0_B_SIZE:
            return number(cube.l0b);
        case ACL_PLATFORM_L0_C_SIZE:
            return number(cube.l0c);
        case ACL_PLATFORM_L1_SIZE:
            return number(cube.l1);
        case ACL_PLATFORM_SOC_VERSION:
            return Answer(soc_name, value, maxLen);
        case ACL_PLATFORM_NPU_ARCH:
            return number(soc.npu_arch);
        case ACL_PLATFORM_CUBE_FREQ:
        case ACL_PLATFORM_VEC_FREQ:
        case ACL_PLATFORM_AIC_VERSION:
        case ACL_PLATFORM_MEMORY_TYPE:
            return Fail(ACL_ERROR_OP_NOT_FOUND,
                        "openacl's description of %s has no figure %d (clock rates, the AI Core "
                        "version and the memory type are not emulated)",
                        soc_name.c_str(), static_cast<int>(infoType));
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "infoType %d is not an aclplatformDevInfo",
                static_cast<int>(infoType));
}
