// VDEC: video decode channels. Clips are encoded at test time (libx264/libx265 through
// libavcodec, video_test_support.h); pictures are compared with libavcodec's own decode of the
// same packets (bit-exact) and with the source frames (PSNR). Callbacks run on a report
// thread, as in the samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <random>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "dvpp_test_support.h"
#include "video_test_support.h"

namespace {

constexpr int kW = 176;  // QCIF: above VDEC's 128x128 minimum, quick to code
constexpr int kH = 144;

struct Received {
    int index;
    uint32_t ret_code;
    uint32_t stream_ret_code;
    uint64_t thread;
    bool output_null;
    uint32_t width, height, ws, hs;
    acldvppPixelFormat format;
    std::vector<uint8_t> pixels;  // the whole output buffer
};

struct Recorder {
    std::mutex mutex;
    std::vector<Received> frames;
    size_t Count() {
        std::lock_guard lock(mutex);
        return frames.size();
    }
};

struct Send {
    Recorder* recorder;
    int index;
    acldvppStreamDesc* input = nullptr;
    acldvppPicDesc* output = nullptr;
    std::unique_ptr<MediaBuffer> in_buf;
    std::unique_ptr<MediaBuffer> out_buf;
    ~Send() {
        if (input) acldvppDestroyStreamDesc(input);
        if (output) acldvppDestroyPicDesc(output);
    }
};

void OnFrame(acldvppStreamDesc* input, acldvppPicDesc* output, void* user_data) {
    auto* send = static_cast<Send*>(user_data);
    Received r{};
    r.index = send->index;
    r.thread = static_cast<uint64_t>(pthread_self());
    r.output_null = output == nullptr;
    r.stream_ret_code = acldvppGetStreamDescRetCode(input);
    if (output != nullptr) {
        r.ret_code = acldvppGetPicDescRetCode(output);
        r.width = acldvppGetPicDescWidth(output);
        r.height = acldvppGetPicDescHeight(output);
        r.ws = acldvppGetPicDescWidthStride(output);
        r.hs = acldvppGetPicDescHeightStride(output);
        r.format = acldvppGetPicDescFormat(output);
        r.pixels.resize(acldvppGetPicDescSize(output));
        aclrtMemcpy(r.pixels.data(), r.pixels.size(), acldvppGetPicDescData(output),
                    r.pixels.size(), ACL_MEMCPY_DEVICE_TO_HOST);
    }
    std::lock_guard lock(send->recorder->mutex);
    send->recorder->frames.push_back(std::move(r));
}

// The chip, chosen explicitly: a 310P, whose VDEC limits
// these tests state (the 310's are in test_dvpp_chip.cpp).
class VdecChip : public ChipTest {
 protected:
    VdecChip() : ChipTest("Ascend310P3") {}
};

// The descriptor tests: their limits are the chip's.
class VdecChannelDesc : public VdecChip {};

class VdecTest : public VdecChip {
 protected:
    void SetUp() override {
        VdecChip::SetUp();
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(aclrtGetCurrentContext(&context_), ACL_SUCCESS);
        reporter_ = std::make_unique<ReportThread>(context_);
        desc_ = aclvdecCreateChannelDesc();
        ASSERT_NE(desc_, nullptr);
        ASSERT_EQ(aclvdecSetChannelDescThreadId(desc_, reporter_->id()), ACL_SUCCESS);
        ASSERT_EQ(aclvdecSetChannelDescCallback(desc_, OnFrame), ACL_SUCCESS);
    }
    void TearDown() override {
        if (aclvdecGetChannelDescCallback(desc_) != nullptr) aclvdecDestroyChannel(desc_);
        aclvdecDestroyChannelDesc(desc_);
        sends_.clear();
        reporter_.reset();
        aclrtResetDeviceForce(0);
        VdecChip::TearDown();
    }

    void Create(acldvppStreamFormat type) {
        ASSERT_EQ(aclvdecSetChannelDescEnType(desc_, type), ACL_SUCCESS);
        ASSERT_EQ(aclvdecCreateChannel(desc_), ACL_SUCCESS) << aclGetRecentErrMsg();
    }

