// The video-analysis pipeline of the AscendCL concepts chapter, run twice on the same frames:
//
//   sync   everything on the default stream, a synchronize after every step: the host waits
//          while the device works and the device idles while the host decodes;
//   async  a stream per stage (upload + preprocess, inference, download + postprocess), events
//          between them, frames triple-buffered in pinned host memory, a callback handing each
//          result back, and the host decoding the next frame while the device works.
//
// Each channel (--channels N) decodes its own video on its own host thread, with its own
// streams, buffers and callback thread; all share one context and one loaded model. Resources
// are held by the owners of openacl's C++ layer (openacl/acl.hpp), so an error at any point
// releases everything; the comments name the AscendCL call behind each step. It runs the two
// modes alternately (--rounds), then prints fps for each, the median speed-up, each stage's
// time alone, the bound the slowest stage sets and how near async came to it, and checks that
// both modes produced the same detections. See --help.
//
// With --dvpp the frames take the path they take on an Ascend chip: the clip is an H.264
// elementary stream, VDEC decodes each frame into NV12 in device memory (its callback on a report
// thread), VPC resizes it to the model's input in YUV420SP, and a kernel converts that to the
// model's float RGB; no frame crosses from host to device.
#include <pthread.h>
#include <sched.h>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "detections.h"
#include "openacl/acl.hpp"

namespace video_pipeline {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

struct Options {
    std::vector<std::string> inputs;
    std::string model;
    std::string kernels;
    int channels = 1;
    int64_t frames = 0;  // 0: the whole clip
    int buffers = 3;
    int rounds = 5;  // sync and async alternately, this many times each
    int device_cores = 0;
    bool run_sync = true, run_async = true;
    bool dvpp = false;  // decode with VDEC, resize with VPC
    float threshold = 0.3f;
    std::string json_dir;
    std::string annotate;
    std::string trace;
};

void PrintHelp(const char* program) {
    std::printf(
        "usage: %s [options]\n"
        "\n"
        "Runs a video-analysis pipeline (decode -> upload -> preprocess kernel -> model ->\n"
        "download -> postprocess) on openacl, first synchronously on the default stream, then\n"
        "asynchronously with a stream per stage, and compares the two.\n"
        "\n"
        "  --input FILE        video to analyse (any format OpenCV's videoio reads); repeat to\n"
        "                      give each channel its own (default: the sample clip the build "
        "made)\n"
        "  --model FILE        detector model, ONNX or .om: input 1x3xHxW float, output\n"
        "                      1x(3*(5+C))xGHxGW (default: the random-weight detector the build "
        "made)\n"
        "  --dvpp              decode with DVPP's VDEC and resize with its VPC, as on an Ascend\n"
        "                      chip: the input is an H.264 Annex-B stream without B-frames\n"
        "                      (default: the sample clip's .h264 twin the build made)\n"
        "  --channels N        videos analysed at once, each with its own streams (default 1)\n"
        "  --frames N          frames per channel (default: the whole clip)\n"
        "  --mode sync|async|both   which pipelines to run (default both)\n"
        "  --buffers N         frames in flight per channel in async mode, 2 or 3 (default 3)\n"
        "  --rounds N          run sync then async N times and report the median speed-up, so\n"
        "                      that a slow moment of the machine slows both modes (default 5)\n"
        "  --device-cores N    cores the simulated device computes on; the rest are the host's\n"
        "                      (default: half the machine's, at least 1)\n"
        "  --threshold X       detection score threshold (default 0.3)\n"
        "  --json DIR          write DIR/sync.jsonl and DIR/async.jsonl: one line per frame\n"
        "  --annotate FILE     write channel 0's frames with the async run's boxes (.mp4 or .avi)\n"
        "  --trace FILE        write a Perfetto/Chrome timeline of every stream to FILE\n"
        "  --help              this text\n"
        "\n"
        "The model's weights are random (nothing pretrained can be downloaded here): its boxes\n"
        "follow the picture but mean nothing. Exit status: 0 on success, 1 when a run fails or\n"
        "the two modes disagree, 2 for bad arguments or input.\n",
        program);
}

bool ParseInt(const std::string& text, int64_t min, int64_t max, int64_t* value) {
    char* end = nullptr;
    long long parsed = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || parsed < min || parsed > max) return false;
    *value = parsed;
    return true;
}

// Returns false (after printing why) for arguments that make no sense.
bool ParseOptions(int argc, char** argv, Options* options, bool* help) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            *help = true;
            return true;
        }
        if (arg == "--dvpp") {
            options->dvpp = true;
            continue;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "video_pipeline: %s needs a value (see --help)\n", arg.c_str());
            return false;
        }
        const std::string value = argv[++i];
        int64_t number = 0;
        auto bad = [&](const char* expected) {
            std::fprintf(stderr, "video_pipeline: %s %s: expected %s\n", arg.c_str(), value.c_str(),
                         expected);
            return false;
        };
        if (arg == "--input") {
            options->inputs.push_back(value);
        } else if (arg == "--model") {
            options->model = value;
        } else if (arg == "--channels") {
            if (!ParseInt(value, 1, 64, &number)) return bad("a number from 1 to 64");
            options->channels = static_cast<int>(number);
        } else if (arg == "--frames") {
            if (!ParseInt(value, 1, 1000000, &number)) return bad("a number of frames >= 1");
            options->frames = number;
        } else if (arg == "--buffers") {
            if (!ParseInt(value, 2, 3, &number)) return bad("2 or 3");
            options->buffers = static_cast<int>(number);
        } else if (arg == "--rounds") {
            if (!ParseInt(value, 1, 100, &number)) return bad("a number of rounds from 1 to 100");
            options->rounds = static_cast<int>(number);
        } else if (arg == "--device-cores") {
            if (!ParseInt(value, 1, 1024, &number)) return bad("a number of cores >= 1");
            options->device_cores = static_cast<int>(number);
        } else if (arg == "--mode") {
            if (value != "sync" && value != "async" && value != "both")
                return bad("sync, async or both");
            options->run_sync = value != "async";
            options->run_async = value != "sync";
        } else if (arg == "--threshold") {
            char* end = nullptr;
            const float t = std::strtof(value.c_str(), &end);
            if (*end != '\0' || !(t > 0.0f && t < 1.0f)) return bad("a score between 0 and 1");
            options->threshold = t;
        } else if (arg == "--json") {
            options->json_dir = value;
        } else if (arg == "--annotate") {
            options->annotate = value;
        } else if (arg == "--trace") {
            options->trace = value;
        } else {
            std::fprintf(stderr, "video_pipeline: unknown option %s (see --help)\n", arg.c_str());
            return false;
        }
    }
    if (options->dvpp && options->channels > 32) {
        std::fprintf(stderr, "video_pipeline: --dvpp: %d channels, but VDEC has 32 (ids 0..31)\n",
                     options->channels);
        return false;
    }
    if (options->inputs.size() > 1 &&
        options->inputs.size() != static_cast<size_t>(options->channels)) {
        std::fprintf(stderr,
                     "video_pipeline: %zu inputs for %d channels: give one --input for all "
                     "channels or one per channel\n",
                     options->inputs.size(), options->channels);
        return false;
    }
    return true;
}

