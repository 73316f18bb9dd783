#include "core/reclaim.h"

#include <pthread.h>

#include <deque>
#include <limits>
#include <mutex>
#include <utility>
#include <vector>

#include "backend/cpu/executor.h"
#include "core/fence.h"

namespace openacl::reclaim {

namespace detail {
std::atomic<uint64_t> g_epoch{1};
std::atomic<uint64_t> g_oldest{0};
}  // namespace detail

namespace {

using detail::g_epoch;
using detail::g_oldest;

std::atomic<Pin*> g_pins{nullptr};
std::atomic<uint64_t> g_pending{0};

struct Item {
    uint64_t stamp;
    std::function<void()> release;
};

struct Limbo {
    std::mutex mutex;  // guards items (short sections)
    std::mutex run;    // one thread runs releases at a time, in retirement order
    std::deque<Item> items;
};

Limbo& TheLimbo() {
    static auto* limbo = new Limbo;  // never destroyed: calls may come from static destructors
    return *limbo;
}

// At thread exit the thread's pin goes back to the pool. The key's value is the address of
// the caller's thread-local cache, which is cleared, so a call made later in the thread's
// teardown claims a pin again instead of using one another thread may have taken.
pthread_key_t g_exit_key;
pthread_once_t g_exit_once = PTHREAD_ONCE_INIT;

void ReleaseAtExit(void* value) {
    auto** cache = static_cast<Pin**>(value);
    Pin* pin = *cache;
    *cache = nullptr;
    if (pin == nullptr) return;
    pin->active.store(0, std::memory_order_seq_cst);
    pin->in_use.store(false, std::memory_order_release);
}

Pin* ClaimPin() {
    for (Pin* p = g_pins.load(std::memory_order_acquire); p != nullptr; p = p->next) {
        bool free = false;
        if (!p->in_use.load(std::memory_order_relaxed) &&
            p->in_use.compare_exchange_strong(free, true, std::memory_order_acquire)) {
            return p;
        }
    }
    auto* p = new Pin;  // never freed (see Pin)
    p->in_use.store(true, std::memory_order_relaxed);
    Pin* head = g_pins.load(std::memory_order_relaxed);
    do {
        p->next = head;
    } while (!g_pins.compare_exchange_weak(head, p, std::memory_order_release,
                                           std::memory_order_relaxed));
    return p;
}

}  // namespace

Pin* detail::Claim(Pin** cache) noexcept {
    pthread_once(&g_exit_once, [] { pthread_key_create(&g_exit_key, ReleaseAtExit); });
    fence::EnableAsymmetric();  // before this thread's first light store
    Pin* pin = ClaimPin();
    *cache = pin;
    pthread_setspecific(g_exit_key, cache);
    return pin;
}

void Retire(std::function<void()> release) {
    // The caller unlinked the object. Pairs with Enter's light store before the object can be
    // seen by a scan: a call that may have found the object is visible to every scan from here
    // on, and a call that enters later finds it unlinked.
    fence::Heavy();
    Limbo& limbo = TheLimbo();
    bool published = false;
    {
        std::lock_guard lock(limbo.mutex);
        // A call that reads the new epoch began after the unlink and cannot hold the object.
        const uint64_t stamp = g_epoch.fetch_add(1, std::memory_order_seq_cst);
        limbo.items.push_back({stamp, std::move(release)});
        g_pending.fetch_add(1, std::memory_order_relaxed);
        if (g_oldest.load(std::memory_order_relaxed) == 0) {
            g_oldest.store(limbo.items.front().stamp, std::memory_order_seq_cst);
            published = true;
        }
    }
    // Pairs with Leave: either a call that leaves sees g_oldest (and reclaims), or the next
    // scan sees that call gone. (An older pending object's g_oldest already did this.)
    if (published) fence::Heavy();
}

void ReclaimDue() noexcept {
    // A release may stop an executor or wait for a queue's running task: never on a worker.
    if (cpu::Executor::Current() != nullptr) return;
    Limbo& limbo = TheLimbo();
    std::unique_lock run(limbo.run, std::try_to_lock);
    if (!run.owns_lock()) return;
    std::vector<std::function<void()>> due;
    for (;;) {
        due.clear();
        bool pending = false;
        {
            std::lock_guard lock(limbo.mutex);
            if (limbo.items.empty()) return;
            uint64_t oldest_running = std::numeric_limits<uint64_t>::max();
            for (Pin* p = g_pins.load(std::memory_order_acquire); p != nullptr; p = p->next) {
                const uint64_t began = p->active.load(std::memory_order_seq_cst);
                if (began != 0 && began < oldest_running) oldest_running = began;
            }
            while (!limbo.items.empty() && limbo.items.front().stamp < oldest_running) {
                due.push_back(std::move(limbo.items.front().release));
                limbo.items.pop_front();
            }
            pending = !limbo.items.empty();
            g_oldest.store(pending ? limbo.items.front().stamp : 0, std::memory_order_seq_cst);
        }
        if (due.empty()) return;
        // The next scan must see every call that left without seeing the new g_oldest.
        if (pending) fence::Heavy();
        for (auto& release : due)
            release();
        g_pending.fetch_sub(due.size(), std::memory_order_relaxed);
    }
}

uint64_t PendingCount() noexcept {
    return g_pending.load(std::memory_order_relaxed);
}

}  // namespace openacl::reclaim
