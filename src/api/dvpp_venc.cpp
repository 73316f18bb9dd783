// acl_dvpp.h: video encode (VENC). Channel descriptors with their setters and getters (also
// reachable by key through ...Param), frame configs (force an I-frame, end of stream), channels
// and picture sends. H.264 is encoded with libx264, H.265 with libx265, through libavcodec.
#include <cstring>
#include <new>

#include "core/check.h"
#include "core/error.h"
#include "dvpp/chip.h"
#include "dvpp/venc.h"

using openacl::Fail;
using namespace openacl::dvpp;

namespace {

bool LiveDesc(const aclvencChannelDesc* desc) {
    if (desc == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "channelDesc is null");
        return false;
    }
    if (!VencChannelDescs().Contains(desc)) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "channelDesc %p is not a live aclvencChannelDesc (destroyed, or not made by "
             "aclvencCreateChannelDesc)",
             static_cast<const void*>(desc));
        return false;
    }
    return true;
}

bool LiveConfig(const aclvencFrameConfig* config) {
    if (config == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "config is null");
        return false;
    }
    if (!VencFrameConfigs().Contains(config)) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "config %p is not a live aclvencFrameConfig (destroyed, or not made by "
             "aclvencCreateFrameConfig)",
             static_cast<const void*>(config));
        return false;
    }
    return true;
}

aclError Settable(const aclvencChannelDesc* desc, const char* what) {
    if (!LiveDesc(desc)) return ACL_ERROR_INVALID_PARAM;
    if (desc->channel != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "VENC channel %u already exists: set its %s before aclvencCreateChannel",
                    desc->channel_id, what);
    }
    return ACL_SUCCESS;
}

aclError InRange(uint32_t value, uint32_t lo, uint32_t hi, const char* what) {
    if (value >= lo && value <= hi) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM, "%s %u is outside %u..%u", what, value, lo, hi);
}

aclError SetThreadId(aclvencChannelDesc* d, uint64_t v) {
    if (aclError rc = Settable(d, "thread id")) return rc;
    d->thread_id = v;
    return ACL_SUCCESS;
}
aclError SetCallback(aclvencChannelDesc* d, aclvencCallback v) {
    if (aclError rc = Settable(d, "callback")) return rc;
    d->callback = v;
    return ACL_SUCCESS;
}
aclError SetEnType(aclvencChannelDesc* d, uint32_t v) {
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
aclError SetPicFormat(aclvencChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "picture format")) return rc;
    if (v != PIXEL_FORMAT_YUV_SEMIPLANAR_420 && v != PIXEL_FORMAT_YVU_SEMIPLANAR_420) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "picFormat %u: VENC reads PIXEL_FORMAT_YUV_SEMIPLANAR_420 (1, NV12) or "
                    "PIXEL_FORMAT_YVU_SEMIPLANAR_420 (2, NV21) only",
                    v);
    }
    d->pic_format = static_cast<acldvppPixelFormat>(v);
    return ACL_SUCCESS;
}
aclError SetSide(aclvencChannelDesc* d, uint32_t v, uint32_t* field, const char* what) {
    if (aclError rc = Settable(d, what)) return rc;
    if (v < VencMinSide() || v > VencMaxSide() || v % 2 != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s %u: VENC encodes %u..%u, even, on %s", what, v,
                    VencMinSide(), VencMaxSide(), ChipName().c_str());
    }
    *field = v;
    return ACL_SUCCESS;
}
aclError SetKeyFrameInterval(aclvencChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "key frame interval")) return rc;
    if (aclError rc = InRange(v, 1, 65536, "keyFrameInterval")) return rc;
    d->key_frame_interval = v;
    return ACL_SUCCESS;
}
aclError SetBufAddr(aclvencChannelDesc* d, void* v) {
    if (aclError rc = Settable(d, "buffer address")) return rc;
    d->buf_addr = v;
    return ACL_SUCCESS;
}
aclError SetBufSize(aclvencChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "buffer size")) return rc;
    d->buf_size = v;
    return ACL_SUCCESS;
}
aclError SetRcMode(aclvencChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "rate-control mode")) return rc;
    if (v > 2) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "rcMode is 0 (default, %s on %s), 1 (VBR) or 2 (CBR), not %u",
                    IsNewDvpp(CurrentChip()) ? "VBR" : "CBR", ChipName().c_str(), v);
    }
    d->rc_mode = v;
    return ACL_SUCCESS;
}
aclError SetSrcRate(aclvencChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "source frame rate")) return rc;
    if (v > VencMaxSrcRate()) {
        return Fail(ACL_ERROR_INVALID_PARAM, "srcRate is 0 (30 fps) or 1..%u on %s, not %u",
                    VencMaxSrcRate(), ChipName().c_str(), v);
    }
    d->src_rate = v;
    return ACL_SUCCESS;
}
aclError SetMaxBitRate(aclvencChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "maximum bit rate")) return rc;
    if (v != 0 && (v < 10 || v > 30000)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "maxBitRate is 0 (300 kbit/s) or 10..30000 kbit/s, not %u", v);
    }
    d->max_bit_rate = v;
    return ACL_SUCCESS;
}
aclError SetMaxIpProp(aclvencChannelDesc* d, uint32_t v) {
    if (aclError rc = Settable(d, "I/P bit ratio")) return rc;
    if (aclError rc = InRange(v, 1, 100, "maxIpProp")) return rc;
    d->max_ip_prop = v;
    return ACL_SUCCESS;
}

