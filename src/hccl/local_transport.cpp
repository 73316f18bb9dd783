// The transport between ranks of one process (hccl/local_transport.h).
#include "hccl/local_transport.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backend/cpu/executor.h"
#include "hccl/data_type.h"
#include "hccl/enqueue.h"

namespace openacl::hccl {
namespace {

int64_t NowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string RankList(const std::vector<uint32_t>& ranks) {
    std::string text;
    for (uint32_t r : ranks)
        text += (text.empty() ? "" : ", ") + std::to_string(r);
    return text;
}

// One piece of a collective's data movement: elements [0, count) of every source are
// combined (reduced when there are several, copied when one) into dsts[0], and dsts[0] is
// copied to the other destinations.
struct Piece {
    uint32_t first_src, n_src;  // into Plan::srcs
    uint32_t first_dst, n_dst;  // into Plan::dsts
    uint64_t count;
};

struct Plan {
    HcclDataType type = HCCL_DATA_TYPE_INT8;
    HcclReduceOp op = HCCL_REDUCE_SUM;
    size_t element = 1;
    std::vector<const char*> srcs;
    std::vector<char*> dsts;
    std::vector<Piece> pieces;

    void AddRange(const void* const* from, size_t n_from, void* const* to, size_t n_to,
                  uint64_t count) {
        if (count == 0 || n_to == 0) return;
        Piece piece{static_cast<uint32_t>(srcs.size()), static_cast<uint32_t>(n_from),
                    static_cast<uint32_t>(dsts.size()), static_cast<uint32_t>(n_to), count};
        for (size_t i = 0; i < n_from; ++i)
            srcs.push_back(static_cast<const char*>(from[i]));
        for (size_t i = 0; i < n_to; ++i)
            dsts.push_back(static_cast<char*>(to[i]));
        pieces.push_back(piece);
    }
};

void CopyBytes(char* dst, const char* src, size_t bytes) {
    if (dst == src || bytes == 0) return;
    std::memmove(dst, src, bytes);
}

// Elements [begin, end) of one piece.
void RunPiece(const Plan& plan, const Piece& piece, uint64_t begin, uint64_t end) {
    const size_t offset = begin * plan.element;
    const size_t bytes = (end - begin) * plan.element;
    char* const* dsts = plan.dsts.data() + piece.first_dst;
    const char* const* srcs = plan.srcs.data() + piece.first_src;
    if (piece.n_src == 1) {
        for (uint32_t d = 0; d < piece.n_dst; ++d)
            CopyBytes(dsts[d] + offset, srcs[0] + offset, bytes);
        return;
    }
    // ReduceMany indexes from the buffers' starts, and writes every destination from the
    // block it reduced (no second pass that reads dsts[0] back to copy it). Large results go
    // around the caches: measured on a 2-core VM (4 ranks), streaming wins from 8 MiB per rank
    // (32 MiB written; 16 MiB: 5.2 - 5.4 ms instead of 7.2 - 7.7) and loses a little below.
    constexpr uint64_t kStreamBytes = uint64_t{32} << 20;
    const bool streaming = piece.count * plan.element * piece.n_dst >= kStreamBytes;
    ReduceMany(plan.type, plan.op, reinterpret_cast<void* const*>(dsts), piece.n_dst,
               reinterpret_cast<const void* const*>(srcs), piece.n_src, begin, end, streaming);
}

// Runs a plan, spread over the calling worker's executor when it is large.
void RunPlan(const Plan& plan) {
    constexpr uint64_t kChunkBytes = 256 << 10;
    const uint64_t chunk = std::max<uint64_t>(1, kChunkBytes / plan.element);
    struct Chunk {
        uint32_t piece;
        uint64_t begin, end;
    };
    std::vector<Chunk> chunks;
    for (uint32_t p = 0; p < plan.pieces.size(); ++p) {
        for (uint64_t begin = 0; begin < plan.pieces[p].count; begin += chunk)
            chunks.push_back({p, begin, std::min(plan.pieces[p].count, begin + chunk)});
    }
    cpu::Executor* executor = cpu::Executor::Current();
    if (chunks.size() > 1 && executor != nullptr) {
        const auto status =
            executor->ParallelFor(static_cast<uint32_t>(chunks.size()), [&](uint32_t i) {
                const Chunk& c = chunks[i];
                RunPiece(plan, plan.pieces[c.piece], c.begin, c.end);
            });
        if (status.kind != cpu::ParallelStatus::Kind::kRejected) return;
    }
    for (const Chunk& c : chunks)
        RunPiece(plan, plan.pieces[c.piece], c.begin, c.end);
}

// Checks that what every rank asked for agrees (what one rank alone can get wrong was refused
// when it was enqueued), then plans the data movement. Returns the failure's explanation, or
// an empty string.
std::string MakePlan(const std::vector<PendingOp*>& ops, Plan* plan) {
    const CollOp& first = ops[0]->op;
    const uint32_t n = static_cast<uint32_t>(ops.size());
    plan->type = first.type;
    plan->op = first.op;
    plan->element = DataTypeSize(first.type);
    const size_t es = plan->element;
    auto at = [es](const void* base, uint64_t elements) {
        return static_cast<const char*>(base) + elements * es;
    };
    auto at_mut = [es](void* base, uint64_t elements) {
        return static_cast<char*>(base) + elements * es;
    };
    std::vector<const void*> from(n);
    std::vector<void*> to(n);
    switch (first.kind) {
        case CollKind::kAllReduce:
            for (uint32_t r = 0; r < n; ++r) {
                from[r] = ops[r]->op.send;
                to[r] = ops[r]->op.recv;
            }
            plan->AddRange(from.data(), n, to.data(), n, first.count);
            break;
        case CollKind::kReduce:
            for (uint32_t r = 0; r < n; ++r)
                from[r] = ops[r]->op.send;
            plan->AddRange(from.data(), n, &ops[first.root]->op.recv, 1, first.count);
            break;
        case CollKind::kBroadcast: {
            to.clear();
            for (uint32_t r = 0; r < n; ++r) {
                if (r != first.root) to.push_back(ops[r]->op.recv);
            }
            const void* src = ops[first.root]->op.recv;
            plan->AddRange(&src, 1, to.data(), to.size(), first.count);
            break;
        }
        case CollKind::kAllGather:
            for (uint32_t s = 0; s < n; ++s) {
                for (uint32_t d = 0; d < n; ++d)
                    to[d] = at_mut(ops[d]->op.recv, s * first.count);
                const void* src = ops[s]->op.send;
                plan->AddRange(&src, 1, to.data(), n, first.count);
            }
            break;
        case CollKind::kAllGatherV:
            for (uint32_t s = 0; s < n; ++s) {
                const uint64_t count = ops[s]->op.count;
                for (uint32_t d = 0; d < n; ++d) {
                    if (ops[d]->op.recv_counts[s] != count) {
                        return "rank " + std::to_string(d) + " expects " +
                               std::to_string(ops[d]->op.recv_counts[s]) + " elements from rank " +
                               std::to_string(s) + " (recvCounts[" + std::to_string(s) +
                               "]), which sends " + std::to_string(count) + " (sendCount)";
                    }
                    to[d] = at_mut(ops[d]->op.recv, ops[d]->op.recv_displs[s]);
                }
                const void* src = ops[s]->op.send;
                plan->AddRange(&src, 1, to.data(), n, count);
            }
            break;
        case CollKind::kReduceScatter:
            for (uint32_t d = 0; d < n; ++d) {
                for (uint32_t s = 0; s < n; ++s)
                    from[s] = at(ops[s]->op.send, d * first.count);
                plan->AddRange(from.data(), n, &ops[d]->op.recv, 1, first.count);
            }
            break;
        case CollKind::kReduceScatterV:
            for (uint32_t d = 0; d < n; ++d) {
                const uint64_t count = ops[d]->op.count;
                for (uint32_t s = 0; s < n; ++s) {
                    if (ops[s]->op.send_counts[d] != count) {
                        return "rank " + std::to_string(s) + " sends " +
                               std::to_string(ops[s]->op.send_counts[d]) + " elements to rank " +
                               std::to_string(d) + " (sendCounts[" + std::to_string(d) +
                               "]), which receives " + std::to_string(count) + " (recvCount)";
                    }
                    from[s] = at(ops[s]->op.send, ops[s]->op.send_displs[d]);
                }
                plan->AddRange(from.data(), n, &ops[d]->op.recv, 1, count);
            }
            break;
        case CollKind::kScatter:
            for (uint32_t d = 0; d < n; ++d) {
                const void* src = at(ops[first.root]->op.send, d * first.count);
                plan->AddRange(&src, 1, &ops[d]->op.recv, 1, first.count);
            }
            break;
        case CollKind::kAlltoAll:
            for (uint32_t s = 0; s < n; ++s) {
                for (uint32_t d = 0; d < n; ++d) {
                    const void* src = at(ops[s]->op.send, d * first.count);
                    void* dst = at_mut(ops[d]->op.recv, s * first.count);
                    plan->AddRange(&src, 1, &dst, 1, first.count);
                }
            }
            break;
        case CollKind::kAlltoAllV:
            for (uint32_t s = 0; s < n; ++s) {
                for (uint32_t d = 0; d < n; ++d) {
                    const uint64_t count = ops[s]->op.send_counts[d];
                    if (ops[d]->op.recv_counts[s] != count) {
                        return "rank " + std::to_string(s) + " sends " + std::to_string(count) +
                               " elements to rank " + std::to_string(d) + ", which expects " +
                               std::to_string(ops[d]->op.recv_counts[s]) + " from it";
                    }
                    const void* src = at(ops[s]->op.send, ops[s]->op.send_displs[d]);
                    void* dst = at_mut(ops[d]->op.recv, ops[d]->op.recv_displs[s]);
                    plan->AddRange(&src, 1, &dst, 1, count);
                }
            }
            break;
        default:  // kBarrier: nothing moves
            break;
    }
    return {};
}

// What every rank must agree on, checked as each arrives; empty when `op` matches `first`.
std::string Disagreement(const CollOp& first, uint32_t first_rank, const CollOp& op,
                         uint32_t rank) {
    auto says = [&](const char* what, const std::string& mine, const std::string& theirs) {
        return "rank " + std::to_string(rank) + " passed " + what + " " + mine + " but rank " +
               std::to_string(first_rank) + " passed " + theirs +
               ": every rank must pass the same " + what;
    };
    if (op.kind != first.kind) {
        return "rank " + std::to_string(rank) + " issued " + CollName(op.kind) + " where rank " +
               std::to_string(first_rank) + " issued " + CollName(first.kind) +
               ": every rank must issue the same collectives in the same order";
    }
    if (op.kind == CollKind::kBarrier) return {};
    if (op.type != first.type)
        return says("data type", DataTypeName(op.type), DataTypeName(first.type));
    const bool v_form = op.kind == CollKind::kAllGatherV || op.kind == CollKind::kReduceScatterV ||
                        op.kind == CollKind::kAlltoAllV;
    if (!v_form && op.count != first.count)
        return says("count", std::to_string(op.count), std::to_string(first.count));
    const bool reduces = op.kind == CollKind::kAllReduce || op.kind == CollKind::kReduce ||
                         op.kind == CollKind::kReduceScatter ||
                         op.kind == CollKind::kReduceScatterV;
    if (reduces && op.op != first.op)
        return says("reduce operation", ReduceOpName(op.op), ReduceOpName(first.op));
    const bool rooted = op.kind == CollKind::kBroadcast || op.kind == CollKind::kReduce ||
                        op.kind == CollKind::kScatter;
    if (rooted && op.root != first.root)
        return says("root", std::to_string(op.root), std::to_string(first.root));
    return {};
}

}  // namespace

class LocalGroup : public std::enable_shared_from_this<LocalGroup> {
 public:
    LocalGroup(uint32_t size, int64_t timeout_ms) : size_(size), timeout_ms_(timeout_ms) {
        gone_.assign(size, 0);
    }

