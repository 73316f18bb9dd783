#include "core/trace.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_set>
#include <utility>

#include "backend/cpu/sync.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/fence.h"
#include "core/log.h"
#include "core/stream.h"

namespace openacl::trace {
namespace detail {
std::atomic<bool> g_on{false};
}  // namespace detail

namespace {

enum class RecType : uint8_t { kEnqueue, kRun, kApi, kUser, kSlice };

// One record; enqueue, run and API records share the layout so they share the buffers.
struct Rec {
    int64_t t0, t1;
    const void* queue;    // enqueue, run: the executor queue
    const void* context;  // enqueue: the stream's context
    const void* source;   // enqueue: the label's (an event wait's queue, an mstx domain's
                          // name); user: the mstx domain's name or null
    const char* name;     // enqueue: label name; API: the function; user: the message
    const char* api;      // enqueue: the API that enqueued it; user: JSON args or null
    uint64_t seq;
    uint64_t a, b;  // enqueue: the label's; run: a = failure code; user: range id, opener
    int32_t device, stream;
    uint32_t thread;  // OS thread id
    RecType type;
    Kind kind;
    uint8_t status;  // run: TaskStatus::Kind; enqueue: kDefaultStream | kCarriesApi; user: 1 = mark
};

// Enqueue status bits. An enqueue made inside a traced API call carries that call's slice
// (t0: the call's start and the enqueue time, t1: its end) instead of a record of its own.
constexpr uint8_t kDefaultStream = 1;
constexpr uint8_t kCarriesApi = 2;

// When an enqueue was made (its slice is a point at the start of its API call).
int64_t EnqueueTime(const Rec& e) {
    return e.t0;
}

constexpr uint32_t kChunkRecords = 4096;
// The pool is one allocation of address space (OPENACL_TRACE_BUFFER_MB, default 256 MiB, about
// 2.8 million records): pages are touched only as records fill them.
constexpr uint64_t kDefaultPoolMiB = 256;

// Who has a chunk (Chunk::state, accessed through std::atomic_ref; fresh memory reads kFresh).
enum ChunkState : uint32_t {
    kFresh = 0,     // untouched: the writer that claims it faults its pages itself
    kTouching = 1,  // the prefaulter is writing to its pages; a writer that claims it waits
    kReady = 2,     // every page written by the prefaulter
    kClaimed = 3,   // a writer took it fresh; the prefaulter leaves it alone
};

struct Chunk {
    uint32_t state;  // ChunkState
    uint32_t used;   // written by the owning thread; read once the session has stopped
    Rec recs[kChunkRecords];
};

// The pool: anonymous memory in transparent huge pages where the kernel allows them. Records
// land on fresh memory, and faulting it in 4 KiB pages cost about as much as the rest of a
// traced enqueue.
struct Pool {
    Chunk* chunks = nullptr;
    size_t bytes = 0;
    // Chunks [0, touched) may have pages written (kept pools: what the next session finds
    // backed); the rest are as mmap gave them.
    uint32_t touched = 0;
    Pool() = default;
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;
    bool Allocate(uint32_t count) {
        bytes = size_t{count} * sizeof(Chunk);
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) return false;
        madvise(p, bytes, MADV_HUGEPAGE);  // a hint: fine if refused
        chunks = static_cast<Chunk*>(p);
        return true;
    }
    ~Pool() {
        if (chunks != nullptr) munmap(chunks, bytes);
    }
};

// Writes to the pool ahead of the writers, on a thread of its own. A record that lands on a
// page nobody has written yet pays for the page fault and for clearing the page: about 9 ns a
// record on bare memory. Under a VM it pays more, once per 4 KiB page: the host backs guest
// memory on the first write to each page, even where the guest kernel had already faulted the
// page in (MADV_POPULATE_WRITE, which this thread used before, left the traced enqueue 2 – 5x
// slower than untraced here; a user-space write to each 4 KiB page brought it back near the
// two clock reads). Each writer is a thread the program is timing, so this thread takes those
// costs: it claims each chunk ahead of the writers (kFresh -> kTouching), writes one byte of
// every page that starts inside it, and hands it over as kReady. A writer that claims a chunk
// this thread has not reached takes it as it is (kClaimed); one that claims a chunk being
// touched waits for it, which happens only when writers outrun this thread.
class Prefaulter {
 public:
    Prefaulter() = default;
    Prefaulter(const Prefaulter&) = delete;
    Prefaulter& operator=(const Prefaulter&) = delete;
    ~Prefaulter() { Stop(); }

    void Start(Chunk* chunks, uint32_t count) {
        chunks_ = chunks;
        count_ = count;
        wanted_.store(std::min(kAhead, count), std::memory_order_relaxed);
        thread_ = std::thread([this] { Run(); });
    }

    // A writer claimed chunk `i` (rare: once per kChunkRecords records of a thread).
    void Claimed(uint32_t i) {
        const uint32_t want = std::min(i + kAhead, count_);
        uint32_t seen = wanted_.load(std::memory_order_relaxed);
        while (want > seen) {
            if (wanted_.compare_exchange_weak(seen, want, std::memory_order_relaxed)) {
                wanted_.notify_one();
                return;
            }
        }
    }

    void Stop() {
        if (!thread_.joinable()) return;
        stop_.store(true, std::memory_order_relaxed);
        wanted_.store(UINT32_MAX, std::memory_order_relaxed);
        wanted_.notify_one();
        thread_.join();
    }

    // Chunks the thread went through (after Stop).
    uint32_t done() const { return done_; }

 private:
    // 24 MiB: more than a second of records at the fastest enqueue rate.
    static constexpr uint32_t kAhead = 64;

    void Run() {
        const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
        uint32_t& done = done_;
        for (;;) {
            const uint32_t want = wanted_.load(std::memory_order_relaxed);
            if (stop_.load(std::memory_order_relaxed)) return;
            if (done >= want || done >= count_) {
                wanted_.wait(want, std::memory_order_relaxed);
                continue;
            }
            Chunk& chunk = chunks_[done++];
            std::atomic_ref<uint32_t> state(chunk.state);
            uint32_t fresh = kFresh;
            if (!state.compare_exchange_strong(fresh, kTouching, std::memory_order_acquire)) {
                continue;  // a writer got there first
            }
            // The state word's page is written by the exchange; the chunk's other pages get
            // one byte each (a chunk's bytes are its own: the neighbours' pages are theirs).
            const auto first = reinterpret_cast<uintptr_t>(&chunk);
            const auto last = first + sizeof(Chunk);
            for (uintptr_t at = (first + page) & ~(page - 1); at < last; at += page)
                *reinterpret_cast<volatile unsigned char*>(at) = 0;
            state.store(kReady, std::memory_order_release);
        }
    }

