// hccl/hccl_comm.h: communicators (src/hccl/). Entry points check their arguments and turn
// outcomes into HcclResult with a message for aclGetRecentErrMsg.
#include "hccl/hccl_comm.h"

#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "core/runtime.h"
#include "hccl/bootstrap.h"
#include "hccl/comm_config.h"
#include "hccl/communicator.h"
#include "hccl/enqueue.h"
#include "hccl/environment.h"
#include "hccl/group.h"
#include "hccl/local_transport.h"
#include "hccl/rank_table.h"
#include "hccl/root_info.h"

using openacl::Fail;
namespace hccl = openacl::hccl;

namespace {

HcclResult Failed(HcclResult code, const char* fmt, const std::string& text) {
    return static_cast<HcclResult>(Fail(code, fmt, text.c_str()));
}

// Makes the communicator object for a rank that has its transport, and registers it.
HcclResult Publish(uint32_t rank, uint32_t n, int32_t device, const std::string& default_name,
                   const hccl::CommOptions& options, std::unique_ptr<hccl::Transport> transport,
                   HcclComm* out) {
    const std::string name = options.name.empty() ? default_name : options.name;
    auto comm =
        std::make_shared<hccl::Communicator>(rank, n, device, name, std::move(transport), options);
    std::string why;
    HcclComm handle = nullptr;
    if (HcclResult rc = hccl::Register(comm, &handle, &why); rc != HCCL_SUCCESS) {
        comm->transport().Leave();
        return Failed(rc, "%s", why);
    }
    *out = handle;
    return HCCL_SUCCESS;
}

// HcclCommInitRootInfo[Config] once the arguments are checked; runs on the caller's thread or,
// inside a group, on a thread of its own.
HcclResult InitRootInfo(uint32_t n, const hccl::RootInfoData& data, uint32_t rank, int32_t device,
                        const hccl::CommOptions& options, HcclComm* comm) {
    hccl::JoinRequest request;
    request.n = n;
    request.rank = rank;
    request.device = device;
    request.exec_timeout_ms = options.exec_timeout_ms;
    std::unique_ptr<hccl::Transport> transport;
    std::string why;
    if (HcclResult rc = hccl::Join(data, request, false, &transport, &why); rc != HCCL_SUCCESS)
        return Failed(rc, "%s", why);
    return Publish(rank, n, device, data.identifier, options, std::move(transport), comm);
}

HcclResult InitRootInfoChecked(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                               const HcclCommConfig* config, HcclComm* comm) {
    if (rootInfo == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "rootInfo is null"));
    if (comm == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "comm is null"));
    if (nRanks == 0) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA, "nRanks is 0: a communicator has at least one rank"));
    }
    if (rank >= nRanks) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA, "rank %u is out of range: ranks of a %u-rank communicator are 0..%u",
                 rank, nRanks, nRanks - 1));
    }
    hccl::RootInfoData data;
    if (!hccl::ReadRootInfo(*rootInfo, &data)) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA,
                 "rootInfo was not written by HcclGetRootInfo (copy all %u bytes of it to every "
                 "rank)",
                 HCCL_ROOT_INFO_BYTES));
    }
    hccl::CommOptions options;
    std::string why;
    if (HcclResult rc = hccl::ReadConfig(config, &options, &why); rc != HCCL_SUCCESS)
        return Failed(rc, "%s", why);
    HcclResult rc = HCCL_SUCCESS;
    const int32_t device = hccl::CurrentDevice(&rc);
    if (device < 0) return rc;
    if (hccl::InGroup()) {
        *comm = nullptr;
        hccl::DeferInit([=] { return InitRootInfo(nRanks, data, rank, device, options, comm); });
        return HCCL_SUCCESS;
    }
    return InitRootInfo(nRanks, data, rank, device, options, comm);
}

// Process-wide settings (HcclSetConfig).
std::mutex g_config_mutex;
int32_t g_deterministic = -1;  // -1: from HCCL_DETERMINISTIC

