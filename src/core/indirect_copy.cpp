#include "core/indirect_copy.h"

#include <cstdint>
#include <cstring>

#include "backend/cpu/task.h"
#include "core/device.h"
#include "core/error.h"
#include "core/memory.h"
#include "core/stream.h"
#include "core/trace.h"

namespace openacl {

namespace {

constexpr uint64_t kDescMagic = 0x4353454459504f43ULL;  // "COPYDESC"

// What a descriptor holds, in device memory.
struct Desc {
    uint64_t magic;
    uint64_t src;
    uint64_t dst;
    uint64_t count;
};
static_assert(sizeof(Desc) == kMemcpyDescSize);

aclError RequireInnerDevice(aclrtMemcpyKind kind) {
    if (kind == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM,
                "kind %d is not ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, the only kind these copies take",
                static_cast<int>(kind));
}

aclError CheckDeviceRange(const char* which, const void* p, uint64_t bytes) {
    if (p == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s is null", which);
    if (const char* problem = LiveDeviceRangeProblem(p, bytes)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s %p (%llu bytes) %s", which, p,
                    static_cast<unsigned long long>(bytes), problem);
    }
    return ACL_SUCCESS;
}

// Runs one indirect copy when its task is reached: every address checked first.
cpu::TaskStatus CopyChecked(Stream* stream, const char* api, const void* src, void* dst,
                            uint64_t count) {
    const char* problem = nullptr;
    const char* side = "source";
    if ((problem = LiveDeviceRangeProblem(src, count)) == nullptr) {
        side = "destination";
        problem = LiveDeviceRangeProblem(dst, count);
    }
    if (problem != nullptr) {
        stream->NoteFailure("%s: when the copy ran, its %s %p (%llu bytes) %s", api, side,
                            side[0] == 's' ? src : dst, static_cast<unsigned long long>(count),
                            problem);
        return cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
    }
    std::memmove(dst, src, count);
    return cpu::TaskStatus::Done();
}

}  // namespace

aclError GetMemcpyDescSize(aclrtMemcpyKind kind, size_t* size) {
    if (size == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "descSize is null");
    if (aclError rc = RequireInnerDevice(kind)) return rc;
    *size = kMemcpyDescSize;
    return ACL_SUCCESS;
}

aclError SetMemcpyDesc(void* desc, aclrtMemcpyKind kind, void* src, void* dst, size_t count,
                       void* config) {
    if (aclError rc = RequireInnerDevice(kind)) return rc;
    if (config != nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "config is reserved: pass NULL");
    if (aclError rc = CheckDeviceRange("desc", desc, kMemcpyDescSize)) return rc;
    if (aclError rc = CheckDeviceRange("srcAddr", src, count)) return rc;
    if (aclError rc = CheckDeviceRange("dstAddr", dst, count)) return rc;
    const Desc d{kDescMagic, reinterpret_cast<uint64_t>(src), reinterpret_cast<uint64_t>(dst),
                 count};
    std::memcpy(desc, &d, sizeof d);
    return ACL_SUCCESS;
}

aclError MemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind, Stream* stream) {
    if (aclError rc = RequireInnerDevice(kind)) return rc;
    if (aclError rc = CheckDeviceRange("desc", desc, kMemcpyDescSize)) return rc;
    struct Payload {
        Stream* stream;
        const void* desc;
    };
    const Payload payload{stream, desc};
    stream->Submit(
        cpu::MakeTask([payload]() {
            const char* api = "aclrtMemcpyAsyncWithDesc";
            if (const char* problem = LiveDeviceRangeProblem(payload.desc, sizeof(Desc))) {
                payload.stream->NoteFailure("%s: the descriptor %p %s", api, payload.desc, problem);
                return cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
            }
            Desc d;
            std::memcpy(&d, payload.desc, sizeof d);
            if (d.magic != kDescMagic) {
                payload.stream->NoteFailure(
                    "%s: %p holds no copy descriptor (set it with aclrtSetMemcpyDesc "
                    "first)",
                    api, payload.desc);
                return cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
            }
            return CopyChecked(payload.stream, api, reinterpret_cast<const void*>(d.src),
                               reinterpret_cast<void*>(d.dst), d.count);
        }),
        {trace::Kind::kMemcpyD2D, 0});
    return ACL_SUCCESS;
}

aclError MemcpyAsyncWithOffset(void** dst, size_t dest_max, size_t dst_offset, const void** src,
                               size_t count, size_t src_offset, aclrtMemcpyKind kind,
                               Stream* stream) {
    if (aclError rc = RequireInnerDevice(kind)) return rc;
    if (count > dest_max) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "count (%zu bytes) is larger than destMax (%zu bytes), the capacity of dst",
                    count, dest_max);
    }
    if (aclError rc = CheckDeviceRange("dst", dst, sizeof(void*))) return rc;
    if (aclError rc = CheckDeviceRange("src", src, sizeof(void*))) return rc;
    struct Payload {
        Stream* stream;
        void** dst;
        const void** src;
        uint64_t count;
        uint32_t dst_offset, src_offset;
    };
    if (dst_offset > UINT32_MAX || src_offset > UINT32_MAX) {
        return Fail(ACL_ERROR_INVALID_PARAM, "offsets above 4 GiB are not supported");
    }
    const Payload payload{stream,
                          dst,
                          src,
                          count,
                          static_cast<uint32_t>(dst_offset),
                          static_cast<uint32_t>(src_offset)};
    stream->Submit(cpu::MakeTask([payload]() {
                       // The base addresses are read now, where the copy runs.
                       const char* api = "aclrtMemcpyAsyncWithOffset";
                       if (LiveDeviceRangeProblem(payload.dst, sizeof(void*)) != nullptr ||
                           LiveDeviceRangeProblem(payload.src, sizeof(void*)) != nullptr) {
                           payload.stream->NoteFailure(
                               "%s: the device memory holding the base addresses was freed "
                               "before the copy ran",
                               api);
                           return cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
                       }
                       auto* d = static_cast<char*>(*payload.dst) + payload.dst_offset;
                       auto* s = static_cast<const char*>(*payload.src) + payload.src_offset;
                       return CopyChecked(payload.stream, api, s, d, payload.count);
                   }),
                   {trace::Kind::kMemcpyD2D, count});
    return ACL_SUCCESS;
}

}  // namespace openacl
