// One H.264 (libx264) or H.265 (libx265) encoder through FFmpeg's libavcodec, fed NV12/NV21
// pictures one at a time. Like the decoder, each picture carries a tag that comes back on the
// packet it produced. Encoders are set up for VENC's behaviour: no B-frames, no look-ahead,
// so each picture gives its packet at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dvpp/picture.h"

struct AVCodecContext;
struct AVFrame;
struct AVPacket;

namespace openacl::dvpp {

struct EncoderSettings {
    acldvppStreamFormat format = H265_MAIN_LEVEL;
    uint32_t width = 0;
    uint32_t height = 0;
    uint32_t key_frame_interval = 30;
    uint32_t rc_mode = 2;  // 1 VBR, 2 CBR
    uint32_t frame_rate = 30;
    uint32_t max_kbps = 300;
};

class VideoEncoder {
 public:
    struct Encoded {
        int64_t tag;
        std::vector<uint8_t> data;
        bool key;
    };

    // nullptr with *error when this libavcodec lacks the encoder (it names it).
    static std::unique_ptr<VideoEncoder> Open(const EncoderSettings& settings, std::string* error);
    ~VideoEncoder();

    // Encodes one picture (the settings' size); appends the packets that became ready.
    bool Send(const Picture& pic, int64_t tag, bool force_key, std::vector<Encoded>* out,
              std::string* error);
    // End of stream: the packets still held back. The encoder takes no pictures afterwards.
    void Flush(std::vector<Encoded>* out);

 private:
    VideoEncoder() = default;
    void Receive(std::vector<Encoded>* out);

    AVCodecContext* ctx_ = nullptr;
    AVFrame* frame_ = nullptr;
    AVPacket* packet_ = nullptr;
};

}  // namespace openacl::dvpp
