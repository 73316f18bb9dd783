// Communicator bootstrap (hccl/bootstrap.h).
#include "hccl/bootstrap.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "core/log.h"
#include "hccl/environment.h"
#include "hccl/gloo_transport.h"
#include "hccl/local_transport.h"
#include "hccl/rendezvous.h"
#include "hccl/socket.h"

namespace openacl::hccl {
namespace {

using net::NowMs;

// Bootstrap messages (each one frame; the first byte says which).
enum Message : uint8_t {
    kJoin = 1,  // rank -> root: identifier, nRanks, rank, device, process key, address
    kTable,     // root -> rank: every rank joined; nRanks, then each rank's address
    kLocal,     // root -> rank: you are in the root's process; join through memory (session key)
    kError,     // root -> rank: code, message
    kSet,       // rank -> root: key, value
    kGet,       // rank -> root: key; answered by kValue once the key exists
    kWait,      // rank -> root: keys; answered by an empty kValue once they all exist
    kValue,     // root -> rank: value
    kDone,      // rank -> root: this rank's Gloo context is connected
    kReady,     // root -> rank: every rank is connected; the communicator is formed
};

// How long a rank waits beyond HCCL_CONNECT_TIMEOUT for the root's verdict, which names the
// ranks that are missing (the root's clock started no later than the rank's).
constexpr int64_t kVerdictGraceMs = 3000;

enum class Phase : uint8_t { kJoining, kFormedLocal, kFormedNet, kFailed };

struct Member {
    bool joined = false;
    bool done = false;  // its Gloo context is connected
    int32_t device = -1;
    uint64_t process_key = 0;
    std::string host;
};

// A communicator being formed in this process: from HcclGetRootInfo (or the first rank of a
// sub-communicator) until its ranks have their transports.
struct Session {
    std::string key;         // in Sessions: "root:<serial>", "sub:<name>:<id>"
    std::string identifier;  // the communicator's identity (the default name)
    bool networked = false;  // has a listener and a service thread
    std::string host_ip;     // the listener's address: Gloo's address for this process' ranks

    std::mutex mutex;
    std::condition_variable changed;
    Phase phase = Phase::kJoining;
    uint32_t n = 0;  // set by the first rank to join
    std::vector<Member> members;
    uint32_t joined = 0;
    uint32_t done = 0;
    HcclResult code = HCCL_SUCCESS;
    std::string why;
    std::shared_ptr<LocalGroup> group;  // kFormedLocal
    int64_t exec_timeout_ms = 0;
    int64_t deadline_ms = 0;
    std::map<std::string, std::vector<char>> store;
    bool listening = false;  // the service's listener is open
    bool closed = false;     // the service thread ended (its descriptors are closed)
    net::Fd wake_write;      // the service thread's wake-up pipe; guarded by mutex