// Opens a channel's video and says clearly why it cannot be used. With decoder_core >= 0, the
// decoder's threads are confined to that core: FFmpeg decodes on as many threads as the machine
// has cores, which would let the host's decoding take over the simulated device's cores too.
cv::VideoCapture OpenVideo(const std::string& path, std::string* error, int decoder_core = -1) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) {
        *error = "cannot open video '" + path + "': " + std::strerror(errno);
        return {};
    }
    cv::VideoCapture capture(path, cv::CAP_FFMPEG);
    cv::Mat probe;
    if (!capture.isOpened() || !capture.read(probe) || probe.empty()) {
        *error = "cannot decode '" + path + "' as a video (OpenCV's FFmpeg reader does not " +
                 "recognise it, or it has no frames)";
        return {};
    }
    if (probe.type() != CV_8UC3) {
        *error = "'" + path + "' decodes to frames of OpenCV type " + std::to_string(probe.type()) +
                 ", not 8-bit BGR";
        return {};
    }
    capture.release();
    // Threads inherit their creator's CPU set: the decoder's are made while opening.
    cpu_set_t all, one;
    const bool confine =
        decoder_core >= 0 && pthread_getaffinity_np(pthread_self(), sizeof all, &all) == 0;
    if (confine) {
        CPU_ZERO(&one);
        CPU_SET(decoder_core, &one);
        pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    }
    capture.open(path, cv::CAP_FFMPEG);  // from the first frame again
    if (confine) pthread_setaffinity_np(pthread_self(), sizeof all, &all);
    return capture;
}

// The model, loaded once and shared by every channel, and what the pipeline needs to know
// about it.
struct SharedModel {
    acl::Model model;
    acl::ModelDesc desc;
    int64_t input_h = 0, input_w = 0;
    size_t input_floats = 0, output_floats = 0;
    HeadGeometry head;  // frame size filled per channel
};

std::string DimsText(const aclmdlIODims& dims) {
    std::string text;
    for (size_t i = 0; i < dims.dimCount; ++i)
        text += (i ? "x" : "") + std::to_string(dims.dims[i]);
    return text;
}

// Loads the model and checks it is a detector this pipeline can feed and read; throws
// std::invalid_argument with the reason when it is not.
void LoadModel(const std::string& path, SharedModel* shared) {
    acl::Expected<acl::Model> model = acl::Model::try_load_file(path.c_str());
    if (!model) {
        throw std::invalid_argument("cannot load model '" + path + "': " + model.error().message);
    }
    shared->model = std::move(*model);
    shared->desc = shared->model.desc();
    const acl::ModelDesc& desc = shared->desc;
    if (desc.num_inputs() != 1 || desc.num_outputs() < 1) {
        throw std::invalid_argument("model '" + path + "' has " +
                                    std::to_string(desc.num_inputs()) +
                                    " inputs; the pipeline feeds one image tensor");
    }
    const aclmdlIODims in = desc.input_dims(0), out = desc.output_dims(0);
    if (in.dimCount != 4 || in.dims[0] != 1 || in.dims[1] != 3 || in.dims[2] < 16 ||
        in.dims[3] < 16 || desc.input_type(0) != ACL_FLOAT) {
        throw std::invalid_argument("model '" + path + "' takes input '" + desc.input_name(0) +
                                    "' of shape " + DimsText(in) +
                                    "; the pipeline feeds one RGB image as float 1x3xHxW "
                                    "(H, W >= 16)");
    }
    const int64_t channels = out.dimCount == 4 ? out.dims[1] : 0;
    if (out.dimCount != 4 || out.dims[0] != 1 || channels % 3 != 0 || channels / 3 < 6 ||
        desc.output_type(0) != ACL_FLOAT) {
        throw std::invalid_argument(
            "model '" + path + "' has output '" + desc.output_name(0) + "' of shape " +
            DimsText(out) +
            "; the pipeline reads a detection grid, float 1x(3*(5+C))xGHxGW (3 anchors, C >= 1 "
            "classes)");
    }
    shared->input_h = in.dims[2];
    shared->input_w = in.dims[3];
    shared->input_floats = desc.input_size(0) / sizeof(float);
    shared->output_floats = desc.output_size(0) / sizeof(float);
    shared->head.anchors = 3;
    shared->head.classes = channels / 3 - 5;
    shared->head.grid_h = out.dims[2];
    shared->head.grid_w = out.dims[3];
    shared->head.input_h = in.dims[2];
    shared->head.input_w = in.dims[3];
}

// --- The --dvpp path: VDEC, VPC and the NV12 kernel ---------------------------------------------

// Throws std::runtime_error naming the call and openacl's explanation when `rc` is an error.
void Must(aclError rc, const char* call) {
    if (rc == ACL_SUCCESS) return;
    const char* why = aclGetRecentErrMsg();
    throw std::runtime_error(std::string(call) + " failed (" + std::to_string(rc) +
                             "): " + (why != nullptr ? why : ""));
}

uint32_t AlignUp(uint32_t value, uint32_t to) {
    return (value + to - 1) / to * to;
}

// Reads an Exp-Golomb code (ue(v)) at bit `*bit` of `data`; -1 past the end.
int64_t ReadGolomb(const uint8_t* data, size_t size, size_t* bit) {
    auto next = [&]() -> int {
        if (*bit >= size * 8) return -1;
        const int b = (data[*bit / 8] >> (7 - *bit % 8)) & 1;
        ++*bit;
        return b;
    };
    int zeros = 0;
    for (int b = next(); b == 0; b = next())
        if (++zeros > 31) return -1;
    int64_t value = 1;
    for (int i = 0; i < zeros; ++i) {
        const int b = next();
        if (b < 0) return -1;
        value = value * 2 + b;
    }
    return value - 1;
}

// Reads the bits of a NAL unit's payload, the emulation-prevention bytes (00 00 03) left out.
class BitReader {
 public:
    BitReader(const uint8_t* data, size_t size) {
        int zeros = 0;
        for (size_t i = 0; i < size; ++i) {
            if (zeros >= 2 && data[i] == 3) {
                zeros = 0;
                continue;
            }
            zeros = data[i] == 0 ? zeros + 1 : 0;
            bytes_.push_back(data[i]);
        }
    }
    bool ok() const { return ok_; }
    uint32_t Bits(int n) {
        uint32_t value = 0;
        for (int i = 0; i < n; ++i) {
            if (bit_ >= bytes_.size() * 8) {
                ok_ = false;
                return 0;
            }
            value = value * 2 + ((bytes_[bit_ / 8] >> (7 - bit_ % 8)) & 1);
            ++bit_;
        }
        return value;
    }
    uint32_t Ue() {  // Exp-Golomb
        int zeros = 0;
        while (ok_ && Bits(1) == 0)
            if (++zeros > 31) ok_ = false;
        return ok_ ? ((1u << zeros) - 1) + Bits(zeros) : 0;
    }
    int32_t Se() {
        const uint32_t k = Ue();
        return k % 2 ? static_cast<int32_t>((k + 1) / 2) : -static_cast<int32_t>(k / 2);
    }

 private:
    std::vector<uint8_t> bytes_;
    size_t bit_ = 0;
    bool ok_ = true;
};

