// The local-memory sizes of each chip family, the same table kernel_arch.h gives kernels per
// __NPU_ARCH__, for host code that has to pick a chip at run time by its SoC name.
#ifndef OPENACL_ASCENDC_TILING_PLATFORM_PLATFORM_ASCENDC_CHIPS_H_
#define OPENACL_ASCENDC_TILING_PLATFORM_PLATFORM_ASCENDC_CHIPS_H_

#include <cstdint>
#include <string_view>

namespace openacl::ascendc::platform {

struct ChipMemory {
    uint32_t npuArch;
    bool separated;  // AIC and AIV are separate cores (1:2)
    uint32_t ub, l1, l0a, l0b, l0c, bt;
};

constexpr uint32_t kKiB = 1024;

constexpr ChipMemory ChipMemoryOf(uint32_t npuArch) {
    switch (npuArch) {
        case 1001:
        case 2002:
            return {npuArch, false, 256 * kKiB, 1024 * kKiB, 64 * kKiB, 64 * kKiB, 256 * kKiB, 0};
        case 3002:
            return {npuArch,   false,     248 * kKiB, 1024 * kKiB,
                    64 * kKiB, 64 * kKiB, 128 * kKiB, 1 * kKiB};
        case 3510:
            return {npuArch,   true,      248 * kKiB, 512 * kKiB,
                    64 * kKiB, 64 * kKiB, 256 * kKiB, 4 * kKiB};
        default:  // 2201
            return {2201,      true,      192 * kKiB - 256, 512 * kKiB - 256,
                    64 * kKiB, 64 * kKiB, 128 * kKiB,       1 * kKiB};
    }
}

// Host programs that include the tiling headers may be C++17 (CANN's samples are): no
// string_view::starts_with.
constexpr bool StartsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

// __NPU_ARCH__ of a SoC name ("Ascend910B1" -> 2201).
constexpr uint32_t NpuArchOf(std::string_view soc) {
    if (StartsWith(soc, "Ascend910B") || StartsWith(soc, "Ascend910_93")) return 2201;
    if (StartsWith(soc, "Ascend310P")) return 2002;
    if (StartsWith(soc, "Ascend310B")) return 3002;
    if (StartsWith(soc, "Ascend950")) return 3510;
    if (StartsWith(soc, "Ascend910")) return 1001;
    return 2201;
}

}  // namespace openacl::ascendc::platform

#endif  // OPENACL_ASCENDC_TILING_PLATFORM_PLATFORM_ASCENDC_CHIPS_H_
