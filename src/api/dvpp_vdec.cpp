// acl_dvpp.h: video decode (VDEC). Channel descriptors with their setters and getters (also
// reachable by key through ...Param), the reserved frame config, channels and frame sends.
// Settings are fixed once the channel is created; a send is checked here and decoded on the
// channel's own stream, its callback running on the channel's report thread.
#include <cstring>
#include <new>

#include "core/error.h"
#include "dvpp/chip.h"
#include "dvpp/vdec.h"

using openacl::Fail;
using namespace openacl::dvpp;

namespace {

bool LiveDesc(const aclvdecChannelDesc* desc) {
    if (desc == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "channelDesc is null");
        return false;
    }
    if (!VdecChannelDescs().Contains(desc)) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "channelDesc %p is not a live aclvdecChannelDesc (destroyed, or not made by "
             "aclvdecCreateChannelDesc)",
             static_cast<const void*>(desc));
        return false;
    }
    return true;
}

// For setters: a live descriptor whose channel is not created yet.
aclError Settable(const aclvdecChannelDesc* desc, const char* what) {
    if (!LiveDesc(desc)) return ACL_ERROR_INVALID_PARAM;
    if (desc->channel != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "VDEC channel %u already exists: set its %s before aclvdecCreateChannel",
                    desc->channel_id, what);
    }
    return ACL_SUCCESS;
}

aclError InRange(uint32_t value, uint32_t lo, uint32_t hi, const char* what) {
    if (value >= lo && value <= hi) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM, "%s %u is outside %u..%u", what, value, lo, hi);
}

aclError SetChannelId(aclvdecChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "channel id")) return rc;
    if (v >= VdecChannelIds()) {
        return Fail(ACL_ERROR_INVALID_PARAM, "channelId %u is outside 0..%u on %s", v,
                    VdecChannelIds() - 1, ChipName().c_str());
    }
    d->channel_id = v;
    return ACL_SUCCESS;
}
aclError SetThreadId(aclvdecChannelDesc* d, uint64_t v) {
    if (aclError rc = Settable(d, "thread id")) return rc;
    d->thread_id = v;
    return ACL_SUCCESS;
}
aclError SetCallback(aclvdecChannelDesc* d, aclvdecCallback v) {
    if (aclError rc = Settable(d, "callback")) return rc;
    d->callback = v;
    return ACL_SUCCESS;
}
aclError SetEnType(aclvdecChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "encoding type")) return rc;
    if (v > H264_HIGH_LEVEL) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "enType %u is not an acldvppStreamFormat (H265_MAIN_LEVEL 0 .. "
                    "H264_HIGH_LEVEL 3)",
                    v);
    }
    d->en_type = static_cast<acldvppStreamFormat>(v);
    return ACL_SUCCESS;
}
// The 310P and newer also decode to RGB888/BGR888; the reference gives no strides for that.
const char* RgbOutputNote() {
    return IsNewDvpp(CurrentChip()) ? " (that chip also writes RGB888/BGR888, which openacl "
                                      "does not emulate yet)"
                                    : "";
}
aclError SetOutPicFormat(aclvdecChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "output format")) return rc;
    if (v != PIXEL_FORMAT_YUV_SEMIPLANAR_420 && v != PIXEL_FORMAT_YVU_SEMIPLANAR_420) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "outPicFormat %u: VDEC writes PIXEL_FORMAT_YUV_SEMIPLANAR_420 (1, NV12) or "
                    "PIXEL_FORMAT_YVU_SEMIPLANAR_420 (2, NV21) on %s%s",
                    v, ChipName().c_str(), RgbOutputNote());
    }
    d->out_format = static_cast<acldvppPixelFormat>(v);
    return ACL_SUCCESS;
}
aclError SetOutPicWidth(aclvdecChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "output width")) return rc;
    if (aclError rc = InRange(v, kVideoMinSide, kVideoMaxSide, "outPicWidth")) return rc;
    d->out_width = v;
    return ACL_SUCCESS;
}
aclError SetOutPicHeight(aclvdecChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "output height")) return rc;
    if (aclError rc = InRange(v, kVideoMinSide, kVideoMaxSide, "outPicHeight")) return rc;
    d->out_height = v;
    return ACL_SUCCESS;
}
aclError SetRefFrameNum(aclvdecChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "reference frame count")) return rc;
    if (aclError rc = InRange(v, 0, 16, "refFrameNum")) return rc;
    d->ref_frame_num = v;
    return ACL_SUCCESS;
}
aclError SetBitDepth(aclvdecChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "bit depth")) return rc;
    if (v > 1)
        return Fail(ACL_ERROR_INVALID_PARAM, "bitDepth is 0 (8-bit) or 1 (10-bit), not %u", v);
    d->bit_depth = v;
    return ACL_SUCCESS;
}
aclError SetOutMode(aclvdecChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "output mode")) return rc;
    if (v > 1) {
        return Fail(ACL_ERROR_INVALID_PARAM, "outMode is 0 (default) or 1 (fast output), not %u",
                    v);
    }
    d->out_mode = v;
    return ACL_SUCCESS;
}
aclError SetCsc(aclvdecChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "CSC matrix")) return rc;
    if (v > ACL_DVPP_CSC_MATRIX_BT2020_NARROW) {
        return Fail(ACL_ERROR_INVALID_PARAM, "CSC matrix %u is not an acldvppCscMatrix", v);
    }
    d->csc_matrix = v;
    return ACL_SUCCESS;
}

