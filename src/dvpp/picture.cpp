#include "dvpp/picture.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>

#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "dvpp/chip.h"
#include "dvpp/color.h"

namespace openacl::dvpp {

namespace {

// The 310/910 VPC input table (acl_dvpp reference, 6.5.2). YUV400 still wants room for a
// chroma plane on these products, hence 3/2.
constexpr FormatInfo kVpcFormats[] = {
    {PIXEL_FORMAT_YUV_400, "PIXEL_FORMAT_YUV_400", 1, 3, 2, false, false},
    {PIXEL_FORMAT_YUV_SEMIPLANAR_420, "PIXEL_FORMAT_YUV_SEMIPLANAR_420", 1, 3, 2, true, true},
    {PIXEL_FORMAT_YVU_SEMIPLANAR_420, "PIXEL_FORMAT_YVU_SEMIPLANAR_420", 1, 3, 2, true, true},
    {PIXEL_FORMAT_YUV_SEMIPLANAR_422, "PIXEL_FORMAT_YUV_SEMIPLANAR_422", 1, 2, 1, true, false},
    {PIXEL_FORMAT_YVU_SEMIPLANAR_422, "PIXEL_FORMAT_YVU_SEMIPLANAR_422", 1, 2, 1, true, false},
    {PIXEL_FORMAT_YUV_SEMIPLANAR_444, "PIXEL_FORMAT_YUV_SEMIPLANAR_444", 1, 3, 1, false, false},
    {PIXEL_FORMAT_YVU_SEMIPLANAR_444, "PIXEL_FORMAT_YVU_SEMIPLANAR_444", 1, 3, 1, false, false},
    {PIXEL_FORMAT_YUYV_PACKED_422, "PIXEL_FORMAT_YUYV_PACKED_422", 2, 1, 1, true, false},
    {PIXEL_FORMAT_UYVY_PACKED_422, "PIXEL_FORMAT_UYVY_PACKED_422", 2, 1, 1, true, false},
    {PIXEL_FORMAT_YVYU_PACKED_422, "PIXEL_FORMAT_YVYU_PACKED_422", 2, 1, 1, true, false},
    {PIXEL_FORMAT_VYUY_PACKED_422, "PIXEL_FORMAT_VYUY_PACKED_422", 2, 1, 1, true, false},
    {PIXEL_FORMAT_YUV_PACKED_444, "PIXEL_FORMAT_YUV_PACKED_444", 3, 1, 1, false, false},
    {PIXEL_FORMAT_RGB_888, "PIXEL_FORMAT_RGB_888", 3, 1, 1, false, false},
    {PIXEL_FORMAT_BGR_888, "PIXEL_FORMAT_BGR_888", 3, 1, 1, false, false},
    {PIXEL_FORMAT_ARGB_8888, "PIXEL_FORMAT_ARGB_8888", 4, 1, 1, false, false},
    {PIXEL_FORMAT_ABGR_8888, "PIXEL_FORMAT_ABGR_8888", 4, 1, 1, false, false},
    {PIXEL_FORMAT_RGBA_8888, "PIXEL_FORMAT_RGBA_8888", 4, 1, 1, false, false},
    {PIXEL_FORMAT_BGRA_8888, "PIXEL_FORMAT_BGRA_8888", 4, 1, 1, false, false},
    {PIXEL_FORMAT_YUV_SEMIPLANAR_440, "PIXEL_FORMAT_YUV_SEMIPLANAR_440", 1, 2, 1, false, true},
    {PIXEL_FORMAT_YVU_SEMIPLANAR_440, "PIXEL_FORMAT_YVU_SEMIPLANAR_440", 1, 2, 1, false, true},
};

constexpr uint32_t kMinWidth = 10, kMinHeight = 6, kMaxSide = 4096, kMax8kSide = 8192;
constexpr uint32_t kMinWidthStride = 32, kMaxWidthStride = 4096 * 4, kMinHeightStride = 6;

bool Is420Sp(acldvppPixelFormat f) {
    return f == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || f == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
}

// The 8K path (a side in (4096, 8192]): NV12/NV21 only on 310/910; the 310P and A2/A3 also
// read YUV400, 422SP, 444SP and packed 422 there.
bool Reads8k(acldvppPixelFormat f, DvppChip chip) {
    if (Is420Sp(f)) return true;
    if (!IsNewDvpp(chip)) return false;
    switch (f) {
        case PIXEL_FORMAT_YUV_400:
        case PIXEL_FORMAT_YUV_SEMIPLANAR_422:
        case PIXEL_FORMAT_YVU_SEMIPLANAR_422:
        case PIXEL_FORMAT_YUV_SEMIPLANAR_444:
        case PIXEL_FORMAT_YVU_SEMIPLANAR_444:
        case PIXEL_FORMAT_YUYV_PACKED_422:
        case PIXEL_FORMAT_UYVY_PACKED_422:
        case PIXEL_FORMAT_YVYU_PACKED_422:
        case PIXEL_FORMAT_VYUY_PACKED_422:
            return true;
        default:
            return false;
    }
}

}  // namespace

uint64_t VpcInputBytes(const FormatInfo& info, uint32_t ws, uint32_t hs, DvppChip chip) {
    // Only the 310/910 want room for a chroma plane behind a YUV400 picture.
    if (info.format == PIXEL_FORMAT_YUV_400 && IsNewDvpp(chip)) {
        return static_cast<uint64_t>(ws) * hs;
    }
    return static_cast<uint64_t>(ws) * hs * info.size_num / info.size_den;
}

const FormatInfo* VpcFormat(acldvppPixelFormat format) {
    for (const FormatInfo& info : kVpcFormats) {
        if (info.format == format) return &info;
    }
    return nullptr;
}

std::string FormatName(acldvppPixelFormat format) {
    if (const FormatInfo* info = VpcFormat(format)) return info->name;
    if (format == PIXEL_FORMAT_UNKNOWN) return "PIXEL_FORMAT_UNKNOWN";
    return "pixel format " + std::to_string(static_cast<int>(format));
}

uint64_t SemiPlanarSize(acldvppPixelFormat format, uint32_t ws, uint32_t hs) {
    uint64_t luma = static_cast<uint64_t>(ws) * hs;
    switch (format) {
        case PIXEL_FORMAT_YUV_400:
        case PIXEL_FORMAT_YUV_SEMIPLANAR_420:
        case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
            return luma * 3 / 2;
        case PIXEL_FORMAT_YUV_SEMIPLANAR_422:
        case PIXEL_FORMAT_YVU_SEMIPLANAR_422:
        case PIXEL_FORMAT_YUV_SEMIPLANAR_440:
        case PIXEL_FORMAT_YVU_SEMIPLANAR_440:
            return luma * 2;
        case PIXEL_FORMAT_YUV_SEMIPLANAR_444:
        case PIXEL_FORMAT_YVU_SEMIPLANAR_444:
            return luma * 3;
        default:
            return 0;
    }
}

bool ChromaOf(acldvppPixelFormat f, ChromaShape* shape) {
    switch (f) {
        case PIXEL_FORMAT_YUV_SEMIPLANAR_420:
            *shape = {2, 2, 1, false};
            return true;
        case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
            *shape = {2, 2, 1, true};
            return true;
        case PIXEL_FORMAT_YUV_SEMIPLANAR_422:
            *shape = {2, 1, 1, false};
            return true;
        case PIXEL_FORMAT_YVU_SEMIPLANAR_422:
            *shape = {2, 1, 1, true};
            return true;
        case PIXEL_FORMAT_YUV_SEMIPLANAR_444:
            *shape = {1, 1, 2, false};
            return true;
        case PIXEL_FORMAT_YVU_SEMIPLANAR_444:
            *shape = {1, 1, 2, true};
            return true;
        case PIXEL_FORMAT_YUV_SEMIPLANAR_440:
            *shape = {1, 2, 2, false};
            return true;
        case PIXEL_FORMAT_YVU_SEMIPLANAR_440:
            *shape = {1, 2, 2, true};
            return true;
        default:
            return false;
    }
}

Picture Snapshot(const acldvppPicDesc& desc) {
    Picture p;
    p.data = static_cast<uint8_t*>(desc.data);
    p.size = desc.size;
    p.format = desc.format;
    p.width = desc.width;
    p.height = desc.height;
    p.ws = desc.width_stride;
    p.hs = desc.height_stride;
    return p;
}

aclError CheckPicDesc(const acldvppPicDesc* desc, const char* what) {
    if (desc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s is null", what);
    if (!PicDescs().Contains(desc)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s %p is not a live acldvppPicDesc (destroyed, or not made by "
                    "acldvppCreatePicDesc or acldvppCreateBatchPicDesc)",
                    what, static_cast<const void*>(desc));
    }
    return ACL_SUCCESS;
}

aclError CheckMediaBuffer(const void* data, uint64_t bytes, const Stream* stream, const char* what,
                          std::string* error) {
    char text[512];
    auto report = [&](aclError code) {
        if (error != nullptr) {
            *error = text;
            return code;
        }
        return Fail(code, "%s", text);
    };
    if (data == nullptr) {
        std::snprintf(text, sizeof text, "%s: the data address is null", what);
        return report(ACL_ERROR_INVALID_PARAM);
    }
    MemRegion region = ClassifyPointer(data);
    const Device* device = stream->context()->device();
    if (region.domain != MemDomain::kDevice || region.device != device) {
        const char* where = region.domain == MemDomain::kDevice ? "device memory of another device"
                                                                : DomainName(region.domain);
        std::snprintf(text, sizeof text,
                      "%s: the data at %p is %s; DVPP reads and writes only media memory of the "
                      "stream's device (acldvppMalloc), filled with aclrtMemcpy",
                      what, data, where);
        return report(ACL_ERROR_INVALID_PARAM);
    }
    uint64_t room = region.usable - (reinterpret_cast<uintptr_t>(data) - region.base);
    if (bytes > room) {
        std::snprintf(text, sizeof text,
                      "%s needs %" PRIu64 " bytes at %p but only %" PRIu64
                      " bytes of that allocation remain from there",
                      what, bytes, data, room);
        return report(ACL_ERROR_INVALID_PARAM);
    }
    // The V1 DVPP reads media memory only; aclrtMalloc memory works on the newer V2 path, so
    // it is accepted with a warning (refused under OPENACL_STRICT), once, when enqueued.
    if (error == nullptr && region.alloc_kind != static_cast<uint32_t>(DeviceAllocKind::kDvpp)) {
        if (Runtime::Get().config().strict) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s: the data at %p is not media memory; allocate it with acldvppMalloc "
                        "(refused because OPENACL_STRICT is set)",
                        what, data);
        }
        Warn("%s: the data at %p is not media memory; DVPP expects acldvppMalloc memory", what,
             data);
    }
    return ACL_SUCCESS;
}

