// JPEG: probing, JPEGD (layout, strides, greyscale, odd sizes, bad streams) and JPEGE round
// trips. Test JPEGs are encoded here with libjpeg-turbo or OpenCV.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "dvpp_test_support.h"

namespace {

// Mean absolute difference of two w x h planes with their own strides.
double MeanDiff(const uint8_t* a, uint32_t a_stride, const uint8_t* b, uint32_t b_stride,
                uint32_t w, uint32_t h) {
    double sum = 0;
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
            sum += std::abs(int(a[y * a_stride + x]) - int(b[y * b_stride + x]));
    return sum / (double(w) * h);
}

// Decodes with libjpeg-turbo to planar YUV (the reference for JPEGD's output).
std::vector<uint8_t> ReferenceLuma(const std::vector<uint8_t>& jpeg, int* w, int* h) {
    tjhandle tj = tjInitDecompress();
    int subsamp = 0, cs = 0;
    tjDecompressHeader3(tj, jpeg.data(), jpeg.size(), w, h, &subsamp, &cs);
    std::vector<uint8_t> yuv(tjBufSizeYUV2(*w, 1, *h, subsamp));
    tjDecompressToYUV2(tj, jpeg.data(), jpeg.size(), yuv.data(), *w, 1, *h, 0);
    tjDestroy(tj);
    yuv.resize(static_cast<size_t>(*w) * *h);
    return yuv;
}

// The JPEG with an EXIF APP1 segment carrying `orientation` inserted after its SOI marker.
std::vector<uint8_t> WithExifOrientation(const std::vector<uint8_t>& jpeg, uint8_t orientation) {
    const uint8_t payload[] = {'E',         'x',  'i', 'f', 0, 0,        // EXIF header
                               'I',         'I',  42,  0,   8, 0, 0, 0,  // little-endian TIFF
                               1,           0,                           // one IFD0 entry:
                               0x12,        0x01, 3,   0,   1, 0, 0, 0,
                               orientation, 0,    0,   0,   // Orientation
                               0,           0,    0,   0};  // no next IFD
    const size_t length = sizeof payload + 2;
    const uint8_t marker[] = {0xFF, 0xE1, uint8_t(length >> 8), uint8_t(length & 0xFF)};
    // Laid out in a vector of the final size: growing one by inserts makes GCC 12 at -O3 warn
    // about the bounds of its own memmove (-Warray-bounds), a false positive.
    std::vector<uint8_t> out(jpeg.size() + sizeof marker + sizeof payload);
    auto at = std::copy(jpeg.begin(), jpeg.begin() + 2, out.begin());
    at = std::copy(std::begin(marker), std::end(marker), at);
    at = std::copy(std::begin(payload), std::end(payload), at);
    std::copy(jpeg.begin() + 2, jpeg.end(), at);
    return out;
}

}  // namespace

TEST(DvppJpegInfo, ReportsSizeComponentsAndSubsampling) {
    struct Case {
        int subsamp;
        acldvppJpegFormat format;
        int32_t components;
    } cases[] = {{TJSAMP_420, ACL_JPEG_CSS_420, 3},
                 {TJSAMP_422, ACL_JPEG_CSS_422, 3},
                 {TJSAMP_444, ACL_JPEG_CSS_444, 3},
                 {TJSAMP_440, ACL_JPEG_CSS_440, 3},
                 {TJSAMP_GRAY, ACL_JPEG_CSS_GRAY, 1}};
    for (const Case& c : cases) {
        std::vector<uint8_t> jpeg = MakeJpeg(100, 60, c.subsamp);
        uint32_t w = 0, h = 0;
        int32_t comps = 0;
        acldvppJpegFormat format = ACL_JPEG_CSS_UNKNOWN;
        ASSERT_EQ(acldvppJpegGetImageInfoV2(jpeg.data(), jpeg.size(), &w, &h, &comps, &format),
                  ACL_SUCCESS);
        EXPECT_EQ(w, 100u);
        EXPECT_EQ(h, 60u);
        EXPECT_EQ(comps, c.components);
        EXPECT_EQ(format, c.format);
        EXPECT_EQ(acldvppJpegGetImageInfo(jpeg.data(), jpeg.size(), &w, &h, &comps), ACL_SUCCESS);
    }
}