size_t ParamSize(aclvdecChannelDescParamType type) {
    switch (type) {
        case ACL_VDEC_THREAD_ID_UINT64:
            return sizeof(uint64_t);
        case ACL_VDEC_CALLBACK_PTR:
            return sizeof(aclvdecCallback);
        case ACL_VDEC_CSC_MATRIX_UINT32:
        case ACL_VDEC_OUT_MODE_UINT32:
        case ACL_VDEC_CHANNEL_ID_UINT32:
        case ACL_VDEC_ENCODE_TYPE_UINT32:
        case ACL_VDEC_OUT_PIC_FORMAT_UINT32:
        case ACL_VDEC_OUT_PIC_WIDTH_UINT32:
        case ACL_VDEC_OUT_PIC_HEIGHT_UINT32:
        case ACL_VDEC_REF_FRAME_NUM_UINT32:
        case ACL_VDEC_BIT_DEPTH_UINT32:
            return sizeof(uint32_t);
    }
    return 0;
}

}  // namespace

// ---- channel descriptor ----

aclvdecChannelDesc* aclvdecCreateChannelDesc() {
    OPENACL_API();
    return VdecChannelDescs().Add(new (std::nothrow) aclvdecChannelDesc);
}

aclError aclvdecDestroyChannelDesc(aclvdecChannelDesc* channelDesc) {
    OPENACL_API();
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    if (channelDesc->channel != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "VDEC channel %u still exists: call aclvdecDestroyChannel before "
                    "aclvdecDestroyChannelDesc",
                    channelDesc->channel_id);
    }
    VdecChannelDescs().Remove(channelDesc);
    delete channelDesc;
    return ACL_SUCCESS;
}

aclError aclvdecSetChannelDescChannelId(aclvdecChannelDesc* channelDesc, uint32_t channelId) {
    OPENACL_API();
    return SetChannelId(channelDesc, channelId);
}
aclError aclvdecSetChannelDescThreadId(aclvdecChannelDesc* channelDesc, uint64_t threadId) {
    OPENACL_API();
    return SetThreadId(channelDesc, threadId);
}
aclError aclvdecSetChannelDescCallback(aclvdecChannelDesc* channelDesc, aclvdecCallback callback) {
    OPENACL_API();
    return SetCallback(channelDesc, callback);
}
aclError aclvdecSetChannelDescEnType(aclvdecChannelDesc* channelDesc, acldvppStreamFormat enType) {
    OPENACL_API();
    return SetEnType(channelDesc, static_cast<uint32_t>(enType));
}
aclError aclvdecSetChannelDescOutPicFormat(aclvdecChannelDesc* channelDesc,
                                           acldvppPixelFormat outPicFormat) {
    OPENACL_API();
    return SetOutPicFormat(channelDesc, static_cast<uint32_t>(outPicFormat));
}
aclError aclvdecSetChannelDescOutPicWidth(aclvdecChannelDesc* channelDesc, uint32_t outPicWidth) {
    OPENACL_API();
    return SetOutPicWidth(channelDesc, outPicWidth);
}
aclError aclvdecSetChannelDescOutPicHeight(aclvdecChannelDesc* channelDesc, uint32_t outPicHeight) {
    OPENACL_API();
    return SetOutPicHeight(channelDesc, outPicHeight);
}
aclError aclvdecSetChannelDescRefFrameNum(aclvdecChannelDesc* channelDesc, uint32_t refFrameNum) {
    OPENACL_API();
    return SetRefFrameNum(channelDesc, refFrameNum);
}
aclError aclvdecSetChannelDescBitDepth(aclvdecChannelDesc* channelDesc, uint32_t bitDepth) {
    OPENACL_API();
    return SetBitDepth(channelDesc, bitDepth);
}
aclError aclvdecSetChannelDescOutMode(aclvdecChannelDesc* channelDesc, uint32_t outMode) {
    OPENACL_API();
    return SetOutMode(channelDesc, outMode);
}

