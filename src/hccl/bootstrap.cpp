// Communicator bootstrap (hccl/bootstrap.h).
#include "hccl/bootstrap.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "hccl/environment.h"
#include "hccl/local_transport.h"

namespace openacl::hccl {
namespace {

// A communicator being formed in this process, from HcclGetRootInfo until its last rank joins.
struct Session {
    std::string identifier;
    std::mutex mutex;
    std::condition_variable formed;
    uint32_t n = 0;                // set by the first rank to join
    std::vector<int32_t> devices;  // by rank; -1 until the rank joins
    uint32_t joined = 0;
    bool failed = false;
    HcclResult code = HCCL_SUCCESS;
    std::string why;
    std::shared_ptr<LocalGroup> group;  // made by the last rank to join
};

struct Sessions {
    std::mutex mutex;
    uint64_t next = 1;
    // "root:<serial>" for a root info's communicator, "sub:<name>:<id>" for a sub-communicator.
    std::map<std::string, std::shared_ptr<Session>> live;
};

Sessions& TheSessions() {
    static auto* sessions = new Sessions;
    return *sessions;
}

std::shared_ptr<Session> FindSession(const std::string& id, bool create) {
    Sessions& s = TheSessions();
    std::lock_guard lock(s.mutex);
    auto it = s.live.find(id);
    if (it != s.live.end()) return it->second;
    if (!create) return nullptr;
    auto session = std::make_shared<Session>();
    session->identifier = id;
    s.live.emplace(id, session);
    return session;
}

void EndSession(const std::string& id) {
    Sessions& s = TheSessions();
    std::lock_guard lock(s.mutex);
    s.live.erase(id);
}

HcclResult JoinLocal(const std::string& id, bool create, const JoinRequest& request,
                     std::unique_ptr<Transport>* transport, std::string* why) {
    std::shared_ptr<Session> session = FindSession(id, create);
    if (session == nullptr) {
        *why =
            "the root info names no communicator being formed: every rank of it has "
            "already joined (a root info serves one communicator; call HcclGetRootInfo "
            "again for another), or it timed out";
        return HCCL_E_PARA;
    }
    std::unique_lock lock(session->mutex);
    if (session->failed) {
        *why = session->why;
        return session->code;
    }
    if (session->n == 0) {
        session->n = request.n;
        session->devices.assign(request.n, -1);
    }
    if (request.n != session->n) {
        *why = "rank " + std::to_string(request.rank) + " joins with nRanks " +
               std::to_string(request.n) + " but another rank joined with " +
               std::to_string(session->n) + ": every rank must pass the same nRanks";
        return HCCL_E_PARA;
    }
    if (session->devices[request.rank] != -1) {
        *why = "rank " + std::to_string(request.rank) +
               " has already joined this communicator: every rank joins once";
        return HCCL_E_PARA;
    }
    for (uint32_t r = 0; r < session->n; ++r) {
        if (session->devices[r] == request.device) {
            *why = "ranks " + std::to_string(r) + " and " + std::to_string(request.rank) +
                   " are both on device " + std::to_string(request.device) +
                   ": a communicator has one rank per device (set another device before "
                   "joining)";
            return HCCL_E_PARA;
        }
    }
    session->devices[request.rank] = request.device;
    if (++session->joined == session->n) {
        session->group = MakeLocalGroup(session->n, request.exec_timeout_ms);
        session->formed.notify_all();
        lock.unlock();
        EndSession(id);
        *transport = MakeLocalTransport(session->group, request.rank);
        return HCCL_SUCCESS;
    }
    const int64_t timeout_ms = ConnectTimeoutMs();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    const bool done = session->formed.wait_until(
        lock, deadline, [&] { return session->group != nullptr || session->failed; });
    if (!done) {
        std::string missing;
        for (uint32_t r = 0; r < session->n; ++r) {
            if (session->devices[r] == -1)
                missing += (missing.empty() ? "" : ", ") + std::to_string(r);
        }
        char limit[64];
        std::snprintf(limit, sizeof limit, "%g s", static_cast<double>(timeout_ms) / 1000.0);
        session->failed = true;
        session->code = HCCL_E_TIMEOUT;
        session->why = "rank(s) " + missing + " of " + std::to_string(session->n) +
                       " did not join communicator \"" + session->identifier + "\" within " +
                       limit + " (HCCL_CONNECT_TIMEOUT)";
        session->formed.notify_all();
        lock.unlock();
        EndSession(id);
        lock.lock();
    }
    if (session->failed) {
        *why = session->why;
        return session->code;
    }
    *transport = MakeLocalTransport(session->group, request.rank);
    return HCCL_SUCCESS;
}

}  // namespace

HcclResult CreateRoot(int32_t device, RootInfoData* data, std::string* why) {
    (void)why;
    std::memset(data, 0, sizeof *data);
    std::memcpy(data->magic, kRootInfoMagic, sizeof kRootInfoMagic);
    data->version = kRootInfoVersion;
    data->process_key = ProcessKey();
    data->device = device;
    Sessions& s = TheSessions();
    auto session = std::make_shared<Session>();
    {
        std::lock_guard lock(s.mutex);
        data->session = s.next++;
    }
    std::snprintf(data->host, sizeof data->host, "%s", "127.0.0.1");
    std::snprintf(data->identifier, sizeof data->identifier, "%s_%u_%ld_%llu", data->host,
                  data->port, static_cast<long>(getpid()),
                  static_cast<unsigned long long>(data->session));
    session->identifier = data->identifier;
    std::lock_guard lock(s.mutex);
    s.live.emplace("root:" + std::to_string(data->session), std::move(session));
    return HCCL_SUCCESS;
}

HcclResult Join(const RootInfoData& data, const JoinRequest& request,
                std::unique_ptr<Transport>* transport, std::string* why) {
    if (data.process_key == ProcessKey())
        return JoinLocal("root:" + std::to_string(data.session), false, request, transport, why);
    *why = "the root info was made by another process (" + std::string(data.host) +
           "): ranks in several processes are not supported yet";
    return HCCL_E_NOT_SUPPORT;
}

HcclResult JoinSub(const Communicator& parent, uint64_t sub_id, const JoinRequest& request,
                   std::unique_ptr<Transport>* transport, std::string* why) {
    if (std::string(parent.transport().name()) != "shared memory") {
        *why = "sub-communicators of communicators that span processes are not supported yet";
        return HCCL_E_NOT_SUPPORT;
    }
    return JoinLocal("sub:" + parent.name() + ":" + std::to_string(sub_id), true, request,
                     transport, why);
}

}  // namespace openacl::hccl
