// VENC: video encode channels. Synthetic NV12 frames are encoded; the packets arrive in the
// callback on the report thread and are decoded again, with libavcodec directly and with VDEC,
// to compare with the source (PSNR).
#include <gtest/gtest.h>

#include <memory>
#include <mutex>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "dvpp_test_support.h"
#include "video_test_support.h"

namespace {

constexpr int kW = 176;
constexpr int kH = 144;

struct Packet {
    int index;
    uint32_t ret_code;
    uint64_t thread;
    acldvppStreamFormat format;
    std::vector<uint8_t> data;
};

struct Recorder {
    std::mutex mutex;
    std::vector<Packet> packets;
};

struct Send {
    Recorder* recorder;
    int index;
    std::unique_ptr<MediaBuffer> buf;
    acldvppPicDesc* pic = nullptr;
    ~Send() {
        if (pic) acldvppDestroyPicDesc(pic);
    }
};

void OnPacket(acldvppPicDesc* input, acldvppStreamDesc* output, void* user_data) {
    auto* send = static_cast<Send*>(user_data);
    Packet p{};
    p.index = send->index;
    p.thread = static_cast<uint64_t>(pthread_self());
    p.ret_code = acldvppGetStreamDescRetCode(output);
    p.format = acldvppGetStreamDescFormat(output);
    EXPECT_EQ(input, send->pic);
    p.data.resize(acldvppGetStreamDescSize(output));
    if (!p.data.empty()) {
        EXPECT_EQ(aclrtMemcpy(p.data.data(), p.data.size(), acldvppGetStreamDescData(output),
                              p.data.size(), ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
    }
    std::lock_guard lock(send->recorder->mutex);
    send->recorder->packets.push_back(std::move(p));
}

// Does the Annex-B packet hold an IDR picture (H.264 NAL type 5, H.265 types 19/20)?
bool HasIdr(const std::vector<uint8_t>& data, bool hevc) {
    for (size_t i = 0; i + 3 < data.size(); ++i) {
        if (data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1) {
            const uint8_t h = data[i + 3];
            if (!hevc && (h & 0x1f) == 5) return true;
            if (hevc && (((h >> 1) & 0x3f) == 19 || ((h >> 1) & 0x3f) == 20)) return true;
        }
    }
    return false;
}

// VENC's chip, chosen explicitly: the 310P (Atlas inference series) encodes video, the
// training parts do not.
class VencChip : public ChipTest {
 protected:
    VencChip() : ChipTest("Ascend310P3") {}
};

// The descriptor tests: their limits are the chip's.
class VencChannelDesc : public VencChip {};

class VencTest : public VencChip {
 protected:
    void SetUp() override {
        VencChip::SetUp();
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(aclrtGetCurrentContext(&context_), ACL_SUCCESS);
        reporter_ = std::make_unique<ReportThread>(context_);
        desc_ = aclvencCreateChannelDesc();
        ASSERT_NE(desc_, nullptr);
        ASSERT_EQ(aclvencSetChannelDescThreadId(desc_, reporter_->id()), ACL_SUCCESS);
        ASSERT_EQ(aclvencSetChannelDescCallback(desc_, OnPacket), ACL_SUCCESS);
        ASSERT_EQ(aclvencSetChannelDescPicFormat(desc_, PIXEL_FORMAT_YUV_SEMIPLANAR_420),
                  ACL_SUCCESS);
        ASSERT_EQ(aclvencSetChannelDescPicWidth(desc_, kW), ACL_SUCCESS);
        ASSERT_EQ(aclvencSetChannelDescPicHeight(desc_, kH), ACL_SUCCESS);
        config_ = aclvencCreateFrameConfig();
    }
    void TearDown() override {
        aclvencDestroyChannel(desc_);
        aclvencDestroyChannelDesc(desc_);
        aclvencDestroyFrameConfig(config_);
        sends_.clear();
        reporter_.reset();
        aclrtResetDeviceForce(0);
        VencChip::TearDown();
    }
    void Create(acldvppStreamFormat type) {
        ASSERT_EQ(aclvencSetChannelDescEnType(desc_, type), ACL_SUCCESS);
        ASSERT_EQ(aclvencCreateChannel(desc_), ACL_SUCCESS) << aclGetRecentErrMsg();
    }
    Send* Prepare(int frame) {
        Send* send = PrepareBare(frame);
        acldvppSetPicDescFormat(send->pic, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
        acldvppSetPicDescWidth(send->pic, kW);
        acldvppSetPicDescHeight(send->pic, kH);
        acldvppSetPicDescWidthStride(send->pic, kW);  // 176 = ALIGN_UP(176, 16)
        acldvppSetPicDescHeightStride(send->pic, kH);
        return send;
    }
    // What programs send: data and size only, widthStride x height x 3 / 2 bytes; the
    // channel's settings give the rest.
    Send* PrepareBare(int frame) {
        auto send = std::make_unique<Send>();
        send->recorder = &recorder_;
        send->index = frame;
        send->buf = std::make_unique<MediaBuffer>(ClipFrame(kW, kH, frame));
        send->pic = acldvppCreatePicDesc();
        acldvppSetPicDescData(send->pic, send->buf->get());
        acldvppSetPicDescSize(send->pic, send->buf->size());
        sends_.push_back(std::move(send));
        return sends_.back().get();
    }
    aclError SendFrame(Send* s) { return aclvencSendFrame(desc_, s->pic, nullptr, nullptr, s); }
    // Ends the stream and checks that the packets decode to the first `frames` source frames.
    void FinishAndExpectDecodes(bool hevc, int frames) {
        ASSERT_EQ(SendEos(), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::lock_guard lock(recorder_.mutex);
        ExpectDecodesToTheSource(hevc, recorder_.packets, frames);
    }
    aclError SendEos() {
        aclvencSetFrameConfigEos(config_, 1);
        aclvencSetFrameConfigForceIFrame(config_, 0);
        aclError rc = aclvencSendFrame(desc_, nullptr, nullptr, config_, nullptr);
        aclvencSetFrameConfigEos(config_, 0);
        return rc;
    }
    std::vector<Packet> EncodeAll(int frames) {
        for (int i = 0; i < frames; ++i) {
            Send* s = Prepare(i);
            EXPECT_EQ(SendFrame(s), ACL_SUCCESS) << aclGetRecentErrMsg();
        }
        EXPECT_EQ(SendEos(), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::lock_guard lock(recorder_.mutex);
        return recorder_.packets;
    }
    void ExpectDecodesToTheSource(bool hevc, const std::vector<Packet>& packets, int frames) {
        ASSERT_EQ(packets.size(), static_cast<size_t>(frames));
        std::vector<std::vector<uint8_t>> stream;
        for (int i = 0; i < frames; ++i) {
            EXPECT_EQ(packets[i].index, i);
            EXPECT_EQ(packets[i].ret_code, 0u);
            EXPECT_FALSE(packets[i].data.empty());
            stream.push_back(packets[i].data);
        }
        EXPECT_TRUE(HasIdr(stream[0], hevc));
        const auto lumas = ReferenceDecode(hevc, stream);
        ASSERT_EQ(lumas.size(), static_cast<size_t>(frames));
        for (int i = 0; i < frames; ++i) {
            const auto source = ClipFrame(kW, kH, i);
            // 300 kbit/s at 30 fps for QCIF: good quality.
            EXPECT_GT(LumaPsnr(lumas[i].data(), kW, source.data(), kW, kW, kH), 30.0)
                << "frame " << i;
        }
    }

    aclrtContext context_ = nullptr;
    std::unique_ptr<ReportThread> reporter_;
    aclvencChannelDesc* desc_ = nullptr;
    aclvencFrameConfig* config_ = nullptr;
    Recorder recorder_;
    std::vector<std::unique_ptr<Send>> sends_;
};

}  // namespace

// ---- descriptors and configs ----

TEST_F(VencChannelDesc, SettersAndParamKeysSetTheSameFields) {
    aclvencChannelDesc* desc = aclvencCreateChannelDesc();
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(aclvencGetChannelDescEnType(desc), H265_MAIN_LEVEL);  // the documented default
    EXPECT_EQ(aclvencSetChannelDescEnType(desc, H264_BASELINE_LEVEL), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescPicWidth(desc, 1920), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescPicHeight(desc, 1080), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescKeyFrameInterval(desc, 16), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescRcMode(desc, 1), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescSrcRate(desc, 25), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescMaxBitRate(desc, 2000), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescBufSize(desc, 1 << 20), ACL_SUCCESS);
    EXPECT_EQ(aclvencGetChannelDescEnType(desc), H264_BASELINE_LEVEL);
    EXPECT_EQ(aclvencGetChannelDescPicWidth(desc), 1920u);
    EXPECT_EQ(aclvencGetChannelDescPicHeight(desc), 1080u);
    EXPECT_EQ(aclvencGetChannelDescKeyFrameInterval(desc), 16u);
    EXPECT_EQ(aclvencGetChannelDescRcMode(desc), 1u);
    EXPECT_EQ(aclvencGetChannelDescSrcRate(desc), 25u);
    EXPECT_EQ(aclvencGetChannelDescMaxBitRate(desc), 2000u);
    EXPECT_EQ(aclvencGetChannelDescBufSize(desc), 1u << 20);
    uint32_t prop = 8;
    EXPECT_EQ(aclvencSetChannelDescParam(desc, ACL_VENC_MAX_IP_PROP_UINT32, sizeof prop, &prop),
              ACL_SUCCESS);
    uint32_t value = 0;
    size_t size = 0;
    EXPECT_EQ(
        aclvencGetChannelDescParam(desc, ACL_VENC_MAX_IP_PROP_UINT32, sizeof value, &size, &value),
        ACL_SUCCESS);
    EXPECT_EQ(value, 8u);
    uint32_t rate = 60;
    EXPECT_EQ(aclvencSetChannelDescParam(desc, ACL_VENC_SRC_RATE_UINT32, sizeof rate, &rate),
              ACL_SUCCESS);
    EXPECT_EQ(aclvencGetChannelDescSrcRate(desc), 60u);
    EXPECT_EQ(aclvencDestroyChannelDesc(desc), ACL_SUCCESS);
}

TEST_F(VencChannelDesc, ValuesOutsideTheDocumentedRangesAreRefused) {
    aclvencChannelDesc* desc = aclvencCreateChannelDesc();
    EXPECT_EQ(aclvencSetChannelDescPicWidth(desc, 100), ACL_ERROR_INVALID_PARAM);
    // On a 310P: 128..4096 and srcRate up to 240 (the 310's limits are in test_dvpp_chip.cpp).
    EXPECT_MESSAGE_CONTAINS("128..4096");
    EXPECT_EQ(aclvencSetChannelDescPicHeight(desc, 4098), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvencSetChannelDescPicFormat(desc, PIXEL_FORMAT_RGB_888), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvencSetChannelDescKeyFrameInterval(desc, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvencSetChannelDescRcMode(desc, 3), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvencSetChannelDescSrcRate(desc, 241), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvencSetChannelDescMaxBitRate(desc, 9), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvencSetChannelDescMaxBitRate(desc, 30001), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvencDestroyChannelDesc(desc), ACL_SUCCESS);
}

TEST(VencFrameConfig, HoldsForceIFrameAndEos) {
    aclvencFrameConfig* config = aclvencCreateFrameConfig();
    EXPECT_EQ(aclvencGetFrameConfigForceIFrame(config), 0u);
    EXPECT_EQ(aclvencSetFrameConfigForceIFrame(config, 1), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetFrameConfigEos(config, 1), ACL_SUCCESS);
    EXPECT_EQ(aclvencGetFrameConfigForceIFrame(config), 1u);
    EXPECT_EQ(aclvencGetFrameConfigEos(config), 1u);
    EXPECT_EQ(aclvencSetFrameConfigEos(config, 2), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvencDestroyFrameConfig(config), ACL_SUCCESS);
    // The documented -1 for an invalid config, as the uint8_t return spells it.
    EXPECT_EQ(aclvencGetFrameConfigForceIFrame(nullptr), 255u);
}

// ---- encoding ----

TEST_F(VencTest, EncodesH264ThatDecodesBackToTheSource) {
    Create(H264_MAIN_LEVEL);
    const auto packets = EncodeAll(10);
    ExpectDecodesToTheSource(false, packets, 10);
    EXPECT_EQ(packets[0].format, H264_MAIN_LEVEL);
}

TEST_F(VencTest, EncodesH265ThatDecodesBackToTheSource) {
    Create(H265_MAIN_LEVEL);
    ExpectDecodesToTheSource(true, EncodeAll(6), 6);
}

TEST_F(VencTest, CallbacksRunOnTheChannelsReportThread) {
    Create(H264_BASELINE_LEVEL);
    for (const Packet& p : EncodeAll(3))
        EXPECT_EQ(p.thread, reporter_->id());
}

TEST_F(VencTest, EosReturnsOnlyAfterEveryCallbackHasRun) {
    Create(H264_MAIN_LEVEL);
    for (int i = 0; i < 5; ++i) {
        Send* s = Prepare(i);
        ASSERT_EQ(SendFrame(s), ACL_SUCCESS);
    }
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    {
        std::lock_guard lock(recorder_.mutex);
        EXPECT_EQ(recorder_.packets.size(), 5u);
    }
    // A new stream may follow: it starts with an IDR again.
    Send* s = Prepare(0);
    ASSERT_EQ(SendFrame(s), ACL_SUCCESS);
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    std::lock_guard lock(recorder_.mutex);
    ASSERT_EQ(recorder_.packets.size(), 6u);
    EXPECT_TRUE(HasIdr(recorder_.packets.back().data, false));
}

TEST_F(VencTest, ForceIFrameMakesThatFrameAnIdr) {
    ASSERT_EQ(aclvencSetChannelDescKeyFrameInterval(desc_, 100), ACL_SUCCESS);
    Create(H264_MAIN_LEVEL);
    for (int i = 0; i < 6; ++i) {
        Send* s = Prepare(i);
        aclvencSetFrameConfigForceIFrame(config_, i == 4 ? 1 : 0);
        ASSERT_EQ(aclvencSendFrame(desc_, s->pic, nullptr, config_, s), ACL_SUCCESS);
    }
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    std::lock_guard lock(recorder_.mutex);
    ASSERT_EQ(recorder_.packets.size(), 6u);
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(HasIdr(recorder_.packets[i].data, false), i == 0 || i == 4) << "frame " << i;
}

// VENC's packets through VDEC: the whole DVPP video path.
namespace {
struct Decoded {
    std::mutex mutex;
    std::vector<std::vector<uint8_t>> lumas;
    std::vector<uint32_t> codes;
};
Decoded* g_decoded = nullptr;
void OnDecoded(acldvppStreamDesc*, acldvppPicDesc* output, void*) {
    std::vector<uint8_t> pic(acldvppGetPicDescSize(output));
    aclrtMemcpy(pic.data(), pic.size(), acldvppGetPicDescData(output), pic.size(),
                ACL_MEMCPY_DEVICE_TO_HOST);
    std::lock_guard lock(g_decoded->mutex);
    g_decoded->lumas.push_back(std::move(pic));
    g_decoded->codes.push_back(acldvppGetPicDescRetCode(output));
}
}  // namespace

TEST_F(VencTest, VdecDecodesWhatVencEncoded) {
    Create(H264_HIGH_LEVEL);
    const auto packets = EncodeAll(5);
    ASSERT_EQ(packets.size(), 5u);
    Decoded decoded;
    g_decoded = &decoded;
    aclvdecChannelDesc* vdec = aclvdecCreateChannelDesc();
    aclvdecSetChannelDescThreadId(vdec, reporter_->id());
    aclvdecSetChannelDescCallback(vdec, OnDecoded);
    aclvdecSetChannelDescEnType(vdec, H264_HIGH_LEVEL);
    ASSERT_EQ(aclvdecCreateChannel(vdec), ACL_SUCCESS);
    std::vector<std::unique_ptr<MediaBuffer>> buffers;
    std::vector<acldvppStreamDesc*> inputs;
    std::vector<acldvppPicDesc*> outputs;
    const uint32_t out_size = kW * kH * 3 / 2;
    for (const Packet& p : packets) {
        buffers.push_back(std::make_unique<MediaBuffer>(p.data));
        inputs.push_back(acldvppCreateStreamDesc());
        acldvppSetStreamDescData(inputs.back(), buffers.back()->get());
        acldvppSetStreamDescSize(inputs.back(), buffers.back()->size());
        buffers.push_back(std::make_unique<MediaBuffer>(out_size));
        outputs.push_back(acldvppCreatePicDesc());
        acldvppSetPicDescData(outputs.back(), buffers.back()->get());
        acldvppSetPicDescSize(outputs.back(), out_size);
        ASSERT_EQ(aclvdecSendFrame(vdec, inputs.back(), outputs.back(), nullptr, nullptr),
                  ACL_SUCCESS);
    }
    acldvppStreamDesc* eos = acldvppCreateStreamDesc();
    acldvppSetStreamDescEos(eos, 1);
    ASSERT_EQ(aclvdecSendFrame(vdec, eos, nullptr, nullptr, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclvdecDestroyChannel(vdec), ACL_SUCCESS);
    EXPECT_EQ(aclvdecDestroyChannelDesc(vdec), ACL_SUCCESS);
    ASSERT_EQ(decoded.lumas.size(), 5u);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(decoded.codes[i], 0u);
        const auto source = ClipFrame(kW, kH, i);
        EXPECT_GT(LumaPsnr(decoded.lumas[i].data(), kW, source.data(), kW, kW, kH), 30.0);
    }
    acldvppDestroyStreamDesc(eos);
    for (auto* d : inputs)
        acldvppDestroyStreamDesc(d);
    for (auto* d : outputs)
        acldvppDestroyPicDesc(d);
}

// ---- rules checked at the send ----

TEST_F(VencTest, APictureOfAnotherSizeIsRefused) {
    Create(H264_MAIN_LEVEL);
    Send* s = Prepare(0);
    acldvppSetPicDescWidth(s->pic, 160);
    EXPECT_EQ(SendFrame(s), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("176x144");
}

TEST_F(VencTest, ReserveMustBeNull) {
    Create(H264_MAIN_LEVEL);
    Send* s = Prepare(0);
    int dummy = 0;
    EXPECT_EQ(aclvencSendFrame(desc_, s->pic, &dummy, nullptr, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("reserve");
}

TEST_F(VencTest, ANullPictureIsRefusedUnlessItIsEos) {
    Create(H264_MAIN_LEVEL);
    EXPECT_EQ(aclvencSendFrame(desc_, nullptr, nullptr, config_, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("end-of-stream");
}

TEST_F(VencTest, CreatingAChannelNeedsThePictureSize) {
    aclvencChannelDesc* bare = aclvencCreateChannelDesc();
    aclvencSetChannelDescThreadId(bare, reporter_->id());
    aclvencSetChannelDescCallback(bare, OnPacket);
    EXPECT_EQ(aclvencCreateChannel(bare), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("PicWidth");
    EXPECT_EQ(aclvencDestroyChannelDesc(bare), ACL_SUCCESS);
}

TEST_F(VencTest, AChannelIdIsAssignedAtCreation) {
    Create(H264_MAIN_LEVEL);
    aclvencChannelDesc* second = aclvencCreateChannelDesc();
    aclvencSetChannelDescThreadId(second, reporter_->id());
    aclvencSetChannelDescCallback(second, OnPacket);
    aclvencSetChannelDescPicWidth(second, kW);
    aclvencSetChannelDescPicHeight(second, kH);
    aclvencSetChannelDescEnType(second, H264_MAIN_LEVEL);
    ASSERT_EQ(aclvencCreateChannel(second), ACL_SUCCESS);
    EXPECT_NE(aclvencGetChannelDescChannelId(second), aclvencGetChannelDescChannelId(desc_));
    EXPECT_EQ(aclvencDestroyChannel(second), ACL_SUCCESS);
    EXPECT_EQ(aclvencDestroyChannelDesc(second), ACL_SUCCESS);
}

// ---- the input picture, as CANN documents it ----
// VENC restrictions: NV12/NV21, widthStride ALIGN_UP(width, 16), heightStride not needed, the
// buffer widthStride x height x 3 / 2 bytes. aclvencSendFrame: the picture's format is the
// channel's; setting it on the picture has no effect.

TEST_F(VencTest, APictureGivingOnlyDataAndSizeIsEncodedAtTheChannelsSettings) {
    Create(H264_MAIN_LEVEL);
    for (int i = 0; i < 4; ++i) {
        Send* s = PrepareBare(i);
        ASSERT_EQ(SendFrame(s), ACL_SUCCESS) << aclGetRecentErrMsg();
    }
    FinishAndExpectDecodes(false, 4);
}

TEST_F(VencTest, ThePicturesOwnFormatHasNoEffect) {
    Create(H264_MAIN_LEVEL);
    Send* s = Prepare(0);
    acldvppSetPicDescFormat(s->pic, PIXEL_FORMAT_RGB_888);  // the channel's NV12 applies
    ASSERT_EQ(SendFrame(s), ACL_SUCCESS) << aclGetRecentErrMsg();
    FinishAndExpectDecodes(false, 1);
}

TEST_F(VencTest, WidthStrideTimesHeightTimesThreeHalvesIsEnoughWhateverTheHeightStride) {
    Create(H264_MAIN_LEVEL);
    for (int i = 0; i < 2; ++i) {
        Send* s = Prepare(i);  // exactly 176 x 144 x 3 / 2 bytes
        acldvppSetPicDescHeightStride(s->pic, AlignUp(kH, 16) + 16);
        ASSERT_EQ(SendFrame(s), ACL_SUCCESS) << aclGetRecentErrMsg();
    }
    FinishAndExpectDecodes(false, 2);
}

TEST_F(VencTest, ASizeBelowWidthStrideTimesHeightTimesThreeHalvesIsRefused) {
    Create(H264_MAIN_LEVEL);
    Send* s = PrepareBare(0);
    acldvppSetPicDescSize(s->pic, kW * kH * 3 / 2 - 1);
    EXPECT_EQ(SendFrame(s), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("widthStride x height x 3 / 2");
}

TEST_F(VencTest, AWidthStrideThatIsNoMultipleOf16IsRefused) {
    Create(H264_MAIN_LEVEL);
    Send* s = Prepare(0);
    acldvppSetPicDescWidthStride(s->pic, kW + 8);
    EXPECT_EQ(SendFrame(s), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("multiple of 16");
}

// ---- the input's lifetime ----
// Programs free or refill the input as soon as aclvencSendFrame returns, which works on the
// chip; openacl copies the planes before it returns.

TEST_F(VencTest, TheInputMayBeFreedRightAfterSendFrame) {
    Create(H264_MAIN_LEVEL);
    for (int i = 0; i < 5; ++i) {
        Send* s = PrepareBare(i);
        ASSERT_EQ(SendFrame(s), ACL_SUCCESS);
        s->buf.reset();  // acldvppFree before the frame is encoded
    }
    FinishAndExpectDecodes(false, 5);
}

TEST_F(VencTest, TheInputMayBeRefilledWithTheNextFrameRightAfterSendFrame) {
    Create(H265_MAIN_LEVEL);
    MediaBuffer shared(static_cast<size_t>(kW) * kH * 3 / 2);
    for (int i = 0; i < 5; ++i) {
        const auto frame = ClipFrame(kW, kH, i);
        ASSERT_EQ(aclrtMemcpy(shared.get(), shared.size(), frame.data(), frame.size(),
                              ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
        Send* s = PrepareBare(i);
        acldvppSetPicDescData(s->pic, shared.get());
        ASSERT_EQ(SendFrame(s), ACL_SUCCESS);
    }
    FinishAndExpectDecodes(true, 5);
}

// VENC restrictions: on the Atlas 200I/500 A2 pictures are 114 to 8192 a side.
class VencOnAtlas200IA2 : public ChipTest {
 protected:
    VencOnAtlas200IA2() : ChipTest("Ascend310B1") {}
};

TEST_F(VencOnAtlas200IA2, PicturesAre114To8192) {
    aclvencChannelDesc* desc = aclvencCreateChannelDesc();
    EXPECT_EQ(aclvencSetChannelDescPicWidth(desc, 114), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescPicHeight(desc, 8192), ACL_SUCCESS);
    EXPECT_EQ(aclvencSetChannelDescPicWidth(desc, 112), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("114..8192, even, on Ascend310B1");
    EXPECT_EQ(aclvencSetChannelDescPicHeight(desc, 8194), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvencDestroyChannelDesc(desc), ACL_SUCCESS);
}
