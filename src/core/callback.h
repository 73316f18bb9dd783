// Host callbacks: aclrtSubscribeReport binds a user thread to streams; aclrtLaunchCallback
// queues a callback task; when a stream reaches it, the callback is handed to the subscribed
// thread, which runs it inside aclrtProcessReport. A blocking callback holds its stream until
// it has run.
#pragma once

#include <cstdint>
#include <string>

#include "acl/acl_rt.h"

namespace openacl {

class Stream;

aclError SubscribeReport(uint64_t thread_id, Stream* stream);
aclError UnsubscribeReport(uint64_t thread_id, Stream* stream);
aclError LaunchCallback(aclrtCallback fn, void* user_data, aclrtCallbackBlockType block,
                        Stream* stream);
// Runs the calling thread's pending callbacks, waiting up to timeout_ms (-1: forever).
aclError ProcessReport(int32_t timeout_ms);
// Drops a destroyed stream's subscription (lifecycle mutex held).
void ForgetStreamSubscriptions(Stream* stream);
// Runs a callback or host function, which must not throw: an exception must not unwind
// through the runtime, nor leave a stream waiting. Empty when it returned normally, else what
// it threw ("an exception: <what()>").
std::string RunUserCode(void (*fn)(void*), void* data);

}  // namespace openacl
