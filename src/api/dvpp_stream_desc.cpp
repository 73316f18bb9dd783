// acl_dvpp.h: the stream descriptor (acldvppStreamDesc), a compressed bit stream: VDEC's input
// and VENC's output. A plain host object; destroying it leaves its data buffer alone.
#include <new>

#include "core/error.h"
#include "dvpp/descriptors.h"

using openacl::Fail;
using namespace openacl::dvpp;

namespace {

bool LiveStream(const acldvppStreamDesc* desc) {
    if (desc == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "streamDesc is null");
        return false;
    }
    if (!StreamDescs().Contains(desc)) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "streamDesc %p is not a live acldvppStreamDesc (destroyed, or not made by "
             "acldvppCreateStreamDesc)",
             static_cast<const void*>(desc));
        return false;
    }
    return true;
}

}  // namespace

acldvppStreamDesc* acldvppCreateStreamDesc() {
    OPENACL_API();
    return StreamDescs().Add(new (std::nothrow) acldvppStreamDesc);
}

aclError acldvppDestroyStreamDesc(acldvppStreamDesc* streamDesc) {
    OPENACL_API();
    if (!LiveStream(streamDesc)) return ACL_ERROR_INVALID_PARAM;
    StreamDescs().Remove(streamDesc);
    delete streamDesc;
    return ACL_SUCCESS;
}

#define OPENACL_STREAM_SETTER(Name, Type, field)                                     \
    aclError acldvppSetStreamDesc##Name(acldvppStreamDesc* streamDesc, Type value) { \
        OPENACL_API();                                                               \
        if (!LiveStream(streamDesc)) return ACL_ERROR_INVALID_PARAM;                 \
        streamDesc->field = value;                                                   \
        return ACL_SUCCESS;                                                          \
    }
#define OPENACL_STREAM_GETTER(Name, Type, field, fallback)                 \
    Type acldvppGetStreamDesc##Name(const acldvppStreamDesc* streamDesc) { \
        OPENACL_API();                                                     \
        if (!LiveStream(streamDesc)) return fallback;                      \
        return streamDesc->field;                                          \
    }

OPENACL_STREAM_SETTER(Data, void*, data)
OPENACL_STREAM_SETTER(Size, uint32_t, size)
OPENACL_STREAM_SETTER(Timestamp, uint64_t, timestamp)
OPENACL_STREAM_SETTER(RetCode, uint32_t, ret_code)
OPENACL_STREAM_GETTER(Data, void*, data, nullptr)
OPENACL_STREAM_GETTER(Size, uint32_t, size, 0)
OPENACL_STREAM_GETTER(Format, acldvppStreamFormat, format, H265_MAIN_LEVEL)
OPENACL_STREAM_GETTER(Timestamp, uint64_t, timestamp, 0)
OPENACL_STREAM_GETTER(RetCode, uint32_t, ret_code, 0)
OPENACL_STREAM_GETTER(Eos, uint8_t, eos, 0)

aclError acldvppSetStreamDescFormat(acldvppStreamDesc* streamDesc, acldvppStreamFormat format) {
    OPENACL_API();
    if (!LiveStream(streamDesc)) return ACL_ERROR_INVALID_PARAM;
    if (format < H265_MAIN_LEVEL || format > H264_HIGH_LEVEL) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "format %d is not an acldvppStreamFormat (H265_MAIN_LEVEL 0 .. "
                    "H264_HIGH_LEVEL 3)",
                    static_cast<int>(format));
    }
    streamDesc->format = format;
    return ACL_SUCCESS;
}

aclError acldvppSetStreamDescEos(acldvppStreamDesc* streamDesc, uint8_t eos) {
    OPENACL_API();
    if (!LiveStream(streamDesc)) return ACL_ERROR_INVALID_PARAM;
    if (eos > 1) return Fail(ACL_ERROR_INVALID_PARAM, "eos is 0 or 1, not %u", eos);
    streamDesc->eos = eos;
    return ACL_SUCCESS;
}
