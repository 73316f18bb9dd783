// The Gloo transport (hccl/gloo_transport.h).
#include "hccl/gloo_transport.h"

#include <dirent.h>
#include <fcntl.h>
#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/alltoall.h>
#include <gloo/broadcast.h>
#include <gloo/common/error.h>
#include <gloo/reduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/scatter.h>
#include <gloo/transport/tcp/attr.h>
#include <gloo/transport/tcp/device.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "core/log.h"
#include "hccl/data_type.h"
#include "hccl/socket.h"

namespace openacl::hccl {
namespace {

using Millis = std::chrono::milliseconds;

// Slots of the transfers this file makes itself. Gloo's collectives use prefixes 0x01..0x08
// in the top byte; ours start at 0x41, so the two never meet.
constexpr uint8_t kHeaderSlot = 0x41;   // collective headers
constexpr uint8_t kP2pSendSlot = 0x42;  // a send's header, sender to receiver
constexpr uint8_t kP2pRecvSlot = 0x43;  // a receive's header, receiver to sender
constexpr uint8_t kP2pDataSlot = 0x44;  // sends' data
constexpr uint8_t kBlocksSlot = 0x45;   // blocks of AllGatherV, AlltoAllV, ReduceScatter[V]
constexpr uint8_t kShareSlot = 0x46;    // GlooShare

uint64_t Slot(uint8_t prefix, uint64_t tag) {
    return (static_cast<uint64_t>(prefix) << 56) | (tag & 0x00ffffffffffffffull);
}

// Gloo's collectives are templates on the element type; only its size matters to them.
template <size_t N>
struct Elem {
    unsigned char bytes[N];
};

template <typename F>
void ForElementSize(size_t size, F&& f) {
    switch (size) {
        case 1:
            f(Elem<1>{});
            return;
        case 2:
            f(Elem<2>{});
            return;
        case 4:
            f(Elem<4>{});
            return;
        case 8:
            f(Elem<8>{});
            return;
        case 16:
            f(Elem<16>{});
            return;
        default:
            throw std::logic_error("element size " + std::to_string(size));
    }
}

// The process's open sockets, as (descriptor, "socket:[inode]"): numbers are reused, inodes
// tell a new socket from an old one. Read from /proc/self/fd's links, which touches no other
// thread's descriptor.
std::vector<std::pair<int, std::string>> Sockets() {
    std::vector<std::pair<int, std::string>> sockets;
    DIR* dir = opendir("/proc/self/fd");
    if (dir == nullptr) return sockets;
    while (const dirent* entry = readdir(dir)) {
        char* end = nullptr;
        const long fd = std::strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end != '\0') continue;
        char target[64] = {};
        const std::string link = std::string("/proc/self/fd/") + entry->d_name;
        const ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
        if (n > 7 && std::strncmp(target, "socket:", 7) == 0)
            sockets.emplace_back(static_cast<int>(fd), std::string(target, static_cast<size_t>(n)));
    }
    closedir(dir);
    std::sort(sockets.begin(), sockets.end());
    return sockets;
}

// Gloo opens its sockets without close-on-exec: a child the program starts later would hold
// the connections open, and the peers would not see this process go. Marks the sockets that
// appeared since `before` (Gloo's, once connectFullMesh returned) close-on-exec.
void CloseOnExecSince(const std::vector<std::pair<int, std::string>>& before) {
    for (const auto& socket : Sockets()) {
        if (std::binary_search(before.begin(), before.end(), socket)) continue;
        const int flags = fcntl(socket.first, F_GETFD);
        if (flags >= 0 && (flags & FD_CLOEXEC) == 0)
            fcntl(socket.first, F_SETFD, flags | FD_CLOEXEC);
    }
}

class StoreAdapter final : public gloo::rendezvous::Store {
 public:
    StoreAdapter(KvStore& store, int64_t timeout_ms) : store_(store), timeout_ms_(timeout_ms) {}
    void set(const std::string& key, const std::vector<char>& data) override {
        store_.Set(key, data);
    }
    std::vector<char> get(const std::string& key) override { return store_.Get(key, timeout_ms_); }
    void wait(const std::vector<std::string>& keys) override { store_.Wait(keys, timeout_ms_); }
    void wait(const std::vector<std::string>& keys, const Millis& timeout) override {
        store_.Wait(keys, std::max<int64_t>(timeout.count(), timeout_ms_));
    }