// Communicator state callbacks (HcclCommRegCommStateCallback), by registration name.
struct StateCallback {
    HcclCommStateCallback callback;
    void* args;
};
std::mutex g_callbacks_mutex;
std::map<std::string, StateCallback>& StateCallbacks() {
    static auto* callbacks = new std::map<std::string, StateCallback>;
    return *callbacks;
}

void NotifyState(HcclComm comm, HcclCommStatePhase phase) {
    std::vector<StateCallback> callbacks;
    {
        std::lock_guard lock(g_callbacks_mutex);
        for (const auto& [name, cb] : StateCallbacks())
            callbacks.push_back(cb);
    }
    for (const StateCallback& cb : callbacks)
        cb.callback(comm, phase, cb.args);
}

// Communicators made from rank tables, by (table, rank): initialising one twice is an error.
std::mutex g_tables_mutex;
std::map<std::pair<std::string, uint32_t>, HcclComm>& TableComms() {
    static auto* comms = new std::map<std::pair<std::string, uint32_t>, HcclComm>;
    return *comms;
}

// HcclCommInitClusterInfo[Config] once the arguments are checked: rank 0 listens where the
// table says its server is (HCCL_IF_BASE_PORT), the others join it there.
HcclResult InitClusterInfo(const hccl::RankTable& table, uint32_t rank, int32_t device,
                           const hccl::CommOptions& options, HcclComm* comm) {
    std::string why;
    std::string host;
    if (HcclResult rc = hccl::RootHost(table, &host, &why); rc != HCCL_SUCCESS)
        return Failed(rc, "%s", why);
    uint16_t port = 0;
    if (HcclResult rc = hccl::BasePort(&port, &why); rc != HCCL_SUCCESS)
        return Failed(rc, "%s", why);
    const auto n = static_cast<uint32_t>(table.ranks.size());
    hccl::RootInfoData data;
    if (rank == 0) {
        if (HcclResult rc = hccl::CreateRootAt(device, host, port, table.identifier, &data, &why);
            rc != HCCL_SUCCESS) {
            return Failed(rc, "%s", why);
        }
    } else {
        data = hccl::RootAt(host, port, table.identifier);
    }
    hccl::JoinRequest request;
    request.n = n;
    request.rank = rank;
    request.device = device;
    request.exec_timeout_ms = options.exec_timeout_ms;
    std::unique_ptr<hccl::Transport> transport;
    if (HcclResult rc = hccl::Join(data, request, true, &transport, &why); rc != HCCL_SUCCESS)
        return Failed(rc, "%s", why);
    if (HcclResult rc =
            Publish(rank, n, device, "hccl_world_group", options, std::move(transport), comm);
        rc != HCCL_SUCCESS) {
        return rc;
    }
    std::lock_guard lock(g_tables_mutex);
    TableComms()[{table.identifier, rank}] = *comm;
    return HCCL_SUCCESS;
}

HcclResult InitClusterInfoChecked(const char* clusterInfo, uint32_t rank,
                                  const HcclCommConfig* config, HcclComm* comm) {
    if (clusterInfo == nullptr)
        return static_cast<HcclResult>(
            Fail(HCCL_E_PTR, "clusterInfo (the rank table's path) is null"));
    if (comm == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "comm is null"));
    const size_t length = strnlen(clusterInfo, 4097);
    if (length == 0 || length > 4096) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA, "clusterInfo is %s: it is the rank table's path, at most 4096 bytes",
                 length == 0 ? "empty" : "longer than 4096 bytes"));
    }
    hccl::RankTable table;
    std::string why;
    if (HcclResult rc = hccl::LoadRankTable(clusterInfo, &table, &why); rc != HCCL_SUCCESS)
        return Failed(rc, "%s", why);
    if (rank >= table.ranks.size()) {
        return static_cast<HcclResult>(Fail(
            HCCL_E_PARA, "rank %u is not in the rank table %s, whose rank_id runs from 0 to %zu",
            rank, clusterInfo, table.ranks.size() - 1));
    }
    hccl::CommOptions options;
    if (HcclResult rc = hccl::ReadConfig(config, &options, &why); rc != HCCL_SUCCESS)
        return Failed(rc, "%s", why);
    HcclResult rc = HCCL_SUCCESS;
    const int32_t device = hccl::CurrentDevice(&rc);
    if (device < 0) return rc;
    const hccl::RankTableEntry& entry = table.ranks[rank];
    if (entry.device >= 0 && entry.device != device) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA,
                 "the rank table puts rank %u on device %d (device_id), but this thread's "
                 "current device is %d: call aclrtSetDevice(%d) before joining",
                 rank, entry.device, device, entry.device));
    }
    {
        std::lock_guard lock(g_tables_mutex);
        auto it = TableComms().find({table.identifier, rank});
        if (it != TableComms().end()) {
            if (hccl::Find(it->second) != nullptr) {
                return static_cast<HcclResult>(
                    Fail(HCCL_E_PARA,
                         "rank %u of the rank table %s already has a communicator (%p): a rank "
                         "table initialises once; destroy it with HcclCommDestroy first",
                         rank, clusterInfo, it->second));
            }
            TableComms().erase(it);
        }
    }
    if (hccl::InGroup()) {
        *comm = nullptr;
        hccl::DeferInit([=] { return InitClusterInfo(table, rank, device, options, comm); });
        return HCCL_SUCCESS;
    }
    return InitClusterInfo(table, rank, device, options, comm);
}

