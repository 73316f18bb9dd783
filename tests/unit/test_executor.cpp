// The CPU stream executor: ordering, concurrency, events, suspension, failures, destruction,
// a stress run and idle cost. Every blocking step has a bounded timeout so a broken executor
// fails the test instead of hanging it.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "backend/cpu/event.h"
#include "backend/cpu/executor.h"

namespace openacl::cpu {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Blocks the queue that runs it until Open(); gives up after 10 s so nothing can hang.
struct Gate {
    std::atomic<bool> open{false};
    std::atomic<bool> entered{false};

    void Open() { open.store(true); }
    Task Block() {
        return MakeTask([g = this] {
            g->entered.store(true);
            const auto deadline = Clock::now() + 10s;
            while (!g->open.load() && Clock::now() < deadline)
                std::this_thread::sleep_for(50us);
        });
    }
    bool WaitEntered() {
        const auto deadline = Clock::now() + 5s;
        while (!entered.load() && Clock::now() < deadline)
            std::this_thread::sleep_for(50us);
        return entered.load();
    }
};

template <class Pred>
bool Eventually(Pred pred, std::chrono::milliseconds limit = 5000ms) {
    const auto deadline = Clock::now() + limit;
    while (!pred()) {
        if (Clock::now() > deadline) return false;
        std::this_thread::sleep_for(50us);
    }
    return true;
}

ExecutorOptions Workers(unsigned n) {
    ExecutorOptions o;
    o.workers = n;
    return o;
}

constexpr auto kTestLimit = std::chrono::nanoseconds(5s);

// ---- Tasks --------------------------------------------------------------------------------

TEST(Task, PacksSmallCapturesInlineInOneCacheLine) {
    static_assert(sizeof(Task) == 64);
    int out = 0;
    int64_t a = 40, b = 2;  // not const: a constant would not need capturing
    Task t = MakeTask([&out, a, b] { out = static_cast<int>(a + b); }, 7);
    TaskContext ctx(nullptr, 1, RunReason::kRun);
    EXPECT_TRUE(t.fn(ctx, t.payload).done());
    EXPECT_EQ(out, 42);
    EXPECT_EQ(t.tag, 7u);
}

TEST(Task, CallableMayReturnAStatusAndSeeItsContext) {
    Task t = MakeTask([](TaskContext& ctx) { return TaskStatus::Failed(ctx.seq() * 10); });
    TaskContext ctx(nullptr, 3, RunReason::kRun);
    TaskStatus st = t.fn(ctx, t.payload);
    EXPECT_TRUE(st.failed());
    EXPECT_EQ(st.code, 30);
}

// ---- Ordering and concurrency -------------------------------------------------------------

// Counts tasks that run out of order. Plain (non-atomic) state: the queue's ordering is the
// only synchronization, which also lets ThreadSanitizer check that consecutive tasks on
// different workers are ordered.
struct OrderCheck {
    uint64_t next = 0;
    uint64_t out_of_order = 0;
    Task Number(uint64_t i) {
        return MakeTask([s = this, i] {
            if (s->next != i) ++s->out_of_order;
            s->next = i + 1;
        });
    }
};

TEST(Executor, TasksOfOneQueueRunStrictlyInSubmissionOrder) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    OrderCheck s;
    constexpr uint64_t kTasks = 20000;
    for (uint64_t i = 0; i < kTasks; ++i)
        ex.Submit(q, s.Number(i));
    ASSERT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    EXPECT_EQ(s.next, kTasks);
    EXPECT_EQ(s.out_of_order, 0u);
    EXPECT_EQ(Executor::Completed(q), kTasks);
    ex.DestroyQueue(q);
}

TEST(Executor, SeveralThreadsSubmittingToOneQueueKeepEachThreadsOrder) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    constexpr int kThreads = 4, kPerThread = 5000;
    uint64_t next[kThreads] = {};
    uint64_t out_of_order = 0;
    std::vector<std::thread> producers;
    for (int p = 0; p < kThreads; ++p) {
        producers.emplace_back([&, p] {
            for (uint64_t i = 0; i < kPerThread; ++i) {
                ex.Submit(q, MakeTask([n = &next[p], bad = &out_of_order, i] {
                              if (*n != i) ++*bad;
                              *n = i + 1;
                          }));
            }
        });
    }
    for (auto& t : producers)
        t.join();
    ASSERT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    for (int p = 0; p < kThreads; ++p)
        EXPECT_EQ(next[p], kPerThread);
    EXPECT_EQ(out_of_order, 0u);
}

