// Operator subscriptions of models: aclprofModelSubscribe and its configuration, and the
// aclprofGetOp* readers of the records a subscribed model writes (core/prof_subscribe.h).
#include "core/prof_subscribe.h"

#include <fcntl.h>

#include <cstring>
#include <mutex>
#include <new>
#include <set>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "core/error.h"
#include "model/model.h"

using openacl::Fail;
using openacl::prof::OpRecord;

struct aclprofSubscribeConfig {
    bool time_info;
    aclprofAicoreMetrics metrics;
    int fd;
};

namespace {

std::mutex g_configs_mutex;
std::set<const aclprofSubscribeConfig*>& Configs() {
    static auto* configs = new std::set<const aclprofSubscribeConfig*>;
    return *configs;
}

bool KnownMetrics(aclprofAicoreMetrics metrics) {
    return (metrics >= ACL_AICORE_ARITHMETIC_UTILIZATION && metrics <= ACL_AICORE_MEMORY_ACCESS) ||
           metrics == ACL_AICORE_NONE;
}

// The record at `index` of a buffer read from the subscription pipe; null (and the error
// recorded) when the buffer is not whole records or the index is past them.
const OpRecord* RecordAt(const void* info, size_t length, uint32_t index) {
    if (info == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "opInfo is null");
        return nullptr;
    }
    if (length == 0 || length % sizeof(OpRecord) != 0) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "opInfoLen %zu is not a whole number of records of aclprofGetOpDescSize() = %zu "
             "bytes",
             length, sizeof(OpRecord));
        return nullptr;
    }
    const size_t count = length / sizeof(OpRecord);
    if (index >= count) {
        Fail(ACL_ERROR_INVALID_PARAM, "index %u is past the %zu operators in opInfo", index, count);
        return nullptr;
    }
    const auto* record = static_cast<const OpRecord*>(info) + index;
    uint32_t magic = 0;
    std::memcpy(&magic, &record->magic, sizeof magic);  // the buffer may be unaligned
    if (magic != openacl::prof::kOpRecordMagic) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "opInfo does not hold subscription records (read whole records of "
             "aclprofGetOpDescSize() bytes from the subscription's pipe)");
        return nullptr;
    }
    return record;
}

// A copy of the record (the caller's buffer need not be aligned for OpRecord).
bool ReadRecord(const void* info, size_t length, uint32_t index, OpRecord* out) {
    const OpRecord* record = RecordAt(info, length, index);
    if (record == nullptr) return false;
    std::memcpy(out, record, sizeof *out);
    return true;
}

aclError CopyText(const char* text, char* out, size_t capacity, const char* what) {
    if (out == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s is null", what);
    const size_t needed = strnlen(text, capacity + 1) + 1;
    if (capacity < needed) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%sLen %zu is too small: the text needs %zu bytes with its terminator", what,
                    capacity, needed);
    }
    std::memcpy(out, text, needed);
    return ACL_SUCCESS;
}

}  // namespace

aclprofSubscribeConfig* aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                     aclprofAicoreMetrics aicoreMetrics, void* fd) {
    OPENACL_API();
    if (timeInfoSwitch != 0 && timeInfoSwitch != 1) {
        Fail(ACL_ERROR_INVALID_PARAM, "timeInfoSwitch is %d; it must be 0 or 1", timeInfoSwitch);
        return nullptr;
    }
    if (!KnownMetrics(aicoreMetrics)) {
        Fail(ACL_ERROR_INVALID_PARAM, "aicoreMetrics %d is not an aclprofAicoreMetrics value",
             static_cast<int>(aicoreMetrics));
        return nullptr;
    }
    if (fd == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "fd is null: pass the address of the pipe's write end");
        return nullptr;
    }
    const int descriptor = *static_cast<const int*>(fd);
    if (descriptor < 0 || fcntl(descriptor, F_GETFD) < 0) {
        Fail(ACL_ERROR_INVALID_PARAM, "*fd is %d, not an open file descriptor", descriptor);
        return nullptr;
    }
    auto* config =
        new (std::nothrow) aclprofSubscribeConfig{timeInfoSwitch == 1, aicoreMetrics, descriptor};
    if (config == nullptr) {
        Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
        return nullptr;
    }
    std::lock_guard lock(g_configs_mutex);
    Configs().insert(config);
    return config;
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig* profSubscribeConfig) {
    OPENACL_API();
    if (profSubscribeConfig == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "profSubscribeConfig is null");
    }
    std::lock_guard lock(g_configs_mutex);
    if (Configs().erase(profSubscribeConfig) == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "profSubscribeConfig %p was not made by aclprofCreateSubscribeConfig (or is "
                    "destroyed already)",
                    static_cast<const void*>(profSubscribeConfig));
    }
    delete profSubscribeConfig;
    return ACL_SUCCESS;
}