    // Wakes the service thread (call with mutex held).
    void WakeLocked() {
        if (!networked || closed || !wake_write.valid()) return;
        const char byte = 1;
        [[maybe_unused]] const ssize_t rc = ::write(wake_write.get(), &byte, 1);
    }
    void FailLocked(HcclResult failure, std::string reason) {
        if (phase == Phase::kFailed) return;
        phase = Phase::kFailed;
        code = failure;
        why = std::move(reason);
        changed.notify_all();
        WakeLocked();
    }
    bool AllLocal() const {
        for (const Member& m : members) {
            if (m.process_key != ProcessKey()) return false;
        }
        return true;
    }
    std::string Missing() const {
        std::string list;
        for (uint32_t r = 0; r < n; ++r) {
            if (!members[r].joined) list += (list.empty() ? "" : ", ") + std::to_string(r);
        }
        return list;
    }
};

struct Sessions {
    std::mutex mutex;
    uint64_t next = 1;
    std::map<std::string, std::shared_ptr<Session>> live;
    // Why recent communicators failed, for ranks of this process that come too late (the
    // last kFailedKept, oldest first).
    std::deque<std::pair<std::string, std::pair<HcclResult, std::string>>> failed;
};
constexpr size_t kFailedKept = 64;

Sessions& TheSessions() {
    static auto* sessions = new Sessions;
    return *sessions;
}

std::shared_ptr<Session> FindSession(const std::string& key, bool create) {
    Sessions& s = TheSessions();
    std::lock_guard lock(s.mutex);
    auto it = s.live.find(key);
    if (it != s.live.end()) return it->second;
    if (!create) return nullptr;
    auto session = std::make_shared<Session>();
    session->key = key;
    session->identifier = key;
    s.live.emplace(key, session);
    return session;
}

// Removes the session; `failure` (code, why) is kept for late joiners when it failed.
void EndSession(const Session& session,
                const std::pair<HcclResult, std::string>& failure = {HCCL_SUCCESS, {}}) {
    Sessions& s = TheSessions();
    std::lock_guard lock(s.mutex);
    auto it = s.live.find(session.key);
    if (it != s.live.end() && it->second.get() == &session) s.live.erase(it);
    if (failure.first != HCCL_SUCCESS) {
        s.failed.emplace_back(session.key, failure);
        if (s.failed.size() > kFailedKept) s.failed.pop_front();
    }
}

// Why the communicator `key` failed, if it did recently.
bool FailedSession(const std::string& key, std::pair<HcclResult, std::string>* failure) {
    Sessions& s = TheSessions();
    std::lock_guard lock(s.mutex);
    for (auto it = s.failed.rbegin(); it != s.failed.rend(); ++it) {
        if (it->first == key) {
            *failure = it->second;
            return true;
        }
    }
    return false;
}

std::string Seconds(int64_t ms) {
    char text[64];
    std::snprintf(text, sizeof text, "%g s", static_cast<double>(ms) / 1000.0);
    return text;
}

// Takes rank `rank` into the session (mutex held). Fails, leaving the session as it was, when
// the join contradicts the ranks already in.
HcclResult AdmitLocked(Session& s, uint32_t n, uint32_t rank, int32_t device, uint64_t process_key,
                       const std::string& host, std::string* why) {
    if (s.phase == Phase::kFailed) {
        *why = s.why;
        return s.code;
    }
    if (s.phase != Phase::kJoining) {
        *why = "every rank of communicator \"" + s.identifier +
               "\" has already joined: a root info serves one communicator (call "
               "HcclGetRootInfo again for another)";
        return HCCL_E_PARA;
    }
    if (s.n == 0) {
        s.n = n;
        s.members.assign(n, Member{});
    }
    if (n != s.n) {
        *why = "rank " + std::to_string(rank) + " joins with nRanks " + std::to_string(n) +
               " but another rank joined with " + std::to_string(s.n) +
               ": every rank must pass the same nRanks";
        return HCCL_E_PARA;
    }
    if (rank >= s.n) {
        *why = "rank " + std::to_string(rank) + " is out of range for " + std::to_string(s.n) +
               " ranks";
        return HCCL_E_PARA;
    }
    if (s.members[rank].joined) {
        *why = "rank " + std::to_string(rank) + " has already joined communicator \"" +
               s.identifier + "\" (from " + s.members[rank].host +
               "): every rank joins once, and two ranks never share a rank number";
        return HCCL_E_PARA;
    }
    for (uint32_t r = 0; r < s.n; ++r) {
        const Member& m = s.members[r];
        if (m.joined && m.process_key == process_key && m.device == device) {
            *why = "ranks " + std::to_string(r) + " and " + std::to_string(rank) +
                   " are both on device " + std::to_string(device) +
                   " of one process: a communicator has one rank per device (set another "
                   "device before joining)";
            return HCCL_E_PARA;
        }
    }
    Member& m = s.members[rank];
    m.joined = true;
    m.device = device;
    m.process_key = process_key;
    m.host = host;
    ++s.joined;
    // The root waits HCCL_CONNECT_TIMEOUT (as it reads now) after the latest join, not after
    // HcclGetRootInfo: a program may make the root info long before its ranks start.
    s.deadline_ms = NowMs() + ConnectTimeoutMs();
    return HCCL_SUCCESS;
}

// The last rank is in (mutex held): pick the transport.
void FormLocked(Session& s, int64_t exec_timeout_ms) {
    s.exec_timeout_ms = exec_timeout_ms;
    if (s.AllLocal()) {
        s.group = MakeLocalGroup(s.n, exec_timeout_ms);
        s.phase = Phase::kFormedLocal;
    } else {
        s.phase = Phase::kFormedNet;
    }
    s.changed.notify_all();
    s.WakeLocked();
}

// The store of a networked session, for ranks of the root's process.
class LocalStore final : public KvStore {
 public:
    explicit LocalStore(std::shared_ptr<Session> session) : s_(std::move(session)) {}

    void Set(const std::string& key, const std::vector<char>& value) override {
        std::lock_guard lock(s_->mutex);
        if (s_->phase == Phase::kFailed) throw StoreError(s_->code, s_->why);
        s_->store[key] = value;
        s_->changed.notify_all();
        s_->WakeLocked();
    }
    std::vector<char> Get(const std::string& key, int64_t timeout_ms) override {
        std::unique_lock lock(s_->mutex);
        Await(lock, {key}, timeout_ms);
        return s_->store[key];
    }
    void Wait(const std::vector<std::string>& keys, int64_t timeout_ms) override {
        std::unique_lock lock(s_->mutex);
        Await(lock, keys, timeout_ms);
    }

 private:
    void Await(std::unique_lock<std::mutex>& lock, const std::vector<std::string>& keys,
               int64_t timeout_ms) {
        auto present = [&] {
            for (const std::string& k : keys) {
                if (s_->store.count(k) == 0) return false;
            }
            return true;
        };
        const bool ok = s_->changed.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] {
            return s_->phase == Phase::kFailed || present();
        });
        if (s_->phase == Phase::kFailed) throw StoreError(s_->code, s_->why);
        if (!ok) {
            throw StoreError(HCCL_E_TIMEOUT,
                             "the ranks did not all publish their Gloo addresses "
                             "within " +
                                 Seconds(timeout_ms) + " (HCCL_CONNECT_TIMEOUT)");
        }
    }
    std::shared_ptr<Session> s_;
};

// The store over a rank's bootstrap connection to the root.
class RemoteStore final : public KvStore {
 public:
    explicit RemoteStore(int fd) : fd_(fd) {}