 private:
    KvStore& store_;
    int64_t timeout_ms_;
};

// What every rank says about a collective before data moves: a fixed part, then for the V
// forms one count per rank sent and one per rank received.
struct HeaderFixed {
    uint32_t magic;
    uint32_t kind;
    uint64_t seq;
    uint32_t type;
    uint32_t op;
    uint32_t root;
    uint32_t reserved;
    uint64_t count;
};
constexpr uint32_t kHeaderMagic = 0x4f41434c;  // "OACL"

struct Header {
    HeaderFixed fixed;
    const uint64_t* send_counts;
    const uint64_t* recv_counts;
};

bool VForm(CollKind kind) {
    return kind == CollKind::kAllGatherV || kind == CollKind::kReduceScatterV ||
           kind == CollKind::kAlltoAllV;
}

std::string R(uint32_t rank) {
    return "rank " + std::to_string(rank);
}

// The same verdict on every rank: empty when the ranks agree, else why not (naming ranks).
std::string Verdict(const std::vector<Header>& h) {
    const uint32_t n = static_cast<uint32_t>(h.size());
    const HeaderFixed& first = h[0].fixed;
    const auto kind = static_cast<CollKind>(first.kind);
    for (uint32_t r = 0; r < n; ++r) {
        const HeaderFixed& f = h[r].fixed;
        if (f.magic != kHeaderMagic) return R(r) + " sent a malformed collective header";
        if (f.seq != first.seq) {
            return R(r) + " is at collective #" + std::to_string(f.seq) + " but rank 0 at #" +
                   std::to_string(first.seq) + ": the ranks' collectives went out of step";
        }
    }
    for (uint32_t r = 1; r < n; ++r) {
        const HeaderFixed& f = h[r].fixed;
        auto says = [&](const char* what, const std::string& mine, const std::string& theirs) {
            return R(r) + " passed " + what + " " + mine + " but rank 0 passed " + theirs +
                   ": every rank must pass the same " + what;
        };
        if (f.kind != first.kind) {
            return R(r) + " issued " + CollName(static_cast<CollKind>(f.kind)) +
                   " where rank 0 issued " + CollName(kind) +
                   ": every rank must issue the same collectives in the same order";
        }
        if (kind == CollKind::kBarrier) continue;
        if (f.type != first.type) {
            return says("data type", DataTypeName(static_cast<HcclDataType>(f.type)),
                        DataTypeName(static_cast<HcclDataType>(first.type)));
        }
        if (!VForm(kind) && f.count != first.count)
            return says("count", std::to_string(f.count), std::to_string(first.count));
        const bool reduces = kind == CollKind::kAllReduce || kind == CollKind::kReduce ||
                             kind == CollKind::kReduceScatter || kind == CollKind::kReduceScatterV;
        if (reduces && f.op != first.op) {
            return says("reduce operation", ReduceOpName(static_cast<HcclReduceOp>(f.op)),
                        ReduceOpName(static_cast<HcclReduceOp>(first.op)));
        }
        const bool rooted =
            kind == CollKind::kBroadcast || kind == CollKind::kReduce || kind == CollKind::kScatter;
        if (rooted && f.root != first.root)
            return says("root", std::to_string(f.root), std::to_string(first.root));
    }
    for (uint32_t s = 0; s < n && VForm(kind); ++s) {
        for (uint32_t d = 0; d < n; ++d) {
            if (kind == CollKind::kAllGatherV && h[d].recv_counts[s] != h[s].fixed.count) {
                return R(d) + " expects " + std::to_string(h[d].recv_counts[s]) +
                       " elements from rank " + std::to_string(s) + " (recvCounts[" +
                       std::to_string(s) + "]), which sends " + std::to_string(h[s].fixed.count) +
                       " (sendCount)";
            }
            if (kind == CollKind::kReduceScatterV && h[s].send_counts[d] != h[d].fixed.count) {
                return R(s) + " sends " + std::to_string(h[s].send_counts[d]) +
                       " elements to rank " + std::to_string(d) + " (sendCounts[" +
                       std::to_string(d) + "]), which receives " +
                       std::to_string(h[d].fixed.count) + " (recvCount)";
            }
            if (kind == CollKind::kAlltoAllV && h[s].send_counts[d] != h[d].recv_counts[s]) {
                return R(s) + " sends " + std::to_string(h[s].send_counts[d]) +
                       " elements to rank " + std::to_string(d) + ", which expects " +
                       std::to_string(h[d].recv_counts[s]) + " from it";
            }
        }
    }
    return {};
}

struct P2pHeader {
    uint32_t magic;
    uint32_t kind;  // HCCL_SEND or HCCL_RECV
    uint64_t count;
    uint32_t type;
    uint32_t reserved;
};

std::string Amount(uint64_t count, uint32_t type) {
    return std::to_string(count) + " " + DataTypeName(static_cast<HcclDataType>(type));
}

// A rank's operation failed for this reason; `code` is its HcclResult.
struct Failure {
    HcclResult code;
    std::string why;
};

// Thrown out of a wait this rank's own abort cut short.
struct Aborted {};

class GlooTransport final : public Transport {
 public:
    GlooTransport(const GlooSetup& setup, std::shared_ptr<gloo::transport::Device> device,
                  std::shared_ptr<gloo::rendezvous::Context> context)
        : rank_(setup.rank),
          size_(setup.size),
          exec_timeout_ms_(setup.exec_timeout_ms),
          device_(std::move(device)),
          context_(std::move(context)) {
        engine_ = std::thread([this] { Main(); });
    }
    ~GlooTransport() override { Leave(); }

