#include "core/poll_park.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "backend/cpu/executor.h"

namespace openacl {

namespace {

class Parking {
 public:
    static Parking& Get() {
        static Parking* parking = [] {
            cpu::Executor::SetQueueFreedHook([](const cpu::Queue* q) { Get().Forget(q); });
            return new Parking;  // its thread outlives static destructors
        }();
        return *parking;
    }
    void Park(cpu::SuspendToken token) {
        std::lock_guard lock(mutex_);
        if (!started_) {
            started_ = true;
            std::thread([this] { Poll(); }).detach();
        }
        parked_.push_back(token);
        changed_.notify_one();
    }
    // Resumes under the lock, so that Forget, which the executor calls before freeing a
    // queue, returns only when no token of it is being resumed.
    void WakeAll() {
        std::lock_guard lock(mutex_);
        std::vector<cpu::SuspendToken> wake;
        wake.swap(parked_);
        for (const cpu::SuspendToken& token : wake)
            cpu::Executor::Resume(token);  // a stale token (the task is gone) is ignored
    }
    // Drops the tokens of a queue whose memory is about to be freed.
    void Forget(const cpu::Queue* q) {
        std::lock_guard lock(mutex_);
        std::erase_if(parked_, [q](const cpu::SuspendToken& t) { return t.queue == q; });
    }

 private:
    void Poll() {
        for (;;) {
            {
                std::unique_lock lock(mutex_);
                changed_.wait(lock, [this] { return !parked_.empty(); });
            }
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            WakeAll();
        }
    }
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<cpu::SuspendToken> parked_;
    bool started_ = false;
};

}  // namespace

void ParkUntilPolled(cpu::SuspendToken token) {
    Parking::Get().Park(token);
}

void WakeParked() {
    Parking::Get().WakeAll();
}

}  // namespace openacl
