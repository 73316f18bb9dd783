// Task sequences (backend/cpu/task_sequence.h): a stretch of tasks run as one task of a queue,
// stopping where the queue would stop between them.
#include "backend/cpu/task_sequence.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "backend/cpu/executor.h"

namespace openacl::cpu {
namespace {

constexpr auto kTestLimit = std::chrono::nanoseconds(std::chrono::seconds(5));

ExecutorOptions TwoWorkers() {
    ExecutorOptions options;
    options.workers = 2;
    return options;
}

// A task that appends `value` to *log when it runs (and says whether it ran borrowed).
struct Append {
    std::vector<int>* log;
    int value;
    bool* borrowed;
};
Task AppendTask(std::vector<int>* log, int value, bool* borrowed = nullptr) {
    return MakeTask(
        [a = Append{log, value, borrowed}](TaskContext& ctx) {
            a.log->push_back(a.value);
            if (a.borrowed != nullptr) *a.borrowed = ctx.borrowed();
        },
        0, Task::kFusable);
}

Task FailingTask(int code) {
    return MakeTask([code] { return TaskStatus::Failed(code); }, 0, Task::kFusable);
}

TEST(TaskSequence, RunsItsTasksInOrderAsOneTaskOfTheQueue) {
    Executor executor(TwoWorkers());
    Queue* queue = executor.CreateQueue();
    std::vector<int> log;
    bool borrowed = false;
    const std::vector<Task> tasks = {AppendTask(&log, 1), AppendTask(&log, 2),
                                     AppendTask(&log, 3, &borrowed)};
    const uint64_t seq = executor.Submit(queue, MakeTaskSequence(tasks.data(), 3));
    EXPECT_EQ(Executor::Submitted(queue), seq);  // one task of the queue
    ASSERT_TRUE(executor.WaitFor(queue, kTestLimit).ok());
    EXPECT_EQ(log, (std::vector<int>{1, 2, 3}));
    EXPECT_TRUE(borrowed);  // the payloads are the caller's: nothing may release them
    executor.DestroyQueue(queue);
}

TEST(TaskSequence, EachRunWorksOnItsOwnCopyOfEveryPayload) {
    Executor executor(TwoWorkers());
    Queue* queue = executor.CreateQueue();
    std::vector<int> seen;
    struct Counter {
        int count;
        std::vector<int>* seen;
    };
    // The run changes its payload; the kept task must be unchanged for the next run.
    const Task counting = MakeTask(
        [c = Counter{0, &seen}]() mutable { c.seen->push_back(++c.count); }, 0, Task::kFusable);
    const std::vector<Task> tasks = {counting, counting};
    const Task sequence = MakeTaskSequence(tasks.data(), 2);
    executor.Submit(queue, sequence);
    executor.Submit(queue, sequence);
    ASSERT_TRUE(executor.WaitFor(queue, kTestLimit).ok());
    EXPECT_EQ(seen, (std::vector<int>{1, 1, 1, 1}));
    executor.DestroyQueue(queue);
}

TEST(TaskSequence, ReportsTheFirstFailureAndGoesOnWhereTheQueueContinues) {
    Executor executor(TwoWorkers());
    Queue* queue = executor.CreateQueue({FailureMode::kContinue});
    std::vector<int> log;
    const std::vector<Task> tasks = {AppendTask(&log, 1), FailingTask(7), FailingTask(8),
                                     AppendTask(&log, 4)};
    executor.Submit(queue, MakeTaskSequence(tasks.data(), 4));
    const WaitStatus status = executor.WaitFor(queue, kTestLimit);
    EXPECT_TRUE(status.failed());
    EXPECT_EQ(status.code, 7);
    EXPECT_EQ(log, (std::vector<int>{1, 4}));
    executor.DestroyQueue(queue);
}

TEST(TaskSequence, AFailureEndsItWhereTheQueueStopsOnFailures) {
    Executor executor(TwoWorkers());
    Queue* queue = executor.CreateQueue({FailureMode::kStop});
    std::vector<int> log;
    const std::vector<Task> tasks = {AppendTask(&log, 1), FailingTask(7), AppendTask(&log, 3)};
    executor.Submit(queue, MakeTaskSequence(tasks.data(), 3));
    executor.Submit(queue, AppendTask(&log, 4));  // after the sequence: skipped as well
    const WaitStatus status = executor.WaitFor(queue, kTestLimit);
    EXPECT_TRUE(status.failed());
    EXPECT_EQ(status.code, 7);
    EXPECT_EQ(log, (std::vector<int>{1}));
    executor.DestroyQueue(queue);
}

TEST(TaskSequence, AnAbortDuringItDiscardsTheTasksNotYetRun) {
    Executor executor(TwoWorkers());
    Queue* queue = executor.CreateQueue();
    std::vector<int> log;
    struct Abort {
        Executor* executor;
        Queue* queue;
    };
    // The second task aborts the queue's work (as aclrtStreamAbort from another thread would
    // while the first tasks run): the third must not run.
    const Task abort =
        MakeTask([a = Abort{&executor, queue}] { a.executor->DiscardSubmitted(a.queue); }, 0,
                 Task::kFusable);
    const std::vector<Task> tasks = {AppendTask(&log, 1), abort, AppendTask(&log, 3)};
    executor.Submit(queue, MakeTaskSequence(tasks.data(), 3));
    ASSERT_TRUE(executor.WaitFor(queue, kTestLimit).ok());
    EXPECT_EQ(log, (std::vector<int>{1}));
    executor.DestroyQueue(queue);
}

TEST(TaskSequence, ASkippedSequenceRunsNoneOfItsTasks) {
    Executor executor(TwoWorkers());
    Queue* queue = executor.CreateQueue({FailureMode::kStop});
    std::vector<int> log;
    const std::vector<Task> tasks = {AppendTask(&log, 1), AppendTask(&log, 2)};
    executor.Submit(queue, FailingTask(5));
    executor.Submit(queue, MakeTaskSequence(tasks.data(), 2));
    EXPECT_EQ(executor.WaitFor(queue, kTestLimit).code, 5);
    EXPECT_TRUE(log.empty());
    executor.DestroyQueue(queue);
}

}  // namespace
}  // namespace openacl::cpu
