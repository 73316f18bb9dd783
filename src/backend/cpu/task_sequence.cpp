#include "backend/cpu/task_sequence.h"

#include "backend/cpu/queue.h"

namespace openacl::cpu {

Task MakeTaskSequence(const Task* tasks, uint32_t count) {
    return MakeTask(
        [tasks, count](TaskContext& ctx) {
            Queue* queue = ctx.queue();
            TaskStatus result = TaskStatus::Done();
            for (uint32_t i = 0; i < count; ++i) {
                if (queue->discarding.load(std::memory_order_relaxed) ||
                    queue->discard_through.load(std::memory_order_relaxed) >= ctx.seq()) {
                    break;  // an abort came: the rest is discarded, as queued tasks would be
                }
                Task task = tasks[i];
                task.flags |= Task::kBorrowed;
                TaskContext context(queue, ctx.seq(), RunReason::kRun, true);
                const TaskStatus status = task.fn(context, task.payload);
                if (!status.failed()) continue;
                if (result.done()) result = status;
                if (queue->stop_on_failure.load(std::memory_order_relaxed)) break;
            }
            return result;
        },
        0, Task::kBorrowed);
}

}  // namespace openacl::cpu
