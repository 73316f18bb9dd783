// The stride, size and border rules CANN's VPC and JPEGE restriction pages state per product
// family: each documented edge is accepted and the value just past it refused, on the families
// where the rule differs (310/910: ws a multiple of 16, even hs; 310P: ws a multiple of 16, hs
// even only for 4:2:0/4:4:0; A2/A3: no ws alignment, outputs up to 4096x8192; 310B: JPEGE up to
// 16384). Every test runs in its own process, so each fixture's chip holds from its aclInit on.
#include <opencv2/core.hpp>

#include "dvpp_test_support.h"

namespace {

class On310 : public DvppChipTest {
 protected:
    On310() : DvppChipTest("Ascend310") {}
};
class On310P : public DvppChipTest {
 protected:
    On310P() : DvppChipTest("Ascend310P3") {}
};
class On910B : public DvppChipTest {
 protected:
    On910B() : DvppChipTest("Ascend910B1") {}
};
class On310B : public DvppChipTest {
 protected:
    On310B() : DvppChipTest("Ascend310B1") {}
};

constexpr acldvppPixelFormat kNv12 = PIXEL_FORMAT_YUV_SEMIPLANAR_420;

// Resizes an input of `format`, w x h with strides ws x hs (a zeroed buffer of exactly
// ws x hs x size_num / size_den bytes), to a 256x32 NV12 output (within the scale limits for
// every input here).
aclError ResizeInput(acldvppChannelDesc* channel, aclrtStream stream, acldvppPixelFormat format,
                     uint32_t w, uint32_t h, uint32_t ws, uint32_t hs, uint32_t size_num,
                     uint32_t size_den) {
    MediaBuffer in(size_t(ws) * hs * size_num / size_den), out(256 * 32 * 3 / 2);
    PicDesc input(in.get(), in.size(), format, w, h, ws, hs);
    PicDesc output(out.get(), out.size(), kNv12, 256, 32, 256, 32);
    aclError rc = acldvppVpcResizeAsync(channel, input, output, nullptr, stream);
    if (rc == ACL_SUCCESS) rc = aclrtSynchronizeStream(stream);
    return rc;
}

aclError ResizeNv12Input(acldvppChannelDesc* channel, aclrtStream stream, uint32_t w, uint32_t h,
                         uint32_t ws, uint32_t hs) {
    return ResizeInput(channel, stream, kNv12, w, h, ws, hs, 3, 2);
}

// Resizes a 64 x in_h NV12 input to an output of `format` with the given geometry (a zeroed
// buffer of ws x hs x 3 / 2 bytes, enough for every output format here).
aclError ResizeToOutput(acldvppChannelDesc* channel, aclrtStream stream, uint32_t in_h,
                        acldvppPixelFormat format, uint32_t w, uint32_t h, uint32_t ws,
                        uint32_t hs) {
    MediaBuffer in(MakeNv12(64, in_h, 64, in_h)), out(size_t(ws) * hs * 3 / 2);
    PicDesc input(in.get(), in.size(), kNv12, 64, in_h, 64, in_h);
    PicDesc output(out.get(), out.size(), format, w, h, ws, hs);
    aclError rc = acldvppVpcResizeAsync(channel, input, output, nullptr, stream);
    if (rc == ACL_SUCCESS) rc = aclrtSynchronizeStream(stream);
    return rc;
}

}  // namespace

// ---- VPC input widthStride ----

