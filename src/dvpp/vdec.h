// Video decode channels (aclvdecChannelDesc): the settings a channel is created with, and the
// channel itself: a libavcodec decoder fed on the channel's work stream, whose pictures go to
// the callback on the report thread (VideoStreams). Every send gets exactly one callback:
// with its picture, with an error code in the picture's retCode, or, when the stream ended
// without a picture for it, with kVdecNoPicture.
#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include "acl/ops/acl_dvpp.h"
#include "core/live_set.h"
#include "dvpp/picture.h"
#include "dvpp/video_channel.h"
#include "dvpp/video_decoder.h"

namespace openacl::dvpp {
class VdecChannel;

// retCode of a send whose data produced no picture (the documented ERR_DECODE_NOPIC).
constexpr uint32_t kVdecNoPicture = 0x20000;
// retCode of a frame libavcodec could not decode, or one decoded with concealed errors.
constexpr uint32_t kVdecStreamError = ACL_ERROR_FAILURE;
// Channel ids are 0..31 on 310/910 and 0..255 on 310P and A2/A3; one live channel per id.
constexpr uint32_t kVdecMaxChannels = 256;
uint32_t VdecChannelIds();  // 32 or 256, for the emulated chip
}  // namespace openacl::dvpp

struct aclvdecChannelDesc {
    uint32_t channel_id = 0;
    uint64_t thread_id = 0;
    aclvdecCallback callback = nullptr;
    acldvppStreamFormat en_type = H265_MAIN_LEVEL;
    acldvppPixelFormat out_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    uint32_t out_width = 0;  // 0: up to kVideoMaxSide
    uint32_t out_height = 0;
    uint32_t ref_frame_num = 0;
    uint32_t bit_depth = 0;
    uint32_t out_mode = 0;
    uint32_t csc_matrix = ACL_DVPP_CSC_MATRIX_BT601_WIDE;
    // Set while the channel exists (owned: deleted by ...DestroyChannel).
    openacl::dvpp::VdecChannel* channel = nullptr;
};

struct aclvdecFrameConfig {};  // reserved by the API: no fields

namespace openacl::dvpp {

LiveSet<aclvdecChannelDesc>& VdecChannelDescs();
LiveSet<aclvdecFrameConfig>& VdecFrameConfigs();

class VdecChannel {
 public:
    // Takes the channel id, opens the decoder, creates the streams and subscribes the thread.
    static aclError Create(aclvdecChannelDesc* desc);
    // Flushes the decoder (every pending send gets its callback), waits for the callbacks,
    // releases everything.
    static aclError Destroy(aclvdecChannelDesc* desc);
    ~VdecChannel();

    // A checked send: output is null for a skipped frame. Queues the decode; with eos, also
    // the flush, and waits until every callback has returned.
    aclError Send(acldvppStreamDesc* input, acldvppPicDesc* output, void* user_data);

    Stream* work() const { return streams_.work(); }

 private:
    struct Pending {
        acldvppStreamDesc* input;
        acldvppPicDesc* output;  // null: skipped frame
        void* user_data;
        Picture out;  // the output as sent (all sizes zero: take the stream's)
    };

    explicit VdecChannel(const aclvdecChannelDesc& desc) : desc_(desc) { desc_.channel = nullptr; }
    void Decode(int64_t tag, const uint8_t* data, uint32_t size);
    void Flush();
    void Place(const VideoDecoder::Decoded& decoded);
    void Finish(int64_t tag, uint32_t ret_code);

    aclvdecChannelDesc desc_;  // the settings at creation (its `channel` stays empty)
    VideoStreams streams_;
    std::unique_ptr<VideoDecoder> decoder_;  // used on the work stream only
    std::map<int64_t, Pending> pending_;     // sends waiting for a picture (work stream only)
    std::mutex sends_mutex_;                 // orders tags with their work on the stream
    int64_t next_tag_ = 0;
    bool holds_id_ = false;  // the channel id is this channel's (released on destruction)
};

}  // namespace openacl::dvpp
