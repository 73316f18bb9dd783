#include "dvpp/venc.h"

#include <cstring>
#include <set>
#include <vector>

#include "core/check.h"
#include "core/error.h"
#include "core/log.h"
#include "core/runtime.h"
#include "dvpp/chip.h"

namespace openacl::dvpp {

LiveSet<aclvencChannelDesc>& VencChannelDescs() {
    static auto* set = new LiveSet<aclvencChannelDesc>;
    return *set;
}

LiveSet<aclvencFrameConfig>& VencFrameConfigs() {
    static auto* set = new LiveSet<aclvencFrameConfig>;
    return *set;
}

namespace {

struct ChannelIds {
    std::mutex mutex;
    std::set<uint32_t> used;
};

ChannelIds& Ids() {
    static auto* ids = new ChannelIds;
    return *ids;
}

}  // namespace

namespace {

bool IsAtlas200IA2() {
    return Runtime::Get().config().soc_name.rfind("Ascend310B", 0) == 0;
}

}  // namespace

uint32_t VencMinSide() {
    return IsAtlas200IA2() ? 114 : 128;
}

uint32_t VencMaxSide() {
    if (IsAtlas200IA2()) return 8192;
    return IsNewDvpp(CurrentChip()) ? 4096 : 1920;
}

bool VencLimitsH264Pixels() {
    return CurrentChip() == DvppChip::k310P;
}

uint32_t VencMaxSrcRate() {
    return IsNewDvpp(CurrentChip()) ? 240 : 120;
}

aclError VencChannel::Create(aclvencChannelDesc* desc) {
    // The training parts (910, 910B, 910_93) have no video encoder (acl_dvpp reference 6.10).
    if (Runtime::Get().config().soc_name.rfind("Ascend910", 0) == 0) {
        return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "VENC is not available on %s: only the 310, 310P and Atlas 200I/500 A2 "
                    "encode video",
                    ChipName().c_str());
    }
    if (desc->channel != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channelDesc %p already describes a created channel (id %u): destroy it "
                    "with aclvencDestroyChannel first",
                    static_cast<void*>(desc), desc->channel_id);
    }
    if (desc->callback == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the channel has no callback: set one with aclvencSetChannelDescCallback "
                    "before aclvencCreateChannel");
    }
    if (desc->thread_id == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the channel has no report thread: pass the id of the thread that loops on "
                    "aclrtProcessReport to aclvencSetChannelDescThreadId");
    }
    if (desc->width == 0 || desc->height == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the picture size is %ux%u: set it with aclvencSetChannelDescPicWidth and "
                    "...PicHeight (%u..%u, even) before aclvencCreateChannel",
                    desc->width, desc->height, VencMinSide(), VencMaxSide());
    }
    if (VencLimitsH264Pixels() && desc->en_type != H265_MAIN_LEVEL &&
        static_cast<uint64_t>(desc->width) * desc->height > kVencMaxH264Pixels) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the picture size is %ux%u; H.264 encodes at most 4096x2304 pixels on %s",
                    desc->width, desc->height, ChipName().c_str());
    }
    std::unique_ptr<VencChannel> channel(new VencChannel(*desc));
    EncoderSettings& s = channel->settings_;
    s.format = desc->en_type;
    s.width = desc->width;
    s.height = desc->height;
    s.key_frame_interval = desc->key_frame_interval ? desc->key_frame_interval : 30;
    // rcMode 0 is CBR on 310 and VBR on 310P and the Atlas 200I/500 A2.
    const uint32_t default_rc = IsNewDvpp(CurrentChip()) ? 1 : 2;
    s.rc_mode = desc->rc_mode == 0 ? default_rc : desc->rc_mode;
    s.frame_rate = desc->src_rate ? desc->src_rate : 30;
    s.max_kbps = desc->max_bit_rate ? desc->max_bit_rate : 300;
    if (channel->desc_.pic_format == PIXEL_FORMAT_YUV_400) {
        channel->desc_.pic_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    }
    std::string error;
    channel->encoder_ = VideoEncoder::Open(s, &error);
    if (channel->encoder_ == nullptr)
        return Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "%s", error.c_str());
    uint32_t id = 0;
    {
        std::lock_guard lock(Ids().mutex);
        while (Ids().used.count(id))
            ++id;
        Ids().used.insert(id);
    }
    channel->desc_.channel_id = id;
    channel->holds_id_ = true;
    if (aclError rc = channel->streams_.Create(desc->thread_id)) return rc;
    desc->channel_id = id;
    desc->channel = channel.release();
    return ACL_SUCCESS;
}

aclError VencChannel::Destroy(aclvencChannelDesc* desc) {
    if (desc->channel == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channelDesc %p has no channel: aclvencCreateChannel was not called or the "
                    "channel was already destroyed",
                    static_cast<void*>(desc));
    }
    VencChannel* channel = desc->channel;
    {
        std::lock_guard lock(channel->sends_mutex_);
        channel->streams_.Submit([channel] { channel->Flush(); });
    }
    const aclError rc = channel->streams_.Drain("aclvencDestroyChannel");
    if (rc == ACL_ERROR_INVALID_PARAM) return rc;  // on the report thread: nothing released
    delete channel;
    desc->channel = nullptr;
    return rc;
}

VencChannel::~VencChannel() {
    streams_.Destroy();
    if (!holds_id_) return;
    std::lock_guard lock(Ids().mutex);
    Ids().used.erase(desc_.channel_id);
}

