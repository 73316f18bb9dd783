// Enqueueing a collective on a stream (hccl/enqueue.h).
#include "hccl/enqueue.h"

#include <cinttypes>
#include <cstdio>

#include "acl/acl.h"
#include "backend/cpu/executor.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/memory.h"
#include "core/stream.h"

namespace openacl::hccl {
namespace {

// The code a failed collective leaves on its stream. CANN does not document which one real
// hardware reports; these are the runtime's codes for the same causes.
aclError StreamCode(HcclResult result) {
    switch (result) {
        case HCCL_E_TIMEOUT:
            return ACL_ERROR_RT_TASK_TIMEOUT;
        case HCCL_E_REMOTE:
            return ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
        case HCCL_E_TCP_CONNECT:
        case HCCL_E_TCP_TRANSFER:
        case HCCL_E_NETWORK:
            return ACL_ERROR_RT_SOCKET_CLOSE;
        case HCCL_E_PARA:
            return ACL_ERROR_RT_PARAM_INVALID;
        case HCCL_E_MEMORY:  // a buffer freed while the operation waited, as for copies
            return ACL_ERROR_RT_COPY_DATA;
        default:
            return ACL_ERROR_RT_INTERNAL_ERROR;
    }
}

HcclResult CheckBuffer(const BufferUse& use, const Device* device) {
    if (use.bytes == 0) return HCCL_SUCCESS;
    if (use.address == nullptr) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PTR, "%s is null but %" PRIu64 " bytes are to be moved through it",
                 use.name, use.bytes));
    }
    const MemRegion region = ClassifyPointer(use.address);
    if (region.domain != MemDomain::kDevice) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA,
                 "%s (%p) is %s memory: collectives move device memory (aclrtMalloc) of the "
                 "communicator's device",
                 use.name, use.address, DomainName(region.domain)));
    }
    if (region.device != device) {
        return static_cast<HcclResult>(Fail(
            HCCL_E_PARA,
            "%s (%p) is memory of device %d, but the communicator's rank is on device %d: each "
            "rank moves its own device's memory",
            use.name, use.address, region.device->id(), device->id()));
    }
    if (const uint64_t available = region.BytesFrom(use.address); use.bytes > available) {
        return static_cast<HcclResult>(Fail(HCCL_E_PARA,
                                            "%s (%p) needs %" PRIu64
                                            " bytes but its allocation has %" PRIu64
                                            " from there: check the count and the data type",
                                            use.name, use.address, use.bytes, available));
    }
    return HCCL_SUCCESS;
}

struct TaskState {
    PendingOp* op;
    Stream* stream;
    bool counted;  // BeginOp was called for it (not captured into a graph)
};

cpu::TaskStatus RunCollective(cpu::TaskContext& ctx, const TaskState& s) {
    PendingOp* p = s.op;
    Communicator& comm = *p->comm;
    auto release = [&] {
        if (ctx.borrowed()) {
            p->state.store(PendingOp::kNew, std::memory_order_relaxed);  // ready to replay
            return;
        }
        if (s.counted) comm.EndOp();
        delete p;
    };
    if (ctx.cancelled()) {
        const uint8_t state = p->state.load(std::memory_order_acquire);
        if (state == PendingOp::kStarted) {
            comm.transport().Withdraw(p);
        } else if (state == PendingOp::kNew && s.counted) {
            // Skipped or discarded before it ran: it still takes its turn, which fails for the
            // peers, so that the rank's later operations meet the peers' later ones. (A
            // captured op released with its model never was a turn.)
            if (Collective(p->op.kind)) p->seq = comm.NextSeq();
            comm.transport().Withdraw(p);
        }
        release();
        return cpu::TaskStatus::Done();
    }
    const uint8_t state = p->state.load(std::memory_order_acquire);
    if (state == PendingOp::kStarted) return cpu::TaskStatus::Suspended();  // not finished yet
    if (state == PendingOp::kNew) {
        p->token = ctx.token();
        p->result = HCCL_SUCCESS;
        p->message.clear();
        if (Collective(p->op.kind)) p->seq = comm.NextSeq();
        p->state.store(PendingOp::kStarted, std::memory_order_release);
        if (comm.transport().Start(p) == Transport::Outcome::kPending)
            return cpu::TaskStatus::Suspended();
    }
    cpu::TaskStatus status = cpu::TaskStatus::Done();
    if (p->result != HCCL_SUCCESS) {
        comm.NoteAsyncError(p->result);
        s.stream->NoteFailure("%s on rank %u of communicator \"%s\" failed (HCCL error %d): %s",
                              CollName(p->op.kind), comm.rank(), comm.name().c_str(),
                              static_cast<int>(p->result), p->message.c_str());
        const aclError code = StreamCode(p->result);
        exception_info::Report(ctx, s.stream, code);
        status = cpu::TaskStatus::Failed(code);
    }
    release();
    return status;
}

}  // namespace

