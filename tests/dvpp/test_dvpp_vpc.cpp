// VPC: resize, crop and crop-and-paste against OpenCV on the same YUV data, and every
// documented rule (strides, formats, box parity, paste alignment, sizes, scale ratio).
#include <atomic>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <utility>

#include "dvpp_test_support.h"

namespace {

// The Y plane and the interleaved UV plane of an NV12 buffer as OpenCV matrices.
cv::Mat Luma(std::vector<uint8_t>& nv12, uint32_t w, uint32_t h, uint32_t ws) {
    return cv::Mat(int(h), int(w), CV_8UC1, nv12.data(), ws);
}
cv::Mat Chroma(std::vector<uint8_t>& nv12, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs) {
    return cv::Mat(int(h / 2), int(w / 2), CV_8UC2, nv12.data() + size_t(ws) * hs, ws);
}

// Largest absolute difference and mean absolute difference.
void Compare(const cv::Mat& a, const cv::Mat& b, double* max_diff, double* mean_diff) {
    cv::Mat diff;
    cv::absdiff(a, b, diff);
    cv::minMaxLoc(diff.reshape(1), nullptr, max_diff);
    *mean_diff = cv::mean(diff.reshape(1))[0];
}

}  // namespace

class DvppVpc : public DvppTest {
 protected:
    acldvppResizeConfig* Bilinear() {
        acldvppResizeConfig* config = acldvppCreateResizeConfig();
        acldvppSetResizeConfigInterpolation(config, 1);
        return config;
    }
    // Bilinear resize of a tightly packed NV12 picture to ow x oh (tightly packed).
    std::vector<uint8_t> ResizeBilinear(const std::vector<uint8_t>& src, uint32_t w, uint32_t h,
                                        uint32_t ow, uint32_t oh) {
        MediaBuffer in(src);
        MediaBuffer out(ow * oh * 3 / 2);
        PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
        PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, ow, oh, ow, oh);
        acldvppResizeConfig* config = Bilinear();
        EXPECT_EQ(acldvppVpcResizeAsync(channel_, input, output, config, stream_), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
        acldvppDestroyResizeConfig(config);
        return out.Read();
    }
    // Both planes of a bilinear resize against OpenCV's INTER_LINEAR of the same planes.
    void ExpectBilinearLikeOpenCv(uint32_t w, uint32_t h, uint32_t ow, uint32_t oh,
                                  double max_allowed, double mean_allowed) {
        std::vector<uint8_t> src = MakeTexturedNv12(w, h, w, h);
        std::vector<uint8_t> got = ResizeBilinear(src, w, h, ow, oh);
        cv::Mat want_y, want_uv;
        cv::resize(Luma(src, w, h, w), want_y, cv::Size(ow, oh), 0, 0, cv::INTER_LINEAR);
        cv::resize(Chroma(src, w, h, w, h), want_uv, cv::Size(ow / 2, oh / 2), 0, 0,
                   cv::INTER_LINEAR);
        double max_diff = 0, mean_diff = 0;
        Compare(Luma(got, ow, oh, ow), want_y, &max_diff, &mean_diff);
        EXPECT_LE(max_diff, max_allowed) << "luma";
        EXPECT_LT(mean_diff, mean_allowed) << "luma";
        Compare(Chroma(got, ow, oh, ow, oh), want_uv, &max_diff, &mean_diff);
        EXPECT_LE(max_diff, max_allowed) << "chroma";
        EXPECT_LT(mean_diff, mean_allowed) << "chroma";
    }
};

