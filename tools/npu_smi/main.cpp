// npu-smi info: the driver tool's device table, for openacl's devices. Scripts read its
// seventh line, the first device's row, by whitespace fields: "|", the device id, the chip
// name without "Ascend" (910B1) — llama.cpp's CMake does exactly that to choose its SOC_TYPE.
// Only the summary table exists; other subcommands say so and fail.
#include <acl/acl.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

constexpr const char* kRule =
    "+---------------------------+---------------+----------------------------------------------"
    "------+";

int Usage(const char* what) {
    std::fprintf(stderr,
                 "npu-smi: %s\nopenacl's npu-smi has one command, 'npu-smi info': the table of "
                 "devices with their chip, health and memory.\n",
                 what);
    return 1;
}

// The chip's short name: "Ascend910B1" -> "910B1".
std::string ChipName() {
    const char* soc = aclrtGetSocName();
    std::string name = soc != nullptr ? soc : "unknown";
    if (name.rfind("Ascend", 0) == 0) name.erase(0, std::strlen("Ascend"));
    return name;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return Usage("no command given");
    if (std::strcmp(argv[1], "info") != 0 || argc > 2) {
        std::string what = "'";
        for (int i = 1; i < argc; ++i)
            what += std::string(i > 1 ? " " : "") + argv[i];
        return Usage((what + "' is not provided").c_str());
    }
    if (aclInit(nullptr) != ACL_SUCCESS) {
        std::fprintf(stderr, "npu-smi: aclInit failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    uint32_t count = 0;
    if (aclrtGetDeviceCount(&count) != ACL_SUCCESS) {
        std::fprintf(stderr, "npu-smi: no devices: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    const std::string chip = ChipName();
    std::printf(
        "+-------------------------------------------------------------------------------------"
        "-----------+\n");
    std::printf("| npu-smi openacl %-14s Version: openacl %-47s|\n", OPENACL_VERSION_STRING,
                OPENACL_VERSION_STRING);
    std::printf("%s\n", kRule);
    std::printf("| %-26s| %-14s| %-51s|\n", "NPU   Name", "Health",
                "Power(W)    Temp(C)           Hugepages-Usage(page)");
    std::printf("| %-26s| %-14s| %-51s|\n", "Chip", "Bus-Id",
                "AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)");
    std::printf(
        "+===========================+===============+============================================="
        "="
        "======+\n");
    for (uint32_t id = 0; id < count; ++id) {
        size_t free = 0, total = 0;
        if (aclrtSetDevice(static_cast<int32_t>(id)) == ACL_SUCCESS) {
            aclrtGetMemInfo(ACL_HBM_MEM, &free, &total);
            aclrtResetDevice(static_cast<int32_t>(id));
        }
        const unsigned long used_mb = static_cast<unsigned long>((total - free) >> 20);
        const unsigned long total_mb = static_cast<unsigned long>(total >> 20);
        char name[32], memory[64], bus[32];
        std::snprintf(name, sizeof(name), "%-5u %s", id, chip.c_str());
        std::snprintf(bus, sizeof(bus), "0000:%02X:00.0", id);
        std::snprintf(memory, sizeof(memory), "0           0    / 0           %lu / %lu", used_mb,
                      total_mb);
        std::printf("| %-26s| %-14s| %-51s|\n", name, "OK",
                    "0.0         0                 0    / 0");
        std::printf("| %-26s| %-14s| %-51s|\n", "0", bus, memory);
        std::printf("%s\n", kRule);
    }
    aclFinalize();
    return 0;
}