    // A send with a fresh input and (unless skipped) a fresh output with no sizes set.
    Send* Prepare(const std::vector<uint8_t>& packet, bool skipped = false) {
        auto send = std::make_unique<Send>();
        send->recorder = &recorder_;
        send->index = static_cast<int>(sends_.size());
        send->input = acldvppCreateStreamDesc();
        if (!packet.empty()) {
            send->in_buf = std::make_unique<MediaBuffer>(packet);
            acldvppSetStreamDescData(send->input, send->in_buf->get());
            acldvppSetStreamDescSize(send->input, send->in_buf->size());
        }
        if (!skipped) {
            const uint32_t size = AlignUp(kW, 16) * AlignUp(kH, 2) * 3 / 2;
            send->out_buf = std::make_unique<MediaBuffer>(size);
            send->output = acldvppCreatePicDesc();
            acldvppSetPicDescData(send->output, send->out_buf->get());
            acldvppSetPicDescSize(send->output, size);
        }
        sends_.push_back(std::move(send));
        return sends_.back().get();
    }
    aclError SendFrame(Send* send) {
        return aclvdecSendFrame(desc_, send->input, send->output, nullptr, send);
    }
    aclError SendEos() {
        Send* eos = Prepare({}, true);
        acldvppSetStreamDescEos(eos->input, 1);
        return aclvdecSendFrame(desc_, eos->input, nullptr, nullptr, eos);
    }
    // Sends every packet, then eos; returns the frames received, in callback order.
    std::vector<Received> DecodeAll(const std::vector<std::vector<uint8_t>>& packets) {
        for (const auto& p : packets)
            EXPECT_EQ(SendFrame(Prepare(p)), ACL_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(SendEos(), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::lock_guard lock(recorder_.mutex);
        return recorder_.frames;
    }

    aclrtContext context_ = nullptr;
    std::unique_ptr<ReportThread> reporter_;
    aclvdecChannelDesc* desc_ = nullptr;
    Recorder recorder_;
    std::vector<std::unique_ptr<Send>> sends_;
};

void ExpectMatchesSource(bool hevc, const std::vector<std::vector<uint8_t>>& packets,
                         const std::vector<Received>& frames) {
    const auto reference = ReferenceDecode(hevc, packets);
    ASSERT_EQ(frames.size(), packets.size());
    ASSERT_EQ(reference.size(), packets.size());
    for (size_t i = 0; i < frames.size(); ++i) {
        const Received& f = frames[i];
        ASSERT_EQ(f.ret_code, 0u) << "frame " << i;
        EXPECT_EQ(f.index, static_cast<int>(i));
        EXPECT_EQ(f.width, static_cast<uint32_t>(kW));
        EXPECT_EQ(f.height, static_cast<uint32_t>(kH));
        EXPECT_EQ(f.ws, AlignUp(kW, 16));
        EXPECT_EQ(f.hs, AlignUp(kH, 2));
        EXPECT_EQ(f.format, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
        // The same decoder beneath: bit-exact with libavcodec used directly.
        EXPECT_EQ(LumaPsnr(f.pixels.data(), f.ws, reference[i].data(), kW, kW, kH), 99.0)
            << "frame " << i;
        // And close to what was encoded (crf 18).
        const auto source = ClipFrame(kW, kH, static_cast<int>(i));
        EXPECT_GT(LumaPsnr(f.pixels.data(), f.ws, source.data(), kW, kW, kH), 35.0)
            << "frame " << i;
    }
}

}  // namespace

// ---- channel descriptor ----

TEST_F(VdecChannelDesc, GettersReturnTheDocumentedDefaults) {
    aclvdecChannelDesc* desc = aclvdecCreateChannelDesc();
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(aclvdecGetChannelDescEnType(desc), H265_MAIN_LEVEL);
    EXPECT_EQ(aclvdecGetChannelDescOutPicFormat(desc), PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    EXPECT_EQ(aclvdecGetChannelDescCallback(desc), nullptr);
    EXPECT_EQ(aclvdecGetChannelDescChannelId(desc), 0u);
    EXPECT_EQ(aclvdecGetChannelDescOutMode(desc), 0u);
    EXPECT_EQ(aclvdecDestroyChannelDesc(desc), ACL_SUCCESS);
}

TEST_F(VdecChannelDesc, SettersAndParamKeysSetTheSameFields) {
    aclvdecChannelDesc* desc = aclvdecCreateChannelDesc();
    EXPECT_EQ(aclvdecSetChannelDescChannelId(desc, 31), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescEnType(desc, H264_MAIN_LEVEL), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescOutPicFormat(desc, PIXEL_FORMAT_YVU_SEMIPLANAR_420),
              ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescOutPicWidth(desc, 1920), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescOutPicHeight(desc, 1080), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescRefFrameNum(desc, 16), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescBitDepth(desc, 1), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescOutMode(desc, 1), ACL_SUCCESS);
    EXPECT_EQ(aclvdecGetChannelDescChannelId(desc), 31u);
    EXPECT_EQ(aclvdecGetChannelDescEnType(desc), H264_MAIN_LEVEL);
    EXPECT_EQ(aclvdecGetChannelDescOutPicFormat(desc), PIXEL_FORMAT_YVU_SEMIPLANAR_420);
    EXPECT_EQ(aclvdecGetChannelDescOutPicWidth(desc), 1920u);
    EXPECT_EQ(aclvdecGetChannelDescOutPicHeight(desc), 1080u);
    EXPECT_EQ(aclvdecGetChannelDescRefFrameNum(desc), 16u);
    EXPECT_EQ(aclvdecGetChannelDescBitDepth(desc), 1u);
    EXPECT_EQ(aclvdecGetChannelDescOutMode(desc), 1u);

    uint32_t csc = ACL_DVPP_CSC_MATRIX_BT709_NARROW;
    EXPECT_EQ(aclvdecSetChannelDescParam(desc, ACL_VDEC_CSC_MATRIX_UINT32, sizeof csc, &csc),
              ACL_SUCCESS);
    uint32_t width = 640;
    EXPECT_EQ(aclvdecSetChannelDescParam(desc, ACL_VDEC_OUT_PIC_WIDTH_UINT32, sizeof width, &width),
              ACL_SUCCESS);
    EXPECT_EQ(aclvdecGetChannelDescOutPicWidth(desc), 640u);
    uint32_t value = 0;
    size_t size = 0;
    EXPECT_EQ(
        aclvdecGetChannelDescParam(desc, ACL_VDEC_CSC_MATRIX_UINT32, sizeof value, &size, &value),
        ACL_SUCCESS);
    EXPECT_EQ(value, static_cast<uint32_t>(ACL_DVPP_CSC_MATRIX_BT709_NARROW));
    EXPECT_EQ(size, sizeof value);
    uint64_t thread = 0;
    EXPECT_EQ(aclvdecSetChannelDescThreadId(desc, 1234), ACL_SUCCESS);
    EXPECT_EQ(
        aclvdecGetChannelDescParam(desc, ACL_VDEC_THREAD_ID_UINT64, sizeof thread, &size, &thread),
        ACL_SUCCESS);
    EXPECT_EQ(thread, 1234u);
    EXPECT_EQ(aclvdecDestroyChannelDesc(desc), ACL_SUCCESS);
}

TEST_F(VdecChannelDesc, ValuesOutsideTheDocumentedRangesAreRefused) {
    aclvdecChannelDesc* desc = aclvdecCreateChannelDesc();
    // On a 310P: ids 0..255 (0..31 on 310/910, test_dvpp_chip.cpp).
    EXPECT_EQ(aclvdecSetChannelDescChannelId(desc, 256), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("0..255");
    EXPECT_EQ(aclvdecSetChannelDescRefFrameNum(desc, 17), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvdecSetChannelDescOutPicFormat(desc, PIXEL_FORMAT_RGB_888),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("NV12");
    EXPECT_EQ(aclvdecSetChannelDescOutPicWidth(desc, 127), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvdecSetChannelDescOutPicHeight(desc, 4097), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvdecSetChannelDescBitDepth(desc, 2), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvdecSetChannelDescOutMode(desc, 2), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvdecSetChannelDescEnType(desc, static_cast<acldvppStreamFormat>(4)),
              ACL_ERROR_INVALID_PARAM);
    uint32_t value = 1;
    EXPECT_EQ(aclvdecSetChannelDescParam(desc, ACL_VDEC_OUT_MODE_UINT32, 8, &value),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("4-byte");
    size_t size = 0;
    EXPECT_EQ(aclvdecGetChannelDescParam(desc, ACL_VDEC_THREAD_ID_UINT64, 4, &size, &value),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvdecGetChannelDescChannelId(desc), 0u);  // nothing was set
    EXPECT_EQ(aclvdecDestroyChannelDesc(desc), ACL_SUCCESS);
}

TEST_F(VdecChannelDesc, ADestroyedDescriptorIsRefused) {
    aclvdecChannelDesc* desc = aclvdecCreateChannelDesc();
    ASSERT_EQ(aclvdecDestroyChannelDesc(desc), ACL_SUCCESS);
    EXPECT_EQ(aclvdecSetChannelDescOutMode(desc, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("not a live aclvdecChannelDesc");
    EXPECT_EQ(aclvdecDestroyChannelDesc(desc), ACL_ERROR_INVALID_PARAM);
}

// ---- channels ----

TEST_F(VdecTest, CreatingAChannelNeedsACallbackAndAReportThread) {
    aclvdecChannelDesc* bare = aclvdecCreateChannelDesc();
    EXPECT_EQ(aclvdecCreateChannel(bare), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("aclvdecSetChannelDescCallback");
    ASSERT_EQ(aclvdecSetChannelDescCallback(bare, OnFrame), ACL_SUCCESS);
    EXPECT_EQ(aclvdecCreateChannel(bare), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("aclvdecSetChannelDescThreadId");
    EXPECT_EQ(aclvdecDestroyChannelDesc(bare), ACL_SUCCESS);
}

TEST_F(VdecTest, AChannelIdServesOneChannelAtATime) {
    Create(H264_MAIN_LEVEL);
    aclvdecChannelDesc* second = aclvdecCreateChannelDesc();
    aclvdecSetChannelDescThreadId(second, reporter_->id());
    aclvdecSetChannelDescCallback(second, OnFrame);
    EXPECT_EQ(aclvdecCreateChannel(second), ACL_ERROR_INVALID_PARAM);  // id 0 is taken
    EXPECT_MESSAGE_CONTAINS("in use");
    EXPECT_EQ(aclvdecCreateChannel(second), ACL_ERROR_INVALID_PARAM);  // a refusal frees nothing
    ASSERT_EQ(aclvdecSetChannelDescChannelId(second, 1), ACL_SUCCESS);
    EXPECT_EQ(aclvdecCreateChannel(second), ACL_SUCCESS);
    EXPECT_EQ(aclvdecDestroyChannelDesc(second), ACL_ERROR_INVALID_PARAM);  // still created
    EXPECT_EQ(aclvdecDestroyChannel(second), ACL_SUCCESS);
    EXPECT_EQ(aclvdecDestroyChannel(second), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclvdecDestroyChannelDesc(second), ACL_SUCCESS);
}

TEST_F(VdecTest, ThirtyTwoChannelsCanExistAtOnce) {
    Create(H264_MAIN_LEVEL);  // id 0
    std::vector<aclvdecChannelDesc*> more;
    for (uint32_t id = 1; id < 32; ++id) {
        more.push_back(aclvdecCreateChannelDesc());
        aclvdecSetChannelDescChannelId(more.back(), id);
        aclvdecSetChannelDescThreadId(more.back(), reporter_->id());  // one thread serves all
        aclvdecSetChannelDescCallback(more.back(), OnFrame);
        EXPECT_EQ(aclvdecCreateChannel(more.back()), ACL_SUCCESS) << "id " << id;
    }
    for (aclvdecChannelDesc* d : more) {
        EXPECT_EQ(aclvdecDestroyChannel(d), ACL_SUCCESS);
        EXPECT_EQ(aclvdecDestroyChannelDesc(d), ACL_SUCCESS);
    }
}

TEST_F(VdecTest, SettingsAreFixedOnceTheChannelExists) {
    Create(H264_MAIN_LEVEL);
    EXPECT_EQ(aclvdecSetChannelDescOutMode(desc_, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("before aclvdecCreateChannel");
}

// ---- decoding ----

TEST_F(VdecTest, DecodesAnH264ClipFrameByFrame) {
    const auto packets = EncodeClip(false, kW, kH, 12);
    Create(H264_HIGH_LEVEL);
    ExpectMatchesSource(false, packets, DecodeAll(packets));
}

TEST_F(VdecTest, DecodesAnH265ClipFrameByFrame) {
    const auto packets = EncodeClip(true, kW, kH, 8);
    Create(H265_MAIN_LEVEL);
    ExpectMatchesSource(true, packets, DecodeAll(packets));
}

// With B-frames the packets come in decoding order and the pictures in display order: each
// picture lands in the output of the send whose packet it was, and the callbacks come in
// display order.
TEST_F(VdecTest, ReorderedFramesLandInTheirOwnSendsOutput) {
    std::vector<int> display;
    const auto packets = EncodeClip(false, kW, kH, 9, 30, 2, &display);
    ASSERT_EQ(display.size(), packets.size());
    ASSERT_FALSE(std::is_sorted(display.begin(), display.end())) << "no B-frames were made";
    Create(H264_HIGH_LEVEL);
    const auto frames = DecodeAll(packets);
    ASSERT_EQ(frames.size(), packets.size());
    int previous = -1;
    for (const Received& f : frames) {
        ASSERT_EQ(f.ret_code, 0u) << "send " << f.index;
        const int shown = display[f.index];
        EXPECT_GT(shown, previous) << "callbacks in display order";
        previous = shown;
        const auto source = ClipFrame(kW, kH, shown);
        EXPECT_GT(LumaPsnr(f.pixels.data(), f.ws, source.data(), kW, kW, kH), 35.0)
            << "send " << f.index << " (frame " << shown << ")";
    }
}

TEST_F(VdecTest, FastOutputModeDeliversEachFrameBeforeEos) {
    const auto packets = EncodeClip(false, kW, kH, 4);
    ASSERT_EQ(aclvdecSetChannelDescOutMode(desc_, 1), ACL_SUCCESS);
    Create(H264_MAIN_LEVEL);
    for (const auto& p : packets) {
        const size_t before = recorder_.Count();
        ASSERT_EQ(SendFrame(Prepare(p)), ACL_SUCCESS);
        // No eos needed: the picture's callback comes on its own (within seconds, not hanging).
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (recorder_.Count() == before && std::chrono::steady_clock::now() < deadline)
            std::this_thread::yield();
        ASSERT_EQ(recorder_.Count(), before + 1);
    }
    EXPECT_EQ(recorder_.Count(), packets.size());
}

TEST_F(VdecTest, CallbacksRunOnTheChannelsReportThread) {
    const auto packets = EncodeClip(false, kW, kH, 3);
    Create(H264_MAIN_LEVEL);
    for (const Received& f : DecodeAll(packets))
        EXPECT_EQ(f.thread, reporter_->id());
}

TEST_F(VdecTest, EosReturnsOnlyAfterEveryCallbackHasRun) {
    const auto packets = EncodeClip(false, kW, kH, 6);
    Create(H264_MAIN_LEVEL);
    for (const auto& p : packets)
        ASSERT_EQ(SendFrame(Prepare(p)), ACL_SUCCESS);
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    EXPECT_EQ(recorder_.Count(), packets.size());  // no callback for the empty eos send
    // The channel takes a new stream after eos.
    ASSERT_EQ(SendFrame(Prepare(packets[0])), ACL_SUCCESS);
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    EXPECT_EQ(recorder_.Count(), packets.size() + 1);
    EXPECT_EQ(recorder_.frames.back().ret_code, 0u);
}

TEST_F(VdecTest, Nv21OutputSwapsTheChromaOfNv12) {
    const auto packets = EncodeClip(false, kW, kH, 1);
    Create(H264_MAIN_LEVEL);
    const Received nv12 = DecodeAll(packets).at(0);
    aclvdecChannelDesc* other = aclvdecCreateChannelDesc();
    aclvdecSetChannelDescChannelId(other, 1);
    aclvdecSetChannelDescThreadId(other, reporter_->id());
    aclvdecSetChannelDescCallback(other, OnFrame);
    aclvdecSetChannelDescEnType(other, H264_MAIN_LEVEL);
    aclvdecSetChannelDescOutPicFormat(other, PIXEL_FORMAT_YVU_SEMIPLANAR_420);
    ASSERT_EQ(aclvdecCreateChannel(other), ACL_SUCCESS);
    Send* send = Prepare(packets[0]);
    ASSERT_EQ(aclvdecSendFrame(other, send->input, send->output, nullptr, send), ACL_SUCCESS);
    Send* eos = Prepare({}, true);
    acldvppSetStreamDescEos(eos->input, 1);
    ASSERT_EQ(aclvdecSendFrame(other, eos->input, nullptr, nullptr, eos), ACL_SUCCESS);
    const Received nv21 = recorder_.frames.back();
    EXPECT_EQ(aclvdecDestroyChannel(other), ACL_SUCCESS);
    EXPECT_EQ(aclvdecDestroyChannelDesc(other), ACL_SUCCESS);
    EXPECT_EQ(nv21.format, PIXEL_FORMAT_YVU_SEMIPLANAR_420);
    const size_t luma = static_cast<size_t>(nv12.ws) * nv12.hs;
    EXPECT_TRUE(std::equal(nv12.pixels.begin(), nv12.pixels.begin() + luma, nv21.pixels.begin()));
    for (size_t i = luma; i + 1 < luma * 3 / 2; i += 2) {
        ASSERT_EQ(nv12.pixels[i], nv21.pixels[i + 1]) << i;
        ASSERT_EQ(nv12.pixels[i + 1], nv21.pixels[i]) << i;
    }
}

TEST_F(VdecTest, AnOutputWithSizesGetsTheFrameScaledToThem) {
    const auto packets = EncodeClip(false, kW, kH, 1);
    Create(H264_MAIN_LEVEL);
    Send* send = Prepare(packets[0]);
    // 176x144 -> 88x72 at strides 96x72.
    acldvppSetPicDescWidth(send->output, 88);
    acldvppSetPicDescHeight(send->output, 72);
    acldvppSetPicDescWidthStride(send->output, 96);
    acldvppSetPicDescHeightStride(send->output, 72);
    ASSERT_EQ(SendFrame(send), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    const Received f = recorder_.frames.at(0);
    ASSERT_EQ(f.ret_code, 0u);
    EXPECT_EQ(f.width, 88u);
    EXPECT_EQ(f.ws, 96u);
    // Against a 2x2 box average of the source: a smooth picture, so within a few levels.
    const auto source = ClipFrame(kW, kH, 0);
    std::vector<uint8_t> half(88 * 72);
    for (int y = 0; y < 72; ++y)
        for (int x = 0; x < 88; ++x) {
            int s = 0;
            for (int dy = 0; dy < 2; ++dy)
                for (int dx = 0; dx < 2; ++dx)
                    s += source[static_cast<size_t>(2 * y + dy) * kW + 2 * x + dx];
            half[y * 88 + x] = static_cast<uint8_t>((s + 2) / 4);
        }
    EXPECT_GT(LumaPsnr(f.pixels.data(), 96, half.data(), 88, 88, 72), 28.0);
}

TEST_F(VdecTest, ASkippedFrameIsDecodedForReferenceWithANullOutput) {
    const auto packets = EncodeClip(false, kW, kH, 3);
    Create(H264_MAIN_LEVEL);
    Send* first = Prepare(packets[0], true);
    ASSERT_EQ(aclvdecSendSkippedFrame(desc_, first->input, nullptr, first), ACL_SUCCESS);
    ASSERT_EQ(SendFrame(Prepare(packets[1])), ACL_SUCCESS);
    ASSERT_EQ(SendFrame(Prepare(packets[2])), ACL_SUCCESS);
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    ASSERT_EQ(recorder_.frames.size(), 3u);
    EXPECT_TRUE(recorder_.frames[0].output_null);
    EXPECT_EQ(recorder_.frames[0].stream_ret_code, 0u);
    // The P-frames decode from the skipped I-frame.
    const auto reference = ReferenceDecode(false, packets);
    for (int i = 1; i < 3; ++i) {
        const Received& f = recorder_.frames[i];
        ASSERT_EQ(f.ret_code, 0u);
        EXPECT_EQ(LumaPsnr(f.pixels.data(), f.ws, reference[i].data(), kW, kW, kH), 99.0);
    }
}

// ---- bad streams: an error code on that frame, the channel goes on ----

TEST_F(VdecTest, GarbageBytesGiveThatFrameAnErrorCode) {
    const auto packets = EncodeClip(false, kW, kH, 3);
    Create(H264_MAIN_LEVEL);
    std::mt19937 rng(7);
    std::vector<uint8_t> garbage(500);
    for (auto& b : garbage)
        b = static_cast<uint8_t>(rng());
    ASSERT_EQ(SendFrame(Prepare(packets[0])), ACL_SUCCESS);
    ASSERT_EQ(SendFrame(Prepare(garbage)), ACL_SUCCESS);  // the data is checked when decoded
    ASSERT_EQ(SendFrame(Prepare(packets[1])), ACL_SUCCESS);
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    ASSERT_EQ(recorder_.frames.size(), 3u);
    for (const Received& f : recorder_.frames) {
        if (f.index == 1) {
            EXPECT_NE(f.ret_code, 0u);
            EXPECT_EQ(f.stream_ret_code, f.ret_code);
        } else {
            EXPECT_EQ(f.ret_code, 0u) << "frame " << f.index;
        }
    }
}

TEST_F(VdecTest, ATruncatedFrameGetsAnErrorCodeNotACrash) {
    const auto packets = EncodeClip(false, kW, kH, 2);
    Create(H264_MAIN_LEVEL);
    std::vector<uint8_t> truncated(packets[0].begin(), packets[0].begin() + packets[0].size() / 2);
    ASSERT_EQ(SendFrame(Prepare(truncated)), ACL_SUCCESS);
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    ASSERT_EQ(recorder_.frames.size(), 1u);
    EXPECT_NE(recorder_.frames[0].ret_code, 0u);
}

TEST_F(VdecTest, AStreamLargerThanTheChannelsOutputSizeIsAnErrorPerFrame) {
    const auto packets = EncodeClip(false, kW, kH, 1);
    ASSERT_EQ(aclvdecSetChannelDescOutPicWidth(desc_, 160), ACL_SUCCESS);  // < 176
    Create(H264_MAIN_LEVEL);
    const auto frames = DecodeAll(packets);
    ASSERT_EQ(frames.size(), 1u);
    EXPECT_EQ(frames[0].ret_code, static_cast<uint32_t>(ACL_ERROR_FAILURE));
}

// ---- rules checked at the send ----

TEST_F(VdecTest, SendingToAChannelNotCreatedIsRefused) {
    Send* send = Prepare({0, 0, 1, 0x65});
    EXPECT_EQ(SendFrame(send), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("aclvdecCreateChannel");
}

TEST_F(VdecTest, AnEmptyFrameIsRefusedUnlessItIsEos) {
    Create(H264_MAIN_LEVEL);
    Send* send = Prepare({});
    EXPECT_EQ(SendFrame(send), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("only an end-of-stream send");
}

TEST_F(VdecTest, AnOutputSettingSomeSizesIsRefused) {
    Create(H264_MAIN_LEVEL);
    Send* send = Prepare({0, 0, 1, 0x65});
    acldvppSetPicDescWidth(send->output, 176);
    EXPECT_EQ(SendFrame(send), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("set all four");
}

TEST_F(VdecTest, OutputStridesBreakingTheRulesAreRefused) {
    Create(H264_MAIN_LEVEL);
    Send* send = Prepare({0, 0, 1, 0x65});
    acldvppSetPicDescWidth(send->output, 176);
    acldvppSetPicDescHeight(send->output, 144);
    acldvppSetPicDescWidthStride(send->output, 180);  // not a multiple of 16
    acldvppSetPicDescHeightStride(send->output, 144);
    EXPECT_EQ(SendFrame(send), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("multiple of 16");
}

// aclvdecSendFrame: an output's widthStride is 16-aligned; below a width of 16, 32-aligned.
TEST_F(VdecTest, ASixteenWideOutputMayHaveAWidthStrideOf16) {
    const auto packets = EncodeClip(false, kW, kH, 1);
    Create(H264_MAIN_LEVEL);
    Send* send = Prepare(packets[0]);
    acldvppSetPicDescWidth(send->output, 16);
    acldvppSetPicDescHeight(send->output, 12);
    acldvppSetPicDescWidthStride(send->output, 16);
    acldvppSetPicDescHeightStride(send->output, 12);
    ASSERT_EQ(SendFrame(send), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    const Received f = recorder_.frames.at(0);
    EXPECT_EQ(f.ret_code, 0u);
    EXPECT_EQ(f.width, 16u);
    EXPECT_EQ(f.ws, 16u);
}

TEST_F(VdecTest, AnOutputNarrowerThan16NeedsAWidthStrideAlignedTo32) {
    Create(H264_MAIN_LEVEL);
    Send* send = Prepare({0, 0, 1, 0x65});
    acldvppSetPicDescWidth(send->output, 12);
    acldvppSetPicDescHeight(send->output, 12);
    acldvppSetPicDescWidthStride(send->output, 16);
    acldvppSetPicDescHeightStride(send->output, 12);
    EXPECT_EQ(SendFrame(send), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("of 32 for a width below 16");
    acldvppSetPicDescWidthStride(send->output, 32);
    EXPECT_EQ(SendFrame(send), ACL_SUCCESS) << aclGetRecentErrMsg();
}

TEST_F(VdecTest, HostMemoryInputIsRefused) {
    Create(H264_MAIN_LEVEL);
    Send* send = Prepare({0, 0, 1, 0x65});
    std::vector<uint8_t> host(16, 0);
    acldvppSetStreamDescData(send->input, host.data());
    EXPECT_EQ(SendFrame(send), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("media memory");
}

namespace {
struct EosFromCallback {
    aclvdecChannelDesc* channel;
    acldvppStreamDesc* eos;
    std::atomic<int> rc{-1};
};
EosFromCallback* g_eos_from_callback = nullptr;
void SendEosInCallback(acldvppStreamDesc*, acldvppPicDesc*, void*) {
    EosFromCallback* e = g_eos_from_callback;
    if (e->rc.load() == -1) e->rc.store(aclvdecSendFrame(e->channel, e->eos, nullptr, nullptr, e));
}
}  // namespace

TEST_F(VdecTest, EosFromInsideACallbackIsRefusedInsteadOfDeadlocking) {
    const auto packets = EncodeClip(false, kW, kH, 1);
    ASSERT_EQ(aclvdecSetChannelDescCallback(desc_, SendEosInCallback), ACL_SUCCESS);
    Create(H264_MAIN_LEVEL);
    EosFromCallback state;
    state.channel = desc_;
    state.eos = acldvppCreateStreamDesc();
    acldvppSetStreamDescEos(state.eos, 1);
    g_eos_from_callback = &state;
    ASSERT_EQ(SendFrame(Prepare(packets[0])), ACL_SUCCESS);
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    EXPECT_EQ(state.rc.load(), ACL_ERROR_INVALID_PARAM);
    acldvppDestroyStreamDesc(state.eos);
}

// ---- the input's lifetime ----
// CANN documents no wait for the callback before an input stream is reused; programs read the
// next packet into the same buffer, or free it, as soon as aclvdecSendFrame returns.

TEST_F(VdecTest, TheInputMayBeFreedRightAfterSendFrame) {
    const auto packets = EncodeClip(false, kW, kH, 6);
    Create(H264_HIGH_LEVEL);
    for (const auto& p : packets) {
        Send* s = Prepare(p);
        ASSERT_EQ(SendFrame(s), ACL_SUCCESS) << aclGetRecentErrMsg();
        s->in_buf.reset();  // acldvppFree before the frame is decoded
    }
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    std::lock_guard lock(recorder_.mutex);
    ExpectMatchesSource(false, packets, recorder_.frames);
}

TEST_F(VdecTest, TheInputMayBeRefilledWithTheNextPacketRightAfterSendFrame) {
    const auto packets = EncodeClip(true, kW, kH, 6);
    Create(H265_MAIN_LEVEL);
    size_t largest = 0;
    for (const auto& p : packets)
        largest = std::max(largest, p.size());
    MediaBuffer shared(largest);
    for (const auto& p : packets) {
        ASSERT_EQ(
            aclrtMemcpy(shared.get(), shared.size(), p.data(), p.size(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
        Send* s = Prepare({});
        acldvppSetStreamDescData(s->input, shared.get());
        acldvppSetStreamDescSize(s->input, static_cast<uint32_t>(p.size()));
        ASSERT_EQ(SendFrame(s), ACL_SUCCESS) << aclGetRecentErrMsg();
    }
    ASSERT_EQ(SendEos(), ACL_SUCCESS);
    std::lock_guard lock(recorder_.mutex);
    ExpectMatchesSource(true, packets, recorder_.frames);
}
