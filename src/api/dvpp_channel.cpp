// acl_dvpp.h: image-processing channels (VPC, JPEGD, JPEGE, PNGD). A channel is a name for the
// engines its tasks may use; creating one needs a current context.
#include <cstring>
#include <new>

#include "core/error.h"
#include "dvpp/channel.h"
#include "dvpp/chip.h"
#include "dvpp/jpeg.h"

using openacl::Fail;
using namespace openacl::dvpp;

namespace {

bool LiveChannelDesc(const acldvppChannelDesc* desc) {
    if (desc == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "channelDesc is null");
        return false;
    }
    if (!ChannelDescs().Contains(desc)) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "channelDesc %p is not a live acldvppChannelDesc (destroyed, or not made by "
             "acldvppCreateChannelDesc)",
             static_cast<const void*>(desc));
        return false;
    }
    return true;
}

aclError CheckMode(uint32_t mode) {
    if (mode == 0 || (mode & ~kAllChannelModes) != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "mode 0x%x is not a non-empty OR of DVPP_CHNMODE_VPC (1), _JPEGD (2), "
                    "_JPEGE (4) and _PNGD (8)",
                    mode);
    }
    return ACL_SUCCESS;
}

aclError RefuseWhenCreated(const acldvppChannelDesc* desc, const char* what) {
    if (desc->channel_id == 0) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM,
                "channel %llu already exists: set its %s before acldvppCreateChannel",
                static_cast<unsigned long long>(desc->channel_id), what);
}

}  // namespace

acldvppChannelDesc* acldvppCreateChannelDesc() {
    OPENACL_API();
    return ChannelDescs().Add(new (std::nothrow) acldvppChannelDesc);
}

aclError acldvppDestroyChannelDesc(acldvppChannelDesc* channelDesc) {
    OPENACL_API();
    if (!LiveChannelDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    if (channelDesc->channel_id != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channel %llu still exists: call acldvppDestroyChannel before "
                    "acldvppDestroyChannelDesc",
                    static_cast<unsigned long long>(channelDesc->channel_id));
    }
    ChannelDescs().Remove(channelDesc);
    delete channelDesc;
    return ACL_SUCCESS;
}

uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc* channelDesc) {
    OPENACL_API();
    if (!LiveChannelDesc(channelDesc)) return 0;
    return channelDesc->channel_id;
}