TEST(DvppJpegInfo, ProgressiveJpegIsUnsupported) {
    cv::Mat image(64, 64, CV_8UC3, cv::Scalar(10, 120, 200));
    std::vector<uint8_t> jpeg;
    ASSERT_TRUE(cv::imencode(".jpg", image, jpeg, {cv::IMWRITE_JPEG_PROGRESSIVE, 1}));
    uint32_t w = 0, h = 0;
    int32_t comps = 0;
    EXPECT_EQ(acldvppJpegGetImageInfo(jpeg.data(), jpeg.size(), &w, &h, &comps),
              ACL_ERROR_UNSUPPORTED_JPEG);
    EXPECT_MESSAGE_CONTAINS("progressive JPEG");
}

namespace {

// Offset of the first SOF0 marker's segment (FF C0) in a baseline JPEG.
size_t Sof0(const std::vector<uint8_t>& jpeg) {
    for (size_t i = 2; i + 1 < jpeg.size(); ++i)
        if (jpeg[i] == 0xFF && jpeg[i + 1] == 0xC0) return i;
    return 0;
}

}  // namespace

TEST(DvppJpegInfo, ArithmeticCodingIsUnsupported) {
    std::vector<uint8_t> jpeg = MakeJpeg(64, 64, TJSAMP_420);
    size_t sof = Sof0(jpeg);
    ASSERT_NE(sof, 0u);
    jpeg[sof + 1] = 0xC9;  // SOF9: sequential, arithmetic-coded
    uint32_t w = 0, h = 0;
    int32_t comps = 0;
    EXPECT_EQ(acldvppJpegGetImageInfo(jpeg.data(), jpeg.size(), &w, &h, &comps),
              ACL_ERROR_UNSUPPORTED_JPEG);
    EXPECT_MESSAGE_CONTAINS("arithmetic-coded JPEG");
}

TEST(DvppJpegInfo, TwelveBitSamplesAreUnsupported) {
    std::vector<uint8_t> jpeg = MakeJpeg(64, 64, TJSAMP_420);
    size_t sof = Sof0(jpeg);
    ASSERT_NE(sof, 0u);
    jpeg[sof + 4] = 12;  // sample precision
    uint32_t w = 0, h = 0;
    int32_t comps = 0;
    EXPECT_EQ(acldvppJpegGetImageInfo(jpeg.data(), jpeg.size(), &w, &h, &comps),
              ACL_ERROR_UNSUPPORTED_JPEG);
    EXPECT_MESSAGE_CONTAINS("12-bit samples");
}

TEST(DvppJpegInfo, DataThatIsNotAJpegIsUnsupported) {
    std::vector<uint8_t> png;
    ASSERT_TRUE(cv::imencode(".png", cv::Mat(8, 8, CV_8UC1, cv::Scalar(3)), png));
    uint32_t w = 0, h = 0;
    int32_t comps = 0;
    EXPECT_EQ(acldvppJpegGetImageInfo(png.data(), png.size(), &w, &h, &comps),
              ACL_ERROR_UNSUPPORTED_JPEG);
    EXPECT_MESSAGE_CONTAINS("SOI marker");
}

TEST(DvppJpegInfo, HeaderCutShortIsUnsupported) {
    std::vector<uint8_t> jpeg = MakeJpeg(64, 64, TJSAMP_420);
    for (size_t keep : {size_t(3), size_t(20), size_t(100)}) {
        uint32_t w = 0, h = 0;
        int32_t comps = 0;
        EXPECT_EQ(acldvppJpegGetImageInfo(jpeg.data(), keep, &w, &h, &comps),
                  ACL_ERROR_UNSUPPORTED_JPEG)
            << keep;
        EXPECT_MESSAGE_CONTAINS("JPEG");
    }
}

