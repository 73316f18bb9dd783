// One H.264 or H.265 Annex-B decoder (FFmpeg's libavcodec), fed one frame per packet. Each
// packet carries a tag (the send's sequence number) that comes back on the picture it
// produced, so a picture is matched to its send even when the stream reorders frames.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dvpp/picture.h"

struct AVCodecContext;
struct AVFrame;
struct AVPacket;
struct SwsContext;

namespace openacl::dvpp {

// Video resolutions VDEC takes (both codecs), and the picture sizes it writes.
constexpr uint32_t kVideoMinSide = 128;
constexpr uint32_t kVideoMaxSide = 4096;

class VideoDecoder {
 public:
    struct Decoded {
        int64_t tag;
        AVFrame* frame;  // owned by the decoder until the next Send/Flush
        bool corrupt;    // libavcodec concealed errors in it
    };

    // hevc: H.265, else H.264. low_delay: output each picture as soon as it is decoded
    // (VDEC out mode 1). nullptr with *error set when libavcodec lacks the decoder.
    static std::unique_ptr<VideoDecoder> Open(bool hevc, bool low_delay, std::string* error);
    ~VideoDecoder();

    // Decodes one packet. Fills *out with the pictures that became ready (any earlier tags
    // too); returns false with *error when libavcodec refused the packet.
    bool Send(const uint8_t* data, size_t size, int64_t tag, std::vector<Decoded>* out,
              std::string* error);
    // End of stream: returns the pictures still held back, then makes the decoder ready for a
    // new stream.
    void Flush(std::vector<Decoded>* out);

    // Writes a decoded picture into `dst` (NV12 or NV21, dst's size and strides), scaling when
    // the sizes differ. False with *error for a picture it cannot convert.
    bool Write(const AVFrame* frame, const Picture& dst, std::string* error);

 private:
    VideoDecoder() = default;
    void Receive(std::vector<Decoded>* out);

    AVCodecContext* ctx_ = nullptr;
    AVPacket* packet_ = nullptr;
    std::vector<AVFrame*> frames_;  // pictures handed out by the last Send/Flush
    std::vector<AVFrame*> spare_;
    SwsContext* sws_ = nullptr;
    std::vector<uint8_t> scratch_;
};

// Quiets libavcodec's own logging (once): openacl reports failures through its own codes.
void QuietLibav();

}  // namespace openacl::dvpp