    Chunk* chunks_ = nullptr;
    uint32_t count_ = 0;
    std::atomic<uint32_t> wanted_{0};  // chunks [0, wanted_) should be written
    std::atomic<bool> stop_{false};
    uint32_t done_ = 0;  // the thread's; read after join
    std::thread thread_;
};

// A writer's claim on chunk `c` (see Prefaulter): after it, the chunk is the writer's alone.
void TakeChunk(Chunk& c) {
    std::atomic_ref<uint32_t> state(c.state);
    uint32_t seen = kFresh;
    if (state.compare_exchange_strong(seen, kClaimed, std::memory_order_acquire)) return;
    for (unsigned spins = 0; seen == kTouching; seen = state.load(std::memory_order_acquire))
        cpu::Backoff(spins);
}

struct Session {
    SessionOptions options;
    int64_t origin = 0;        // NowNs() at the start
    int64_t origin_ticks = 0;  // and cpu::Ticks(): records are stamped in ticks (see ToNs)
    uint64_t epoch = 0;
    std::unique_ptr<Pool> pool;
    Prefaulter prefaulter;  // after `pool`: stopped before the pool is unmapped
    uint32_t chunk_count = 0;
    std::atomic<uint32_t> next_chunk{0};
    uint64_t dropped = 0;  // summed over the threads at Stop
};

}  // namespace

// A thread's writing state. Never freed: a thread may record during its own teardown or from
// static destructors, and the list is tiny.
struct ThreadState {
    std::atomic<uint32_t> writing{0};
    uint64_t epoch = 0;
    Chunk* chunk = nullptr;
    bool full = false;     // the pool ran out during this epoch: drop without asking again
    uint64_t dropped = 0;  // records dropped during this epoch
    uint32_t tid = 0;
    // Per call (kept here, not in thread_locals of their own, and handed from ApiBegin to
    // ApiEnd through ApiScope: each thread-local lookup costs a call).
    int64_t api_start = 0;           // start of this thread's traced API call, or 0
    const char* api_name = nullptr;  // and its name
    // The enqueue record of this thread's traced API call, claimed but not committed: the
    // call's end completes it (one record per call instead of two). `writing` stays set.
    Rec* open = nullptr;
};

namespace {

std::mutex g_threads_mutex;
std::vector<ThreadState*>& Threads() {
    static auto* list = new std::vector<ThreadState*>;
    return *list;
}
thread_local ThreadState* t_state = nullptr;

std::atomic<Session*> g_session{nullptr};
std::mutex g_control;  // Start / Stop
uint64_t g_epoch = 0;  // g_control held
uint64_t g_last_dropped = 0;

// The last session's pool, kept for the next one (g_control held). A session faults 24 MiB in
// ahead of its writers as it starts, and on a VM writing a page for the first time is costly:
// the prefaulter took 7 - 34 ms of a core per session on the 2-vCPU test machine, 0.2 - 0.4 ms
// on a kept pool's pages. A program that starts and stops sessions (each phase, each aclInit)
// pays it once. aclprofFinalize releases the pool; OPENACL_TRACE's stays until exit.
Pool* g_kept = nullptr;

// The kept pool if it has `count` chunks, ready for a session: its chunks read kFresh again, so
// that the prefaulter goes over them (cheaply now) and hands them out as before. Null otherwise
// (a kept pool of another size is released).
std::unique_ptr<Pool> TakeKeptPool(uint32_t count) {
    std::unique_ptr<Pool> pool(std::exchange(g_kept, nullptr));
    if (pool == nullptr || pool->bytes != size_t{count} * sizeof(Chunk)) return nullptr;
    for (uint32_t i = 0; i < pool->touched; ++i)
        pool->chunks[i].state = kFresh;
    pool->touched = 0;
    return pool;
}

// Keeps a stopped session's pool (its prefaulter stopped, its records written) for the next.
void KeepPool(Session* s) {
    Pool* pool = s->pool.release();
    pool->touched = std::max(s->prefaulter.done(), std::min(s->next_chunk.load(), s->chunk_count));
    std::lock_guard control(g_control);
    delete std::exchange(g_kept, pool);
}

// The first record of a thread registers it (cold: kept out of line, so Self stays small).
[[gnu::noinline]] ThreadState* RegisterThread() {
    auto* state = new ThreadState;
    state->tid = static_cast<uint32_t>(syscall(SYS_gettid));
    std::lock_guard lock(g_threads_mutex);
    Threads().push_back(state);
    t_state = state;
    return state;
}

inline ThreadState* Self() {
    if (ThreadState* self = t_state; self != nullptr) [[likely]]
        return self;
    return RegisterThread();
}

// Claims the next record slot of the calling thread, or nullptr (no session, or no room).
// Stop() clears the session, then waits for `writing` to drop before it reads the buffers; a
// writer sets `writing`, then loads the session. Either Stop sees the writer writing or the
// writer sees no session (Dekker's pattern): with the exchange, because both sides are
// sequentially consistent; with a plain store, because Stop's membarrier makes every running
// thread execute a full barrier between its store and its load.
void CommitRecord(ThreadState* self);

Rec* BeginRecord(ThreadState* self) {
    if (self->open != nullptr) [[unlikely]] {
        // A second record during a call that enqueued: the enqueue goes as it is.
        self->open = nullptr;
        CommitRecord(self);
    }
    fence::LightStore(self->writing, 1u);
    Session* s = g_session.load();
    if (s == nullptr) {
        self->writing.store(0, std::memory_order_release);
        return nullptr;
    }
    if (self->epoch != s->epoch) {
        self->epoch = s->epoch;
        self->chunk = nullptr;
        self->full = false;
        self->dropped = 0;
    }
    if (self->chunk == nullptr || self->chunk->used == kChunkRecords) {
        // Once the pool is used up, dropping costs no shared write: counts are per thread.
        const uint32_t i =
            self->full ? s->chunk_count : s->next_chunk.fetch_add(1, std::memory_order_relaxed);
        self->chunk = i < s->chunk_count ? &s->pool->chunks[i] : nullptr;
        if (!self->full) s->prefaulter.Claimed(i);
        if (self->chunk == nullptr) {
            self->full = true;
            ++self->dropped;
            self->writing.store(0, std::memory_order_release);
            return nullptr;
        }
        TakeChunk(*self->chunk);
        self->chunk->used = 0;
    }
    return &self->chunk->recs[self->chunk->used];
}

void CommitRecord(ThreadState* self) {
    ++self->chunk->used;
    self->writing.store(0, std::memory_order_release);
}

class RecorderTracer final : public cpu::Tracer {
 public:
    void OnTask(const Record& record) noexcept override {
        ThreadState* self = Self();
        Rec* r = BeginRecord(self);
        if (r == nullptr) return;
        r->t0 = record.start;
        r->t1 = record.end;
        r->queue = record.queue;
        r->seq = record.seq;
        r->a = static_cast<uint64_t>(record.status.code);
        r->thread = self->tid;
        r->type = RecType::kRun;
        r->kind = static_cast<Kind>(record.tag);
        r->status = static_cast<uint8_t>(record.status.kind);
        CommitRecord(self);
    }
};

// ---- Writing ------------------------------------------------------------------------------

// A task as the trace shows it: its enqueue record and its runs, joined.
struct Joined {
    const Rec* enq = nullptr;
    int64_t start = INT64_MAX;
    int64_t end = INT64_MIN;
    int64_t busy = 0;  // time on a worker (a suspended wait is not busy)
    uint8_t status = 0;
    int32_t code = 0;
    bool ran() const { return end != INT64_MIN; }
};

std::string Size(uint64_t bytes) {
    char text[32];
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    if (value == static_cast<double>(static_cast<uint64_t>(value))) {
        std::snprintf(text, sizeof text, "%" PRIu64 " %s", static_cast<uint64_t>(value),
                      units[unit]);
    } else {
        std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    }
    return text;
}

bool IsKernelApi(const char* api) {
    return api != nullptr && std::strstr(api, "Kernel") != nullptr;
}

// A copy or fill of pageable host memory is done before its asynchronous call returns.
const char* SyncNote(const Rec& e) {
    return e.b == kCopyDoneInCall ? " (pageable, done in the call)" : "";
}

// aclrtProfTrace's user data as given (hex), and read as rtProfilerTraceEx, which it replaces,
// laid the 18 bytes out: an index id, a model id (8 bytes each) and a tag id (2), little-endian.
std::string ProfTraceArgs(const Rec& e) {
    const std::string hex = e.name != nullptr ? e.name : "";
    std::string args = ",\"userdata\":\"" + hex + "\"";
    if (hex.size() == 36) {
        const unsigned long tag = std::stoul(hex.substr(32, 2), nullptr, 16) |
                                  std::stoul(hex.substr(34, 2), nullptr, 16) << 8;
        args += ",\"index_id\":" + std::to_string(e.a) + ",\"model_id\":" + std::to_string(e.b) +
                ",\"tag_id\":" + std::to_string(tag);
    }
    return args;
}

std::string TaskName(const Rec& e) {
    switch (e.kind) {
        case Kind::kMemcpyH2D:
            return "memcpy H2D " + Size(e.a) + SyncNote(e);
        case Kind::kMemcpyD2H:
            return "memcpy D2H " + Size(e.a) + SyncNote(e);
        case Kind::kMemcpyD2D:
            return "memcpy D2D " + Size(e.a) + SyncNote(e);
        case Kind::kMemcpyH2H:
            return "memcpy H2H " + Size(e.a) + SyncNote(e);
        case Kind::kMemcpy2d:
            return "memcpy2d " + Size(e.a) + SyncNote(e);
        case Kind::kMemset:
            return "memset " + Size(e.a) + SyncNote(e);
        case Kind::kKernel:
            return std::string(e.name != nullptr ? e.name : "kernel") + " x" + std::to_string(e.a);
        case Kind::kModel:
            return "model " + std::to_string(e.a);
        case Kind::kHostFunc:
            return "host func";
        case Kind::kCallback:
            return e.a != 0 ? "callback (blocking)" : "callback";
        case Kind::kEventRecord:
            return "event record";
        case Kind::kEventWait:
            return "event wait";
        case Kind::kMark:
            return std::string("mark: ") + (e.name != nullptr ? e.name : "");
        case Kind::kStep:
            return "step " + std::to_string(e.a) + (e.b == 0 ? " start" : " end");
        case Kind::kRangeStart:
            return std::string("range start: ") + (e.name != nullptr ? e.name : "");
        case Kind::kRangeEnd:
            return std::string("range end: ") + (e.name != nullptr ? e.name : "");
        case Kind::kProfTrace:
            return "prof trace";
        case Kind::kTask:
        case Kind::kNone:
            break;
    }
    // Unlabelled submissions (kernel launches among them) are named after their API.
    return IsKernelApi(e.api) ? "kernel" : e.api;
}

// JSON string body (our names are plain, but a path or API name could hold anything).
std::string Escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", c);
            out += esc;
        } else {
            out += c;
        }
    }
    return out;
}

