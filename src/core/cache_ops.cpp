#include "core/cache_ops.h"

#include <cstring>

#include "backend/cpu/task.h"
#include "core/error.h"
#include "core/memory.h"
#include "core/stream.h"

namespace openacl {

namespace {

constexpr uint64_t kCmoMagic = 0x4353454444434d4fULL;  // "OMCDDESC"

struct CmoDesc {
    uint64_t magic;
    uint64_t src;
    uint64_t size;
    uint64_t reserved;
};
static_assert(sizeof(CmoDesc) == kCmoDescSize);

aclError RequirePrefetch(aclrtCmoType type) {
    if (type == ACL_RT_CMO_TYPE_PREFETCH) return ACL_SUCCESS;
    if (static_cast<unsigned>(type) <= ACL_RT_CMO_TYPE_FLUSH) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "cmoType %d: CANN supports only ACL_RT_CMO_TYPE_PREFETCH here",
                    static_cast<int>(type));
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "cmoType %d is not an aclrtCmoType",
                static_cast<int>(type));
}

aclError CheckRange(const char* which, const void* p, uint64_t bytes) {
    if (p == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s is null", which);
    if (bytes == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
    if (const char* problem = LiveDeviceRangeProblem(p, bytes)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s %p (%llu bytes) %s", which, p,
                    static_cast<unsigned long long>(bytes), problem);
    }
    return ACL_SUCCESS;
}

void Prefetch(const void* p, uint64_t bytes) {
    const auto* bytes_at = static_cast<const char*>(p);
    for (uint64_t offset = 0; offset < bytes; offset += 64)
        __builtin_prefetch(bytes_at + offset, 0, 3);
}

}  // namespace

aclError CmoAsync(void* src, size_t size, aclrtCmoType type, Stream* stream) {
    if (aclError rc = RequirePrefetch(type)) return rc;
    if (aclError rc = CheckRange("src", src, size)) return rc;
    struct Payload {
        const void* src;
        uint64_t size;
    };
    const Payload payload{src, size};
    stream->Submit(cpu::MakeTask([payload] {
        // Freed meanwhile: a prefetch of nothing, as the cache would do.
        if (LiveDeviceRangeProblem(payload.src, payload.size) == nullptr) {
            Prefetch(payload.src, payload.size);
        }
    }));
    return ACL_SUCCESS;
}

aclError CmoGetDescSize(size_t* size) {
    if (size == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "size is null");
    *size = kCmoDescSize;
    return ACL_SUCCESS;
}

aclError CmoSetDesc(void* desc, void* src, size_t size) {
    if (aclError rc = CheckRange("cmoDesc", desc, kCmoDescSize)) return rc;
    if (aclError rc = CheckRange("src", src, size)) return rc;
    const CmoDesc d{kCmoMagic, reinterpret_cast<uint64_t>(src), size, 0};
    std::memcpy(desc, &d, sizeof d);
    return ACL_SUCCESS;
}

aclError CmoAsyncWithDesc(void* desc, aclrtCmoType type, Stream* stream, const void* reserve) {
    if (reserve != nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "reserve is reserved: pass NULL");
    if (aclError rc = RequirePrefetch(type)) return rc;
    if (aclError rc = CheckRange("cmoDesc", desc, kCmoDescSize)) return rc;
    struct Payload {
        Stream* stream;
        const void* desc;
    };
    const Payload payload{stream, desc};
    stream->Submit(cpu::MakeTask([payload]() {
        // The descriptor is read when the operation runs, as the device reads it.
        if (LiveDeviceRangeProblem(payload.desc, kCmoDescSize) != nullptr) {
            payload.stream->NoteFailure(
                "aclrtCmoAsyncWithDesc: the descriptor %p was freed before the operation ran",
                payload.desc);
            return cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
        }
        CmoDesc d;
        std::memcpy(&d, payload.desc, sizeof d);
        if (d.magic != kCmoMagic) {
            payload.stream->NoteFailure(
                "aclrtCmoAsyncWithDesc: %p holds no CMO descriptor (set it with aclrtCmoSetDesc "
                "first)",
                payload.desc);
            return cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
        }
        const void* src = reinterpret_cast<const void*>(d.src);
        if (LiveDeviceRangeProblem(src, d.size) == nullptr) Prefetch(src, d.size);
        return cpu::TaskStatus::Done();
    }));
    return ACL_SUCCESS;
}

}  // namespace openacl
