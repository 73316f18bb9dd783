#include "dvpp/video_channel.h"

#include <pthread.h>

#include <memory>
#include <mutex>

#include "backend/cpu/task.h"
#include "core/callback.h"
#include "core/context.h"
#include "core/error.h"
#include "core/log.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl::dvpp {
namespace {

void RunDelivered(void* data) {
    std::unique_ptr<std::function<void()>> callback(static_cast<std::function<void()>*>(data));
    (*callback)();
}

void Release(Stream* stream) {
    if (stream == nullptr) return;
    std::unique_ptr<Stream> detached;
    {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        detached = DetachStreamLocked(stream);
    }
    FinishStream(std::move(detached), false);
}

}  // namespace

VideoStreams::~VideoStreams() {
    Destroy();
}

aclError VideoStreams::Create(uint64_t thread_id) {
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    {
        std::lock_guard lock(Runtime::Get().lifecycle_mutex());
        if ((rc = CreateStreamLocked(ctx, 0, 0, false, &work_))) return rc;
        if ((rc = CreateStreamLocked(ctx, 0, 0, false, &callbacks_))) {
            Stream* work = work_;
            work_ = nullptr;
            FinishStream(DetachStreamLocked(work), true);
            return rc;
        }
    }
    if ((rc = SubscribeReport(thread_id, callbacks_))) {
        Destroy();
        return rc;
    }
    thread_id_ = thread_id;
    return ACL_SUCCESS;
}

void VideoStreams::Destroy() {
    // The work stream first: its tasks deliver to the callback stream.
    Release(work_);
    work_ = nullptr;
    Release(callbacks_);  // detaching drops the subscription
    callbacks_ = nullptr;
}

void VideoStreams::Submit(std::function<void()> work) {
    auto* pending = new std::function<void()>(std::move(work));
    // Not replayable, on purpose: codec work feeds a stateful decoder or encoder (reference
    // frames, frame tags, pending outputs), so running a frame again is no replay of it. The
    // work stream is the channel's own, never an application's, so no capture reaches it; if
    // one did, this task would invalidate it (ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT).
    work_->Submit(cpu::MakeTask(
        [pending](cpu::TaskContext& ctx) {
            std::unique_ptr<std::function<void()>> owned(pending);
            if (!ctx.cancelled()) (*owned)();
            return cpu::TaskStatus::Done();
        },
        0, cpu::Task::kCallWhenCancelled));
}

void VideoStreams::Deliver(std::function<void()> callback) {
    auto* pending = new std::function<void()>(std::move(callback));
    if (LaunchCallback(RunDelivered, pending, ACL_CALLBACK_BLOCK, callbacks_) != ACL_SUCCESS) {
        // Only when the subscription is gone, which Destroy does after the work stream ends.
        OPENACL_LOG_ERROR("a video callback could not be queued: its report subscription is gone");
        delete pending;
    }
}

aclError VideoStreams::Drain(const char* why) {
    if (static_cast<uint64_t>(pthread_self()) == thread_id_) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s on the channel's report thread would wait for callbacks that only this "
                    "thread can run: call it from another thread",
                    why);
    }
    cpu::WaitStatus status = work_->executor()->Wait(work_->queue());
    if (aclError rc = StreamWaitResult(work_, status, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)) return rc;
    status = callbacks_->executor()->Wait(callbacks_->queue());
    return StreamWaitResult(callbacks_, status, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

}  // namespace openacl::dvpp
