// What VDEC and VENC channels share: two internal streams, one that runs the codec and one
// that carries the callbacks, subscribed to the caller's report thread (aclrtSubscribeReport),
// so each callback runs inside that thread's aclrtProcessReport. Callbacks block their stream
// until they have run, so waiting for the callback stream means "every callback has returned".
#pragma once

#include <cstdint>
#include <functional>

#include "acl/acl_base.h"

namespace openacl {
class Stream;
}

namespace openacl::dvpp {

class VideoStreams {
 public:
    VideoStreams() = default;
    ~VideoStreams();
    VideoStreams(const VideoStreams&) = delete;
    VideoStreams& operator=(const VideoStreams&) = delete;

    // Creates both streams in the current context and subscribes `thread_id` to the callback
    // stream.
    aclError Create(uint64_t thread_id);
    // Waits for the work and the callbacks queued so far, then releases the streams.
    void Destroy();

    Stream* work() const { return work_; }
    uint64_t thread_id() const { return thread_id_; }

    // Queues codec work on the work stream. It runs on a worker, in submission order.
    void Submit(std::function<void()> work);
    // From codec work: queues `callback` on the callback stream, for the report thread.
    void Deliver(std::function<void()> callback);
    // Blocks until all work submitted so far has run and every callback it delivered has
    // returned. Refused on the report thread itself (it would wait for itself).
    aclError Drain(const char* why);

 private:
    Stream* work_ = nullptr;
    Stream* callbacks_ = nullptr;
    uint64_t thread_id_ = 0;
};

}  // namespace openacl::dvpp