TEST(DvppJpegInfo, NullDataIsInvalid) {
    uint32_t w = 0;
    EXPECT_EQ(acldvppJpegGetImageInfo(nullptr, 10, &w, &w, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("data is null");
}

TEST(DvppJpegPredictDecSize, IsAlignedStridesTimesTheFormatFactor) {
    std::vector<uint8_t> jpeg = MakeJpeg(100, 60, TJSAMP_444);
    uint32_t size = 0;
    ASSERT_EQ(
        acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
        ACL_SUCCESS);
    EXPECT_EQ(size, 128u * 64 * 3 / 2);  // ALIGN_UP(100, 64) on the default chip, a 310P
    ASSERT_EQ(acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_UNKNOWN, &size),
              ACL_SUCCESS);
    EXPECT_EQ(size, 128u * 64 * 3);  // 4:4:4 source layout
    EXPECT_EQ(acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_RGB_888, &size),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("not a JPEGD output format");
}

TEST(DvppJpegPredictDecSize, PictureSmallerThan32IsUnsupported) {
    std::vector<uint8_t> jpeg = MakeJpeg(16, 64, TJSAMP_420);
    uint32_t size = 0;
    EXPECT_EQ(
        acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
        ACL_ERROR_UNSUPPORTED_JPEG);
    EXPECT_MESSAGE_CONTAINS("32x32 to 8192x8192");
}

// On the 310, whose JPEGD rows are 128-byte aligned (64 on the 310P: test_dvpp_chip.cpp).
class DvppJpegDecode : public DvppChipTest {
 protected:
    DvppJpegDecode() : DvppChipTest("Ascend310") {}
    // Decodes `jpeg` to `format`; returns the synchronisation's code.
    aclError Decode(const std::vector<uint8_t>& jpeg, acldvppPixelFormat format, uint32_t out_size,
                    std::vector<uint8_t>* out, PicDesc* desc) {
        MediaBuffer in(jpeg);
        MediaBuffer buffer(out_size);
        acldvppSetPicDescData(*desc, buffer.get());
        acldvppSetPicDescSize(*desc, out_size);
        acldvppSetPicDescFormat(*desc, format);
        EXPECT_EQ(acldvppJpegDecodeAsync(channel_, in.get(), in.size(), *desc, stream_),
                  ACL_SUCCESS);
        aclError rc = aclrtSynchronizeStream(stream_);
        *out = buffer.Read();
        return rc;
    }
};

TEST_F(DvppJpegDecode, WritesNv12WithStridesAlignedTo128By16) {
    std::vector<uint8_t> jpeg = MakeJpeg(100, 60, TJSAMP_420);
    PicDesc desc;
    std::vector<uint8_t> out;
    ASSERT_EQ(Decode(jpeg, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 128 * 64 * 3 / 2, &out, &desc),
              ACL_SUCCESS);
    EXPECT_EQ(acldvppGetPicDescWidth(desc), 100u);
    EXPECT_EQ(acldvppGetPicDescHeight(desc), 60u);
    EXPECT_EQ(acldvppGetPicDescWidthStride(desc), 128u);
    EXPECT_EQ(acldvppGetPicDescHeightStride(desc), 64u);
    EXPECT_EQ(acldvppGetPicDescSize(desc), 128u * 64 * 3 / 2);
    EXPECT_EQ(acldvppGetPicDescRetCode(desc), 0u);
    int w = 0, h = 0;
    std::vector<uint8_t> luma = ReferenceLuma(jpeg, &w, &h);
    EXPECT_EQ(MeanDiff(out.data(), 128, luma.data(), w, 100, 60), 0.0);  // same decoder
}

// Luma and both chroma planes are the decoder's own, the chroma interleaved in the order the
// output format names (U first for NV12, V first for NV21).
TEST_F(DvppJpegDecode, Yuv420SemiPlanarHoldsTheDecodersPlanesInTheFormatsOrder) {
    std::vector<uint8_t> jpeg = MakeJpeg(100, 60, TJSAMP_420);
    int w = 0, h = 0;
    ReferenceLuma(jpeg, &w, &h);
    tjhandle tj = tjInitDecompress();
    std::vector<uint8_t> i420(tjBufSizeYUV2(w, 1, h, TJSAMP_420));
    ASSERT_EQ(tjDecompressToYUV2(tj, jpeg.data(), jpeg.size(), i420.data(), w, 1, h, 0), 0);
    tjDestroy(tj);
    const uint8_t* y = i420.data();
    const uint8_t* u = y + w * h;
    const uint8_t* v = u + (w / 2) * (h / 2);
    for (const bool nv21 : {false, true}) {
        SCOPED_TRACE(nv21 ? "NV21" : "NV12");
        PicDesc desc;
        std::vector<uint8_t> out;
        ASSERT_EQ(
            Decode(jpeg, nv21 ? PIXEL_FORMAT_YVU_SEMIPLANAR_420 : PIXEL_FORMAT_YUV_SEMIPLANAR_420,
                   128 * 64 * 3 / 2, &out, &desc),
            ACL_SUCCESS);
        EXPECT_EQ(MeanDiff(out.data(), 128, y, w, w, h), 0.0);
        const uint8_t* uv = out.data() + 128 * 64;
        int wrong = 0;
        for (int r = 0; r < h / 2; ++r) {
            for (int c = 0; c < w / 2; ++c) {
                const uint8_t first = uv[r * 128 + 2 * c], second = uv[r * 128 + 2 * c + 1];
                const uint8_t cu = u[r * (w / 2) + c], cv = v[r * (w / 2) + c];
                wrong += (nv21 ? first != cv || second != cu : first != cu || second != cv) ? 1 : 0;
            }
        }
        EXPECT_EQ(wrong, 0) << "chroma samples that differ from the decoder's";
    }
}

TEST_F(DvppJpegDecode, GreyscaleBecomesNv12WithNeutralChroma) {
    std::vector<uint8_t> jpeg = MakeJpeg(64, 32, TJSAMP_GRAY);
    PicDesc desc;
    std::vector<uint8_t> out;
    ASSERT_EQ(Decode(jpeg, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 128 * 32 * 3 / 2, &out, &desc),
              ACL_SUCCESS);
    const uint8_t* uv = out.data() + 128 * 32;
    for (uint32_t y = 0; y < 16; ++y)
        for (uint32_t x = 0; x < 64; ++x)
            ASSERT_EQ(uv[y * 128 + x], 0x80) << x << "," << y;
}

TEST_F(DvppJpegDecode, OddSizesAreRoundedDownToEvenForYuv420) {
    std::vector<uint8_t> jpeg = MakeJpeg(101, 61, TJSAMP_420);
    PicDesc desc;
    std::vector<uint8_t> out;
    ASSERT_EQ(Decode(jpeg, PIXEL_FORMAT_YVU_SEMIPLANAR_420, 128 * 64 * 3 / 2, &out, &desc),
              ACL_SUCCESS);
    EXPECT_EQ(acldvppGetPicDescWidth(desc), 100u);
    EXPECT_EQ(acldvppGetPicDescHeight(desc), 60u);
}

TEST_F(DvppJpegDecode, ExifOrientationTurnsThePicture) {
    std::vector<uint8_t> plain = MakeJpeg(96, 64, TJSAMP_420);
    std::vector<uint8_t> jpeg = WithExifOrientation(plain, 6);  // rotate 90 degrees clockwise
    uint32_t predicted = 0;
    ASSERT_EQ(acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420,
                                        &predicted),
              ACL_SUCCESS);
    EXPECT_EQ(predicted, 128u * 96 * 3 / 2);  // 64 wide, 96 high once turned
    PicDesc desc;
    std::vector<uint8_t> out;
    ASSERT_EQ(Decode(jpeg, PIXEL_FORMAT_YUV_SEMIPLANAR_420, predicted, &out, &desc), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetPicDescWidth(desc), 64u);
    EXPECT_EQ(acldvppGetPicDescHeight(desc), 96u);
    int w = 0, h = 0;
    std::vector<uint8_t> luma = ReferenceLuma(plain, &w, &h);
    cv::Mat turned;
    cv::rotate(cv::Mat(h, w, CV_8UC1, luma.data()), turned, cv::ROTATE_90_CLOCKWISE);
    EXPECT_EQ(MeanDiff(out.data(), 128, turned.data, 64, 64, 96), 0.0);
}