namespace {

// The VPC's stride rules differ per family (CANN's "VPC restrictions" tables): the 310/910 and
// 310P want widthStride a multiple of 16 of at least ALIGN_UP(w, 16) x bytes per pixel (32 at
// least), except on the 310/910 8K path, which needs it even only; the A2/A3 class needs no
// alignment, only a row's bytes (at least 10). heightStride is even on the 310/910; on the 310P
// and A2/A3 only the formats with half-height chroma (420SP, 440SP) need it even, the others
// may have heightStride = height.
struct StrideRule {
    uint32_t ws_align;
    uint64_t min_ws;
    bool even_hs;
};

bool HalfHeightChroma(acldvppPixelFormat f) {
    return Is420Sp(f) || f == PIXEL_FORMAT_YUV_SEMIPLANAR_440 ||
           f == PIXEL_FORMAT_YVU_SEMIPLANAR_440;
}

StrideRule InputStrideRule(const FormatInfo& info, uint32_t width, bool is8k, DvppChip chip) {
    const uint64_t row = static_cast<uint64_t>(width) * info.bytes_per_pixel;
    const uint64_t aligned_row = static_cast<uint64_t>(AlignUp(width, 16)) * info.bytes_per_pixel;
    switch (chip) {
        case DvppChip::kA2:
            return {1, std::max<uint64_t>(row, 10), HalfHeightChroma(info.format)};
        case DvppChip::k310P:
            return {16, std::max<uint64_t>(aligned_row, kMinWidthStride),
                    HalfHeightChroma(info.format)};
        default:
            if (is8k) return {2, row, true};
            return {16, std::max<uint64_t>(aligned_row, kMinWidthStride), true};
    }
}

std::string WidthStrideRuleText(const StrideRule& rule) {
    std::string text = rule.ws_align == 1   ? "at least "
                       : rule.ws_align == 2 ? "even, at least "
                                            : "a multiple of 16, at least ";
    return text + std::to_string(rule.min_ws) + " and at most 16384";
}

}  // namespace