    void Set(const std::string& key, const std::vector<char>& value) override {
        Send(net::Writer().U8(kSet).Str(key).Bytes(value.data(), value.size()).take(),
             NowMs() + ConnectTimeoutMs());
    }
    std::vector<char> Get(const std::string& key, int64_t timeout_ms) override {
        const int64_t deadline = NowMs() + timeout_ms;
        Send(net::Writer().U8(kGet).Str(key).take(), deadline);
        const std::string value = Answer(deadline, timeout_ms);
        return {value.begin(), value.end()};
    }
    void Wait(const std::vector<std::string>& keys, int64_t timeout_ms) override {
        const int64_t deadline = NowMs() + timeout_ms;
        net::Writer w;
        w.U8(kWait).U32(static_cast<uint32_t>(keys.size()));
        for (const std::string& k : keys)
            w.Str(k);
        Send(w.take(), deadline);
        Answer(deadline, timeout_ms);
    }

 private:
    void Send(const std::string& frame, int64_t deadline) {
        std::string why;
        if (HcclResult rc = net::SendFrame(fd_, frame, deadline, &why); rc != HCCL_SUCCESS)
            throw StoreError(rc, "the root's bootstrap service is unreachable: " + why);
    }
    std::string Answer(int64_t deadline, int64_t timeout_ms) {
        std::string frame;
        std::string why;
        if (HcclResult rc = net::RecvFrame(fd_, &frame, deadline, &why); rc != HCCL_SUCCESS) {
            if (rc == HCCL_E_TIMEOUT) {
                throw StoreError(rc, "the ranks did not all publish their Gloo addresses within " +
                                         Seconds(timeout_ms) + " (HCCL_CONNECT_TIMEOUT)");
            }
            throw StoreError(rc, "the root's bootstrap service went away: " + why);
        }
        net::Reader r(frame);
        const uint8_t type = r.U8();
        if (type == kError) {
            const auto code = static_cast<HcclResult>(r.U32());
            const std::string message = r.Str();
            throw StoreError(r.ok() ? code : HCCL_E_INTERNAL, message);
        }
        std::string value = r.Str();
        if (type != kValue || !r.done())
            throw StoreError(HCCL_E_TCP_TRANSFER, "the root sent a malformed store answer");
        return value;
    }
    int fd_;
};

// ---- The root's service thread ------------------------------------------------------------

class Service {
 public:
    Service(std::shared_ptr<Session> session, net::Fd listener, net::Fd wake_read)
        : s_(std::move(session)), listener_(std::move(listener)), wake_(std::move(wake_read)) {}

    void Run();

 private:
    struct Conn {
        net::Fd fd;
        std::string in, out;
        int64_t rank = -1;
        bool table_sent = false;
        bool closing = false;  // close once `out` is flushed
        bool dead = false;
    };
    struct PendingGet {
        Conn* conn;
        std::vector<std::string> keys;
        bool wait;  // answer with an empty value
    };

    // These run with the session's mutex held.
    void HandleLocked(Conn& c, const std::string& frame);
    void JoinLocked(Conn& c, net::Reader& r);
    void DisconnectedLocked(Conn& c);
    void ProgressLocked();
    static void Queue(Conn& c, const std::string& payload) {
        c.out += net::Writer().U32(static_cast<uint32_t>(payload.size())).take();
        c.out += payload;
    }
    static std::string ErrorFrame(HcclResult code, const std::string& why) {
        return net::Writer().U8(kError).U32(static_cast<uint32_t>(code)).Str(why).take();
    }

    void Accept();
    void Read(Conn& c);
    void Flush(Conn& c);

    std::shared_ptr<Session> s_;
    net::Fd listener_;
    net::Fd wake_;
    std::vector<std::unique_ptr<Conn>> conns_;
    std::vector<PendingGet> gets_;
    bool error_sent_ = false;
    bool ready_sent_ = false;
    int64_t failed_at_ = 0;
};

void Service::Accept() {
    for (;;) {
        const int fd = ::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) return;
        auto c = std::make_unique<Conn>();
        c->fd.reset(fd);
        conns_.push_back(std::move(c));
    }
}

void Service::Read(Conn& c) {
    char chunk[16384];
    bool ended = false;  // closed or failed; frames read before still count
    for (;;) {
        const ssize_t got = ::recv(c.fd.get(), chunk, sizeof chunk, 0);
        if (got > 0) {
            c.in.append(chunk, static_cast<size_t>(got));
            continue;
        }
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        ended = true;
        break;
    }
    std::lock_guard lock(s_->mutex);
    while (!c.dead && c.in.size() >= 4) {
        net::Reader size_reader(c.in);
        const uint32_t size = size_reader.U32();
        if (size > net::kMaxFrame) {
            c.dead = true;  // not our protocol
            break;
        }
        if (c.in.size() < 4 + static_cast<size_t>(size)) break;
        const std::string frame = c.in.substr(4, size);
        c.in.erase(0, 4 + static_cast<size_t>(size));
        HandleLocked(c, frame);
    }
    if (ended) c.dead = true;
    if (c.dead) DisconnectedLocked(c);
}