    Transport::Outcome Arrive(uint32_t rank, PendingOp* op);
    void Withdraw(uint32_t rank, PendingOp* op);
    void Leave(uint32_t rank);
    // Fails the waits that are overdue at `now`; returns the next deadline (0: none), which the
    // watchdog then waits for.
    int64_t Expire(int64_t now);

 private:
    struct Round {
        std::vector<PendingOp*> ops;  // by rank; null until the rank arrives
        uint32_t arrived = 0;
        uint32_t passed = 0;  // ranks that met the round after it failed
        bool failed = false;
        HcclResult code = HCCL_SUCCESS;
        std::string why;
        int64_t deadline = 0;
    };
    // One send or receive waiting for its partner. An item whose op failed or was discarded
    // keeps its place with no owner, so the partner that comes for it fails (with `code` and
    // `why`) instead of pairing with the op's successor: pairs stay in step, as rounds do.
    struct P2p {
        PendingOp* owner;  // null: failed
        void* buf;
        uint64_t count;
        HcclDataType type;
        int64_t deadline;  // 0: none
        HcclResult code = HCCL_SUCCESS;
        std::string why;
    };
    struct Channel {
        std::deque<P2p> sends, recvs;
    };
    // A send/receive op that is not done: items still queued, or copies to or from its buffers
    // still running (on the threads that matched them, outside the lock). It is done, and
    // finished, when neither is left, so its task never completes while a peer still touches
    // its buffers; failing it early only records the failure.
    struct P2pOp {
        uint32_t unmatched = 0;
        uint32_t copying = 0;
        bool failed = false;
        HcclResult code = HCCL_SUCCESS;
        std::string why;
    };
    // Ops to finish once the lock is released (Finish wakes tasks; never under our lock).
    struct Finishing {
        std::vector<std::pair<PendingOp*, std::pair<HcclResult, std::string>>> ops;
    };