HcclResult NotSupported(const char* name, const char* what) {
    return static_cast<HcclResult>(
        Fail(HCCL_E_NOT_SUPPORT, "%s is not supported by openacl yet: %s", name, what));
}

}  // namespace

// HCCL's headers carry no visibility attribute (CANN's do not): export explicitly.
#pragma GCC visibility push(default)
extern "C" {

HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) {
    OPENACL_API();
    if (rootInfo == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "rootInfo is null"));
    HcclResult rc = HCCL_SUCCESS;
    const int32_t device = hccl::CurrentDevice(&rc);
    if (device < 0) return rc;
    hccl::RootInfoData data;
    std::string why;
    if (HcclResult code = hccl::CreateRoot(device, &data, &why); code != HCCL_SUCCESS)
        return Failed(code, "%s", why);
    hccl::WriteRootInfo(data, rootInfo);
    return HCCL_SUCCESS;
}

HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                HcclComm* comm) {
    OPENACL_API();
    return InitRootInfoChecked(nRanks, rootInfo, rank, nullptr, comm);
}

HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                      const HcclCommConfig* config, HcclComm* comm) {
    OPENACL_API();
    if (config == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "config is null"));
    return InitRootInfoChecked(nRanks, rootInfo, rank, config, comm);
}

HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms) {
    OPENACL_API();
    if (devices == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "devices is null"));
    if (comms == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "comms is null"));
    if (ndev == 0) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA, "ndev is 0: a communicator has at least one rank"));
    }
    uint32_t count = 0;
    if (aclrtGetDeviceCount(&count) != ACL_SUCCESS) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_RUNTIME, "the device count is unknown: call aclInit first"));
    }
    for (uint32_t i = 0; i < ndev; ++i) {
        if (devices[i] < 0 || static_cast<uint32_t>(devices[i]) >= count) {
            return static_cast<HcclResult>(Fail(HCCL_E_PARA,
                                                "devices[%u] is %d: this machine has devices 0..%u",
                                                i, devices[i], count - 1));
        }
        for (uint32_t j = 0; j < i; ++j) {
            if (devices[j] == devices[i]) {
                return static_cast<HcclResult>(
                    Fail(HCCL_E_PARA,
                         "devices[%u] and devices[%u] are both device %d: one rank per device", j,
                         i, devices[i]));
            }
        }
    }
    hccl::CommOptions options;
    options.exec_timeout_ms = 0;
    std::string why;
    hccl::ReadConfig(nullptr, &options, &why);
    const std::string name = hccl::UniqueName("hccl_world_group");
    auto group = hccl::MakeLocalGroup(ndev, options.exec_timeout_ms);
    for (uint32_t i = 0; i < ndev; ++i) {
        if (HcclResult rc = Publish(i, ndev, devices[i], name, options,
                                    hccl::MakeLocalTransport(group, i), &comms[i]);
            rc != HCCL_SUCCESS) {
            for (uint32_t j = 0; j < i; ++j)
                HcclCommDestroy(comms[j]);
            return rc;
        }
    }
    return HCCL_SUCCESS;
}