void Service::Flush(Conn& c) {
    while (!c.out.empty()) {
        const ssize_t sent = ::send(c.fd.get(), c.out.data(), c.out.size(), MSG_NOSIGNAL);
        if (sent > 0) {
            c.out.erase(0, static_cast<size_t>(sent));
            continue;
        }
        if (sent < 0 && errno == EINTR) continue;
        if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        c.dead = true;
        std::lock_guard lock(s_->mutex);
        DisconnectedLocked(c);
        return;
    }
    if (c.closing) c.dead = true;
}

void Service::HandleLocked(Conn& c, const std::string& frame) {
    net::Reader r(frame);
    const uint8_t type = r.U8();
    if (type == kJoin && c.rank < 0) {
        JoinLocked(c, r);
        return;
    }
    if (c.rank < 0) {  // only a join may come first
        c.dead = true;
        return;
    }
    switch (type) {
        case kSet: {
            const std::string key = r.Str();
            const std::string value = r.Str();
            if (!r.done()) break;
            s_->store[key].assign(value.begin(), value.end());
            s_->changed.notify_all();
            return;
        }
        case kGet:
        case kWait: {
            PendingGet get{&c, {}, type == kWait};
            const uint32_t count = type == kGet ? 1 : r.U32();
            for (uint32_t i = 0; i < count && r.ok() && i < 65536; ++i)
                get.keys.push_back(r.Str());
            if (!r.done()) break;
            gets_.push_back(std::move(get));
            return;
        }
        case kDone: {
            Member& m = s_->members[static_cast<size_t>(c.rank)];
            if (!m.done) {
                m.done = true;
                ++s_->done;
            }
            return;
        }
        default:
            break;
    }
    c.dead = true;  // malformed
}

void Service::JoinLocked(Conn& c, net::Reader& r) {
    const std::string identifier = r.Str();
    const uint32_t n = r.U32();
    const uint32_t rank = r.U32();
    const auto device = static_cast<int32_t>(r.U32());
    const uint64_t process_key = r.U64();
    const std::string host = r.Str();
    if (!r.done()) {
        c.dead = true;
        return;
    }
    c.closing = true;  // unless admitted below
    if (identifier != s_->identifier) {
        Queue(c, ErrorFrame(HCCL_E_PARA, "the root info (or rank table) is stale: " + s_->host_ip +
                                             " now serves communicator \"" + s_->identifier +
                                             "\", not \"" + identifier +
                                             "\" (a root info serves one communicator)"));
        return;
    }
    if (process_key == ProcessKey()) {
        Queue(c, net::Writer().U8(kLocal).Str(s_->key).take());
        return;
    }
    std::string why;
    if (HcclResult rc = AdmitLocked(*s_, n, rank, device, process_key, host, &why);
        rc != HCCL_SUCCESS) {
        Queue(c, ErrorFrame(rc, why));
        return;
    }
    c.closing = false;
    c.rank = rank;
    if (s_->joined == s_->n) FormLocked(*s_, s_->exec_timeout_ms);
}

void Service::DisconnectedLocked(Conn& c) {
    gets_.erase(std::remove_if(gets_.begin(), gets_.end(),
                               [&](const PendingGet& g) { return g.conn == &c; }),
                gets_.end());
    if (c.rank < 0) return;
    const Member& m = s_->members[static_cast<size_t>(c.rank)];
    if (m.done || s_->phase == Phase::kFailed) return;
    const std::string who = "rank " + std::to_string(c.rank) + " (" + m.host + ")";
    s_->FailLocked(HCCL_E_TCP_CONNECT, s_->phase == Phase::kJoining
                                           ? who + " left before every rank of communicator \"" +
                                                 s_->identifier +
                                                 "\" had joined (its process exited, or it gave up)"
                                           : who + " failed or exited while communicator \"" +
                                                 s_->identifier + "\" was connecting its ranks");
}

void Service::ProgressLocked() {
    Session& s = *s_;
    const int64_t now = NowMs();
    if (s.phase == Phase::kJoining && now >= s.deadline_ms) {
        const std::string missing = s.n == 0 ? std::string("all") : s.Missing();
        s.FailLocked(HCCL_E_TIMEOUT,
                     std::string(missing.find(',') == std::string::npos ? "rank " : "ranks ") +
                         missing + (s.n == 0 ? "" : " of " + std::to_string(s.n)) +
                         " did not join communicator \"" + s.identifier + "\" within " +
                         Seconds(ConnectTimeoutMs()) + " (HCCL_CONNECT_TIMEOUT)");
    }
    if (s.phase == Phase::kFormedNet && now >= s.deadline_ms) {
        std::string late;
        for (uint32_t r = 0; r < s.n; ++r) {
            if (!s.members[r].done) late += (late.empty() ? "" : ", ") + std::to_string(r);
        }
        s.FailLocked(HCCL_E_TIMEOUT, "rank(s) " + late + " of communicator \"" + s.identifier +
                                         "\" did not connect to the others within " +
                                         Seconds(ConnectTimeoutMs()) + " (HCCL_CONNECT_TIMEOUT)");
    }
    if (s.phase != Phase::kJoining && listener_.valid()) {  // no joins any more
        listener_.reset();
        s.listening = false;
        s.changed.notify_all();
    }
    if (s.phase == Phase::kFailed) {
        if (!error_sent_) {
            error_sent_ = true;
            failed_at_ = now;
            for (auto& c : conns_) {
                Queue(*c, ErrorFrame(s.code, s.why));
                c->closing = true;
            }
            gets_.clear();
        }
        return;
    }
    if (s.phase == Phase::kFormedNet && s.done == s.n && !ready_sent_) {
        // No rank may use (or destroy) its connections before every peer has its own.
        ready_sent_ = true;
        for (auto& c : conns_) {
            if (c->rank < 0) continue;
            Queue(*c, net::Writer().U8(kReady).take());
            c->closing = true;
        }
        s.changed.notify_all();
    }
    if (s.phase == Phase::kFormedNet) {
        for (auto& c : conns_) {
            if (c->rank < 0 || c->table_sent) continue;
            net::Writer w;
            w.U8(kTable).U32(s.n);
            for (const Member& m : s.members)
                w.Str(m.host).U64(m.process_key).U32(static_cast<uint32_t>(m.device));
            Queue(*c, w.take());
            c->table_sent = true;
        }
    }
    for (auto it = gets_.begin(); it != gets_.end();) {
        bool present = true;
        for (const std::string& k : it->keys)
            present = present && s.store.count(k) != 0;
        if (!present) {
            ++it;
            continue;
        }
        const std::vector<char>& value = it->wait ? std::vector<char>() : s.store[it->keys.front()];
        Queue(*it->conn, net::Writer().U8(kValue).Bytes(value.data(), value.size()).take());
        it = gets_.erase(it);
    }
}

