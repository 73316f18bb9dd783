// The pipes of an AI core and the order between them, for the cross-pipe hazard check.
//
// On the chip, a core's instructions go to separate pipes (scalar, vector, cube, and the
// MTE1/MTE2/MTE3/FIX copy engines) that run at once; only an instruction's own pipe keeps
// program order. Data one pipe writes may be read by another only after a synchronisation:
// SetFlag on the writer's pipe and WaitFlag on the reader's, a PipeBarrier<PIPE_ALL>, or a
// queue hand-off (EnQue/DeQue, FreeTensor/AllocTensor), which syncs the pipes itself. The CPU
// runs every instruction in program order, so a missing synchronisation never changes a result
// here: it is found instead, every time, by keeping for each pipe how far it has waited for
// each other pipe (a vector clock) and for each memory range (local memory, and global memory
// where this core's copies and scalar accesses touch it) the instructions that touched it and
// are not yet ordered before every other pipe.
//
// What is checked: a read of memory that another pipe wrote (read after write), a write over
// what another pipe wrote or still reads (write after write / read), unless the accessing pipe
// has waited for the other one since. Scalar reads are checked but not kept: the scalar
// unit waits for its own loads before it issues the next instruction, so a later write by
// another pipe cannot overtake them. Queue hand-offs count as synchronising every pipe (more
// than the chip's one pair of pipes), so that kernels in the queue style are never reported
// for what a queue orders. Other cores' accesses are not seen here.
//
// CANN's kernel projects compile with the compiler's automatic synchronisation on
// (--cce-auto-sync, their default), which inserts the flags between the scalar pipe and the
// vector, MTE2 and MTE3 pipes: those pairs are not reported unless OPENACL_ASCENDC_AUTO_SYNC=0
// says the kernels were built without it. The rest (vector and copy pipes on a TBuf or a static
// tensor, MTE2 after MTE3 on the same global memory, the cube's pipes) is the kernel's to order.
#ifndef OPENACL_ASCENDC_KERNEL_PIPE_HAZARD_H_
#define OPENACL_ASCENDC_KERNEL_PIPE_HAZARD_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "kernel_type.h"

namespace openacl::ascendc {

enum class Pipe : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX };
constexpr size_t kPipeCount = 7;

inline const char* PipeName(Pipe pipe) {
    constexpr const char* kNames[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};
    return kNames[static_cast<size_t>(pipe)];
}

// The pipes of each HardEvent, in the enum's order (source, then destination).
struct EventPipes {
    Pipe from;
    Pipe to;
};
inline constexpr EventPipes kEventPipes[] = {
    {Pipe::MTE2, Pipe::MTE1}, {Pipe::MTE1, Pipe::MTE2}, {Pipe::MTE1, Pipe::M},
    {Pipe::M, Pipe::MTE1},    {Pipe::MTE2, Pipe::V},    {Pipe::V, Pipe::MTE2},
    {Pipe::MTE3, Pipe::V},    {Pipe::V, Pipe::MTE3},    {Pipe::M, Pipe::V},
    {Pipe::V, Pipe::M},       {Pipe::V, Pipe::V},       {Pipe::MTE3, Pipe::MTE1},
    {Pipe::MTE1, Pipe::MTE3}, {Pipe::MTE1, Pipe::V},    {Pipe::MTE2, Pipe::M},
    {Pipe::M, Pipe::MTE2},    {Pipe::V, Pipe::MTE1},    {Pipe::M, Pipe::FIX},
    {Pipe::FIX, Pipe::M},     {Pipe::MTE3, Pipe::MTE2}, {Pipe::MTE2, Pipe::MTE3},
    {Pipe::S, Pipe::V},       {Pipe::V, Pipe::S},       {Pipe::S, Pipe::MTE2},
    {Pipe::MTE2, Pipe::S},    {Pipe::S, Pipe::MTE3},    {Pipe::MTE3, Pipe::S},
    {Pipe::MTE2, Pipe::FIX},  {Pipe::FIX, Pipe::MTE2},  {Pipe::FIX, Pipe::S},
    {Pipe::M, Pipe::S},       {Pipe::FIX, Pipe::MTE3},  {Pipe::MTE1, Pipe::FIX},
    {Pipe::FIX, Pipe::MTE1},  {Pipe::FIX, Pipe::FIX}};