// A queue's ring has a fixed capacity between growths: tasks submitted while it is full wait
// in an overflow list, and the worker moves them into a larger ring once it has emptied the
// old one. Order must survive that hand-over, also with submitters still pushing meanwhile.
TEST(Executor, TasksSubmittedWhileTheRingIsFullKeepTheirOrder) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    OrderCheck s;
    auto task = [&s](uint64_t i) { return s.Number(i); };
    Gate gate;
    ex.Submit(q, gate.Block());
    ASSERT_TRUE(gate.WaitEntered());
    constexpr uint64_t kParked = 5000, kTotal = 60000;
    uint64_t i = 0;
    for (; i < kParked; ++i)  // far beyond the initial capacity: most go to the overflow
        ex.Submit(q, task(i));
    gate.Open();
    for (; i < kTotal; ++i)  // while the worker drains, refills and grows
        ex.Submit(q, task(i));
    ASSERT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    EXPECT_EQ(s.next, kTotal);
    EXPECT_EQ(s.out_of_order, 0u);
    EXPECT_EQ(Executor::Completed(q), kTotal + 1);
    // The grown ring serves the next round as well.
    for (; i < kTotal + 1000; ++i)
        ex.Submit(q, task(i));
    ASSERT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    EXPECT_EQ(s.next, kTotal + 1000);
    EXPECT_EQ(s.out_of_order, 0u);
    ex.DestroyQueue(q);
}

TEST(Executor, DifferentQueuesRunConcurrently) {
    Executor ex(Workers(2));
    Queue* a = ex.CreateQueue();
    Queue* b = ex.CreateQueue();
    // Each task announces itself, then waits for the other: both succeed only if they run at
    // the same time. Bounded, so a serial executor fails instead of hanging.
    std::atomic<bool> started[2] = {false, false};
    std::atomic<bool> met[2] = {false, false};
    for (int i = 0; i < 2; ++i) {
        ex.Submit(i == 0 ? a : b, MakeTask([started = started, met = met, i] {
                      started[i].store(true);
                      const auto deadline = Clock::now() + 5s;
                      while (!started[1 - i].load() && Clock::now() < deadline)
                          std::this_thread::yield();
                      met[i].store(started[1 - i].load());
                  }));
    }
    ASSERT_TRUE(ex.WaitFor(a, kTestLimit).ok());
    ASSERT_TRUE(ex.WaitFor(b, kTestLimit).ok());
    EXPECT_TRUE(met[0].load());
    EXPECT_TRUE(met[1].load());
}

TEST(Executor, QueryReportsWhetherSubmittedWorkHasFinished) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    EXPECT_TRUE(ex.Query(q));
    Gate gate;
    ex.Submit(q, gate.Block());
    EXPECT_FALSE(ex.Query(q));
    gate.Open();
    ASSERT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    EXPECT_TRUE(ex.Query(q));
}

TEST(Executor, WaitForTimesOutWithoutHangingAndLeavesWorkPending) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    Gate gate;
    ex.Submit(q, gate.Block());
    EXPECT_TRUE(ex.WaitFor(q, 0ns).timed_out());  // 0 = poll

    const auto start = Clock::now();
    EXPECT_TRUE(ex.WaitFor(q, 20ms).timed_out());
    const auto took = Clock::now() - start;
    EXPECT_GE(took, 20ms);
    EXPECT_LT(took, 2s);

    gate.Open();
    EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
}

TEST(Executor, WaitAllWaitsForEveryQueue) {
    Executor ex(Workers(2));
    std::atomic<int> done{0};
    std::vector<Queue*> qs;
    for (int i = 0; i < 6; ++i)
        qs.push_back(ex.CreateQueue());
    for (Queue* q : qs) {
        for (int i = 0; i < 100; ++i)
            ex.Submit(q, MakeTask([d = &done] { d->fetch_add(1); }));
    }
    EXPECT_TRUE(ex.WaitAll().ok());
    EXPECT_EQ(done.load(), 600);
}

