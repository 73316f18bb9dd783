// acl_dvpp.h: JPEG and PNG. The probing helpers read host memory and answer at once; decode
// and encode are tasks on a stream that read the stream's data when they run, so a copy queued
// before them on the same stream is seen. Data-dependent failures (an undecodable JPEG, a
// buffer too small for this picture) fail the task: the stream's synchronisation returns the
// code with the explanation, and the output descriptor's retCode holds it.
#include <string>

#include "core/error.h"
#include "core/host_mapping.h"
#include "core/stream.h"
#include "dvpp/channel.h"
#include "dvpp/jpeg.h"
#include "dvpp/png.h"
#include "dvpp/task.h"

using openacl::Fail;
using namespace openacl::dvpp;

namespace {

aclError CheckHostData(const void* data, uint32_t size) {
    if (data == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "data is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size is 0");
    return openacl::CheckUnregisteredHostMemory("data", data, size, openacl::HostAccess::kRead);
}

aclError JpegInfo(const void* data, uint32_t size, uint32_t* width, uint32_t* height,
                  int32_t* components, acldvppJpegFormat* format) {
    if (aclError rc = CheckHostData(data, size)) return rc;
    JpegHeader header;
    std::string why;
    if (aclError rc = ParseJpegHeader(static_cast<const uint8_t*>(data), size, &header, &why)) {
        return Fail(rc, "%s", why.c_str());
    }
    if (width) *width = header.width;
    if (height) *height = header.height;
    if (components) *components = header.components;
    if (format) *format = header.format;
    return ACL_SUCCESS;
}

// Writes a finished decode into the output descriptor, if it still exists.
void Publish(acldvppPicDesc* desc, aclError code, acldvppPixelFormat format, uint32_t width,
             uint32_t height, uint32_t ws, uint32_t hs, uint64_t size) {
    if (!PicDescs().Contains(desc)) return;
    desc->ret_code = static_cast<uint32_t>(code);
    if (code != ACL_SUCCESS) return;
    desc->format = format;
    desc->width = width;
    desc->height = height;
    desc->width_stride = ws;
    desc->height_stride = hs;
    desc->size = static_cast<uint32_t>(size);
}

// What a decode task needs: the input stream and the output descriptor, checked.
struct DecodeArgs {
    openacl::Stream* stream = nullptr;
    Picture out;
};

aclError CheckDecodeArgs(const acldvppChannelDesc* channel, uint32_t engine, const void* data,
                         uint32_t size, acldvppPicDesc* outputDesc, aclrtStream stream,
                         bool (*format_ok)(acldvppPixelFormat), const char* formats,
                         DecodeArgs* args) {
    if (aclError rc = CheckChannelFor(channel, engine)) return rc;
    if (data == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "data is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size is 0");
    if (aclError rc = CheckPicDesc(outputDesc, "outputDesc")) return rc;
    aclError rc = ACL_SUCCESS;
    args->stream = openacl::ResolveStream(stream, &rc);
    if (args->stream == nullptr) return rc;
    args->out = Snapshot(*outputDesc);
    if (!format_ok(args->out.format)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "outputDesc has %s; this decoder writes %s",
                    FormatName(args->out.format).c_str(), formats);
    }
    if (args->out.size == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "outputDesc has size 0: set the output buffer's size (predict it with the "
                    "PredictDecSize function)");
    }
    if (aclError rc2 = CheckMediaBuffer(data, size, args->stream, "the input data")) return rc2;
    return CheckMediaBuffer(args->out.data, args->out.size, args->stream, "outputDesc");
}

std::string TooSmall(uint32_t have, uint64_t need, const char* what) {
    return "outputDesc holds " + std::to_string(have) + " bytes but the decoded picture needs " +
           std::to_string(need) + ": size the buffer with " + what;
}

}  // namespace

aclError acldvppJpegGetImageInfo(const void* data, uint32_t size, uint32_t* width, uint32_t* height,
                                 int32_t* components) {
    OPENACL_API();
    return JpegInfo(data, size, width, height, components, nullptr);
}

aclError acldvppJpegGetImageInfoV2(const void* data, uint32_t size, uint32_t* width,
                                   uint32_t* height, int32_t* components,
                                   acldvppJpegFormat* format) {
    OPENACL_API();
    return JpegInfo(data, size, width, height, components, format);
}