aclError acldvppSetChannelDescMode(acldvppChannelDesc* channelDesc, uint32_t mode) {
    OPENACL_API();
    if (!LiveChannelDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    if (aclError rc = RefuseWhenCreated(channelDesc, "mode")) return rc;
    if (aclError rc = CheckMode(mode)) return rc;
    channelDesc->mode = mode;
    return ACL_SUCCESS;
}

aclError acldvppSetChannelDescParam(acldvppChannelDesc* channelDesc,
                                    acldvppChannelDescParamType paramType, size_t length,
                                    const void* param) {
    OPENACL_API();
    if (!LiveChannelDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    if (param == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "param is null");
    if (aclError rc = RefuseWhenCreated(channelDesc, "parameters")) return rc;
    auto expect = [&](size_t size) {
        if (length == size) return ACL_SUCCESS;
        return Fail(ACL_ERROR_INVALID_PARAM, "paramType %d takes a %zu-byte value, not %zu bytes",
                    static_cast<int>(paramType), size, length);
    };
    uint32_t u32 = 0;
    int32_t i32 = 0;
    switch (paramType) {
        case ACL_DVPP_CSC_MATRIX_UINT32:
            if (aclError rc = expect(sizeof u32)) return rc;
            std::memcpy(&u32, param, sizeof u32);
            if (u32 > ACL_DVPP_CSC_MATRIX_BT2020_NARROW) {
                return Fail(ACL_ERROR_INVALID_PARAM, "CSC matrix %u is not an acldvppCscMatrix",
                            u32);
            }
            channelDesc->csc_matrix = u32;
            return ACL_SUCCESS;
        case ACL_DVPP_MODE_UINT32:
            if (aclError rc = expect(sizeof u32)) return rc;
            std::memcpy(&u32, param, sizeof u32);
            if (aclError rc = CheckMode(u32)) return rc;
            channelDesc->mode = u32;
            return ACL_SUCCESS;
        case ACL_DVPP_CHANNEL_HEIGHT_UINT32:
        case ACL_DVPP_CHANNEL_WIDTH_UINT32:
            if (aclError rc = expect(sizeof u32)) return rc;
            std::memcpy(&u32, param, sizeof u32);
            if (u32 < 32 || u32 > JpegeMaxSide()) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "a JPEGE channel width or height is 32..%u on %s, not %u",
                            JpegeMaxSide(), ChipName().c_str(), u32);
            }
            (paramType == ACL_DVPP_CHANNEL_WIDTH_UINT32 ? channelDesc->jpege_width
                                                        : channelDesc->jpege_height) = u32;
            return ACL_SUCCESS;
        case ACL_DVPP_JPEGD_PRECISION_MODE_ENUM:
            if (aclError rc = expect(sizeof i32)) return rc;
            std::memcpy(&i32, param, sizeof i32);
            if (i32 < ACL_YUVOUT_ALIGN_DOWN || i32 > ACL_YUVOUT_ALIGN_DOWN_COMPAT) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "JPEGD precision mode %d is not an acldvppJpegdPrecisionMode", i32);
            }
            channelDesc->jpegd_precision = i32;
            return ACL_SUCCESS;
        case ACL_DVPP_CHANNEL_ID_UINT64:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "ACL_DVPP_CHANNEL_ID_UINT64 is read-only: acldvppCreateChannel assigns it");
        default:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "paramType %d is not an acldvppChannelDescParamType",
                        static_cast<int>(paramType));
    }
}

aclError acldvppGetChannelDescParam(const acldvppChannelDesc* channelDesc,
                                    acldvppChannelDescParamType paramType, size_t length,
                                    size_t* paramRetSize, void* param) {
    OPENACL_API();
    if (!LiveChannelDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    if (param == nullptr || paramRetSize == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "param and paramRetSize must not be null");
    }
    uint32_t u32 = 0;
    int32_t i32 = 0;
    uint64_t u64 = 0;
    const void* value = &u32;
    size_t size = sizeof u32;
    switch (paramType) {
        case ACL_DVPP_CSC_MATRIX_UINT32:
            u32 = channelDesc->csc_matrix;
            break;
        case ACL_DVPP_MODE_UINT32:
            u32 = channelDesc->mode == 0 ? kAllChannelModes : channelDesc->mode;
            break;
        case ACL_DVPP_CHANNEL_HEIGHT_UINT32:
            u32 = channelDesc->jpege_height != 0 ? channelDesc->jpege_height : JpegeMaxSide();
            break;
        case ACL_DVPP_CHANNEL_WIDTH_UINT32:
            u32 = channelDesc->jpege_width != 0 ? channelDesc->jpege_width : JpegeMaxSide();
            break;
        case ACL_DVPP_JPEGD_PRECISION_MODE_ENUM:
            i32 = channelDesc->jpegd_precision;
            value = &i32;
            size = sizeof i32;
            break;
        case ACL_DVPP_CHANNEL_ID_UINT64:
            u64 = channelDesc->channel_id;
            value = &u64;
            size = sizeof u64;
            break;
        default:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "paramType %d is not an acldvppChannelDescParamType",
                        static_cast<int>(paramType));
    }
    if (length < size) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramType %d needs %zu bytes, length is %zu",
                    static_cast<int>(paramType), size, length);
    }
    std::memcpy(param, value, size);
    *paramRetSize = size;
    return ACL_SUCCESS;
}

aclError acldvppCreateChannel(acldvppChannelDesc* channelDesc) {
    OPENACL_API();
    if (!LiveChannelDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    return CreateChannel(channelDesc);
}

aclError acldvppDestroyChannel(acldvppChannelDesc* channelDesc) {
    OPENACL_API();
    if (!LiveChannelDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    return DestroyChannel(channelDesc);
}