TEST(Executor, CreateQueueFailsBeyondTheConfiguredMaximum) {
    ExecutorOptions o = Workers(1);
    o.max_queues = 3;
    Executor ex(o);
    Queue* qs[3];
    for (auto& q : qs)
        ASSERT_NE(q = ex.CreateQueue(), nullptr);
    EXPECT_EQ(ex.CreateQueue(), nullptr);
    ex.DestroyQueue(qs[1]);
    EXPECT_NE(ex.CreateQueue(), nullptr);  // the slot is recycled
}

// ---- Events -------------------------------------------------------------------------------

TEST(Event, WaitHoldsAnotherQueueUntilTheRecordedPointCompletes) {
    Executor ex(Workers(2));
    Queue* producer = ex.CreateQueue();
    Queue* consumer = ex.CreateQueue();
    Event* ev = Event::Create();
    Gate gate;
    std::atomic<bool> consumed{false};

    ex.Submit(producer, gate.Block());
    ev->Record(producer);
    ev->EnqueueWait(consumer);
    ex.Submit(consumer, MakeTask([c = &consumed] { c->store(true); }));

    ASSERT_TRUE(gate.WaitEntered());
    std::this_thread::sleep_for(20ms);
    EXPECT_FALSE(consumed.load());
    EXPECT_FALSE(ev->Query());
    EXPECT_FALSE(ex.Query(consumer));

    gate.Open();
    ASSERT_TRUE(ex.WaitFor(consumer, kTestLimit).ok());
    EXPECT_TRUE(consumed.load());
    EXPECT_TRUE(ev->Query());
    ev->Drop();
}

TEST(Event, WaitingQueueDoesNotHoldAWorker) {
    Executor ex(Workers(1));  // the only worker must stay free while `waiter` waits
    Queue* source = ex.CreateQueue();
    Queue* waiter = ex.CreateQueue();
    Queue* other = ex.CreateQueue();
    Event* ev = Event::Create();

    // A source that suspends (not blocking the worker) keeps the event pending.
    std::atomic<SuspendToken*> token{nullptr};
    SuspendToken storage;
    ex.Submit(source, MakeTask([&](TaskContext& ctx) {
                  storage = ctx.token();
                  token.store(&storage);
                  return TaskStatus::Suspended();
              }));
    ev->Record(source);
    ev->EnqueueWait(waiter);
    ASSERT_TRUE(Eventually([&] { return token.load() != nullptr; }));

    std::atomic<bool> other_ran{false};
    ex.Submit(other, MakeTask([&] { other_ran.store(true); }));
    EXPECT_TRUE(ex.WaitFor(other, kTestLimit).ok());
    EXPECT_TRUE(other_ran.load());
    EXPECT_FALSE(ex.Query(waiter));

    EXPECT_TRUE(Executor::Complete(*token.load()));
    EXPECT_TRUE(ex.WaitFor(waiter, kTestLimit).ok());
    ev->Drop();
}

TEST(Event, WaitRefersToTheLatestRecordAtTheTimeItWasEnqueued) {
    Executor ex(Workers(3));
    Queue* slow = ex.CreateQueue();
    Queue* fast = ex.CreateQueue();
    Queue* early_waiter = ex.CreateQueue();
    Queue* late_waiter = ex.CreateQueue();
    Event* ev = Event::Create();
    Gate gate;

    ex.Submit(slow, gate.Block());
    ev->Record(slow);
    ev->EnqueueWait(early_waiter);  // captures the record on `slow`
    ev->Record(fast);               // re-record: completes at once
    ASSERT_TRUE(ex.WaitFor(fast, kTestLimit).ok());
    ev->EnqueueWait(late_waiter);  // captures the record on `fast`

    EXPECT_TRUE(ev->Query());
    EXPECT_TRUE(ex.WaitFor(late_waiter, kTestLimit).ok());
    std::this_thread::sleep_for(20ms);
    EXPECT_FALSE(ex.Query(early_waiter));  // still held by the older record

    gate.Open();
    EXPECT_TRUE(ex.WaitFor(early_waiter, kTestLimit).ok());
    ev->Drop();
}