// The picture size a sequence parameter set (its payload, after the NAL header byte)
// declares, cropping applied. False when it cannot be read.
bool SpsPictureSize(const uint8_t* data, size_t size, int* width, int* height) {
    BitReader r(data, std::min<size_t>(size, 1024));
    const uint32_t profile = r.Bits(8);
    r.Bits(16);  // constraint flags, level
    r.Ue();      // seq_parameter_set_id
    uint32_t chroma = 1;
    static const uint32_t kHighProfiles[] = {100, 110, 122, 244, 44,  83, 86,
                                             118, 128, 138, 139, 134, 135};
    if (std::find(std::begin(kHighProfiles), std::end(kHighProfiles), profile) !=
        std::end(kHighProfiles)) {
        chroma = r.Ue();
        if (chroma == 3) r.Bits(1);  // separate_colour_plane_flag
        r.Ue();                      // bit depths
        r.Ue();
        r.Bits(1);        // qpprime_y_zero_transform_bypass_flag
        if (r.Bits(1)) {  // scaling matrices: skipped, list by list
            for (int i = 0; i < (chroma != 3 ? 8 : 12) && r.ok(); ++i) {
                if (!r.Bits(1)) continue;
                int last = 8, next = 8;
                for (int j = 0; j < (i < 6 ? 16 : 64) && r.ok(); ++j) {
                    if (next != 0) next = (last + r.Se() + 256) % 256;
                    last = next == 0 ? last : next;
                }
            }
        }
    }
    r.Ue();  // log2_max_frame_num_minus4
    const uint32_t poc_type = r.Ue();
    if (poc_type == 0) {
        r.Ue();
    } else if (poc_type == 1) {
        r.Bits(1);
        r.Se();
        r.Se();
        const uint32_t cycle = r.Ue();
        if (cycle > 255) return false;
        for (uint32_t i = 0; i < cycle; ++i)
            r.Se();
    }
    r.Ue();     // max_num_ref_frames
    r.Bits(1);  // gaps_in_frame_num_value_allowed_flag
    const uint32_t width_mbs = r.Ue() + 1, height_units = r.Ue() + 1;
    const uint32_t frame_mbs_only = r.Bits(1);
    if (!frame_mbs_only) r.Bits(1);  // mb_adaptive_frame_field_flag
    r.Bits(1);                       // direct_8x8_inference_flag
    int64_t left = 0, right = 0, top = 0, bottom = 0;
    if (r.Bits(1)) {
        left = r.Ue(), right = r.Ue(), top = r.Ue(), bottom = r.Ue();
    }
    const int64_t crop_x = chroma == 1 || chroma == 2 ? 2 : 1;
    const int64_t crop_y = (chroma == 1 ? 2 : 1) * (2 - int64_t{frame_mbs_only});
    const int64_t w = int64_t{width_mbs} * 16 - crop_x * (left + right);
    const int64_t h =
        (2 - int64_t{frame_mbs_only}) * int64_t{height_units} * 16 - crop_y * (top + bottom);
    if (!r.ok() || w <= 0 || h <= 0 || w > 8192 || h > 8192) return false;
    *width = static_cast<int>(w);
    *height = static_cast<int>(h);
    return true;
}

// Cuts an H.264 Annex-B stream into frames, one per aclvdecSendFrame: a frame begins at a slice
// whose first_mb_in_slice is 0 (its first header bit set), or at the delimiter, SEI or parameter
// set before it. Empty, with the reason in *error, when the file holds no such stream.
std::vector<std::vector<uint8_t>> ReadH264Frames(const std::string& path, std::string* error,
                                                 int* width = nullptr, int* height = nullptr) {
    std::ifstream file(path, std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                     std::istreambuf_iterator<char>());
    std::vector<std::vector<uint8_t>> frames;
    size_t frame_start = bytes.size();
    bool has_slice = false, has_sps = false, has_pps = false;
    auto end_frame = [&](size_t end) {
        if (has_slice) frames.emplace_back(bytes.begin() + frame_start, bytes.begin() + end);
        frame_start = end;
        has_slice = false;
    };
    for (size_t i = 0; i + 3 < bytes.size(); ++i) {
        if (bytes[i] != 0 || bytes[i + 1] != 0 || bytes[i + 2] != 1) continue;
        const size_t start = i > 0 && bytes[i - 1] == 0 ? i - 1 : i;  // 4-byte start code
        const int type = bytes[i + 3] & 0x1f;
        const bool slice = type == 1 || type == 5;
        const bool first_slice = slice && i + 4 < bytes.size() && (bytes[i + 4] & 0x80) != 0;
        if (slice && !(has_sps && has_pps)) break;  // not a stream a decoder can start on
        if (slice) {  // slice_type 1 or 6: B, which VDEC would hold back to reorder
            size_t bit = 0;
            const size_t header = std::min<size_t>(bytes.size() - (i + 4), 16);
            (void)ReadGolomb(&bytes[i + 4], header, &bit);  // first_mb_in_slice
            const int64_t slice_type = ReadGolomb(&bytes[i + 4], header, &bit);
            if (slice_type % 5 == 1) {
                *error = "'" + path +
                         "' has B-frames; --dvpp takes H.264 without them (each frame must come "
                         "out of VDEC as it goes in)";
                return {};
            }
        }
        if (type == 7 && !has_sps) {  // the first SPS tells the frame's size
            int w = 0, h = 0;
            if (!SpsPictureSize(&bytes[i + 4], bytes.size() - (i + 4), &w, &h)) {
                *error = "'" + path + "' has an H.264 sequence parameter set that cannot be read";
                return {};
            }
            if (width != nullptr) *width = w;
            if (height != nullptr) *height = h;
        }
        has_sps = has_sps || type == 7;
        has_pps = has_pps || type == 8;
        if (frame_start == bytes.size()) {
            frame_start = start;
        } else if (has_slice && (first_slice || type == 6 || type == 7 || type == 8 || type == 9)) {
            end_frame(start);
        }
        has_slice = has_slice || slice;
        i += 2;
    }
    end_frame(bytes.size());
    if (frames.empty()) {
        *error = "'" + path +
                 "' is not an H.264 Annex-B stream (no parameter sets before its first slice), "
                 "which --dvpp needs";
    }
    return frames;
}

// Media memory (acldvppMalloc): what DVPP reads and writes.
struct MediaBuffer {
    void* data = nullptr;
    explicit MediaBuffer(size_t bytes) { Must(acldvppMalloc(&data, bytes), "acldvppMalloc"); }
    ~MediaBuffer() {
        if (data != nullptr) (void)acldvppFree(data);
    }
    MediaBuffer(const MediaBuffer&) = delete;
    MediaBuffer& operator=(const MediaBuffer&) = delete;
};

// An NV12 picture in media memory and its descriptor, with the strides VDEC and VPC want (width
// a multiple of 16, height of 2).
struct MediaPicture {
    uint32_t width, height, width_stride, height_stride, bytes;
    MediaBuffer buffer;
    acldvppPicDesc* desc = nullptr;
    MediaPicture(uint32_t w, uint32_t h)
        : width(w),
          height(h),
          width_stride(AlignUp(w, 16)),
          height_stride(AlignUp(h, 2)),
          bytes(width_stride * height_stride * 3 / 2),
          buffer(bytes) {
        desc = acldvppCreatePicDesc();
        if (desc == nullptr) throw std::runtime_error("acldvppCreatePicDesc failed");
        Describe();
    }
    ~MediaPicture() { (void)acldvppDestroyPicDesc(desc); }
    MediaPicture(const MediaPicture&) = delete;
    MediaPicture& operator=(const MediaPicture&) = delete;
    // (Re)states the picture: VDEC writes its results into the descriptor.
    void Describe() {
        Must(acldvppSetPicDescData(desc, buffer.data), "acldvppSetPicDescData");
        Must(acldvppSetPicDescSize(desc, bytes), "acldvppSetPicDescSize");
        Must(acldvppSetPicDescFormat(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420),
             "acldvppSetPicDescFormat");
        Must(acldvppSetPicDescWidth(desc, width), "acldvppSetPicDescWidth");
        Must(acldvppSetPicDescHeight(desc, height), "acldvppSetPicDescHeight");
        Must(acldvppSetPicDescWidthStride(desc, width_stride), "acldvppSetPicDescWidthStride");
        Must(acldvppSetPicDescHeightStride(desc, height_stride), "acldvppSetPicDescHeightStride");
    }
};

