// aclrtProfTrace: a profiling point the program puts on a stream, carrying up to 18 bytes of
// its own data (CANN's replacement for rtProfilerTraceEx). It is an empty task: the trace shows
// it on the stream's track, with the data, when the stream gets there.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "acl/acl_rt.h"
#include "core/error.h"
#include "core/host_mapping.h"
#include "core/stream.h"
#include "core/trace.h"

using openacl::Fail;
namespace trace = openacl::trace;

namespace {

// The documented size; shorter data is padded with zeros to it, longer data refused.
constexpr int32_t kUserDataBytes = 18;

}  // namespace

aclError aclrtProfTrace(void* userdata, int32_t length, aclrtStream stream) {
    OPENACL_API();
    if (userdata == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "userdata is null");
    if (length < 0 || length > kUserDataBytes) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "length %d is invalid: 0 to %d bytes (shorter data is padded with zeros)",
                    length, kUserDataBytes);
    }
    aclError rc = openacl::CheckUnregisteredHostMemory("userdata", userdata, length,
                                                       openacl::HostAccess::kRead);
    if (rc != ACL_SUCCESS) return rc;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    trace::Label label{trace::Kind::kProfTrace};
    if (trace::On()) {  // the data goes with the task only to be shown
        uint8_t data[kUserDataBytes] = {};
        std::memcpy(data, userdata, static_cast<size_t>(length));
        std::memcpy(&label.a, data, sizeof label.a);
        std::memcpy(&label.b, data + sizeof label.a, sizeof label.b);
        char hex[2 * kUserDataBytes + 1];
        for (int32_t i = 0; i < kUserDataBytes; ++i)
            std::snprintf(hex + 2 * i, 3, "%02x", data[i]);
        label.name = trace::Intern(hex);
    }
    resolved->SubmitMark(label);
    return ACL_SUCCESS;
}