// Bilinear resize matches OpenCV's INTER_LINEAR on the same planes: mean difference under 1,
// no sample more than 4 apart (libyuv and OpenCV round differently).
TEST_F(DvppVpc, ResizeMatchesOpenCvBilinearWithinTolerance) {
    const uint32_t w = 320, h = 240, ws = 320, hs = 240;
    const uint32_t ow = 224, oh = 224, ows = 224, ohs = 224;
    std::vector<uint8_t> src = MakeTexturedNv12(w, h, ws, hs);
    MediaBuffer in(src);
    MediaBuffer out(ows * ohs * 3 / 2);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, ws, hs);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, ow, oh, ows, ohs);
    acldvppResizeConfig* config = Bilinear();
    ASSERT_EQ(acldvppVpcResizeAsync(channel_, input, output, config, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    cv::Mat want_y, want_uv;
    cv::resize(Luma(src, w, h, ws), want_y, cv::Size(ow, oh), 0, 0, cv::INTER_LINEAR);
    cv::resize(Chroma(src, w, h, ws, hs), want_uv, cv::Size(ow / 2, oh / 2), 0, 0,
               cv::INTER_LINEAR);
    double max_diff = 0, mean_diff = 0;
    Compare(Luma(got, ow, oh, ows), want_y, &max_diff, &mean_diff);
    EXPECT_LE(max_diff, 4.0);
    EXPECT_LT(mean_diff, 1.0);
    Compare(Chroma(got, ow, oh, ows, ohs), want_uv, &max_diff, &mean_diff);
    EXPECT_LE(max_diff, 4.0);
    EXPECT_LT(mean_diff, 1.0);
    acldvppDestroyResizeConfig(config);
}

// At a third of the size, bilinear samples fall on pixel centres (3i + 1): the same bytes as
// OpenCV's INTER_LINEAR, luma and interleaved chroma alike.
TEST_F(DvppVpc, BilinearResizeToAThirdEqualsOpenCv) {
    ExpectBilinearLikeOpenCv(960, 540, 320, 180, 0.0, 1e-9);
}

// At half the size, bilinear samples fall midway between pixels: OpenCV's INTER_LINEAR up to
// the rounding of the 2x2 average (no sample more than 1 apart, mean difference under 0.5).
TEST_F(DvppVpc, BilinearResizeToHalfMatchesOpenCvWithinRounding) {
    ExpectBilinearLikeOpenCv(640, 480, 320, 240, 1.0, 0.5);
}

// A flat picture stays flat at every scale, integer or not, down or up: no path of the
// resize biases the chroma (libyuv's interleaved bilinear downscale turns a flat 100 into 99).
TEST_F(DvppVpc, BilinearResizeKeepsAFlatPictureFlat) {
    const uint32_t w = 480, h = 360;
    std::vector<uint8_t> src(w * h * 3 / 2, 100);
    for (size_t i = w * h; i < src.size(); i += 2)
        src[i + 1] = 160;  // V
    const std::pair<uint32_t, uint32_t> sizes[] = {{160, 120}, {240, 180}, {320, 240},
                                                   {224, 224}, {416, 312}, {960, 720}};
    for (auto [ow, oh] : sizes) {
        std::vector<uint8_t> got = ResizeBilinear(src, w, h, ow, oh);
        for (size_t i = 0; i < size_t(ow) * oh; ++i) {
            ASSERT_EQ(got[i], 100) << ow << "x" << oh << " luma sample " << i;
        }
        for (size_t i = size_t(ow) * oh; i < got.size(); i += 2) {
            ASSERT_EQ(got[i], 100) << ow << "x" << oh << " U sample " << i;
            ASSERT_EQ(got[i + 1], 160) << ow << "x" << oh << " V sample " << i;
        }
    }
}

// Nearest-neighbour resize (interpolation 2) is OpenCV-like: it equals INTER_NEAREST, and is
// far from bilinear on the same textured data.
TEST_F(DvppVpc, NearestResizeMatchesOpenCvNearest) {
    const uint32_t w = 320, h = 240, ow = 224, oh = 160;
    std::vector<uint8_t> src = MakeTexturedNv12(w, h, w, h);
    MediaBuffer in(src);
    MediaBuffer out(ow * oh * 3 / 2);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, ow, oh, ow, oh);
    acldvppResizeConfig* config = acldvppCreateResizeConfig();
    acldvppSetResizeConfigInterpolation(config, 2);
    ASSERT_EQ(acldvppVpcResizeAsync(channel_, input, output, config, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    cv::Mat nearest, bilinear;
    cv::resize(Luma(src, w, h, w), nearest, cv::Size(ow, oh), 0, 0, cv::INTER_NEAREST);
    cv::resize(Luma(src, w, h, w), bilinear, cv::Size(ow, oh), 0, 0, cv::INTER_LINEAR);
    double max_diff = 0, mean_diff = 0;
    Compare(Luma(got, ow, oh, ow), nearest, &max_diff, &mean_diff);
    EXPECT_EQ(max_diff, 0.0);
    Compare(Luma(got, ow, oh, ow), bilinear, &max_diff, &mean_diff);
    EXPECT_GT(mean_diff, 2.0);
    acldvppDestroyResizeConfig(config);
}

TEST_F(DvppVpc, ResizeToNv21SwapsTheChromaOrder) {
    const uint32_t w = 64, h = 64;
    std::vector<uint8_t> src = MakeNv12(w, h, w, h);
    MediaBuffer in(src);
    MediaBuffer out(w * h * 3 / 2);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YVU_SEMIPLANAR_420, w, h, w, h);
    ASSERT_EQ(acldvppVpcResizeAsync(channel_, input, output, nullptr, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    const uint8_t* uv_in = src.data() + w * h;
    const uint8_t* vu_out = got.data() + w * h;
    EXPECT_EQ(vu_out[0], uv_in[1]);
    EXPECT_EQ(vu_out[1], uv_in[0]);
    EXPECT_EQ(std::memcmp(got.data(), src.data(), w * h), 0);  // same size: luma unchanged
}

TEST_F(DvppVpc, CropWithoutScalingCopiesTheBoxExactly) {
    const uint32_t w = 128, h = 96;
    std::vector<uint8_t> src = MakeNv12(w, h, w, h);
    MediaBuffer in(src);
    const uint32_t cw = 48, ch = 32;
    MediaBuffer out(cw * ch * 3 / 2);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, cw, ch, cw, ch);
    acldvppRoiConfig* crop = acldvppCreateRoiConfig(20, 20 + cw - 1, 10, 10 + ch - 1);
    ASSERT_EQ(acldvppVpcCropAsync(channel_, input, output, crop, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    cv::Mat want_y = Luma(src, w, h, w)(cv::Rect(20, 10, cw, ch));
    cv::Mat want_uv = Chroma(src, w, h, w, h)(cv::Rect(10, 5, cw / 2, ch / 2));
    EXPECT_EQ(cv::norm(Luma(got, cw, ch, cw), want_y, cv::NORM_INF), 0.0);
    EXPECT_EQ(cv::norm(Chroma(got, cw, ch, cw, ch), want_uv, cv::NORM_INF), 0.0);
    acldvppDestroyRoiConfig(crop);
}

TEST_F(DvppVpc, CropResizeMatchesOpenCvOnTheBox) {
    const uint32_t w = 256, h = 192;
    std::vector<uint8_t> src = MakeTexturedNv12(w, h, w, h);
    MediaBuffer in(src);
    const uint32_t ow = 64, oh = 64;
    MediaBuffer out(ow * oh * 3 / 2);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, ow, oh, ow, oh);
    acldvppRoiConfig* crop = acldvppCreateRoiConfig(32, 159, 16, 143);  // 128 x 128
    acldvppResizeConfig* config = Bilinear();
    ASSERT_EQ(acldvppVpcCropResizeAsync(channel_, input, output, crop, config, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    cv::Mat want_y;
    cv::resize(Luma(src, w, h, w)(cv::Rect(32, 16, 128, 128)), want_y, cv::Size(ow, oh), 0, 0,
               cv::INTER_LINEAR);
    double max_diff = 0, mean_diff = 0;
    Compare(Luma(got, ow, oh, ow), want_y, &max_diff, &mean_diff);
    EXPECT_LE(max_diff, 4.0);
    EXPECT_LT(mean_diff, 1.0);
    // The chroma of the box starts at half its luma offset.
    cv::Mat want_uv;
    cv::resize(Chroma(src, w, h, w, h)(cv::Rect(16, 8, 64, 64)), want_uv, cv::Size(ow / 2, oh / 2),
               0, 0, cv::INTER_LINEAR);
    Compare(Chroma(got, ow, oh, ow, oh), want_uv, &max_diff, &mean_diff);
    EXPECT_LE(max_diff, 4.0);
    EXPECT_LT(mean_diff, 1.0);
    acldvppDestroyRoiConfig(crop);
    acldvppDestroyResizeConfig(config);
}

TEST_F(DvppVpc, CropAndPasteLeavesTheRestOfTheOutputUntouched) {
    const uint32_t w = 64, h = 64;
    MediaBuffer in(MakeNv12(w, h, w, h));
    const uint32_t ow = 128, oh = 96;
    std::vector<uint8_t> background(ow * oh * 3 / 2, 7);
    MediaBuffer out(background);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, ow, oh, ow, oh);
    acldvppRoiConfig* crop = acldvppCreateRoiConfig(0, 63, 0, 63);
    acldvppRoiConfig* paste = acldvppCreateRoiConfig(32, 63, 16, 47);  // 32 x 32 at (32, 16)
    ASSERT_EQ(acldvppVpcCropAndPasteAsync(channel_, input, output, crop, paste, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    for (uint32_t y = 0; y < oh; ++y) {
        for (uint32_t x = 0; x < ow; ++x) {
            bool inside = x >= 32 && x < 64 && y >= 16 && y < 48;
            if (!inside) {
                ASSERT_EQ(got[y * ow + x], 7) << x << "," << y;
            }
        }
    }
    EXPECT_NE(got[16 * ow + 40], 7);
    acldvppDestroyRoiConfig(crop);
    acldvppDestroyRoiConfig(paste);
}

TEST_F(DvppVpc, RgbInputIsConvertedToNv12) {
    const uint32_t w = 32, h = 32, ws = 96;
    std::vector<uint8_t> rgb(ws * h);
    for (size_t i = 0; i < rgb.size(); i += 3) {
        rgb[i] = 255;  // pure red
        rgb[i + 1] = 0;
        rgb[i + 2] = 0;
    }
    MediaBuffer in(rgb);
    MediaBuffer out(w * h * 3 / 2);
    PicDesc input(in.get(), in.size(), PIXEL_FORMAT_RGB_888, w, h, ws, h);
    PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
    ASSERT_EQ(acldvppVpcResizeAsync(channel_, input, output, nullptr, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = out.Read();
    // BT.601 limited range: red is Y 82, U 90, V 240 (give or take rounding).
    EXPECT_NEAR(got[0], 82, 2);
    EXPECT_NEAR(got[w * h], 90, 2);
    EXPECT_NEAR(got[w * h + 1], 240, 2);
}

TEST_F(DvppVpc, BatchCropWritesEachBoxToItsOutput) {
    const uint32_t w = 64, h = 64;
    std::vector<uint8_t> src = MakeNv12(w, h, w, h);
    MediaBuffer in(src);
    MediaBuffer out0(32 * 32 * 3 / 2), out1(32 * 32 * 3 / 2);
    acldvppBatchPicDesc* srcs = acldvppCreateBatchPicDesc(1);
    acldvppBatchPicDesc* dsts = acldvppCreateBatchPicDesc(2);
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
    fill(acldvppGetPicDesc(dsts, 0), out0.get(), out0.size(), 32, 32);
    fill(acldvppGetPicDesc(dsts, 1), out1.get(), out1.size(), 32, 32);
    acldvppRoiConfig* crops[2] = {acldvppCreateRoiConfig(0, 31, 0, 31),
                                  acldvppCreateRoiConfig(32, 63, 32, 63)};
    uint32_t roi_nums[1] = {2};
    ASSERT_EQ(acldvppVpcBatchCropAsync(channel_, srcs, roi_nums, 1, dsts, crops, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> a = out0.Read(), b = out1.Read();
    EXPECT_EQ(a[0], src[0]);
    EXPECT_EQ(b[0], src[32 * w + 32]);
    roi_nums[0] = 3;
    EXPECT_EQ(acldvppVpcBatchCropAsync(channel_, srcs, roi_nums, 1, dsts, crops, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("equal the 2 pictures of dstBatchPicDescs");
    roi_nums[0] = 2;
    EXPECT_EQ(acldvppVpcBatchCropAsync(channel_, srcs, roi_nums, 2, dsts, crops, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("at most the 1 pictures of srcBatchPicDescs");
    for (auto* c : crops)
        acldvppDestroyRoiConfig(c);
    acldvppDestroyBatchPicDesc(srcs);
    acldvppDestroyBatchPicDesc(dsts);
}

// ---- rules ----

// The 310 rules, the reference's baseline (the 310P's differences are in test_dvpp_chip.cpp).
class DvppVpcRules : public DvppChipTest {
 protected:
    DvppVpcRules() : DvppChipTest("Ascend310") {}
    void SetUp() override {
        DvppChipTest::SetUp();
        in_ = std::make_unique<MediaBuffer>(MakeNv12(64, 64, 64, 64));
        out_ = std::make_unique<MediaBuffer>(64 * 64 * 3 / 2);
    }
    // Resizes a 64x64 NV12 input with the given input and output descriptors' fields.
    aclError Resize(acldvppPixelFormat in_format, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs,
                    acldvppPixelFormat out_format, uint32_t ow, uint32_t oh, uint32_t ows,
                    uint32_t ohs) {
        PicDesc input(in_->get(), in_->size(), in_format, w, h, ws, hs);
        PicDesc output(out_->get(), out_->size(), out_format, ow, oh, ows, ohs);
        return acldvppVpcResizeAsync(channel_, input, output, nullptr, stream_);
    }
    aclError CropPaste(uint32_t cl, uint32_t cr, uint32_t ct, uint32_t cb, uint32_t pl, uint32_t pr,
                       uint32_t pt, uint32_t pb) {
        PicDesc input(in_->get(), in_->size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 64, 64);
        PicDesc output(out_->get(), out_->size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 64, 64);
        acldvppRoiConfig* crop = acldvppCreateRoiConfig(cl, cr, ct, cb);
        acldvppRoiConfig* paste = acldvppCreateRoiConfig(pl, pr, pt, pb);
        aclError rc = acldvppVpcCropAndPasteAsync(channel_, input, output, crop, paste, stream_);
        acldvppDestroyRoiConfig(crop);
        acldvppDestroyRoiConfig(paste);
        return rc;
    }
    std::unique_ptr<MediaBuffer> in_, out_;
    static constexpr acldvppPixelFormat kNv12 = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
};

TEST_F(DvppVpcRules, ValidResizeIsAccepted) {
    EXPECT_EQ(Resize(kNv12, 64, 64, 64, 64, kNv12, 32, 32, 32, 32), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(DvppVpcRules, InputWidthStrideMustBeAMultipleOf16) {
    EXPECT_EQ(Resize(kNv12, 40, 40, 40, 40, kNv12, 32, 32, 32, 32), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("widthStride 40");
}

TEST_F(DvppVpcRules, InputWidthStrideMustCoverThePackedRow) {
    EXPECT_EQ(Resize(PIXEL_FORMAT_RGB_888, 32, 32, 64, 32, kNv12, 32, 32, 32, 32),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("at least 96");
}

TEST_F(DvppVpcRules, InputHeightStrideMustBeEvenAndCoverTheHeight) {
    EXPECT_EQ(Resize(kNv12, 64, 64, 64, 63, kNv12, 32, 32, 32, 32), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("heightStride 63");
}

TEST_F(DvppVpcRules, InputSmallerThan10x6IsRefused) {
    EXPECT_EQ(Resize(kNv12, 8, 64, 32, 64, kNv12, 32, 32, 32, 32), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("10x6 to 4096x4096");
}

TEST_F(DvppVpcRules, InputBufferMustHoldTheStrides) {
    PicDesc input(in_->get(), 100, kNv12, 64, 64, 64, 64);
    PicDesc output(out_->get(), out_->size(), kNv12, 32, 32, 32, 32);
    EXPECT_EQ(acldvppVpcResizeAsync(channel_, input, output, nullptr, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("takes 6144 bytes");
}

TEST_F(DvppVpcRules, OutputMustBeNv12OrNv21) {
    EXPECT_EQ(Resize(kNv12, 64, 64, 64, 64, PIXEL_FORMAT_RGB_888, 32, 32, 96, 32),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("writes only PIXEL_FORMAT_YUV_SEMIPLANAR_420");
}

TEST_F(DvppVpcRules, OutputSizeMustBeEven) {
    EXPECT_EQ(Resize(kNv12, 64, 64, 64, 64, kNv12, 31, 32, 32, 32), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("even width and height");
}

TEST_F(DvppVpcRules, OutputWidthStrideIsAtLeast32) {
    EXPECT_EQ(Resize(kNv12, 64, 64, 64, 64, kNv12, 16, 16, 16, 16), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("minimum 32");
}

TEST_F(DvppVpcRules, HostMemoryIsRefused) {
    std::vector<uint8_t> host(64 * 64 * 3 / 2);
    PicDesc input(host.data(), host.size(), kNv12, 64, 64, 64, 64);
    PicDesc output(out_->get(), out_->size(), kNv12, 32, 32, 32, 32);
    EXPECT_EQ(acldvppVpcResizeAsync(channel_, input, output, nullptr, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("acldvppMalloc");
}

TEST_F(DvppVpcRules, CropBoxNeedsEvenLeftTopAndOddRightBottom) {
    EXPECT_EQ(CropPaste(1, 32, 0, 31, 0, 31, 0, 31), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("left and top must be even, right and bottom odd");
    EXPECT_EQ(CropPaste(0, 32, 0, 31, 0, 31, 0, 31), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("right 32");
}

TEST_F(DvppVpcRules, PasteLeftMustBeAMultipleOf16) {
    EXPECT_EQ(CropPaste(0, 31, 0, 31, 8, 39, 0, 31), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("multiple of 16");
}

TEST_F(DvppVpcRules, BoxesMustFitTheirPicture) {
    EXPECT_EQ(CropPaste(0, 65, 0, 31, 0, 31, 0, 31), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("reaches outside the input picture");
    EXPECT_EQ(CropPaste(0, 31, 0, 31, 48, 79, 0, 31), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("reaches outside the output picture");
}

TEST_F(DvppVpcRules, BoxesAreAtLeast10x6) {
    EXPECT_EQ(CropPaste(0, 7, 0, 31, 0, 31, 0, 31), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("10x6 to 4096x4096");
}

TEST_F(DvppVpcRules, ScaleIsWithinOneThirtySecondAndSixteen) {
    // 10x6 crop pasted at 64x64: 6.4x wide is fine, but try 2x... upscale beyond 16 needs a
    // box smaller than 64/16 = 4 high, below the minimum; so test downscale instead via resize.
    EXPECT_EQ(CropPaste(0, 9, 0, 5, 0, 63, 0, 63), ACL_SUCCESS);  // 6.4x and 10.7x
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    MediaBuffer big(2048 * 64 * 3 / 2);
    PicDesc input(big.get(), big.size(), kNv12, 2048, 64, 2048, 64);
    PicDesc output(out_->get(), out_->size(), kNv12, 32, 32, 32, 32);
    EXPECT_EQ(acldvppVpcResizeAsync(channel_, input, output, nullptr, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("1/32 to 16");
}

TEST_F(DvppVpcRules, DestroyedChannelIsRefused) {
    acldvppChannelDesc* gone = acldvppCreateChannelDesc();
    PicDesc input(in_->get(), in_->size(), kNv12, 64, 64, 64, 64);
    PicDesc output(out_->get(), out_->size(), kNv12, 32, 32, 32, 32);
    EXPECT_EQ(acldvppVpcResizeAsync(gone, input, output, nullptr, stream_),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("call acldvppCreateChannel");
    acldvppDestroyChannelDesc(gone);
}

TEST_F(DvppVpcRules, FreedBufferFailsTheQueuedTaskInsteadOfWritingIntoIt) {
    void* blocker_mem = nullptr;
    ASSERT_EQ(acldvppMalloc(&blocker_mem, 64 * 64 * 3 / 2), ACL_SUCCESS);
    PicDesc input(in_->get(), in_->size(), kNv12, 64, 64, 64, 64);
    PicDesc output(blocker_mem, 64 * 64 * 3 / 2, kNv12, 64, 64, 64, 64);
    // Hold the stream with a blocking host callback so the task runs after the free.
    std::atomic<bool> release{false};
    ASSERT_EQ(aclrtLaunchHostFunc(
                  stream_,
                  [](void* flag) {
                      while (!static_cast<std::atomic<bool>*>(flag)->load()) {
                      }
                  },
                  &release),
              ACL_SUCCESS);
    ASSERT_EQ(acldvppVpcResizeAsync(channel_, input, output, nullptr, stream_), ACL_SUCCESS);
    ASSERT_EQ(acldvppFree(blocker_mem), ACL_SUCCESS);
    release = true;
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("outputDesc");
}

// aclrtMalloc memory is not media memory: accepted (with a warning in the log), as the V2 API
// accepts it, unless OPENACL_STRICT=1 asks for the V1 rule.
TEST_F(DvppVpcRules, AclrtMallocMemoryIsAcceptedWithAWarning) {
    void* plain = nullptr;
    ASSERT_EQ(aclrtMalloc(&plain, 64 * 64 * 3 / 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    PicDesc input(plain, 64 * 64 * 3 / 2, kNv12, 64, 64, 64, 64);
    PicDesc output(out_->get(), out_->size(), kNv12, 32, 32, 32, 32);
    EXPECT_EQ(acldvppVpcResizeAsync(channel_, input, output, nullptr, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    aclrtFree(plain);
}

TEST(DvppStrict, AclrtMallocMemoryIsRefusedUnderOpenaclStrict) {
    setenv("OPENACL_STRICT", "1", 1);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    unsetenv("OPENACL_STRICT");
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    acldvppChannelDesc* channel = acldvppCreateChannelDesc();
    ASSERT_EQ(acldvppCreateChannel(channel), ACL_SUCCESS);
    void* plain = nullptr;
    ASSERT_EQ(aclrtMalloc(&plain, 64 * 64 * 3 / 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    {
        MediaBuffer out(32 * 32 * 3 / 2);
        PicDesc input(plain, 64 * 64 * 3 / 2, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 64, 64);
        PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 32, 32, 32);
        EXPECT_EQ(acldvppVpcResizeAsync(channel, input, output, nullptr, nullptr),
                  ACL_ERROR_INVALID_PARAM);
        EXPECT_MESSAGE_CONTAINS("not media memory");
    }
    aclrtFree(plain);
    acldvppDestroyChannel(channel);
    acldvppDestroyChannelDesc(channel);
    aclrtResetDeviceForce(0);
    aclFinalize();
}
