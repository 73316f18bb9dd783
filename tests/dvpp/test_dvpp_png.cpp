// PNG: probing and PNGD to RGB888 / RGBA8888 with its strides; PNGs are encoded here by OpenCV.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "dvpp_test_support.h"

namespace {

std::vector<uint8_t> MakePng(int w, int h, int channels) {
    cv::Mat image(h, w, CV_8UC(channels));
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < channels; ++c)
                image.ptr<uint8_t>(y)[x * channels + c] = static_cast<uint8_t>(x * 3 + c * 50 + y);
    std::vector<uint8_t> png;
    EXPECT_TRUE(cv::imencode(".png", image, png));
    return png;
}

// A 16-bit RGB PNG whose every pixel is (blue, green, red) as OpenCV orders them.
std::vector<uint8_t> MakePng16(int w, int h, uint16_t blue, uint16_t green, uint16_t red) {
    cv::Mat image(h, w, CV_16UC3, cv::Scalar(blue, green, red));
    std::vector<uint8_t> png;
    EXPECT_TRUE(cv::imencode(".png", image, png));
    return png;
}

}  // namespace

TEST(DvppPngInfo, ReportsSizeAndComponents) {
    for (int channels : {1, 3, 4}) {
        std::vector<uint8_t> png = MakePng(50, 40, channels);
        uint32_t w = 0, h = 0;
        int32_t comps = 0;
        ASSERT_EQ(acldvppPngGetImageInfo(png.data(), png.size(), &w, &h, &comps), ACL_SUCCESS);
        EXPECT_EQ(w, 50u);
        EXPECT_EQ(h, 40u);
        EXPECT_EQ(comps, channels);
    }
}