aclError acldvppJpegPredictDecSize(const void* data, uint32_t dataSize,
                                   acldvppPixelFormat outputPixelFormat, uint32_t* decSize) {
    OPENACL_API();
    if (aclError rc = CheckHostData(data, dataSize)) return rc;
    if (decSize == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "decSize is null");
    if (!IsJpegdOutputFormat(outputPixelFormat)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s is not a JPEGD output format: use YUV/YVU semi-planar 420, 422, 444, 440 "
                    "or PIXEL_FORMAT_UNKNOWN",
                    FormatName(outputPixelFormat).c_str());
    }
    JpegHeader header;
    JpegdLayout layout;
    std::string why;
    aclError rc = ParseJpegHeader(static_cast<const uint8_t*>(data), dataSize, &header, &why);
    if (rc == ACL_SUCCESS) {
        rc = PlanJpegDecode(header, outputPixelFormat, ACL_YUVOUT_ALIGN_DOWN_COMPAT, &layout, &why);
    }
    if (rc != ACL_SUCCESS) return Fail(rc, "%s", why.c_str());
    *decSize = static_cast<uint32_t>(layout.size);
    return ACL_SUCCESS;
}

aclError acldvppJpegDecodeAsync(acldvppChannelDesc* channelDesc, const void* data, uint32_t size,
                                acldvppPicDesc* outputDesc, aclrtStream stream) {
    OPENACL_API();
    DecodeArgs args;
    if (aclError rc = CheckDecodeArgs(channelDesc, DVPP_CHNMODE_JPEGD, data, size, outputDesc,
                                      stream, IsJpegdOutputFormat,
                                      "YUV/YVU semi-planar 420, 422, 444 or 440, or "
                                      "PIXEL_FORMAT_UNKNOWN (the source's layout)",
                                      &args)) {
        return rc;
    }
    const int32_t precision = channelDesc->jpegd_precision;
    const auto* input = static_cast<const uint8_t*>(data);
    openacl::Stream* s = args.stream;
    Picture out = args.out;
    Submit(s, [=](std::string* why) {
        aclError rc = CheckMediaBuffer(input, size, s, "the JPEG data", why);
        if (rc == ACL_SUCCESS) rc = CheckMediaBuffer(out.data, out.size, s, "outputDesc", why);
        JpegHeader header;
        JpegdLayout layout;
        if (rc == ACL_SUCCESS) rc = ParseJpegHeader(input, size, &header, why);
        if (rc == ACL_SUCCESS) rc = PlanJpegDecode(header, out.format, precision, &layout, why);
        if (rc == ACL_SUCCESS && layout.size > out.size) {
            *why = TooSmall(out.size, layout.size, "acldvppJpegPredictDecSize");
            rc = ACL_ERROR_INVALID_PARAM;
        }
        if (rc == ACL_SUCCESS) rc = DecodeJpeg(input, size, header, layout, out.data, why);
        Publish(outputDesc, rc, layout.format, layout.width, layout.height, layout.ws, layout.hs,
                layout.size);
        return rc;
    });
    return ACL_SUCCESS;
}

aclError acldvppJpegPredictEncSize(const acldvppPicDesc* inputDesc,
                                   const acldvppJpegeConfig* config, uint32_t* size) {
    OPENACL_API();
    if (aclError rc = CheckPicDesc(inputDesc, "inputDesc")) return rc;
    if (config == nullptr || !JpegeConfigs().Contains(config)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "config %p is not a live acldvppJpegeConfig",
                    static_cast<const void*>(config));
    }
    if (size == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "size is null");
    Picture pic = Snapshot(*inputDesc);
    if (aclError rc = CheckJpegeInputShape(pic, "inputDesc")) return rc;
    *size = static_cast<uint32_t>(PredictJpegSize(pic));
    return ACL_SUCCESS;
}

aclError acldvppJpegEncodeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                const void* data, uint32_t* size, acldvppJpegeConfig* config,
                                aclrtStream stream) {
    OPENACL_API();
    if (aclError rc = CheckChannelFor(channelDesc, DVPP_CHNMODE_JPEGE)) return rc;
    if (aclError rc = CheckPicDesc(inputDesc, "inputDesc")) return rc;
    if (config == nullptr || !JpegeConfigs().Contains(config)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "config %p is not a live acldvppJpegeConfig",
                    static_cast<const void*>(config));
    }
    if (size == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "size is null");
    if (*size == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "*size is 0: pass the output buffer's capacity (acldvppJpegPredictEncSize)");
    }
    aclError rc = ACL_SUCCESS;
    openacl::Stream* s = openacl::ResolveStream(stream, &rc);
    if (s == nullptr) return rc;
    Picture in = Snapshot(*inputDesc);
    const uint32_t max_w =
        channelDesc->jpege_width != 0 ? channelDesc->jpege_width : JpegeMaxSide();
    const uint32_t max_h =
        channelDesc->jpege_height != 0 ? channelDesc->jpege_height : JpegeMaxSide();
    if (in.width > max_w || in.height > max_h) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "inputDesc is %ux%u but the channel encodes at most %ux%u "
                    "(ACL_DVPP_CHANNEL_WIDTH/HEIGHT_UINT32)",
                    in.width, in.height, max_w, max_h);
    }
    if ((rc = CheckJpegeInput(in, s, "inputDesc"))) return rc;
    const uint32_t capacity = *size;
    if ((rc = CheckMediaBuffer(data, capacity, s, "the JPEG output buffer"))) return rc;
    const uint32_t level = config->level;
    auto* out = static_cast<uint8_t*>(const_cast<void*>(data));
    Submit(s, [=](std::string* why) {
        aclError code = CheckMediaBuffer(in.data, in.size, s, "inputDesc", why);
        if (code == ACL_SUCCESS) {
            code = CheckMediaBuffer(out, capacity, s, "the JPEG output buffer", why);
        }
        if (code == ACL_SUCCESS) code = EncodeJpeg(in, level, out, capacity, size, why);
        return code;
    });
    return ACL_SUCCESS;
}

