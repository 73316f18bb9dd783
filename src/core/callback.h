// Host callbacks and host functions handed to user threads.
//
// aclrtSubscribeReport binds a user thread to streams; aclrtLaunchCallback queues a callback
// task; when a stream reaches it, the callback is handed to the subscribed thread, which runs it
// inside aclrtProcessReport. A blocking callback holds its stream until it has run.
//
// aclrtSubscribeHostFunc does the same for host functions: aclrtLaunchHostFunc on a stream that
// has a host function thread hands the function to that thread, which runs it inside
// aclrtProcessHostFunc, holding the stream (host functions always block their stream). A stream
// without one runs its host functions on its own worker.
//
// The two kinds are separate channels: a stream may have a report thread and a host function
// thread, and one thread may serve both.
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

aclError SubscribeHostFunc(uint64_t thread_id, Stream* stream);
aclError UnsubscribeHostFunc(uint64_t thread_id, Stream* stream);
// Hands fn to the stream's host function thread: true when the stream has one (*rc then says
// how the launch went), false when the caller runs it on the stream's worker.
bool LaunchSubscribedHostFunc(aclrtHostFunc fn, void* args, Stream* stream, aclError* rc);
// Runs the calling thread's pending host functions, waiting up to timeout_ms (-1: forever).
aclError ProcessHostFunc(int32_t timeout_ms);

// Drops a destroyed stream's subscriptions, of both kinds (lifecycle mutex held).
void ForgetStreamSubscriptions(Stream* stream);
// Runs a callback or host function, which must not throw: an exception must not unwind
// through the runtime, nor leave a stream waiting. Empty when it returned normally, else what
// it threw ("an exception: <what()>").
std::string RunUserCode(void (*fn)(void*), void* data);

}  // namespace openacl
