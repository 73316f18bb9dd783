#include "core/reclaim.h"

#include <atomic>
#include <deque>
#include <limits>
#include <mutex>
#include <utility>
#include <vector>

#include "backend/cpu/executor.h"

namespace openacl::reclaim {

// A thread's slot: one per thread that ever made an API call. Slots are never freed (a thread
// that exits hands its slot to the next new thread), so a reclaiming thread may walk the list
// any time.
struct alignas(64) Pin {
    std::atomic<uint64_t> active{0};  // the epoch when the running call began; 0: none running
    std::atomic<bool> in_use{false};
    Pin* next = nullptr;  // fixed before the slot is published
};

namespace {

using Slot = Pin;

std::atomic<Slot*> g_slots{nullptr};
std::atomic<uint64_t> g_epoch{1};
// The stamp of the oldest object not yet freed; 0 when none is pending. A returning call
// whose epoch is not newer may have been what kept it, so it reclaims.
std::atomic<uint64_t> g_oldest{0};
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

Slot* ClaimSlot() {
    for (Slot* s = g_slots.load(std::memory_order_acquire); s != nullptr; s = s->next) {
        bool free = false;
        if (!s->in_use.load(std::memory_order_relaxed) &&
            s->in_use.compare_exchange_strong(free, true, std::memory_order_acquire)) {
            return s;
        }
    }
    auto* s = new Slot;  // once per thread, never freed (see Slot)
    s->in_use.store(true, std::memory_order_relaxed);
    Slot* head = g_slots.load(std::memory_order_relaxed);
    do {
        s->next = head;
    } while (!g_slots.compare_exchange_weak(head, s, std::memory_order_release,
                                            std::memory_order_relaxed));
    return s;
}

struct ThreadSlot {
    Slot* slot = nullptr;
    ~ThreadSlot() {
        if (slot == nullptr) return;
        slot->active.store(0, std::memory_order_seq_cst);
        slot->in_use.store(false, std::memory_order_release);
        slot = nullptr;
    }
};
thread_local ThreadSlot t_slot;

}  // namespace

Pin* Enter() noexcept {
    Slot* s = t_slot.slot;
    if (s == nullptr) [[unlikely]]
        s = t_slot.slot = ClaimSlot();
    // Sequentially consistent: either the retiring thread sees this call running, or this call
    // sees the object already unlinked (its lookups come after this exchange).
    s->active.exchange(g_epoch.load(std::memory_order_relaxed), std::memory_order_seq_cst);
    return s;
}

void Leave(Pin* s) noexcept {
    const uint64_t began = s->active.load(std::memory_order_relaxed);
    // Sequentially consistent with Retire's publication of g_oldest: either this call sees the
    // pending object, or the retiring thread sees this call finished.
    s->active.exchange(0, std::memory_order_seq_cst);
    const uint64_t oldest = g_oldest.load(std::memory_order_seq_cst);
    if (oldest != 0 && began <= oldest) [[unlikely]]
        ReclaimDue();
}

void Retire(std::function<void()> release) {
    Limbo& limbo = TheLimbo();
    // The object was unlinked before this fence; any call that began after the epoch moves on
    // cannot have found it.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    {
        std::lock_guard lock(limbo.mutex);
        const uint64_t stamp = g_epoch.fetch_add(1, std::memory_order_seq_cst);
        limbo.items.push_back({stamp, std::move(release)});
        g_pending.fetch_add(1, std::memory_order_relaxed);
        if (g_oldest.load(std::memory_order_relaxed) == 0) {
            g_oldest.store(limbo.items.front().stamp, std::memory_order_seq_cst);
        }
    }
    ReclaimDue();
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
        {
            std::lock_guard lock(limbo.mutex);
            if (limbo.items.empty()) return;
            uint64_t oldest_running = std::numeric_limits<uint64_t>::max();
            for (Slot* s = g_slots.load(std::memory_order_acquire); s != nullptr; s = s->next) {
                const uint64_t began = s->active.load(std::memory_order_seq_cst);
                if (began != 0 && began < oldest_running) oldest_running = began;
            }
            while (!limbo.items.empty() && limbo.items.front().stamp < oldest_running) {
                due.push_back(std::move(limbo.items.front().release));
                limbo.items.pop_front();
            }
            g_oldest.store(limbo.items.empty() ? 0 : limbo.items.front().stamp,
                           std::memory_order_seq_cst);
        }
        if (due.empty()) return;
        for (auto& release : due)
            release();
        g_pending.fetch_sub(due.size(), std::memory_order_relaxed);
    }
}

uint64_t PendingCount() noexcept {
    return g_pending.load(std::memory_order_relaxed);
}

}  // namespace openacl::reclaim
