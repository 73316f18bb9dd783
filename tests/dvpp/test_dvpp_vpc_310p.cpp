// The 310P-generation VPC tasks: colour conversion, pyramid-down, histograms, look-up tables
// and borders, against OpenCV on the same data, and their rules.
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "dvpp_test_support.h"

namespace {

cv::Mat View(void* data, uint32_t w, uint32_t h, int type, uint32_t stride) {
    return cv::Mat(int(h), int(w), type, data, stride);
}

}  // namespace

// Pyramid-down is the 310P's alone, so these run on that chip.
class DvppVpc310P : public DvppChipTest {
 protected:
    DvppVpc310P() : DvppChipTest("Ascend310P3") {}
};

TEST_F(DvppVpc310P, ConvertColorNv12ToRgbMatchesOpenCv) {
    const uint32_t w = 64, h = 48;
    std::vector<uint8_t> nv12 = MakeNv12(w, h, w, h);
    MediaBuffer in(nv12);
    MediaBuffer out(w * 3 * h);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_RGB_888, w, h, w * 3, h);
    ASSERT_EQ(acldvppVpcConvertColorAsync(channel_, input, output, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    cv::Mat want;
    cv::cvtColor(View(nv12.data(), w, h * 3 / 2, CV_8UC1, w), want, cv::COLOR_YUV2RGB_NV12);
    double max_diff = cv::norm(View(got.data(), w, h, CV_8UC3, w * 3), want, cv::NORM_INF);
    EXPECT_LE(max_diff, 3.0);
}

TEST_F(DvppVpc310P, ConvertColorRgbToBgrSwapsChannelsExactly) {
    const uint32_t w = 16, h = 8, ws = 48;
    std::vector<uint8_t> rgb(ws * h);
    for (size_t i = 0; i < rgb.size(); ++i)
        rgb[i] = static_cast<uint8_t>(i);
    MediaBuffer in(rgb);
    MediaBuffer out(ws * h);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_RGB_888, w, h, ws, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_BGR_888, w, h, ws, h);
    ASSERT_EQ(acldvppVpcConvertColorAsync(channel_, input, output, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    EXPECT_EQ(got[0], rgb[2]);
    EXPECT_EQ(got[1], rgb[1]);
    EXPECT_EQ(got[2], rgb[0]);
}

TEST_F(DvppVpc310P, ConvertColorFillsAnOutputOfSizeZero) {
    const uint32_t w = 40, h = 20;
    MediaBuffer in(MakeNv12(w, h, 48, h));
    MediaBuffer out(48 * 4 * h);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, 48, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_BGRA_8888, 0, 0, 0, 0);
    ASSERT_EQ(acldvppVpcConvertColorAsync(channel_, input, output, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetPicDescWidth(output), w);
    EXPECT_EQ(acldvppGetPicDescHeight(output), h);
    EXPECT_EQ(acldvppGetPicDescWidthStride(output), 48u * 4);
    EXPECT_EQ(acldvppGetPicDescHeightStride(output), h);
}

TEST_F(DvppVpc310P, ConvertColorKeepsTheSize) {
    MediaBuffer in(MakeNv12(64, 64, 64, 64));
    MediaBuffer out(64 * 3 * 64);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 64, 64);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_RGB_888, 32, 32, 96, 32);
    EXPECT_EQ(acldvppVpcConvertColorAsync(channel_, input, output, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("keeps the size");
}

TEST_F(DvppVpc310P, ConvertColorFromYuv400WritesYuv400Only) {
    MediaBuffer in(64 * 64 * 3 / 2);
    MediaBuffer out(64 * 3 * 64);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_400, 64, 64, 64, 64);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_RGB_888, 64, 64, 192, 64);
    EXPECT_EQ(acldvppVpcConvertColorAsync(channel_, input, output, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("converts to PIXEL_FORMAT_YUV_400 only");
}

TEST_F(DvppVpc310P, ConvertColorToAFormatItDoesNotWriteIsRefused) {
    MediaBuffer in(MakeNv12(64, 64, 64, 64));
    MediaBuffer out(64 * 64 * 2);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 64, 64);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUYV_PACKED_422, 64, 64, 128, 64);
    EXPECT_EQ(acldvppVpcConvertColorAsync(channel_, input, output, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("colour conversion writes");
}

TEST_F(DvppVpc310P, PyrDownMatchesOpenCvPyrDown) {
    const uint32_t w = 64, h = 48;
    std::vector<uint8_t> grey = MakeTexturedNv12(w, h, w, h);
    grey.resize(w * h);
    MediaBuffer in(grey);
    MediaBuffer out(32 * 24);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_400, w, h, w, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_400, 32, 24, 32, 24);
    ASSERT_EQ(acldvppVpcPyrDownAsync(channel_, input, output, nullptr, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    cv::Mat want;
    cv::pyrDown(View(grey.data(), w, h, CV_8UC1, w), want, cv::Size(32, 24));
    EXPECT_EQ(cv::norm(View(got.data(), 32, 24, CV_8UC1, 32), want, cv::NORM_INF), 0.0);
}

TEST_F(DvppVpc310P, PyrDownHalvesTheSizeAndTakesNoReserve) {
    MediaBuffer in(64 * 48), out(64 * 48);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_400, 64, 48, 64, 48);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_400, 48, 24, 48, 24);
    EXPECT_EQ(acldvppVpcPyrDownAsync(channel_, input, output, nullptr, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("writes 32x24");
    int reserve = 0;
    EXPECT_EQ(acldvppVpcPyrDownAsync(channel_, input, output, &reserve, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("reserve must be nullptr");
}

TEST_F(DvppVpc310P, CalcHistCountsEachComponent) {
    const uint32_t w = 32, h = 16;
    std::vector<uint8_t> nv12(w * h * 3 / 2, 0);
    for (uint32_t i = 0; i < w * h; ++i)
        nv12[i] = i < 100 ? 10 : 200;
    for (uint32_t i = w * h; i < nv12.size(); i += 2) {
        nv12[i] = 50;      // U
        nv12[i + 1] = 60;  // V
    }
    MediaBuffer in(nv12);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
    acldvppHist* hist = acldvppCreateHist();
    ASSERT_EQ(acldvppVpcCalcHistAsync(channel_, input, hist, nullptr, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(acldvppGetHistDims(hist), 3u);
    uint32_t* bins = nullptr;
    uint16_t len = 0;
    ASSERT_EQ(acldvppGetHistData(hist, 0, &bins, &len), ACL_SUCCESS);
    EXPECT_EQ(bins[10], 100u);
    EXPECT_EQ(bins[200], w * h - 100);
    ASSERT_EQ(acldvppGetHistData(hist, 1, &bins, &len), ACL_SUCCESS);
    EXPECT_EQ(bins[50], w * h / 4);
    ASSERT_EQ(acldvppGetHistData(hist, 2, &bins, &len), ACL_SUCCESS);
    EXPECT_EQ(bins[60], w * h / 4);
    EXPECT_EQ(acldvppGetHistRetCode(hist), 0u);
    acldvppDestroyHist(hist);
}

TEST_F(DvppVpc310P, CalcHistTakesNoReserveAndALiveHist) {
    MediaBuffer in(MakeNv12(32, 16, 32, 16));
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16, 32, 16);
    acldvppHist* hist = acldvppCreateHist();
    int reserve = 0;
    EXPECT_EQ(acldvppVpcCalcHistAsync(channel_, input, hist, &reserve, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("reserve must be nullptr");
    acldvppDestroyHist(hist);
    EXPECT_EQ(acldvppVpcCalcHistAsync(channel_, input, hist, nullptr, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("not a live acldvppHist");
}

TEST_F(DvppVpc310P, EqualizeHistKeepsFormatAndSize) {
    MediaBuffer in(MakeNv12(32, 16, 32, 16)), out(32 * 16 * 3 / 2);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16, 32, 16);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YVU_SEMIPLANAR_420, 32, 16, 32, 16);
    acldvppLutMap* map = acldvppCreateLutMap();
    EXPECT_EQ(acldvppVpcEqualizeHistAsync(channel_, input, output, map, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("keeps format and size");
    acldvppDestroyLutMap(map);
}

TEST_F(DvppVpc310P, EqualizeHistAppliesTheLutMap) {
    const uint32_t w = 32, h = 16;
    std::vector<uint8_t> grey(w * h * 3 / 2);
    for (size_t i = 0; i < grey.size(); ++i)
        grey[i] = static_cast<uint8_t>(i);
    MediaBuffer in(grey), out(grey.size());
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_400, w, h, w, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_400, w, h, w, h);
    acldvppLutMap* map = acldvppCreateLutMap();
    uint8_t* table = nullptr;
    uint32_t len = 0;
    ASSERT_EQ(acldvppGetLutMapData(map, 0, &table, &len), ACL_SUCCESS);
    for (uint32_t i = 0; i < len; ++i)
        table[i] = static_cast<uint8_t>(255 - i);
    ASSERT_EQ(acldvppVpcEqualizeHistAsync(channel_, input, output, map, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    EXPECT_EQ(got[0], 255);
    EXPECT_EQ(got[100], 255 - 100);
    acldvppDestroyLutMap(map);
}

TEST_F(DvppVpc310P, MakeBorderMatchesOpenCvOnBothPlanes) {
    const uint32_t w = 32, h = 16, ow = 48, oh = 24;
    std::vector<uint8_t> nv12 = MakeNv12(w, h, w, h);
    MediaBuffer in(nv12), out(ow * oh * 3 / 2);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, ow, oh, ow, oh);
    acldvppBorderConfig* border = acldvppCreateBorderConfig();
    acldvppSetBorderConfigTop(border, 2);
    acldvppSetBorderConfigBottom(border, 6);
    acldvppSetBorderConfigLeft(border, 8);
    acldvppSetBorderConfigRight(border, 8);
    acldvppSetBorderConfigValue(border, 0, 16);
    acldvppSetBorderConfigValue(border, 1, 128);
    acldvppSetBorderConfigValue(border, 2, 200);
    ASSERT_EQ(acldvppVpcMakeBorderAsync(channel_, input, output, border, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    cv::Mat want_y, want_uv;
    cv::copyMakeBorder(View(nv12.data(), w, h, CV_8UC1, w), want_y, 2, 6, 8, 8, cv::BORDER_CONSTANT,
                       cv::Scalar(16));
    cv::copyMakeBorder(View(nv12.data() + w * h, w / 2, h / 2, CV_8UC2, w), want_uv, 1, 3, 4, 4,
                       cv::BORDER_CONSTANT, cv::Scalar(128, 200));
    EXPECT_EQ(cv::norm(View(got.data(), ow, oh, CV_8UC1, ow), want_y, cv::NORM_INF), 0.0);
    EXPECT_EQ(
        cv::norm(View(got.data() + ow * oh, ow / 2, oh / 2, CV_8UC2, ow), want_uv, cv::NORM_INF),
        0.0);
    acldvppDestroyBorderConfig(border);
}

// Odd borders are taken (test_dvpp_chip_strides.cpp), but a YUV420SP output stays even-sized.
TEST_F(DvppVpc310P, MakeBorderNeedsAnEvenYuv420OutputAndTheExactOutputSize) {
    MediaBuffer in(MakeNv12(32, 16, 32, 16)), out(64 * 32 * 3 / 2);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16, 32, 16);
    acldvppBorderConfig* border = acldvppCreateBorderConfig();
    acldvppSetBorderConfigLeft(border, 1);
    {
        PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 33, 16, 48, 16);
        EXPECT_EQ(acldvppVpcMakeBorderAsync(channel_, input, output, border, stream_),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_MESSAGE_CONTAINS("even width and height");
    }
    acldvppSetBorderConfigRight(border, 1);
    acldvppSetBorderConfigLeft(border, 2);
    {
        PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 40, 16, 48, 16);
        EXPECT_EQ(acldvppVpcMakeBorderAsync(channel_, input, output, border, stream_),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_MESSAGE_CONTAINS("is 35x16");
    }
    acldvppDestroyBorderConfig(border);
}

TEST_F(DvppVpc310P, BatchCropResizeMakeBorderPadsEachResult) {
    const uint32_t w = 64, h = 64, ow = 48, oh = 32;
    MediaBuffer in(MakeNv12(w, h, w, h)), out(ow * oh * 3 / 2);
    acldvppBatchPicDesc* srcs = acldvppCreateBatchPicDesc(1);
    acldvppBatchPicDesc* dsts = acldvppCreateBatchPicDesc(1);
    auto fill = [](acldvppPicDesc* d, void* data, uint32_t size, uint32_t pw, uint32_t ph) {
        acldvppSetPicDescData(d, data);
        acldvppSetPicDescSize(d, size);
        acldvppSetPicDescFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
        acldvppSetPicDescWidth(d, pw);
        acldvppSetPicDescHeight(d, ph);
        acldvppSetPicDescWidthStride(d, pw);
        acldvppSetPicDescHeightStride(d, ph);
    };
    fill(acldvppGetPicDesc(srcs, 0), in.get(), in.size(), w, h);
    fill(acldvppGetPicDesc(dsts, 0), out.get(), out.size(), ow, oh);
    acldvppRoiConfig* crops[1] = {acldvppCreateRoiConfig(0, 63, 0, 63)};
    acldvppBorderConfig* borders[1] = {acldvppCreateBorderConfig()};
    acldvppSetBorderConfigLeft(borders[0], 8);
    acldvppSetBorderConfigRight(borders[0], 8);
    acldvppSetBorderConfigValue(borders[0], 0, 3);
    uint32_t roi_nums[1] = {1};
    ASSERT_EQ(acldvppVpcBatchCropResizeMakeBorderAsync(channel_, srcs, roi_nums, 1, dsts, crops,
                                                       borders, nullptr, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    for (uint32_t y = 0; y < oh; ++y) {
        EXPECT_EQ(got[y * ow + 0], 3);
        EXPECT_EQ(got[y * ow + ow - 1], 3);
        EXPECT_NE(got[y * ow + ow / 2], 3);
    }
    acldvppSetBorderConfigBorderType(borders[0], BORDER_REFLECT);
    EXPECT_EQ(acldvppVpcBatchCropResizeMakeBorderAsync(channel_, srcs, roi_nums, 1, dsts, crops,
                                                       borders, nullptr, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("BORDER_CONSTANT or BORDER_REPLICATE only");
    acldvppDestroyRoiConfig(crops[0]);
    acldvppDestroyBorderConfig(borders[0]);
    acldvppDestroyBatchPicDesc(srcs);
    acldvppDestroyBatchPicDesc(dsts);
}