#define OPENACL_VDEC_GETTER(Name, Type, field, fallback)                      \
    Type aclvdecGetChannelDesc##Name(const aclvdecChannelDesc* channelDesc) { \
        OPENACL_API();                                                        \
        if (!LiveDesc(channelDesc)) return fallback;                          \
        return channelDesc->field;                                            \
    }

OPENACL_VDEC_GETTER(ChannelId, uint32_t, channel_id, 0)
OPENACL_VDEC_GETTER(ThreadId, uint64_t, thread_id, 0)
OPENACL_VDEC_GETTER(Callback, aclvdecCallback, callback, nullptr)
OPENACL_VDEC_GETTER(EnType, acldvppStreamFormat, en_type, H265_MAIN_LEVEL)
OPENACL_VDEC_GETTER(OutPicFormat, acldvppPixelFormat, out_format, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
OPENACL_VDEC_GETTER(OutPicWidth, uint32_t, out_width, 0)
OPENACL_VDEC_GETTER(OutPicHeight, uint32_t, out_height, 0)
OPENACL_VDEC_GETTER(BitDepth, uint32_t, bit_depth, 0)
OPENACL_VDEC_GETTER(RefFrameNum, uint32_t, ref_frame_num, 0)
OPENACL_VDEC_GETTER(OutMode, uint32_t, out_mode, 0)

aclError aclvdecSetChannelDescParam(aclvdecChannelDesc* channelDesc,
                                    aclvdecChannelDescParamType paramType, size_t length,
                                    const void* param) {
    OPENACL_API();
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    if (param == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "param is null");
    const size_t size = ParamSize(paramType);
    if (size == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramType %d is not an aclvdecChannelDescParamType",
                    static_cast<int>(paramType));
    }
    if (length != size) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramType %d takes a %zu-byte value, not %zu bytes",
                    static_cast<int>(paramType), size, length);
    }
    uint32_t u32 = 0;
    if (size == sizeof u32) std::memcpy(&u32, param, sizeof u32);
    switch (paramType) {
        case ACL_VDEC_THREAD_ID_UINT64: {
            uint64_t id = 0;
            std::memcpy(&id, param, sizeof id);
            return SetThreadId(channelDesc, id);
        }
        case ACL_VDEC_CALLBACK_PTR: {
            aclvdecCallback cb = nullptr;
            std::memcpy(&cb, param, sizeof cb);
            return SetCallback(channelDesc, cb);
        }
        case ACL_VDEC_CSC_MATRIX_UINT32:
            return SetCsc(channelDesc, u32);
        case ACL_VDEC_OUT_MODE_UINT32:
            return SetOutMode(channelDesc, u32);
        case ACL_VDEC_CHANNEL_ID_UINT32:
            return SetChannelId(channelDesc, u32);
        case ACL_VDEC_ENCODE_TYPE_UINT32:
            return SetEnType(channelDesc, u32);
        case ACL_VDEC_OUT_PIC_FORMAT_UINT32:
            return SetOutPicFormat(channelDesc, u32);
        case ACL_VDEC_OUT_PIC_WIDTH_UINT32:
            return SetOutPicWidth(channelDesc, u32);
        case ACL_VDEC_OUT_PIC_HEIGHT_UINT32:
            return SetOutPicHeight(channelDesc, u32);
        case ACL_VDEC_REF_FRAME_NUM_UINT32:
            return SetRefFrameNum(channelDesc, u32);
        case ACL_VDEC_BIT_DEPTH_UINT32:
            return SetBitDepth(channelDesc, u32);
    }
    return ACL_ERROR_INVALID_PARAM;
}