aclError VencChannel::Send(acldvppPicDesc* input, const Picture* pic, bool force_key, bool eos,
                           void* user_data) {
    Pending pending{input, user_data, nullptr, 0};
    Picture copy;
    Frame frame;
    if (pic != nullptr) {
        // The packet's buffer: media memory of this context, freed after the callback. A
        // packet larger than the raw picture is refused (it never is at VENC's bit rates).
        pending.capacity = pic->ws * pic->height * 3 / 2 + 4096;
        if (aclError rc = acldvppMalloc(&pending.buffer, pending.capacity)) return rc;
        // The planes are copied now, one copy each: programs free or refill the input as soon
        // as this returns, and that works on the chip, so the encoder must not depend on it.
        const size_t luma = static_cast<size_t>(pic->ws) * pic->height;
        frame = TakeFrame();
        frame->resize(luma + luma / 2);
        std::memcpy(frame->data(), pic->data, luma);
        std::memcpy(frame->data() + luma, pic->data + static_cast<size_t>(pic->ws) * pic->hs,
                    luma / 2);
        copy = *pic;
        copy.data = frame->data();
        copy.hs = pic->height;
    }
    {
        std::lock_guard lock(sends_mutex_);
        if (pic != nullptr) {
            const int64_t tag = next_tag_++;
            const void* original = pic->data;
            const uint64_t bytes = static_cast<uint64_t>(pic->ws) * pic->hs * 3 / 2;
            streams_.Submit([this, tag, pending, copy, frame, force_key, original, bytes] {
                pending_.emplace(tag, pending);
                if (check::On()) NoteEarlyRelease(tag, original, bytes);
                Encode(tag, copy, force_key);
                ReturnFrame(frame);
            });
        }
        if (eos) streams_.Submit([this] { Flush(); });
    }
    if (!eos) return ACL_SUCCESS;
    return streams_.Drain("aclvencSendFrame with eos");
}

VencChannel::Frame VencChannel::TakeFrame() {
    {
        std::lock_guard lock(frames_mutex_);
        if (!spare_frames_.empty()) {
            Frame frame = std::move(spare_frames_.back());
            spare_frames_.pop_back();
            return frame;
        }
    }
    return std::make_shared<std::vector<uint8_t>>();
}

void VencChannel::ReturnFrame(Frame frame) {
    // A few spares cover a steady stream of sends; a burst's extra copies are freed.
    constexpr size_t kSpareFrames = 4;
    std::lock_guard lock(frames_mutex_);
    if (spare_frames_.size() < kSpareFrames) spare_frames_.push_back(std::move(frame));
}

void VencChannel::NoteEarlyRelease(int64_t tag, const void* data, uint64_t bytes) {
    std::string error;
    if (CheckMediaBuffer(data, bytes, work(), "the input picture", &error) == ACL_SUCCESS) return;
    OPENACL_LOG_WARNING(
        "VENC channel %u, frame %lld: %s. CANN documents that an input is released only after "
        "its aclvencCallback; openacl encodes the copy aclvencSendFrame took",
        desc_.channel_id, static_cast<long long>(tag), error.c_str());
}

void VencChannel::Encode(int64_t tag, const Picture& pic, bool force_key) {
    std::string error;
    if (encoder_ == nullptr) {  // a new stream after an end of stream
        encoder_ = VideoEncoder::Open(settings_, &error);
        if (encoder_ == nullptr) {
            OPENACL_LOG_ERROR("VENC channel %u: %s", desc_.channel_id, error.c_str());
            Finish(tag, nullptr, 0, kVencEncodeError);
            return;
        }
    }
    std::vector<VideoEncoder::Encoded> packets;
    const bool ok = encoder_->Send(pic, tag, force_key, &packets, &error);
    for (const auto& p : packets)
        Finish(p.tag, p.data.data(), static_cast<uint32_t>(p.data.size()), 0);
    if (!ok) {
        OPENACL_LOG_ERROR("VENC channel %u: %s", desc_.channel_id, error.c_str());
        Finish(tag, nullptr, 0, kVencEncodeError);
    }
}

void VencChannel::Flush() {
    if (encoder_ != nullptr) {
        std::vector<VideoEncoder::Encoded> packets;
        encoder_->Flush(&packets);
        for (const auto& p : packets)
            Finish(p.tag, p.data.data(), static_cast<uint32_t>(p.data.size()), 0);
        encoder_.reset();  // an encoder takes nothing after its flush: a new one next time
    }
    while (!pending_.empty())
        Finish(pending_.begin()->first, nullptr, 0, kVencEncodeError);
}

void VencChannel::Finish(int64_t tag, const uint8_t* data, uint32_t size, uint32_t ret_code) {
    auto it = pending_.find(tag);
    if (it == pending_.end()) return;
    Pending p = it->second;
    pending_.erase(it);
    if (size > p.capacity) {
        OPENACL_LOG_ERROR("VENC channel %u: a %u-byte packet exceeds its %u-byte buffer",
                          desc_.channel_id, size, p.capacity);
        size = 0;
        ret_code = kVencEncodeError;
    }
    if (size > 0) std::memcpy(p.buffer, data, size);
    auto* out = StreamDescs().Add(new acldvppStreamDesc);
    out->data = size > 0 ? p.buffer : nullptr;
    out->size = size;
    out->format = desc_.en_type;
    out->timestamp = static_cast<uint64_t>(tag);
    out->ret_code = ret_code;
    aclvencCallback callback = desc_.callback;
    streams_.Deliver([callback, p, out] {
        // The output is the library's: released once the callback has returned, even if it
        // threw.
        struct Release {
            acldvppStreamDesc* out;
            void* buffer;
            ~Release() {
                StreamDescs().Remove(out);
                delete out;
                if (buffer != nullptr) acldvppFree(buffer);
            }
        } release{out, p.buffer};
        callback(p.input, out, p.user_data);
    });
}

}  // namespace openacl::dvpp
