// Tasks: what a queue runs. A task is a function pointer plus a small inline payload, one cache
// line in all, so queues store tasks by value and submitting one never allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace openacl::cpu {

class Queue;

// What a task reports when it returns.
struct TaskStatus {
    enum class Kind : uint8_t {
        kDone,       // finished; the queue moves on
        kFailed,     // finished with an error code, which the queue's next wait reports
        kSuspended,  // not finished; the queue parks, without a worker, until resumed
    };
    Kind kind = Kind::kDone;
    int32_t code = 0;

    static constexpr TaskStatus Done() { return {}; }
    static constexpr TaskStatus Failed(int32_t code) { return {Kind::kFailed, code}; }
    static constexpr TaskStatus Suspended() { return {Kind::kSuspended, 0}; }
    constexpr bool done() const { return kind == Kind::kDone; }
    constexpr bool failed() const { return kind == Kind::kFailed; }
    constexpr bool suspended() const { return kind == Kind::kSuspended; }
};

// Names one suspended task: its queue and its sequence number. Sequence numbers are never
// reused (not even when a queue's slot is recycled), so a stale token can never wake the
// wrong task; it is simply ignored.
struct SuspendToken {
    Queue* queue = nullptr;
    uint64_t seq = 0;
};

// Why a task's function is being called.
enum class RunReason : uint8_t {
    kRun,        // normal execution
    kSkipped,    // the queue is stopped after a failure (FailureMode::kStop)
    kDiscarded,  // the queue is being destroyed with DestroyQueueForce
};

// What a running task may know about itself.
class TaskContext {
 public:
    TaskContext(Queue* queue, uint64_t seq, RunReason reason, bool borrowed = false)
        : queue_(queue), seq_(seq), reason_(reason), borrowed_(borrowed) {}

    Queue* queue() const { return queue_; }
    uint64_t seq() const { return seq_; }
    RunReason reason() const { return reason_; }
    bool cancelled() const { return reason_ != RunReason::kRun; }
    // A copy of a task kept by a captured model (Task::kBorrowed): it runs, but its payload
    // is the model's, so it must release nothing.
    bool borrowed() const { return borrowed_; }
    // Hand this to whoever will call Executor::Resume or Executor::Complete after the task
    // returns TaskStatus::Suspended().
    SuspendToken token() const { return {queue_, seq_}; }

 private:
    Queue* queue_;
    uint64_t seq_;
    RunReason reason_;
    bool borrowed_;
};

// The payload is mutable and travels with the task: state written by a run that suspends is
// seen by the re-run (see Executor::Resume).
using TaskFn = TaskStatus (*)(TaskContext& ctx, void* payload);

struct alignas(64) Task {
    static constexpr size_t kPayloadSize = 48;
    static constexpr size_t kPayloadAlign = 8;

    enum Flags : uint16_t {
        kNoFlags = 0,
        // Call fn (with ctx.cancelled()) when the task is skipped or discarded instead of run,
        // so it can release what its payload owns. Without it such a task is not called.
        kCallWhenCancelled = 1,
        // The task may run borrowed (TaskContext::borrowed): it releases what its payload owns
        // only when not borrowed. A captured model keeps such a task and runs copies of it.
        kReplayable = 2,
        // This copy's payload belongs to a captured model: run it, release nothing, and do not
        // call it at all when it is skipped or discarded.
        kBorrowed = 4,
        // The task runs to completion where it is called (it never returns Suspended), so a
        // replay may run it inside a task sequence (backend/cpu/task_sequence.h).
        kFusable = 8,
    };

    TaskFn fn = nullptr;
    uint32_t tag = 0;  // non-zero: reported to the executor's Tracer
    uint16_t flags = kNoFlags;
    alignas(kPayloadAlign) unsigned char payload[kPayloadSize] = {};
};
static_assert(sizeof(Task) == 64, "a task is one cache line");
static_assert(std::is_trivially_copyable_v<Task>, "queues copy tasks with memcpy semantics");

// Packs a callable with small trivially copyable captures into a Task. The callable may take
// (TaskContext&) or nothing, and return TaskStatus or void (void means done).
template <class F>
Task MakeTask(F f, uint32_t tag = 0, uint16_t flags = Task::kNoFlags) {
    static_assert(sizeof(F) <= Task::kPayloadSize, "captures exceed the task's inline payload");
    static_assert(alignof(F) <= Task::kPayloadAlign, "captures are over-aligned");
    static_assert(std::is_trivially_copyable_v<F> && std::is_trivially_destructible_v<F>,
                  "captures must be trivially copyable: tasks are copied as bytes, never "
                  "destroyed");
    Task t;
    t.tag = tag;
    t.flags = flags;
    ::new (static_cast<void*>(t.payload)) F(std::move(f));
    t.fn = [](TaskContext& ctx, void* payload) -> TaskStatus {
        F& fn = *std::launder(reinterpret_cast<F*>(payload));
        if constexpr (std::is_invocable_v<F&, TaskContext&>) {
            if constexpr (std::is_void_v<std::invoke_result_t<F&, TaskContext&>>) {
                fn(ctx);
                return TaskStatus::Done();
            } else {
                return fn(ctx);
            }
        } else {
            static_assert(std::is_invocable_v<F&>, "task callables take () or (TaskContext&)");
            if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
                fn();
                return TaskStatus::Done();
            } else {
                return fn();
            }
        }
    };
    return t;
}

}  // namespace openacl::cpu