TEST_F(DvppJpegDecode, MalformedExifIsIgnored) {
    std::vector<uint8_t> jpeg = WithExifOrientation(MakeJpeg(96, 64, TJSAMP_420), 6);
    jpeg[2 + 4 + 6] = 'X';  // the TIFF byte order mark is no longer II or MM
    PicDesc desc;
    std::vector<uint8_t> out;
    ASSERT_EQ(Decode(jpeg, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 128 * 64 * 3 / 2, &out, &desc),
              ACL_SUCCESS);
    EXPECT_EQ(acldvppGetPicDescWidth(desc), 96u);
}

TEST_F(DvppJpegDecode, UnknownFormatKeepsTheSourceLayout) {
    std::vector<uint8_t> jpeg = MakeJpeg(64, 32, TJSAMP_422);
    PicDesc desc;
    std::vector<uint8_t> out;
    ASSERT_EQ(Decode(jpeg, PIXEL_FORMAT_UNKNOWN, 128 * 32 * 2, &out, &desc), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetPicDescFormat(desc), PIXEL_FORMAT_YVU_SEMIPLANAR_422);
    EXPECT_EQ(acldvppGetPicDescSize(desc), 128u * 32 * 2);
}

TEST_F(DvppJpegDecode, Yuv420SourceCannotBecome444) {
    std::vector<uint8_t> jpeg = MakeJpeg(64, 32, TJSAMP_420);
    PicDesc desc;
    std::vector<uint8_t> out;
    EXPECT_EQ(Decode(jpeg, PIXEL_FORMAT_YUV_SEMIPLANAR_444, 128 * 32 * 3, &out, &desc),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("cannot be decoded to PIXEL_FORMAT_YUV_SEMIPLANAR_444");
}

TEST_F(DvppJpegDecode, TooSmallOutputFailsAtSynchronisationWithAdvice) {
    std::vector<uint8_t> jpeg = MakeJpeg(100, 60, TJSAMP_420);
    PicDesc desc;
    std::vector<uint8_t> out;
    EXPECT_EQ(Decode(jpeg, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 1000, &out, &desc),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("acldvppJpegPredictDecSize");
    EXPECT_EQ(acldvppGetPicDescRetCode(desc), static_cast<uint32_t>(ACL_ERROR_INVALID_PARAM));
}

TEST_F(DvppJpegDecode, TruncatedJpegFailsWithUnsupportedJpeg) {
    std::vector<uint8_t> jpeg = MakeJpeg(128, 128, TJSAMP_420);
    jpeg.resize(jpeg.size() / 2);
    PicDesc desc;
    std::vector<uint8_t> out;
    EXPECT_EQ(Decode(jpeg, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 128 * 128 * 3 / 2, &out, &desc),
              ACL_ERROR_UNSUPPORTED_JPEG);
    EXPECT_MESSAGE_CONTAINS("cannot be decoded");
}

TEST_F(DvppJpegDecode, CorruptedScanFailsWithoutCrashing) {
    std::vector<uint8_t> jpeg = MakeJpeg(128, 128, TJSAMP_420);
    for (size_t i = jpeg.size() / 2; i < jpeg.size() - 2; i += 7)
        jpeg[i] = 0xFF;  // stray markers in the entropy-coded data
    PicDesc desc;
    std::vector<uint8_t> out;
    EXPECT_NE(Decode(jpeg, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 128 * 128 * 3 / 2, &out, &desc),
              ACL_SUCCESS);
    aclGetRecentErrMsg();
}

TEST_F(DvppJpegDecode, HostMemoryInputIsRefusedAtOnce) {
    std::vector<uint8_t> jpeg = MakeJpeg(64, 64, TJSAMP_420);
    MediaBuffer out(128 * 64 * 3 / 2);
    PicDesc desc(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 128, 64);
    EXPECT_EQ(acldvppJpegDecodeAsync(channel_, jpeg.data(), jpeg.size(), desc, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("media memory");
}

TEST_F(DvppJpegDecode, ChannelWithoutJpegdIsRefused) {
    acldvppChannelDesc* vpc_only = acldvppCreateChannelDesc();
    acldvppSetChannelDescMode(vpc_only, DVPP_CHNMODE_VPC);
    ASSERT_EQ(acldvppCreateChannel(vpc_only), ACL_SUCCESS);
    MediaBuffer in(MakeJpeg(64, 64, TJSAMP_420));
    MediaBuffer out(128 * 64 * 3 / 2);
    PicDesc desc(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 128, 64);
    EXPECT_EQ(acldvppJpegDecodeAsync(vpc_only, in.get(), in.size(), desc, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("does not reserve DVPP_CHNMODE_JPEGD");
    acldvppDestroyChannel(vpc_only);
    acldvppDestroyChannelDesc(vpc_only);
}

TEST_F(DvppJpegDecode, SeesDataCopiedEarlierOnTheSameStream) {
    std::vector<uint8_t> jpeg = MakeJpeg(64, 64, TJSAMP_420);
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, jpeg.size()), ACL_SUCCESS);
    std::memcpy(pinned, jpeg.data(), jpeg.size());
    MediaBuffer in(jpeg.size());
    MediaBuffer out(128 * 64 * 3 / 2);
    PicDesc desc(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 0, 0, 0, 0);
    ASSERT_EQ(aclrtMemcpyAsync(in.get(), in.size(), pinned, jpeg.size(), ACL_MEMCPY_HOST_TO_DEVICE,
                               stream_),
              ACL_SUCCESS);
    ASSERT_EQ(acldvppJpegDecodeAsync(channel_, in.get(), in.size(), desc, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetPicDescWidth(desc), 64u);
    aclrtFreeHost(pinned);
}

class DvppJpegEncode : public DvppTest {};

TEST_F(DvppJpegEncode, PictureLargerThanTheChannelAllowsIsRefused) {
    acldvppChannelDesc* narrow = acldvppCreateChannelDesc();
    uint32_t width = 48;
    ASSERT_EQ(
        acldvppSetChannelDescParam(narrow, ACL_DVPP_CHANNEL_WIDTH_UINT32, sizeof width, &width),
        ACL_SUCCESS);
    ASSERT_EQ(acldvppCreateChannel(narrow), ACL_SUCCESS);
    MediaBuffer in(MakeNv12(64, 64, 64, 64));
    PicDesc desc(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 64, 64);
    acldvppJpegeConfig* config = acldvppCreateJpegeConfig();
    MediaBuffer out(100000);
    uint32_t size = out.size();
    EXPECT_EQ(acldvppJpegEncodeAsync(narrow, desc, out.get(), &size, config, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("encodes at most 48x8192");
    acldvppDestroyJpegeConfig(config);
    acldvppDestroyChannel(narrow);
    acldvppDestroyChannelDesc(narrow);
}

TEST_F(DvppJpegEncode, Nv12RoundTripsThroughJpegWithinTolerance) {
    const uint32_t w = 96, h = 64, ws = 96, hs = 64;
    std::vector<uint8_t> nv12 = MakeNv12(w, h, ws, hs);
    MediaBuffer in(nv12);
    PicDesc desc(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, ws, hs);
    acldvppJpegeConfig* config = acldvppCreateJpegeConfig();
    acldvppSetJpegeConfigLevel(config, 95);
    uint32_t predicted = 0;
    ASSERT_EQ(acldvppJpegPredictEncSize(desc, config, &predicted), ACL_SUCCESS);
    MediaBuffer out(predicted);
    uint32_t size = predicted;
    ASSERT_EQ(acldvppJpegEncodeAsync(channel_, desc, out.get(), &size, config, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_GT(size, 0u);
    EXPECT_LE(size, predicted);
    std::vector<uint8_t> jpeg = out.Read();
    jpeg.resize(size);
    int dw = 0, dh = 0;
    std::vector<uint8_t> luma = ReferenceLuma(jpeg, &dw, &dh);
    ASSERT_EQ(dw, int(w));
    ASSERT_EQ(dh, int(h));
    EXPECT_LT(MeanDiff(luma.data(), w, nv12.data(), ws, w, h), 2.0);
    acldvppDestroyJpegeConfig(config);
}

TEST_F(DvppJpegEncode, CapacityTooSmallFailsAtSynchronisation) {
    std::vector<uint8_t> nv12 = MakeNv12(64, 64, 64, 64);
    MediaBuffer in(nv12);
    PicDesc desc(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 64, 64);
    acldvppJpegeConfig* config = acldvppCreateJpegeConfig();
    MediaBuffer out(64);
    uint32_t size = 64;
    ASSERT_EQ(acldvppJpegEncodeAsync(channel_, desc, out.get(), &size, config, stream_),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("acldvppJpegPredictEncSize");
    acldvppDestroyJpegeConfig(config);
}

TEST_F(DvppJpegEncode, InputRulesAreEnforced) {
    acldvppJpegeConfig* config = acldvppCreateJpegeConfig();
    MediaBuffer in(256 * 64 * 3 / 2);
    MediaBuffer out(100000);
    uint32_t size = out.size();
    {
        PicDesc odd(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 63, 64, 64, 64);
        EXPECT_EQ(acldvppJpegEncodeAsync(channel_, odd, out.get(), &size, config, stream_),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_MESSAGE_CONTAINS("even width");
    }
    {
        PicDesc stride(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 72, 64);
        EXPECT_EQ(acldvppJpegEncodeAsync(channel_, stride, out.get(), &size, config, stream_),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_MESSAGE_CONTAINS("widthStride 72");
    }
    {
        PicDesc rgb(in.get(), in.size(), PIXEL_FORMAT_RGB_888, 64, 64, 192, 64);
        EXPECT_EQ(acldvppJpegEncodeAsync(channel_, rgb, out.get(), &size, config, stream_),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_MESSAGE_CONTAINS("JPEGE encodes YUV420SP");
    }
    {
        PicDesc rows(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 40, 64, 44);
        EXPECT_EQ(acldvppJpegEncodeAsync(channel_, rows, out.get(), &size, config, stream_),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_MESSAGE_CONTAINS("heightStride 44");
    }
    {
        PicDesc tiny(in.get(), 100, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 64, 64);
        EXPECT_EQ(acldvppJpegEncodeAsync(channel_, tiny, out.get(), &size, config, stream_),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_MESSAGE_CONTAINS("takes 6144 bytes");
    }
    {
        PicDesc small(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 16, 16, 16, 16);
        EXPECT_EQ(acldvppJpegEncodeAsync(channel_, small, out.get(), &size, config, stream_),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_MESSAGE_CONTAINS("32x32 to 8192x8192");
    }
    acldvppDestroyJpegeConfig(config);
}

TEST_F(DvppJpegEncode, PackedYuyvIsEncodedAs422) {
    const uint32_t w = 64, h = 32, ws = 128;
    std::vector<uint8_t> yuyv(ws * h);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; x += 2) {
            uint8_t* p = &yuyv[y * ws + 2 * x];
            p[0] = static_cast<uint8_t>(40 + 2 * x);
            p[1] = 100;
            p[2] = static_cast<uint8_t>(41 + 2 * x);
            p[3] = 150;
        }
    MediaBuffer in(yuyv);
    PicDesc desc(in.get(), in.size(), PIXEL_FORMAT_YUYV_PACKED_422, w, h, ws, h);
    acldvppJpegeConfig* config = acldvppCreateJpegeConfig();
    MediaBuffer out(100000);
    uint32_t size = out.size();
    ASSERT_EQ(acldvppJpegEncodeAsync(channel_, desc, out.get(), &size, config, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> jpeg = out.Read();
    jpeg.resize(size);
    uint32_t jw = 0, jh = 0;
    int32_t comps = 0;
    acldvppJpegFormat format = ACL_JPEG_CSS_UNKNOWN;
    ASSERT_EQ(acldvppJpegGetImageInfoV2(jpeg.data(), size, &jw, &jh, &comps, &format), ACL_SUCCESS);
    EXPECT_EQ(jw, w);
    EXPECT_EQ(jh, h);
    EXPECT_EQ(format, ACL_JPEG_CSS_422);
    acldvppDestroyJpegeConfig(config);
}