// A thread that runs a VDEC channel's callbacks (aclrtProcessReport in a loop), as
// aclvdecSetChannelDescThreadId asks for.
class CallbackThread {
 public:
    explicit CallbackThread(aclrtContext context) {
        thread_ = std::thread([this, context] {
            (void)aclrtSetCurrentContext(context);
            id_.store(static_cast<uint64_t>(pthread_self()));
            while (!stop_.load()) {
                // Until the channel subscribes this thread, and between frames: times out.
                if (aclrtProcessReport(20) != ACL_SUCCESS) {
                    (void)aclGetRecentErrMsg();
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
            }
        });
        while (id_.load() == 0)
            std::this_thread::yield();
    }
    ~CallbackThread() {
        stop_.store(true);
        thread_.join();
    }
    uint64_t id() const { return id_.load(); }

 private:
    std::atomic<bool> stop_{false};
    std::atomic<uint64_t> id_{0};
    std::thread thread_;
};

// A channel's video decoder (VDEC channel `id`): Decode sends one frame (aclvdecSendFrame) and
// waits for its callback, which reports the picture's return code.
class FrameDecoder {
 public:
    FrameDecoder(aclrtContext context, uint32_t id, std::vector<std::vector<uint8_t>> frames)
        : frames_(std::move(frames)), callbacks_(context) {
        size_t largest = 1;
        for (const auto& f : frames_)
            largest = std::max(largest, f.size());
        packet_ = std::make_unique<MediaBuffer>(largest);
        input_ = acldvppCreateStreamDesc();
        desc_ = aclvdecCreateChannelDesc();
        if (input_ == nullptr || desc_ == nullptr)
            throw std::runtime_error("cannot create VDEC descriptors");
        Must(aclvdecSetChannelDescChannelId(desc_, id), "aclvdecSetChannelDescChannelId");
        Must(aclvdecSetChannelDescThreadId(desc_, callbacks_.id()),
             "aclvdecSetChannelDescThreadId");
        Must(aclvdecSetChannelDescCallback(desc_, &FrameDecoder::OnFrame),
             "aclvdecSetChannelDescCallback");
        Must(aclvdecSetChannelDescEnType(desc_, H264_MAIN_LEVEL), "aclvdecSetChannelDescEnType");
        Must(aclvdecSetChannelDescOutPicFormat(desc_, PIXEL_FORMAT_YUV_SEMIPLANAR_420),
             "aclvdecSetChannelDescOutPicFormat");
        // Fast output: with no B-frames, each frame's callback comes as soon as it is decoded.
        Must(aclvdecSetChannelDescOutMode(desc_, 1), "aclvdecSetChannelDescOutMode");
        Must(aclvdecCreateChannel(desc_), "aclvdecCreateChannel");
        created_ = true;
    }
    ~FrameDecoder() {
        if (created_) {
            Flush();
            (void)aclvdecDestroyChannel(desc_);
        }
        if (desc_ != nullptr) (void)aclvdecDestroyChannelDesc(desc_);
        if (input_ != nullptr) (void)acldvppDestroyStreamDesc(input_);
    }
    FrameDecoder(const FrameDecoder&) = delete;
    FrameDecoder& operator=(const FrameDecoder&) = delete;

    // Decodes frame `index` into `picture`; false past the last frame. Throws when VDEC
    // rejects the frame or cannot decode it.
    bool Decode(int64_t index, MediaPicture& picture) {
        if (index >= static_cast<int64_t>(frames_.size())) return false;
        const std::vector<uint8_t>& frame = frames_[static_cast<size_t>(index)];
        Must(aclrtMemcpy(packet_->data, frame.size(), frame.data(), frame.size(),
                         ACL_MEMCPY_HOST_TO_DEVICE),
             "aclrtMemcpy");
        Must(acldvppSetStreamDescData(input_, packet_->data), "acldvppSetStreamDescData");
        Must(acldvppSetStreamDescSize(input_, static_cast<uint32_t>(frame.size())),
             "acldvppSetStreamDescSize");
        picture.Describe();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = false;
        }
        Must(aclvdecSendFrame(desc_, input_, picture.desc, nullptr, this), "aclvdecSendFrame");
        std::unique_lock<std::mutex> lock(mutex_);
        // A stream VDEC holds frames back in (reordering the ReadH264Frames check missed)
        // would leave the callback waiting for later sends: an error, not a hang.
        if (!arrived_.wait_for(lock, std::chrono::seconds(60), [this] { return done_; })) {
            lock.unlock();
            Flush();  // VDEC lets go of the picture before the slot does
            throw std::runtime_error("VDEC gave no picture for frame " + std::to_string(index) +
                                     " within 60 s (does the stream reorder frames?)");
        }
        if (ret_code_ != 0) {
            throw std::runtime_error("VDEC could not decode frame " + std::to_string(index) +
                                     " (picture return code " + std::to_string(ret_code_) + ")");
        }
        return true;
    }

 private:
    // An eos send returns when every callback has run.
    void Flush() {
        if (flushed_) return;
        flushed_ = true;
        (void)acldvppSetStreamDescEos(input_, 1);
        (void)acldvppSetStreamDescSize(input_, 0);
        (void)aclvdecSendFrame(desc_, input_, nullptr, nullptr, this);
    }

    static void OnFrame(acldvppStreamDesc* /*input*/, acldvppPicDesc* output, void* user_data) {
        auto* self = static_cast<FrameDecoder*>(user_data);
        std::lock_guard<std::mutex> lock(self->mutex_);
        if (self->done_) return;  // the eos send's callback, if any
        self->ret_code_ = output != nullptr ? acldvppGetPicDescRetCode(output) : 1;
        self->done_ = true;
        self->arrived_.notify_all();
    }

    std::vector<std::vector<uint8_t>> frames_;
    CallbackThread callbacks_;  // outlives the channel
    std::unique_ptr<MediaBuffer> packet_;
    acldvppStreamDesc* input_ = nullptr;
    aclvdecChannelDesc* desc_ = nullptr;
    bool created_ = false;
    bool flushed_ = false;
    std::mutex mutex_;
    std::condition_variable arrived_;
    bool done_ = true;  // guarded by mutex_
    uint32_t ret_code_ = 0;
};

// A channel's VPC: a DVPP channel and the resize configuration.
struct Resizer {
    acldvppChannelDesc* channel = nullptr;
    acldvppResizeConfig* config = nullptr;
    Resizer() {
        channel = acldvppCreateChannelDesc();
        config = acldvppCreateResizeConfig();
        if (channel == nullptr || config == nullptr)
            throw std::runtime_error("cannot create the VPC channel descriptors");
        Must(acldvppCreateChannel(channel), "acldvppCreateChannel");
    }
    ~Resizer() {
        if (config != nullptr) (void)acldvppDestroyResizeConfig(config);
        if (channel != nullptr) {
            (void)acldvppDestroyChannel(channel);
            (void)acldvppDestroyChannelDesc(channel);
        }
    }
    Resizer(const Resizer&) = delete;
    Resizer& operator=(const Resizer&) = delete;
};

// Time spent per stage, summed over a channel's frames.
struct StageTimes {
    double decode = 0, upload = 0, preprocess = 0, inference = 0, download = 0, postprocess = 0;
    double host_wait = 0;  // async: the host waiting for a free buffer
    void Add(const StageTimes& o) {
        decode += o.decode, upload += o.upload, preprocess += o.preprocess;
        inference += o.inference, download += o.download, postprocess += o.postprocess;
        host_wait += o.host_wait;
    }
};

struct FrameResult {
    std::vector<Detection> detections;
    std::string json;
};

struct ChannelRun {
    int index = 0;
    std::string input;
    int64_t frames = 0;  // frames done
    StageTimes times;
    std::map<int64_t, FrameResult> results;
    std::mutex results_mutex;  // callbacks add results from the report thread
    std::string error;
};

