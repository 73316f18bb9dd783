// MatmulConfig and the preset configurations (CFG_NORM, CFG_MDL, ...). On the CPU every
// configuration computes the same results; the settings are kept for kernels that read them.
#ifndef OPENACL_ASCENDC_LIB_MATMUL_MATMUL_CONFIG_H_
#define OPENACL_ASCENDC_LIB_MATMUL_MATMUL_CONFIG_H_

#include <cstdint>

namespace AscendC {

enum class MatmulConfigMode : uint8_t {
    CONFIG_NORM,
    CONFIG_MDL,
    CONFIG_SPECIALMDL,
    CONFIG_IBSHARE,
};

enum class IterateOrder : uint8_t { ORDER_M = 0, ORDER_N, UNDEF };

struct MatmulConfig {
    bool doNorm = false;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0;
    uint32_t basicN = 0;
    uint32_t basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0;
    uint32_t singleCoreN = 0;
    uint32_t singleCoreK = 0;
    uint32_t stepM = 0;
    uint32_t stepN = 0;
    uint32_t baseMN = 0;
    uint32_t singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
    bool doIBShareNorm = false;
    bool doSpecialMDL = false;
    bool enableInit = true;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = 0;
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool enableL1CacheUB = false;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
};

// The presets take CANN's optional tuning arguments and ignore them.
template <typename... Options>
__aicore__ constexpr MatmulConfig GetNormalConfig(Options...) {
    MatmulConfig config;
    config.doNorm = true;
    return config;
}
template <typename... Options>
__aicore__ constexpr MatmulConfig GetMDLConfig(Options...) {
    MatmulConfig config;
    config.doMultiDataLoad = true;
    return config;
}
template <typename... Options>
__aicore__ constexpr MatmulConfig GetSpecialMDLConfig(Options...) {
    MatmulConfig config;
    config.doSpecialMDL = true;
    return config;
}
template <typename... Options>
__aicore__ constexpr MatmulConfig GetIBShareNormConfig(Options...) {
    MatmulConfig config;
    config.doIBShareNorm = true;
    return config;
}
template <typename... Options>
__aicore__ constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK,
                                                 Options...) {
    MatmulConfig config;
    config.doBasicBlock = true;
    config.basicM = basicM;
    config.basicN = basicN;
    config.basicK = basicK;
    return config;
}

template <MatmulConfigMode mode, typename... Options>
__aicore__ constexpr MatmulConfig GetMMConfig(Options... options) {
    if constexpr (mode == MatmulConfigMode::CONFIG_MDL) {
        return GetMDLConfig(options...);
    } else if constexpr (mode == MatmulConfigMode::CONFIG_SPECIALMDL) {
        return GetSpecialMDLConfig(options...);
    } else if constexpr (mode == MatmulConfigMode::CONFIG_IBSHARE) {
        return GetIBShareNormConfig(options...);
    } else {
        return GetNormalConfig(options...);
    }
}

}  // namespace AscendC

inline constexpr AscendC::MatmulConfig CFG_NORM = AscendC::GetNormalConfig();
inline constexpr AscendC::MatmulConfig CFG_MDL = AscendC::GetMDLConfig();
inline constexpr AscendC::MatmulConfig CFG_IBSHARE_NORM = AscendC::GetIBShareNormConfig();
inline constexpr AscendC::MatmulConfig MM_CFG_BB = AscendC::GetBasicConfig(128, 128, 128);

#endif  // OPENACL_ASCENDC_LIB_MATMUL_MATMUL_CONFIG_H_
