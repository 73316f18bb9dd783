#include "dvpp/border.h"

#include <opencv2/core.hpp>

#include "core/error.h"
#include "dvpp/color.h"

namespace openacl::dvpp {

namespace {

bool IsNv(acldvppPixelFormat f) {
    return f == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || f == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
}

int CvBorder(acldvppBorderType type) {
    switch (type) {
        case BORDER_REPLICATE:
            return cv::BORDER_REPLICATE;
        case BORDER_REFLECT:
            return cv::BORDER_REFLECT;
        case BORDER_REFLECT_101:
            return cv::BORDER_REFLECT_101;
        default:
            return cv::BORDER_CONSTANT;
    }
}

cv::Mat Plane(const Picture& p, size_t offset, uint32_t w, uint32_t h, int type, size_t pitch) {
    return cv::Mat(static_cast<int>(h), static_cast<int>(w), type, p.data + offset, pitch);
}

}  // namespace

BorderSpec SpecOf(const acldvppBorderConfig& config) {
    BorderSpec spec;
    spec.type = config.border_type;
    spec.top = config.top;
    spec.bottom = config.bottom;
    spec.left = config.left;
    spec.right = config.right;
    spec.value = config.value;
    return spec;
}

bool IsBorderFormat(acldvppPixelFormat format) {
    return format == PIXEL_FORMAT_YUV_400 || IsNv(format) || format == PIXEL_FORMAT_RGB_888 ||
           format == PIXEL_FORMAT_BGR_888;
}

aclError CheckBorder(const Picture& in, const Picture& out, const BorderSpec& spec,
                     const char* what) {
    if (out.format != in.format) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has %s but the input is %s: a border keeps the "
                    "format",
                    what, FormatName(out.format).c_str(), FormatName(in.format).c_str());
    }
    uint64_t want_w = uint64_t(in.width) + spec.left + spec.right;
    uint64_t want_h = uint64_t(in.height) + spec.top + spec.bottom;
    if (out.width != want_w || out.height != want_h) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s is %ux%u; a %ux%u picture with borders top %u, bottom %u, left %u, right "
                    "%u is %llux%llu",
                    what, out.width, out.height, in.width, in.height, spec.top, spec.bottom,
                    spec.left, spec.right, static_cast<unsigned long long>(want_w),
                    static_cast<unsigned long long>(want_h));
    }
    // CANN recommends even borders for YUV420SP, it does not require them: odd ones are taken
    // (the output's own size must still be even, as every YUV420SP picture's).
    return ACL_SUCCESS;
}

void RunMakeBorder(const Picture& in, const Picture& out, const BorderSpec& spec) {
    const int type = CvBorder(spec.type);
    const auto& v = spec.value;
    RgbLayout rgb;
    if (RgbLayoutOf(in.format, &rgb)) {
        cv::Scalar value;
        value[rgb.r] = v[0];
        value[rgb.g] = v[1];
        value[rgb.b] = v[2];
        cv::Mat dst = Plane(out, 0, out.width, out.height, CV_8UC3, out.ws);
        cv::copyMakeBorder(Plane(in, 0, in.width, in.height, CV_8UC3, in.ws), dst, spec.top,
                           spec.bottom, spec.left, spec.right, type | cv::BORDER_ISOLATED, value);
        return;
    }
    cv::Mat y = Plane(out, 0, out.width, out.height, CV_8UC1, out.ws);
    cv::copyMakeBorder(Plane(in, 0, in.width, in.height, CV_8UC1, in.ws), y, spec.top, spec.bottom,
                       spec.left, spec.right, type | cv::BORDER_ISOLATED, cv::Scalar(v[0]));
    if (!IsNv(in.format)) return;
    const bool vu = in.format == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
    // Half-resolution chroma borders: an odd luma border starts the chroma half a sample early
    // (top / 2, left / 2), and the far sides take what is left of the output's chroma.
    const uint32_t in_cw = in.width / 2, in_ch = in.height / 2;
    const uint32_t out_cw = out.width / 2, out_ch = out.height / 2;
    const uint32_t top = spec.top / 2, left = spec.left / 2;
    cv::Mat uv = Plane(out, size_t(out.ws) * out.hs, out_cw, out_ch, CV_8UC2, out.ws);
    cv::copyMakeBorder(Plane(in, size_t(in.ws) * in.hs, in_cw, in_ch, CV_8UC2, in.ws), uv, top,
                       out_ch - in_ch - top, left, out_cw - in_cw - left,
                       type | cv::BORDER_ISOLATED,
                       vu ? cv::Scalar(v[2], v[1]) : cv::Scalar(v[1], v[2]));
}

}  // namespace openacl::dvpp