// Everything a channel needs for one frame in flight. Async mode has --buffers of these. The
// owners (openacl/acl.hpp) release their memory, datasets and events when the slot goes.
struct FrameSlot {
    acl::PinnedHostBuffer<uint8_t> host_frame;  // decoded frame (BGR), pinned for async copies
    acl::DeviceBuffer<uint8_t> dev_frame;       // the uploaded frame
    acl::DeviceBuffer<float> dev_input;         // preprocessed model input
    acl::DeviceBuffer<float> dev_output;        // model output
    acl::PinnedHostBuffer<float> host_output;   // model output, downloaded
    acl::Dataset input, output;
    acl::Event preprocessed, inferred, done;  // async mode only
    std::unique_ptr<MediaPicture> decoded;    // --dvpp: VDEC's output, the whole frame
    std::unique_ptr<MediaPicture> resized;    // --dvpp: VPC's output, the model's size
    bool in_flight = false;
    int64_t frame = 0;
    ChannelRun* channel = nullptr;
    const HeadGeometry* head = nullptr;
    float threshold = 0;

    // frame_bytes 0: no host frame (--dvpp: frames are decoded on the device).
    FrameSlot(size_t frame_bytes, const SharedModel& model, bool events)
        : host_frame(frame_bytes > 0 ? acl::PinnedHostBuffer<uint8_t>::create(frame_bytes)
                                     : acl::PinnedHostBuffer<uint8_t>()),
          dev_frame(frame_bytes > 0 ? acl::DeviceBuffer<uint8_t>::create(frame_bytes)
                                    : acl::DeviceBuffer<uint8_t>()),
          dev_input(acl::DeviceBuffer<float>::create(model.input_floats)),
          dev_output(acl::DeviceBuffer<float>::create(model.output_floats)),
          host_output(acl::PinnedHostBuffer<float>::create(model.output_floats)),
          input(acl::Dataset::create()),
          output(acl::Dataset::create()) {
        input.add(dev_input);
        output.add(dev_output);
        if (!events) return;
        preprocessed = acl::Event::create();
        inferred = acl::Event::create();
        done = acl::Event::create();
    }
};

struct Pipeline {
    const Options* options = nullptr;
    aclrtContext context = nullptr;
    const SharedModel* model = nullptr;
    acl::Kernel preprocess;
    acl::Kernel preprocess_nv12;  // --dvpp
    uint32_t preprocess_blocks = 1;
    std::vector<int> cpus;  // the cores this process may use
    int device_cores = 1, host_cores = 1;
    // The host's cores are the last ones; channel i decodes on one of them. None when the
    // device was given every core.
    int DecoderCore(int channel) const {
        const size_t index = static_cast<size_t>(device_cores + channel % host_cores);
        return device_cores < static_cast<int>(cpus.size()) ? cpus[index] : -1;
    }
    // Confines the calling thread to the host's cores, or to the device's (when the device
    // did not get them all).
    void KeepToHostCores() const { KeepTo(static_cast<size_t>(device_cores), cpus.size()); }
    void KeepToDeviceCores() const { KeepTo(0, static_cast<size_t>(device_cores)); }
    void KeepTo(size_t first, size_t end) const {
        if (device_cores >= static_cast<int>(cpus.size())) return;
        cpu_set_t set;
        CPU_ZERO(&set);
        for (size_t i = first; i < end; ++i)
            CPU_SET(cpus[i], &set);
        pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    }
    // The device's cores as openacl.worker_cpus wants them ("0,1"); empty when it has them all.
    std::string DeviceCpuList() const {
        std::string list;
        for (int i = 0; i < device_cores && device_cores < static_cast<int>(cpus.size()); ++i)
            list += (list.empty() ? "" : ",") + std::to_string(cpus[static_cast<size_t>(i)]);
        return list;
    }
};

// Decodes the next frame straight into the slot's pinned buffer. False at the end of the clip.
bool DecodeInto(cv::VideoCapture& capture, FrameSlot& slot, int height, int width) {
    cv::Mat frame(height, width, CV_8UC3, slot.host_frame.data());
    cv::Mat decoded = frame;
    if (!capture.read(decoded) || decoded.empty()) return false;
    if (decoded.data != frame.data) {  // a frame of another size or type: convert into place
        if (decoded.type() != CV_8UC3) return false;
        cv::resize(decoded, frame, frame.size());
    }
    return true;
}

// The preprocessing kernel over the frame (aclrtLaunchKernelWithHostArgs): one 8-byte slot per
// argument, as preprocess_kernel.cpp declares them.
void LaunchPreprocess(const Pipeline& p, const FrameSlot& slot, int height, int width,
                      acl::StreamRef stream) {
    stream.launch(p.preprocess, p.preprocess_blocks, slot.dev_frame, slot.dev_input,
                  uint64_t(width), uint64_t(height), uint64_t(width) * 3,
                  uint64_t(p.model->input_w), uint64_t(p.model->input_h));
}

void Postprocess(FrameSlot* slot) {
    FrameResult result;
    result.detections = DecodeDetections(slot->host_output.data(), *slot->head, slot->threshold);
    result.json = DetectionsJson(slot->channel->index, slot->frame, result.detections);
    std::lock_guard<std::mutex> lock(slot->channel->results_mutex);
    slot->channel->results[slot->frame] = std::move(result);
}

// A channel's video, opened on the channel's thread, and where the model's grid lies on it.
struct ChannelVideo {
    cv::VideoCapture capture;  // without --dvpp
    int width = 0, height = 0;
    size_t frame_bytes = 0;  // of a decoded frame on the host; 0 with --dvpp
    HeadGeometry head;
    std::unique_ptr<FrameDecoder> decoder;  // --dvpp
    std::unique_ptr<Resizer> resizer;       // --dvpp
};

ChannelVideo OpenChannel(const Pipeline& p, const ChannelRun& run) {
    ChannelVideo video;
    std::string error;
    if (p.options->dvpp) {  // the size from the stream itself: nothing decodes on the host
        std::vector<std::vector<uint8_t>> frames =
            ReadH264Frames(run.input, &error, &video.width, &video.height);
        if (frames.empty()) throw std::invalid_argument(error);
        video.decoder = std::make_unique<FrameDecoder>(p.context, static_cast<uint32_t>(run.index),
                                                       std::move(frames));
        video.resizer = std::make_unique<Resizer>();
    } else {
        video.capture = OpenVideo(run.input, &error, p.DecoderCore(run.index));
        if (!video.capture.isOpened()) throw std::invalid_argument(error);
        video.width = static_cast<int>(video.capture.get(cv::CAP_PROP_FRAME_WIDTH));
        video.height = static_cast<int>(video.capture.get(cv::CAP_PROP_FRAME_HEIGHT));
        video.frame_bytes = static_cast<size_t>(video.width) * video.height * 3;
    }
    video.head = p.model->head;
    video.head.frame_h = video.height;
    video.head.frame_w = video.width;
    return video;
}

// --dvpp: gives the slot its pictures in media memory, VDEC's (the frame's size, even) and
// VPC's (the model's).
void AddPictures(const Pipeline& p, const ChannelVideo& video, FrameSlot& slot) {
    if (!p.options->dvpp) return;
    slot.decoded = std::make_unique<MediaPicture>(AlignUp(static_cast<uint32_t>(video.width), 2),
                                                  AlignUp(static_cast<uint32_t>(video.height), 2));
    slot.resized = std::make_unique<MediaPicture>(static_cast<uint32_t>(p.model->input_w),
                                                  static_cast<uint32_t>(p.model->input_h));
}

// --dvpp: VPC resizes the decoded frame to the model's input (acldvppVpcResizeAsync), in
// YUV420SP as VPC writes it.
void LaunchResize(const ChannelVideo& video, FrameSlot& slot, acl::StreamRef stream) {
    Must(acldvppVpcResizeAsync(video.resizer->channel, slot.decoded->desc, slot.resized->desc,
                               video.resizer->config, stream.handle()),
         "acldvppVpcResizeAsync");
}

