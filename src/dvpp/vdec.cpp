#include "dvpp/vdec.h"

#include <bitset>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

extern "C" {
#include <libavutil/frame.h>
}

#include "core/error.h"
#include "core/log.h"
#include "dvpp/chip.h"

namespace openacl::dvpp {

LiveSet<aclvdecChannelDesc>& VdecChannelDescs() {
    static auto* set = new LiveSet<aclvdecChannelDesc>;
    return *set;
}

LiveSet<aclvdecFrameConfig>& VdecFrameConfigs() {
    static auto* set = new LiveSet<aclvdecFrameConfig>;
    return *set;
}

namespace {

struct ChannelIds {
    std::mutex mutex;
    std::bitset<kVdecMaxChannels> used;
};

ChannelIds& Ids() {
    static auto* ids = new ChannelIds;
    return *ids;
}

bool HasStartCode(const uint8_t* data, uint32_t size) {
    for (uint32_t i = 0; i + 2 < size; ++i) {
        if (data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1) return true;
    }
    return false;
}

}  // namespace

uint32_t VdecChannelIds() {
    return IsNewDvpp(CurrentChip()) ? 256 : 32;
}

aclError VdecChannel::Create(aclvdecChannelDesc* desc) {
    if (desc->channel != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channelDesc %p already describes a created channel (id %u): destroy it "
                    "with aclvdecDestroyChannel first",
                    static_cast<void*>(desc), desc->channel_id);
    }
    if (desc->callback == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the channel has no callback: set one with aclvdecSetChannelDescCallback "
                    "before aclvdecCreateChannel");
    }
    if (desc->thread_id == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the channel has no report thread: pass the id of the thread that loops on "
                    "aclrtProcessReport to aclvdecSetChannelDescThreadId");
    }
    std::unique_ptr<VdecChannel> channel(new VdecChannel(*desc));
    std::string error;
    channel->decoder_ =
        VideoDecoder::Open(desc->en_type == H265_MAIN_LEVEL, desc->out_mode == 1, &error);
    if (channel->decoder_ == nullptr) return Fail(ACL_ERROR_FAILURE, "%s", error.c_str());
    {
        std::lock_guard lock(Ids().mutex);
        if (Ids().used.test(desc->channel_id)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "VDEC channel id %u is in use by another channel: ids are 0..%u, one "
                        "channel each (aclvdecSetChannelDescChannelId)",
                        desc->channel_id, VdecChannelIds() - 1);
        }
        Ids().used.set(desc->channel_id);
        channel->holds_id_ = true;
    }
    if (aclError rc = channel->streams_.Create(desc->thread_id)) return rc;
    desc->channel = channel.release();
    return ACL_SUCCESS;
}

aclError VdecChannel::Destroy(aclvdecChannelDesc* desc) {
    if (desc->channel == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channelDesc %p has no channel: aclvdecCreateChannel was not called or the "
                    "channel was already destroyed",
                    static_cast<void*>(desc));
    }
    VdecChannel* channel = desc->channel;
    {
        std::lock_guard lock(channel->sends_mutex_);
        channel->streams_.Submit([channel] { channel->Flush(); });
    }
    const aclError rc = channel->streams_.Drain("aclvdecDestroyChannel");
    if (rc == ACL_ERROR_INVALID_PARAM) return rc;  // on the report thread: nothing released
    delete channel;
    desc->channel = nullptr;
    return rc;  // a callback that threw is reported, the channel is gone all the same
}

VdecChannel::~VdecChannel() {
    streams_.Destroy();
    if (!holds_id_) return;
    std::lock_guard lock(Ids().mutex);
    Ids().used.reset(desc_.channel_id);
}

aclError VdecChannel::Send(acldvppStreamDesc* input, acldvppPicDesc* output, void* user_data) {
    const auto* data = static_cast<const uint8_t*>(input->data);
    const uint32_t size = input->size;
    const bool eos = input->eos != 0;
    // The frame's bytes are copied now (a compressed frame is small): programs refill or free
    // the input once this returns, and CANN documents no wait for the callback first.
    std::shared_ptr<const std::vector<uint8_t>> bytes;
    if (size > 0) bytes = std::make_shared<const std::vector<uint8_t>>(data, data + size);
    {
        std::lock_guard lock(sends_mutex_);
        if (size > 0) {
            const int64_t tag = next_tag_++;
            Pending pending{input, output, user_data, {}};
            if (output != nullptr) pending.out = Snapshot(*output);
            streams_.Submit([this, tag, pending, bytes] {
                pending_.emplace(tag, pending);
                Decode(tag, bytes->data(), static_cast<uint32_t>(bytes->size()));
            });
        }
        if (eos) streams_.Submit([this] { Flush(); });
    }
    if (!eos) return ACL_SUCCESS;
    return streams_.Drain("aclvdecSendFrame with eos");
}

