// aclnnInit / aclnnFinalize (aclnn/aclnn_base.h). Optional in CANN and here: operators work
// without them. The configuration file, when given, must be a readable JSON object; openacl
// has no operator debug kernels, so its settings are read and otherwise ignored.
#include <fstream>
#include <mutex>

#include <nlohmann/json.hpp>

#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "core/log.h"

using openacl::Fail;

namespace {

std::mutex g_mutex;
bool g_initialized = false;

}  // namespace

aclnnStatus aclnnInit(const char* configPath) {
    OPENACL_API();
    if (configPath != nullptr) {
        std::ifstream file(configPath);
        if (!file) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "configPath \"%s\" cannot be read", configPath);
        }
        const nlohmann::json config = nlohmann::json::parse(file, nullptr, false);
        if (config.is_discarded() || !config.is_object()) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "configPath \"%s\" is not a JSON object",
                        configPath);
        }
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_initialized) {
        openacl::Warn("aclnnInit was called before (once per process is enough)");
    }
    g_initialized = true;
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnFinalize() {
    OPENACL_API();
    std::lock_guard<std::mutex> lock(g_mutex);
    g_initialized = false;
    return ACLNN_SUCCESS;
}
