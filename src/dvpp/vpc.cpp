#include "dvpp/vpc.h"

#include <cstring>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "core/error.h"
#include "dvpp/chip.h"
#include "libyuv.h"

namespace openacl::dvpp {

namespace {

constexpr uint32_t kMinBoxWidth = 10, kMinBoxHeight = 6, kMaxBoxSide = 4096;
constexpr uint32_t kMaxUpscale = 16, kMaxDownscale = 32;

// Scales one plane with the interpolation acldvppSetResizeConfigInterpolation chose (the 310/910
// meanings): 0, the hardware's own high-order filter, is approximated by libyuv's box filter;
// 1 is bilinear as OpenCV does it (libyuv's matches it within 1); 2 and 4 are nearest
// neighbour as OpenCV and TensorFlow's legacy resize do it (floor(x * scale), OpenCV's
// INTER_NEAREST); 3 is TensorFlow's legacy bilinear (no half-pixel offset), a warp by the scale.
void ScalePlane(const uint8_t* src, int sw, int sh, uint8_t* dst, int dw, int dh,
                uint32_t interpolation) {
    switch (interpolation) {
        case 1:
            libyuv::ScalePlane(src, sw, sw, sh, dst, dw, dw, dh, libyuv::kFilterBilinear);
            return;
        case 2:
        case 4: {
            cv::Mat from(sh, sw, CV_8UC1, const_cast<uint8_t*>(src));
            cv::Mat to(dh, dw, CV_8UC1, dst);
            cv::resize(from, to, to.size(), 0, 0, cv::INTER_NEAREST);
            return;
        }
        case 3: {
            cv::Mat from(sh, sw, CV_8UC1, const_cast<uint8_t*>(src));
            cv::Mat to(dh, dw, CV_8UC1, dst);
            cv::Matx23d map(double(sw) / dw, 0, 0, 0, double(sh) / dh, 0);
            cv::warpAffine(from, to, map, to.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                           cv::BORDER_REPLICATE);
            return;
        }
        default:
            libyuv::ScalePlane(src, sw, sw, sh, dst, dw, dw, dh, libyuv::kFilterBox);
            return;
    }
}

// Whether libyuv's interleaved-chroma scaler (UVScale) gives the very bytes of the planar path
// (split, ScalePlane each plane, merge), which is within 0.2 on average of OpenCV's bilinear.
// UVScale's general bilinear downscale rounds low: a flat 100 comes out 99, and textured chroma
// 1.4 below OpenCV on average (libyuv 1857), a colour cast. Where both scalers reduce to the
// same integer-step routes it is exact: point samples for odd factors on both axes, 2x2
// averages for halving, row blends when only the height changes. Checked byte for byte against
// the planar path for every integer factor pair up to 32; the planar path stays for the rest.
bool InterleavedChromaIsExact(int sw, int sh, int dw, int dh, uint32_t interpolation) {
    if (interpolation != 1 || sw % dw != 0 || sh % dh != 0) return false;
    const int fx = sw / dw, fy = sh / dh;
    return fx == 1 || (fx == 2 && fy == 2) || (fx % 2 == 1 && fy % 2 == 1);
}

}  // namespace

void WriteI420(const I420& src, const Picture& out, uint32_t left, uint32_t top) {
    const int ws = static_cast<int>(out.ws);
    const int w = static_cast<int>(src.width), h = static_cast<int>(src.height);
    const uint8_t *py = src.y.data(), *pu = src.u.data(), *pv = src.v.data();
    const int cw = src.cw();
    uint8_t* row = out.data + size_t{top} * out.ws;  // the box's first row
    uint8_t* uv = out.data + size_t{out.ws} * out.hs + size_t{top / 2} * out.ws + left;
    switch (out.format) {
        case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
            libyuv::I420ToNV21(py, w, pu, cw, pv, cw, row + left, ws, uv, ws, w, h);
            break;
        case PIXEL_FORMAT_YUV_400:
            libyuv::CopyPlane(py, w, row + left, ws, w, h);
            break;
        // Packed pixels: the box starts bytes-per-pixel times further along the row. libyuv
        // names 32-bit pixels by their little-endian word, ACL by their bytes.
        case PIXEL_FORMAT_RGB_888:
            libyuv::I420ToRAW(py, w, pu, cw, pv, cw, row + 3 * left, ws, w, h);
            break;
        case PIXEL_FORMAT_BGR_888:
            libyuv::I420ToRGB24(py, w, pu, cw, pv, cw, row + 3 * left, ws, w, h);
            break;
        case PIXEL_FORMAT_ARGB_8888:
            libyuv::I420ToBGRA(py, w, pu, cw, pv, cw, row + 4 * left, ws, w, h);
            break;
        case PIXEL_FORMAT_ABGR_8888:
            libyuv::I420ToRGBA(py, w, pu, cw, pv, cw, row + 4 * left, ws, w, h);
            break;
        case PIXEL_FORMAT_RGBA_8888:
            libyuv::I420ToABGR(py, w, pu, cw, pv, cw, row + 4 * left, ws, w, h);
            break;
        case PIXEL_FORMAT_BGRA_8888:
            libyuv::I420ToARGB(py, w, pu, cw, pv, cw, row + 4 * left, ws, w, h);
            break;
        default:  // NV12
            libyuv::I420ToNV12(py, w, pu, cw, pv, cw, row + left, ws, uv, ws, w, h);
            break;
    }
}

void ToI420(const Picture& in, const Box& box, I420* dst) {
    const int w = static_cast<int>(box.width), h = static_cast<int>(box.height);
    const size_t ws = in.ws;
    uint8_t* y = dst->y.data();
    uint8_t* u = dst->u.data();
    uint8_t* v = dst->v.data();
    const int cw = dst->cw();
    const uint8_t* row = in.data + box.top * ws;  // first row of the box
    const uint8_t* chroma = in.data + ws * in.hs;
    switch (in.format) {
        case PIXEL_FORMAT_YUV_400:
            libyuv::I400ToI420(row + box.left, ws, y, w, u, cw, v, cw, w, h);
            return;
        case PIXEL_FORMAT_YUV_SEMIPLANAR_420:
            libyuv::NV12ToI420(row + box.left, ws, chroma + box.top / 2 * ws + box.left, ws, y, w,
                               u, cw, v, cw, w, h);
            return;
        case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
            libyuv::NV21ToI420(row + box.left, ws, chroma + box.top / 2 * ws + box.left, ws, y, w,
                               u, cw, v, cw, w, h);
            return;
        case PIXEL_FORMAT_YUYV_PACKED_422:
            libyuv::YUY2ToI420(row + 2 * box.left, ws, y, w, u, cw, v, cw, w, h);
            return;
        case PIXEL_FORMAT_YVYU_PACKED_422:
            libyuv::YUY2ToI420(row + 2 * box.left, ws, y, w, v, cw, u, cw, w, h);
            return;
        case PIXEL_FORMAT_UYVY_PACKED_422:
            libyuv::UYVYToI420(row + 2 * box.left, ws, y, w, u, cw, v, cw, w, h);
            return;
        case PIXEL_FORMAT_VYUY_PACKED_422:
            libyuv::UYVYToI420(row + 2 * box.left, ws, y, w, v, cw, u, cw, w, h);
            return;
        case PIXEL_FORMAT_RGB_888:  // bytes R, G, B: libyuv's RAW
            libyuv::RAWToI420(row + 3 * box.left, ws, y, w, u, cw, v, cw, w, h);
            return;
        case PIXEL_FORMAT_BGR_888:  // bytes B, G, R: libyuv's RGB24
            libyuv::RGB24ToI420(row + 3 * box.left, ws, y, w, u, cw, v, cw, w, h);
            return;
        // libyuv names 32-bit pixels by their little-endian word, ACL by their bytes.
        case PIXEL_FORMAT_ARGB_8888:
            libyuv::BGRAToI420(row + 4 * box.left, ws, y, w, u, cw, v, cw, w, h);
            return;
        case PIXEL_FORMAT_ABGR_8888:
            libyuv::RGBAToI420(row + 4 * box.left, ws, y, w, u, cw, v, cw, w, h);
            return;
        case PIXEL_FORMAT_RGBA_8888:
            libyuv::ABGRToI420(row + 4 * box.left, ws, y, w, u, cw, v, cw, w, h);
            return;
        case PIXEL_FORMAT_BGRA_8888:
            libyuv::ARGBToI420(row + 4 * box.left, ws, y, w, u, cw, v, cw, w, h);
            return;
        case PIXEL_FORMAT_YUV_PACKED_444: {
            std::vector<uint8_t> u444(static_cast<size_t>(w) * h), v444(u444.size());
            for (int r = 0; r < h; ++r) {
                const uint8_t* p = row + r * ws + 3 * box.left;
                for (int c = 0; c < w; ++c) {
                    y[r * w + c] = p[3 * c];
                    u444[r * w + c] = p[3 * c + 1];
                    v444[r * w + c] = p[3 * c + 2];
                }
            }
            libyuv::ScalePlane(u444.data(), w, w, h, u, cw, cw, h / 2, libyuv::kFilterBox);
            libyuv::ScalePlane(v444.data(), w, w, h, v, cw, cw, h / 2, libyuv::kFilterBox);
            return;
        }
        default: {  // semi-planar 4:2:2, 4:4:4 and 4:4:0
            ChromaShape shape;
            ChromaOf(in.format, &shape);
            libyuv::CopyPlane(row + box.left, ws, y, w, w, h);
            const int scw = w / shape.width_div, sch = h / shape.height_div;
            const size_t pitch = ws * shape.pitch_mul;
            const uint8_t* src =
                chroma + box.top / shape.height_div * pitch + box.left / shape.width_div * 2;
            std::vector<uint8_t> su(static_cast<size_t>(scw) * sch), sv(su.size());
            libyuv::SplitUVPlane(src, pitch, shape.vu ? sv.data() : su.data(), scw,
                                 shape.vu ? su.data() : sv.data(), scw, scw, sch);
            libyuv::ScalePlane(su.data(), scw, scw, sch, u, cw, cw, h / 2, libyuv::kFilterBox);
            libyuv::ScalePlane(sv.data(), scw, scw, sch, v, cw, cw, h / 2, libyuv::kFilterBox);
            return;
        }
    }
}

namespace {

aclError RoiError(const char* what, const acldvppRoiConfig& roi, const char* rule) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s (left %u, right %u, top %u, bottom %u) breaks the rule: %s", what, roi.left,
                roi.right, roi.top, roi.bottom, rule);
}

