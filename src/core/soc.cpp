#include "core/soc.h"

#include <array>
#include <cstring>
#include <mutex>

#include "core/device.h"
#include "core/log.h"
#include "core/runtime.h"

namespace openacl {

namespace {

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kKiB = int64_t{1} << 10;

struct SocRow {
    const char* prefix;  // matches every name that starts with it, longest prefix wins
    SocSpec spec;
};

// Figures from the products' platform descriptions (../shared/docs/ascendc_reference.md 9.1).
// The 310P's AI Cores each hold a cube and a vector unit, and it has 7 separate Vector Cores.
constexpr std::array kSocs{
    SocRow{"Ascend910B1", {"Atlas A2 (910B)", 24, 24, 48, 192 * kMiB, 192 * kKiB, 2201, true}},
    SocRow{"Ascend910B2", {"Atlas A2 (910B)", 24, 24, 48, 192 * kMiB, 192 * kKiB, 2201, true}},
    SocRow{"Ascend910B3", {"Atlas A2 (910B)", 20, 20, 40, 96 * kMiB, 192 * kKiB, 2201, true}},
    SocRow{"Ascend910B4", {"Atlas A2 (910B)", 20, 20, 40, 96 * kMiB, 192 * kKiB, 2201, true}},
    SocRow{"Ascend310P", {"Atlas inference (310P)", 8, 8, 7, 16 * kMiB, 256 * kKiB, 2002, false}},
    SocRow{"Ascend950", {"Ascend 950", 36, 36, 72, 128 * kMiB, 248 * kKiB, 3510, true}},
};

bool StartsWith(const std::string& s, const char* prefix) {
    return s.compare(0, std::strlen(prefix), prefix) == 0;
}

}  // namespace

const SocSpec* FindSoc(const std::string& soc_name) {
    const SocRow* best = nullptr;
    for (const SocRow& row : kSocs) {
        if (StartsWith(soc_name, row.prefix) &&
            (best == nullptr || std::strlen(row.prefix) > std::strlen(best->prefix))) {
            best = &row;
        }
    }
    return best == nullptr ? nullptr : &best->spec;
}

SocSpec CurrentSoc() {
    const std::string& name = Runtime::Get().config().soc_name;
    if (const SocSpec* spec = FindSoc(name)) return *spec;
    static std::once_flag warned;
    std::call_once(warned, [&] {
        OPENACL_LOG_WARNING(
            "soc %s has no figures in openacl's table (core/soc.cpp); core counts and "
            "L2 size describe this host instead",
            name.c_str());
    });
    const int64_t cores = HostCoreCount();
    return SocSpec{"this host", cores, cores, cores, HostL2CacheBytes(), 256 * kKiB, 0, false};
}

}  // namespace openacl