    Outcome Start(PendingOp* op) override;
    void Withdraw(PendingOp* op) override;
    void Leave() override;
    const char* name() const override { return "Gloo over TCP"; }

    HcclResult Share(uint32_t from, const std::vector<uint32_t>& members, uint64_t tag, void* blob,
                     size_t size, int64_t timeout_ms, std::string* why);

 private:
    // Waits on buffers of this file's own transfers, which Abort can cut short. These are the
    // only waits that can last: one for a rank that has not issued the operation yet. Once the
    // headers are in, every rank is inside the operation, and Gloo's calls end when it ends or
    // when a connection fails.
    class Abortable {
     public:
        Abortable(GlooTransport& t, gloo::transport::UnboundBuffer* buffer);
        ~Abortable();
        // The rank a receive came from.
        int Recv();
        void Send();

     private:
        GlooTransport& t_;
        gloo::transport::UnboundBuffer* buffer_;
    };

    void Main();
    // Runs one op on the engine thread; throws gloo's exceptions and Aborted.
    Failure Run(PendingOp* op);
    Failure RunP2p(const CollOp& op);
    std::string ExchangeHeaders(const PendingOp& p);
    // Moves blocks between every pair of ranks (see the .h).
    void Blocks(const char* send, const std::vector<size_t>& send_off,
                const std::vector<size_t>& send_len, char* recv,
                const std::vector<size_t>& recv_off, const std::vector<size_t>& recv_len,
                uint64_t tag);
    Failure FromIoError(const std::string& what);
    // Marks the communicator broken (the first reason wins), cuts this rank's waits short and
    // has the engine close every connection, so the peers fail at once. mutex_ held.
    void BreakLocked(HcclResult code, const std::string& why);
    Millis Timeout() const {
        return exec_timeout_ms_ > 0 ? Millis(exec_timeout_ms_) : Millis(int64_t{365} * 86400000);
    }

    const uint32_t rank_;
    const uint32_t size_;
    const int64_t exec_timeout_ms_;
    std::shared_ptr<gloo::transport::Device> device_;
    std::shared_ptr<gloo::rendezvous::Context> context_;

    std::mutex mutex_;
    std::condition_variable wake_;    // the engine: work, closing or stopping
    std::condition_variable settle_;  // Withdraw: the engine let go of an op
    std::deque<PendingOp*> queue_;
    PendingOp* running_ = nullptr;  // taken by the engine, not finished yet
    bool withdrawn_ = false;        // running_ was withdrawn: drop it instead of finishing it
    bool stopping_ = false;
    bool left_ = false;
    bool closed_ = false;  // the connections are closed
    HcclResult broken_ = HCCL_SUCCESS;
    std::string broken_why_;
    std::vector<gloo::transport::UnboundBuffer*> waiting_;  // Abortable waits in progress
    std::string waiting_for_;  // the ranks the engine's current header exchange misses
    std::thread engine_;
};

GlooTransport::Abortable::Abortable(GlooTransport& t, gloo::transport::UnboundBuffer* buffer)
    : t_(t), buffer_(buffer) {
    std::lock_guard lock(t_.mutex_);
    if (t_.broken_ != HCCL_SUCCESS) throw Aborted{};
    t_.waiting_.push_back(buffer_);
}

GlooTransport::Abortable::~Abortable() {
    std::lock_guard lock(t_.mutex_);
    t_.waiting_.erase(std::find(t_.waiting_.begin(), t_.waiting_.end(), buffer_));
}

int GlooTransport::Abortable::Recv() {
    int from = -1;
    if (!buffer_->waitRecv(&from, t_.Timeout())) throw Aborted{};
    return from;
}

void GlooTransport::Abortable::Send() {
    if (!buffer_->waitSend(t_.Timeout())) throw Aborted{};
}

void GlooTransport::BreakLocked(HcclResult code, const std::string& why) {
    if (broken_ != HCCL_SUCCESS) return;
    broken_ = code;
    broken_why_ = why;
    for (gloo::transport::UnboundBuffer* buffer : waiting_) {
        buffer->abortWaitRecv();
        buffer->abortWaitSend();
    }
    wake_.notify_all();  // the engine closes the connections
}

Transport::Outcome GlooTransport::Start(PendingOp* op) {
    std::lock_guard lock(mutex_);
    if (broken_ != HCCL_SUCCESS) {
        op->result = broken_;
        op->message = broken_why_;
        return Outcome::kDone;
    }
    queue_.push_back(op);
    wake_.notify_one();
    return Outcome::kPending;
}

void GlooTransport::Main() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] {
            return stopping_ || !queue_.empty() || (broken_ != HCCL_SUCCESS && !closed_);
        });
        if (broken_ != HCCL_SUCCESS && !closed_) {
            // Peers waiting for this rank fail now (their reads see the connection reset)
            // rather than at their execution timeout.
            closed_ = true;
            lock.unlock();
            context_->closeConnections();
            lock.lock();
            continue;
        }
        if (queue_.empty()) return;  // stopping
        PendingOp* op = queue_.front();
        queue_.pop_front();
        running_ = op;
        Failure outcome{broken_, broken_why_};
        if (broken_ == HCCL_SUCCESS) {
            lock.unlock();
            bool breaks = false;
            try {
                outcome = Run(op);
            } catch (const Aborted&) {
                breaks = true;  // broken_ says why
            } catch (const gloo::IoException& e) {
                outcome = FromIoError(e.what());
                breaks = true;
            } catch (const std::exception& e) {
                outcome = {HCCL_E_INTERNAL, std::string("Gloo failed: ") + e.what()};
                breaks = true;
            }
            lock.lock();
            if (breaks) {
                BreakLocked(outcome.code, outcome.why);
                outcome = {broken_, broken_why_};
            }
        }
        if (withdrawn_) {
            withdrawn_ = false;
            running_ = nullptr;
            settle_.notify_all();
            continue;
        }
        lock.unlock();
        op->Finish(outcome.code, std::move(outcome.why));
        lock.lock();
        running_ = nullptr;
        settle_.notify_all();
    }
}