// Shared by crop and paste boxes: parity, order and size.
aclError BoxOf(const acldvppRoiConfig& roi, uint32_t pic_w, uint32_t pic_h, const char* what,
               const char* pic, Box* box) {
    if (roi.right < roi.left || roi.bottom < roi.top) {
        return RoiError(what, roi, "right must not be left of left, nor bottom above top");
    }
    const bool parity = !IsNewDvpp(CurrentChip());
    if (parity &&
        (roi.left % 2 != 0 || roi.top % 2 != 0 || roi.right % 2 != 1 || roi.bottom % 2 != 1)) {
        std::string rule =
            "left and top must be even, right and bottom odd (the box is inclusive, so its "
            "origin and size are even) on " +
            ChipName();
        return RoiError(what, roi, rule.c_str());
    }
    box->left = roi.left;
    box->top = roi.top;
    box->width = roi.right - roi.left + 1;
    box->height = roi.bottom - roi.top + 1;
    if (box->width < kMinBoxWidth || box->height < kMinBoxHeight || box->width > kMaxBoxSide ||
        box->height > kMaxBoxSide) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s is %ux%u; a crop or paste box is 10x6 to 4096x4096", what, box->width,
                    box->height);
    }
    if (roi.right >= pic_w || roi.bottom >= pic_h) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s (right %u, bottom %u) reaches outside the %s picture of %ux%u", what,
                    roi.right, roi.bottom, pic, pic_w, pic_h);
    }
    // Where parity is not a rule, an odd box is snapped onto the 2x2 grid the 4:2:0 working
    // format needs: origin down to even, size down to even. That stays inside the asked box's
    // rows and columns but one, and keeps at least 10x6 of a box that had it.
    box->left &= ~1u;
    box->top &= ~1u;
    box->width = (roi.right - box->left + 1) & ~1u;
    box->height = (roi.bottom - box->top + 1) & ~1u;
    return ACL_SUCCESS;
}

}  // namespace

