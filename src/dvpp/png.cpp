#include "dvpp/png.h"

#include <cstring>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace openacl::dvpp {

namespace {

constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
constexpr uint32_t kPngMinSide = 32, kPngMaxSide = 4096;

uint32_t BigEndian32(const uint8_t* p) {
    return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16) |
           (static_cast<uint32_t>(p[2]) << 8) | p[3];
}

}  // namespace

aclError ParsePngHeader(const uint8_t* data, size_t size, PngHeader* header, std::string* why) {
    if (size < 8 || std::memcmp(data, kSignature, 8) != 0) {
        *why = "the data is not a PNG stream (no PNG signature)";
        return ACL_ERROR_INVALID_PARAM;
    }
    if (size < 33 || BigEndian32(data + 8) != 13 || std::memcmp(data + 12, "IHDR", 4) != 0) {
        *why = "the PNG stream is truncated or has no IHDR chunk first";
        return ACL_ERROR_INVALID_PARAM;
    }
    header->width = BigEndian32(data + 16);
    header->height = BigEndian32(data + 20);
    switch (data[25]) {  // colour type
        case 0:
            header->components = 1;
            break;
        case 2:
        case 3:
            header->components = 3;
            break;
        case 4:
            header->components = 2;
            break;
        case 6:
            header->components = 4;
            break;
        default:
            *why = "the PNG header has an invalid colour type " + std::to_string(data[25]);
            return ACL_ERROR_INVALID_PARAM;
    }
    return ACL_SUCCESS;
}

bool IsPngdOutputFormat(acldvppPixelFormat format) {
    return format == PIXEL_FORMAT_RGB_888 || format == PIXEL_FORMAT_RGBA_8888 ||
           format == PIXEL_FORMAT_UNKNOWN;
}

aclError PlanPngDecode(const PngHeader& header, acldvppPixelFormat requested, PngdLayout* layout,
                       std::string* why) {
    if (header.width < kPngMinSide || header.height < kPngMinSide || header.width > kPngMaxSide ||
        header.height > kPngMaxSide) {
        *why = "the PNG is " + std::to_string(header.width) + "x" + std::to_string(header.height) +
               "; PNGD decodes 32x32 to 4096x4096";
        return ACL_ERROR_INVALID_PARAM;
    }
    bool alpha = header.components == 2 || header.components == 4;
    acldvppPixelFormat format = requested;
    if (format == PIXEL_FORMAT_UNKNOWN)
        format = alpha ? PIXEL_FORMAT_RGBA_8888 : PIXEL_FORMAT_RGB_888;
    if (format == PIXEL_FORMAT_RGBA_8888 && !alpha) {
        *why =
            "a PNG without alpha (grey or RGB) decodes to PIXEL_FORMAT_RGB_888 only, not "
            "PIXEL_FORMAT_RGBA_8888";
        return ACL_ERROR_INVALID_PARAM;
    }
    uint32_t bpp = format == PIXEL_FORMAT_RGBA_8888 ? 4 : 3;
    layout->format = format;
    layout->width = header.width;
    layout->height = header.height;
    layout->ws = AlignUp(header.width, 128) * bpp;
    layout->hs = AlignUp(header.height, 16);
    layout->size = static_cast<uint64_t>(layout->ws) * layout->hs;
    return ACL_SUCCESS;
}

aclError DecodePng(const uint8_t* data, size_t size, const PngdLayout& layout, uint8_t* out,
                   std::string* why) {
    cv::Mat decoded;
    try {
        cv::Mat encoded(1, static_cast<int>(size), CV_8UC1, const_cast<uint8_t*>(data));
        decoded = cv::imdecode(encoded, cv::IMREAD_UNCHANGED);
    } catch (const cv::Exception& e) {
        *why = std::string("the PNG cannot be decoded: ") + e.what();
        return ACL_ERROR_FAILURE;
    }
    if (decoded.empty() || decoded.cols != static_cast<int>(layout.width) ||
        decoded.rows != static_cast<int>(layout.height)) {
        *why = "the PNG cannot be decoded (corrupt or truncated data)";
        return ACL_ERROR_FAILURE;
    }
    if (decoded.depth() == CV_16U) decoded.convertTo(decoded, CV_8U, 1.0 / 257.0);
    const bool rgba = layout.format == PIXEL_FORMAT_RGBA_8888;
    int code = -1;
    switch (decoded.channels()) {
        case 1:
            code = cv::COLOR_GRAY2RGB;
            break;
        case 2: {  // grey + alpha: OpenCV keeps both channels
            std::vector<cv::Mat> parts;
            cv::split(decoded, parts);
            std::vector<cv::Mat> merged = {parts[0], parts[0], parts[0]};
            if (rgba) merged.push_back(parts[1]);
            cv::merge(merged, decoded);
            break;
        }
        case 3:
            code = cv::COLOR_BGR2RGB;
            break;
        default:
            code = rgba ? cv::COLOR_BGRA2RGBA : cv::COLOR_BGRA2RGB;
            break;
    }
    if (code >= 0) cv::cvtColor(decoded, decoded, code);
    cv::Mat target(static_cast<int>(layout.height), static_cast<int>(layout.width),
                   rgba ? CV_8UC4 : CV_8UC3, out, layout.ws);
    decoded.copyTo(target);
    return ACL_SUCCESS;
}

}  // namespace openacl::dvpp