static_assert(std::size(kEventPipes) == static_cast<size_t>(AscendC::HardEvent::MAX));

// A HardEvent's name is its pipes' ("MTE2_V").
inline std::string EventName(size_t event) {
    if (event >= std::size(kEventPipes)) return "?";
    return std::string(PipeName(kEventPipes[event].from)) + "_" + PipeName(kEventPipes[event].to);
}

// "SetFlag<HardEvent::MTE2_V>" style advice for ordering `to` after `from`.
inline std::string SyncAdvice(Pipe from, Pipe to, const char* writerApi, const char* api) {
    for (size_t e = 0; e < std::size(kEventPipes); ++e) {
        if (kEventPipes[e].from == from && kEventPipes[e].to == to) {
            const std::string name = EventName(e);
            return "call SetFlag<HardEvent::" + name + ">(id) after the " + writerApi +
                   " and WaitFlag<HardEvent::" + name + ">(id) before the " + api +
                   ", or pass the tensor through a TQue (EnQue/DeQue)";
        }
    }
    return "call PipeBarrier<PIPE_ALL>() between the " + std::string(writerApi) + " and the " + api;
}

struct PipeAccess {
    uintptr_t begin;
    uintptr_t end;
    uint32_t clock;  // the accessing pipe's own count at the access
    uint32_t generation;
    Pipe pipe;
    bool write;
    const char* api;
};

class PipeHazards {
 public:
    using Clock = std::array<uint32_t, kPipeCount>;

    // Checks an access of [begin, end) by `pipe` and keeps it; returns the problem ("" if
    // none), phrased for the instruction `api` and its operand `role`.
    std::string Access(const char* api, const char* role, Pipe pipe, bool write, const void* begin,
                       uint64_t bytes) {
        if (bytes == 0 || !enabled_) return {};
        const auto b = reinterpret_cast<uintptr_t>(begin);
        const uintptr_t e = b + bytes;
        Clock& mine = seen_[static_cast<size_t>(pipe)];
        const uint32_t clock = ++mine[static_cast<size_t>(pipe)];
        for (const PipeAccess& a : log_) {
            if (a.pipe == pipe || a.end <= b || e <= a.begin) continue;
            if (!a.write && !write) continue;
            if (mine[static_cast<size_t>(a.pipe)] >= a.clock) continue;
            if (autoSync_ && CompilerSyncs(a.pipe, pipe)) continue;
            const char* what = a.write && !write ? "reads what" : "overwrites what";
            const char* did = a.write ? "wrote" : "still reads";
            return std::string(role) + " (pipe " + PipeName(pipe) + ") " + what + " " + a.api +
                   " (pipe " + PipeName(a.pipe) + ") " + did +
                   ", with no synchronisation between the two pipes: on the NPU they run at "
                   "once and the result depends on timing; " +
                   SyncAdvice(a.pipe, pipe, a.api, api);
        }
        if (pipe == Pipe::S && !write) return {};
        Keep({b, e, clock, generation_, pipe, write, api});
        return {};
    }

    // SetFlag<event>(id) on the event's source pipe, WaitFlag on its destination.
    void Set(AscendC::HardEvent event, uint32_t id) {
        const auto index = static_cast<size_t>(event);
        flags_[index][id] = seen_[static_cast<size_t>(kEventPipes[index].from)];
        ++generation_;
    }
    void Wait(AscendC::HardEvent event, uint32_t id) {
        const auto index = static_cast<size_t>(event);
        Clock& to = seen_[static_cast<size_t>(kEventPipes[index].to)];
        const Clock& from = flags_[index][id];
        for (size_t p = 0; p < kPipeCount; ++p)
            to[p] = std::max(to[p], from[p]);
        ++generation_;
        Prune();
    }

    // Every pipe waits for every other one (PipeBarrier<PIPE_ALL>, queue hand-offs, barriers
    // between cores): nothing kept can conflict any more.
    void JoinAll() {
        Clock all{};
        for (const Clock& c : seen_) {
            for (size_t p = 0; p < kPipeCount; ++p)
                all[p] = std::max(all[p], c[p]);
        }
        seen_.fill(all);
        log_.clear();
        ++generation_;
    }