TEST(Event, RecordStoresTheCompletionTimeOfTheLatestRecord) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    Event* ev = Event::Create();
    EXPECT_FALSE(ev->TimestampNs().has_value());

    const int64_t before = NowNs();
    ev->Record(q);
    ASSERT_TRUE(ev->Synchronize(kTestLimit).ok());
    const int64_t after = NowNs();
    ASSERT_TRUE(ev->TimestampNs().has_value());
    EXPECT_GE(*ev->TimestampNs(), before);
    EXPECT_LE(*ev->TimestampNs(), after);

    Gate gate;
    ex.Submit(q, gate.Block());
    ev->Record(q);
    EXPECT_FALSE(ev->TimestampNs().has_value());  // the newest record has not completed
    EXPECT_TRUE(ev->Synchronize(1ms).timed_out());
    gate.Open();
    ASSERT_TRUE(ev->Synchronize(kTestLimit).ok());
    EXPECT_GE(*ev->TimestampNs(), after);
    ev->Drop();
}

TEST(Event, NeverRecordedEventIsCompleteAndImposesNoWait) {
    Executor ex(Workers(1));
    Queue* q = ex.CreateQueue();
    Event* ev = Event::Create();
    EXPECT_TRUE(ev->Query());
    EXPECT_TRUE(ev->Synchronize(0ns).ok());
    ev->EnqueueWait(q);
    EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    ev->Drop();
}

TEST(Event, MayBeReleasedWhileARecordIsPending) {
    Executor ex(Workers(1));
    Queue* q = ex.CreateQueue();
    Gate gate;
    ex.Submit(q, gate.Block());
    Event* ev = Event::Create();
    ev->Record(q);
    ev->Drop();  // the pending record keeps it alive
    gate.Open();
    EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
}

// ---- Suspension ---------------------------------------------------------------------------

TEST(Suspension, ResumeRunsTheTaskAgainWithItsPayloadKept) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    std::atomic<bool> parked{false};
    SuspendToken token;
    int runs_seen = 0;
    ex.Submit(q, MakeTask([&, runs = 0](TaskContext& ctx) mutable {
                  if (++runs == 1) {
                      token = ctx.token();
                      parked.store(true);
                      return TaskStatus::Suspended();
                  }
                  runs_seen = runs;
                  return TaskStatus::Done();
              }));
    std::atomic<bool> after{false};
    ex.Submit(q, MakeTask([&] { after.store(true); }));

    ASSERT_TRUE(Eventually([&] { return parked.load(); }));
    std::this_thread::sleep_for(5ms);
    EXPECT_FALSE(after.load());  // the queue does not get past a suspended task
    EXPECT_TRUE(ex.WaitFor(q, 1ms).timed_out());

    EXPECT_TRUE(Executor::Resume(token));
    EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    EXPECT_EQ(runs_seen, 2);
    EXPECT_TRUE(after.load());
    EXPECT_FALSE(Executor::Resume(token));  // stale
}

TEST(Suspension, CompleteFinishesTheTaskWithoutRunningItAgain) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    std::atomic<int> runs{0};
    std::mutex mu;
    std::vector<SuspendToken> handed_off;  // a "callback thread" picks these up
    ex.Submit(q, MakeTask([&](TaskContext& ctx) {
                  runs.fetch_add(1);
                  std::lock_guard<std::mutex> g(mu);
                  handed_off.push_back(ctx.token());
                  return TaskStatus::Suspended();
              }));
    std::thread callback_thread([&] {
        ASSERT_TRUE(Eventually([&] {
            std::lock_guard<std::mutex> g(mu);
            return !handed_off.empty();
        }));
        std::lock_guard<std::mutex> g(mu);
        EXPECT_TRUE(Executor::Complete(handed_off[0], TaskStatus::Failed(7)));
    });
    WaitStatus st = ex.WaitFor(q, kTestLimit);
    callback_thread.join();
    EXPECT_TRUE(st.failed());
    EXPECT_EQ(st.code, 7);
    EXPECT_EQ(runs.load(), 1);
}

TEST(Suspension, ResumeThatArrivesBeforeTheTaskReturnsIsNotLost) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    int runs = 0;
    ex.Submit(
        q, MakeTask([r = &runs](TaskContext& ctx) {
            if (++*r == 1) {
                EXPECT_TRUE(Executor::Resume(ctx.token()));  // e.g. the awaited thing just happened
                return TaskStatus::Suspended();
            }
            return TaskStatus::Done();
        }));
    EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    EXPECT_EQ(runs, 2);
}