aclError aclvdecGetChannelDescParam(const aclvdecChannelDesc* channelDesc,
                                    aclvdecChannelDescParamType paramType, size_t length,
                                    size_t* paramRetSize, void* param) {
    OPENACL_API();
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    if (param == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "param is null");
    if (paramRetSize == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "paramRetSize is null");
    const size_t size = ParamSize(paramType);
    if (size == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramType %d is not an aclvdecChannelDescParamType",
                    static_cast<int>(paramType));
    }
    if (length < size) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramType %d needs %zu bytes, but length is %zu",
                    static_cast<int>(paramType), size, length);
    }
    const aclvdecChannelDesc& d = *channelDesc;
    uint32_t u32 = 0;
    switch (paramType) {
        case ACL_VDEC_THREAD_ID_UINT64:
            std::memcpy(param, &d.thread_id, sizeof d.thread_id);
            break;
        case ACL_VDEC_CALLBACK_PTR:
            std::memcpy(param, &d.callback, sizeof d.callback);
            break;
        case ACL_VDEC_CSC_MATRIX_UINT32:
            u32 = d.csc_matrix;
            break;
        case ACL_VDEC_OUT_MODE_UINT32:
            u32 = d.out_mode;
            break;
        case ACL_VDEC_CHANNEL_ID_UINT32:
            u32 = d.channel_id;
            break;
        case ACL_VDEC_ENCODE_TYPE_UINT32:
            u32 = static_cast<uint32_t>(d.en_type);
            break;
        case ACL_VDEC_OUT_PIC_FORMAT_UINT32:
            u32 = static_cast<uint32_t>(d.out_format);
            break;
        case ACL_VDEC_OUT_PIC_WIDTH_UINT32:
            u32 = d.out_width;
            break;
        case ACL_VDEC_OUT_PIC_HEIGHT_UINT32:
            u32 = d.out_height;
            break;
        case ACL_VDEC_REF_FRAME_NUM_UINT32:
            u32 = d.ref_frame_num;
            break;
        case ACL_VDEC_BIT_DEPTH_UINT32:
            u32 = d.bit_depth;
            break;
    }
    if (size == sizeof u32) std::memcpy(param, &u32, sizeof u32);
    *paramRetSize = size;
    return ACL_SUCCESS;
}

// ---- frame config (reserved: no fields) ----

aclvdecFrameConfig* aclvdecCreateFrameConfig() {
    OPENACL_API();
    return VdecFrameConfigs().Add(new (std::nothrow) aclvdecFrameConfig);
}

aclError aclvdecDestroyFrameConfig(aclvdecFrameConfig* vdecFrameConfig) {
    OPENACL_API();
    if (vdecFrameConfig == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "vdecFrameConfig is null");
    if (!VdecFrameConfigs().Remove(vdecFrameConfig)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "vdecFrameConfig %p is not a live aclvdecFrameConfig (destroyed, or not made "
                    "by aclvdecCreateFrameConfig)",
                    static_cast<void*>(vdecFrameConfig));
    }
    delete vdecFrameConfig;
    return ACL_SUCCESS;
}

// ---- channels and sends ----

aclError aclvdecCreateChannel(aclvdecChannelDesc* channelDesc) {
    OPENACL_API();
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    return VdecChannel::Create(channelDesc);
}

aclError aclvdecDestroyChannel(aclvdecChannelDesc* channelDesc) {
    OPENACL_API();
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    return VdecChannel::Destroy(channelDesc);
}