size_t ParamSize(aclvencChannelDescParamType type) {
    switch (type) {
        case ACL_VENC_THREAD_ID_UINT64:
            return sizeof(uint64_t);
        case ACL_VENC_CALLBACK_PTR:
            return sizeof(aclvencCallback);
        case ACL_VENC_BUF_ADDR_PTR:
            return sizeof(void*);
        case ACL_VENC_PIXEL_FORMAT_UINT32:
        case ACL_VENC_ENCODE_TYPE_UINT32:
        case ACL_VENC_PIC_WIDTH_UINT32:
        case ACL_VENC_PIC_HEIGHT_UINT32:
        case ACL_VENC_KEY_FRAME_INTERVAL_UINT32:
        case ACL_VENC_BUF_SIZE_UINT32:
        case ACL_VENC_RC_MODE_UINT32:
        case ACL_VENC_SRC_RATE_UINT32:
        case ACL_VENC_MAX_BITRATE_UINT32:
        case ACL_VENC_MAX_IP_PROP_UINT32:
            return sizeof(uint32_t);
    }
    return 0;
}

// The picture VENC reads, as CANN documents it (VENC restrictions, aclvencSendFrame): the
// channel's format whatever the picture's says (setting it has no effect), the channel's size
// where the picture leaves it unset, widthStride ALIGN_UP(width, 16) unless set, heightStride
// not needed, and widthStride x height x 3 / 2 bytes. Programs set only data and size.
aclError ResolveInput(const acldvppPicDesc& input, const VencChannel& channel, Picture* out) {
    const aclvencChannelDesc& s = channel.settings();
    Picture pic = Snapshot(input);
    if (openacl::check::On() && pic.format != PIXEL_FORMAT_YUV_400 && pic.format != s.pic_format) {
        openacl::Warn(
            "input has %s, but the channel encodes %s: VENC reads the channel's "
            "format (the picture's has no effect)",
            FormatName(pic.format).c_str(), FormatName(s.pic_format).c_str());
    }
    pic.format = s.pic_format;
    if (pic.width == 0) pic.width = s.width;
    if (pic.height == 0) pic.height = s.height;
    if (pic.width != s.width || pic.height != s.height) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "input is %ux%u, but the channel encodes %ux%u pictures (leave the "
                    "picture's width and height unset for the channel's)",
                    pic.width, pic.height, s.width, s.height);
    }
    if (pic.ws == 0) pic.ws = AlignUp(pic.width, 16);
    if (pic.ws % 16 != 0 || pic.ws < AlignUp(pic.width, 16)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "input widthStride %u: it is a multiple of 16, at least ALIGN_UP(%u, 16) "
                    "(0 means ALIGN_UP(width, 16))",
                    pic.ws, pic.width);
    }
    const uint64_t needed = static_cast<uint64_t>(pic.ws) * pic.height * 3 / 2;
    if (pic.size < needed) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "input size %u is below widthStride x height x 3 / 2 = %u x %u x 3 / 2 = "
                    "%llu bytes",
                    pic.size, pic.ws, pic.height, static_cast<unsigned long long>(needed));
    }
    // A heightStride above the height places the chroma plane at widthStride x heightStride
    // where the buffer holds that layout; otherwise the chroma follows the luma rows, the
    // layout of the documented size.
    if (pic.hs < pic.height || static_cast<uint64_t>(pic.ws) * pic.hs * 3 / 2 > pic.size) {
        pic.hs = pic.height;
    }
    const uint64_t bytes = static_cast<uint64_t>(pic.ws) * pic.hs * 3 / 2;
    if (aclError rc = CheckMediaBuffer(pic.data, bytes, channel.work(), "input")) return rc;
    *out = pic;
    return ACL_SUCCESS;
}

}  // namespace

