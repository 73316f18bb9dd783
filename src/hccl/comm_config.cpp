// Reading an HcclCommConfig (hccl/comm_config.h).
#include "hccl/comm_config.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "hccl/environment.h"

namespace openacl::hccl {
namespace {

struct Header {  // what HcclCommConfigInit writes into `reserved`
    size_t size;
    uint32_t magic;
    uint32_t version;
};

// Whether a config of `size` bytes holds the field at `offset` of `bytes` bytes.
bool Covers(size_t size, size_t offset, size_t bytes) {
    return offset + bytes <= size;
}

}  // namespace

HcclResult ReadConfig(const HcclCommConfig* config, CommOptions* options, std::string* why) {
    options->exec_timeout_ms = ExecTimeoutMs();
    if (config == nullptr) return HCCL_SUCCESS;
    Header header;
    std::memcpy(&header, config->reserved, sizeof header);
    if (header.magic != HCCL_COMM_CONFIG_MAGIC_WORD) {
        *why =
            "the HcclCommConfig was not initialised: call HcclCommConfigInit on it before "
            "setting its fields";
        return HCCL_E_PARA;
    }
    // torch_npu writes 32 here to say "buffer size and determinism only"; older headers give
    // 300 or 312. Anything past the current layout is read as the current layout.
    const size_t size = std::min(header.size, sizeof(HcclCommConfig));
    if (Covers(size, offsetof(HcclCommConfig, hcclBufferSize), 4) &&
        config->hcclBufferSize != HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET) {
        if (config->hcclBufferSize == 0) {
            *why = "hcclBufferSize is 0: a communicator needs a buffer of at least 1 MB";
            return HCCL_E_PARA;
        }
        options->buffer_size_mb = config->hcclBufferSize;
    }
    if (Covers(size, offsetof(HcclCommConfig, hcclDeterministic), 4) &&
        config->hcclDeterministic != HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET) {
        if (config->hcclDeterministic > 2) {
            *why = "hcclDeterministic is " + std::to_string(config->hcclDeterministic) +
                   ": 0 (off), 1 (deterministic) or 2 (strict) are allowed";
            return HCCL_E_PARA;
        }
        options->deterministic = config->hcclDeterministic;
    }
    if (Covers(size, offsetof(HcclCommConfig, hcclCommName), sizeof config->hcclCommName)) {
        const size_t length = strnlen(config->hcclCommName, sizeof config->hcclCommName);
        if (length == sizeof config->hcclCommName) {
            *why = "hcclCommName is not terminated within its 128 bytes";
            return HCCL_E_PARA;
        }
        options->name.assign(config->hcclCommName, length);
    }
    if (Covers(size, offsetof(HcclCommConfig, hcclOpExpansionMode), 4))
        options->op_expansion_mode = config->hcclOpExpansionMode;
    if (header.version >= 10 && Covers(size, offsetof(HcclCommConfig, hcclExecTimeOut), 4) &&
        config->hcclExecTimeOut != HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET) {
        if (config->hcclExecTimeOut < 0) {
            *why = "hcclExecTimeOut is " + std::to_string(config->hcclExecTimeOut) +
                   ": seconds from 0 (never) up, or HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET";
            return HCCL_E_PARA;
        }
        options->exec_timeout_ms = static_cast<int64_t>(config->hcclExecTimeOut) * 1000;
    }
    return HCCL_SUCCESS;
}

}  // namespace openacl::hccl
