#include "dvpp/pyramid.h"

#include <cinttypes>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "core/error.h"

namespace openacl::dvpp {

namespace {

aclError CheckGrey(const Picture& pic, const Stream* stream, const char* what) {
    if (pic.format != PIXEL_FORMAT_YUV_400) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has %s; pyramid-down takes and writes "
                    "PIXEL_FORMAT_YUV_400 only",
                    what, FormatName(pic.format).c_str());
    }
    if (pic.ws % 16 != 0 || pic.ws < pic.width || pic.hs < pic.height) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s is %ux%u with strides %ux%u; widthStride must be a multiple of 16 of at "
                    "least the width, heightStride at least the height",
                    what, pic.width, pic.height, pic.ws, pic.hs);
    }
    uint64_t needed = static_cast<uint64_t>(pic.ws) * pic.hs;
    if (pic.size < needed) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has size %u but its strides take %" PRIu64 " bytes", what, pic.size,
                    needed);
    }
    return CheckMediaBuffer(pic.data, needed, stream, what);
}

}  // namespace

aclError CheckPyrDown(const Picture& in, const Picture& out, const Stream* stream) {
    if (in.width < 20 || in.height < 12 || in.width > 2048 || in.height > 2048) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "inputDesc is %ux%u; pyramid-down takes 20x12 to 2048x2048", in.width,
                    in.height);
    }
    if (out.width != in.width / 2 || out.height != in.height / 2) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "outputDesc is %ux%u; pyramid-down of %ux%u writes %ux%u", out.width,
                    out.height, in.width, in.height, in.width / 2, in.height / 2);
    }
    if (aclError rc = CheckGrey(in, stream, "inputDesc")) return rc;
    return CheckGrey(out, stream, "outputDesc");
}

void RunPyrDown(const Picture& in, const Picture& out) {
    cv::Mat src(static_cast<int>(in.height), static_cast<int>(in.width), CV_8UC1, in.data, in.ws);
    cv::Mat dst(static_cast<int>(out.height), static_cast<int>(out.width), CV_8UC1, out.data,
                out.ws);
    cv::pyrDown(src, dst, dst.size());
}

}  // namespace openacl::dvpp