HcclResult HcclCreateSubCommConfig(HcclComm* comm, uint32_t rankNum, uint32_t* rankIds,
                                   uint64_t subCommId, uint32_t subCommRankId,
                                   HcclCommConfig* config, HcclComm* subComm) {
    OPENACL_API();
    if (comm == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "comm is null"));
    if (subComm == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "subComm is null"));
    HcclResult rc = HCCL_SUCCESS;
    std::shared_ptr<hccl::Communicator> parent = hccl::FindOrFail(*comm, &rc);
    if (parent == nullptr) return rc;
    if (rankIds == nullptr) {  // not a member
        *subComm = nullptr;
        return HCCL_SUCCESS;
    }
    if (rankNum == 0 || rankNum > parent->size()) {
        return static_cast<HcclResult>(Fail(
            HCCL_E_PARA, "rankNum is %u: a sub-communicator of a %u-rank communicator has 1..%u",
            rankNum, parent->size(), parent->size()));
    }
    for (uint32_t i = 0; i < rankNum; ++i) {
        if (rankIds[i] >= parent->size() || (i > 0 && rankIds[i] <= rankIds[i - 1])) {
            return static_cast<HcclResult>(Fail(
                HCCL_E_PARA,
                "rankIds must be ascending ranks of the parent communicator (0..%u); rankIds[%u] "
                "is %u",
                parent->size() - 1, i, rankIds[i]));
        }
    }
    if (subCommRankId >= rankNum || rankIds[subCommRankId] != parent->rank()) {
        return static_cast<HcclResult>(Fail(
            HCCL_E_PARA,
            "subCommRankId %u does not name this rank: rankIds[subCommRankId] must be %u, this "
            "rank's rank in the parent communicator",
            subCommRankId, parent->rank()));
    }
    hccl::CommOptions options;
    std::string why;
    if (HcclResult code = hccl::ReadConfig(config, &options, &why); code != HCCL_SUCCESS)
        return Failed(code, "%s", why);
    hccl::JoinRequest request;
    request.n = rankNum;
    request.rank = subCommRankId;
    request.device = parent->device();
    request.exec_timeout_ms = options.exec_timeout_ms;
    std::unique_ptr<hccl::Transport> transport;
    const std::vector<uint32_t> parent_ranks(rankIds, rankIds + rankNum);
    if (HcclResult code =
            hccl::JoinSub(*parent, subCommId, parent_ranks, request, &transport, &why);
        code != HCCL_SUCCESS) {
        return Failed(code, "%s", why);
    }
    return Publish(subCommRankId, rankNum, parent->device(),
                   parent->name() + "_sub_" + std::to_string(subCommId), options,
                   std::move(transport), subComm);
}

HcclResult HcclCommDestroy(HcclComm comm) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    if (hccl::FindOrFail(comm, &rc) == nullptr) return rc;
    NotifyState(comm, HCCL_COMM_STATE_PHASE_DESTROY_PRE);
    std::shared_ptr<hccl::Communicator> found = hccl::Unregister(comm);
    if (found == nullptr) return HCCL_SUCCESS;  // another thread destroyed it meanwhile
    // What this rank already enqueued finishes first, as its peers expect it to.
    found->WaitIdle();
    found->transport().Leave();
    NotifyState(comm, HCCL_COMM_STATE_PHASE_DESTROY_POST);
    return HCCL_SUCCESS;
}

HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    auto found = hccl::FindOrFail(comm, &rc);
    if (found == nullptr) return rc;
    if (rankSize == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "rankSize is null"));
    *rankSize = found->size();
    return HCCL_SUCCESS;
}

HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    auto found = hccl::FindOrFail(comm, &rc);
    if (found == nullptr) return rc;
    if (rank == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "rank is null"));
    *rank = found->rank();
    return HCCL_SUCCESS;
}

HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    // A barrier is an operation like the collectives of hccl.h: a suspended communicator
    // refuses it too.
    auto found = hccl::FindReadyOrFail(comm, &rc);
    if (found == nullptr) return rc;
    hccl::CollOp op;
    op.kind = hccl::CollKind::kBarrier;
    return hccl::Issue(found, stream, std::move(op), {});
}

HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    auto found = hccl::FindOrFail(comm, &rc);
    if (found == nullptr) return rc;
    if (asyncError == nullptr)
        return static_cast<HcclResult>(Fail(HCCL_E_PTR, "asyncError is null"));
    *asyncError = found->async_error();
    return HCCL_SUCCESS;
}

const char* HcclGetErrorString(HcclResult code) {
    switch (code) {
        case HCCL_SUCCESS:
            return "no error";
        case HCCL_E_PARA:
            return "parameter error";
        case HCCL_E_PTR:
            return "empty pointer";
        case HCCL_E_MEMORY:
            return "memory error";
        case HCCL_E_INTERNAL:
            return "internal error";
        case HCCL_E_NOT_SUPPORT:
            return "not support feature";
        case HCCL_E_NOT_FOUND:
            return "not found specific resource";
        case HCCL_E_UNAVAIL:
            return "resource unavailable";
        case HCCL_E_SYSCALL:
            return "call system interface error";
        case HCCL_E_TIMEOUT:
            return "timeout";
        case HCCL_E_OPEN_FILE_FAILURE:
            return "open file fail";
        case HCCL_E_TCP_CONNECT:
            return "tcp connect fail";
        case HCCL_E_ROCE_CONNECT:
            return "roce connect fail";
        case HCCL_E_TCP_TRANSFER:
            return "tcp transfer fail";
        case HCCL_E_ROCE_TRANSFER:
            return "roce transfer fail";
        case HCCL_E_RUNTIME:
            return "call runtime api fail";
        case HCCL_E_DRV:
            return "call driver api fail";
        case HCCL_E_PROFILING:
            return "call profiling api fail";
        case HCCL_E_CCE:
            return "call cce api fail";
        case HCCL_E_NETWORK:
            return "call network api fail";
        case HCCL_E_AGAIN:
            return "try again";
        case HCCL_E_REMOTE:
            return "error cqe";
        case HCCL_E_SUSPENDING:
            return "error communicator suspending";
        case HCCL_E_OPRETRY_FAIL:
            return "retry constraint";
        case HCCL_E_OOM:
            return "out of memory";
        case HCCL_E_IN_STATUS:
            return "see the status for details";
        default:
            return "unknown error";
    }
}

uint32_t HcclGetCommConfigCapability(void) {
    // Every field before hcclAlgo is read (buffer size, determinism, name, expansion mode,
    // world rank id, job id, graph zero copy and the execution timeout).
    return HCCL_COMM_CONFIG_ALGO;
}

HcclResult HcclSetConfig(HcclConfig config, union HcclConfigValue configValue) {
    OPENACL_API();
    if (config != HCCL_DETERMINISTIC) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA, "config %d is not one HcclSetConfig knows (HCCL_DETERMINISTIC)",
                 static_cast<int>(config)));
    }
    if (configValue.value < 0 || configValue.value > 2) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA,
                 "HCCL_DETERMINISTIC takes 0 (off), 1 (deterministic) or 2 (strict), not %d",
                 configValue.value));
    }
    std::lock_guard lock(g_config_mutex);
    g_deterministic = configValue.value;
    return HCCL_SUCCESS;
}

HcclResult HcclGetConfig(HcclConfig config, union HcclConfigValue* configValue) {
    OPENACL_API();
    if (configValue == nullptr)
        return static_cast<HcclResult>(Fail(HCCL_E_PTR, "configValue is null"));
    if (config != HCCL_DETERMINISTIC) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA, "config %d is not one HcclGetConfig knows (HCCL_DETERMINISTIC)",
                 static_cast<int>(config)));
    }
    std::lock_guard lock(g_config_mutex);
    int32_t value = g_deterministic;
    if (value < 0) {
        const char* env = std::getenv("HCCL_DETERMINISTIC");
        value = env == nullptr                                                  ? 0
                : std::strcmp(env, "strict") == 0                               ? 2
                : (std::strcmp(env, "true") == 0 || std::strcmp(env, "1") == 0) ? 1
                                                                                : 0;
    }
    configValue->value = value;
    return HCCL_SUCCESS;
}

