#include "core/value_wait.h"

#include <atomic>
#include <string>

#include "backend/cpu/executor.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/memory.h"
#include "core/model_ri.h"
#include "core/poll_park.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl {

namespace {

// CANN documents the pair for Atlas A2/A3 only.
aclError RequireChip(const char* api) {
    const std::string& soc = Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "%s is not available on %s (CANN documents it for Atlas A2/A3 only)", api,
                soc.c_str());
}

aclError CheckAddress(const char* api, void* address, Stream* stream) {
    if (address == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "devAddr is null");
    if (reinterpret_cast<uintptr_t>(address) % 8 != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "devAddr %p is not 8-byte aligned", address);
    }
    if (const char* problem = LiveDeviceRangeProblem(address, 8)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "devAddr %p %s", address, problem);
    }
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s is not supported on the %s backend yet",
                    api, stream->context()->device()->accelerator()->name());
    }
    return RequireChip(api);
}

bool Satisfied(uint64_t now, uint64_t value, uint32_t flag) {
    switch (flag) {
        case ACL_STREAM_WAIT_VALUE_GEQ:
            return static_cast<int64_t>(now - value) >= 0;  // wrap-around, as documented
        case ACL_STREAM_WAIT_VALUE_EQ:
            return now == value;
        case ACL_STREAM_WAIT_VALUE_AND:
            return (now & value) != 0;
        default:  // ACL_STREAM_WAIT_VALUE_NOR
            return ~(now | value) != 0;
    }
}

}  // namespace

cpu::Task ValueWriteTask(void* address, uint64_t value, Stream* stream) {
    struct Write {
        Stream* stream;
        uint64_t* address;
        uint64_t value;
    };
    const Write write{stream, static_cast<uint64_t*>(address), value};
    return cpu::MakeTask([write](cpu::TaskContext& ctx) {
        if (ctx.cancelled()) return cpu::TaskStatus::Done();
        if (LiveDeviceRangeProblem(write.address, 8) != nullptr) {
            write.stream->NoteFailure(
                "aclrtValueWrite: the memory at %p was freed before the write ran",
                static_cast<void*>(write.address));
            exception_info::Report(ctx, write.stream, ACL_ERROR_RT_COPY_DATA);
            return cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
        }
        std::atomic_ref<uint64_t>(*write.address).store(write.value, std::memory_order_release);
        WakeParked();
        return cpu::TaskStatus::Done();
    });
}

cpu::Task ValueWaitTask(const void* address, uint64_t value, uint32_t flag, Stream* stream) {
    struct Wait {
        Stream* stream;
        const uint64_t* address;
        uint64_t value;
        uint32_t flag;
    };
    const Wait wait{stream, static_cast<const uint64_t*>(address), value, flag};
    return cpu::MakeTask([wait](cpu::TaskContext& ctx) {
        if (ctx.cancelled()) return cpu::TaskStatus::Done();
        if (LiveDeviceRangeProblem(wait.address, 8) != nullptr) {
            wait.stream->NoteFailure("aclrtValueWait: the memory at %p was freed while waited for",
                                     static_cast<const void*>(wait.address));
            exception_info::Report(ctx, wait.stream, ACL_ERROR_RT_COPY_DATA);
            return cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
        }
        const uint64_t now = std::atomic_ref<uint64_t>(*const_cast<uint64_t*>(wait.address))
                                 .load(std::memory_order_acquire);
        if (Satisfied(now, wait.value, wait.flag)) return cpu::TaskStatus::Done();
        ParkUntilPolled(ctx.token());
        return cpu::TaskStatus::Suspended();
    });
}

aclError CheckValueWrite(void* address, uint32_t flag, Stream* stream) {
    if (flag != 0)
        return Fail(ACL_ERROR_INVALID_PARAM, "flag is reserved and must be 0, not %u", flag);
    return CheckAddress("aclrtValueWrite", address, stream);
}

aclError CheckValueWait(void* address, uint32_t flag, Stream* stream) {
    if (flag > ACL_STREAM_WAIT_VALUE_NOR) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flag %u is not a compare mode (ACL_STREAM_WAIT_VALUE_GEQ, _EQ, _AND, _NOR)",
                    flag);
    }
    return CheckAddress("aclrtValueWait", address, stream);
}

aclError ValueWrite(void* address, uint64_t value, uint32_t flag, Stream* stream) {
    if (aclError rc = CheckValueWrite(address, flag, stream)) return rc;
    CaptureInfo info;
    info.type = ACL_MODEL_RI_TASK_VALUE_WRITE;
    info.address = address;
    info.value = value;
    stream->Submit(ValueWriteTask(address, value, stream), {}, &info);
    return ACL_SUCCESS;
}

aclError ValueWait(void* address, uint64_t value, uint32_t flag, Stream* stream) {
    if (aclError rc = CheckValueWait(address, flag, stream)) return rc;
    CaptureInfo info;
    info.type = ACL_MODEL_RI_TASK_VALUE_WAIT;
    info.address = address;
    info.value = value;
    info.flag = flag;
    stream->Submit(ValueWaitTask(address, value, flag, stream), {}, &info);
    return ACL_SUCCESS;
}

}  // namespace openacl