    // A block starts with every pipe idle, and the check on unless OPENACL_ASCENDC_PIPE_CHECK=0.
    void Reset() {
        seen_ = {};
        flags_ = {};
        log_.clear();
        generation_ = 0;
        static const bool on = [] {
            const char* v = std::getenv("OPENACL_ASCENDC_PIPE_CHECK");
            return v == nullptr || std::string(v) != "0";
        }();
        static const bool autoSync = [] {
            const char* v = std::getenv("OPENACL_ASCENDC_AUTO_SYNC");
            return v == nullptr || std::string(v) != "0";
        }();
        enabled_ = on;
        autoSync_ = autoSync;
    }

    // For the rest of the block: whether the compiler's automatic synchronisation is assumed.
    void AssumeAutoSync(bool on) { autoSync_ = on; }

    // How many accesses are kept (for tests: the log stays small in long kernels).
    size_t Kept() const { return log_.size(); }

    // For the rest of the block (tests of single instructions, whose scalar set-up and
    // read-back would need flags on the chip).
    void Enable(bool on) { enabled_ = on; }

 private:
    // The pairs --cce-auto-sync orders: the scalar pipe with the vector, MTE2 and MTE3 pipes.
    static bool CompilerSyncs(Pipe x, Pipe y) {
        if (y == Pipe::S) std::swap(x, y);
        return x == Pipe::S && (y == Pipe::V || y == Pipe::MTE2 || y == Pipe::MTE3);
    }

    void Keep(const PipeAccess& access) {
        // A later access of a pipe is ordered against every other pipe no earlier than that
        // pipe's earlier accesses of the same bytes (a write stands for reads and writes, a read
        // for reads): the bytes it covers are dropped from them, so a kernel cycling through a
        // few buffers keeps a few entries however long it runs.
        for (size_t i = 0; i < log_.size();) {
            PipeAccess& a = log_[i];
            if (a.pipe != access.pipe || (a.write && !access.write) || a.end <= access.begin ||
                access.end <= a.begin) {
                ++i;
                continue;
            }
            const bool left = a.begin < access.begin;
            const bool right = access.end < a.end;
            if (left && right) {
                PipeAccess tail = a;
                tail.begin = access.end;
                a.end = access.begin;
                log_.push_back(tail);  // `a` is not used again
                ++i;
            } else if (left) {
                a.end = access.begin;
                ++i;
            } else if (right) {
                a.begin = access.end;
                ++i;
            } else {
                log_.erase(log_.begin() + static_cast<std::ptrdiff_t>(i));
            }
        }
        if (!log_.empty()) {
            PipeAccess& last = log_.back();
            // One pipe's accesses of adjoining ranges with no synchronisation between them are
            // ordered alike against every other pipe: one entry (loops over a buffer).
            if (last.pipe == access.pipe && last.write == access.write &&
                last.generation == access.generation && last.begin <= access.end &&
                access.begin <= last.end) {
                last.begin = std::min(last.begin, access.begin);
                last.end = std::max(last.end, access.end);
                last.clock = access.clock;
                last.api = access.api;
                return;
            }
        }
        log_.push_back(access);
        if (log_.size() > kPruneAt) Prune();
        // A kernel that never synchronises its pipes keeps its newest accesses: checks of older
        // ones are given up, never invented.
        if (log_.size() > kMaxKept) log_.erase(log_.begin(), log_.begin() + kMaxKept / 2);
    }

    // Drops accesses every other pipe has waited for.
    void Prune() {
        std::erase_if(log_, [&](const PipeAccess& a) {
            for (size_t q = 0; q < kPipeCount; ++q) {
                if (q != static_cast<size_t>(a.pipe) &&
                    seen_[q][static_cast<size_t>(a.pipe)] < a.clock)
                    return false;
            }
            return true;
        });
    }

    static constexpr size_t kPruneAt = 64;
    static constexpr size_t kMaxKept = 4096;
    // seen_[p][q]: how many of pipe q's accesses pipe p has waited for (p's own count at q == p).
    std::array<Clock, kPipeCount> seen_{};
    std::array<std::array<Clock, 8>, static_cast<size_t>(AscendC::HardEvent::MAX)> flags_{};
    std::vector<PipeAccess> log_;
    uint32_t generation_ = 0;
    bool enabled_ = true;
    bool autoSync_ = true;
};

}  // namespace openacl::ascendc

#endif  // OPENACL_ASCENDC_KERNEL_PIPE_HAZARD_H_