aclError CheckRoiConfig(const acldvppRoiConfig* roi, const char* what) {
    if (roi == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s is null", what);
    if (!RoiConfigs().Contains(roi)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p is not a live acldvppRoiConfig (destroyed, or not made by "
                    "acldvppCreateRoiConfig)",
                    what, static_cast<const void*>(roi));
    }
    return ACL_SUCCESS;
}

aclError ResizeInterpolation(const acldvppResizeConfig* config, uint32_t* interpolation) {
    uint32_t value = 0;
    if (config != nullptr) {
        if (!ResizeConfigs().Contains(config)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "resizeConfig %p is not a live acldvppResizeConfig (destroyed, or not "
                        "made by acldvppCreateResizeConfig)",
                        static_cast<const void*>(config));
        }
        value = config->interpolation;
    }
    *interpolation = value;
    // The job speaks the 310/910 values. The 310P and A2/A3 treat 0 as bilinear; A2/A3 also
    // take 3 as 1, 4 as 2, and 5 for the high-order filter that is 310's 0.
    if (IsNewDvpp(CurrentChip())) {
        static constexpr uint32_t kAsOn310[] = {1, 1, 2, 1, 2, 0};
        *interpolation = value < 6 ? kAsOn310[value] : value;
    }
    return ACL_SUCCESS;
}

