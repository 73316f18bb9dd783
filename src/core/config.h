// openacl's settings: defaults, then the aclInit JSON file, then OPENACL_* environment
// variables (the environment wins, so a user can override a program's file without editing it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "core/check.h"

namespace openacl {

// Which backend runs the devices: the CPU (default) or NVIDIA GPUs through CUDA.
enum class BackendKind : uint8_t { kCpu, kCuda };
const char* BackendName(BackendKind kind);

struct Config {
    BackendKind backend = BackendKind::kCpu;  // "backend": "cpu"|"cuda" / OPENACL_BACKEND
    uint32_t device_count = 1;                // "openacl": {"device_count"} / OPENACL_DEVICE_COUNT
    uint64_t device_memory_bytes = 0;         // "device_memory_mb" / OPENACL_DEVICE_MEMORY_MB
    // "soc_name" / OPENACL_SOC_NAME. Atlas A2 (Ascend910B*) by default: the chip CANN's current
    // samples target and most users run; chip-dependent answers (DVPP rules) follow it.
    std::string soc_name = "Ascend910B1";
    uint32_t worker_threads = 0;  // "worker_threads" / OPENACL_WORKER_THREADS (0: one per core)
    uint32_t spin_us = 50;        // "spin_us" / OPENACL_SPIN_US: busy-wait before sleeping
    // "worker_cpus": "0-1,4" / OPENACL_WORKER_CPUS: the CPUs the device's workers may run on
    // (empty: any). Keeps the simulated device off cores the host application uses.
    std::vector<int> worker_cpus;
    bool strict = false;     // "strict" / OPENACL_STRICT: warnings become errors
    std::string trace_path;  // "trace" / OPENACL_TRACE: write a Chrome trace there
    // "check": true or {"enable": true, "pageable_async_copy": "warn"|"error"} /
    // OPENACL_CHECK and OPENACL_CHECK_PAGEABLE_ASYNC_COPY: strict checks (core/check.h).
    check::Settings check;
    bool err_msg_process_level = false;  // top-level "err_msg_mode": "1"
    int32_t default_device = -1;         // top-level "defaultDevice": {"default_device": "N"}
    // ASCEND_RT_VISIBLE_DEVICES: the user-visible ids map onto these logical devices.
    std::vector<uint32_t> visible_devices;
    std::string json_text;  // the raw configuration, for aclInit callbacks

    // The default memory per device: half of this machine's RAM, at least 256 MiB.
    static uint64_t DefaultDeviceMemory();
};

// Builds the configuration from the environment alone (no aclInit file).
Config ConfigFromEnvironment();

// Parses the aclInit file (nullptr or "" = none) into `config`, then applies the environment.
// On failure returns the documented code and has recorded a message naming the problem.
aclError LoadConfig(const char* path, Config* config);

}  // namespace openacl
