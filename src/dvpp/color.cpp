#include "dvpp/color.h"

#include "dvpp/vpc.h"

namespace openacl::dvpp {

bool RgbLayoutOf(acldvppPixelFormat format, RgbLayout* layout) {
    switch (format) {
        case PIXEL_FORMAT_RGB_888:
            *layout = {0, 1, 2, -1, 3};
            return true;
        case PIXEL_FORMAT_BGR_888:
            *layout = {2, 1, 0, -1, 3};
            return true;
        case PIXEL_FORMAT_ARGB_8888:
            *layout = {1, 2, 3, 0, 4};
            return true;
        case PIXEL_FORMAT_ABGR_8888:
            *layout = {3, 2, 1, 0, 4};
            return true;
        case PIXEL_FORMAT_RGBA_8888:
            *layout = {0, 1, 2, 3, 4};
            return true;
        case PIXEL_FORMAT_BGRA_8888:
            *layout = {2, 1, 0, 3, 4};
            return true;
        default:
            return false;
    }
}

bool IsConvertColorOutput(acldvppPixelFormat format) {
    RgbLayout layout;
    return format == PIXEL_FORMAT_YUV_400 || format == PIXEL_FORMAT_YUV_SEMIPLANAR_420 ||
           format == PIXEL_FORMAT_YVU_SEMIPLANAR_420 || RgbLayoutOf(format, &layout);
}

aclError RunConvertColor(const Picture& in, const Picture& out, std::string* why) {
    (void)why;
    RgbLayout from, to;
    const uint32_t w = in.width, h = in.height;
    if (RgbLayoutOf(in.format, &from) && RgbLayoutOf(out.format, &to)) {
        // Reorders bytes; a new alpha is opaque.
        for (uint32_t y = 0; y < h; ++y) {
            const uint8_t* s = in.data + static_cast<size_t>(y) * in.ws;
            uint8_t* d = out.data + static_cast<size_t>(y) * out.ws;
            for (uint32_t x = 0; x < w; ++x, s += from.bytes, d += to.bytes) {
                d[to.r] = s[from.r];
                d[to.g] = s[from.g];
                d[to.b] = s[from.b];
                if (to.a >= 0) d[to.a] = from.a >= 0 ? s[from.a] : 0xFF;
            }
        }
        return ACL_SUCCESS;
    }
    // Everything else goes through I420 (odd sizes rounded down, as the VPC does).
    const Box box = WholeInput(in);
    I420 yuv(box.width, box.height);
    ToI420(in, box, &yuv);
    WriteI420(yuv, out, 0, 0);
    return ACL_SUCCESS;
}

}  // namespace openacl::dvpp