// ---- Failures -----------------------------------------------------------------------------

TEST(Failure, NextWaitReportsTheFirstFailureThenClearsIt) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();  // FailureMode::kContinue
    int ran_after = 0;
    ex.Submit(q, MakeTask([] { return TaskStatus::Failed(5); }));
    ex.Submit(q, MakeTask([] { return TaskStatus::Failed(6); }));
    ex.Submit(q, MakeTask([r = &ran_after] { ++*r; }));
    WaitStatus st = ex.WaitFor(q, kTestLimit);
    EXPECT_TRUE(st.failed());
    EXPECT_EQ(st.code, 5);
    EXPECT_EQ(ran_after, 1);  // continue mode keeps going
    EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
}

TEST(Failure, TimedOutWaitLeavesTheFailureForTheNextWait) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    Gate gate;
    ex.Submit(q, MakeTask([] { return TaskStatus::Failed(3); }));
    ex.Submit(q, gate.Block());
    EXPECT_TRUE(ex.WaitFor(q, 1ms).timed_out());
    gate.Open();
    WaitStatus st = ex.WaitFor(q, kTestLimit);
    EXPECT_TRUE(st.failed());
    EXPECT_EQ(st.code, 3);
}

TEST(Failure, StopModeSkipsLaterTasksUntilTheFailureIsReported) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue({FailureMode::kStop});
    int ran = 0;
    RunReason cancel_reason = RunReason::kRun;
    ex.Submit(q, MakeTask([] { return TaskStatus::Failed(9); }));
    for (int i = 0; i < 10; ++i)
        ex.Submit(q, MakeTask([r = &ran] { ++*r; }));
    ex.Submit(q, MakeTask([c = &cancel_reason](TaskContext& ctx) { *c = ctx.reason(); }, 0,
                          Task::kCallWhenCancelled));
    WaitStatus st = ex.WaitFor(q, kTestLimit);
    EXPECT_TRUE(st.failed());
    EXPECT_EQ(st.code, 9);
    EXPECT_EQ(ran, 0);
    EXPECT_EQ(cancel_reason, RunReason::kSkipped);

    ex.Submit(q, MakeTask([r = &ran] { ++*r; }));  // reported: the queue runs again
    EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    EXPECT_EQ(ran, 1);
}

TEST(Failure, WaitAllReportsAFailureFromAnyQueue) {
    Executor ex(Workers(2));
    Queue* ok = ex.CreateQueue();
    Queue* bad = ex.CreateQueue();
    ex.Submit(ok, MakeTask([] {}));
    ex.Submit(bad, MakeTask([] { return TaskStatus::Failed(11); }));
    WaitStatus st = ex.WaitAll();
    EXPECT_TRUE(st.failed());
    EXPECT_EQ(st.code, 11);
    EXPECT_TRUE(ex.WaitAll().ok());
}

// ---- Destruction --------------------------------------------------------------------------

TEST(Destroy, DestroyQueueWaitsForPendingWork) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    Gate gate;
    std::atomic<int> ran{0};
    ex.Submit(q, gate.Block());
    for (int i = 0; i < 100; ++i)
        ex.Submit(q, MakeTask([r = &ran] { r->fetch_add(1); }));
    std::atomic<bool> destroyed{false};
    std::thread destroyer([&] {
        ex.DestroyQueue(q);
        destroyed.store(true);
    });
    std::this_thread::sleep_for(20ms);
    EXPECT_FALSE(destroyed.load());
    gate.Open();
    destroyer.join();
    EXPECT_EQ(ran.load(), 100);
}

TEST(Destroy, DestroyQueueForceDiscardsPendingWork) {
    Executor ex(Workers(2));
    Queue* q = ex.CreateQueue();
    Gate gate;
    std::atomic<int> ran{0};
    std::atomic<int> discarded{0};
    ex.Submit(q, gate.Block());
    for (int i = 0; i < 100; ++i)
        ex.Submit(q, MakeTask([r = &ran] { r->fetch_add(1); }));
    ex.Submit(q, MakeTask(
                     [d = &discarded](TaskContext& ctx) {
                         if (ctx.reason() == RunReason::kDiscarded) d->fetch_add(1);
                     },
                     0, Task::kCallWhenCancelled));
    ASSERT_TRUE(gate.WaitEntered());
    std::thread destroyer([&] { ex.DestroyQueueForce(q); });  // waits for the running task only
    std::this_thread::sleep_for(10ms);
    gate.Open();
    destroyer.join();
    EXPECT_EQ(ran.load(), 0);
    EXPECT_EQ(discarded.load(), 1);
}