    Transport::Outcome ArriveP2p(uint32_t rank, PendingOp* op);
    // A collective discarded before it ran: its round fails for the ranks that meet it.
    void GiveUpRound(uint32_t rank, PendingOp* op);
    // Fails `round` for every rank that arrived (their ops go to `out`).
    void FailRound(Round& round, HcclResult code, std::string why, Finishing* out);
    // The queue `item` of `rank` waits in, and the one its partners wait in.
    std::deque<P2p>& OwnQueue(uint32_t rank, const HcclSendRecvItem& item);
    std::deque<P2p>& PartnerQueue(uint32_t rank, const HcclSendRecvItem& item);
    // An item that will never be run for real (its op failed or was discarded): fails the
    // partner waiting for it, or leaves a failed item in its place for the partner to come.
    void GiveUpItem(uint32_t rank, const HcclSendRecvItem& item, HcclResult code,
                    const std::string& why, Finishing* out);
    // Fails a p2p op that is not done and leaves its queued items failed in their places; it
    // is finished (to `out`) at once, or by the last of its copies. Does nothing when the op
    // is done or failed already.
    void FailP2p(PendingOp* owner, HcclResult code, const std::string& why, Finishing* out);
    // When `owner` is done, forgets it and returns true with its outcome in `code`/`why`.
    bool SettleP2p(PendingOp* owner, HcclResult* code, std::string* why);
    // Leaves every waiting item of `owner` failed in its place.
    void FailItems(PendingOp* owner, HcclResult code, const std::string& why);
    // Makes sure the watchdog will call Expire by `deadline`.
    void Watch(int64_t deadline);
    void FinishOutsideLock(Finishing& finishing);