HcclResult HcclGetCommName(HcclComm comm, char* commName) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    auto found = hccl::FindOrFail(comm, &rc);
    if (found == nullptr) return rc;
    if (commName == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "commName is null"));
    const std::string& name = found->name();
    const size_t n = std::min<size_t>(name.size(), COMM_NAME_MAX_LENGTH - 1);
    std::memcpy(commName, name.data(), n);
    commName[n] = '\0';
    return HCCL_SUCCESS;
}

HcclResult HcclCommGetHandleWithName(const char* commName, HcclComm* comm) {
    OPENACL_API();
    if (commName == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "commName is null"));
    if (comm == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "comm is null"));
    std::shared_ptr<hccl::Communicator> found = hccl::FindByNameHere(commName);
    if (found == nullptr) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_NOT_FOUND,
                 "no communicator named \"%s\" on this thread's device (the name is what "
                 "HcclGetCommName returns)",
                 commName));
    }
    *comm = found->handle();
    return HCCL_SUCCESS;
}

HcclResult HcclGroupStart(void) {
    OPENACL_API();
    return hccl::GroupStart();
}

HcclResult HcclGroupEnd(void) {
    OPENACL_API();
    return hccl::GroupEnd();
}

HcclResult HcclGroupStatusGet(bool* inGroup) {
    OPENACL_API();
    if (inGroup == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "inGroup is null"));
    *inGroup = hccl::InGroup();
    return HCCL_SUCCESS;
}

HcclResult HcclCommSuspend(HcclComm comm) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    auto found = hccl::FindOrFail(comm, &rc);
    if (found == nullptr) return rc;
    found->set_status(HCCL_COMM_STATUS_SUSPENDING);
    return HCCL_SUCCESS;
}

HcclResult HcclCommResume(HcclComm comm) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    auto found = hccl::FindOrFail(comm, &rc);
    if (found == nullptr) return rc;
    NotifyState(comm, HCCL_COMM_STATE_PHASE_RESUME_PRE);
    found->set_status(HCCL_COMM_STATUS_READY);
    NotifyState(comm, HCCL_COMM_STATE_PHASE_RESUME_POST);
    return HCCL_SUCCESS;
}

HcclResult HcclCommGetStatus(const char* commId, HcclCommStatus* status) {
    OPENACL_API();
    if (commId == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "commId is null"));
    if (status == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "status is null"));
    std::shared_ptr<hccl::Communicator> found = hccl::FindByNameHere(commId);
    if (found == nullptr) {
        return static_cast<HcclResult>(Fail(
            HCCL_E_NOT_FOUND, "no communicator named \"%s\" (HcclGetCommName's name)", commId));
    }
    *status = found->status();
    return HCCL_SUCCESS;
}

HcclResult HcclCommRegCommStateCallback(const char* regName, HcclCommStateCallback callback,
                                        void* args) {
    OPENACL_API();
    if (regName == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "regName is null"));
    std::lock_guard lock(g_callbacks_mutex);
    if (callback == nullptr) {
        StateCallbacks().erase(regName);  // a null callback unregisters
    } else {
        StateCallbacks()[regName] = {callback, args};
    }
    return HCCL_SUCCESS;
}

HcclResult HcclCommWorkingDevNicSet(HcclComm comm, uint32_t* ranks, bool* useBackup,
                                    uint32_t nRanks) {
    OPENACL_API();
    (void)comm, (void)ranks, (void)useBackup, (void)nRanks;
    return NotSupported("HcclCommWorkingDevNicSet",
                        "backup device NICs are a feature of Ascend servers' networking");
}

