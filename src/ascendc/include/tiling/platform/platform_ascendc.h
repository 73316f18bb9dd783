// platform_ascendc::PlatformAscendC: what host tiling code asks about the chip (core counts,
// memory sizes, SoC version). openacl answers for the chip it emulates: the SoC name and core
// counts come from libascendcl (aclrtGetSocName, aclGetDeviceCapability on device 0), the
// local-memory sizes from the chip's table (platform_ascendc_chips.h). No device needs to be
// set and aclInit need not have been called.
#ifndef OPENACL_ASCENDC_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#define OPENACL_ASCENDC_TILING_PLATFORM_PLATFORM_ASCENDC_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc_chips.h"

namespace fe {
class PlatFormInfos;  // the framework's platform description; openacl reads the runtime instead
}

namespace platform_ascendc {

enum class CoreMemType {
    L0_A = 0,
    L0_B = 1,
    L0_C = 2,
    L1 = 3,
    L2 = 4,
    UB = 5,
    HBM = 6,
    FB = 7,
    BT = 8,
    RESERVED
};

enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND910_93,
    ASCEND950,
    ASCEND310P,
    ASCEND310B,
    RESERVED_VERSION = 99999
};

class PlatformAscendC {
 public:
    PlatformAscendC() { Load(); }
    explicit PlatformAscendC(fe::PlatFormInfos*) { Load(); }

    // Cores a vector kernel spreads over: the AIVs where cube and vector cores are separate,
    // the AI cores otherwise.
    uint32_t GetCoreNum() const { return memory_.separated ? aiv_ : aic_; }
    uint32_t GetCoreNumAic() const { return aic_; }
    uint32_t GetCoreNumAiv() const { return memory_.separated ? aiv_ : aic_; }
    // The separate Vector Cores of coupled chips (310P); 0 where there are none.
    uint32_t GetCoreNumVector() const { return memory_.separated ? 0 : aiv_; }
    SocVersion GetSocVersion() const { return version_; }
    const char* GetSocName() const { return soc_.c_str(); }

    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
        switch (memType) {
            case CoreMemType::L0_A:
                size = memory_.l0a;
                break;
            case CoreMemType::L0_B:
                size = memory_.l0b;
                break;
            case CoreMemType::L0_C:
                size = memory_.l0c;
                break;
            case CoreMemType::L1:
                size = memory_.l1;
                break;
            case CoreMemType::UB:
                size = memory_.ub;
                break;
            case CoreMemType::BT:
                size = memory_.bt;
                break;
            case CoreMemType::L2:
                size = l2_;
                break;
            default:  // HBM, FB, RESERVED: not modelled
                size = 0;
                break;
        }
    }
    // Bandwidths are not modelled.
    void GetCoreMemBw(const CoreMemType&, uint64_t& bandwidth) const { bandwidth = 0; }

    // The system workspace the high-level APIs (Matmul, SyncAll) need, which the host adds to
    // the kernel's workspace size.
    uint32_t GetLibApiWorkSpaceSize() const { return 16 * 1024 * 1024; }

    // Blocks for a kernel that splits its data into sliceNum parts: where AIC and AIV are
    // separate and a kernel uses both, one block is a group of one AIC and its AIVs.
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        if (!memory_.separated || aicCoreNum == 0 || aivCoreNum == 0) return sliceNum;
        uint32_t ratio = aivCoreNum / aicCoreNum;
        if (ratio == 0) ratio = 1;
        return (sliceNum + ratio - 1) / ratio;
    }
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
    }

 private:
    void Load() {
        const char* name = aclrtGetSocName();
        soc_ = name != nullptr ? name : "";
        memory_ =
            openacl::ascendc::platform::ChipMemoryOf(openacl::ascendc::platform::NpuArchOf(soc_));
        int64_t value = 0;
        if (aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &value) == ACL_SUCCESS) {
            aic_ = static_cast<uint32_t>(value);
        }
        if (aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &value) == ACL_SUCCESS) {
            aiv_ = static_cast<uint32_t>(value);
        }
        if (aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &value) == ACL_SUCCESS) {
            l2_ = static_cast<uint64_t>(value);
        }
        std::string_view soc = soc_;
        if (openacl::ascendc::platform::StartsWith(soc, "Ascend910B")) {
            version_ = SocVersion::ASCEND910B;
        } else if (openacl::ascendc::platform::StartsWith(soc, "Ascend910_93")) {
            version_ = SocVersion::ASCEND910_93;
        } else if (openacl::ascendc::platform::StartsWith(soc, "Ascend910")) {
            version_ = SocVersion::ASCEND910;
        } else if (openacl::ascendc::platform::StartsWith(soc, "Ascend310P")) {
            version_ = SocVersion::ASCEND310P;
        } else if (openacl::ascendc::platform::StartsWith(soc, "Ascend310B")) {
            version_ = SocVersion::ASCEND310B;
        } else if (openacl::ascendc::platform::StartsWith(soc, "Ascend950")) {
            version_ = SocVersion::ASCEND950;
        }
    }

    std::string soc_;
    openacl::ascendc::platform::ChipMemory memory_ = openacl::ascendc::platform::ChipMemoryOf(2201);
    uint32_t aic_ = 0;
    uint32_t aiv_ = 0;
    uint64_t l2_ = 0;
    SocVersion version_ = SocVersion::RESERVED_VERSION;
};

class PlatformAscendCManager {
 public:
    // The platform of the chip openacl emulates (read once; the name argument is accepted for
    // compatibility and must name that chip's family to be meaningful).
    static PlatformAscendC* GetInstance() {
        static PlatformAscendC platform;
        return &platform;
    }
    static PlatformAscendC* GetInstance(const char*) { return GetInstance(); }
};

}  // namespace platform_ascendc

#endif  // OPENACL_ASCENDC_TILING_PLATFORM_PLATFORM_ASCENDC_H_