// --dvpp: the kernel from the resized NV12 picture to the model's float RGB input.
void LaunchPreprocessNv12(const Pipeline& p, const FrameSlot& slot, acl::StreamRef stream) {
    const MediaPicture& in = *slot.resized;
    stream.launch(p.preprocess_nv12, p.preprocess_blocks, in.buffer.data, slot.dev_input,
                  uint64_t(in.width), uint64_t(in.height), uint64_t(in.width_stride),
                  uint64_t(in.height_stride));
}

// The channel's next frame into the slot: decoded by OpenCV into the pinned host frame, or with
// --dvpp by VDEC into the slot's picture in device memory. False at the end of the clip.
bool Decode(ChannelVideo& video, FrameSlot& slot, int64_t index) {
    if (video.decoder) return video.decoder->Decode(index, *slot.decoded);
    return DecodeInto(video.capture, slot, video.height, video.width);
}

// Everything on the default stream, and the host waits for each step: aclrtMemcpy,
// aclrtLaunchKernel + aclrtSynchronizeStream, aclmdlExecute, aclrtMemcpy, postprocessing.
void RunSyncChannel(const Pipeline& p, ChannelRun* run) {
    // Host work on the host's cores. openacl runs aclrtMemcpy and aclmdlExecute on the calling
    // thread, so for them this thread moves to the device's cores: as on an NPU, the device
    // computes while the host waits.
    p.KeepToHostCores();
    acl::CurrentContext use(p.context);
    ChannelVideo video = OpenChannel(p, *run);
    FrameSlot slot(video.frame_bytes, *p.model, false);
    AddPictures(p, video, slot);
    slot.channel = run;
    slot.head = &video.head;
    slot.threshold = p.options->threshold;
    const acl::StreamRef default_stream;
    for (int64_t f = 0; p.options->frames == 0 || f < p.options->frames; ++f) {
        auto t0 = Clock::now();
        if (!Decode(video, slot, f)) break;
        auto t1 = Clock::now();
        p.KeepToDeviceCores();
        if (p.options->dvpp) {  // VPC in place of the upload
            LaunchResize(video, slot, default_stream);
            default_stream.synchronize();
        } else {
            acl::copy(slot.dev_frame, slot.host_frame);
        }
        auto t2 = Clock::now();
        if (p.options->dvpp) {
            LaunchPreprocessNv12(p, slot, default_stream);
        } else {
            LaunchPreprocess(p, slot, video.height, video.width, default_stream);
        }
        default_stream.synchronize();
        auto t3 = Clock::now();
        p.model->model.execute(slot.input, slot.output);
        auto t4 = Clock::now();
        acl::copy(slot.host_output, slot.dev_output);
        p.KeepToHostCores();
        auto t5 = Clock::now();
        slot.frame = f;
        Postprocess(&slot);
        auto t6 = Clock::now();
        run->times.decode += Ms(t1 - t0);
        run->times.upload += Ms(t2 - t1);
        run->times.preprocess += Ms(t3 - t2);
        run->times.inference += Ms(t4 - t3);
        run->times.download += Ms(t5 - t4);
        run->times.postprocess += Ms(t6 - t5);
        run->frames = f + 1;
    }
}

// A stream per stage, events between them, --buffers frames in flight, and a callback thread
// that postprocesses each frame's results; the host decodes the next frame meanwhile.
void RunAsyncChannel(const Pipeline& p, ChannelRun* run) {
    // This thread and the decoder's threads are host work: they keep to the host's cores, as the
    // device's workers keep to the device's (openacl.worker_cpus). The callback thread may run
    // on any core: it sleeps until a frame's results arrive and then needs a core at once, and
    // Linux's scheduler (EEVDF, 6.6 and later) lets a running thread finish its time slice
    // before a woken one gets its core. Kept to the decoding core, each frame's callback (and
    // with it the download stream and the slot) waited 3 - 4 ms for decode's slice to end.
    p.KeepToHostCores();
    acl::CurrentContext use(p.context);
    ChannelVideo video = OpenChannel(p, *run);
    // Declared in the order that releases them safely: the callback thread goes first (after
    // running what is queued), then the streams (after finishing their work), then the slots.
    std::vector<FrameSlot> slots;
    for (int i = 0; i < p.options->buffers; ++i) {
        slots.emplace_back(video.frame_bytes, *p.model, true);
        AddPictures(p, video, slots.back());
        slots.back().channel = run;
        slots.back().head = &video.head;
        slots.back().threshold = p.options->threshold;
    }
    const acl::Stream upload = acl::Stream::create();    // upload + preprocess
    const acl::Stream infer = acl::Stream::create();     // inference
    const acl::Stream download = acl::Stream::create();  // download + postprocess
    p.KeepTo(0, p.cpus.size());  // the callback thread inherits this: every core
    acl::ReportThread reporter = acl::ReportThread::create();
    p.KeepToHostCores();
    reporter.subscribe(download);  // aclrtSubscribeReport: it runs the download's callbacks

    for (int64_t f = 0; p.options->frames == 0 || f < p.options->frames; ++f) {
        FrameSlot& slot = slots[static_cast<size_t>(f) % slots.size()];
        auto t0 = Clock::now();
        if (slot.in_flight) slot.done.synchronize();  // aclrtSynchronizeEvent: slot free again
        auto t1 = Clock::now();
        if (!Decode(video, slot, f)) break;
        auto t2 = Clock::now();
        run->times.host_wait += Ms(t1 - t0);
        run->times.decode += Ms(t2 - t1);
        slot.frame = f;
        slot.in_flight = true;
        // Stage 1: upload (aclrtMemcpyAsync) and preprocess (the kernel); with --dvpp, the
        // frame is on the device already: VPC resize (acldvppVpcResizeAsync), then the kernel.
        if (p.options->dvpp) {
            LaunchResize(video, slot, upload);
            LaunchPreprocessNv12(p, slot, upload);
        } else {
            upload.copy(slot.dev_frame, slot.host_frame);
            LaunchPreprocess(p, slot, video.height, video.width, upload);
        }
        upload.record(slot.preprocessed);  // aclrtRecordEvent
        // Stage 2: inference once the frame is preprocessed (aclrtStreamWaitEvent,
        // aclmdlExecuteAsync).
        infer.wait(slot.preprocessed);
        infer.execute(p.model->model, slot.input, slot.output);
        infer.record(slot.inferred);
        // Stage 3: results back to the host, postprocessed by the callback thread
        // (aclrtLaunchCallback, blocking: the slot's `done` follows the postprocessing).
        download.wait(slot.inferred);
        download.copy(slot.host_output, slot.dev_output);
        download.callback(
            [&slot, run] {
                const auto start = Clock::now();
                Postprocess(&slot);
                run->times.postprocess += Ms(Clock::now() - start);  // only this thread adds
            },
            true);
        download.record(slot.done);
        run->frames = f + 1;
    }
    download.synchronize();
}

struct ModeResult {
    const char* name = "";
    double wall_ms = 0;
    int64_t frames = 0;
    StageTimes times;
    std::vector<std::unique_ptr<ChannelRun>> channels;
    double Fps() const { return wall_ms > 0 ? 1000.0 * static_cast<double>(frames) / wall_ms : 0; }
};

