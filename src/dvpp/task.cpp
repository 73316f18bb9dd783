#include "dvpp/task.h"

#include <exception>

#include "backend/cpu/task.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/stream.h"

namespace openacl::dvpp {

void Submit(Stream* stream, Work work) {
    // An image task is at least microseconds of work: one heap block per call is noise.
    struct Pending {
        Work work;
        Stream* stream;
    };
    auto* pending = new Pending{std::move(work), stream};
    // Replayable: every work closure takes its pictures by value and reads them only, so a
    // captured model runs it again as often as asked; the original frees it, once.
    const cpu::Task task = cpu::MakeTask(
        [pending](cpu::TaskContext& ctx) {
            cpu::TaskStatus status = cpu::TaskStatus::Done();
            if (!ctx.cancelled()) {
                std::string error;
                aclError code = ACL_SUCCESS;
                try {
                    code = pending->work(&error);
                } catch (const std::exception& e) {
                    code = ACL_ERROR_FAILURE;
                    error = std::string("the image library failed: ") + e.what();
                }
                if (code != ACL_SUCCESS) {
                    pending->stream->NoteFailure("%s", error.c_str());
                    exception_info::Report(ctx, pending->stream, code);
                    status = cpu::TaskStatus::Failed(code);
                }
            }
            if (!ctx.borrowed()) delete pending;
            return status;
        },
        0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable);
    stream->Submit(task);
}

}  // namespace openacl::dvpp