void GlooTransport::Withdraw(PendingOp* op) {
    std::unique_lock lock(mutex_);
    // Its peers wait for it, and the order of the rank's operations is lost: the communicator
    // cannot go on.
    const std::string why = "rank " + std::to_string(rank_) + "'s stream was destroyed while its " +
                            CollName(op->op.kind) + " was in progress";
    auto it = std::find(queue_.begin(), queue_.end(), op);
    if (it != queue_.end()) {
        queue_.erase(it);
        BreakLocked(HCCL_E_REMOTE, why);
        return;
    }
    if (running_ != op) return;  // finished meanwhile
    withdrawn_ = true;
    BreakLocked(HCCL_E_REMOTE, why);
    settle_.wait(lock, [&] { return running_ != op; });
}

void GlooTransport::Leave() {
    {
        std::lock_guard lock(mutex_);
        if (left_) return;
        left_ = true;
        stopping_ = true;
        if (running_ != nullptr) {
            BreakLocked(HCCL_E_REMOTE, "rank " + std::to_string(rank_) +
                                           " destroyed its communicator during an operation");
        }
        // What is still queued fails: the engine drains the queue before it stops. The
        // connections close gracefully below, not reset by the engine.
        if (broken_ == HCCL_SUCCESS) {
            broken_ = HCCL_E_REMOTE;
            broken_why_ = "rank " + std::to_string(rank_) + " destroyed its communicator";
            closed_ = true;
        }
        wake_.notify_all();
    }
    engine_.join();
    // The peers' pending and later operations with this rank fail at once (HCCL_E_REMOTE):
    // the connections close. Closing gracefully, they still deliver what was sent.
    context_.reset();
    device_.reset();
}

Failure GlooTransport::FromIoError(const std::string& what) {
    std::string missing;
    {
        std::lock_guard lock(mutex_);
        if (broken_ != HCCL_SUCCESS) return {broken_, broken_why_};  // our own abort
        missing = waiting_for_;
    }
    // Gloo's message begins with its source location in brackets.
    std::string text = what;
    if (!text.empty() && text[0] == '[') {
        const size_t end = text.find("] ");
        if (end != std::string::npos) text.erase(0, end + 2);
    }
    if (text.find("Timed out") != std::string::npos) {
        char limit[64];
        std::snprintf(limit, sizeof limit, "%g s", static_cast<double>(exec_timeout_ms_) / 1000.0);
        return {HCCL_E_TIMEOUT,
                (missing.empty()
                     ? std::string("the other ranks")
                     : (missing.find(',') == std::string::npos ? "rank " : "ranks ") + missing) +
                    " did not take part within the execution timeout of " + limit +
                    " (HCCL_EXEC_TIMEOUT or hcclExecTimeOut)"};
    }
    const bool gone = text.find("closed") != std::string::npos ||
                      text.find("reset") != std::string::npos ||
                      text.find("Connection") != std::string::npos;
    const std::string who =
        missing.empty()
            ? std::string("a peer")
            : (missing.find(',') == std::string::npos ? "rank " : "one of ranks ") + missing;
    return {gone ? HCCL_E_REMOTE : HCCL_E_TCP_TRANSFER,
            "the connection with " + who + " failed (" + text +
                "): a rank exited, destroyed its communicator or failed"};
}