aclError aclprofModelSubscribe(uint32_t modelId,
                               const aclprofSubscribeConfig* profSubscribeConfig) {
    OPENACL_API();
    if (profSubscribeConfig == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "profSubscribeConfig is null");
    }
    aclprofSubscribeConfig config{};
    {
        std::lock_guard lock(g_configs_mutex);
        if (Configs().count(profSubscribeConfig) == 0) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "profSubscribeConfig %p was not made by aclprofCreateSubscribeConfig",
                        static_cast<const void*>(profSubscribeConfig));
        }
        config = *profSubscribeConfig;
    }
    if (!openacl::model::FindModel(modelId)) {
        return Fail(ACL_ERROR_INVALID_MODEL_ID, "model id %u is not a loaded model", modelId);
    }
    return openacl::prof::Subscribe(modelId, config.fd, config.time_info);
}

aclError aclprofModelUnSubscribe(uint32_t modelId) {
    OPENACL_API();
    return openacl::prof::Unsubscribe(modelId);
}

aclError aclprofGetOpDescSize(size_t* opDescSize) {
    OPENACL_API();
    if (opDescSize == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "opDescSize is null");
    *opDescSize = sizeof(OpRecord);
    return ACL_SUCCESS;
}

aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen, uint32_t* opNumber) {
    OPENACL_API();
    if (opNumber == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "opNumber is null");
    if (RecordAt(opInfo, opInfoLen, 0) == nullptr) return ACL_ERROR_INVALID_PARAM;
    *opNumber = static_cast<uint32_t>(opInfoLen / sizeof(OpRecord));
    return ACL_SUCCESS;
}

aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen, uint32_t index,
                             size_t* opTypeLen) {
    OPENACL_API();
    if (opTypeLen == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "opTypeLen is null");
    OpRecord r;
    if (!ReadRecord(opInfo, opInfoLen, index, &r)) return ACL_ERROR_INVALID_PARAM;
    *opTypeLen = strnlen(r.type, sizeof r.type) + 1;
    return ACL_SUCCESS;
}

aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen, uint32_t index, char* opType,
                          size_t opTypeLen) {
    OPENACL_API();
    OpRecord r;
    if (!ReadRecord(opInfo, opInfoLen, index, &r)) return ACL_ERROR_INVALID_PARAM;
    return CopyText(r.type, opType, opTypeLen, "opType");
}

aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen, uint32_t index,
                             size_t* opNameLen) {
    OPENACL_API();
    if (opNameLen == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "opNameLen is null");
    OpRecord r;
    if (!ReadRecord(opInfo, opInfoLen, index, &r)) return ACL_ERROR_INVALID_PARAM;
    *opNameLen = strnlen(r.name, sizeof r.name) + 1;
    return ACL_SUCCESS;
}

aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen, uint32_t index, char* opName,
                          size_t opNameLen) {
    OPENACL_API();
    OpRecord r;
    if (!ReadRecord(opInfo, opInfoLen, index, &r)) return ACL_ERROR_INVALID_PARAM;
    return CopyText(r.name, opName, opNameLen, "opName");
}

// The getters that return values answer 0 (and record why) for a bad buffer or index.
uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen, uint32_t index) {
    OPENACL_API();
    OpRecord r;
    return ReadRecord(opInfo, opInfoLen, index, &r) ? r.start_ns : 0;
}

uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen, uint32_t index) {
    OPENACL_API();
    OpRecord r;
    return ReadRecord(opInfo, opInfoLen, index, &r) ? r.end_ns : 0;
}

uint64_t aclprofGetOpDuration(const void* opInfo, size_t opInfoLen, uint32_t index) {
    OPENACL_API();
    OpRecord r;
    return ReadRecord(opInfo, opInfoLen, index, &r) ? r.end_ns - r.start_ns : 0;
}

size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen, uint32_t index) {
    OPENACL_API();
    OpRecord r;
    return ReadRecord(opInfo, opInfoLen, index, &r) ? r.model_id : 0;
}

aclprofSubscribeOpFlag aclprofGetOpFlag(const void* opInfo, size_t opInfoLen, uint32_t index) {
    OPENACL_API();
    OpRecord r;
    return ReadRecord(opInfo, opInfoLen, index, &r) ? static_cast<aclprofSubscribeOpFlag>(r.flag)
                                                    : ACL_SUBSCRIBE_NONE;
}

const char* aclprofGetOpAttriValue(const void* opInfo, size_t opInfoLen, uint32_t index,
                                   aclprofSubscribeOpAttri attri) {
    OPENACL_API();
    if (attri != ACL_SUBSCRIBE_ATTRI_THREADID) {
        Fail(ACL_ERROR_INVALID_PARAM, "attri %d is not ACL_SUBSCRIBE_ATTRI_THREADID",
             static_cast<int>(attri));
        return nullptr;
    }
    // The text lives in the caller's buffer, as long as the caller keeps it.
    const OpRecord* record = RecordAt(opInfo, opInfoLen, index);
    return record == nullptr ? nullptr : record->thread_text;
}