TEST(Destroy, DestroyQueueForceDiscardsASuspendedTask) {
    Executor ex(Workers(1));
    Queue* q = ex.CreateQueue();
    std::atomic<bool> parked{false};
    SuspendToken token;
    ex.Submit(q, MakeTask([&](TaskContext& ctx) {
                  token = ctx.token();
                  parked.store(true);
                  return TaskStatus::Suspended();
              }));
    ASSERT_TRUE(Eventually([&] { return parked.load(); }));
    ex.DestroyQueueForce(q);
    EXPECT_FALSE(Executor::Resume(token));  // nothing left to resume
}

TEST(Destroy, PointsOnADestroyedQueueStayReachedAfterItsSlotIsReused) {
    ExecutorOptions o = Workers(1);
    o.max_queues = 1;  // forces reuse of the one slot
    Executor ex(o);
    Queue* q = ex.CreateQueue();
    Event* ev = Event::Create();
    ex.Submit(q, MakeTask([] {}));
    ev->Record(q);
    ex.DestroyQueue(q);
    Queue* again = ex.CreateQueue();
    ASSERT_EQ(again, q);
    EXPECT_TRUE(ev->Query());
    EXPECT_TRUE(ex.Query(again));
    ex.Submit(again, MakeTask([] {}));
    EXPECT_TRUE(ex.WaitFor(again, kTestLimit).ok());
    ev->Drop();
}

TEST(Destroy, ExecutorDestructorDiscardsWhatIsLeft) {
    std::atomic<int> ran{0};
    {
        Executor ex(Workers(1));
        Queue* q = ex.CreateQueue();
        std::atomic<bool> parked{false};
        ex.Submit(q, MakeTask([p = &parked] {
                      p->store(true);
                      return TaskStatus::Suspended();  // nobody will resume it
                  }));
        for (int i = 0; i < 10; ++i)
            ex.Submit(q, MakeTask([r = &ran] { r->fetch_add(1); }));
        ASSERT_TRUE(Eventually([&] { return parked.load(); }));
    }  // must neither hang nor run the queued tasks
    EXPECT_EQ(ran.load(), 0);
}

// ---- Tracing ------------------------------------------------------------------------------

TEST(Tracing, TracerSeesTaggedTasksOnly) {
    struct Recorder : Tracer {
        std::mutex mu;
        std::vector<Record> records;
        void OnTask(const Record& r) noexcept override {
            std::lock_guard<std::mutex> g(mu);
            records.push_back(r);
        }
    } recorder;
    ExecutorOptions o = Workers(1);
    o.tracer = &recorder;
    Executor ex(o);
    Queue* q = ex.CreateQueue();
    ex.Submit(q, MakeTask([] {}));
    ex.Submit(q, MakeTask([] {}, /*tag=*/42));
    ASSERT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    std::lock_guard<std::mutex> g(recorder.mu);
    ASSERT_EQ(recorder.records.size(), 1u);
    EXPECT_EQ(recorder.records[0].tag, 42u);
    EXPECT_EQ(recorder.records[0].seq, 2u);
    EXPECT_LE(recorder.records[0].start, recorder.records[0].end);
}

// ---- Stress -------------------------------------------------------------------------------