Box WholeInput(const Picture& in) {
    return {0, 0, in.width & ~1u, in.height & ~1u};
}

Box WholeOutput(const Picture& out) {
    return {0, 0, out.width, out.height};
}

aclError CropBox(const acldvppRoiConfig& roi, const Picture& in, const char* what, Box* box) {
    return BoxOf(roi, in.width & ~1u, in.height & ~1u, what, "input", box);
}

aclError PasteBox(const acldvppRoiConfig& roi, const Picture& out, const char* what, Box* box) {
    if (aclError rc = BoxOf(roi, out.width, out.height, what, "output", box)) return rc;
    // 310, 910 and 310P write the paste box from a 16-byte aligned column; A2/A3 from any.
    if (CurrentChip() != DvppChip::kA2 && roi.left % 16 != 0) {
        std::string rule = "a paste box's left must be a multiple of 16 on " + ChipName();
        return RoiError(what, roi, rule.c_str());
    }
    return ACL_SUCCESS;
}

aclError CheckScale(const Box& from, const Box& to, const char* what) {
    auto within = [](uint32_t src, uint32_t dst) {
        return static_cast<uint64_t>(dst) <= static_cast<uint64_t>(src) * kMaxUpscale &&
               static_cast<uint64_t>(src) <= static_cast<uint64_t>(dst) * kMaxDownscale;
    };
    if (!within(from.width, to.width) || !within(from.height, to.height)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s scales %ux%u to %ux%u; the VPC scales by 1/32 to 16 on each axis: split "
                    "the job into two passes",
                    what, from.width, from.height, to.width, to.height);
    }
    return ACL_SUCCESS;
}