aclError CheckVpcInput(const Picture& pic, const Stream* stream, const char* what) {
    const FormatInfo* info = VpcFormat(pic.format);
    if (info == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has %s, which the VPC does not read: use YUV400, YUV/YVU semi-planar "
                    "420/422/444/440, packed 422/444, RGB/BGR 888 or xRGB 8888",
                    what, FormatName(pic.format).c_str());
    }
    const DvppChip chip = CurrentChip();
    bool is8k = pic.width > kMaxSide || pic.height > kMaxSide;
    uint32_t max_side = Reads8k(pic.format, chip) ? kMax8kSide : kMaxSide;
    if (pic.width < kMinWidth || pic.height < kMinHeight || pic.width > max_side ||
        pic.height > max_side) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s is %ux%u; a VPC picture is 10x6 to 4096x4096 (inputs up to 8192x8192 for "
                    "%s only on %s)",
                    what, pic.width, pic.height,
                    IsNewDvpp(chip) ? "YUV400, YUV420SP, 422SP, 444SP and packed 422"
                                    : "YUV420SP NV12/NV21",
                    ChipName().c_str());
    }
    if (info->format == PIXEL_FORMAT_YUV_SEMIPLANAR_440 ||
        info->format == PIXEL_FORMAT_YVU_SEMIPLANAR_440) {
        if (pic.width > kMaxSide) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s is %s of width %u; 440SP inputs are at most "
                        "4096 wide",
                        what, info->name, pic.width);
        }
    }
    const StrideRule rule = InputStrideRule(*info, pic.width, is8k, chip);
    if (pic.ws % rule.ws_align != 0 || pic.ws < rule.min_ws || pic.ws > kMaxWidthStride) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has widthStride %u; for %s of width %u (%u bytes per pixel) it must be "
                    "%s on %s",
                    what, pic.ws, info->name, pic.width, info->bytes_per_pixel,
                    WidthStrideRuleText(rule).c_str(), ChipName().c_str());
    }
    uint32_t max_hs = is8k ? kMax8kSide : kMaxSide;
    if ((rule.even_hs && pic.hs % 2 != 0) || pic.hs < kMinHeightStride || pic.hs < pic.height ||
        pic.hs > max_hs) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has heightStride %u; for %s of height %u it must be %sat least the "
                    "height and in [6, %u] on %s",
                    what, pic.hs, info->name, pic.height, rule.even_hs ? "even, " : "", max_hs,
                    ChipName().c_str());
    }
    uint64_t needed = VpcInputBytes(*info, pic.ws, pic.hs, chip);
    if (pic.size < needed) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has size %u but %s with strides %ux%u takes %" PRIu64 " bytes on %s", what,
                    pic.size, info->name, pic.ws, pic.hs, needed, ChipName().c_str());
    }
    return CheckMediaBuffer(pic.data, needed, stream, what);
}

