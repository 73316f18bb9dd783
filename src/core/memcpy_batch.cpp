#include "core/memcpy_batch.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "backend/cpu/task.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/memory.h"
#include "core/stream.h"
#include "core/trace.h"

namespace openacl {

namespace {

const char* LocationName(aclrtMemLocationType type) {
    switch (type) {
        case ACL_MEM_LOCATION_TYPE_HOST:
            return "host";
        case ACL_MEM_LOCATION_TYPE_DEVICE:
            return "device";
        default:
            return "unknown";
    }
}

// One checked copy of an asynchronous batch, re-checked when the task runs.
struct BatchCopy {
    void* dst;
    const void* src;
    size_t size;
    bool check_dst, check_src;  // acl memory: still allocated when the copy runs?
};

bool StillLive(const void* p, size_t bytes, bool check) {
    if (!check) return true;
    const MemRegion region = ClassifyPointer(p);
    if (!region.device_accessible()) return false;
    return bytes <= region.BytesFrom(p);
}

}  // namespace

aclError CopyBatch(const MemcpyBatch& b, size_t* fail_index, Stream* stream) {
    if (fail_index != nullptr) *fail_index = SIZE_MAX;
    if (b.dsts == nullptr || b.dest_maxs == nullptr || b.srcs == nullptr || b.sizes == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dsts, destMaxs, srcs and sizes must not be null");
    }
    if (b.count == 0) return Fail(ACL_ERROR_INVALID_PARAM, "numBatches must not be 0");
    if (b.attrs == nullptr || b.attrs_indexes == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "attrs and attrsIndexes must not be null");
    }
    if (b.num_attrs == 0 || b.num_attrs > b.count) {
        return Fail(ACL_ERROR_INVALID_PARAM, "numAttrs %zu must be 1 to numBatches (%zu)",
                    b.num_attrs, b.count);
    }
    if (b.attrs_indexes[0] != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "attrsIndexes[0] is %zu; the first entry must be 0",
                    b.attrs_indexes[0]);
    }
    for (size_t k = 1; k < b.num_attrs; ++k) {
        if (b.attrs_indexes[k] <= b.attrs_indexes[k - 1] || b.attrs_indexes[k] >= b.count) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "attrsIndexes[%zu] is %zu: each entry must be greater than the one "
                        "before and less than numBatches (%zu)",
                        k, b.attrs_indexes[k], b.count);
        }
    }
    // The direction every copy shares, from the attributes: host to device or device to host.
    aclrtMemcpyKind kind = ACL_MEMCPY_HOST_TO_DEVICE;
    for (size_t k = 0; k < b.num_attrs; ++k) {
        const aclrtMemcpyBatchAttr& attr = b.attrs[k];
        const size_t first = b.attrs_indexes[k];
        aclrtMemcpyKind this_kind;
        if (attr.dstLoc.type == ACL_MEM_LOCATION_TYPE_DEVICE &&
            attr.srcLoc.type == ACL_MEM_LOCATION_TYPE_HOST) {
            this_kind = ACL_MEMCPY_HOST_TO_DEVICE;
        } else if (attr.dstLoc.type == ACL_MEM_LOCATION_TYPE_HOST &&
                   attr.srcLoc.type == ACL_MEM_LOCATION_TYPE_DEVICE) {
            this_kind = ACL_MEMCPY_DEVICE_TO_HOST;
        } else {
            if (fail_index != nullptr) *fail_index = first;
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "attrs[%zu] copies from %s to %s memory: a batch copies host to device "
                        "or device to host only",
                        k, LocationName(attr.srcLoc.type), LocationName(attr.dstLoc.type));
        }
        if (k == 0) {
            kind = this_kind;
        } else if (this_kind != kind) {
            if (fail_index != nullptr) *fail_index = first;
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "attrs[%zu] copies the other way from attrs[0]: all the copies of a "
                        "batch go one way, host to device or device to host",
                        k);
        }
    }
    // Every copy checked as aclrtMemcpy checks one, before any runs.
    auto copies = std::unique_ptr<BatchCopy[], decltype(&std::free)>(
        static_cast<BatchCopy*>(std::malloc(sizeof(BatchCopy) * b.count)), &std::free);
    if (copies == nullptr) {
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot hold a batch of %zu copies", b.count);
    }
    bool pageable = false;
    uint64_t bytes = 0;
    for (size_t i = 0; i < b.count; ++i) {
        MemRegion dst_region, src_region;
        if (aclError rc = CheckMemcpy(b.dsts[i], b.dest_maxs[i], b.srcs[i], b.sizes[i], kind,
                                      &dst_region, &src_region)) {
            if (fail_index != nullptr) *fail_index = i;
            return rc;
        }
        const MemRegion& host = kind == ACL_MEMCPY_HOST_TO_DEVICE ? src_region : dst_region;
        pageable |= host.domain == MemDomain::kHost;
        copies[i] = {b.dsts[i], b.srcs[i], b.sizes[i], dst_region.device_accessible(),
                     src_region.device_accessible()};
        bytes += b.sizes[i];
    }
    // Synchronous forms, accelerator streams and pageable host memory (whose copies are done
    // before the call returns, as CANN documents): one copy after another, in the call.
    if (stream == nullptr || stream->lane() != nullptr || pageable) {
        for (size_t i = 0; i < b.count; ++i) {
            aclError rc =
                stream == nullptr
                    ? Memcpy(b.dsts[i], b.dest_maxs[i], b.srcs[i], b.sizes[i], kind)
                    : MemcpyAsync(b.dsts[i], b.dest_maxs[i], b.srcs[i], b.sizes[i], kind, stream);
            if (rc != ACL_SUCCESS) return rc;
        }
        return ACL_SUCCESS;
    }
    struct Task {
        Stream* stream;
        BatchCopy* copies;
        size_t count;
    };
    const Task payload{stream, copies.release(), b.count};
    // Replayable: the copies are only read, so a captured batch copies again at each replay;
    // the original frees them, once.
    const cpu::Task task = cpu::MakeTask(
        [payload](cpu::TaskContext& ctx) {
            std::unique_ptr<BatchCopy[], decltype(&std::free)> owned(
                ctx.borrowed() ? nullptr : payload.copies, &std::free);
            if (ctx.cancelled()) return cpu::TaskStatus::Done();
            for (size_t i = 0; i < payload.count; ++i) {
                const BatchCopy& c = payload.copies[i];
                if (!StillLive(c.dst, c.size, c.check_dst) ||
                    !StillLive(c.src, c.size, c.check_src)) {
                    payload.stream->NoteFailure(
                        "aclrtMemcpyBatchAsync: copy %zu (%zu bytes from %p to %p) found its "
                        "memory freed before it ran",
                        i, c.size, c.src, c.dst);
                    exception_info::Report(ctx, payload.stream, ACL_ERROR_RT_COPY_DATA);
                    return cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
                }
                std::memmove(c.dst, c.src, c.size);
            }
            return cpu::TaskStatus::Done();
        },
        0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable);
    stream->Submit(task, {kind == ACL_MEMCPY_HOST_TO_DEVICE ? trace::Kind::kMemcpyH2D
                                                            : trace::Kind::kMemcpyD2H,
                          bytes});
    return ACL_SUCCESS;
}

}  // namespace openacl