std::string GlooTransport::ExchangeHeaders(const PendingOp& p) {
    const CollOp& op = p.op;
    const size_t n = size_;
    const size_t record = sizeof(HeaderFixed) + 2 * n * sizeof(uint64_t);
    std::vector<char> all(n * record, 0);
    HeaderFixed mine{};
    mine.magic = kHeaderMagic;
    mine.kind = static_cast<uint32_t>(op.kind);
    mine.seq = p.seq;
    mine.type = static_cast<uint32_t>(op.type);
    mine.op = static_cast<uint32_t>(op.op);
    mine.root = op.root;
    mine.count = op.count;
    char* own = all.data() + rank_ * record;
    std::memcpy(own, &mine, sizeof mine);
    auto put = [&](const std::vector<uint64_t>& counts, size_t at) {
        if (counts.size() == n) std::memcpy(own + at, counts.data(), n * sizeof(uint64_t));
    };
    put(op.kind == CollKind::kAllGatherV ? std::vector<uint64_t>{} : op.send_counts,
        sizeof(HeaderFixed));
    put(op.recv_counts, sizeof(HeaderFixed) + n * sizeof(uint64_t));
    if (n > 1) {
        auto buffer = context_->createUnboundBuffer(all.data(), all.size());
        const uint64_t slot = Slot(kHeaderSlot, 0);
        for (uint32_t peer = 0; peer < n; ++peer) {
            if (peer == rank_) continue;
            buffer->send(static_cast<int>(peer), slot, rank_ * record, record);
            buffer->recv(static_cast<int>(peer), slot, peer * record, record);
        }
        Abortable wait(*this, buffer.get());
        std::vector<uint8_t> heard(n, 0);
        heard[rank_] = 1;
        auto note_missing = [&] {
            std::string missing;
            for (uint32_t r = 0; r < n; ++r) {
                if (!heard[r]) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
            }
            std::lock_guard lock(mutex_);
            waiting_for_ = std::move(missing);
        };
        note_missing();
        // Receives first: they come in any order and say who is missing; a send completes
        // only once its peer is in too.
        for (size_t i = 1; i < n; ++i) {
            const int from = wait.Recv();
            if (from >= 0 && static_cast<uint32_t>(from) < n) heard[from] = 1;
            note_missing();
        }
        for (size_t i = 1; i < n; ++i)
            wait.Send();
    }
    std::vector<Header> headers(n);
    for (size_t r = 0; r < n; ++r) {
        const char* at = all.data() + r * record;
        std::memcpy(&headers[r].fixed, at, sizeof(HeaderFixed));
        headers[r].send_counts = reinterpret_cast<const uint64_t*>(at + sizeof(HeaderFixed));
        headers[r].recv_counts =
            reinterpret_cast<const uint64_t*>(at + sizeof(HeaderFixed) + n * sizeof(uint64_t));
    }
    return Verdict(headers);
}

void GlooTransport::Blocks(const char* send, const std::vector<size_t>& send_off,
                           const std::vector<size_t>& send_len, char* recv,
                           const std::vector<size_t>& recv_off, const std::vector<size_t>& recv_len,
                           uint64_t tag) {
    size_t send_extent = 0;
    size_t recv_extent = 0;
    for (uint32_t r = 0; r < size_; ++r) {
        if (send_len[r] != 0) send_extent = std::max(send_extent, send_off[r] + send_len[r]);
        if (recv_len[r] != 0) recv_extent = std::max(recv_extent, recv_off[r] + recv_len[r]);
    }
    if (send_len[rank_] != 0)
        std::memmove(recv + recv_off[rank_], send + send_off[rank_], send_len[rank_]);
    std::unique_ptr<gloo::transport::UnboundBuffer> out, in;
    if (send_extent != 0) out = context_->createUnboundBuffer(const_cast<char*>(send), send_extent);
    if (recv_extent != 0) in = context_->createUnboundBuffer(recv, recv_extent);
    const uint64_t slot = Slot(kBlocksSlot, tag);
    size_t sends = 0;
    size_t recvs = 0;
    for (uint32_t i = 1; i < size_; ++i) {
        const uint32_t to = (rank_ + i) % size_;
        const uint32_t from = (rank_ + size_ - i) % size_;
        if (send_len[to] != 0) {
            out->send(static_cast<int>(to), slot, send_off[to], send_len[to]);
            ++sends;
        }
        if (recv_len[from] != 0) {
            in->recv(static_cast<int>(from), slot, recv_off[from], recv_len[from]);
            ++recvs;
        }
    }
    for (size_t i = 0; i < sends; ++i)
        out->waitSend(Timeout());
    for (size_t i = 0; i < recvs; ++i)
        in->waitRecv(Timeout());
}

