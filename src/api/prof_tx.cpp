// msproftx: the application's own marks and ranges (aclprofMark, aclprofPush/Pop,
// aclprofRangeStart/Stop, aclprofRangePushEx/RangePop, aclprofMarkEx), drawn on the timeline
// next to what the streams ran. As documented, they belong between aclprofStart and
// aclprofStop; openacl also takes them during an OPENACL_TRACE session. A session started
// through aclprofStart records them only when its configuration selects ACL_PROF_MSPROFTX
// (the calls still succeed otherwise, as they would on an NPU with the switch off). The marks
// and the ranges that may cross threads are core/user_annotation's, shared with mstx.
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "acl/acl_prof.h"
#include "backend/cpu/sync.h"
#include "core/error.h"
#include "core/stream.h"
#include "core/trace.h"
#include "core/user_annotation.h"

using openacl::Fail;
namespace trace = openacl::trace;
namespace user_annotation = openacl::user_annotation;

namespace {

constexpr size_t kMaxMarkLength = 127;  // aclprofMarkEx's documented limit

struct Stamp {
    const char* message = "";  // interned: records point at it after the stamp is gone
};

struct Open {  // a range pushed on the calling thread, closed by its pop
    const char* message;
    const char* args_json;
    int64_t start;
    uint32_t thread;
};

std::mutex g_mutex;  // stamps, ids
std::unordered_set<const void*>& Stamps() {
    static auto* live = new std::unordered_set<const void*>;  // never destroyed, as datasets
    return *live;
}
std::unordered_map<uint64_t, const char*>& Names() {  // aclprofStr2Id's ids, for the trace
    static auto* names = new std::unordered_map<uint64_t, const char*>;
    return *names;
}

thread_local std::vector<Open> t_pushed;     // aclprofPush ... aclprofPop
thread_local std::vector<Open> t_pushed_ex;  // aclprofRangePushEx ... aclprofRangePop

aclError NoSession() {
    return Fail(ACL_ERROR_PROF_NOT_RUN,
                "msproftx calls belong between aclprofStart and aclprofStop (or in a program "
                "run with OPENACL_TRACE set): no profiling session is running");
}

// The live stamp behind a handle, or nullptr with the error recorded in *rc.
Stamp* FindStamp(void* stamp, aclError* rc) {
    if (stamp == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "stamp is null");
        return nullptr;
    }
    std::lock_guard lock(g_mutex);
    if (Stamps().count(stamp) == 0) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "stamp %p is not a live stamp (destroyed already, or not made by "
                   "aclprofCreateStamp)",
                   stamp);
        return nullptr;
    }
    return static_cast<Stamp*>(stamp);
}

const char* NameOfId(uint64_t id) {
    std::lock_guard lock(g_mutex);
    auto it = Names().find(id);
    return it != Names().end() ? it->second : nullptr;
}

// A trace label for a tensor-info range: the operator's name and its tensors as JSON args.
void DescribeTensorInfo(const aclprofTensorInfo& info, const char** name, const char** args) {
    const char* op_name = NameOfId(info.opNameId);
    const char* op_type = NameOfId(info.opTypeId);
    char text[64];
    std::snprintf(text, sizeof text, "op %" PRIu64, info.opNameId);
    *name = trace::Intern(op_name != nullptr ? op_name : text);
    std::string json = "{\"op_type\":\"";
    json += op_type != nullptr ? op_type : std::to_string(info.opTypeId);
    json += "\",\"kernel_type\":" + std::to_string(info.kernelType) +
            ",\"block_nums\":" + std::to_string(info.blockNums) + ",\"tensors\":[";
    for (uint32_t i = 0; i < info.tensorNum; ++i) {
        const aclprofTensor& t = info.tensors[i];
        json += i ? "," : "";
        json += std::string("{\"io\":\"") + (t.type == 0 ? "input" : "output") +
                "\",\"format\":" + std::to_string(t.format) +
                ",\"dtype\":" + std::to_string(t.dataType) + ",\"shape\":[";
        for (uint32_t d = 0; d < t.shapeDim; ++d)
            json += (d ? "," : "") + std::to_string(t.shape[d]);
        json += "]}";
    }
    json += "]}";
    // Interned: the record outlives this call. Distinct shapes are few in practice.
    *args = trace::Intern(json.c_str());
}

// Closes the innermost range of `stack` on the calling thread.
aclError PopFrom(std::vector<Open>& stack, const char* opener) {
    if (stack.empty()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "there is no open range on this thread: call %s first (ranges opened on "
                    "other threads are closed there, or use aclprofRangeStart/Stop)",
                    opener);
    }
    Open open = stack.back();
    stack.pop_back();
    if (trace::UserNotesOn()) {
        trace::NoteUser({open.message, open.args_json, open.start, openacl::cpu::Ticks(),
                         open.thread, 0, false});
    }
    return ACL_SUCCESS;
}

}  // namespace

void* aclprofCreateStamp(void) {
    OPENACL_API();
    if (trace::Running() == trace::Owner::kNone) {
        NoSession();
        return nullptr;
    }
    auto* stamp = new (std::nothrow) Stamp;
    if (stamp == nullptr) {
        Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
        return nullptr;
    }
    std::lock_guard lock(g_mutex);
    Stamps().insert(stamp);
    return stamp;
}

void aclprofDestroyStamp(void* stamp) {
    OPENACL_API();
    if (stamp == nullptr) return;  // nothing to release
    {
        std::lock_guard lock(g_mutex);
        if (Stamps().erase(stamp) == 0) {
            Fail(ACL_ERROR_INVALID_PARAM, "stamp %p is not a live stamp (destroyed already?)",
                 stamp);
            return;
        }
    }
    delete static_cast<Stamp*>(stamp);
}

aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t msgLen) {
    OPENACL_API();
    if (msg == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "msg is null");
    if (msgLen == 0) return Fail(ACL_ERROR_INVALID_PARAM, "msgLen is 0: give the message's length");
    aclError rc = ACL_SUCCESS;
    Stamp* s = FindStamp(stamp, &rc);
    if (s == nullptr) return rc;
    const std::string text(msg, strnlen(msg, msgLen));
    const char* interned = trace::Intern(text.c_str());
    std::lock_guard lock(g_mutex);
    s->message = interned;
    return ACL_SUCCESS;
}

aclError aclprofMark(void* stamp) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stamp* s = FindStamp(stamp, &rc);
    if (s == nullptr) return rc;
    if (trace::Running() == trace::Owner::kNone) return NoSession();
    user_annotation::Mark({s->message}, nullptr);
    return ACL_SUCCESS;
}

aclError aclprofPush(void* stamp) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Stamp* s = FindStamp(stamp, &rc);
    if (s == nullptr) return rc;
    if (trace::Running() == trace::Owner::kNone) return NoSession();
    t_pushed.push_back({s->message, nullptr, openacl::cpu::Ticks(), trace::ThreadId()});
    return ACL_SUCCESS;
}

aclError aclprofPop(void) {
    OPENACL_API();
    return PopFrom(t_pushed, "aclprofPush");
}

aclError aclprofRangeStart(void* stamp, uint32_t* rangeId) {
    OPENACL_API();
    if (rangeId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "rangeId is null");
    aclError rc = ACL_SUCCESS;
    Stamp* s = FindStamp(stamp, &rc);
    if (s == nullptr) return rc;
    if (trace::Running() == trace::Owner::kNone) return NoSession();
    *rangeId = user_annotation::StartRange({s->message}, nullptr);
    return ACL_SUCCESS;
}

aclError aclprofRangeStop(uint32_t rangeId) {
    OPENACL_API();
    const char* domain = nullptr;
    switch (user_annotation::EndRange(rangeId, nullptr, &domain)) {
        case user_annotation::EndResult::kClosed:
            return ACL_SUCCESS;
        case user_annotation::EndResult::kNotOpen:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "range %u is not open: it was never started by aclprofRangeStart, or "
                        "was stopped already",
                        rangeId);
        case user_annotation::EndResult::kOtherDomain:
            break;
    }
    return Fail(ACL_ERROR_INVALID_PARAM,
                "range %u was started in the mstx domain \"%s\": close it with "
                "mstxDomainRangeEnd",
                rangeId, domain);
}

aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream) {
    OPENACL_API();
    if (msg == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "msg is null");
    if (msgLen == 0 || msgLen > kMaxMarkLength) {
        return Fail(ACL_ERROR_INVALID_PARAM, "msgLen %zu is invalid: 1 to %zu characters", msgLen,
                    kMaxMarkLength);
    }
    if (trace::Running() == trace::Owner::kNone) return NoSession();
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    const std::string text(msg, strnlen(msg, msgLen));
    user_annotation::Mark({trace::Intern(text.c_str())}, resolved);
    return ACL_SUCCESS;
}

uint64_t aclprofStr2Id(const char* message) {
    OPENACL_API();
    if (message == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "message is null");
        return UINT64_MAX;  // the documented failure value
    }
    // FNV-1a: the same string always gets the same id, in every process.
    uint64_t id = 0xcbf29ce484222325ULL;
    for (const char* p = message; *p != '\0'; ++p)
        id = (id ^ static_cast<unsigned char>(*p)) * 0x100000001b3ULL;
    if (id == UINT64_MAX) id ^= 1;
    const char* interned = trace::Intern(message);
    std::lock_guard lock(g_mutex);
    Names().emplace(id, interned);
    return id;
}

aclError aclprofRangePushEx(aclprofEventAttributes* attr) {
    OPENACL_API();
    if (attr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "attr is null");
    if (attr->messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "attr->messageType %u is unknown: ACL_PROF_MESSAGE_TYPE_TENSOR_INFO (0) is "
                    "the only one",
                    attr->messageType);
    }
    const aclprofTensorInfo* info = attr->message.tensorInfo;
    if (info == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "attr->message.tensorInfo is null");
    if (info->tensorNum != 0 && info->tensors == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "tensorInfo->tensors is null but tensorNum is %u",
                    info->tensorNum);
    }
    for (uint32_t i = 0; i < info->tensorNum; ++i) {
        if (info->tensors[i].shapeDim > ACL_PROF_TENSOR_DATA_SHAPE_LEN) {
            return Fail(ACL_ERROR_INVALID_PARAM, "tensor %u has shapeDim %u: at most %d", i,
                        info->tensors[i].shapeDim, ACL_PROF_TENSOR_DATA_SHAPE_LEN);
        }
    }
    if (trace::Running() == trace::Owner::kNone) return NoSession();
    const char* name = "tensor info";
    const char* args = nullptr;
    if (trace::UserNotesOn()) DescribeTensorInfo(*info, &name, &args);
    t_pushed_ex.push_back({name, args, openacl::cpu::Ticks(), trace::ThreadId()});
    return ACL_SUCCESS;
}

aclError aclprofRangePop(void) {
    OPENACL_API();
    return PopFrom(t_pushed_ex, "aclprofRangePushEx");
}
