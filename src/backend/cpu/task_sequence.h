// A stretch of tasks run as one task. A replayed graph (core/model_ri.h) submits each stretch
// of its consecutive operators this way, so that they pay for one trip through the queue
// instead of one each: one completion published to the stream's waiters, whose cache line is
// what a task's completion mostly costs when a host thread is watching the stream.
#pragma once

#include <cstdint>

#include "backend/cpu/task.h"

namespace openacl::cpu {

// A task that runs tasks[0, count) in order, each on a copy (its payload the run's own, as for
// a submitted copy) marked borrowed, with the sequence's own context. Only tasks marked
// Task::kFusable may go in: they never suspend. Between two of them it stops where the queue
// would have: after a failure when the queue stops on failures, and when an abort discards
// the queue's tasks; it reports the first failure. `tasks` must outlive every run of it.
Task MakeTaskSequence(const Task* tasks, uint32_t count);

}  // namespace openacl::cpu
