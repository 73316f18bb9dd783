// aclprof*: the profiling lifecycle, backed by openacl's trace recorder. A session between
// aclprofStart and aclprofStop writes <dir>/openacl_trace_<pid>.json (a Chrome trace, see
// core/trace.h) and a .txt summary next to it; later sessions of the same process add _2, _3.
// openacl records one timeline (API calls, enqueues, task runs) whatever data types the
// configuration selects; AI Core metrics do not exist on a CPU and are ignored.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <new>
#include <set>
#include <string>

#include "acl/acl_prof.h"
#include "core/error.h"
#include "core/log.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/trace.h"

using openacl::Fail;

struct aclprofConfig {
    uint64_t device_mask;
    aclprofAicoreMetrics metrics;
    uint64_t data_types;
};

struct aclprofStepInfo {
    uint64_t step = 0;  // the step ACL_STEP_START opened last (steps count from 1)
    bool open = false;
};

namespace {

constexpr size_t kMaxPathLength = 4096;   // documented limit of aclprofInit's path
constexpr size_t kMaxConfigLength = 256;  // aclprofSetConfig's documented limit
// ACL_PROF_STORAGE_LIMIT's documented range, in MB; the record buffer is capped lower, since
// it is address space reserved up front.
constexpr uint64_t kMinStorageMb = 200;
constexpr uint64_t kMaxStorageMb = 4294967295ULL;
constexpr uint64_t kMaxBufferMib = uint64_t{1} << 14;

struct ProfState {
    std::mutex mutex;
    bool initialized = false;
    std::string dir;
    std::set<const aclprofConfig*> configs;
    std::set<const aclprofStepInfo*> step_infos;
    const aclprofConfig* started = nullptr;
    uint32_t sessions = 0;
    uint64_t storage_limit_mb = 0;  // ACL_PROF_STORAGE_LIMIT; 0: not set
};

ProfState& State() {
    static auto* state = new ProfState;  // never destroyed: the trace may be written at exit
    return *state;
}

bool KnownMetrics(aclprofAicoreMetrics metrics) {
    return (metrics >= ACL_AICORE_ARITHMETIC_UTILIZATION && metrics <= ACL_AICORE_MEMORY_ACCESS) ||
           metrics == ACL_AICORE_NONE;
}

// Stops the running aclprof session and writes it (state mutex held).
aclError StopLocked(ProfState& state) {
    state.started = nullptr;
    // aclFinalize may have written the session already.
    if (openacl::trace::Running() != openacl::trace::Owner::kProfApi) return ACL_SUCCESS;
    std::string why;
    if (!openacl::trace::Stop(&why)) {
        return Fail(ACL_ERROR_PROFILING_FAILURE, "the profiling data was not written: %s",
                    why.c_str());
    }
    return ACL_SUCCESS;
}

aclError NotInitialized() {
    return Fail(ACL_ERROR_PROF_NOT_RUN, "profiling is not initialised: call aclprofInit first");
}

}  // namespace

aclError aclprofInit(const char* profilerResultPath, size_t length) {
    OPENACL_API();
    if (profilerResultPath == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "profilerResultPath is null");
    }
    if (length == 0 || length > kMaxPathLength) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "length %zu is invalid: give the path's length, 1 to %zu", length,
                    kMaxPathLength);
    }
    std::string dir(profilerResultPath, strnlen(profilerResultPath, length));
    if (dir.empty()) return Fail(ACL_ERROR_INVALID_PARAM, "profilerResultPath is empty");
    ProfState& state = State();
    std::lock_guard lock(state.mutex);
    if (state.initialized) {
        return Fail(ACL_ERROR_PROF_ALREADY_RUN,
                    "aclprofInit was already called (results go to %s): call aclprofFinalize "
                    "first",
                    state.dir.c_str());
    }
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (!std::filesystem::is_directory(dir) || access(dir.c_str(), W_OK) != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "profilerResultPath %s is not a writable directory and cannot be created%s%s",
                    dir.c_str(), error ? ": " : "", error ? error.message().c_str() : "");
    }
    state.initialized = true;
    state.dir = dir;
    return ACL_SUCCESS;
}