TEST_F(On310P, InputWidthStrideIsAMultipleOf16) {
    EXPECT_EQ(ResizeNv12Input(channel_, stream_, 40, 40, 48, 40), ACL_SUCCESS);
    EXPECT_EQ(ResizeNv12Input(channel_, stream_, 40, 40, 40, 40), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("a multiple of 16, at least 48");
}

TEST_F(On910B, InputWidthStrideMayEqualTheWidth) {
    EXPECT_EQ(ResizeNv12Input(channel_, stream_, 40, 40, 40, 40), ACL_SUCCESS);
    EXPECT_EQ(ResizeNv12Input(channel_, stream_, 40, 40, 42, 40), ACL_SUCCESS);
    EXPECT_EQ(ResizeNv12Input(channel_, stream_, 40, 40, 39, 40), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("at least 40 and at most 16384 on Ascend910B1 (A2/A3 rules)");
}

TEST_F(On910B, PackedInputWidthStrideIsTheRowsBytes) {
    EXPECT_EQ(ResizeInput(channel_, stream_, PIXEL_FORMAT_RGB_888, 20, 20, 60, 20, 1, 1),
              ACL_SUCCESS);
    EXPECT_EQ(ResizeInput(channel_, stream_, PIXEL_FORMAT_RGB_888, 20, 20, 59, 20, 1, 1),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("at least 60");
}

TEST_F(On310, EightKInputWidthStrideNeedsOnlyToBeEven) {
    EXPECT_EQ(ResizeNv12Input(channel_, stream_, 4098, 64, 4098, 64), ACL_SUCCESS);
    EXPECT_EQ(ResizeNv12Input(channel_, stream_, 4098, 64, 4099, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("even, at least 4098");
}

TEST_F(On310, NonEightKInputWidthStrideIsAMultipleOf16) {
    EXPECT_EQ(ResizeNv12Input(channel_, stream_, 4096, 64, 4096, 64), ACL_SUCCESS);
    EXPECT_EQ(ResizeNv12Input(channel_, stream_, 4094, 64, 4094, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("a multiple of 16, at least 4096");
}

// ---- VPC input heightStride ----

TEST_F(On310, InputHeightStrideIsEvenForEveryFormat) {
    EXPECT_EQ(ResizeInput(channel_, stream_, PIXEL_FORMAT_YUV_400, 64, 63, 64, 64, 3, 2),
              ACL_SUCCESS);
    EXPECT_EQ(ResizeInput(channel_, stream_, PIXEL_FORMAT_YUV_400, 64, 63, 64, 63, 3, 2),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("heightStride 63");
}

TEST_F(On310P, InputHeightStrideMayEqualAnOddHeightWithoutHalfHeightChroma) {
    EXPECT_EQ(ResizeInput(channel_, stream_, PIXEL_FORMAT_YUV_400, 64, 63, 64, 63, 1, 1),
              ACL_SUCCESS);
    EXPECT_EQ(ResizeInput(channel_, stream_, PIXEL_FORMAT_YUV_SEMIPLANAR_422, 64, 63, 64, 63, 2, 1),
              ACL_SUCCESS);
    EXPECT_EQ(ResizeInput(channel_, stream_, PIXEL_FORMAT_YUV_400, 64, 63, 64, 62, 1, 1),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("at least the height");
}

TEST_F(On910B, Nv12InputHeightStrideIsEven) {
    EXPECT_EQ(ResizeNv12Input(channel_, stream_, 64, 62, 64, 64), ACL_SUCCESS);
    EXPECT_EQ(ResizeNv12Input(channel_, stream_, 64, 62, 64, 63), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("must be even, at least the height");
}

// ---- VPC outputs ----

TEST_F(On310P, OutputWidthStrideIsAMultipleOf16) {
    EXPECT_EQ(ResizeToOutput(channel_, stream_, 64, kNv12, 40, 32, 48, 32), ACL_SUCCESS);
    EXPECT_EQ(ResizeToOutput(channel_, stream_, 64, kNv12, 40, 32, 40, 32),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("a multiple of 16, at least 48");
}

TEST_F(On910B, OutputWidthStrideMayEqualTheWidth) {
    EXPECT_EQ(ResizeToOutput(channel_, stream_, 64, kNv12, 40, 32, 40, 32), ACL_SUCCESS);
    EXPECT_EQ(ResizeToOutput(channel_, stream_, 64, PIXEL_FORMAT_RGB_888, 20, 32, 60, 32),
              ACL_SUCCESS);
    EXPECT_EQ(ResizeToOutput(channel_, stream_, 64, PIXEL_FORMAT_RGB_888, 20, 32, 59, 32),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("at least 60 (width x bytes per pixel)");
}

TEST_F(On910B, OutputIsAtMost4096x8192) {
    EXPECT_EQ(ResizeToOutput(channel_, stream_, 512, kNv12, 64, 8192, 64, 8192), ACL_SUCCESS);
    EXPECT_EQ(ResizeToOutput(channel_, stream_, 512, kNv12, 64, 8194, 64, 8194),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("10x6 to 4096x8192");
}

TEST_F(On310P, OutputIsAtMost4096x4096) {
    EXPECT_EQ(ResizeToOutput(channel_, stream_, 512, kNv12, 64, 4096, 64, 4096), ACL_SUCCESS);
    EXPECT_EQ(ResizeToOutput(channel_, stream_, 512, kNv12, 64, 4098, 64, 4098),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("10x6 to 4096x4096");
}

TEST_F(On310P, Yuv400OutputHeightStrideMayBeOdd) {
    EXPECT_EQ(ResizeToOutput(channel_, stream_, 64, PIXEL_FORMAT_YUV_400, 32, 32, 32, 33),
              ACL_SUCCESS);
    EXPECT_EQ(ResizeToOutput(channel_, stream_, 64, kNv12, 32, 32, 32, 33),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("heightStride 33");
}

// ---- borders: CANN recommends even YUV420SP borders, it does not require them ----

TEST_F(On310P, MakeBorderTakesOddYuv420Borders) {
    const uint32_t w = 32, h = 16, ow = 34, oh = 16, ws = 48;
    std::vector<uint8_t> nv12 = MakeNv12(w, h, w, h);
    MediaBuffer in(nv12), out(ws * oh * 3 / 2);
    PicDesc input(in.get(), in.size(), kNv12, w, h, w, h);
    PicDesc output(out.get(), out.size(), kNv12, ow, oh, ws, oh);
    acldvppBorderConfig* border = acldvppCreateBorderConfig();
    acldvppSetBorderConfigLeft(border, 1);
    acldvppSetBorderConfigRight(border, 1);
    acldvppSetBorderConfigValue(border, 0, 16);
    acldvppSetBorderConfigValue(border, 1, 100);
    acldvppSetBorderConfigValue(border, 2, 200);
    ASSERT_EQ(acldvppVpcMakeBorderAsync(channel_, input, output, border, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    cv::Mat want_y, want_uv;
    cv::copyMakeBorder(cv::Mat(h, w, CV_8UC1, nv12.data(), w), want_y, 0, 0, 1, 1,
                       cv::BORDER_CONSTANT, cv::Scalar(16));
    // The chroma's border: none on the left (1 / 2), the one chroma column left on the right.
    cv::copyMakeBorder(cv::Mat(h / 2, w / 2, CV_8UC2, nv12.data() + w * h, w), want_uv, 0, 0, 0, 1,
                       cv::BORDER_CONSTANT, cv::Scalar(100, 200));
    EXPECT_EQ(cv::norm(cv::Mat(oh, ow, CV_8UC1, got.data(), ws), want_y, cv::NORM_INF), 0.0);
    EXPECT_EQ(
        cv::norm(cv::Mat(oh / 2, ow / 2, CV_8UC2, got.data() + ws * oh, ws), want_uv, cv::NORM_INF),
        0.0);
    acldvppDestroyBorderConfig(border);
}

TEST_F(On310P, BatchCropResizeMakeBorderTakesOddBordersOnTheEvenGrid) {
    const uint32_t w = 64, h = 64, ow = 48, oh = 32;
    MediaBuffer in(MakeNv12(w, h, w, h)), out(ow * oh * 3 / 2);
    acldvppBatchPicDesc* srcs = acldvppCreateBatchPicDesc(1);
    acldvppBatchPicDesc* dsts = acldvppCreateBatchPicDesc(1);
    auto fill = [](acldvppPicDesc* d, void* data, uint32_t size, uint32_t pw, uint32_t ph) {
        acldvppSetPicDescData(d, data);
        acldvppSetPicDescSize(d, size);
        acldvppSetPicDescFormat(d, kNv12);
        acldvppSetPicDescWidth(d, pw);
        acldvppSetPicDescHeight(d, ph);
        acldvppSetPicDescWidthStride(d, pw);
        acldvppSetPicDescHeightStride(d, ph);
    };
    fill(acldvppGetPicDesc(srcs, 0), in.get(), in.size(), w, h);
    fill(acldvppGetPicDesc(dsts, 0), out.get(), out.size(), ow, oh);
    acldvppRoiConfig* crops[1] = {acldvppCreateRoiConfig(0, 63, 0, 63)};
    acldvppBorderConfig* borders[1] = {acldvppCreateBorderConfig()};
    acldvppSetBorderConfigLeft(borders[0], 3);
    acldvppSetBorderConfigRight(borders[0], 5);
    acldvppSetBorderConfigValue(borders[0], 0, 3);
    uint32_t roi_nums[1] = {1};
    ASSERT_EQ(acldvppVpcBatchCropResizeMakeBorderAsync(channel_, srcs, roi_nums, 1, dsts, crops,
                                                       borders, nullptr, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    // The inside starts at column 2 (3 down to even) and is 40 wide, so the right border is 6.
    for (uint32_t y = 0; y < oh; ++y) {
        EXPECT_EQ(got[y * ow + 1], 3) << y;
        EXPECT_EQ(got[y * ow + ow - 6], 3) << y;
        EXPECT_NE(got[y * ow + ow / 2], 3) << y;
    }
    acldvppDestroyRoiConfig(crops[0]);
    acldvppDestroyBorderConfig(borders[0]);
    acldvppDestroyBatchPicDesc(srcs);
    acldvppDestroyBatchPicDesc(dsts);
}

// ---- JPEGE: 8192 a side, 16384 on the Atlas 200I/500 A2 (Ascend310B) ----

namespace {

aclError PredictEncSize(uint32_t w, uint32_t h) {
    PicDesc pic(nullptr, 0, kNv12, w, h, AlignUp(w, 16), h);
    acldvppJpegeConfig* config = acldvppCreateJpegeConfig();
    uint32_t size = 0;
    aclError rc = acldvppJpegPredictEncSize(pic, config, &size);
    acldvppDestroyJpegeConfig(config);
    return rc;
}

aclError SetChannelWidth(uint32_t width) {
    acldvppChannelDesc* desc = acldvppCreateChannelDesc();
    aclError rc =
        acldvppSetChannelDescParam(desc, ACL_DVPP_CHANNEL_WIDTH_UINT32, sizeof width, &width);
    acldvppDestroyChannelDesc(desc);
    return rc;
}

uint32_t DefaultChannelHeight() {
    acldvppChannelDesc* desc = acldvppCreateChannelDesc();
    uint32_t height = 0;
    size_t got = 0;
    EXPECT_EQ(acldvppGetChannelDescParam(desc, ACL_DVPP_CHANNEL_HEIGHT_UINT32, sizeof height, &got,
                                         &height),
              ACL_SUCCESS);
    acldvppDestroyChannelDesc(desc);
    return height;
}

}  // namespace

TEST_F(On910B, JpegeEncodesAtMost8192ASide) {
    EXPECT_EQ(PredictEncSize(8192, 32), ACL_SUCCESS);
    EXPECT_EQ(PredictEncSize(8194, 32), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("32x32 to 8192x8192 on Ascend910B1");
}

TEST_F(On310B, JpegeEncodesAtMost16384ASide) {
    EXPECT_EQ(PredictEncSize(16384, 32), ACL_SUCCESS);
    EXPECT_EQ(PredictEncSize(16386, 32), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("32x32 to 16384x16384 on Ascend310B1");
}

TEST_F(On910B, JpegeChannelSizeIs32To8192AndDefaultsTo8192) {
    EXPECT_EQ(DefaultChannelHeight(), 8192u);
    EXPECT_EQ(SetChannelWidth(8192), ACL_SUCCESS);
    EXPECT_EQ(SetChannelWidth(8193), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("32..8192 on Ascend910B1");
}

TEST_F(On310B, JpegeChannelSizeIs32To16384AndDefaultsTo16384) {
    EXPECT_EQ(DefaultChannelHeight(), 16384u);
    EXPECT_EQ(SetChannelWidth(16384), ACL_SUCCESS);
    EXPECT_EQ(SetChannelWidth(16385), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("32..16384 on Ascend310B1");
}