// ---- channel descriptor ----

aclvencChannelDesc* aclvencCreateChannelDesc() {
    OPENACL_API();
    return VencChannelDescs().Add(new (std::nothrow) aclvencChannelDesc);
}

aclError aclvencDestroyChannelDesc(aclvencChannelDesc* channelDesc) {
    OPENACL_API();
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    if (channelDesc->channel != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "VENC channel %u still exists: call aclvencDestroyChannel before "
                    "aclvencDestroyChannelDesc",
                    channelDesc->channel_id);
    }
    VencChannelDescs().Remove(channelDesc);
    delete channelDesc;
    return ACL_SUCCESS;
}

aclError aclvencSetChannelDescThreadId(aclvencChannelDesc* channelDesc, uint64_t threadId) {
    OPENACL_API();
    return SetThreadId(channelDesc, threadId);
}
aclError aclvencSetChannelDescCallback(aclvencChannelDesc* channelDesc, aclvencCallback callback) {
    OPENACL_API();
    return SetCallback(channelDesc, callback);
}
aclError aclvencSetChannelDescEnType(aclvencChannelDesc* channelDesc, acldvppStreamFormat enType) {
    OPENACL_API();
    return SetEnType(channelDesc, static_cast<uint32_t>(enType));
}
aclError aclvencSetChannelDescPicFormat(aclvencChannelDesc* channelDesc,
                                        acldvppPixelFormat picFormat) {
    OPENACL_API();
    return SetPicFormat(channelDesc, static_cast<uint32_t>(picFormat));
}
aclError aclvencSetChannelDescPicWidth(aclvencChannelDesc* channelDesc, uint32_t picWidth) {
    OPENACL_API();
    return SetSide(channelDesc, picWidth, channelDesc ? &channelDesc->width : nullptr, "picWidth");
}
aclError aclvencSetChannelDescPicHeight(aclvencChannelDesc* channelDesc, uint32_t picHeight) {
    OPENACL_API();
    return SetSide(channelDesc, picHeight, channelDesc ? &channelDesc->height : nullptr,
                   "picHeight");
}
aclError aclvencSetChannelDescKeyFrameInterval(aclvencChannelDesc* channelDesc,
                                               uint32_t keyFrameInterval) {
    OPENACL_API();
    return SetKeyFrameInterval(channelDesc, keyFrameInterval);
}
aclError aclvencSetChannelDescBufAddr(aclvencChannelDesc* channelDesc, void* bufAddr) {
    OPENACL_API();
    return SetBufAddr(channelDesc, bufAddr);
}
aclError aclvencSetChannelDescBufSize(aclvencChannelDesc* channelDesc, uint32_t bufSize) {
    OPENACL_API();
    return SetBufSize(channelDesc, bufSize);
}
aclError aclvencSetChannelDescRcMode(aclvencChannelDesc* channelDesc, uint32_t rcMode) {
    OPENACL_API();
    return SetRcMode(channelDesc, rcMode);
}
aclError aclvencSetChannelDescSrcRate(aclvencChannelDesc* channelDesc, uint32_t srcRate) {
    OPENACL_API();
    return SetSrcRate(channelDesc, srcRate);
}
aclError aclvencSetChannelDescMaxBitRate(aclvencChannelDesc* channelDesc, uint32_t maxBitRate) {
    OPENACL_API();
    return SetMaxBitRate(channelDesc, maxBitRate);
}

#define OPENACL_VENC_GETTER(Name, Type, field, fallback)                      \
    Type aclvencGetChannelDesc##Name(const aclvencChannelDesc* channelDesc) { \
        OPENACL_API();                                                        \
        if (!LiveDesc(channelDesc)) return fallback;                          \
        return channelDesc->field;                                            \
    }

OPENACL_VENC_GETTER(BufAddr, void*, buf_addr, nullptr)
OPENACL_VENC_GETTER(BufSize, uint32_t, buf_size, 0)
OPENACL_VENC_GETTER(ChannelId, uint32_t, channel_id, 0)
OPENACL_VENC_GETTER(ThreadId, uint64_t, thread_id, 0)
OPENACL_VENC_GETTER(Callback, aclvencCallback, callback, nullptr)
OPENACL_VENC_GETTER(EnType, acldvppStreamFormat, en_type, H265_MAIN_LEVEL)
OPENACL_VENC_GETTER(PicFormat, acldvppPixelFormat, pic_format, PIXEL_FORMAT_YUV_400)
OPENACL_VENC_GETTER(PicWidth, uint32_t, width, 0)
OPENACL_VENC_GETTER(PicHeight, uint32_t, height, 0)
OPENACL_VENC_GETTER(KeyFrameInterval, uint32_t, key_frame_interval, 0)
OPENACL_VENC_GETTER(RcMode, uint32_t, rc_mode, 0)
OPENACL_VENC_GETTER(SrcRate, uint32_t, src_rate, 0)
OPENACL_VENC_GETTER(MaxBitRate, uint32_t, max_bit_rate, 0)

