// Video encode channels (aclvencChannelDesc): the settings a channel is created with, and the
// channel: an encoder (VideoEncoder) fed on the channel's work stream, each packet handed to
// the callback on the report thread in a stream descriptor the library owns (valid during
// the callback only, like the hardware's internal output buffer).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "acl/ops/acl_dvpp.h"
#include "core/live_set.h"
#include "dvpp/picture.h"
#include "dvpp/video_channel.h"
#include "dvpp/video_encoder.h"

namespace openacl::dvpp {
class VencChannel;

// VENC resolutions (CANN's VENC restrictions): 128x128 to 1920x1920 on 310; 128 to 4096 a side
// on 310P, where H.264 is at most 4096x2304 pixels; 114 to 8192 a side on the Atlas 200I/500
// A2 (Ascend310B).
uint32_t VencMinSide();  // for the emulated chip
uint32_t VencMaxSide();
// True where H.264 is limited to kVencMaxH264Pixels (the 310P).
bool VencLimitsH264Pixels();
constexpr uint64_t kVencMaxH264Pixels = 4096ull * 2304;
// Largest srcRate (fps): 120 on 310, 240 on 310P.
uint32_t VencMaxSrcRate();
// retCode of a picture the encoder could not encode.
constexpr uint32_t kVencEncodeError = ACL_ERROR_FAILURE;
}  // namespace openacl::dvpp

struct aclvencChannelDesc {
    uint32_t channel_id = 0;  // assigned by aclvencCreateChannel
    uint64_t thread_id = 0;
    aclvencCallback callback = nullptr;
    acldvppStreamFormat en_type = H265_MAIN_LEVEL;
    acldvppPixelFormat pic_format = PIXEL_FORMAT_YUV_400;  // unset: NV12
    uint32_t width = 0;
    uint32_t height = 0;
    uint32_t key_frame_interval = 0;  // 0: 30
    void* buf_addr = nullptr;         // kept for the getters: the output buffer is internal
    uint32_t buf_size = 0;
    uint32_t rc_mode = 0;       // 0: CBR (310)
    uint32_t src_rate = 0;      // 0: 30 fps
    uint32_t max_bit_rate = 0;  // 0: 300 kbit/s
    uint32_t max_ip_prop = 0;   // kept for the getters; libx264/libx265 choose the I/P ratio
    // Set while the channel exists (owned: deleted by ...DestroyChannel).
    openacl::dvpp::VencChannel* channel = nullptr;
};

struct aclvencFrameConfig {
    uint8_t force_i_frame = 0;
    uint8_t eos = 0;
};

namespace openacl::dvpp {

LiveSet<aclvencChannelDesc>& VencChannelDescs();
LiveSet<aclvencFrameConfig>& VencFrameConfigs();

class VencChannel {
 public:
    static aclError Create(aclvencChannelDesc* desc);
    // Flushes the encoder (every picture sent gets its callback), waits, releases.
    static aclError Destroy(aclvencChannelDesc* desc);
    ~VencChannel();

    // A checked send: `pic` is the picture VENC reads (the channel's format and size, the
    // strides resolved), whose planes are copied before this returns. input (and pic) are null
    // for a bare end-of-stream; eos waits for the callbacks.
    aclError Send(acldvppPicDesc* input, const Picture* pic, bool force_key, bool eos,
                  void* user_data);

    Stream* work() const { return streams_.work(); }
    const aclvencChannelDesc& settings() const { return desc_; }

 private:
    struct Pending {
        acldvppPicDesc* input;
        void* user_data;
        void* buffer;  // the packet's media buffer, allocated with the send
        uint32_t capacity;
    };

    using Frame = std::shared_ptr<std::vector<uint8_t>>;

    explicit VencChannel(const aclvencChannelDesc& desc) : desc_(desc) { desc_.channel = nullptr; }
    // A buffer for one picture's planes: a spare one, or a new one.
    Frame TakeFrame();
    void ReturnFrame(Frame frame);
    void Encode(int64_t tag, const Picture& pic, bool force_key);
    // Under OPENACL_CHECK: warns when the caller's input was freed before its callback.
    void NoteEarlyRelease(int64_t tag, const void* data, uint64_t bytes);
    void Flush();
    void Finish(int64_t tag, const uint8_t* data, uint32_t size, uint32_t ret_code);

    aclvencChannelDesc desc_;
    EncoderSettings settings_;
    VideoStreams streams_;
    std::unique_ptr<VideoEncoder> encoder_;  // work stream only; null after a flush
    std::map<int64_t, Pending> pending_;     // work stream only
    std::mutex sends_mutex_;
    std::mutex frames_mutex_;
    std::vector<Frame> spare_frames_;  // frames_mutex_
    int64_t next_tag_ = 0;
    bool holds_id_ = false;  // the channel id is this channel's (released on destruction)
};

}  // namespace openacl::dvpp