void Service::Run() {
    std::unique_lock lock(s_->mutex);
    for (;;) {
        ProgressLocked();
        const Phase phase = s_->phase;
        bool flushing = false;
        for (auto& c : conns_)
            flushing = flushing || !c->out.empty();
        // The end: the ranks share memory, or all connected, or the failure was told.
        const bool finished = phase == Phase::kFormedLocal ||
                              (phase == Phase::kFormedNet && ready_sent_ && !flushing) ||
                              (phase == Phase::kFailed && !flushing);
        if (finished) break;
        const int64_t wait_ms = std::clamp<int64_t>(s_->deadline_ms - NowMs(), 0, 1000);
        lock.unlock();

        std::vector<pollfd> fds;
        fds.push_back({wake_.get(), POLLIN, 0});
        if (listener_.valid()) fds.push_back({listener_.get(), POLLIN, 0});
        const size_t first_conn = fds.size();
        for (auto& c : conns_) {
            const short events = static_cast<short>(POLLIN | (c->out.empty() ? 0 : POLLOUT));
            fds.push_back({c->fd.get(), events, 0});
        }
        ::poll(fds.data(), fds.size(), static_cast<int>(wait_ms));
        if (fds[0].revents != 0) {
            char drain[64];
            while (::read(wake_.get(), drain, sizeof drain) > 0) {
            }
        }
        if (listener_.valid() && fds[1].revents != 0) Accept();
        for (size_t i = 0; i + first_conn < fds.size(); ++i) {
            Conn& c = *conns_[i];
            const short revents = fds[i + first_conn].revents;
            if (revents & (POLLIN | POLLHUP | POLLERR)) Read(c);
            if (!c.dead) Flush(c);
        }
        conns_.erase(std::remove_if(conns_.begin(), conns_.end(),
                                    [](const std::unique_ptr<Conn>& c) { return c->dead; }),
                     conns_.end());
        lock.lock();
        // Ranks that do not read the verdict are not waited for long.
        if (phase == Phase::kFailed && NowMs() > failed_at_ + kVerdictGraceMs) break;
        if (ready_sent_ && NowMs() > s_->deadline_ms + kVerdictGraceMs) break;
    }
    // Nothing stays open: the listener, the connections and the wake-up pipe close here.
    listener_.reset();
    s_->listening = false;
    s_->closed = true;
    s_->wake_write.reset();
    s_->changed.notify_all();
    const std::pair<HcclResult, std::string> failure =
        s_->phase == Phase::kFailed ? std::make_pair(s_->code, s_->why)
                                    : std::make_pair(HCCL_SUCCESS, std::string());
    lock.unlock();
    listener_.reset();
    for (auto& c : conns_)
        Flush(*c);  // best effort: a last error message
    conns_.clear();
    wake_.reset();
    EndSession(*s_, failure);
}

// ---- Joining ------------------------------------------------------------------------------

// Makes the Gloo transport of a rank of the root's process in a networked session.
HcclResult ConnectLocalRank(const std::shared_ptr<Session>& s, const JoinRequest& request,
                            std::unique_ptr<Transport>* transport, std::string* why) {
    GlooSetup setup;
    setup.rank = request.rank;
    setup.size = request.n;
    setup.host_ip = s->host_ip;
    setup.connect_timeout_ms = ConnectTimeoutMs();
    setup.exec_timeout_ms = request.exec_timeout_ms;
    LocalStore store(s);
    const HcclResult rc = MakeGlooTransport(setup, store, transport, why);
    std::lock_guard lock(s->mutex);
    if (rc != HCCL_SUCCESS) {
        s->FailLocked(rc, "rank " + std::to_string(request.rank) + " (in the root's process) " +
                              "could not connect: " + *why);
        return rc;
    }
    Member& m = s->members[request.rank];
    if (!m.done) {
        m.done = true;
        ++s->done;
    }
    s->changed.notify_all();
    s->WakeLocked();
    // Formed once every rank is connected (the service fails the session at its deadline).
    std::unique_lock wait(s->mutex, std::adopt_lock);
    s->changed.wait(wait, [&] { return s->done == s->n || s->phase == Phase::kFailed; });
    wait.release();
    if (s->phase == Phase::kFailed) {
        *why = s->why;
        transport->reset();
        return s->code;
    }
    return HCCL_SUCCESS;
}