bool IsVpcOutputFormat(acldvppPixelFormat f, DvppChip chip) {
    // The newer chips' VPC writes what their ConvertColor writes (both go through WriteI420).
    return Is420Sp(f) || (IsNewDvpp(chip) && IsConvertColorOutput(f));
}

uint64_t VpcOutputBytes(const Picture& pic, DvppChip chip) {
    return VpcInputBytes(*VpcFormat(pic.format), pic.ws, pic.hs, chip);
}

aclError CheckVpcOutput(const Picture& pic, const Stream* stream, const char* what) {
    const DvppChip chip = CurrentChip();
    if (!IsVpcOutputFormat(pic.format, chip)) {
        // The 310P and A2/A3 VPC also write 422SP, 444SP and packed YUV; openacl's resize path
        // does not, so they are refused with a message that says so.
        return Fail(ACL_ERROR_INVALID_PARAM, "%s has %s; the VPC writes only %s on %s%s", what,
                    FormatName(pic.format).c_str(),
                    IsNewDvpp(chip) ? "PIXEL_FORMAT_YUV_SEMIPLANAR_420 (NV12), "
                                      "PIXEL_FORMAT_YVU_SEMIPLANAR_420 (NV21), YUV400, RGB/BGR "
                                      "888 or xRGB 8888"
                                    : "PIXEL_FORMAT_YUV_SEMIPLANAR_420 (NV12) or "
                                      "PIXEL_FORMAT_YVU_SEMIPLANAR_420 (NV21)",
                    ChipName().c_str(),
                    IsNewDvpp(chip) ? " (that chip also writes 422SP, 444SP and packed YUV, "
                                      "which openacl does not emulate yet)"
                                    : "");
    }
    // Outputs are 10x6 to 4096x4096; the A2/A3 class writes up to 4096 wide by 8192 high.
    const uint32_t max_h = chip == DvppChip::kA2 ? kMax8kSide : kMaxSide;
    // Even sizes: NV12/NV21 need them on every chip; for YUV400 and RGB outputs it is openacl's
    // limit (the VPC works on 4:2:0 pictures), which the chips do not have.
    if (pic.width < kMinWidth || pic.height < kMinHeight || pic.width > kMaxSide ||
        pic.height > max_h || pic.width % 2 != 0 || pic.height % 2 != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s is %ux%u; a VPC output is 10x6 to 4096x%u with even width and height on "
                    "%s",
                    what, pic.width, pic.height, max_h, ChipName().c_str());
    }
    const uint32_t bpp = VpcFormat(pic.format)->bytes_per_pixel;
    // The A2/A3 class needs a row's bytes only; the others a multiple of 16, at least 32.
    const bool aligned = chip != DvppChip::kA2;
    const uint32_t min_ws =
        aligned ? std::max(kMinWidthStride, AlignUp(pic.width * bpp, 16)) : pic.width * bpp;
    if ((aligned && pic.ws % 16 != 0) || pic.ws < min_ws || pic.ws > kMaxWidthStride) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has widthStride %u; for width %u it must be %sat least %u (%s) and at "
                    "most 16384 on %s",
                    what, pic.ws, pic.width, aligned ? "a multiple of 16, " : "", min_ws,
                    aligned ? "ALIGN_UP(width x bytes per pixel, 16), minimum 32"
                            : "width x bytes per pixel",
                    ChipName().c_str());
    }
    // heightStride is even for NV12/NV21 (and every output on the 310/910).
    const bool even_hs = !IsNewDvpp(chip) || Is420Sp(pic.format);
    if ((even_hs && pic.hs % 2 != 0) || pic.hs < pic.height || pic.hs < kMinHeightStride ||
        pic.hs > max_h) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has heightStride %u; for height %u it must be %sat least the height "
                    "and at most %u on %s",
                    what, pic.hs, pic.height, even_hs ? "even, " : "", max_h, ChipName().c_str());
    }
    uint64_t needed = VpcOutputBytes(pic, chip);
    if (pic.size < needed) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has size %u but %s with strides %ux%u takes %" PRIu64 " bytes on %s", what,
                    pic.size, FormatName(pic.format).c_str(), pic.ws, pic.hs, needed,
                    ChipName().c_str());
    }
    return CheckMediaBuffer(pic.data, needed, stream, what);
}

}  // namespace openacl::dvpp