HcclResult HcclCommSetMemoryRange(HcclComm comm, void* baseVirPtr, size_t size, size_t alignment,
                                  uint64_t flags) {
    OPENACL_API();
    (void)comm, (void)baseVirPtr, (void)size, (void)alignment, (void)flags;
    return NotSupported("HcclCommSetMemoryRange", "zero-copy memory ranges");
}

HcclResult HcclCommUnsetMemoryRange(HcclComm comm, void* baseVirPtr) {
    OPENACL_API();
    (void)comm, (void)baseVirPtr;
    return NotSupported("HcclCommUnsetMemoryRange", "zero-copy memory ranges");
}

HcclResult HcclCommActivateCommMemory(HcclComm comm, void* virPtr, size_t size, size_t offset,
                                      aclrtDrvMemHandle handle, uint64_t flags) {
    OPENACL_API();
    (void)comm, (void)virPtr, (void)size, (void)offset, (void)handle, (void)flags;
    return NotSupported("HcclCommActivateCommMemory", "zero-copy memory ranges");
}

HcclResult HcclCommDeactivateCommMemory(HcclComm comm, void* virPtr) {
    OPENACL_API();
    (void)comm, (void)virPtr;
    return NotSupported("HcclCommDeactivateCommMemory", "zero-copy memory ranges");
}

HcclResult HcclCommSymWinRegister(HcclComm comm, void* addr, uint64_t size,
                                  HcclCommSymWindow* winHandle, uint32_t flag) {
    OPENACL_API();
    (void)comm, (void)addr, (void)size, (void)winHandle, (void)flag;
    return NotSupported("HcclCommSymWinRegister", "symmetric-memory windows");
}

HcclResult HcclCommSymWinDeregister(HcclCommSymWindow winHandle) {
    OPENACL_API();
    (void)winHandle;
    return NotSupported("HcclCommSymWinDeregister", "symmetric-memory windows");
}

HcclResult HcclCommSymWinGet(HcclComm comm, void* ptr, size_t size, HcclCommSymWindow* winHandle,
                             size_t* offset) {
    OPENACL_API();
    (void)comm, (void)ptr, (void)size, (void)winHandle, (void)offset;
    return NotSupported("HcclCommSymWinGet", "symmetric-memory windows");
}

HcclResult HcclConfigGetInfo(HcclComm comm, HcclConfigType cfgType, uint32_t infoLen, void* info) {
    OPENACL_API();
    HcclResult rc = HCCL_SUCCESS;
    auto found = hccl::FindOrFail(comm, &rc);
    if (found == nullptr) return rc;
    if (info == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "info is null"));
    if (cfgType != HCCL_CONFIG_TYPE_OP_EXPANSION_MODE) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_NOT_SUPPORT,
                 "HcclConfigGetInfo answers HCCL_CONFIG_TYPE_OP_EXPANSION_MODE only, not %d",
                 static_cast<int>(cfgType)));
    }
    if (infoLen < sizeof(HcclOpExpansionMode)) {
        return static_cast<HcclResult>(Fail(HCCL_E_PARA,
                                            "infoLen is %u: an HcclOpExpansionMode needs %zu bytes",
                                            infoLen, sizeof(HcclOpExpansionMode)));
    }
    const HcclOpExpansionMode mode =
        static_cast<HcclOpExpansionMode>(found->options().op_expansion_mode);
    std::memcpy(info, &mode, sizeof mode);
    return HCCL_SUCCESS;
}

}  // extern "C"
#pragma GCC visibility pop

// HCCL's headers carry no visibility attribute (CANN's do not): export explicitly.
#pragma GCC visibility push(default)
extern "C" {

HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank, HcclComm* comm) {
    OPENACL_API();
    return InitClusterInfoChecked(clusterInfo, rank, nullptr, comm);
}

HcclResult HcclCommInitClusterInfoConfig(const char* clusterInfo, uint32_t rank,
                                         HcclCommConfig* config, HcclComm* comm) {
    OPENACL_API();
    if (config == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PTR, "config is null"));
    return InitClusterInfoChecked(clusterInfo, rank, config, comm);
}

}  // extern "C"
#pragma GCC visibility pop