HcclResult JoinLocal(const std::string& key, bool create, const JoinRequest& request,
                     std::unique_ptr<Transport>* transport, std::string* why) {
    std::shared_ptr<Session> session = FindSession(key, create);
    std::pair<HcclResult, std::string> failure;
    if (session == nullptr && FailedSession(key, &failure)) {
        *why = "the communicator failed before rank " + std::to_string(request.rank) +
               " joined: " + failure.second;
        return failure.first;
    }
    if (session == nullptr) {
        *why =
            "the root info names no communicator being formed: every rank of it has "
            "already joined (a root info serves one communicator; call HcclGetRootInfo "
            "again for another), or it timed out";
        return HCCL_E_PARA;
    }
    Session& s = *session;
    std::unique_lock lock(s.mutex);
    if (!s.networked && s.phase == Phase::kJoining && s.joined == 0)
        s.deadline_ms = NowMs() + ConnectTimeoutMs();
    if (HcclResult rc = AdmitLocked(s, request.n, request.rank, request.device, ProcessKey(),
                                    s.host_ip.empty() ? "this process" : s.host_ip, why);
        rc != HCCL_SUCCESS) {
        return rc;
    }
    if (s.joined == s.n) {
        FormLocked(s, request.exec_timeout_ms);
        if (!s.networked) {
            lock.unlock();
            EndSession(s);
            lock.lock();
        }
    } else {
        s.WakeLocked();
    }
    if (s.networked) {
        // The service enforces the deadline and ends the wait; a rank returns once nothing
        // listens for the communicator any more.
        s.changed.wait(lock,
                       [&] { return (s.phase != Phase::kJoining && !s.listening) || s.closed; });
    } else {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(s.deadline_ms - NowMs());
        const bool formed =
            s.changed.wait_until(lock, deadline, [&] { return s.phase != Phase::kJoining; });
        if (!formed) {
            const std::string missing = s.Missing();
            s.FailLocked(HCCL_E_TIMEOUT, "rank(s) " + missing + " of " + std::to_string(s.n) +
                                             " did not join communicator \"" + s.identifier +
                                             "\" within " + Seconds(ConnectTimeoutMs()) +
                                             " (HCCL_CONNECT_TIMEOUT)");
            lock.unlock();
            EndSession(s);
            lock.lock();
        }
    }
    if (s.phase == Phase::kFailed) {
        *why = s.why;
        return s.code;
    }
    if (s.phase == Phase::kFormedLocal) {
        *transport = MakeLocalTransport(s.group, request.rank);
        return HCCL_SUCCESS;
    }
    if (s.phase != Phase::kFormedNet) {
        *why = "the bootstrap of communicator \"" + s.identifier + "\" ended unexpectedly";
        return HCCL_E_INTERNAL;
    }
    lock.unlock();
    return ConnectLocalRank(session, request, transport, why);
}