Failure GlooTransport::Run(PendingOp* p) {
    const CollOp& op = p->op;
    if (!Collective(op.kind)) return RunP2p(op);
    if (std::string why = ExchangeHeaders(*p); !why.empty()) return {HCCL_E_PARA, why};
    {
        std::lock_guard lock(mutex_);
        waiting_for_.clear();  // every rank is in: a failure now is a failed connection
    }
    const uint32_t n = size_;
    const size_t es = op.kind == CollKind::kBarrier ? 1 : DataTypeSize(op.type);
    const uint64_t count = op.count;
    const auto tag = static_cast<uint32_t>(p->seq);
    auto* send = static_cast<char*>(const_cast<void*>(op.send));
    auto* recv = static_cast<char*>(op.recv);
    const HcclDataType type = op.type;
    const HcclReduceOp reduce_op = op.op;
    auto reduce = [type, reduce_op](void* c, const void* a, const void* b, size_t elements) {
        ReducePair(type, reduce_op, c, a, b, elements);
    };
    switch (op.kind) {
        case CollKind::kBarrier:  // the headers were the barrier
            break;
        case CollKind::kAllReduce:
            if (count == 0) break;
            if (n == 1) {
                if (send != recv) std::memmove(recv, send, count * es);
                break;
            }
            ForElementSize(es, [&](auto e) {
                using T = decltype(e);
                gloo::AllreduceOptions o(context_);
                if (send != recv) o.setInput<T>(reinterpret_cast<T*>(send), count);
                o.setOutput<T>(reinterpret_cast<T*>(recv), count);
                o.setReduceFunction(reduce);
                o.setTag(tag);
                o.setTimeout(Timeout());
                gloo::allreduce(o);
            });
            break;
        case CollKind::kBroadcast:
            if (count == 0 || n == 1) break;
            ForElementSize(es, [&](auto e) {
                using T = decltype(e);
                gloo::BroadcastOptions o(context_);
                o.setOutput<T>(reinterpret_cast<T*>(recv), count);
                o.setRoot(static_cast<int>(op.root));
                o.setTag(tag);
                o.setTimeout(Timeout());
                gloo::broadcast(o);
            });
            break;
        case CollKind::kReduce: {
            if (count == 0) break;
            const bool root = rank_ == op.root;
            if (n == 1) {
                if (send != recv) std::memmove(recv, send, count * es);
                break;
            }
            // Gloo's ring uses an output buffer on every rank.
            std::vector<char> scratch(root ? 0 : count * es);
            char* out = root ? recv : scratch.data();
            ForElementSize(es, [&](auto e) {
                using T = decltype(e);
                gloo::ReduceOptions o(context_);
                if (send != out) o.setInput<T>(reinterpret_cast<T*>(send), count);
                o.setOutput<T>(reinterpret_cast<T*>(out), count);
                o.setRoot(static_cast<int>(op.root));
                o.setReduceFunction(reduce);
                o.setTag(tag);
                o.setTimeout(Timeout());
                gloo::reduce(o);
            });
            break;
        }
        case CollKind::kAllGather:
            if (count == 0) break;
            if (n == 1) {
                std::memmove(recv, send, count * es);
                break;
            }
            ForElementSize(es, [&](auto e) {
                using T = decltype(e);
                gloo::AllgatherOptions o(context_);
                o.setInput<T>(reinterpret_cast<T*>(send), count);
                o.setOutput<T>(reinterpret_cast<T*>(recv), count * n);
                o.setTag(tag);
                o.setTimeout(Timeout());
                gloo::allgather(o);
            });
            break;
        case CollKind::kScatter:
            if (count == 0) break;
            if (n == 1) {
                std::memmove(recv, send, count * es);
                break;
            }
            ForElementSize(es, [&](auto e) {
                using T = decltype(e);
                gloo::ScatterOptions o(context_);
                if (rank_ == op.root) {
                    std::vector<T*> blocks(n);
                    for (uint32_t d = 0; d < n; ++d)
                        blocks[d] = reinterpret_cast<T*>(send + d * count * es);
                    o.setInputs<T>(blocks, count);
                }
                o.setOutput<T>(reinterpret_cast<T*>(recv), count);
                o.setRoot(static_cast<int>(op.root));
                o.setTag(tag);
                o.setTimeout(Timeout());
                gloo::scatter(o);
            });
            break;
        case CollKind::kAlltoAll:
            if (count == 0) break;
            if (n == 1) {
                std::memmove(recv, send, count * es);
                break;
            }
            ForElementSize(es, [&](auto e) {
                using T = decltype(e);
                gloo::AlltoallOptions o(context_);
                o.setInput<T>(reinterpret_cast<T*>(send), count * n);
                o.setOutput<T>(reinterpret_cast<T*>(recv), count * n);
                o.setTag(tag);
                o.setTimeout(Timeout());
                gloo::alltoall(o);
            });
            break;
        case CollKind::kAllGatherV: {
            std::vector<size_t> send_off(n, 0), send_len(n, count * es), recv_off(n), recv_len(n);
            for (uint32_t r = 0; r < n; ++r) {
                recv_off[r] = op.recv_displs[r] * es;
                recv_len[r] = op.recv_counts[r] * es;
            }
            Blocks(send, send_off, send_len, recv, recv_off, recv_len, p->seq);
            break;
        }
        case CollKind::kAlltoAllV: {
            std::vector<size_t> send_off(n), send_len(n), recv_off(n), recv_len(n);
            for (uint32_t r = 0; r < n; ++r) {
                send_off[r] = op.send_displs[r] * es;
                send_len[r] = op.send_counts[r] * es;
                recv_off[r] = op.recv_displs[r] * es;
                recv_len[r] = op.recv_counts[r] * es;
            }
            Blocks(send, send_off, send_len, recv, recv_off, recv_len, p->seq);
            break;
        }
        case CollKind::kReduceScatter:
        case CollKind::kReduceScatterV: {
            if (count == 0 && op.kind == CollKind::kReduceScatter) break;
            const bool v = op.kind == CollKind::kReduceScatterV;
            // Every rank's block for this rank lands in `gathered`, then is reduced here.
            std::vector<char> gathered(std::max<size_t>(1, n * count * es));
            std::vector<size_t> send_off(n), send_len(n), recv_off(n), recv_len(n, count * es);
            for (uint32_t r = 0; r < n; ++r) {
                send_off[r] = (v ? op.send_displs[r] : r * count) * es;
                send_len[r] = (v ? op.send_counts[r] : count) * es;
                recv_off[r] = r * count * es;
            }
            Blocks(send, send_off, send_len, gathered.data(), recv_off, recv_len, p->seq);
            if (count == 0) break;
            std::vector<const void*> inputs(n);
            for (uint32_t r = 0; r < n; ++r)
                inputs[r] = gathered.data() + recv_off[r];
            ReduceMany(type, reduce_op, recv, inputs.data(), n, 0, count);
            break;
        }
        default:
            return {HCCL_E_INTERNAL, std::string(CollName(op.kind)) + " is not a collective"};
    }
    return {HCCL_SUCCESS, {}};
}