// A user annotation's category: "user", or "user,<domain>" for an mstx domain's (Chrome trace
// categories are comma-separated lists, so filters on either name find it).
std::string UserCategory(const void* domain) {
    return domain == nullptr ? "user" : "user," + Escape(static_cast<const char*>(domain));
}

// ',"domain":"<name>"' for a record of an mstx domain (`source`), else "".
std::string DomainArg(const Rec& r) {
    if (r.source == nullptr) return "";
    return ",\"domain\":\"" + Escape(static_cast<const char*>(r.source)) + "\"";
}

// A user record's arguments ("" when it has none): its JSON, else its mstx domain.
std::string UserArgs(const Rec& u) {
    if (u.api != nullptr) return std::string(",\"args\":") + u.api;
    if (u.source == nullptr) return "";
    return ",\"args\":{" + DomainArg(u).substr(1) + "}";
}

constexpr int kHostPid = 1;
int DevicePid(int32_t device) {
    return 100 + device;
}
int StreamTid(int32_t stream) {
    return stream + 1;
}

class Writer {
 public:
    Writer(Session& s, int64_t stop) : s_(s), stop_(stop) {}

    bool Write(std::string* why, std::string* summary);

 private:
    void Collect();
    void Join();
    std::string Ts(int64_t ns) const {
        const int64_t rel = std::max<int64_t>(0, ns - s_.origin);
        char text[40];
        std::snprintf(text, sizeof text, "%" PRId64 ".%03" PRId64, rel / 1000, rel % 1000);
        return text;
    }
    std::string Dur(int64_t ns) const {
        ns = std::max<int64_t>(0, ns);
        char text[40];
        std::snprintf(text, sizeof text, "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
        return text;
    }
    bool Wanted(int32_t device) const {
        return device >= 0 && device < 64 && (s_.options.device_mask >> device & 1) != 0;
    }
    std::string TaskArgs(const Joined& j) const;
    std::string Summary() const;

    Session& s_;
    int64_t stop_;
    std::vector<const Rec*> enq_, runs_, api_, user_, slices_;
    std::vector<Joined> joined_;       // parallel to enq_
    std::vector<int64_t> run_task_;    // parallel to runs_: its index in joined_, or -1
    std::vector<int64_t> slice_task_;  // parallel to slices_: the same
    uint64_t unmatched_ = 0;
};

void Writer::Collect() {
    const uint32_t chunks = std::min(s_.next_chunk.load(), s_.chunk_count);
    for (uint32_t c = 0; c < chunks; ++c) {
        const Chunk& chunk = s_.pool->chunks[c];
        for (uint32_t i = 0; i < chunk.used; ++i) {
            const Rec& r = chunk.recs[i];
            switch (r.type) {
                case RecType::kEnqueue:
                    enq_.push_back(&r);
                    if (r.status & kCarriesApi) api_.push_back(&r);
                    break;
                case RecType::kRun:
                    runs_.push_back(&r);
                    break;
                case RecType::kApi:
                    api_.push_back(&r);
                    break;
                case RecType::kUser:
                    user_.push_back(&r);
                    break;
                case RecType::kSlice:
                    slices_.push_back(&r);
                    break;
            }
        }
    }
}

// A run belongs to the latest enqueue of the same (queue, seq) made before it started:
// queues (and executors) are recycled, so a key alone may name tasks of different lifetimes.
void Writer::Join() {
    auto key_less = [](const Rec* x, const Rec* y) {
        if (x->queue != y->queue) return std::less<const void*>()(x->queue, y->queue);
        if (x->seq != y->seq) return x->seq < y->seq;
        return x->t0 < y->t0;
    };
    std::sort(enq_.begin(), enq_.end(), key_less);
    joined_.resize(enq_.size());
    for (size_t i = 0; i < enq_.size(); ++i)
        joined_[i].enq = enq_[i];
    run_task_.assign(runs_.size(), -1);
    for (size_t r = 0; r < runs_.size(); ++r) {
        const Rec* run = runs_[r];
        // First enqueue not before (queue, seq, run start); the one before it is the match.
        auto it = std::upper_bound(enq_.begin(), enq_.end(), run, key_less);
        if (it == enq_.begin() || (*(it - 1))->queue != run->queue ||
            (*(it - 1))->seq != run->seq) {
            ++unmatched_;
            continue;
        }
        run_task_[r] = it - 1 - enq_.begin();
        Joined& j = joined_[static_cast<size_t>(run_task_[r])];
        j.start = std::min(j.start, run->t0);
        j.end = std::max(j.end, run->t1);
        j.busy += run->t1 - run->t0;
        // Runs of one task come in order; the last one decides.
        if (run->t1 >= j.end) {
            j.status = run->status;
            j.code = static_cast<int32_t>(run->a);
        }
    }
}

std::string Writer::TaskArgs(const Joined& j) const {
    const Rec& e = *j.enq;
    std::string args = "{\"seq\":" + std::to_string(e.seq);
    switch (e.kind) {
        case Kind::kMemcpyH2D:
        case Kind::kMemcpyD2H:
        case Kind::kMemcpyD2D:
        case Kind::kMemcpyH2H:
        case Kind::kMemcpy2d:
        case Kind::kMemset:
            args += ",\"bytes\":" + std::to_string(e.a);
            if (e.b == kCopyDoneInCall) args += ",\"done_in_call\":true";
            break;
        case Kind::kKernel:
            args += ",\"blocks\":" + std::to_string(e.a);
            break;
        case Kind::kModel:
            args += ",\"model_id\":" + std::to_string(e.a);
            break;
        case Kind::kHostFunc: {
            char fn[32];
            std::snprintf(fn, sizeof fn, "0x%" PRIx64, e.a);
            args += ",\"fn\":\"" + std::string(fn) + "\"";
            break;
        }
        case Kind::kCallback:
            args += std::string(",\"blocking\":") + (e.a ? "true" : "false");
            break;
        case Kind::kEventRecord:
        case Kind::kEventWait:
            args += ",\"event\":" + std::to_string(e.a);
            break;
        case Kind::kMark:
        case Kind::kRangeStart:
        case Kind::kRangeEnd:
            args += ",\"message\":\"" + Escape(e.name != nullptr ? e.name : "") + "\"";
            if (e.kind != Kind::kMark) args += ",\"range_id\":" + std::to_string(e.a);
            args += DomainArg(e);
            break;
        case Kind::kStep:
            args += ",\"step\":" + std::to_string(e.a);
            break;
        case Kind::kProfTrace:
            args += ProfTraceArgs(e);
            break;
        case Kind::kTask:
        case Kind::kNone:
            break;
    }
    args += ",\"api\":\"" + Escape(e.api) + "\"";
    args += ",\"enqueued_by_thread\":" + std::to_string(e.thread);
    args += ",\"queued_us\":" + Dur(j.start - EnqueueTime(e));
    if (j.busy != j.end - j.start) args += ",\"busy_us\":" + Dur(j.busy);
    if (j.status == static_cast<uint8_t>(cpu::TaskStatus::Kind::kFailed)) {
        args += ",\"status\":\"failed\",\"error\":" + std::to_string(j.code);
    } else {
        args += ",\"status\":\"done\"";
    }
    return args + "}";
}

std::string Writer::Summary() const {
    std::string out;
    char line[512];
    const double span_ms = static_cast<double>(stop_ - s_.origin) / 1e6;
    struct StreamStat {
        int32_t device;
        int32_t stream;
        const void* context;
        int64_t busy = 0;
        uint64_t tasks = 0;
    };
    std::map<std::pair<int32_t, int32_t>, StreamStat> streams;
    struct NameStat {
        uint64_t count = 0;
        int64_t total = 0;
    };
    std::map<std::string, NameStat> names;
    std::map<int32_t, std::vector<std::pair<int64_t, int>>> edges;  // per device
    uint64_t tasks = 0;
    for (const Joined& j : joined_) {
        if (!j.ran() || !Wanted(j.enq->device)) continue;
        ++tasks;
        auto [it, fresh] = streams.try_emplace({j.enq->device, j.enq->stream});
        if (fresh) it->second = {j.enq->device, j.enq->stream, j.enq->context};
        it->second.busy += j.busy;
        ++it->second.tasks;
        NameStat& n = names[TaskName(*j.enq)];
        ++n.count;
        n.total += j.busy;
        auto& e = edges[j.enq->device];
        e.push_back({j.start, +1});
        e.push_back({j.start + j.busy, -1});
    }
    std::snprintf(line, sizeof line,
                  "openacl trace: %" PRIu64 " tasks on %zu streams in %.3f ms; %" PRIu64
                  " records dropped (buffer full)\n",
                  tasks, streams.size(), span_ms, s_.dropped);
    out += line;
    for (const auto& [key, st] : streams) {
        std::snprintf(line, sizeof line,
                      "  device %d stream %d (context %p): busy %.1f%% (%.3f ms, %" PRIu64
                      " tasks)\n",
                      st.device, st.stream, st.context,
                      span_ms > 0 ? 100.0 * static_cast<double>(st.busy) / 1e6 / span_ms : 0.0,
                      static_cast<double>(st.busy) / 1e6, st.tasks);
        out += line;
    }
    std::vector<std::pair<std::string, NameStat>> top(names.begin(), names.end());
    std::sort(top.begin(), top.end(),
              [](const auto& x, const auto& y) { return x.second.total > y.second.total; });
    if (!top.empty()) out += "top tasks by total time:\n";
    for (size_t i = 0; i < top.size() && i < 10; ++i) {
        const auto& [name, st] = top[i];
        std::snprintf(line, sizeof line, "  %-28s x%-7" PRIu64 " total %.3f ms, mean %.1f us\n",
                      name.c_str(), st.count, static_cast<double>(st.total) / 1e6,
                      static_cast<double>(st.total) / 1e3 / static_cast<double>(st.count));
        out += line;
    }
    // Overlap: time during which two or more streams of a device ran at once, against the
    // time any of them ran. (One stream's tasks never overlap each other.)
    for (auto& [device, e] : edges) {
        std::sort(e.begin(), e.end());
        int64_t any = 0, two = 0, last = 0;
        int depth = 0;
        for (const auto& [t, delta] : e) {
            if (depth >= 1) any += t - last;
            if (depth >= 2) two += t - last;
            depth += delta;
            last = t;
        }
        std::snprintf(line, sizeof line,
                      "device %d: streams overlapped for %.3f ms, %.1f%% of the %.3f ms any "
                      "stream was busy\n",
                      device, static_cast<double>(two) / 1e6,
                      any > 0 ? 100.0 * static_cast<double>(two) / static_cast<double>(any) : 0.0,
                      static_cast<double>(any) / 1e6);
        out += line;
    }
    return out;
}

bool Writer::Write(std::string* why, std::string* summary) {
    Collect();
    Join();

    // Events are sorted by time (longer first at equal times, so parents precede children).
    enum class Ev : uint8_t {
        kApi,
        kEnqueue,
        kTask,
        kFlowOut,
        kFlowIn,
        kInstant,
        kSigOut,
        kSigIn,
        kUser,       // a mark, or a range opened and closed on one thread
        kUserBegin,  // a range that may span threads: its two ends
        kUserEnd,
        kSlice,           // a slice inside a task (a model layer); index into slices_
        kStreamRange,     // an mstx range on its stream's track; index into stream_ranges
        kStreamRangeEnd,  // the end of one drawn as an async slice (it crosses another)
    };
    struct Out {
        int64_t ts;
        int64_t dur;
        Ev type;
        uint32_t index;
    };
    std::vector<Out> events;
    std::set<uint32_t> host_threads;
    std::map<std::pair<int32_t, int32_t>, const Rec*> stream_tracks;
    // Event records by (queue, seq), for the arrows from a record to the waits it releases.
    std::map<std::pair<const void*, uint64_t>, uint32_t> records;
    for (uint32_t i = 0; i < joined_.size(); ++i) {
        const Joined& j = joined_[i];
        const Rec& e = *j.enq;
        if (!Wanted(e.device)) continue;
        host_threads.insert(e.thread);
        events.push_back({EnqueueTime(e), 0, Ev::kEnqueue, i});
        if (!j.ran()) continue;  // still queued when the session stopped
        stream_tracks.try_emplace({e.device, e.stream}, &e);
        events.push_back({j.start, j.end - j.start, Ev::kTask, i});
        events.push_back({EnqueueTime(e), 0, Ev::kFlowOut, i});
        events.push_back({(j.start + j.end) / 2, 0, Ev::kFlowIn, i});
        if (e.kind == Kind::kEventRecord || e.kind == Kind::kEventWait) {
            events.push_back({j.end, 0, Ev::kInstant, i});
        }
        if (e.kind == Kind::kEventRecord) records[{e.queue, e.seq}] = i;
    }
    for (uint32_t i = 0; i < joined_.size(); ++i) {
        const Joined& j = joined_[i];
        if (!j.ran() || j.enq->kind != Kind::kEventWait || !Wanted(j.enq->device)) continue;
        auto it = records.find({j.enq->source, j.enq->b});
        if (it == records.end()) continue;
        const Joined& r = joined_[it->second];
        events.push_back({(r.start + r.end) / 2, 0, Ev::kSigOut, i});
        events.push_back({(j.start + j.end) / 2, 0, Ev::kSigIn, i});
    }
    // mstx ranges tied to a stream, from the task that marked their start to the one that marked
    // their end. They nest around the stream's tasks in between; one that crosses another range
    // of its stream (each ends inside the other) cannot nest on the track and becomes an async
    // slice of the device instead.
    struct StreamRange {
        uint32_t start, end;  // indices into joined_
        bool async;
    };
    std::vector<StreamRange> stream_ranges;
    {
        std::map<std::pair<const void*, uint64_t>, uint32_t> starts;  // (queue, range id)
        for (uint32_t i = 0; i < joined_.size(); ++i) {
            const Rec& e = *joined_[i].enq;
            if (!joined_[i].ran() || !Wanted(e.device)) continue;
            if (e.kind == Kind::kRangeStart) starts[{e.queue, e.a}] = i;
            if (e.kind != Kind::kRangeEnd) continue;
            auto it = starts.find({e.queue, e.a});
            if (it != starts.end()) stream_ranges.push_back({it->second, i, false});
        }
        std::sort(stream_ranges.begin(), stream_ranges.end(), [&](const auto& x, const auto& y) {
            return joined_[x.start].start < joined_[y.start].start;
        });
        std::map<const void*, std::vector<int64_t>> open_ends;  // per queue, innermost last
        for (StreamRange& r : stream_ranges) {
            std::vector<int64_t>& ends = open_ends[joined_[r.start].enq->queue];
            while (!ends.empty() && ends.back() <= joined_[r.start].start)
                ends.pop_back();
            r.async = !ends.empty() && ends.back() < joined_[r.end].end;
            if (!r.async) ends.push_back(joined_[r.end].end);
        }
    }
    for (uint32_t i = 0; i < stream_ranges.size(); ++i) {
        const int64_t start = joined_[stream_ranges[i].start].start;
        const int64_t end = joined_[stream_ranges[i].end].end;
        events.push_back({start, end - start, Ev::kStreamRange, i});
        if (stream_ranges[i].async) events.push_back({end, 0, Ev::kStreamRangeEnd, i});
    }
    for (uint32_t i = 0; i < api_.size(); ++i) {
        host_threads.insert(api_[i]->thread);
        events.push_back({api_[i]->t0, api_[i]->t1 - api_[i]->t0, Ev::kApi, i});
    }
    for (uint32_t i = 0; i < user_.size(); ++i) {
        const Rec& u = *user_[i];
        host_threads.insert(u.thread);
        host_threads.insert(static_cast<uint32_t>(u.b));
        if (u.a == 0) {
            events.push_back({u.t0, u.t1 - u.t0, Ev::kUser, i});
        } else {
            events.push_back({u.t0, 0, Ev::kUserBegin, i});
            events.push_back({u.t1, 0, Ev::kUserEnd, i});
        }
    }
    // Slices go inside the run of the same thread that contains them: runs by thread and
    // start. A slice outside any run was made by a thread running no task (its own track).
    std::map<uint32_t, std::vector<uint32_t>> runs_by_thread;
    for (uint32_t r = 0; r < runs_.size(); ++r)
        runs_by_thread[runs_[r]->thread].push_back(r);
    for (auto& [tid, list] : runs_by_thread) {
        std::sort(list.begin(), list.end(),
                  [&](uint32_t x, uint32_t y) { return runs_[x]->t0 < runs_[y]->t0; });
    }
    slice_task_.assign(slices_.size(), -1);
    for (uint32_t i = 0; i < slices_.size(); ++i) {
        const Rec& sl = *slices_[i];
        auto list = runs_by_thread.find(sl.thread);
        if (list != runs_by_thread.end()) {
            auto it = std::upper_bound(list->second.begin(), list->second.end(), sl.t0,
                                       [&](int64_t t, uint32_t r) { return t < runs_[r]->t0; });
            if (it != list->second.begin() && runs_[*(it - 1)]->t1 >= sl.t1) {
                slice_task_[i] = run_task_[*(it - 1)];
            }
        }
        if (slice_task_[i] >= 0) {
            if (!Wanted(joined_[slice_task_[i]].enq->device)) continue;
        } else {
            host_threads.insert(sl.thread);
        }
        events.push_back({sl.t0, sl.t1 - sl.t0, Ev::kSlice, i});
    }
    std::stable_sort(events.begin(), events.end(), [](const Out& x, const Out& y) {
        return x.ts != y.ts ? x.ts < y.ts : x.dur > y.dur;
    });

    FILE* f = std::fopen(s_.options.path.c_str(), "w");
    if (f == nullptr) {
        *why = "cannot write " + s_.options.path + ": " + std::strerror(errno);
        return false;
    }
    const auto pid = static_cast<uint32_t>(getpid());
    std::fprintf(f,
                 "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"openacl\","
                 "\"pid\":%u,\"dropped_records\":%" PRIu64 ",\"unmatched_runs\":%" PRIu64
                 "},\n\"traceEvents\":[\n",
                 pid, s_.dropped, unmatched_);
    std::fprintf(f,
                 "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":0,"
                 "\"args\":{\"name\":\"host (pid %u)\"}},\n"
                 "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"tid\":0,"
                 "\"args\":{\"sort_index\":0}}",
                 kHostPid, pid, kHostPid);
    for (uint32_t tid : host_threads) {
        std::fprintf(f,
                     ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%u,"
                     "\"args\":{\"name\":\"%s %u\"}}",
                     kHostPid, tid, tid == pid ? "main thread" : "thread", tid);
    }
    std::set<int32_t> devices;
    for (const auto& [key, e] : stream_tracks) {
        if (devices.insert(key.first).second) {
            std::fprintf(f,
                         ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":0,"
                         "\"args\":{\"name\":\"device %d\"}},\n"
                         "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"tid\":0,"
                         "\"args\":{\"sort_index\":%d}}",
                         DevicePid(key.first), key.first, DevicePid(key.first), key.first + 1);
        }
        std::fprintf(f,
                     ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,"
                     "\"args\":{\"name\":\"stream %d (%scontext %p)\"}},\n"
                     "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%d,"
                     "\"args\":{\"sort_index\":%d}}",
                     DevicePid(key.first), StreamTid(key.second), key.second,
                     (e->status & kDefaultStream) != 0 ? "default, " : "", e->context,
                     DevicePid(key.first), StreamTid(key.second), key.second);
    }
    for (const Out& ev : events) {
        std::string text;
        switch (ev.type) {
            case Ev::kApi: {
                const Rec& r = *api_[ev.index];
                const char* function = r.type == RecType::kApi ? r.name : r.api;
                text = "{\"ph\":\"X\",\"cat\":\"api\",\"name\":\"" + Escape(function) +
                       "\",\"pid\":" + std::to_string(kHostPid) +
                       ",\"tid\":" + std::to_string(r.thread) + ",\"ts\":" + Ts(ev.ts) +
                       ",\"dur\":" + Dur(ev.dur) + "}";
                break;
            }
            case Ev::kEnqueue: {
                const Rec& e = *joined_[ev.index].enq;
                text = "{\"ph\":\"X\",\"cat\":\"enqueue\",\"name\":\"enqueue " +
                       Escape(TaskName(e)) + "\",\"pid\":" + std::to_string(kHostPid) +
                       ",\"tid\":" + std::to_string(e.thread) + ",\"ts\":" + Ts(ev.ts) +
                       ",\"dur\":" + Dur(ev.dur) +
                       ",\"args\":{\"device\":" + std::to_string(e.device) +
                       ",\"stream\":" + std::to_string(e.stream) +
                       ",\"seq\":" + std::to_string(e.seq) + "}}";
                break;
            }
            case Ev::kTask: {
                const Joined& j = joined_[ev.index];
                text = "{\"ph\":\"X\",\"cat\":\"task\",\"name\":\"" + Escape(TaskName(*j.enq)) +
                       "\",\"pid\":" + std::to_string(DevicePid(j.enq->device)) +
                       ",\"tid\":" + std::to_string(StreamTid(j.enq->stream)) +
                       ",\"ts\":" + Ts(ev.ts) + ",\"dur\":" + Dur(ev.dur) +
                       ",\"args\":" + TaskArgs(j) + "}";
                break;
            }
            case Ev::kFlowOut:
            case Ev::kFlowIn: {
                const Joined& j = joined_[ev.index];
                const bool out = ev.type == Ev::kFlowOut;
                text = std::string("{\"ph\":\"") + (out ? "s" : "f") +
                       "\",\"cat\":\"enqueue\",\"name\":\"enqueue\",\"id\":" +
                       std::to_string(ev.index + 1) +
                       ",\"pid\":" + std::to_string(out ? kHostPid : DevicePid(j.enq->device)) +
                       ",\"tid\":" +
                       std::to_string(out ? j.enq->thread
                                          : static_cast<uint32_t>(StreamTid(j.enq->stream))) +
                       ",\"ts\":" + Ts(ev.ts) + (out ? "" : ",\"bp\":\"e\"") + "}";
                break;
            }
            case Ev::kSigOut:
            case Ev::kSigIn: {
                const Joined& wait = joined_[ev.index];
                const bool out = ev.type == Ev::kSigOut;
                const Rec& at =
                    out ? *joined_[records[{wait.enq->source, wait.enq->b}]].enq : *wait.enq;
                text = std::string("{\"ph\":\"") + (out ? "s" : "f") +
                       "\",\"cat\":\"event\",\"name\":\"event " + std::to_string(wait.enq->a) +
                       "\",\"id\":" + std::to_string((uint64_t{1} << 32) + ev.index) +
                       ",\"pid\":" + std::to_string(DevicePid(at.device)) +
                       ",\"tid\":" + std::to_string(StreamTid(at.stream)) + ",\"ts\":" + Ts(ev.ts) +
                       (out ? "" : ",\"bp\":\"e\"") + "}";
                break;
            }
            case Ev::kUser: {
                const Rec& u = *user_[ev.index];
                text = std::string("{\"ph\":\"") + (u.status != 0 ? "i\",\"s\":\"t" : "X") +
                       "\",\"cat\":\"" + UserCategory(u.source) + "\",\"name\":\"" +
                       Escape(u.name) + "\",\"pid\":" + std::to_string(kHostPid) +
                       ",\"tid\":" + std::to_string(u.thread) + ",\"ts\":" + Ts(ev.ts) +
                       (u.status != 0 ? "" : ",\"dur\":" + Dur(ev.dur)) + UserArgs(u) + "}";
                break;
            }
            case Ev::kStreamRange:
            case Ev::kStreamRangeEnd: {
                const StreamRange& r = stream_ranges[ev.index];
                const Rec& e = *joined_[r.start].enq;
                const bool end = ev.type == Ev::kStreamRangeEnd;
                const char* phase = !r.async ? "X" : (end ? "e" : "b");
                text =
                    std::string("{\"ph\":\"") + phase + "\",\"cat\":\"" + UserCategory(e.source) +
                    "\",\"name\":\"" + Escape(e.name != nullptr ? e.name : "") + "\"" +
                    (r.async ? ",\"id\":" + std::to_string((uint64_t{2} << 32) + e.a) : "") +
                    ",\"pid\":" + std::to_string(DevicePid(e.device)) +
                    ",\"tid\":" + std::to_string(StreamTid(e.stream)) + ",\"ts\":" + Ts(ev.ts) +
                    (!r.async ? ",\"dur\":" + Dur(ev.dur) : "") +
                    (end ? ""
                         : ",\"args\":{\"range_id\":" + std::to_string(e.a) + DomainArg(e) + "}") +
                    "}";
                break;
            }
            case Ev::kSlice: {
                const Rec& sl = *slices_[ev.index];
                const int64_t task = slice_task_[ev.index];
                const Rec* e = task >= 0 ? joined_[task].enq : nullptr;
                text = "{\"ph\":\"X\",\"cat\":\"layer\",\"name\":\"" + Escape(sl.name) +
                       "\",\"pid\":" + std::to_string(e ? DevicePid(e->device) : kHostPid) +
                       ",\"tid\":" +
                       std::to_string(e ? static_cast<uint32_t>(StreamTid(e->stream)) : sl.thread) +
                       ",\"ts\":" + Ts(ev.ts) + ",\"dur\":" + Dur(ev.dur) + "}";
                break;
            }
            case Ev::kUserBegin:
            case Ev::kUserEnd: {
                // Async slices: Perfetto draws them on a track of their own under the host.
                const Rec& u = *user_[ev.index];
                const bool begin = ev.type == Ev::kUserBegin;
                text = std::string("{\"ph\":\"") + (begin ? "b" : "e") + "\",\"cat\":\"" +
                       UserCategory(u.source) + "\",\"name\":\"" + Escape(u.name) +
                       "\",\"id\":" + std::to_string(u.a) + ",\"pid\":" + std::to_string(kHostPid) +
                       ",\"tid\":" + std::to_string(begin ? static_cast<uint32_t>(u.b) : u.thread) +
                       ",\"ts\":" + Ts(ev.ts) + (begin ? UserArgs(u) : "") + "}";
                break;
            }
            case Ev::kInstant: {
                const Rec& e = *joined_[ev.index].enq;
                text = "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"event\",\"name\":\"event " +
                       std::to_string(e.a) +
                       (e.kind == Kind::kEventRecord ? " recorded" : " wait satisfied") +
                       "\",\"pid\":" + std::to_string(DevicePid(e.device)) +
                       ",\"tid\":" + std::to_string(StreamTid(e.stream)) + ",\"ts\":" + Ts(ev.ts) +
                       ",\"args\":{\"event\":" + std::to_string(e.a) + "}}";
                break;
            }
        }
        std::fputs(",\n", f);
        std::fputs(text.c_str(), f);
    }
    std::fputs("\n]}\n", f);
    const bool ok = std::fclose(f) == 0;
    if (!ok) {
        *why = "cannot write " + s_.options.path + ": " + std::strerror(errno);
        return false;
    }

    *summary = Summary();
    std::string text_path = s_.options.path;
    if (text_path.size() > 5 && text_path.compare(text_path.size() - 5, 5, ".json") == 0) {
        text_path.resize(text_path.size() - 5);
    }
    text_path += ".txt";
    FILE* t = std::fopen(text_path.c_str(), "w");
    if (t == nullptr || std::fputs(summary->c_str(), t) < 0 || std::fclose(t) != 0) {
        *why = "cannot write " + text_path + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

}  // namespace

void NoteEnqueue(const Stream& stream, uint64_t seq, const Label& label) {
    ThreadState* self = Self();
    const int64_t t = self->api_start != 0 ? self->api_start : cpu::Ticks();
    Rec* r = BeginRecord(self);
    if (r == nullptr) return;
    r->t0 = t;
    r->t1 = t;
    r->queue = stream.queue();
    r->context = stream.context();
    r->source = label.source;
    r->name = label.name;
    r->api = self->api_start != 0 ? self->api_name : CurrentApi();
    r->seq = seq;
    r->a = label.a;
    r->b = label.b;
    r->device = stream.context()->device()->id();
    r->stream = stream.id();
    r->thread = self->tid;
    r->type = RecType::kEnqueue;
    r->kind = label.kind;
    r->status = stream.is_default() ? kDefaultStream : 0;
    if (self->api_start != 0) {
        self->open = r;  // ApiEnd completes and commits it
        return;
    }
    CommitRecord(self);
}

ThreadState* ApiBegin(const char* name) {
    if (!On()) return nullptr;
    ThreadState* self = Self();
    self->api_name = name;
    self->api_start = cpu::Ticks();
    return self;
}

void ApiEnd(ThreadState* self) {
    if (self == nullptr) return;
    const int64_t start = self->api_start;
    self->api_start = 0;
    const int64_t end = cpu::Ticks();
    if (Rec* open = self->open; open != nullptr) {
        self->open = nullptr;
        open->t1 = end;
        open->status |= kCarriesApi;
        CommitRecord(self);
        return;
    }
    Rec* r = BeginRecord(self);
    if (r == nullptr) return;
    r->t0 = start;
    r->t1 = end;
    r->name = self->api_name;
    r->thread = self->tid;
    r->type = RecType::kApi;
    r->kind = Kind::kNone;
    CommitRecord(self);
}

bool UserNotesOn() {
    if (!On()) return false;
    std::lock_guard control(g_control);
    Session* s = g_session.load();
    return s != nullptr && s->options.user_annotations;
}

uint32_t ThreadId() {
    return Self()->tid;
}

void NoteUser(const UserNote& note) {
    ThreadState* self = Self();
    Rec* r = BeginRecord(self);
    if (r == nullptr) return;
    *r = Rec{};
    r->t0 = note.start;
    r->t1 = note.instant ? note.start : note.end;
    r->name = note.message;
    r->api = note.args_json;
    r->source = note.domain;
    r->a = note.range_id;
    r->b = note.start_thread != 0 ? note.start_thread : self->tid;
    r->thread = self->tid;
    r->type = RecType::kUser;
    r->kind = Kind::kNone;
    r->status = note.instant ? 1 : 0;
    CommitRecord(self);
}

void NoteSlice(const char* name, int64_t start, int64_t end) {
    ThreadState* self = Self();
    Rec* r = BeginRecord(self);
    if (r == nullptr) return;
    *r = Rec{};
    r->t0 = start;
    r->t1 = end;
    r->name = name;
    r->thread = self->tid;
    r->type = RecType::kSlice;
    r->kind = Kind::kNone;
    CommitRecord(self);
}

int64_t TicksFromNs(int64_t ns) {
    Session* s = g_session.load();
    if (s == nullptr) return ns;
    const int64_t now_ns = cpu::NowNs();
    const int64_t now_ticks = cpu::Ticks();
    if (now_ns <= s->origin) return now_ticks;
    const long double per_ns = static_cast<long double>(now_ticks - s->origin_ticks) /
                               static_cast<long double>(now_ns - s->origin);
    return s->origin_ticks + std::llround(static_cast<long double>(ns - s->origin) * per_ns);
}

cpu::Tracer* ExecutorTracer() {
    static auto* tracer = new RecorderTracer;
    return tracer;
}

// Whether the trace file can be written at the end: checked when the session starts, so that a
// missing or read-only folder is reported then, not after the whole run was recorded for nothing.
static bool Writable(const std::string& path, std::string* why) {
    const size_t slash = path.rfind('/');
    const std::string folder =
        slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    const bool ok = access(path.c_str(), F_OK) == 0 ? access(path.c_str(), W_OK) == 0
                                                    : access(folder.c_str(), W_OK | X_OK) == 0;
    if (!ok) *why = "cannot write " + path + ": " + std::strerror(errno);
    return ok;
}

bool Start(const SessionOptions& options, std::string* why) {
    std::lock_guard control(g_control);
    if (g_session.load() != nullptr) {
        *why = g_session.load()->options.owner == Owner::kEnvironment
                   ? "OPENACL_TRACE is already recording a trace"
                   : "aclprofStart already started a trace";
        return false;
    }
    if (!Writable(options.path, why)) return false;
    auto* s = new Session;
    s->options = options;
    s->epoch = ++g_epoch;
    uint64_t mib = options.buffer_mib != 0 ? options.buffer_mib : kDefaultPoolMiB;
    if (const char* v = std::getenv("OPENACL_TRACE_BUFFER_MB"); v && *v && !options.buffer_mib) {
        char* end = nullptr;
        const unsigned long long value = std::strtoull(v, &end, 10);
        if (*end == '\0' && value > 0 && value <= (uint64_t{1} << 20)) mib = value;
    }
    s->chunk_count = static_cast<uint32_t>(std::max<uint64_t>(1, (mib << 20) / sizeof(Chunk)));
    s->pool = TakeKeptPool(s->chunk_count);
    if (s->pool == nullptr) {
        s->pool = std::make_unique<Pool>();
        if (!s->pool->Allocate(s->chunk_count)) {
            delete s;
            *why = "cannot reserve the trace buffers";
            return false;
        }
    }
    fence::EnableAsymmetric();  // before the session is published: writers see the mode first
    s->prefaulter.Start(s->pool->chunks, s->chunk_count);
    s->origin = cpu::NowNs();
    s->origin_ticks = cpu::Ticks();
    g_session.store(s);
    detail::g_on.store(true, std::memory_order_relaxed);
    static std::once_flag at_exit;
    std::call_once(at_exit, [] {
        // Programs that never call aclFinalize (or exit with aclprofStop missing) still get
        // their trace.
        std::atexit([] {
            std::string why;
            if (Running() != Owner::kNone && !Stop(&why)) {
                std::fprintf(stderr, "openacl: %s\n", why.c_str());
            }
        });
    });
    OPENACL_LOG_INFO("tracing to %s", options.path.c_str());
    return true;
}

Owner Running() {
    Session* s = g_session.load();
    return s == nullptr ? Owner::kNone : s->options.owner;
}

namespace {
std::mutex g_flush_mutex;

// Records carry cpu::Ticks() stamps (cheap to take); the writer works in NowNs() nanoseconds.
// Both clocks were read at the session's start and stop: the stamps map linearly between.
void StampsToNs(Session& s, int64_t stop_ns, int64_t stop_ticks) {
    const long double per_tick = stop_ticks > s.origin_ticks
                                     ? static_cast<long double>(stop_ns - s.origin) /
                                           static_cast<long double>(stop_ticks - s.origin_ticks)
                                     : 1.0L;
    auto ns = [&](int64_t ticks) {
        return s.origin + std::llround(static_cast<long double>(ticks - s.origin_ticks) * per_tick);
    };
    const uint32_t chunks = std::min(s.next_chunk.load(), s.chunk_count);
    for (uint32_t c = 0; c < chunks; ++c) {
        Chunk& chunk = s.pool->chunks[c];
        for (uint32_t i = 0; i < chunk.used; ++i) {
            chunk.recs[i].t0 = ns(chunk.recs[i].t0);
            chunk.recs[i].t1 = ns(chunk.recs[i].t1);
        }
    }
}
std::vector<void (*)()>& FlushHooks() {
    static auto* hooks = new std::vector<void (*)()>;
    return *hooks;
}
}  // namespace

void AddFlushHook(void (*fn)()) {
    std::lock_guard lock(g_flush_mutex);
    FlushHooks().push_back(fn);
}

bool Stop(std::string* why) {
    {
        std::lock_guard lock(g_flush_mutex);
        for (void (*fn)() : FlushHooks())
            fn();
    }
    std::unique_ptr<Session> s;
    int64_t stop = 0;
    int64_t stop_ticks = 0;
    {
        std::lock_guard control(g_control);
        s.reset(g_session.load());
        if (s == nullptr) {
            *why = "no trace is being recorded";
            return false;
        }
        stop = cpu::NowNs();
        stop_ticks = cpu::Ticks();
        detail::g_on.store(false, std::memory_order_relaxed);
        g_session.store(nullptr);
        fence::Heavy();
        // Wait for records being written now (see BeginRecord); new ones see no session.
        std::lock_guard lock(g_threads_mutex);
        for (ThreadState* t : Threads()) {
            while (t->writing.load() != 0)
                std::this_thread::yield();
            if (t->epoch == s->epoch) s->dropped += t->dropped;
        }
        g_last_dropped = s->dropped;
    }
    s->prefaulter.Stop();
    StampsToNs(*s, stop, stop_ticks);
    std::string summary;
    Writer writer(*s, stop);
    const bool written = writer.Write(why, &summary);
    KeepPool(s.get());
    if (!written) return false;
    OPENACL_LOG_INFO("trace written to %s", s->options.path.c_str());
    size_t begin = 0;
    while (begin < summary.size()) {
        size_t end = summary.find('\n', begin);
        if (end == std::string::npos) end = summary.size();
        OPENACL_LOG_INFO("%.*s", static_cast<int>(end - begin), summary.c_str() + begin);
        begin = end + 1;
    }
    return true;
}

void StartConfigured(const std::string& path, bool again) {
    static std::mutex mutex;
    static auto* sessions = new std::map<std::string, uint32_t>;  // per path
    if (path.empty() || Running() != Owner::kNone) return;
    uint32_t n = 0;
    {
        std::lock_guard lock(mutex);
        uint32_t& count = (*sessions)[path];
        if (!again && count != 0) return;
        n = ++count;
    }
    std::string target = path;
    if (n > 1) {
        const bool json = target.size() > 5 && target.ends_with(".json");
        if (json) target.resize(target.size() - 5);
        target += "." + std::to_string(n) + ".json";
    }
    std::string why;
    if (!Start({target, Owner::kEnvironment}, &why)) {
        // The program asked for a trace in its environment or aclInit config and runs on
        // without one: say so where its user looks, not only in the log.
        std::fprintf(stderr, "openacl: no trace will be written: %s\n", why.c_str());
        OPENACL_LOG_WARNING("OPENACL_TRACE=%s: %s", path.c_str(), why.c_str());
    }
}

void ReleaseKeptBuffers() {
    std::lock_guard control(g_control);
    delete std::exchange(g_kept, nullptr);
}

uint64_t LastDropped() {
    std::lock_guard control(g_control);
    return g_last_dropped;
}

const char* Intern(const char* text) {
    static std::mutex mutex;
    static auto* names = new std::unordered_set<std::string>;  // never freed: names outlive exit
    std::lock_guard lock(mutex);
    return names->insert(text != nullptr ? text : "").first->c_str();
}

}  // namespace openacl::trace
