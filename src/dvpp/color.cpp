#include "dvpp/color.h"

#include "dvpp/vpc.h"
#include "libyuv.h"

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
    const int bw = static_cast<int>(box.width), bh = static_cast<int>(box.height);
    const int ws = static_cast<int>(out.ws);
    const uint8_t *py = yuv.y.data(), *pu = yuv.u.data(), *pv = yuv.v.data();
    const int cw = yuv.cw();
    uint8_t* dst = out.data;
    uint8_t* uv = out.data + static_cast<size_t>(out.ws) * out.hs;
    switch (out.format) {
        case PIXEL_FORMAT_YUV_400:
            libyuv::CopyPlane(py, bw, dst, ws, bw, bh);
            break;
        case PIXEL_FORMAT_YUV_SEMIPLANAR_420:
            libyuv::I420ToNV12(py, bw, pu, cw, pv, cw, dst, ws, uv, ws, bw, bh);
            break;
        case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
            libyuv::I420ToNV21(py, bw, pu, cw, pv, cw, dst, ws, uv, ws, bw, bh);
            break;
        // libyuv names 32-bit pixels by their little-endian word, ACL by their bytes.
        case PIXEL_FORMAT_RGB_888:
            libyuv::I420ToRAW(py, bw, pu, cw, pv, cw, dst, ws, bw, bh);
            break;
        case PIXEL_FORMAT_BGR_888:
            libyuv::I420ToRGB24(py, bw, pu, cw, pv, cw, dst, ws, bw, bh);
            break;
        case PIXEL_FORMAT_ARGB_8888:
            libyuv::I420ToBGRA(py, bw, pu, cw, pv, cw, dst, ws, bw, bh);
            break;
        case PIXEL_FORMAT_ABGR_8888:
            libyuv::I420ToRGBA(py, bw, pu, cw, pv, cw, dst, ws, bw, bh);
            break;
        case PIXEL_FORMAT_RGBA_8888:
            libyuv::I420ToABGR(py, bw, pu, cw, pv, cw, dst, ws, bw, bh);
            break;
        default:  // PIXEL_FORMAT_BGRA_8888
            libyuv::I420ToARGB(py, bw, pu, cw, pv, cw, dst, ws, bw, bh);
            break;
    }
    return ACL_SUCCESS;
}

}  // namespace openacl::dvpp