Failure GlooTransport::RunP2p(const CollOp& op) {
    std::vector<HcclSendRecvItem> items = op.items;
    if (op.kind != CollKind::kBatchSendRecv) {
        const bool send = op.kind == CollKind::kSend;
        items = {{send ? HCCL_SEND : HCCL_RECV, send ? const_cast<void*>(op.send) : op.recv,
                  op.count, op.type, op.root}};
    }
    const size_t m = items.size();
    if (m == 0) return {HCCL_SUCCESS, {}};
    std::vector<P2pHeader> mine(m), theirs(m);
    for (size_t i = 0; i < m; ++i) {
        mine[i] = {kHeaderMagic, static_cast<uint32_t>(items[i].sendRecvType), items[i].count,
                   static_cast<uint32_t>(items[i].dataType), 0};
    }
    const size_t hs = sizeof(P2pHeader);
    auto mine_buffer = context_->createUnboundBuffer(mine.data(), m * hs);
    auto theirs_buffer = context_->createUnboundBuffer(theirs.data(), m * hs);
    for (size_t i = 0; i < m; ++i) {
        const int peer = static_cast<int>(items[i].remoteRank);
        const bool send = items[i].sendRecvType == HCCL_SEND;
        mine_buffer->send(peer, Slot(send ? kP2pSendSlot : kP2pRecvSlot, 0), i * hs, hs);
        theirs_buffer->recv(peer, Slot(send ? kP2pRecvSlot : kP2pSendSlot, 0), i * hs, hs);
    }
    {
        std::string peers;
        for (const HcclSendRecvItem& item : items)
            peers += (peers.empty() ? "" : ", ") + std::to_string(item.remoteRank);
        std::lock_guard lock(mutex_);
        waiting_for_ = std::move(peers);
    }
    {
        Abortable sends(*this, mine_buffer.get());
        Abortable receives(*this, theirs_buffer.get());
        for (size_t i = 0; i < m; ++i)
            sends.Send();
        for (size_t i = 0; i < m; ++i)
            receives.Recv();
    }

    Failure result{HCCL_SUCCESS, {}};
    std::vector<std::unique_ptr<gloo::transport::UnboundBuffer>> data(m);
    for (size_t i = 0; i < m; ++i) {
        const HcclSendRecvItem& item = items[i];
        const P2pHeader& t = theirs[i];
        const bool send = item.sendRecvType == HCCL_SEND;
        const uint32_t peer = item.remoteRank;
        if (t.magic != kHeaderMagic || t.kind == mine[i].kind) {
            if (result.code == HCCL_SUCCESS)
                result = {HCCL_E_PARA, R(peer) + " sent a malformed send/receive header"};
            continue;
        }
        if (t.count != item.count || t.type != static_cast<uint32_t>(item.dataType)) {
            if (result.code == HCCL_SUCCESS) {
                const std::string me = Amount(item.count, item.dataType);
                const std::string other = Amount(t.count, t.type);
                result = {HCCL_E_PARA, send ? R(rank_) + " sends " + me + " to rank " +
                                                  std::to_string(peer) + ", which receives " + other
                                            : R(peer) + " sends " + other + " to rank " +
                                                  std::to_string(rank_) + ", which receives " + me};
            }
            continue;
        }
        const size_t bytes = item.count * DataTypeSize(item.dataType);
        if (bytes == 0) continue;
        data[i] = context_->createUnboundBuffer(item.buf, bytes);
        if (send) {
            data[i]->send(static_cast<int>(peer), Slot(kP2pDataSlot, 0));
        } else {
            data[i]->recv(static_cast<int>(peer), Slot(kP2pDataSlot, 0));
        }
    }
    for (size_t i = 0; i < m; ++i) {
        if (data[i] == nullptr) continue;
        if (items[i].sendRecvType == HCCL_SEND) {
            data[i]->waitSend(Timeout());
        } else {
            data[i]->waitRecv(Timeout());
        }
    }
    return result;
}