// A rank of another process: over TCP to the root's service.
HcclResult JoinRemote(const RootInfoData& data, const JoinRequest& request, bool retry_refused,
                      std::unique_ptr<Transport>* transport, std::string* why) {
    net::Address root;
    if (!net::ParseIp(data.host, static_cast<uint16_t>(data.port), &root) || data.port == 0 ||
        data.port > 65535) {
        *why = "the root info holds no usable address (\"" + std::string(data.host) + "\", port " +
               std::to_string(data.port) + ")";
        return HCCL_E_PARA;
    }
    const int64_t timeout_ms = ConnectTimeoutMs();
    const int64_t deadline = NowMs() + timeout_ms + kVerdictGraceMs;
    net::Fd fd;
    bool refused = false;
    if (HcclResult rc = net::Connect(root, deadline, retry_refused, &fd, &refused, why);
        rc != HCCL_SUCCESS) {
        if (refused) {
            *why = "rank " + std::to_string(request.rank) + " cannot reach the root of \"" +
                   data.identifier + "\": " + *why +
                   ". The root info is stale (its communicator already formed or failed) or "
                   "the root's process exited";
        } else {
            *why = "rank " + std::to_string(request.rank) + " cannot reach the root of \"" +
                   data.identifier + "\" at " + root.text() + ": " + *why;
        }
        return rc;
    }
    // This rank's address for Gloo: HCCL_IF_IP, else the one that reaches the root.
    std::string host = IfIp();
    net::Address local;
    if (host.empty()) {
        if (!net::LocalAddress(fd.get(), &local)) {
            *why = "cannot read the local address of the connection to the root";
            return HCCL_E_NETWORK;
        }
        host = local.ip();
    } else if (!net::ParseIp(host, 0, &local)) {
        *why = "HCCL_IF_IP=" + host + " is not an IPv4 or IPv6 address";
        return HCCL_E_PARA;
    }
    const std::string join = net::Writer()
                                 .U8(kJoin)
                                 .Str(data.identifier)
                                 .U32(request.n)
                                 .U32(request.rank)
                                 .U32(static_cast<uint32_t>(request.device))
                                 .U64(ProcessKey())
                                 .Str(host)
                                 .take();
    if (HcclResult rc = net::SendFrame(fd.get(), join, deadline, why); rc != HCCL_SUCCESS) {
        *why = "rank " + std::to_string(request.rank) + " could not send its join to the root at " +
               root.text() + ": " + *why;
        return rc;
    }
    std::string frame;
    if (HcclResult rc = net::RecvFrame(fd.get(), &frame, deadline, why); rc != HCCL_SUCCESS) {
        if (rc == HCCL_E_TIMEOUT) {
            *why = "rank " + std::to_string(request.rank) + " waited " + Seconds(timeout_ms) +
                   " (HCCL_CONNECT_TIMEOUT) for the other ranks of \"" + data.identifier +
                   "\" without an answer from the root";
        } else {
            *why = "the root of \"" + std::string(data.identifier) + "\" at " + root.text() +
                   " closed the connection before the communicator formed (" + *why + ")";
        }
        return rc;
    }
    net::Reader r(frame);
    const uint8_t type = r.U8();
    if (type == kError) {
        const auto code = static_cast<HcclResult>(r.U32());
        *why = r.Str();
        return r.ok() ? code : HCCL_E_TCP_TRANSFER;
    }
    if (type == kLocal) {
        const std::string key = r.Str();
        if (!r.done()) {
            *why = "the root sent a malformed answer";
            return HCCL_E_TCP_TRANSFER;
        }
        fd.reset();
        return JoinLocal(key, false, request, transport, why);
    }
    if (type != kTable || r.U32() != request.n || !r.ok()) {
        *why = "the root at " + root.text() + " sent a malformed answer";
        return HCCL_E_TCP_TRANSFER;
    }
    GlooSetup setup;
    setup.rank = request.rank;
    setup.size = request.n;
    setup.host_ip = local.ip();
    setup.connect_timeout_ms = timeout_ms;
    setup.exec_timeout_ms = request.exec_timeout_ms;
    RemoteStore store(fd.get());
    if (HcclResult rc = MakeGlooTransport(setup, store, transport, why); rc != HCCL_SUCCESS)
        return rc;  // closing the connection tells the root
    if (HcclResult rc =
            net::SendFrame(fd.get(), net::Writer().U8(kDone).take(), NowMs() + timeout_ms, why);
        rc != HCCL_SUCCESS) {
        transport->reset();
        *why = "rank " + std::to_string(request.rank) +
               " lost the root before it could report that it connected: " + *why;
        return rc;
    }
    std::string frame2;
    HcclResult rc = net::RecvFrame(fd.get(), &frame2, NowMs() + timeout_ms + kVerdictGraceMs, why);
    net::Reader ready(frame2);
    const uint8_t answer = rc == HCCL_SUCCESS ? ready.U8() : 0;
    if (answer == kReady) return HCCL_SUCCESS;
    transport->reset();
    if (answer == kError) {
        rc = static_cast<HcclResult>(ready.U32());
        *why = ready.Str();
        return ready.ok() ? rc : HCCL_E_TCP_TRANSFER;
    }
    *why = "rank " + std::to_string(request.rank) + " connected, but the root of \"" +
           data.identifier + "\" did not confirm that every rank did (" +
           (rc == HCCL_SUCCESS ? std::string("a malformed answer") : *why) + ")";
    return rc == HCCL_SUCCESS ? HCCL_E_TCP_TRANSFER : rc;
}

// A networked session: listens on `address` (trying `ports`) and starts the service thread.
HcclResult StartRoot(int32_t device, const net::Address& address,
                     const std::vector<std::pair<uint16_t, uint16_t>>& ports,
                     const std::string& identifier, RootInfoData* data, std::string* why) {
    net::Fd listener;
    net::Address bound;
    if (HcclResult rc = net::Listen(address, ports, &listener, &bound, why); rc != HCCL_SUCCESS)
        return rc;
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        *why = std::string("pipe2: ") + std::strerror(errno);
        return HCCL_E_SYSCALL;
    }
    net::Fd wake_read(pipe_fds[0]);
    net::Fd wake_write(pipe_fds[1]);

    std::memset(data, 0, sizeof *data);
    std::memcpy(data->magic, kRootInfoMagic, sizeof kRootInfoMagic);
    data->version = kRootInfoVersion;
    data->process_key = ProcessKey();
    data->device = device;
    data->port = bound.port();
    std::snprintf(data->host, sizeof data->host, "%s", address.ip().c_str());
    Sessions& sessions = TheSessions();
    {
        std::lock_guard lock(sessions.mutex);
        data->session = sessions.next++;
    }
    if (identifier.empty()) {
        std::snprintf(data->identifier, sizeof data->identifier, "%s_%u_%ld_%llu", data->host,
                      data->port, static_cast<long>(getpid()),
                      static_cast<unsigned long long>(data->session));
    } else {
        std::snprintf(data->identifier, sizeof data->identifier, "%s", identifier.c_str());
    }
    auto session = std::make_shared<Session>();
    session->key = "root:" + std::to_string(data->session);
    session->identifier = data->identifier;
    session->networked = true;
    session->host_ip = data->host;
    session->deadline_ms = NowMs() + ConnectTimeoutMs();
    session->listening = true;
    session->wake_write = std::move(wake_write);
    try {
        auto service =
            std::make_shared<Service>(session, std::move(listener), std::move(wake_read));
        {
            std::lock_guard lock(sessions.mutex);
            sessions.live.emplace(session->key, session);
        }
        // Detached: it ends by itself once the communicator formed or failed (at the latest
        // HCCL_CONNECT_TIMEOUT after the last join), closing everything it opened.
        std::thread([service] { service->Run(); }).detach();
    } catch (const std::exception& e) {
        EndSession(*session);
        *why = std::string("cannot start the root's bootstrap thread: ") + e.what();
        return HCCL_E_INTERNAL;
    }
    OPENACL_LOG_INFO("HCCL root of \"%s\" listens on %s", data->identifier, bound.text().c_str());
    return HCCL_SUCCESS;
}

}  // namespace