aclError aclvencSetChannelDescParam(aclvencChannelDesc* channelDesc,
                                    aclvencChannelDescParamType paramType, size_t length,
                                    const void* param) {
    OPENACL_API();
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    if (param == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "param is null");
    const size_t size = ParamSize(paramType);
    if (size == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramType %d is not an aclvencChannelDescParamType",
                    static_cast<int>(paramType));
    }
    if (length != size) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramType %d takes a %zu-byte value, not %zu bytes",
                    static_cast<int>(paramType), size, length);
    }
    uint32_t u32 = 0;
    if (size == sizeof u32) std::memcpy(&u32, param, sizeof u32);
    switch (paramType) {
        case ACL_VENC_THREAD_ID_UINT64: {
            uint64_t id = 0;
            std::memcpy(&id, param, sizeof id);
            return SetThreadId(channelDesc, id);
        }
        case ACL_VENC_CALLBACK_PTR: {
            aclvencCallback cb = nullptr;
            std::memcpy(&cb, param, sizeof cb);
            return SetCallback(channelDesc, cb);
        }
        case ACL_VENC_BUF_ADDR_PTR: {
            void* addr = nullptr;
            std::memcpy(&addr, param, sizeof addr);
            return SetBufAddr(channelDesc, addr);
        }
        case ACL_VENC_PIXEL_FORMAT_UINT32:
            return SetPicFormat(channelDesc, u32);
        case ACL_VENC_ENCODE_TYPE_UINT32:
            return SetEnType(channelDesc, u32);
        case ACL_VENC_PIC_WIDTH_UINT32:
            return SetSide(channelDesc, u32, &channelDesc->width, "picWidth");
        case ACL_VENC_PIC_HEIGHT_UINT32:
            return SetSide(channelDesc, u32, &channelDesc->height, "picHeight");
        case ACL_VENC_KEY_FRAME_INTERVAL_UINT32:
            return SetKeyFrameInterval(channelDesc, u32);
        case ACL_VENC_BUF_SIZE_UINT32:
            return SetBufSize(channelDesc, u32);
        case ACL_VENC_RC_MODE_UINT32:
            return SetRcMode(channelDesc, u32);
        case ACL_VENC_SRC_RATE_UINT32:
            return SetSrcRate(channelDesc, u32);
        case ACL_VENC_MAX_BITRATE_UINT32:
            return SetMaxBitRate(channelDesc, u32);
        case ACL_VENC_MAX_IP_PROP_UINT32:
            return SetMaxIpProp(channelDesc, u32);
    }
    return ACL_ERROR_INVALID_PARAM;
}

aclError aclvencGetChannelDescParam(const aclvencChannelDesc* channelDesc,
                                    aclvencChannelDescParamType paramType, size_t length,
                                    size_t* paramRetSize, void* param) {
    OPENACL_API();
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    if (param == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "param is null");
    if (paramRetSize == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "paramRetSize is null");
    const size_t size = ParamSize(paramType);
    if (size == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramType %d is not an aclvencChannelDescParamType",
                    static_cast<int>(paramType));
    }
    if (length < size) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramType %d needs %zu bytes, but length is %zu",
                    static_cast<int>(paramType), size, length);
    }
    const aclvencChannelDesc& d = *channelDesc;
    uint32_t u32 = 0;
    switch (paramType) {
        case ACL_VENC_THREAD_ID_UINT64:
            std::memcpy(param, &d.thread_id, sizeof d.thread_id);
            break;
        case ACL_VENC_CALLBACK_PTR:
            std::memcpy(param, &d.callback, sizeof d.callback);
            break;
        case ACL_VENC_BUF_ADDR_PTR:
            std::memcpy(param, &d.buf_addr, sizeof d.buf_addr);
            break;
        case ACL_VENC_PIXEL_FORMAT_UINT32:
            u32 = static_cast<uint32_t>(d.pic_format);
            break;
        case ACL_VENC_ENCODE_TYPE_UINT32:
            u32 = static_cast<uint32_t>(d.en_type);
            break;
        case ACL_VENC_PIC_WIDTH_UINT32:
            u32 = d.width;
            break;
        case ACL_VENC_PIC_HEIGHT_UINT32:
            u32 = d.height;
            break;
        case ACL_VENC_KEY_FRAME_INTERVAL_UINT32:
            u32 = d.key_frame_interval;
            break;
        case ACL_VENC_BUF_SIZE_UINT32:
            u32 = d.buf_size;
            break;
        case ACL_VENC_RC_MODE_UINT32:
            u32 = d.rc_mode;
            break;
        case ACL_VENC_SRC_RATE_UINT32:
            u32 = d.src_rate;
            break;
        case ACL_VENC_MAX_BITRATE_UINT32:
            u32 = d.max_bit_rate;
            break;
        case ACL_VENC_MAX_IP_PROP_UINT32:
            u32 = d.max_ip_prop;
            break;
    }
    if (size == sizeof u32) std::memcpy(param, &u32, sizeof u32);
    *paramRetSize = size;
    return ACL_SUCCESS;
}

