// Profiling subscriptions (aclprofModelSubscribe): after each execution of a subscribed model,
// one record per operator it ran (type, name, start, end, thread) is written to the pipe the
// subscriber gave, in records of aclprofGetOpDescSize() bytes that the aclprofGetOp* functions
// read. Operators are the engine's layers; an engine that cannot report layer by layer reports
// the whole graph as one operator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_prof.h"

namespace openacl::prof {

// One operator's record, as written to the pipe. Opaque to users: they go through the
// aclprofGetOp* functions, which check the magic.
struct OpRecord {
    uint32_t magic;
    uint32_t model_id;
    uint64_t start_ns;  // CLOCK_MONOTONIC
    uint64_t end_ns;
    uint32_t flag;       // aclprofSubscribeOpFlag
    uint32_t thread_id;  // the thread that ran it (gettid)
    char type[ACL_PROF_MAX_OP_TYPE_LEN];
    char name[ACL_PROF_MAX_OP_NAME_LEN];
    char thread_text[22];  // thread_id in decimal, for aclprofGetOpAttriValue
};
inline constexpr uint32_t kOpRecordMagic = 0x504F414F;  // "OAOP"

// A model's subscription: where its records go. It owns the pipe's write end from the
// subscription on: as CANN documents, the runtime closes it once the records are sent after
// aclprofModelUnSubscribe (here: when the last execution holding the subscription lets go), so
// the reader sees the end of the pipe.
class Subscription {
 public:
    Subscription(uint32_t model_id, int fd, bool time_info)
        : model_id_(model_id), fd_(fd), time_info_(time_info) {}
    ~Subscription();
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;
    // Appends one operator to the execution being recorded.
    void Note(std::vector<OpRecord>* records, const std::string& type, const std::string& name,
              int64_t start_ns, int64_t end_ns) const;
    // Writes an execution's records to the pipe (whole records only; a reader that went away
    // is logged once, never fatal to the execution).
    void Flush(const std::vector<OpRecord>& records) const;

 private:
    uint32_t model_id_;
    int fd_;
    bool time_info_;
};

// The subscription of model `model_id`, or null (one atomic load when none exists).
std::shared_ptr<const Subscription> SubscriptionOf(uint32_t model_id);

aclError Subscribe(uint32_t model_id, int fd, bool time_info);
aclError Unsubscribe(uint32_t model_id);
void UnsubscribeAll();  // aclFinalize

}  // namespace openacl::prof