// Several host threads, each owning two queues, submit a random mix of plain tasks (checked
// for order and summed), event records and cross-thread event waits, suspending tasks resumed
// by a helper thread or by themselves, and tasks on one shared queue. Every sum must match.
TEST(Stress, ManyThreadsManyQueuesMixedTasksKeepOrderAndChecksums) {
    constexpr int kThreads = 4, kQueuesPerThread = 2, kTasksPerThread = 25000;
    constexpr int kQueues = kThreads * kQueuesPerThread;
    Executor ex(Workers(2));

    struct QueueState {
        uint64_t sum = 0;
        uint64_t next = 0;
        uint64_t out_of_order = 0;
    };
    std::vector<Queue*> queues;
    std::vector<QueueState> state(kQueues);
    std::vector<Event*> events;
    for (int i = 0; i < kQueues; ++i) {
        queues.push_back(ex.CreateQueue());
        events.push_back(Event::Create());
    }
    Queue* shared = ex.CreateQueue();
    std::atomic<uint64_t> shared_sum{0};  // atomic only for the final read; tasks are ordered
    uint64_t shared_plain_sum = 0;

    std::mutex handoff_mu;
    std::vector<SuspendToken> handoff;
    std::atomic<bool> stop_helper{false};
    std::thread helper([&] {  // plays the callback thread
        std::vector<SuspendToken> batch;
        while (!stop_helper.load()) {
            {
                std::lock_guard<std::mutex> g(handoff_mu);
                batch.swap(handoff);
            }
            for (const SuspendToken& t : batch)
                EXPECT_TRUE(Executor::Complete(t));
            batch.clear();
            std::this_thread::sleep_for(20us);
        }
    });

    std::vector<uint64_t> expected_sum(kQueues, 0), expected_count(kQueues, 0);
    std::atomic<uint64_t> expected_shared{0};
    std::vector<std::thread> producers;
    for (int p = 0; p < kThreads; ++p) {
        producers.emplace_back([&, p] {
            std::mt19937_64 rng(p + 1);
            uint64_t my_shared = 0;
            for (int i = 0; i < kTasksPerThread; ++i) {
                const int qi = p * kQueuesPerThread + static_cast<int>(rng() % kQueuesPerThread);
                Queue* q = queues[qi];
                const unsigned kind = rng() % 100;
                if (kind < 75) {
                    const uint64_t v = rng() % 1000;
                    const uint64_t n = expected_count[qi]++;
                    expected_sum[qi] += v;
                    ex.Submit(q, MakeTask([s = &state[qi], v, n] {
                                  if (s->next != n) ++s->out_of_order;
                                  s->next = n + 1;
                                  s->sum += v;
                              }));
                } else if (kind < 83) {
                    events[qi]->Record(q);
                } else if (kind < 91) {
                    events[rng() % kQueues]->EnqueueWait(q);  // may be another thread's
                } else if (kind < 94) {
                    ex.Submit(q, MakeTask([&handoff_mu, &handoff](TaskContext& ctx) {
                                  std::lock_guard<std::mutex> g(handoff_mu);
                                  handoff.push_back(ctx.token());
                                  return TaskStatus::Suspended();
                              }));
                } else if (kind < 97) {
                    ex.Submit(q, MakeTask([runs = 0](TaskContext& ctx) mutable {
                                  if (++runs > 1) return TaskStatus::Done();
                                  Executor::Resume(ctx.token());
                                  return TaskStatus::Suspended();
                              }));
                } else {
                    const uint64_t v = rng() % 1000;
                    my_shared += v;
                    ex.Submit(shared, MakeTask([s = &shared_plain_sum, v] { *s += v; }));
                }
            }
            expected_shared.fetch_add(my_shared);
        });
    }
    for (auto& t : producers)
        t.join();
    for (Queue* q : queues)
        ASSERT_TRUE(ex.WaitFor(q, std::chrono::nanoseconds(30s)).ok());
    ASSERT_TRUE(ex.WaitFor(shared, std::chrono::nanoseconds(30s)).ok());
    shared_sum.store(shared_plain_sum);
    stop_helper.store(true);
    helper.join();

    for (int i = 0; i < kQueues; ++i) {
        EXPECT_EQ(state[i].sum, expected_sum[i]) << "queue " << i;
        EXPECT_EQ(state[i].next, expected_count[i]) << "queue " << i;
        EXPECT_EQ(state[i].out_of_order, 0u) << "queue " << i;
        EXPECT_TRUE(events[i]->Query());
        events[i]->Drop();
    }
    EXPECT_EQ(shared_sum.load(), expected_shared.load());
}

// ---- Idle cost ----------------------------------------------------------------------------

double ProcessCpuSeconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