TEST(DvppPngInfo, DataThatIsNotAPngIsRefused) {
    std::vector<uint8_t> junk(64, 0x42);
    uint32_t w = 0, h = 0;
    int32_t comps = 0;
    EXPECT_EQ(acldvppPngGetImageInfo(junk.data(), junk.size(), &w, &h, &comps),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("not a PNG");
}

TEST(DvppPngPredictDecSize, IsAlignedStridesTimesBytesPerPixel) {
    std::vector<uint8_t> png = MakePng(50, 40, 4);
    uint32_t size = 0;
    ASSERT_EQ(acldvppPngPredictDecSize(png.data(), png.size(), PIXEL_FORMAT_RGBA_8888, &size),
              ACL_SUCCESS);
    EXPECT_EQ(size, 128u * 4 * 48);
    ASSERT_EQ(acldvppPngPredictDecSize(png.data(), png.size(), PIXEL_FORMAT_RGB_888, &size),
              ACL_SUCCESS);
    EXPECT_EQ(size, 128u * 3 * 48);
}

TEST(DvppPngPredictDecSize, PictureSmallerThan32IsRefused) {
    std::vector<uint8_t> png = MakePng(16, 40, 3);
    uint32_t size = 0;
    EXPECT_EQ(acldvppPngPredictDecSize(png.data(), png.size(), PIXEL_FORMAT_RGB_888, &size),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("32x32 to 4096x4096");
}

TEST(DvppPngPredictDecSize, YuvOutputIsRefused) {
    std::vector<uint8_t> png = MakePng(40, 40, 3);
    uint32_t size = 0;
    EXPECT_EQ(
        acldvppPngPredictDecSize(png.data(), png.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("not a PNGD output format");
}

class DvppPngDecode : public DvppTest {
 protected:
    // Decodes `png` into rows of 128 pixels of `bpp` bytes, 48 rows; returns the output buffer
    // and, in *decoded, the format the decode chose.
    std::vector<uint8_t> Decode(const std::vector<uint8_t>& png, acldvppPixelFormat format,
                                uint32_t bpp, acldvppPixelFormat* decoded = nullptr) {
        MediaBuffer in(png);
        MediaBuffer out(128 * bpp * 48);
        PicDesc desc(out.get(), out.size(), format, 0, 0, 0, 0);
        EXPECT_EQ(acldvppPngDecodeAsync(channel_, in.get(), in.size(), desc, stream_), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
        if (decoded != nullptr) *decoded = acldvppGetPicDescFormat(desc);
        return out.Read();
    }
};

TEST_F(DvppPngDecode, RgbPngDecodesToRgb888InRgbOrder) {
    std::vector<uint8_t> png = MakePng(50, 40, 3);  // OpenCV wrote BGR pixels
    MediaBuffer in(png);
    MediaBuffer out(128 * 3 * 48);
    PicDesc desc(out.get(), out.size(), PIXEL_FORMAT_UNKNOWN, 0, 0, 0, 0);
    ASSERT_EQ(acldvppPngDecodeAsync(channel_, in.get(), in.size(), desc, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetPicDescFormat(desc), PIXEL_FORMAT_RGB_888);
    EXPECT_EQ(acldvppGetPicDescWidth(desc), 50u);
    EXPECT_EQ(acldvppGetPicDescWidthStride(desc), 384u);
    EXPECT_EQ(acldvppGetPicDescHeightStride(desc), 48u);
    std::vector<uint8_t> got = out.Read();
    // Pixel (x=2, y=1): B = 2*3+0+1 = 7, G = 57, R = 107 in OpenCV's order.
    const uint8_t* p = &got[1 * 384 + 2 * 3];
    EXPECT_EQ(p[0], 107);
    EXPECT_EQ(p[1], 57);
    EXPECT_EQ(p[2], 7);
}

TEST_F(DvppPngDecode, GreyPngDecodesToRgb888WithTheGreyInEveryChannel) {
    acldvppPixelFormat format = PIXEL_FORMAT_UNKNOWN;
    std::vector<uint8_t> got = Decode(MakePng(40, 40, 1), PIXEL_FORMAT_UNKNOWN, 3, &format);
    EXPECT_EQ(format, PIXEL_FORMAT_RGB_888);
    const uint8_t* p = &got[1 * 384 + 2 * 3];  // (x=2, y=1): 2*3 + 1 = 7
    EXPECT_EQ(p[0], 7);
    EXPECT_EQ(p[1], 7);
    EXPECT_EQ(p[2], 7);
}

TEST_F(DvppPngDecode, SixteenBitSamplesAreRoundedToEightBits) {
    // 400 / 257 = 1.56 rounds to 2 (keeping the high byte would give 1).
    std::vector<uint8_t> got =
        Decode(MakePng16(40, 40, 400, 100 * 257, 65535), PIXEL_FORMAT_RGB_888, 3);
    const uint8_t* p = &got[5 * 384 + 7 * 3];
    EXPECT_EQ(p[0], 255);  // red
    EXPECT_EQ(p[1], 100);  // green
    EXPECT_EQ(p[2], 2);    // blue
}

TEST_F(DvppPngDecode, RgbaPngKeepsAlphaInRgba8888) {
    std::vector<uint8_t> got = Decode(MakePng(40, 40, 4), PIXEL_FORMAT_RGBA_8888, 4);
    EXPECT_EQ(got[3], 150);  // alpha of (0, 0): 0 + 3 * 50 + 0
}

TEST_F(DvppPngDecode, RgbPngCannotBecomeRgba) {
    std::vector<uint8_t> png = MakePng(40, 40, 3);
    MediaBuffer in(png);
    MediaBuffer out(128 * 4 * 48);
    PicDesc desc(out.get(), out.size(), PIXEL_FORMAT_RGBA_8888, 0, 0, 0, 0);
    ASSERT_EQ(acldvppPngDecodeAsync(channel_, in.get(), in.size(), desc, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("decodes to PIXEL_FORMAT_RGB_888 only");
}

TEST_F(DvppPngDecode, TruncatedPngFailsWithoutCrashing) {
    std::vector<uint8_t> png = MakePng(64, 64, 3);
    png.resize(png.size() / 2);
    MediaBuffer in(png);
    MediaBuffer out(128 * 3 * 64);
    PicDesc desc(out.get(), out.size(), PIXEL_FORMAT_RGB_888, 0, 0, 0, 0);
    ASSERT_EQ(acldvppPngDecodeAsync(channel_, in.get(), in.size(), desc, stream_), ACL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_MESSAGE_CONTAINS("PNG");
}