    const uint32_t size_;
    const int64_t timeout_ms_;
    std::mutex mutex_;
    std::condition_variable settled_;
    uint32_t busy_ = 0;  // threads moving data or finishing ops outside the lock
    // Whether the watchdog holds a deadline for this group. One is enough: deadlines are set
    // in arrival order with one timeout, so a later wait's deadline is never the earlier, and
    // Expire hands the watchdog the next one.
    bool watched_ = false;
    std::map<uint64_t, Round> rounds_;
    std::map<std::pair<uint32_t, uint32_t>, Channel> channels_;  // (sender, receiver)
    std::unordered_map<PendingOp*, P2pOp> p2p_;                  // not done yet
    std::vector<uint8_t> gone_;
};

namespace {

// A Send or Recv as the one item of a batch; a BatchSendRecv's own items.
std::vector<HcclSendRecvItem> ItemsOf(const CollOp& op) {
    if (op.kind == CollKind::kBatchSendRecv) return op.items;
    const bool send = op.kind == CollKind::kSend;
    return {{send ? HCCL_SEND : HCCL_RECV, send ? const_cast<void*>(op.send) : op.recv, op.count,
             op.type, op.root}};
}

// Fails overdue waits of every group: one thread for the process, asleep until the earliest
// deadline, started by the first group that waits with a timeout.
class Watchdog {
 public:
    static Watchdog& Instance() {
        static auto* watchdog = new Watchdog;  // never destroyed: groups may outlive statics
        return *watchdog;
    }

    void Watch(std::weak_ptr<LocalGroup> group, int64_t deadline) {
        std::lock_guard lock(mutex_);
        // The thread sleeps until the earliest deadline: only an earlier one needs it awake.
        const bool sooner = watched_.empty() || deadline < watched_.begin()->first;
        watched_.emplace(deadline, std::move(group));
        if (!started_) {
            started_ = true;
            std::thread([this] { Main(); }).detach();
        }
        if (sooner) wake_.notify_one();
    }