aclError RunVpc(const VpcJob& job, std::string* why) {
    (void)why;
    // NV12 to NV12 (NV21 to NV21) with one of libyuv's filters: the luma is scaled straight
    // from the input into the output, only the (quarter-size) chroma goes through planes.
    // The same filters on the same samples as the general path: the same pixels.
    const bool semi_planar = job.in.format == PIXEL_FORMAT_YUV_SEMIPLANAR_420 ||
                             job.in.format == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
    if (semi_planar && job.out.format == job.in.format && !job.border &&
        (job.interpolation == 0 || job.interpolation == 1)) {
        const auto filter = job.interpolation == 1 ? libyuv::kFilterBilinear : libyuv::kFilterBox;
        const int in_ws = static_cast<int>(job.in.ws), out_ws = static_cast<int>(job.out.ws);
        const int sw = static_cast<int>(job.crop.width), sh = static_cast<int>(job.crop.height);
        const int dw = static_cast<int>(job.paste.width), dh = static_cast<int>(job.paste.height);
        const uint8_t* sy = job.in.data + job.crop.top * job.in.ws + job.crop.left;
        const uint8_t* suv = job.in.data + size_t(job.in.ws) * job.in.hs +
                             job.crop.top / 2 * job.in.ws + job.crop.left;
        uint8_t* dy = job.out.data + job.paste.top * job.out.ws + job.paste.left;
        uint8_t* duv = job.out.data + size_t(job.out.ws) * job.out.hs +
                       job.paste.top / 2 * job.out.ws + job.paste.left;
        libyuv::ScalePlane(sy, in_ws, sw, sh, dy, out_ws, dw, dh, filter);
        if (InterleavedChromaIsExact(sw / 2, sh / 2, dw / 2, dh / 2, job.interpolation)) {
            // What NV12Scale does: no split, one pass over the interleaved chroma.
            libyuv::UVScale(suv, in_ws, sw / 2, sh / 2, duv, out_ws, dw / 2, dh / 2, filter);
            return ACL_SUCCESS;
        }
        // Kept per worker: a fresh megabyte each task would be page faults and zeroing.
        thread_local std::vector<uint8_t> planes;
        planes.resize(size_t(sw / 2) * (sh / 2) * 2 + size_t(dw / 2) * (dh / 2) * 2);
        uint8_t* su = planes.data();
        uint8_t* sv = su + size_t(sw / 2) * (sh / 2);
        uint8_t* du = sv + size_t(sw / 2) * (sh / 2);
        uint8_t* dv = du + size_t(dw / 2) * (dh / 2);
        libyuv::SplitUVPlane(suv, in_ws, su, sw / 2, sv, sw / 2, sw / 2, sh / 2);
        libyuv::ScalePlane(su, sw / 2, sw / 2, sh / 2, du, dw / 2, dw / 2, dh / 2, filter);
        libyuv::ScalePlane(sv, sw / 2, sw / 2, sh / 2, dv, dw / 2, dw / 2, dh / 2, filter);
        libyuv::MergeUVPlane(du, dw / 2, dv, dw / 2, duv, out_ws, dw / 2, dh / 2);
        return ACL_SUCCESS;
    }
    I420 cropped(job.crop.width, job.crop.height);
    ToI420(job.in, job.crop, &cropped);
    const I420* src = &cropped;
    I420 scaled(job.paste.width, job.paste.height);
    if (job.paste.width != job.crop.width || job.paste.height != job.crop.height) {
        const int sw = static_cast<int>(cropped.width), sh = static_cast<int>(cropped.height);
        const int dw = static_cast<int>(scaled.width), dh = static_cast<int>(scaled.height);
        ScalePlane(cropped.y.data(), sw, sh, scaled.y.data(), dw, dh, job.interpolation);
        ScalePlane(cropped.u.data(), sw / 2, sh / 2, scaled.u.data(), dw / 2, dh / 2,
                   job.interpolation);
        ScalePlane(cropped.v.data(), sw / 2, sh / 2, scaled.v.data(), dw / 2, dh / 2,
                   job.interpolation);
        src = &scaled;
    }
    const Picture& out = job.out;
    WriteI420(*src, out, job.paste.left, job.paste.top);
    if (job.border) {
        // The border is made from the pasted inside, so it is copied out first.
        const size_t ws = out.ws;
        const uint8_t* y = out.data + job.paste.top * ws + job.paste.left;
        const uint8_t* uv = out.data + ws * out.hs + job.paste.top / 2 * ws + job.paste.left;
        const int w = static_cast<int>(src->width), h = static_cast<int>(src->height);
        Picture inside = out;
        std::vector<uint8_t> copy(static_cast<size_t>(w) * h * 3 / 2);
        inside.data = copy.data();
        inside.width = inside.ws = w;
        inside.height = inside.hs = h;
        libyuv::CopyPlane(y, ws, copy.data(), w, w, h);
        libyuv::CopyPlane(uv, ws, copy.data() + size_t(w) * h, w, w, h / 2);
        RunMakeBorder(inside, out, job.border_spec);
    }
    return ACL_SUCCESS;
}

}  // namespace openacl::dvpp