std::string LostBuffer(const CollOp& op) {
    for (const BufferUse& use : op.buffers) {
        const MemRegion region = ClassifyPointer(use.address);
        if (region.domain == MemDomain::kDevice && use.bytes <= region.BytesFrom(use.address))
            continue;
        char text[256];
        std::snprintf(text, sizeof text,
                      "%s (%p, %" PRIu64
                      " bytes) of %s was freed while the operation waited in its stream: "
                      "buffers must stay allocated until the stream has run it",
                      use.name, use.address, use.bytes, CollName(op.kind));
        return text;
    }
    return {};
}

int32_t CurrentDevice(HcclResult* rc) {
    Context* context = CurrentContext();
    if (context == nullptr) {
        *rc = static_cast<HcclResult>(
            Fail(HCCL_E_PARA,
                 "this thread has no current device: call aclrtSetDevice (or make a context "
                 "current) first; a rank is bound to the device current when it is created"));
        return -1;
    }
    *rc = HCCL_SUCCESS;
    return context->device()->id();
}

HcclResult Enqueue(const std::shared_ptr<Communicator>& comm, aclrtStream handle, CollOp op,
                   const BufferUse* buffers, size_t n_buffers, bool check_only) {
    Stream* stream = nullptr;
    std::string why;
    {
        FailureCapture capture;
        aclError rc = ACL_SUCCESS;
        stream = ResolveStream(handle, &rc);
        if (stream == nullptr) why = capture.message();
    }
    if (stream == nullptr) return static_cast<HcclResult>(Fail(HCCL_E_PARA, "%s", why.c_str()));
    Device* device = stream->context()->device();
    if (device->id() != comm->device()) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_PARA,
                 "stream %p belongs to device %d, but rank %u of communicator \"%s\" is on "
                 "device %d: enqueue a rank's collectives on a stream of its own device",
                 handle, device->id(), comm->rank(), comm->name().c_str(), comm->device()));
    }
    if (device->accelerator() != nullptr) {
        return static_cast<HcclResult>(
            Fail(HCCL_E_NOT_SUPPORT,
                 "HCCL collectives on the %s backend are not available yet: openacl runs them "
                 "on the CPU backend",
                 device->accelerator()->name()));
    }
    for (size_t i = 0; i < n_buffers; ++i) {
        if (HcclResult rc = CheckBuffer(buffers[i], device); rc != HCCL_SUCCESS) return rc;
    }
    if (check_only) return HCCL_SUCCESS;
    auto* pending = new PendingOp;
    pending->op = std::move(op);
    for (size_t i = 0; i < n_buffers; ++i) {
        if (buffers[i].bytes != 0) pending->op.buffers.push_back(buffers[i]);
    }
    pending->comm = comm;
    const bool counted = !stream->diverted();
    if (counted) comm->BeginOp();
    const TaskState state{pending, stream, counted};
    stream->Submit(
        cpu::MakeTask([state](cpu::TaskContext& ctx) { return RunCollective(ctx, state); }, 0,
                      cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable));
    return HCCL_SUCCESS;
}

}  // namespace openacl::hccl
