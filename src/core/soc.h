// The emulated chip (openacl.soc_name / OPENACL_SOC_NAME): the per-SoC figures that programs
// query to size their work — AI Core, Cube Core and Vector Core counts, L2 size — as Huawei's
// platform descriptions give them for each product. Kernels still run on the host's cores; a
// program that tiles for 48 vector cores gets 48 blocks, spread over whatever the host has.
#pragma once

#include <cstdint>
#include <string>

namespace openacl {

struct SocSpec {
    const char* family;    // for messages and docs: "Atlas A2 (910B)"
    int64_t ai_cores;      // ACL_DEV_ATTR_AICORE_CORE_NUM, ACL_DEVICE_INFO_AI_CORE_NUM
    int64_t cube_cores;    // ACL_DEV_ATTR_CUBE_CORE_NUM
    int64_t vector_cores;  // ACL_DEV_ATTR_VECTOR_CORE_NUM, ACL_DEVICE_INFO_VECTOR_CORE_NUM
    int64_t l2_bytes;      // ACL_DEV_ATTR_L2_CACHE_SIZE, ACL_DEVICE_INFO_L2_SIZE
    int64_t ub_bytes;      // Unified Buffer per core, for Ascend C tiling
    int32_t npu_arch;      // __NPU_ARCH__: 2201 (separated AIC:AIV = 1:2), 2002, 3510
    bool separated;        // cube and vector units are distinct cores (AIC + 2 AIV)
};

// The figures of a soc name, or nullptr for a name this table does not describe (those
// answer with the host's own figures: see CurrentSoc).
const SocSpec* FindSoc(const std::string& soc_name);

// The configured chip's figures. A name the table lacks gets the host's core count and L2
// size, and one warning saying so, rather than figures of another chip.
SocSpec CurrentSoc();

}  // namespace openacl
