// Groups of HCCL calls (hccl/group.h).
#include "hccl/group.h"

#include <thread>
#include <utility>

#include "acl/acl.h"
#include "core/context.h"
#include "core/error.h"

namespace openacl::hccl {
namespace {

struct HeldOp {
    std::shared_ptr<Communicator> comm;
    aclrtStream stream;
    Context* context;  // current when the op was issued: its stream's (checked then)
    CollOp op;
    std::vector<BufferUse> buffers;
};

// What a grouped communicator creation left for HcclGroupEnd: its result and, when it failed,
// why (recorded on the creating thread, where the program cannot read it).
struct InitOutcome {
    HcclResult code = HCCL_SUCCESS;
    std::string why;
};

struct Group {
    int depth = 0;
    std::vector<std::thread> inits;
    std::vector<std::shared_ptr<InitOutcome>> init_results;  // one per thread, written by it
    std::vector<HeldOp> ops;

    // A thread that exits with a group open (no HcclGroupEnd) must not leave its creation
    // threads joinable: that would terminate the process.
    ~Group() {
        for (std::thread& init : inits)
            init.join();
    }
};

Group& ThisThreadsGroup() {
    thread_local Group group;
    return group;
}

// Sends and receives become the items of one batch.
void AddItems(const CollOp& op, std::vector<HcclSendRecvItem>* items) {
    if (op.kind == CollKind::kBatchSendRecv) {
        items->insert(items->end(), op.items.begin(), op.items.end());
        return;
    }
    const bool send = op.kind == CollKind::kSend;
    items->push_back({send ? HCCL_SEND : HCCL_RECV, send ? const_cast<void*>(op.send) : op.recv,
                      op.count, op.type, op.root});
}

// Makes `context` current (a thread may drive several devices' ranks in one group, switching
// devices between the calls); false, with the failure recorded, when it is gone.
bool MakeCurrent(Context* context) {
    if (context == nullptr || context == CurrentContext()) return true;
    return aclrtSetCurrentContext(context) == ACL_SUCCESS;
}

}  // namespace

bool InGroup() {
    return ThisThreadsGroup().depth > 0;
}

HcclResult GroupStart() {
    ++ThisThreadsGroup().depth;
    return HCCL_SUCCESS;
}

HcclResult GroupEnd() {
    Group& group = ThisThreadsGroup();
    if (group.depth == 0) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA, "HcclGroupEnd without a matching HcclGroupStart on this thread"));
    }
    if (--group.depth > 0) return HCCL_SUCCESS;  // nested: the outermost end runs the group
    HcclResult result = HCCL_SUCCESS;
    for (std::thread& init : group.inits)
        init.join();
    for (const auto& outcome : group.init_results) {
        if (result != HCCL_SUCCESS || outcome->code == HCCL_SUCCESS) continue;
        result = static_cast<HcclResult>(Fail(
            outcome->code, "a communicator created in the group failed: %s", outcome->why.c_str()));
    }
    group.inits.clear();
    group.init_results.clear();
    std::vector<HeldOp> ops = std::move(group.ops);
    group.ops.clear();
    Context* const original = CurrentContext();
    for (size_t i = 0; i < ops.size();) {
        HeldOp& held = ops[i];
        if (!MakeCurrent(held.context)) {
            if (result == HCCL_SUCCESS) result = HCCL_E_PARA;
            ++i;
            continue;
        }
        if (Collective(held.op.kind)) {
            const HcclResult r = Enqueue(held.comm, held.stream, std::move(held.op),
                                         held.buffers.data(), held.buffers.size());
            if (result == HCCL_SUCCESS) result = r;
            ++i;
            continue;
        }
        // Consecutive point-to-point operations of one communicator on one stream.
        CollOp batch;
        batch.kind = CollKind::kBatchSendRecv;
        std::vector<BufferUse> buffers;
        size_t j = i;
        for (; j < ops.size() && !Collective(ops[j].op.kind) && ops[j].comm == held.comm &&
               ops[j].stream == held.stream;
             ++j) {
            AddItems(ops[j].op, &batch.items);
            buffers.insert(buffers.end(), ops[j].buffers.begin(), ops[j].buffers.end());
        }
        const HcclResult r =
            Enqueue(held.comm, held.stream, std::move(batch), buffers.data(), buffers.size());
        if (result == HCCL_SUCCESS) result = r;
        i = j;
    }
    if (original != nullptr) MakeCurrent(original);
    return result;
}

void DeferInit(std::function<HcclResult()> init) {
    Group& group = ThisThreadsGroup();
    auto outcome = std::make_shared<InitOutcome>();
    group.init_results.push_back(outcome);
    group.inits.emplace_back([init = std::move(init), outcome] {
        FailureCapture capture;
        outcome->code = init();
        if (outcome->code != HCCL_SUCCESS) outcome->why = capture.message();
    });
}

HcclResult Issue(const std::shared_ptr<Communicator>& comm, aclrtStream stream, CollOp op,
                 std::vector<BufferUse> buffers) {
    if (!InGroup()) return Enqueue(comm, stream, std::move(op), buffers.data(), buffers.size());
    // Refused now, at the call that is wrong, rather than at HcclGroupEnd.
    if (HcclResult rc = Enqueue(comm, stream, op, buffers.data(), buffers.size(), true);
        rc != HCCL_SUCCESS) {
        return rc;
    }
    ThisThreadsGroup().ops.push_back(
        {comm, stream, CurrentContext(), std::move(op), std::move(buffers)});
    return HCCL_SUCCESS;
}

}  // namespace openacl::hccl