namespace {

aclError CheckOutput(const acldvppPicDesc* output, const VdecChannel& channel) {
    if (aclError rc = CheckPicDesc(output, "output")) return rc;
    const Picture pic = Snapshot(*output);
    if (pic.format != PIXEL_FORMAT_YUV_400 && pic.format != PIXEL_FORMAT_YUV_SEMIPLANAR_420 &&
        pic.format != PIXEL_FORMAT_YVU_SEMIPLANAR_420) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "output has %s; VDEC writes PIXEL_FORMAT_YUV_SEMIPLANAR_420 (NV12) or "
                    "PIXEL_FORMAT_YVU_SEMIPLANAR_420 (NV21) on %s, or leave it unset for the "
                    "channel's format%s",
                    FormatName(pic.format).c_str(), ChipName().c_str(), RgbOutputNote());
    }
    const int set = (pic.width != 0) + (pic.height != 0) + (pic.ws != 0) + (pic.hs != 0);
    if (set != 0 && set != 4) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "output sets %d of width, height, widthStride and heightStride (%u, %u, %u, "
                    "%u): set all four (the frame is scaled to them) or none (the stream's "
                    "size)",
                    set, pic.width, pic.height, pic.ws, pic.hs);
    }
    if (set == 4) {
        if (pic.width % 2 || pic.height % 2 || pic.width < 10 || pic.height < 6 ||
            pic.width > kVideoMaxSide || pic.height > kVideoMaxSide) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "output is %ux%u; a VDEC output is 10x6 to 4096x4096 with even width "
                        "and height",
                        pic.width, pic.height);
        }
        // aclvdecSendFrame: widthStride is 16-aligned, and 32-aligned below a width of 16.
        const uint32_t align = pic.width < 16 ? 32 : 16;
        if (pic.ws % align || pic.ws < AlignUp(pic.width, align) || pic.hs % 2 ||
            pic.hs < pic.height) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "output strides %ux%u do not fit %ux%u: widthStride is a multiple of "
                        "16 (of 32 for a width below 16), at least the width so aligned; "
                        "heightStride is even and at least the height",
                        pic.ws, pic.hs, pic.width, pic.height);
        }
        const uint64_t needed = static_cast<uint64_t>(pic.ws) * pic.hs * 3 / 2;
        if (pic.size < needed) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "output size %u is below widthStride x heightStride x 3 / 2 = %llu",
                        pic.size, static_cast<unsigned long long>(needed));
        }
    }
    if (pic.size == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "output size is 0: give the buffer's size (acldvppSetPicDescSize)");
    }
    return CheckMediaBuffer(pic.data, pic.size, channel.work(), "output");
}

aclError Send(aclvdecChannelDesc* channelDesc, acldvppStreamDesc* input, acldvppPicDesc* output,
              bool skipped, aclvdecFrameConfig* config, void* userData) {
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    VdecChannel* channel = channelDesc->channel;
    if (channel == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channelDesc %p has no channel: call aclvdecCreateChannel first",
                    static_cast<void*>(channelDesc));
    }
    if (input == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "input is null");
    if (!StreamDescs().Contains(input)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "input %p is not a live acldvppStreamDesc (destroyed, or not made by "
                    "acldvppCreateStreamDesc)",
                    static_cast<void*>(input));
    }
    if (config != nullptr && !VdecFrameConfigs().Contains(config)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "config %p is not a live aclvdecFrameConfig (pass one from "
                    "aclvdecCreateFrameConfig, or NULL)",
                    static_cast<void*>(config));
    }
    const bool eos = input->eos != 0;
    if (input->size == 0 || input->data == nullptr) {
        if (!eos) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "input has no data (data %p, size %u): every send carries one whole "
                        "frame; only an end-of-stream send (acldvppSetStreamDescEos 1) may be "
                        "empty",
                        input->data, input->size);
        }
        if (input->size != 0) {
            return Fail(ACL_ERROR_INVALID_PARAM, "input has size %u but no data", input->size);
        }
    } else if (aclError rc =
                   CheckMediaBuffer(input->data, input->size, channel->work(), "input stream")) {
        return rc;
    }
    if (!skipped && !(eos && input->size == 0)) {
        if (aclError rc = CheckOutput(output, *channel)) return rc;
    }
    return channel->Send(input, skipped ? nullptr : output, userData);
}

}  // namespace

aclError aclvdecSendFrame(aclvdecChannelDesc* channelDesc, acldvppStreamDesc* input,
                          acldvppPicDesc* output, aclvdecFrameConfig* config, void* userData) {
    OPENACL_API();
    return Send(channelDesc, input, output, false, config, userData);
}

aclError aclvdecSendSkippedFrame(aclvdecChannelDesc* channelDesc, acldvppStreamDesc* input,
                                 aclvdecFrameConfig* config, void* userData) {
    OPENACL_API();
    return Send(channelDesc, input, nullptr, true, config, userData);
}