void VdecChannel::Decode(int64_t tag, const uint8_t* data, uint32_t size) {
    std::string error;
    if (!HasStartCode(data, size)) {
        OPENACL_LOG_ERROR("VDEC channel %u: frame %lld has no Annex-B start code (00 00 01)",
                          desc_.channel_id, static_cast<long long>(tag));
        Finish(tag, kVdecStreamError);
        return;
    }
    std::vector<VideoDecoder::Decoded> decoded;
    const bool ok = decoder_->Send(data, size, tag, &decoded, &error);
    for (const auto& d : decoded)
        Place(d);
    if (!ok) {
        OPENACL_LOG_ERROR("VDEC channel %u: frame %lld: %s", desc_.channel_id,
                          static_cast<long long>(tag), error.c_str());
        Finish(tag, kVdecStreamError);
    }
}

void VdecChannel::Flush() {
    std::vector<VideoDecoder::Decoded> decoded;
    decoder_->Flush(&decoded);
    for (const auto& d : decoded)
        Place(d);
    while (!pending_.empty())
        Finish(pending_.begin()->first, kVdecNoPicture);
}

void VdecChannel::Place(const VideoDecoder::Decoded& decoded) {
    auto it = pending_.find(decoded.tag);
    if (it == pending_.end()) return;  // its send already failed
    const AVFrame* frame = decoded.frame;
    const uint32_t max_w = desc_.out_width ? desc_.out_width : kVideoMaxSide;
    const uint32_t max_h = desc_.out_height ? desc_.out_height : kVideoMaxSide;
    const auto fw = static_cast<uint32_t>(frame->width);
    const auto fh = static_cast<uint32_t>(frame->height);
    if (fw < kVideoMinSide || fh < kVideoMinSide || fw > max_w || fh > max_h) {
        OPENACL_LOG_ERROR(
            "VDEC channel %u: the stream is %ux%u; this channel decodes %ux%u to "
            "%ux%u (aclvdecSetChannelDescOutPicWidth/Height)",
            desc_.channel_id, fw, fh, kVideoMinSide, kVideoMinSide, max_w, max_h);
        Finish(decoded.tag, kVdecStreamError);
        return;
    }
    Pending& p = it->second;
    if (p.output == nullptr) {  // skipped: decoded for reference only
        Finish(decoded.tag, decoded.corrupt ? kVdecStreamError : 0);
        return;
    }
    Picture out = p.out;
    if (out.format != PIXEL_FORMAT_YUV_SEMIPLANAR_420 &&
        out.format != PIXEL_FORMAT_YVU_SEMIPLANAR_420) {
        out.format = desc_.out_format;
    }
    if (out.width == 0) {  // no sizes: the stream's own, at the documented strides
        out.width = fw & ~1u;
        out.height = fh & ~1u;
        out.ws = AlignUp(out.width, 16);
        out.hs = AlignUp(out.height, 2);
    }
    const uint64_t needed = static_cast<uint64_t>(out.ws) * out.hs * 3 / 2;
    std::string error;
    aclError rc = CheckMediaBuffer(out.data, needed, work(), "the output picture", &error);
    if (rc == ACL_SUCCESS && out.size < needed) {
        error = "the output picture's size " + std::to_string(out.size) + " is below the " +
                std::to_string(needed) + " bytes a " + std::to_string(out.width) + "x" +
                std::to_string(out.height) + " NV12/NV21 picture at strides " +
                std::to_string(out.ws) + "x" + std::to_string(out.hs) + " needs";
        rc = ACL_ERROR_INVALID_PARAM;
    }
    if (rc == ACL_SUCCESS && !decoder_->Write(frame, out, &error)) rc = kVdecStreamError;
    if (rc != ACL_SUCCESS) {
        OPENACL_LOG_ERROR("VDEC channel %u: %s", desc_.channel_id, error.c_str());
        Finish(decoded.tag, rc);
        return;
    }
    if (PicDescs().Contains(p.output)) {
        p.output->format = out.format;
        p.output->width = out.width;
        p.output->height = out.height;
        p.output->width_stride = out.ws;
        p.output->height_stride = out.hs;
    }
    Finish(decoded.tag, decoded.corrupt ? kVdecStreamError : 0);
}

void VdecChannel::Finish(int64_t tag, uint32_t ret_code) {
    auto it = pending_.find(tag);
    if (it == pending_.end()) return;
    Pending p = it->second;
    pending_.erase(it);
    // The descriptors are the caller's: one destroyed meanwhile is not written.
    if (p.output != nullptr && PicDescs().Contains(p.output)) p.output->ret_code = ret_code;
    if (StreamDescs().Contains(p.input)) p.input->ret_code = ret_code;
    aclvdecCallback callback = desc_.callback;
    streams_.Deliver([callback, p] { callback(p.input, p.output, p.user_data); });
}

}  // namespace openacl::dvpp