 private:
    void Main() {
        std::unique_lock lock(mutex_);
        for (;;) {
            if (watched_.empty()) {
                wake_.wait(lock);
                continue;
            }
            const int64_t deadline = watched_.begin()->first;
            const int64_t now = NowMs();
            if (now < deadline) {
                wake_.wait_for(lock, std::chrono::milliseconds(deadline - now));
                continue;
            }
            std::shared_ptr<LocalGroup> group = watched_.begin()->second.lock();
            watched_.erase(watched_.begin());
            if (group == nullptr) continue;
            lock.unlock();
            const int64_t next = group->Expire(now);
            lock.lock();
            if (next != 0) watched_.emplace(next, group);
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::multimap<int64_t, std::weak_ptr<LocalGroup>> watched_;
    bool started_ = false;
};

}  // namespace

void LocalGroup::Watch(int64_t deadline) {
    if (watched_) return;
    watched_ = true;
    Watchdog::Instance().Watch(weak_from_this(), deadline);  // never takes our lock under its
}

void LocalGroup::FinishOutsideLock(Finishing& finishing) {
    for (auto& [op, outcome] : finishing.ops)
        op->Finish(outcome.first, std::move(outcome.second));
    std::lock_guard lock(mutex_);
    if (--busy_ == 0) settled_.notify_all();
}

void LocalGroup::FailRound(Round& round, HcclResult code, std::string why, Finishing* out) {
    round.failed = true;
    round.code = code;
    round.why = why;
    for (PendingOp*& waiting : round.ops) {
        if (waiting == nullptr) continue;
        out->ops.push_back({waiting, {code, why}});
        waiting = nullptr;
        ++round.passed;
    }
}

Transport::Outcome LocalGroup::Arrive(uint32_t rank, PendingOp* op) {
    if (!Collective(op->op.kind)) return ArriveP2p(rank, op);
    std::unique_lock lock(mutex_);
    auto [it, inserted] = rounds_.try_emplace(op->seq);
    Round& round = it->second;
    if (inserted) {
        round.ops.assign(size_, nullptr);
        if (timeout_ms_ > 0) {
            round.deadline = NowMs() + timeout_ms_;
            Watch(round.deadline);
        }
    }
    Finishing finishing;
    if (!round.failed) {
        // A rank that left can never arrive.
        for (uint32_t r = 0; r < size_; ++r) {
            if (gone_[r] && round.ops[r] == nullptr && r != rank) {
                FailRound(round, HCCL_E_REMOTE,
                          "rank " + std::to_string(r) +
                              " destroyed its communicator before it issued collective #" +
                              std::to_string(op->seq) + " (" + CollName(op->op.kind) + ")",
                          &finishing);
                break;
            }
        }
    }
    if (!round.failed) {
        for (uint32_t r = 0; r < size_; ++r) {
            if (round.ops[r] == nullptr) continue;
            std::string why = Disagreement(round.ops[r]->op, r, op->op, rank);
            if (!why.empty()) FailRound(round, HCCL_E_PARA, std::move(why), &finishing);
            break;
        }
    }
    if (round.failed) {
        op->result = round.code;
        op->message = round.why;
        if (++round.passed == size_) rounds_.erase(it);
        if (!finishing.ops.empty()) {
            ++busy_;
            lock.unlock();
            FinishOutsideLock(finishing);
        }
        return Transport::Outcome::kDone;
    }
    round.ops[rank] = op;
    if (++round.arrived < size_) return Transport::Outcome::kPending;

    // The last rank to arrive moves the data for everyone.
    std::vector<PendingOp*> ops = std::move(round.ops);
    rounds_.erase(it);
    ++busy_;
    lock.unlock();
    Plan plan;
    HcclResult code = HCCL_SUCCESS;
    std::string why;
    for (uint32_t r = 0; r < size_ && why.empty(); ++r) {
        if (std::string lost = LostBuffer(ops[r]->op); !lost.empty()) {
            code = HCCL_E_MEMORY;
            why = "rank " + std::to_string(r) + ": " + lost;
        }
    }
    if (why.empty()) {
        why = MakePlan(ops, &plan);
        if (!why.empty()) code = HCCL_E_PARA;
    }
    if (why.empty()) RunPlan(plan);
    for (uint32_t r = 0; r < size_; ++r) {
        if (r != rank) finishing.ops.push_back({ops[r], {code, why}});
    }
    op->result = code;
    op->message = why;
    FinishOutsideLock(finishing);
    return Transport::Outcome::kDone;
}

void LocalGroup::GiveUpRound(uint32_t rank, PendingOp* op) {
    std::unique_lock lock(mutex_);
    auto [it, inserted] = rounds_.try_emplace(op->seq);
    Round& round = it->second;
    if (inserted) round.ops.assign(size_, nullptr);
    Finishing finishing;
    if (!round.failed) {
        FailRound(round, HCCL_E_REMOTE,
                  "rank " + std::to_string(rank) + "'s collective #" + std::to_string(op->seq) +
                      " (" + CollName(op->op.kind) +
                      ") was discarded before it ran (its stream was destroyed, or stopped "
                      "after an earlier failure)",
                  &finishing);
    }
    if (++round.passed == size_) rounds_.erase(it);
    if (finishing.ops.empty()) return;
    ++busy_;
    lock.unlock();
    FinishOutsideLock(finishing);
}

std::deque<LocalGroup::P2p>& LocalGroup::OwnQueue(uint32_t rank, const HcclSendRecvItem& item) {
    if (item.sendRecvType == HCCL_SEND) return channels_[{rank, item.remoteRank}].sends;
    return channels_[{item.remoteRank, rank}].recvs;
}

std::deque<LocalGroup::P2p>& LocalGroup::PartnerQueue(uint32_t rank, const HcclSendRecvItem& item) {
    if (item.sendRecvType == HCCL_SEND) return channels_[{rank, item.remoteRank}].recvs;
    return channels_[{item.remoteRank, rank}].sends;
}

void LocalGroup::GiveUpItem(uint32_t rank, const HcclSendRecvItem& item, HcclResult code,
                            const std::string& why, Finishing* out) {
    if (gone_[item.remoteRank]) return;  // nobody will come for it
    std::deque<P2p>& partners = PartnerQueue(rank, item);
    const std::string theirs = std::string("the matching ") +
                               (item.sendRecvType == HCCL_SEND ? "send" : "receive") + " of rank " +
                               std::to_string(rank) + " failed: " + why;
    if (partners.empty()) {
        OwnQueue(rank, item)
            .push_back({nullptr, item.buf, item.count, item.dataType, 0, code, theirs});
        return;
    }
    P2p partner = std::move(partners.front());
    partners.pop_front();
    if (partner.owner != nullptr) FailP2p(partner.owner, code, theirs, out);
    // Two failed items meet: both are spent.
}

void LocalGroup::FailItems(PendingOp* owner, HcclResult code, const std::string& why) {
    for (auto& [pair, channel] : channels_) {
        for (std::deque<P2p>* queue : {&channel.sends, &channel.recvs}) {
            for (P2p& p : *queue) {
                if (p.owner != owner) continue;
                p.owner = nullptr;
                p.deadline = 0;
                p.code = code;
                p.why = (queue == &channel.sends
                             ? "the matching send of rank " + std::to_string(pair.first)
                             : "the matching receive of rank " + std::to_string(pair.second)) +
                        " failed: " + why;
            }
        }
    }
}

void LocalGroup::FailP2p(PendingOp* owner, HcclResult code, const std::string& why,
                         Finishing* out) {
    auto it = p2p_.find(owner);
    if (it == p2p_.end() || it->second.failed) return;
    P2pOp& state = it->second;
    if (state.unmatched > 0) FailItems(owner, code, why);
    state.unmatched = 0;
    state.failed = true;
    state.code = code;
    state.why = why;
    HcclResult result = HCCL_SUCCESS;
    std::string reason;
    if (SettleP2p(owner, &result, &reason)) out->ops.push_back({owner, {result, reason}});
}

bool LocalGroup::SettleP2p(PendingOp* owner, HcclResult* code, std::string* why) {
    auto it = p2p_.find(owner);
    if (it == p2p_.end() || it->second.unmatched > 0 || it->second.copying > 0) return false;
    *code = it->second.failed ? it->second.code : HCCL_SUCCESS;
    *why = std::move(it->second.why);
    p2p_.erase(it);
    return true;
}

Transport::Outcome LocalGroup::ArriveP2p(uint32_t rank, PendingOp* op) {
    const std::vector<HcclSendRecvItem> items = ItemsOf(op->op);
    HcclResult failure = HCCL_SUCCESS;
    std::string failure_why = LostBuffer(op->op);
    if (!failure_why.empty()) {
        failure = HCCL_E_MEMORY;
        failure_why = "rank " + std::to_string(rank) + ": " + failure_why;
    }
    std::unique_lock lock(mutex_);
    Finishing finishing;
    const int64_t deadline = timeout_ms_ > 0 ? NowMs() + timeout_ms_ : 0;
    P2pOp& mine = p2p_[op];
    // Copies between this op and partners that were waiting, made once the lock is released.
    struct Copy {
        void* dst;
        const void* src;
        size_t bytes;
        PendingOp* partner;
    };
    std::vector<Copy> copies;
    size_t next = 0;  // the first item not dealt with
    for (; failure == HCCL_SUCCESS && next < items.size(); ++next) {
        const HcclSendRecvItem& item = items[next];
        const bool send = item.sendRecvType == HCCL_SEND;
        const uint32_t peer = item.remoteRank;
        if (gone_[peer]) {
            failure = HCCL_E_REMOTE;
            failure_why = "rank " + std::to_string(peer) + " destroyed its communicator";
            break;
        }
        std::deque<P2p>& partners = PartnerQueue(rank, item);
        if (partners.empty()) {
            OwnQueue(rank, item)
                .push_back({op, item.buf, item.count, item.dataType, deadline, HCCL_SUCCESS, {}});
            ++mine.unmatched;
            continue;
        }
        P2p partner = std::move(partners.front());
        partners.pop_front();
        if (partner.owner == nullptr) {  // its op failed or was discarded
            failure = partner.code;
            failure_why = std::move(partner.why);
            ++next;
            break;
        }
        // The partner waited: its buffers may have been freed meanwhile.
        if (std::string lost = LostBuffer(partner.owner->op); !lost.empty()) {
            failure = HCCL_E_MEMORY;
            failure_why = "rank " + std::to_string(peer) + ": " + lost;
            FailP2p(partner.owner, failure, failure_why, &finishing);
            ++next;
            break;
        }
        if (partner.count != item.count || partner.type != item.dataType) {
            const std::string ours = std::to_string(item.count) + " " + DataTypeName(item.dataType);
            const std::string theirs =
                std::to_string(partner.count) + " " + DataTypeName(partner.type);
            failure = HCCL_E_PARA;
            failure_why = send ? "rank " + std::to_string(rank) + " sends " + ours + " to rank " +
                                     std::to_string(peer) + ", which receives " + theirs
                               : "rank " + std::to_string(peer) + " sends " + theirs + " to rank " +
                                     std::to_string(rank) + ", which receives " + ours;
            FailP2p(partner.owner, failure, failure_why, &finishing);
            ++next;
            break;
        }
        const size_t bytes = item.count * DataTypeSize(item.dataType);
        copies.push_back(send ? Copy{partner.buf, item.buf, bytes, partner.owner}
                              : Copy{item.buf, partner.buf, bytes, partner.owner});
        P2pOp& theirs = p2p_[partner.owner];
        --theirs.unmatched;
        ++theirs.copying;
        ++mine.copying;
    }
    if (failure != HCCL_SUCCESS) {
        // The op fails, but each of its items still takes its place opposite its peer's, so the
        // peers' later sends and receives pair as they were issued: the ones already queued
        // stay, failed, and the ones not reached are given up. Partners already matched with
        // this op get their data: their side is sound.
        if (mine.unmatched > 0) FailItems(op, failure, failure_why);
        mine.unmatched = 0;
        mine.failed = true;
        mine.code = failure;
        mine.why = failure_why;
        for (; next < items.size(); ++next)
            GiveUpItem(rank, items[next], failure, failure_why, &finishing);
    } else if (mine.unmatched > 0 && deadline != 0) {
        Watch(deadline);
    }
    HcclResult result = HCCL_SUCCESS;
    std::string why;
    if (copies.empty()) {
        // Nothing to move: the op is done now, or waits for partners to come.
        if (!SettleP2p(op, &result, &why)) {
            if (finishing.ops.empty()) return Transport::Outcome::kPending;
            ++busy_;
            lock.unlock();
            FinishOutsideLock(finishing);
            return Transport::Outcome::kPending;
        }
    } else {
        ++busy_;
        lock.unlock();
        for (const Copy& copy : copies) {
            CopyBytes(static_cast<char*>(copy.dst), static_cast<const char*>(copy.src), copy.bytes);
        }
        lock.lock();
        --busy_;
        P2pOp& ours = p2p_.at(op);  // only this task settles or withdraws it meanwhile
        for (const Copy& copy : copies) {
            --ours.copying;
            // A partner withdrawn meanwhile (its stream destroyed) is forgotten already; it
            // waits for busy_ before it goes.
            if (auto it = p2p_.find(copy.partner); it != p2p_.end()) --it->second.copying;
        }
        // Partners whose last copy this was are done. (Several copies may share a partner.)
        for (const Copy& copy : copies) {
            HcclResult code = HCCL_SUCCESS;
            std::string reason;
            if (SettleP2p(copy.partner, &code, &reason))
                finishing.ops.push_back({copy.partner, {code, std::move(reason)}});
        }
        const bool done = SettleP2p(op, &result, &why);
        if (!finishing.ops.empty()) {
            ++busy_;
            lock.unlock();
            FinishOutsideLock(finishing);
        } else if (busy_ == 0) {
            settled_.notify_all();
        }
        if (!done) return Transport::Outcome::kPending;
        op->result = result;
        op->message = std::move(why);
        return Transport::Outcome::kDone;
    }
    if (!finishing.ops.empty()) {
        ++busy_;
        lock.unlock();
        FinishOutsideLock(finishing);
    }
    op->result = result;
    op->message = std::move(why);
    return Transport::Outcome::kDone;
}

void LocalGroup::Withdraw(uint32_t rank, PendingOp* op) {
    const bool started = op->state.load(std::memory_order_acquire) != PendingOp::kNew;
    if (!started && Collective(op->op.kind)) {
        GiveUpRound(rank, op);
        return;
    }
    std::unique_lock lock(mutex_);
    Finishing finishing;
    if (!started) {  // a send or receive that never ran: its items give up their places
        const std::string why =
            "rank " + std::to_string(rank) + "'s " + CollName(op->op.kind) +
            " was discarded before it ran (its stream was destroyed, or stopped after an "
            "earlier failure)";
        for (const HcclSendRecvItem& item : ItemsOf(op->op))
            GiveUpItem(rank, item, HCCL_E_REMOTE, why, &finishing);
    }
    for (auto it = rounds_.begin(); started && it != rounds_.end(); ++it) {
        Round& round = it->second;
        if (round.ops[rank] != op) continue;
        round.ops[rank] = nullptr;
        --round.arrived;
        ++round.passed;
        FailRound(round, HCCL_E_REMOTE,
                  "rank " + std::to_string(rank) + "'s stream was destroyed while its " +
                      CollName(op->op.kind) + " waited for the other ranks",
                  &finishing);
        if (round.passed == size_) rounds_.erase(it);
        break;
    }
    if (auto it = p2p_.find(op); started && it != p2p_.end()) {
        // Copies other ranks still make to or from its buffers end before this returns
        // (busy_); the op is forgotten now.
        if (it->second.unmatched > 0) {
            FailItems(op, HCCL_E_REMOTE,
                      "rank " + std::to_string(rank) + "'s stream was destroyed while its " +
                          CollName(op->op.kind) + " waited");
        }
        p2p_.erase(it);
    }
    if (!finishing.ops.empty()) {
        ++busy_;
        lock.unlock();
        FinishOutsideLock(finishing);
        lock.lock();
    }
    // A rank moving data for this op, or finishing it, may still touch it.
    settled_.wait(lock, [this] { return busy_ == 0; });
}

void LocalGroup::Leave(uint32_t rank) {
    std::unique_lock lock(mutex_);
    gone_[rank] = 1;
    Finishing finishing;
    for (auto it = rounds_.begin(); it != rounds_.end();) {
        Round& round = it->second;
        if (!round.failed && round.ops[rank] == nullptr) {
            FailRound(round, HCCL_E_REMOTE,
                      "rank " + std::to_string(rank) +
                          " destroyed its communicator before it issued collective #" +
                          std::to_string(it->first),
                      &finishing);
        }
        ++it;
    }
    // Sends and receives waiting for the rank that left.
    const std::string why = "rank " + std::to_string(rank) +
                            " destroyed its communicator while a send or receive with it waited";
    std::vector<PendingOp*> waiting;
    for (auto& [pair, channel] : channels_) {
        if (pair.first != rank && pair.second != rank) continue;
        for (std::deque<P2p>* queue : {&channel.sends, &channel.recvs}) {
            for (const P2p& p : *queue) {
                if (p.owner != nullptr) waiting.push_back(p.owner);
            }
        }
    }
    for (PendingOp* owner : waiting)
        FailP2p(owner, HCCL_E_REMOTE, why, &finishing);
    if (finishing.ops.empty()) return;
    ++busy_;
    lock.unlock();
    FinishOutsideLock(finishing);
}

int64_t LocalGroup::Expire(int64_t now) {
    std::unique_lock lock(mutex_);
    Finishing finishing;
    int64_t next = 0;
    auto later = [&next](int64_t deadline) {
        if (deadline != 0 && (next == 0 || deadline < next)) next = deadline;
    };
    char limit[64];
    std::snprintf(limit, sizeof limit, "%g s", static_cast<double>(timeout_ms_) / 1000.0);
    for (auto& [seq, round] : rounds_) {
        if (round.failed || round.deadline == 0) continue;
        if (round.deadline > now) {
            later(round.deadline);
            continue;
        }
        std::vector<uint32_t> missing;
        const PendingOp* someone = nullptr;
        for (uint32_t r = 0; r < size_; ++r) {
            if (round.ops[r] == nullptr) {
                missing.push_back(r);
            } else {
                someone = round.ops[r];
            }
        }
        FailRound(round, HCCL_E_TIMEOUT,
                  std::string(missing.size() == 1 ? "rank " : "ranks ") + RankList(missing) +
                      " did not issue collective #" + std::to_string(seq) + " (" +
                      (someone ? CollName(someone->op.kind) : "?") +
                      ") within the execution timeout of " + limit +
                      " (HCCL_EXEC_TIMEOUT or hcclExecTimeOut)",
                  &finishing);
    }
    std::vector<std::pair<PendingOp*, std::string>> overdue;
    for (auto& [pair, channel] : channels_) {
        for (std::deque<P2p>* queue : {&channel.sends, &channel.recvs}) {
            const bool sends = queue == &channel.sends;
            for (const P2p& p : *queue) {
                if (p.owner == nullptr || p.deadline == 0) continue;
                if (p.deadline > now) {
                    later(p.deadline);
                    continue;
                }
                overdue.push_back(
                    {p.owner, sends
                                  ? "rank " + std::to_string(pair.second) +
                                        " did not receive what rank " + std::to_string(pair.first) +
                                        " sent within the execution timeout of " + limit
                                  : "rank " + std::to_string(pair.first) +
                                        " did not send what rank " + std::to_string(pair.second) +
                                        " receives within the execution timeout of " + limit});
            }
        }
    }
    for (auto& [owner, why] : overdue)
        FailP2p(owner, HCCL_E_TIMEOUT, why, &finishing);
    watched_ = next != 0;  // the watchdog waits for `next` when it is not 0
    if (!finishing.ops.empty()) {
        ++busy_;
        lock.unlock();
        FinishOutsideLock(finishing);
    }
    return next;
}

namespace {

class LocalTransport final : public Transport {
 public:
    LocalTransport(std::shared_ptr<LocalGroup> group, uint32_t rank)
        : group_(std::move(group)), rank_(rank) {}

    Outcome Start(PendingOp* op) override { return group_->Arrive(rank_, op); }
    void Withdraw(PendingOp* op) override { group_->Withdraw(rank_, op); }
    void Leave() override { group_->Leave(rank_); }
    const char* name() const override { return "shared memory"; }

 private:
    std::shared_ptr<LocalGroup> group_;
    uint32_t rank_;
};

}  // namespace

std::shared_ptr<LocalGroup> MakeLocalGroup(uint32_t size, int64_t exec_timeout_ms) {
    return std::make_shared<LocalGroup>(size, exec_timeout_ms);
}

std::unique_ptr<Transport> MakeLocalTransport(std::shared_ptr<LocalGroup> group, uint32_t rank) {
    return std::make_unique<LocalTransport>(std::move(group), rank);
}

}  // namespace openacl::hccl