HcclResult GlooTransport::Share(uint32_t from, const std::vector<uint32_t>& members, uint64_t tag,
                                void* blob, size_t size, int64_t timeout_ms, std::string* why) {
    {
        std::lock_guard lock(mutex_);
        if (broken_ != HCCL_SUCCESS) {
            *why = "the parent communicator is broken: " + broken_why_;
            return broken_;
        }
    }
    const Millis timeout(std::max<int64_t>(1, timeout_ms));
    try {
        auto buffer = context_->createUnboundBuffer(blob, size);
        const uint64_t slot = Slot(kShareSlot, tag);
        if (rank_ == from) {
            size_t sends = 0;
            for (uint32_t m : members) {
                if (m == from) continue;
                buffer->send(static_cast<int>(m), slot);
                ++sends;
            }
            for (size_t i = 0; i < sends; ++i)
                buffer->waitSend(timeout);
        } else {
            buffer->recv(static_cast<int>(from), slot);
            buffer->waitRecv(timeout);
        }
    } catch (const gloo::IoException& e) {
        const Failure f = FromIoError(e.what());
        *why = f.why;
        return f.code;
    } catch (const std::exception& e) {
        *why = std::string("Gloo failed: ") + e.what();
        return HCCL_E_INTERNAL;
    }
    return HCCL_SUCCESS;
}

}  // namespace

HcclResult MakeGlooTransport(const GlooSetup& setup, KvStore& store,
                             std::unique_ptr<Transport>* out, std::string* why) {
    net::Address address;
    if (!net::ParseIp(setup.host_ip, 0, &address)) {
        *why = setup.host_ip + " is not an IP address";
        return HCCL_E_PARA;
    }
    const auto sockets_before = Sockets();
    try {
        gloo::transport::tcp::attr attr;
        // A numeric address: getaddrinfo parses it and never asks a name service.
        attr.hostname = setup.host_ip;
        attr.ai_family = address.family();
        auto device = gloo::transport::tcp::CreateDevice(attr);
        auto context = std::make_shared<gloo::rendezvous::Context>(static_cast<int>(setup.rank),
                                                                   static_cast<int>(setup.size));
        // Gloo waits five times this for a connection: the whole connect timeout in all.
        context->setTimeout(Millis(std::max<int64_t>(1000, setup.connect_timeout_ms / 5)));
        StoreAdapter adapter(store, setup.connect_timeout_ms);
        context->connectFullMesh(adapter, device);
        CloseOnExecSince(sockets_before);
        context->setTimeout(setup.exec_timeout_ms > 0 ? Millis(setup.exec_timeout_ms)
                                                      : Millis(int64_t{365} * 86400000));
        *out = std::make_unique<GlooTransport>(setup, std::move(device), std::move(context));
        return HCCL_SUCCESS;
    } catch (const StoreError& e) {
        *why = e.what();
        return e.code();
    } catch (const gloo::IoException& e) {
        *why = std::string("connecting rank ") + std::to_string(setup.rank) +
               " to the others through Gloo failed: " + e.what();
        return HCCL_E_TCP_CONNECT;
    } catch (const std::exception& e) {
        *why = std::string("Gloo could not set up rank ") + std::to_string(setup.rank) + " on " +
               setup.host_ip + ": " + e.what();
        return HCCL_E_NETWORK;
    }
}

bool IsGloo(const Transport& transport) {
    return dynamic_cast<const GlooTransport*>(&transport) != nullptr;
}

HcclResult GlooShare(Transport& parent, uint32_t from, const std::vector<uint32_t>& members,
                     uint64_t tag, void* blob, size_t size, int64_t timeout_ms, std::string* why) {
    auto* gloo = dynamic_cast<GlooTransport*>(&parent);
    if (gloo == nullptr) {
        *why = "the parent communicator does not use Gloo";
        return HCCL_E_INTERNAL;
    }
    return gloo->Share(from, members, tag, blob, size, timeout_ms, why);
}

}  // namespace openacl::hccl
