// acl_dvpp.h: the VPC tasks the 310P generation added (colour conversion, pyramid-down,
// histogram, LUT, borders). Rules are checked when the task is enqueued; the task re-checks its
// buffers when it runs and writes results (pictures, histogram bins) then.
#include <string>
#include <vector>

#include "core/error.h"
#include "core/stream.h"
#include "dvpp/border.h"
#include "dvpp/channel.h"
#include "dvpp/chip.h"
#include "dvpp/color.h"
#include "dvpp/histogram.h"
#include "dvpp/pyramid.h"
#include "dvpp/task.h"
#include "dvpp/vpc.h"

using openacl::Fail;
using namespace openacl::dvpp;

namespace {

// Bytes a checked picture occupies (the VPC table's formula).
uint64_t Bytes(const Picture& pic) {
    const FormatInfo* info = VpcFormat(pic.format);
    if (info == nullptr) return static_cast<uint64_t>(pic.ws) * pic.hs;
    return VpcInputBytes(*info, pic.ws, pic.hs, CurrentChip());
}

aclError Recheck(const Picture& in, const Picture& out, const openacl::Stream* s,
                 std::string* why) {
    if (aclError rc = CheckMediaBuffer(in.data, Bytes(in), s, "inputDesc", why)) return rc;
    return CheckMediaBuffer(out.data, Bytes(out), s, "outputDesc", why);
}

aclError NullReserve(const void* reserve) {
    if (reserve == nullptr) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM, "reserve must be nullptr");
}

// The channel, the stream and the input picture every task here starts with.
aclError Begin(const acldvppChannelDesc* channel, const acldvppPicDesc* inputDesc,
               aclrtStream stream, openacl::Stream** s, Picture* in) {
    if (aclError rc = CheckChannelFor(channel, DVPP_CHNMODE_VPC)) return rc;
    if (aclError rc = CheckPicDesc(inputDesc, "inputDesc")) return rc;
    aclError rc = ACL_SUCCESS;
    *s = openacl::ResolveStream(stream, &rc);
    if (*s == nullptr) return rc;
    *in = Snapshot(*inputDesc);
    return CheckVpcInput(*in, *s, "inputDesc");
}

aclError CheckOutputPicture(const Picture& out, const openacl::Stream* s) {
    if (out.format == PIXEL_FORMAT_YUV_SEMIPLANAR_420 ||
        out.format == PIXEL_FORMAT_YVU_SEMIPLANAR_420) {
        return CheckVpcOutput(out, s, "outputDesc");
    }
    return CheckVpcInput(out, s, "outputDesc");
}

}  // namespace

aclError acldvppVpcConvertColorAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                     acldvppPicDesc* outputDesc, aclrtStream stream) {
    OPENACL_API();
    if (aclError rc = RequireNewDvpp("acldvppVpcConvertColorAsync")) return rc;
    openacl::Stream* s = nullptr;
    Picture in;
    if (aclError rc = Begin(channelDesc, inputDesc, stream, &s, &in)) return rc;
    if (aclError rc = CheckPicDesc(outputDesc, "outputDesc")) return rc;
    Picture out = Snapshot(*outputDesc);
    if (!IsConvertColorOutput(out.format)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "outputDesc has %s; colour conversion writes YUV400, YUV420SP NV12/NV21, "
                    "RGB888/BGR888 or ARGB/ABGR/RGBA/BGRA8888",
                    FormatName(out.format).c_str());
    }
    if (in.format == PIXEL_FORMAT_YUV_400 && out.format != PIXEL_FORMAT_YUV_400) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "a PIXEL_FORMAT_YUV_400 input converts to PIXEL_FORMAT_YUV_400 only, not %s",
                    FormatName(out.format).c_str());
    }
    // Width and height 0 ask the library to take the input's size and align the strides.
    const bool fill = out.width == 0 && out.height == 0;
    if (fill) {
        out.width = in.width;
        out.height = in.height;
        out.ws = AlignUp(out.width, 16) * VpcFormat(out.format)->bytes_per_pixel;
        out.hs = AlignUp(out.height, 2);
    }
    if (out.width != in.width || out.height != in.height) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "outputDesc is %ux%u but inputDesc is %ux%u: colour conversion keeps the "
                    "size (set width and height 0 to take the input's)",
                    out.width, out.height, in.width, in.height);
    }
    if (aclError rc = CheckOutputPicture(out, s)) return rc;
    Submit(s, [=](std::string* why) {
        if (aclError rc = Recheck(in, out, s, why)) return rc;
        aclError rc = RunConvertColor(in, out, why);
        if (rc == ACL_SUCCESS && fill && PicDescs().Contains(outputDesc)) {
            outputDesc->width = out.width;
            outputDesc->height = out.height;
            outputDesc->width_stride = out.ws;
            outputDesc->height_stride = out.hs;
        }
        return rc;
    });
    return ACL_SUCCESS;
}

aclError acldvppVpcPyrDownAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                acldvppPicDesc* outputDesc, void* reserve, aclrtStream stream) {
    OPENACL_API();
    if (aclError rc = RequireNewDvpp("acldvppVpcPyrDownAsync", true)) return rc;
    if (aclError rc = NullReserve(reserve)) return rc;
    if (aclError rc = CheckChannelFor(channelDesc, DVPP_CHNMODE_VPC)) return rc;
    if (aclError rc = CheckPicDesc(inputDesc, "inputDesc")) return rc;
    if (aclError rc = CheckPicDesc(outputDesc, "outputDesc")) return rc;
    aclError rc = ACL_SUCCESS;
    openacl::Stream* s = openacl::ResolveStream(stream, &rc);
    if (s == nullptr) return rc;
    const Picture in = Snapshot(*inputDesc), out = Snapshot(*outputDesc);
    if ((rc = CheckPyrDown(in, out, s))) return rc;
    Submit(s, [=](std::string* why) {
        uint64_t in_bytes = uint64_t(in.ws) * in.hs, out_bytes = uint64_t(out.ws) * out.hs;
        if (aclError code = CheckMediaBuffer(in.data, in_bytes, s, "inputDesc", why)) return code;
        if (aclError code = CheckMediaBuffer(out.data, out_bytes, s, "outputDesc", why)) {
            return code;
        }
        RunPyrDown(in, out);
        return ACL_SUCCESS;
    });
    return ACL_SUCCESS;
}

aclError acldvppVpcCalcHistAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* srcPicDesc,
                                 acldvppHist* hist, void* reserve, aclrtStream stream) {
    OPENACL_API();
    if (aclError rc = RequireNewDvpp("acldvppVpcCalcHistAsync")) return rc;
    if (aclError rc = NullReserve(reserve)) return rc;
    if (hist == nullptr || !Hists().Contains(hist)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "hist %p is not a live acldvppHist",
                    static_cast<void*>(hist));
    }
    openacl::Stream* s = nullptr;
    Picture in;
    if (aclError rc = Begin(channelDesc, srcPicDesc, stream, &s, &in)) return rc;
    if (!IsHistogramFormat(in.format)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "srcPicDesc has %s; histograms are computed for YUV400, semi-planar YUV, "
                    "packed YUV and RGB888/BGR888",
                    FormatName(in.format).c_str());
    }
    Submit(s, [=](std::string* why) {
        if (aclError rc = CheckMediaBuffer(in.data, Bytes(in), s, "srcPicDesc", why)) return rc;
        auto bins = CalcHist(in);
        if (Hists().Contains(hist)) {
            hist->bins = std::move(bins);
            hist->ret_code = 0;
        }
        return ACL_SUCCESS;
    });
    return ACL_SUCCESS;
}

aclError acldvppVpcEqualizeHistAsync(const acldvppChannelDesc* channelDesc,
                                     const acldvppPicDesc* inputDesc, acldvppPicDesc* outputDesc,
                                     const acldvppLutMap* lutMap, aclrtStream stream) {
    OPENACL_API();
    if (aclError rc = RequireNewDvpp("acldvppVpcEqualizeHistAsync")) return rc;
    if (lutMap == nullptr || !LutMaps().Contains(lutMap)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "lutMap %p is not a live acldvppLutMap",
                    static_cast<const void*>(lutMap));
    }
    openacl::Stream* s = nullptr;
    Picture in;
    if (aclError rc = Begin(channelDesc, inputDesc, stream, &s, &in)) return rc;
    if (!IsHistogramFormat(in.format)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "inputDesc has %s; look-up tables apply to YUV400, semi-planar YUV, packed "
                    "YUV and RGB888/BGR888",
                    FormatName(in.format).c_str());
    }
    if (aclError rc = CheckPicDesc(outputDesc, "outputDesc")) return rc;
    const Picture out = Snapshot(*outputDesc);
    if (out.format != in.format || out.width != in.width || out.height != in.height) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "outputDesc is %s %ux%u but inputDesc is %s %ux%u: a look-up table keeps "
                    "format and size",
                    FormatName(out.format).c_str(), out.width, out.height,
                    FormatName(in.format).c_str(), in.width, in.height);
    }
    if (aclError rc = CheckOutputPicture(out, s)) return rc;
    auto tables = lutMap->tables;  // as it is now: the task may run after the map is changed
    Submit(s, [=](std::string* why) {
        if (aclError rc = Recheck(in, out, s, why)) return rc;
        ApplyLut(in, out, tables);
        return ACL_SUCCESS;
    });
    return ACL_SUCCESS;
}

aclError acldvppVpcMakeBorderAsync(const acldvppChannelDesc* channelDesc,
                                   const acldvppPicDesc* inputDesc, acldvppPicDesc* outputDesc,
                                   const acldvppBorderConfig* borderConfig, aclrtStream stream) {
    OPENACL_API();
    if (aclError rc = RequireNewDvpp("acldvppVpcMakeBorderAsync")) return rc;
    if (borderConfig == nullptr || !BorderConfigs().Contains(borderConfig)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "borderConfig %p is not a live acldvppBorderConfig",
                    static_cast<const void*>(borderConfig));
    }
    openacl::Stream* s = nullptr;
    Picture in;
    if (aclError rc = Begin(channelDesc, inputDesc, stream, &s, &in)) return rc;
    if (!IsBorderFormat(in.format)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "inputDesc has %s; borders are made for YUV400, YUV420SP NV12/NV21, RGB888 "
                    "and BGR888",
                    FormatName(in.format).c_str());
    }
    if (aclError rc = CheckPicDesc(outputDesc, "outputDesc")) return rc;
    const Picture out = Snapshot(*outputDesc);
    const BorderSpec spec = SpecOf(*borderConfig);
    if (aclError rc = CheckBorder(in, out, spec, "outputDesc")) return rc;
    if (aclError rc = CheckOutputPicture(out, s)) return rc;
    Submit(s, [=](std::string* why) {
        if (aclError rc = Recheck(in, out, s, why)) return rc;
        RunMakeBorder(in, out, spec);
        return ACL_SUCCESS;
    });
    return ACL_SUCCESS;
}