int64_t ThreadCpuNs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// A host thread waiting for a task spins for the spin budget before it sleeps. Where a queue's
// waits keep lasting far longer than that, the spin is wasted CPU: the waiter learns to sleep
// at once, and learns to spin again when the waits become short.
TEST(Wait, WaitsOnLongTasksStopSpinningAndShortOnesSpinAgain) {
    ExecutorOptions options = Workers(2);
    options.spin = 2ms;  // large, so that a spin is unmistakable in the waiter's CPU time
    Executor ex(options);
    Queue* q = ex.CreateQueue();
    auto wait_for_sleep = [&](std::chrono::milliseconds d) {
        ex.Submit(q, MakeTask([d] { std::this_thread::sleep_for(d); }));
        const int64_t before = ThreadCpuNs();
        EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
        return ThreadCpuNs() - before;
    };
    for (int i = 0; i < 3; ++i)  // the first waits spin their 2 ms and learn
        wait_for_sleep(10ms);
    int64_t cpu = 0;
    for (int i = 0; i < 5; ++i)
        cpu += wait_for_sleep(10ms);
    EXPECT_LT(cpu, 5 * 1'000'000) << "5 waits on 10 ms tasks used " << cpu / 1000
                                  << " us of the waiter's CPU: still spinning 2 ms each";

    // Short waits again: after a few, a wait spins (and so stays awake) once more. Here the
    // waits find their task already run (a wait for a 0 ms task could still take milliseconds
    // on a loaded machine, while its worker wakes up).
    for (int i = 0; i < 20; ++i) {
        ex.Submit(q, MakeTask([] {}));
        while (!ex.Query(q))
            std::this_thread::sleep_for(100us);
        EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
    }
    int64_t spun = 0;
    for (int i = 0; i < 5; ++i) {
        ex.Submit(q, MakeTask([] { std::this_thread::sleep_for(4ms); }));
        const int64_t before = ThreadCpuNs();
        EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
        spun = std::max(spun, ThreadCpuNs() - before);
    }
    EXPECT_GE(spun, 500'000) << "no wait spun after the queue's waits became short";
    ex.DestroyQueue(q);
}

// spin_us 0 asks for no spinning at all: not before the sleep, and not around the expected
// end of a task whose length the queue has learned either.
TEST(Wait, NoSpinBudgetMeansWaitsNeverSpin) {
    ExecutorOptions options = Workers(2);
    options.spin = 0ms;
    Executor ex(options);
    Queue* q = ex.CreateQueue();
    std::vector<int64_t> cpu;
    for (int i = 0; i < 21; ++i) {
        ex.Submit(q, MakeTask([] { std::this_thread::sleep_for(3ms); }));
        const int64_t before = ThreadCpuNs();
        EXPECT_TRUE(ex.WaitFor(q, kTestLimit).ok());
        cpu.push_back(ThreadCpuNs() - before);
    }
    // A wait that sleeps costs its own work (a watcher, a futex wait, its wake-up): about 5 us
    // on an idle machine, 65 us with every core busy; under ThreadSanitizer 9 - 28 us idle and
    // about 70 us with three busy processes beside it (median of 21). A wait that spun through
    // the task would cost its 3 ms, one that spun around its end hundreds of us. The median,
    // as a loaded machine stretches single waits (20 of them once used 1.2 ms in all).
    std::nth_element(cpu.begin(), cpu.begin() + 10, cpu.end());
    const int64_t median = cpu[10];
    EXPECT_LT(median, 400'000) << "waits on 3 ms tasks used " << median / 1000
                               << " us of the waiter's CPU each (median) with no spin budget";
    ex.DestroyQueue(q);
}

TEST(Idle, EightIdleQueuesUseLessThanOnePercentOfACore) {
    Executor ex;  // default workers and spin
    std::vector<Queue*> qs;
    for (int i = 0; i < 8; ++i)
        qs.push_back(ex.CreateQueue());
    for (Queue* q : qs)
        ex.Submit(q, MakeTask([] {}));
    ASSERT_TRUE(ex.WaitAll().ok());
    std::this_thread::sleep_for(50ms);  // let spinners give up

    const double cpu0 = ProcessCpuSeconds();
    const auto t0 = Clock::now();
    std::this_thread::sleep_for(1s);
    const double cpu = ProcessCpuSeconds() - cpu0;
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    RecordProperty("idle_cpu_percent", std::to_string(100.0 * cpu / wall));
    EXPECT_LT(cpu / wall, 0.01) << "idle CPU " << 100.0 * cpu / wall << "%";
}

}  // namespace
}  // namespace openacl::cpu