aclError acldvppPngGetImageInfo(const void* data, uint32_t dataSize, uint32_t* width,
                                uint32_t* height, int32_t* components) {
    OPENACL_API();
    if (aclError rc = CheckHostData(data, dataSize)) return rc;
    PngHeader header;
    std::string why;
    if (aclError rc = ParsePngHeader(static_cast<const uint8_t*>(data), dataSize, &header, &why)) {
        return Fail(rc, "%s", why.c_str());
    }
    if (width) *width = header.width;
    if (height) *height = header.height;
    if (components) *components = header.components;
    return ACL_SUCCESS;
}

aclError acldvppPngPredictDecSize(const void* data, uint32_t dataSize,
                                  acldvppPixelFormat outputPixelFormat, uint32_t* decSize) {
    OPENACL_API();
    if (aclError rc = CheckHostData(data, dataSize)) return rc;
    if (decSize == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "decSize is null");
    if (!IsPngdOutputFormat(outputPixelFormat)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s is not a PNGD output format: use PIXEL_FORMAT_RGB_888, "
                    "PIXEL_FORMAT_RGBA_8888 or PIXEL_FORMAT_UNKNOWN",
                    FormatName(outputPixelFormat).c_str());
    }
    PngHeader header;
    PngdLayout layout;
    std::string why;
    aclError rc = ParsePngHeader(static_cast<const uint8_t*>(data), dataSize, &header, &why);
    if (rc == ACL_SUCCESS) rc = PlanPngDecode(header, outputPixelFormat, &layout, &why);
    if (rc != ACL_SUCCESS) return Fail(rc, "%s", why.c_str());
    *decSize = static_cast<uint32_t>(layout.size);
    return ACL_SUCCESS;
}

aclError acldvppPngDecodeAsync(acldvppChannelDesc* channelDesc, const void* data, uint32_t size,
                               acldvppPicDesc* outputDesc, aclrtStream stream) {
    OPENACL_API();
    DecodeArgs args;
    if (aclError rc = CheckDecodeArgs(channelDesc, DVPP_CHNMODE_PNGD, data, size, outputDesc,
                                      stream, IsPngdOutputFormat,
                                      "PIXEL_FORMAT_RGB_888, PIXEL_FORMAT_RGBA_8888 or "
                                      "PIXEL_FORMAT_UNKNOWN",
                                      &args)) {
        return rc;
    }
    const auto* input = static_cast<const uint8_t*>(data);
    openacl::Stream* s = args.stream;
    Picture out = args.out;
    Submit(s, [=](std::string* why) {
        aclError rc = CheckMediaBuffer(input, size, s, "the PNG data", why);
        if (rc == ACL_SUCCESS) rc = CheckMediaBuffer(out.data, out.size, s, "outputDesc", why);
        PngHeader header;
        PngdLayout layout;
        if (rc == ACL_SUCCESS) rc = ParsePngHeader(input, size, &header, why);
        if (rc == ACL_SUCCESS) rc = PlanPngDecode(header, out.format, &layout, why);
        if (rc == ACL_SUCCESS && layout.size > out.size) {
            *why = TooSmall(out.size, layout.size, "acldvppPngPredictDecSize");
            rc = ACL_ERROR_INVALID_PARAM;
        }
        if (rc == ACL_SUCCESS) rc = DecodePng(input, size, layout, out.data, why);
        Publish(outputDesc, rc, layout.format, layout.width, layout.height, layout.ws, layout.hs,
                layout.size);
        return rc;
    });
    return ACL_SUCCESS;
}
