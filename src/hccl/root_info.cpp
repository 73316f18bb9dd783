// The root info's contents (hccl/root_info.h).
#include "hccl/root_info.h"

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>

namespace openacl::hccl {

uint64_t ProcessKey() {
    static const uint64_t key = [] {
        std::string boot;
        std::ifstream("/proc/sys/kernel/random/boot_id") >> boot;
        const uint64_t start =
            static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
        const uint64_t h = std::hash<std::string>{}(boot);
        return h ^ (static_cast<uint64_t>(getpid()) << 32) ^ (start * 0x9e3779b97f4a7c15ull);
    }();
    return key;
}

bool ReadRootInfo(const HcclRootInfo& info, RootInfoData* data) {
    std::memcpy(data, info.internal, sizeof *data);
    if (std::memcmp(data->magic, kRootInfoMagic, sizeof kRootInfoMagic) != 0) return false;
    if (data->version != kRootInfoVersion) return false;
    data->host[sizeof data->host - 1] = '\0';
    data->identifier[sizeof data->identifier - 1] = '\0';
    return true;
}

void WriteRootInfo(const RootInfoData& data, HcclRootInfo* info) {
    std::memset(info->internal, 0, sizeof info->internal);
    std::memcpy(info->internal, &data, sizeof data);
}

}  // namespace openacl::hccl