aclError aclprofFinalize(void) {
    OPENACL_API();
    ProfState& state = State();
    std::lock_guard lock(state.mutex);
    if (!state.initialized) return NotInitialized();
    aclError rc = ACL_SUCCESS;
    if (state.started != nullptr) {
        openacl::Warn("aclprofFinalize while profiling runs: stopping it (call aclprofStop first)");
        rc = StopLocked(state);
    }
    openacl::trace::ReleaseKeptBuffers();
    state.initialized = false;
    return rc;
}

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums,
                                   aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* aicoreEvents,
                                   uint64_t dataTypeConfig) {
    OPENACL_API();
    (void)aicoreEvents;  // reserved: must be NULL on CANN too, and means nothing on a CPU
    if (deviceNums != 0 && deviceIdList == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "deviceIdList is null but deviceNums is %u", deviceNums);
        return nullptr;
    }
    if (!KnownMetrics(aicoreMetrics)) {
        Fail(ACL_ERROR_INVALID_PARAM, "aicoreMetrics %d is not an aclprofAicoreMetrics",
             static_cast<int>(aicoreMetrics));
        return nullptr;
    }
    const uint32_t devices = openacl::Runtime::Get().DeviceCount();
    uint64_t mask = deviceNums == 0 ? ~uint64_t{0} : 0;  // none listed: every device
    for (uint32_t i = 0; i < deviceNums; ++i) {
        if (deviceIdList[i] >= devices || deviceIdList[i] >= 64) {
            Fail(ACL_ERROR_INVALID_PARAM,
                 "deviceIdList[%u] = %u is not a device: this process sees %u device(s)", i,
                 deviceIdList[i], devices);
            return nullptr;
        }
        mask |= uint64_t{1} << deviceIdList[i];
    }
    auto* config = new aclprofConfig{mask, aicoreMetrics, dataTypeConfig};
    ProfState& state = State();
    std::lock_guard lock(state.mutex);
    state.configs.insert(config);
    return config;
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
    OPENACL_API();
    if (profilerConfig == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "profilerConfig is null");
    ProfState& state = State();
    std::lock_guard lock(state.mutex);
    if (state.configs.count(profilerConfig) == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "profilerConfig %p was not made by aclprofCreateConfig, or was already "
                    "destroyed",
                    static_cast<const void*>(profilerConfig));
    }
    if (state.started == profilerConfig) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "profilerConfig %p is in use by a running profiling session: call "
                    "aclprofStop first",
                    static_cast<const void*>(profilerConfig));
    }
    state.configs.erase(profilerConfig);
    delete profilerConfig;
    return ACL_SUCCESS;
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
    OPENACL_API();
    ProfState& state = State();
    std::lock_guard lock(state.mutex);
    if (!state.initialized) return NotInitialized();
    if (profilerConfig == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "profilerConfig is null");
    if (state.configs.count(profilerConfig) == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "profilerConfig %p was not made by aclprofCreateConfig, or was already "
                    "destroyed",
                    static_cast<const void*>(profilerConfig));
    }
    if (state.started != nullptr && openacl::trace::Running() == openacl::trace::Owner::kProfApi) {
        return Fail(ACL_ERROR_PROF_ALREADY_RUN,
                    "profiling already runs: call aclprofStop before starting again");
    }
    if (openacl::trace::Running() == openacl::trace::Owner::kEnvironment) {
        return Fail(ACL_ERROR_PROF_API_CONFLICT,
                    "OPENACL_TRACE (or the aclInit \"trace\" key) already records a trace: use "
                    "one or the other");
    }
    const uint32_t n = ++state.sessions;
    std::string path = state.dir + "/openacl_trace_" + std::to_string(getpid());
    if (n > 1) path += "_" + std::to_string(n);
    path += ".json";
    std::string why;
    if (!openacl::trace::Start({path, openacl::trace::Owner::kProfApi, profilerConfig->device_mask,
                                (profilerConfig->data_types & ACL_PROF_MSPROFTX) != 0,
                                std::min(state.storage_limit_mb, kMaxBufferMib)},
                               &why)) {
        return Fail(ACL_ERROR_PROFILING_FAILURE, "profiling could not start: %s", why.c_str());
    }
    state.started = profilerConfig;
    return ACL_SUCCESS;
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
    OPENACL_API();
    ProfState& state = State();
    std::lock_guard lock(state.mutex);
    if (!state.initialized) return NotInitialized();
    if (profilerConfig == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "profilerConfig is null");
    if (state.configs.count(profilerConfig) == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "profilerConfig %p was not made by aclprofCreateConfig, or was already "
                    "destroyed",
                    static_cast<const void*>(profilerConfig));
    }
    if (state.started == nullptr) {
        return Fail(ACL_ERROR_PROF_NOT_RUN, "profiling is not running: call aclprofStart first");
    }
    if (state.started != profilerConfig) {
        return Fail(
            ACL_ERROR_INVALID_PARAM, "profilerConfig %p is not the one aclprofStart was given (%p)",
            static_cast<const void*>(profilerConfig), static_cast<const void*>(state.started));
    }
    return StopLocked(state);
}

aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength) {
    OPENACL_API();
    if (configType <= ACL_PROF_ARGS_MIN || configType >= ACL_PROF_ARGS_MAX) {
        return Fail(ACL_ERROR_INVALID_PARAM, "configType %d is not an aclprofConfigType option",
                    static_cast<int>(configType));
    }
    if (config == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "config is null");
    if (configLength == 0 || configLength > kMaxConfigLength) {
        return Fail(ACL_ERROR_INVALID_PARAM, "configLength %zu is invalid: 1 to %zu", configLength,
                    kMaxConfigLength);
    }
    const std::string value(config, strnlen(config, configLength));
    ProfState& state = State();
    if (configType == ACL_PROF_STORAGE_LIMIT) {
        // "<n>MB": the most the session's records may take; later ones are dropped and counted.
        char* end = nullptr;
        errno = 0;
        const unsigned long long mb = std::strtoull(value.c_str(), &end, 10);
        if (end == value.c_str() || std::string(end) != "MB" || errno != 0 || mb < kMinStorageMb ||
            mb > kMaxStorageMb) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "ACL_PROF_STORAGE_LIMIT \"%s\" is invalid: give <n>MB with n from %llu to "
                        "%llu",
                        value.c_str(), static_cast<unsigned long long>(kMinStorageMb),
                        static_cast<unsigned long long>(kMaxStorageMb));
        }
        std::lock_guard lock(state.mutex);
        state.storage_limit_mb = mb;
        return ACL_SUCCESS;
    }
    // Sampling frequencies, LLC and power modes, host-system collection and the like measure
    // NPU and SoC hardware that a CPU device does not have.
    OPENACL_LOG_INFO(
        "aclprofSetConfig option %d (\"%s\") has no counterpart on a CPU device; "
        "accepted and ignored",
        static_cast<int>(configType), value.c_str());
    return ACL_SUCCESS;
}

aclprofStepInfo* aclprofCreateStepInfo(void) {
    OPENACL_API();
    auto* info = new (std::nothrow) aclprofStepInfo;
    if (info == nullptr) {
        Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
        return nullptr;
    }
    ProfState& state = State();
    std::lock_guard lock(state.mutex);
    state.step_infos.insert(info);
    return info;
}

void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo) {
    OPENACL_API();
    if (stepinfo == nullptr) return;
    ProfState& state = State();
    {
        std::lock_guard lock(state.mutex);
        if (state.step_infos.erase(stepinfo) == 0) {
            Fail(ACL_ERROR_INVALID_PARAM,
                 "stepinfo %p was not made by aclprofCreateStepInfo, or was already destroyed",
                 static_cast<void*>(stepinfo));
            return;
        }
    }
    delete stepinfo;
}

aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag,
                                 aclrtStream stream) {
    OPENACL_API();
    if (stepInfo == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "stepInfo is null");
    if (tag != ACL_STEP_START && tag != ACL_STEP_END) {
        return Fail(ACL_ERROR_INVALID_PARAM, "tag %d is neither ACL_STEP_START nor ACL_STEP_END",
                    static_cast<int>(tag));
    }
    ProfState& state = State();
    uint64_t step = 0;
    {
        std::lock_guard lock(state.mutex);
        if (state.step_infos.count(stepInfo) == 0) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "stepInfo %p was not made by aclprofCreateStepInfo, or was already "
                        "destroyed",
                        static_cast<void*>(stepInfo));
        }
        if (state.started == nullptr) {
            return Fail(ACL_ERROR_PROF_NOT_RUN,
                        "no profiling session is running: step timestamps belong between "
                        "aclprofStart and aclprofStop");
        }
        if (tag == ACL_STEP_END && !stepInfo->open) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "ACL_STEP_END without ACL_STEP_START: no step of stepInfo %p is open",
                        static_cast<void*>(stepInfo));
        }
    }
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    {
        std::lock_guard lock(state.mutex);
        if (tag == ACL_STEP_START) ++stepInfo->step;
        stepInfo->open = tag == ACL_STEP_START;
        step = stepInfo->step;
    }
    // The timestamp is taken when the stream reaches this point, as on the device.
    resolved->SubmitMark({openacl::trace::Kind::kStep, step, tag == ACL_STEP_START ? 0u : 1u});
    return ACL_SUCCESS;
}
