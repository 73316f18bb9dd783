// The DVPP rules that follow the emulated chip (openacl.soc_name / OPENACL_SOC_NAME): each rule
// the acl_dvpp reference states differently for the 310/910, the 310P and the A2/A3 class is
// shown once per behaviour. Every test runs in its own process, so each fixture's chip holds
// from its aclInit on.
#include <opencv2/core.hpp>

#include "dvpp_test_support.h"

namespace {

class OnAscend310 : public DvppChipTest {
 protected:
    OnAscend310() : DvppChipTest("Ascend310") {}
};
class OnAscend310P : public DvppChipTest {
 protected:
    OnAscend310P() : DvppChipTest("Ascend310P3") {}
};
class OnAscend910 : public DvppChipTest {
 protected:
    OnAscend910() : DvppChipTest("Ascend910A") {}
};
class OnAscend910B : public DvppChipTest {
 protected:
    OnAscend910B() : DvppChipTest("Ascend910B1") {}
};

constexpr acldvppPixelFormat kNv12 = PIXEL_FORMAT_YUV_SEMIPLANAR_420;

// ---- JPEGD output strides ----

// Decodes a 64x64 4:2:0 JPEG to NV12 and returns the output descriptor's strides and size, and
// what acldvppJpegPredictDecSize said.
struct Decoded {
    uint32_t predicted = 0, ws = 0, hs = 0, size = 0;
};
Decoded DecodeSmallJpeg(acldvppChannelDesc* channel, aclrtStream stream) {
    std::vector<uint8_t> jpeg = MakeJpeg(64, 64, TJSAMP_420);
    Decoded d;
    EXPECT_EQ(acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), kNv12, &d.predicted),
              ACL_SUCCESS);
    MediaBuffer in(jpeg);
    MediaBuffer out(128 * 64 * 3 / 2);
    PicDesc desc;
    acldvppSetPicDescData(desc, out.get());
    acldvppSetPicDescSize(desc, out.size());
    acldvppSetPicDescFormat(desc, kNv12);
    EXPECT_EQ(acldvppJpegDecodeAsync(channel, in.get(), in.size(), desc, stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    d.ws = acldvppGetPicDescWidthStride(desc);
    d.hs = acldvppGetPicDescHeightStride(desc);
    d.size = acldvppGetPicDescSize(desc);
    return d;
}

TEST_F(OnAscend310, JpegdOutputStridesAlignTo128) {
    Decoded d = DecodeSmallJpeg(channel_, stream_);
    EXPECT_EQ(d.predicted, 128u * 64 * 3 / 2);
    EXPECT_EQ(d.ws, 128u);
    EXPECT_EQ(d.hs, 64u);
    EXPECT_EQ(d.size, 128u * 64 * 3 / 2);
}

TEST_F(OnAscend310P, JpegdOutputStridesAlignTo64) {
    Decoded d = DecodeSmallJpeg(channel_, stream_);
    EXPECT_EQ(d.predicted, 64u * 64 * 3 / 2);
    EXPECT_EQ(d.ws, 64u);
    EXPECT_EQ(d.hs, 64u);
    EXPECT_EQ(d.size, 64u * 64 * 3 / 2);
}

TEST_F(OnAscend910B, JpegdOutputStridesAlignTo64) {
    Decoded d = DecodeSmallJpeg(channel_, stream_);
    EXPECT_EQ(d.predicted, 64u * 64 * 3 / 2);
    EXPECT_EQ(d.ws, 64u);
}

// ---- VPC ----

// Crop-and-paste of a 64x64 NV12 picture into a 64x64 NV12 output.
aclError CropPaste(acldvppChannelDesc* channel, aclrtStream stream, const MediaBuffer& in,
                   const MediaBuffer& out, uint32_t cl, uint32_t cr, uint32_t ct, uint32_t cb,
                   uint32_t pl, uint32_t pr, uint32_t pt, uint32_t pb) {
    PicDesc input(in.get(), in.size(), kNv12, 64, 64, 64, 64);
    PicDesc output(out.get(), out.size(), kNv12, 64, 64, 64, 64);
    acldvppRoiConfig* crop = acldvppCreateRoiConfig(cl, cr, ct, cb);
    acldvppRoiConfig* paste = acldvppCreateRoiConfig(pl, pr, pt, pb);
    aclError rc = acldvppVpcCropAndPasteAsync(channel, input, output, crop, paste, stream);
    acldvppDestroyRoiConfig(crop);
    acldvppDestroyRoiConfig(paste);
    return rc;
}

TEST_F(OnAscend310, RoiParityIsEnforced) {
    MediaBuffer in(MakeNv12(64, 64, 64, 64)), out(64 * 64 * 3 / 2);
    EXPECT_EQ(CropPaste(channel_, stream_, in, out, 1, 32, 1, 32, 0, 31, 0, 31),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS(
        "left and top must be even, right and bottom odd (the box is inclusive, so its origin "
        "and size are even) on Ascend310 (310 rules)");
}

// An odd box is taken on the even grid the 4:2:0 layout needs: 1..32 becomes 0..31.
TEST_F(OnAscend310P, RoiParityIsLifted) {
    std::vector<uint8_t> src = MakeNv12(64, 64, 64, 64);
    MediaBuffer in(src), out(64 * 64 * 3 / 2);
    ASSERT_EQ(CropPaste(channel_, stream_, in, out, 1, 32, 1, 32, 0, 31, 0, 31), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    for (uint32_t y = 0; y < 32; ++y) {
        for (uint32_t x = 0; x < 32; ++x) {
            ASSERT_EQ(got[y * 64 + x], src[y * 64 + x]) << x << "," << y;
        }
    }
}

TEST_F(OnAscend310P, PasteLeftMustBeAMultipleOf16) {
    MediaBuffer in(MakeNv12(64, 64, 64, 64)), out(64 * 64 * 3 / 2);
    EXPECT_EQ(CropPaste(channel_, stream_, in, out, 0, 31, 0, 31, 8, 39, 0, 31),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("multiple of 16 on Ascend310P3 (310P rules)");
}

TEST_F(OnAscend910B, PasteLeftNeedsNoAlignmentNorParity) {
    MediaBuffer in(MakeNv12(64, 64, 64, 64)), out(64 * 64 * 3 / 2);
    EXPECT_EQ(CropPaste(channel_, stream_, in, out, 1, 32, 0, 31, 8, 39, 3, 34), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

// A 64x64 YUV400 input resized to 32x32 NV12, with a buffer of `in_size` bytes.
aclError ResizeYuv400(acldvppChannelDesc* channel, aclrtStream stream, uint32_t in_size) {
    MediaBuffer in(64 * 64 * 3 / 2), out(32 * 32 * 3 / 2);
    PicDesc input(in.get(), in_size, PIXEL_FORMAT_YUV_400, 64, 64, 64, 64);
    PicDesc output(out.get(), out.size(), kNv12, 32, 32, 32, 32);
    aclError rc = acldvppVpcResizeAsync(channel, input, output, nullptr, stream);
    if (rc == ACL_SUCCESS) rc = aclrtSynchronizeStream(stream);
    return rc;
}

TEST_F(OnAscend310, Yuv400InputNeedsRoomForAChromaPlane) {
    EXPECT_EQ(ResizeYuv400(channel_, stream_, 64 * 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("takes 6144 bytes on Ascend310");
}

TEST_F(OnAscend310P, Yuv400InputIsWidthStrideTimesHeightStride) {
    EXPECT_EQ(ResizeYuv400(channel_, stream_, 64 * 64), ACL_SUCCESS);
}

// An 8192-wide YUV400 input resized to 512x64 NV12.
aclError Resize8kYuv400(acldvppChannelDesc* channel, aclrtStream stream) {
    MediaBuffer in(8192 * 64), out(512 * 64 * 3 / 2);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_400, 8192, 64, 8192, 64);
    PicDesc output(out.get(), out.size(), kNv12, 512, 64, 512, 64);
    aclError rc = acldvppVpcResizeAsync(channel, input, output, nullptr, stream);
    if (rc == ACL_SUCCESS) rc = aclrtSynchronizeStream(stream);
    return rc;
}

TEST_F(OnAscend310, EightKInputsAreNv12OrNv21Only) {
    EXPECT_EQ(Resize8kYuv400(channel_, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("YUV420SP NV12/NV21 only on Ascend310");
}

TEST_F(OnAscend310P, EightKInputsMayBeYuv400) {
    EXPECT_EQ(Resize8kYuv400(channel_, stream_), ACL_SUCCESS);
}

// Resizes a flat grey 64x64 NV12 picture (Y = U = V = 128) to 32x32 in `format`, with a
// row of `ws` bytes.
aclError ResizeGreyTo(acldvppChannelDesc* channel, aclrtStream stream, acldvppPixelFormat format,
                      uint32_t ws, std::vector<uint8_t>* got) {
    std::vector<uint8_t> grey(64 * 64 * 3 / 2, 128);
    MediaBuffer in(grey), out(ws * 32 * 3 / 2);
    PicDesc input(in.get(), in.size(), kNv12, 64, 64, 64, 64);
    PicDesc output(out.get(), out.size(), format, 32, 32, ws, 32);
    aclError rc = acldvppVpcResizeAsync(channel, input, output, nullptr, stream);
    if (rc == ACL_SUCCESS) rc = aclrtSynchronizeStream(stream);
    *got = out.Read();
    return rc;
}

TEST_F(OnAscend310, RgbOutputIsRefused) {
    std::vector<uint8_t> got;
    EXPECT_EQ(ResizeGreyTo(channel_, stream_, PIXEL_FORMAT_RGB_888, 96, &got),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS(
        "the VPC writes only PIXEL_FORMAT_YUV_SEMIPLANAR_420 (NV12) or "
        "PIXEL_FORMAT_YVU_SEMIPLANAR_420 (NV21) on Ascend310 (310 rules)");
}

// Grey stays grey: limited-range Y 128 is about 130 in each of R, G and B.
TEST_F(OnAscend310P, RgbOutputIsWritten) {
    std::vector<uint8_t> got;
    ASSERT_EQ(ResizeGreyTo(channel_, stream_, PIXEL_FORMAT_RGB_888, 96, &got), ACL_SUCCESS);
    for (size_t i = 0; i < 96 * 32; ++i) {
        ASSERT_NEAR(got[i], 130, 2) << i;
    }
    ASSERT_EQ(ResizeGreyTo(channel_, stream_, PIXEL_FORMAT_BGRA_8888, 128, &got), ACL_SUCCESS);
    for (size_t i = 0; i < 128 * 32; i += 4) {
        ASSERT_NEAR(got[i], 130, 2) << i;
        ASSERT_EQ(got[i + 3], 255) << i;  // opaque
    }
}

TEST_F(OnAscend310P, Yuv400OutputIsTheLuma) {
    std::vector<uint8_t> got;
    ASSERT_EQ(ResizeGreyTo(channel_, stream_, PIXEL_FORMAT_YUV_400, 32, &got), ACL_SUCCESS);
    for (size_t i = 0; i < 32 * 32; ++i) {
        ASSERT_EQ(got[i], 128) << i;
    }
    EXPECT_EQ(got[32 * 32], 0);  // no chroma plane is written
}

TEST_F(OnAscend310P, Yuv422SemiPlanarOutputIsRefusedNamingTheChip) {
    std::vector<uint8_t> got;
    EXPECT_EQ(ResizeGreyTo(channel_, stream_, PIXEL_FORMAT_YUV_SEMIPLANAR_422, 32, &got),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS(
        "on Ascend310P3 (310P rules) (that chip also writes 422SP, 444SP and packed YUV, which "
        "openacl does not emulate yet)");
}

// ---- resize interpolation ----

TEST_F(OnAscend310, InterpolationIsZeroToFour) {
    acldvppResizeConfig* config = acldvppCreateResizeConfig();
    EXPECT_EQ(acldvppSetResizeConfigInterpolation(config, 3), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetResizeConfigInterpolation(config, 4), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetResizeConfigInterpolation(config, 5), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("on Ascend310 (310 rules)");
    acldvppDestroyResizeConfig(config);
}

TEST_F(OnAscend310P, InterpolationIsZeroToTwo) {
    acldvppResizeConfig* config = acldvppCreateResizeConfig();
    EXPECT_EQ(acldvppSetResizeConfigInterpolation(config, 2), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetResizeConfigInterpolation(config, 3), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS(
        "interpolation 3 is not one of 0 (default, bilinear), 1 (bilinear) "
        "or 2 (nearest) on Ascend310P3");
    EXPECT_EQ(acldvppSetResizeConfigInterpolation(config, 4), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acldvppGetResizeConfigInterpolation(config), 2u);
    acldvppDestroyResizeConfig(config);
}

TEST_F(OnAscend910B, InterpolationIsZeroToFive) {
    acldvppResizeConfig* config = acldvppCreateResizeConfig();
    EXPECT_EQ(acldvppSetResizeConfigInterpolation(config, 5), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetResizeConfigInterpolation(config, 6), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("on Ascend910B1 (A2/A3 rules)");
    acldvppDestroyResizeConfig(config);
}

// Resizes a textured 64x64 NV12 picture to 16x16 with the given interpolation (-1: no config).
std::vector<uint8_t> ResizeTextured(acldvppChannelDesc* channel, aclrtStream stream,
                                    int interpolation) {
    MediaBuffer in(MakeTexturedNv12(64, 64, 64, 64)), out(32 * 16 * 3 / 2);
    PicDesc input(in.get(), in.size(), kNv12, 64, 64, 64, 64);
    PicDesc output(out.get(), out.size(), kNv12, 16, 16, 32, 16);
    acldvppResizeConfig* config = nullptr;
    if (interpolation >= 0) {
        config = acldvppCreateResizeConfig();
        EXPECT_EQ(acldvppSetResizeConfigInterpolation(config, interpolation), ACL_SUCCESS);
    }
    EXPECT_EQ(acldvppVpcResizeAsync(channel, input, output, config, stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    if (config != nullptr) acldvppDestroyResizeConfig(config);
    return out.Read();
}

TEST_F(OnAscend310P, DefaultInterpolationIsBilinear) {
    std::vector<uint8_t> bilinear = ResizeTextured(channel_, stream_, 1);
    EXPECT_EQ(ResizeTextured(channel_, stream_, -1), bilinear);
    EXPECT_EQ(ResizeTextured(channel_, stream_, 0), bilinear);
}

TEST_F(OnAscend310, DefaultInterpolationIsTheHighOrderFilterNotBilinear) {
    std::vector<uint8_t> bilinear = ResizeTextured(channel_, stream_, 1);
    EXPECT_NE(ResizeTextured(channel_, stream_, -1), bilinear);
    EXPECT_EQ(ResizeTextured(channel_, stream_, -1), ResizeTextured(channel_, stream_, 0));
}

TEST_F(OnAscend910B, InterpolationThreeAndFourAreOneAndTwo) {
    EXPECT_EQ(ResizeTextured(channel_, stream_, 3), ResizeTextured(channel_, stream_, 1));
    EXPECT_EQ(ResizeTextured(channel_, stream_, 4), ResizeTextured(channel_, stream_, 2));
}

// ---- functions the 310/910 lack ----

TEST_F(OnAscend310, ConvertColorIsUnavailable) {
    MediaBuffer in(MakeNv12(64, 64, 64, 64)), out(64 * 64 * 3);
    PicDesc input(in.get(), in.size(), kNv12, 64, 64, 64, 64);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_RGB_888, 64, 64, 192, 64);
    EXPECT_EQ(acldvppVpcConvertColorAsync(channel_, input, output, stream_),
              ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_MESSAGE_CONTAINS("acldvppVpcConvertColorAsync is not available on Ascend310");
}

TEST_F(OnAscend910B, PyrDownIsUnavailable) {
    MediaBuffer in(64 * 64), out(32 * 32);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_400, 64, 64, 64, 64);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_400, 32, 32, 32, 32);
    EXPECT_EQ(acldvppVpcPyrDownAsync(channel_, input, output, nullptr, stream_),
              ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_MESSAGE_CONTAINS("only the 310P has it");
}

// ---- VDEC ----

TEST_F(OnAscend310, VdecChannelIdsAreZeroToThirtyOne) {
    aclvdecChannelDesc* desc = aclvdecCreateChannelDesc();
    EXPECT_EQ(aclvdecSetChannelDescChannelId(desc, 31), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescChannelId(desc, 32), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("channelId 32 is outside 0..31 on Ascend310");
    aclvdecDestroyChannelDesc(desc);
}

TEST_F(OnAscend310P, VdecChannelIdsAreZeroToTwoHundredFiftyFive) {
    aclvdecChannelDesc* desc = aclvdecCreateChannelDesc();
    EXPECT_EQ(aclvdecSetChannelDescChannelId(desc, 255), ACL_SUCCESS);
    EXPECT_EQ(aclvdecGetChannelDescChannelId(desc), 255u);
    EXPECT_EQ(aclvdecSetChannelDescChannelId(desc, 256), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("outside 0..255 on Ascend310P3");
    aclvdecDestroyChannelDesc(desc);
}

// ---- VENC ----

TEST_F(OnAscend310, VencPicturesAre128To1920) {
    aclvencChannelDesc* desc = aclvencCreateChannelDesc();
    EXPECT_EQ(aclvencSetChannelDescPicWidth(desc, 1920), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescPicHeight(desc, 1922), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("128..1920, even, on Ascend310");
    aclvencDestroyChannelDesc(desc);
}

TEST_F(OnAscend310P, VencPicturesAre128To4096) {
    aclvencChannelDesc* desc = aclvencCreateChannelDesc();
    EXPECT_EQ(aclvencSetChannelDescPicWidth(desc, 4096), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescPicHeight(desc, 4096), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescPicHeight(desc, 4098), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("128..4096, even, on Ascend310P3");
    aclvencDestroyChannelDesc(desc);
}

void OnPacket(acldvppPicDesc*, acldvppStreamDesc*, void*) {}

TEST_F(OnAscend310P, VencH264IsAtMost4096x2304) {
    aclvencChannelDesc* desc = aclvencCreateChannelDesc();
    aclvencSetChannelDescThreadId(desc, 1);
    aclvencSetChannelDescCallback(desc, OnPacket);
    aclvencSetChannelDescEnType(desc, H264_MAIN_LEVEL);
    aclvencSetChannelDescPicFormat(desc, kNv12);
    aclvencSetChannelDescPicWidth(desc, 4096);
    aclvencSetChannelDescPicHeight(desc, 4096);
    EXPECT_EQ(aclvencCreateChannel(desc), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("H.264 encodes at most 4096x2304 pixels on Ascend310P3");
    aclvencDestroyChannelDesc(desc);
}

TEST_F(OnAscend310, VencSrcRateIsAtMost120) {
    aclvencChannelDesc* desc = aclvencCreateChannelDesc();
    EXPECT_EQ(aclvencSetChannelDescSrcRate(desc, 120), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescSrcRate(desc, 121), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("1..120 on Ascend310");
    aclvencDestroyChannelDesc(desc);
}

TEST_F(OnAscend310P, VencSrcRateIsAtMost240) {
    aclvencChannelDesc* desc = aclvencCreateChannelDesc();
    EXPECT_EQ(aclvencSetChannelDescSrcRate(desc, 240), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescSrcRate(desc, 241), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("1..240 on Ascend310P3");
    aclvencDestroyChannelDesc(desc);
}

TEST_F(OnAscend310, VencRcModeZeroIsCbr) {
    aclvencChannelDesc* desc = aclvencCreateChannelDesc();
    EXPECT_EQ(aclvencSetChannelDescRcMode(desc, 3), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("0 (default, CBR on Ascend310");
    aclvencDestroyChannelDesc(desc);
}

TEST_F(OnAscend310P, VencRcModeZeroIsVbr) {
    aclvencChannelDesc* desc = aclvencCreateChannelDesc();
    EXPECT_EQ(aclvencSetChannelDescRcMode(desc, 3), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("0 (default, VBR on Ascend310P3");
    aclvencDestroyChannelDesc(desc);
}

TEST_F(OnAscend910, VencIsUnavailable) {
    aclvencChannelDesc* desc = aclvencCreateChannelDesc();
    aclvencSetChannelDescThreadId(desc, 1);
    aclvencSetChannelDescCallback(desc, OnPacket);
    aclvencSetChannelDescPicWidth(desc, 128);
    aclvencSetChannelDescPicHeight(desc, 128);
    EXPECT_EQ(aclvencCreateChannel(desc), ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_MESSAGE_CONTAINS("VENC is not available on Ascend910A (910 rules)");
    aclvencDestroyChannelDesc(desc);
}

}  // namespace