// ---- frame config ----

aclvencFrameConfig* aclvencCreateFrameConfig() {
    OPENACL_API();
    return VencFrameConfigs().Add(new (std::nothrow) aclvencFrameConfig);
}

aclError aclvencDestroyFrameConfig(aclvencFrameConfig* config) {
    OPENACL_API();
    if (!LiveConfig(config)) return ACL_ERROR_INVALID_PARAM;
    VencFrameConfigs().Remove(config);
    delete config;
    return ACL_SUCCESS;
}

aclError aclvencSetFrameConfigForceIFrame(aclvencFrameConfig* config, uint8_t forceIFrame) {
    OPENACL_API();
    if (!LiveConfig(config)) return ACL_ERROR_INVALID_PARAM;
    if (forceIFrame > 1) {
        return Fail(ACL_ERROR_INVALID_PARAM, "forceIFrame is 0 or 1, not %u", forceIFrame);
    }
    config->force_i_frame = forceIFrame;
    return ACL_SUCCESS;
}

aclError aclvencSetFrameConfigEos(aclvencFrameConfig* config, uint8_t eos) {
    OPENACL_API();
    if (!LiveConfig(config)) return ACL_ERROR_INVALID_PARAM;
    if (eos > 1) return Fail(ACL_ERROR_INVALID_PARAM, "eos is 0 or 1, not %u", eos);
    config->eos = eos;
    return ACL_SUCCESS;
}

// The header documents -1 for an invalid config; the uint8_t return makes it 255.
uint8_t aclvencGetFrameConfigForceIFrame(const aclvencFrameConfig* config) {
    OPENACL_API();
    if (!LiveConfig(config)) return static_cast<uint8_t>(-1);
    return config->force_i_frame;
}

uint8_t aclvencGetFrameConfigEos(const aclvencFrameConfig* config) {
    OPENACL_API();
    if (!LiveConfig(config)) return static_cast<uint8_t>(-1);
    return config->eos;
}

// ---- channels and sends ----

aclError aclvencCreateChannel(aclvencChannelDesc* channelDesc) {
    OPENACL_API();
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    return VencChannel::Create(channelDesc);
}

aclError aclvencDestroyChannel(aclvencChannelDesc* channelDesc) {
    OPENACL_API();
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    return VencChannel::Destroy(channelDesc);
}

aclError aclvencSendFrame(aclvencChannelDesc* channelDesc, acldvppPicDesc* input, void* reserve,
                          aclvencFrameConfig* config, void* userdata) {
    OPENACL_API();
    if (!LiveDesc(channelDesc)) return ACL_ERROR_INVALID_PARAM;
    VencChannel* channel = channelDesc->channel;
    if (channel == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channelDesc %p has no channel: call aclvencCreateChannel first",
                    static_cast<void*>(channelDesc));
    }
    if (reserve != nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
    if (config != nullptr && !LiveConfig(config)) return ACL_ERROR_INVALID_PARAM;
    const bool eos = config != nullptr && config->eos != 0;
    const bool force_key = config != nullptr && config->force_i_frame != 0;
    if (input == nullptr) {
        if (eos) return channel->Send(nullptr, nullptr, false, true, userdata);
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "input is null: only an end-of-stream send (aclvencSetFrameConfigEos 1) "
                    "has no picture");
    }
    if (aclError rc = CheckPicDesc(input, "input")) return rc;
    Picture pic;
    if (aclError rc = ResolveInput(*input, *channel, &pic)) return rc;
    return channel->Send(input, &pic, force_key, eos, userdata);
}