// Runs every channel of one mode on its own thread; throws the first channel's error.
ModeResult RunMode(const Pipeline& p, bool async) {
    ModeResult result;
    result.name = async ? "async" : "sync";
    for (int c = 0; c < p.options->channels; ++c) {
        auto run = std::make_unique<ChannelRun>();
        run->index = c;
        run->input = p.options->inputs.size() == 1 ? p.options->inputs[0]
                                                   : p.options->inputs[static_cast<size_t>(c)];
        result.channels.push_back(std::move(run));
    }
    std::vector<std::thread> threads;
    const auto start = Clock::now();
    for (auto& run : result.channels) {
        threads.emplace_back([&p, async, channel = run.get()] {
            try {
                if (async) {
                    RunAsyncChannel(p, channel);
                } else {
                    RunSyncChannel(p, channel);
                }
            } catch (const std::exception& e) {
                channel->error = e.what();
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    result.wall_ms = Ms(Clock::now() - start);
    for (auto& run : result.channels) {
        if (!run->error.empty()) {
            throw std::runtime_error(std::string(result.name) + " channel " +
                                     std::to_string(run->index) + ": " + run->error);
        }
        result.frames += run->frames;
        result.times.Add(run->times);
    }
    return result;
}

bool WriteJson(const std::string& dir, const ModeResult& mode) {
    std::error_code ignored;
    std::filesystem::create_directories(dir, ignored);  // a failure shows when writing
    const std::string path = dir + "/" + mode.name + ".jsonl";
    std::ofstream file(path, std::ios::trunc);
    for (const auto& run : mode.channels)
        for (const auto& [frame, result] : run->results)
            file << result.json << '\n';
    if (!file) {
        std::fprintf(stderr, "video_pipeline: cannot write %s\n", path.c_str());
        return false;
    }
    return true;
}

// Frame by frame, the two modes must have found the same boxes with the same scores.
bool SameResults(const ModeResult& a, const ModeResult& b) {
    for (size_t c = 0; c < a.channels.size(); ++c) {
        const auto& x = a.channels[c]->results;
        const auto& y = b.channels[c]->results;
        if (x.size() != y.size()) {
            std::printf("  channel %zu: %zu frames in %s, %zu in %s\n", c, x.size(), a.name,
                        y.size(), b.name);
            return false;
        }
        for (const auto& [frame, result] : x) {
            auto other = y.find(frame);
            if (other == y.end() || other->second.json != result.json) {
                std::printf("  first difference, channel %zu frame %lld:\n    %s: %s\n    %s: %s\n",
                            c, static_cast<long long>(frame), a.name, result.json.c_str(), b.name,
                            other == y.end() ? "(missing)" : other->second.json.c_str());
                return false;
            }
        }
    }
    return true;
}

bool Annotate(const std::string& path, const ModeResult& mode) {
    const ChannelRun& run = *mode.channels[0];
    cv::VideoCapture capture(run.input, cv::CAP_FFMPEG);
    const double fps = capture.get(cv::CAP_PROP_FPS);
    const cv::Size size(static_cast<int>(capture.get(cv::CAP_PROP_FRAME_WIDTH)),
                        static_cast<int>(capture.get(cv::CAP_PROP_FRAME_HEIGHT)));
    const bool avi = path.size() > 4 && path.compare(path.size() - 4, 4, ".avi") == 0;
    cv::VideoWriter writer(path, cv::CAP_FFMPEG,
                           avi ? cv::VideoWriter::fourcc('M', 'J', 'P', 'G')
                               : cv::VideoWriter::fourcc('a', 'v', 'c', '1'),
                           fps > 0 ? fps : 25.0, size);
    if (!writer.isOpened()) {
        std::fprintf(stderr, "video_pipeline: cannot write %s (use .mp4 or .avi)\n", path.c_str());
        return false;
    }
    const cv::Scalar colours[] = {{0, 0, 255}, {0, 255, 0}, {255, 128, 0}, {255, 255, 255}};
    cv::Mat frame;
    for (const auto& [index, result] : run.results) {
        if (!capture.read(frame)) break;
        for (const Detection& d : result.detections) {
            const cv::Scalar& colour = colours[d.cls % 4];
            cv::rectangle(frame, cv::Point2f(d.x0, d.y0), cv::Point2f(d.x1, d.y1), colour, 2);
            char label[32];
            std::snprintf(label, sizeof label, "class %d %.2f", d.cls,
                          static_cast<double>(d.score));
            cv::putText(frame, label, cv::Point2f(d.x0 + 3, d.y0 + 18), cv::FONT_HERSHEY_SIMPLEX,
                        0.55, colour, 1, cv::LINE_AA);
        }
        writer.write(frame);
    }
    std::printf("annotated video (channel 0, async boxes): %s\n", path.c_str());
    return true;
}

// `alone`: a sync run of one channel, where every stage runs by itself. Returns the bound the
// slowest stage sets, in frames per second.
double PrintStages(const ModeResult& alone, int device_cores, int host_cores, int channels,
                   bool dvpp) {
    const double n = static_cast<double>(std::max<int64_t>(alone.frames, 1));
    const StageTimes& t = alone.times;
    // With --dvpp, decoding is VDEC's work, not the host's. An Ascend chip's VDEC is an engine of
    // its own; openacl's decodes on the device's workers, so it shares the device's cores.
    const double vdec = dvpp ? t.decode / n : 0.0;
    const double device = (t.upload + t.preprocess + t.inference + t.download) / n + vdec;
    struct Row {
        const char* name;
        double ms;
        const char* where;
    } rows[] = {{"decode", t.decode / n,
                 dvpp ? "device, VDEC (channel thread waits)" : "host, channel thread"},
                {dvpp ? "resize" : "upload", t.upload / n, dvpp ? "device, VPC" : "device"},
                {"preprocess", t.preprocess / n, "device, kernel"},
                {"inference", t.inference / n, "device, model"},
                {"download", t.download / n, "device"},
                {"postprocess", t.postprocess / n, "host, callback"}};
    std::printf("\nstage times alone (one channel, sync, mean per frame):\n");
    for (const Row& r : rows)
        std::printf("  %-12s %7.2f ms   %s\n", r.name, r.ms, r.where);
    // In the async pipeline each channel's decode runs on its own thread, the device stages share
    // the device's cores and the host stages share the rest: the scarcest of these sets the pace.
    struct Bound {
        std::string what;
        double fps;
    };
    const double host = ((dvpp ? 0.0 : t.decode) + t.postprocess) / n;
    std::vector<Bound> bounds = {
        {"decode (one thread per channel)", 1000.0 * channels / (t.decode / n)},
        {"device stages on " + std::to_string(device_cores) + " device core(s)",
         1000.0 * device_cores / device},
        {"host stages on " + std::to_string(host_cores) + " host core(s)",
         1000.0 * host_cores / host}};
    const Bound* slowest = &bounds[0];
    for (const Bound& b : bounds)
        if (b.fps < slowest->fps) slowest = &b;
    std::printf("bound set by the slowest stage: %.1f fps (%s)\n", slowest->fps,
                slowest->what.c_str());
    if (channels != 1) return slowest->fps;
    // Overlapping one channel's stages gains at most the sum of their times over the busiest
    // processor's share: the chapter's 1.88x needs the host's and the device's work per frame
    // to be about equal. Say so when this machine's are not, rather than promise the ratio.
    const double ideal = (host + device) / std::max(host, device);
    char vdec_text[48] = "";
    if (dvpp) std::snprintf(vdec_text, sizeof vdec_text, " (VDEC %.2f ms of it)", vdec);
    std::printf("overlap can gain at most %.2fx here: host %.2f ms, device %.2f ms%s per frame%s\n",
                ideal, host, device, vdec_text,
                ideal < 1.8 ? " (far from equal, so the chapter's 1.88x is out of reach on this "
                              "machine: the busier side bounds it)"
                            : "");
    return slowest->fps;
}

double Median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n == 0 ? 0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

int Run(const Options& options) {
    // The simulated device computes on --device-cores cores: its stream workers, and OpenCV's
    // threads inside each model execution. The rest of the machine is the host's.
    std::vector<int> cpus;
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &allowed)) cpus.push_back(cpu);
    }
    const int cores = std::max<int>(1, static_cast<int>(cpus.size()));
    const int device_cores =
        options.device_cores > 0 ? options.device_cores : std::max(1, cores / 2);
    const int host_cores = std::max(1, cores - device_cores);
    Pipeline p;
    p.options = &options;
    p.cpus = cpus;
    p.device_cores = device_cores;
    p.host_cores = host_cores;
    setenv("OPENACL_MODEL_THREADS", std::to_string(device_cores).c_str(), 0);
    std::string config = "{\"openacl\": {\"worker_threads\": " + std::to_string(device_cores);
    if (!p.DeviceCpuList().empty()) config += ", \"worker_cpus\": \"" + p.DeviceCpuList() + "\"";
    if (!options.trace.empty()) config += ", \"trace\": \"" + options.trace + "\"";
    config += "}}";
    char config_path[] = "/tmp/video_pipeline_acl_XXXXXX.json";
    const int fd = mkstemps(config_path, 5);
    if (fd < 0 || write(fd, config.data(), config.size()) != static_cast<ssize_t>(config.size())) {
        std::fprintf(stderr, "video_pipeline: cannot write the aclInit configuration\n");
        return 1;
    }
    close(fd);

    int status = 0;
    {
        // Released in reverse: the model and kernels, the context, the device, the runtime.
        acl::Expected<acl::Runtime> runtime = acl::Runtime::try_create(config_path);
        unlink(config_path);
        runtime.value();  // throws acl::Error when aclInit failed
        const acl::Device device(0);
        const acl::Context context = acl::Context::create(0);
        SharedModel model;
        LoadModel(options.model, &model);
        const acl::Binary kernels = acl::Binary::load_file(options.kernels.c_str());

        p.context = context.handle();
        p.model = &model;
        p.preprocess = kernels.kernel("preprocess_frame");
        p.preprocess_nv12 = kernels.kernel("preprocess_nv12");
        p.preprocess_blocks =
            static_cast<uint32_t>(std::min<int64_t>(model.input_h, 4 * device_cores));
        std::printf(
            "video pipeline: %d channel(s) of %s, model %s (%lldx%lld in, %lld classes), "
            "device on %d core(s), host on %d%s\n",
            options.channels, options.inputs[0].c_str(), options.model.c_str(),
            static_cast<long long>(model.input_w), static_cast<long long>(model.input_h),
            static_cast<long long>(model.head.classes), device_cores, host_cores,
            options.dvpp ? "; decoded by VDEC, resized by VPC" : "");

        // Rounds alternate the modes: the VM's speed varies from second to second, and a slow
        // moment then slows one round of both rather than one mode's only run.
        ModeResult sync, async;
        std::vector<double> ratios, async_fps;
        const int rounds = options.run_sync && options.run_async ? options.rounds : 1;
        for (int round = 1; round <= rounds; ++round) {
            char label[24] = "";
            if (rounds > 1) std::snprintf(label, sizeof label, "round %d ", round);
            ModeResult this_sync, this_async;
            if (options.run_sync) {
                this_sync = RunMode(p, false);
                std::printf("  %ssync : %5lld frames in %8.1f ms  %7.1f fps\n", label,
                            static_cast<long long>(this_sync.frames), this_sync.wall_ms,
                            this_sync.Fps());
            }
            if (options.run_async) {
                this_async = RunMode(p, true);
                std::printf(
                    "  %sasync: %5lld frames in %8.1f ms  %7.1f fps  (%d buffers per channel; "
                    "host waited for a free buffer %.0f%% of the time)\n",
                    label, static_cast<long long>(this_async.frames), this_async.wall_ms,
                    this_async.Fps(), options.buffers,
                    100.0 * this_async.times.host_wait / options.channels / this_async.wall_ms);
                async_fps.push_back(this_async.Fps());
            }
            if (options.run_sync && options.run_async)
                ratios.push_back(this_async.Fps() / this_sync.Fps());
            if (round == 1) {  // the detections, stages and files come from the first round
                sync = std::move(this_sync);
                async = std::move(this_async);
            }
        }
        if (options.run_sync && options.run_async) {
            std::string each;
            for (double r : ratios) {
                char text[32];
                std::snprintf(text, sizeof text, "%s%.2fx", each.empty() ? "" : ", ", r);
                each += text;
            }
            if (rounds > 1) {
                std::printf("speed-up async/sync: %.2fx (median of %d rounds: %s)\n",
                            Median(ratios), rounds, each.c_str());
            } else {
                std::printf("speed-up async/sync: %.2fx\n", ratios[0]);
            }
        }
        // Each stage's cost alone: the sync run when it had one channel, else a short one that
        // has (with several channels, the sync run's stages overlap and slow one another).
        double bound = 0;
        if (options.run_sync && options.channels == 1) {
            bound = PrintStages(sync, device_cores, host_cores, options.channels, options.dvpp);
        } else {
            Options one = options;
            one.channels = 1;
            one.inputs.resize(1);
            one.frames = options.frames > 0 ? std::min<int64_t>(options.frames, 30) : 30;
            Pipeline single = p;
            single.options = &one;
            bound = PrintStages(RunMode(single, false), device_cores, host_cores, options.channels,
                                options.dvpp);
        }
        if (options.run_async && bound > 0) {
            std::printf("async ran at %.0f%% of that bound%s\n", 100.0 * Median(async_fps) / bound,
                        rounds > 1 ? " (median round)" : "");
        }
        if (options.run_sync && options.run_async) {
            const bool same = SameResults(sync, async);
            std::printf("async detections equal sync detections, frame by frame: %s\n",
                        same ? "yes" : "NO");
            if (!same) status = 1;
        }
        if (!options.json_dir.empty()) {
            if ((options.run_sync && !WriteJson(options.json_dir, sync)) ||
                (options.run_async && !WriteJson(options.json_dir, async)))
                status = 1;
        }
        if (!options.annotate.empty() &&
            !Annotate(options.annotate, options.run_async ? async : sync))
            status = 1;
    }  // aclFinalize: the trace is written now
    if (!options.trace.empty()) {
        // The runtime said why on stderr if it could not write the file.
        if (std::filesystem::exists(options.trace)) {
            std::printf("timeline: %s (open in ui.perfetto.dev)\n", options.trace.c_str());
        } else {
            std::fprintf(stderr, "no timeline: %s was not written\n", options.trace.c_str());
            status = 1;
        }
    }
    return status;
}

}  // namespace
}  // namespace video_pipeline

int main(int argc, char** argv) {
    using namespace video_pipeline;
    Options options;
    bool help = false;
    if (!ParseOptions(argc, argv, &options, &help)) return 2;
    if (help) {
        PrintHelp(argv[0]);
        return 0;
    }
    if (options.inputs.empty())
        options.inputs.push_back(options.dvpp ? OPENACL_VIDEO_PIPELINE_H264
                                              : OPENACL_VIDEO_PIPELINE_CLIP);
    if (options.model.empty()) options.model = OPENACL_VIDEO_PIPELINE_MODEL;
    options.kernels = OPENACL_VIDEO_PIPELINE_KERNELS;
    // Bad input is found before anything starts.
    for (const std::string& input : options.inputs) {
        std::string error;
        // --dvpp reads the stream without decoding it on the host.
        if (!(options.dvpp ? !ReadH264Frames(input, &error).empty()
                           : OpenVideo(input, &error).isOpened())) {
            std::fprintf(stderr, "video_pipeline: %s\n", error.c_str());
            return 2;
        }
    }
    try {
        return Run(options);
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "video_pipeline: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "video_pipeline: %s\n", e.what());
        return 1;
    }
}