HcclResult CreateRoot(int32_t device, RootInfoData* data, std::string* why) {
    net::Address address;
    std::string how;
    if (HcclResult rc = net::ChooseHostAddress(&address, &how, why); rc != HCCL_SUCCESS) return rc;
    std::vector<std::pair<uint16_t, uint16_t>> ports;
    if (HcclResult rc = HostPorts(&ports, why); rc != HCCL_SUCCESS) return rc;
    if (HcclResult rc = StartRoot(device, address, ports, {}, data, why); rc != HCCL_SUCCESS) {
        *why =
            "HcclGetRootInfo could not listen on " + address.ip() + " (from " + how + "): " + *why;
        return rc;
    }
    return HCCL_SUCCESS;
}

HcclResult CreateRootAt(int32_t device, const std::string& host, uint16_t port,
                        const std::string& identifier, RootInfoData* data, std::string* why) {
    net::Address address;
    if (!net::ParseIp(host, 0, &address)) {
        *why = "rank 0's host address \"" + host + "\" is not an IP address";
        return HCCL_E_PARA;
    }
    if (HcclResult rc = StartRoot(device, address, {{port, port}}, identifier, data, why);
        rc != HCCL_SUCCESS) {
        *why = "rank 0 could not listen on " + host + " port " + std::to_string(port) +
               " (HCCL_IF_BASE_PORT): " + *why;
        return rc;
    }
    return HCCL_SUCCESS;
}

RootInfoData RootAt(const std::string& host, uint16_t port, const std::string& identifier) {
    RootInfoData data;
    std::memset(&data, 0, sizeof data);
    std::memcpy(data.magic, kRootInfoMagic, sizeof kRootInfoMagic);
    data.version = kRootInfoVersion;
    data.port = port;
    data.device = -1;
    std::snprintf(data.host, sizeof data.host, "%s", host.c_str());
    std::snprintf(data.identifier, sizeof data.identifier, "%s", identifier.c_str());
    return data;
}

HcclResult Join(const RootInfoData& data, const JoinRequest& request, bool retry_refused,
                std::unique_ptr<Transport>* transport, std::string* why) {
    if (data.process_key == ProcessKey())
        return JoinLocal("root:" + std::to_string(data.session), false, request, transport, why);
    return JoinRemote(data, request, retry_refused, transport, why);
}

HcclResult JoinSub(const Communicator& parent, uint64_t sub_id,
                   const std::vector<uint32_t>& parent_ranks, const JoinRequest& request,
                   std::unique_ptr<Transport>* transport, std::string* why) {
    if (!IsGloo(parent.transport())) {
        return JoinLocal("sub:" + parent.name() + ":" + std::to_string(sub_id), true, request,
                         transport, why);
    }
    // Sub-rank 0 roots the sub-communicator and tells the other members where.
    RootInfoData data;
    std::memset(&data, 0, sizeof data);
    const uint32_t from = parent_ranks[0];
    if (parent.rank() == from) {
        if (HcclResult rc = CreateRoot(parent.device(), &data, why); rc != HCCL_SUCCESS) return rc;
    }
    const int64_t timeout_ms = ConnectTimeoutMs();
    if (parent_ranks.size() > 1) {
        // Communicator numbers are 64-bit; tell apart concurrent creations by both halves.
        const uint64_t tag = sub_id ^ (sub_id >> 32);
        if (HcclResult rc = GlooShare(const_cast<Communicator&>(parent).transport(), from,
                                      parent_ranks, tag, &data, sizeof data, timeout_ms, why);
            rc != HCCL_SUCCESS) {
            *why = "sub-communicator " + std::to_string(sub_id) + ": rank " + std::to_string(from) +
                   " of the parent could not share its root info: " + *why;
            return rc;
        }
    }
    if (std::memcmp(data.magic, kRootInfoMagic, sizeof kRootInfoMagic) != 0) {
        *why = "sub-communicator " + std::to_string(sub_id) + ": rank " + std::to_string(from) +
               " of the parent sent no root info";
        return HCCL_E_INTERNAL;
    }
    data.host[sizeof data.host - 1] = '\0';
    data.identifier[sizeof data.identifier - 1] = '\0';
    return Join(data, request, false, transport, why);
}

}  // namespace openacl::hccl
