// The video-analysis pipeline of the AscendCL concepts chapter, run twice on the same frames:
//
//   sync   everything on the default stream, a synchronize after every step: the host waits
//          while the device works and the device idles while the host decodes;
//   async  a stream per stage (upload + preprocess, inference, download + postprocess), events
//          between them, frames triple-buffered in pinned host memory, a callback handing each
//          result back, and the host decoding the next frame while the device works.
//
// Each channel (--channels N) decodes its own video on its own host thread, with its own
// streams, buffers and callback thread; all share one context and one loaded model. At the end
// it prints fps for each mode, the speed-up, each stage's time alone and the bound the slowest
// stage sets, and checks that both modes produced the same detections. See --help.
#include <pthread.h>
#include <sched.h>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "detections.h"

namespace video_pipeline {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

// An AscendCL call that failed: the function, what it was for and the runtime's own message.
class AclFailure : public std::runtime_error {
 public:
    using std::runtime_error::runtime_error;
};

void Check(aclError rc, const char* what) {
    if (rc == ACL_SUCCESS) return;
    const char* message = aclGetRecentErrMsg();
    throw AclFailure(std::string(what) + " failed with error " + std::to_string(rc) +
                     (message && *message ? std::string(": ") + message : std::string()));
}

// Releases run in reverse order of acquisition when the scope ends, also on errors, so a
// failing run leaves nothing allocated or running.
class Releases {
 public:
    Releases() = default;
    Releases(const Releases&) = delete;
    Releases& operator=(const Releases&) = delete;
    ~Releases() { RunAll(); }
    void Add(std::function<void()> release) { releases_.push_back(std::move(release)); }
    void RunAll() {
        while (!releases_.empty()) {
            releases_.back()();
            releases_.pop_back();
        }
    }

 private:
    std::vector<std::function<void()>> releases_;
};

struct Options {
    std::vector<std::string> inputs;
    std::string model;
    std::string kernels;
    int channels = 1;
    int64_t frames = 0;  // 0: the whole clip
    int buffers = 3;
    int device_cores = 0;
    bool run_sync = true, run_async = true;
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
        "  --channels N        videos analysed at once, each with its own streams (default 1)\n"
        "  --frames N          frames per channel (default: the whole clip)\n"
        "  --mode sync|async|both   which pipelines to run (default both)\n"
        "  --buffers N         frames in flight per channel in async mode, 2 or 3 (default 3)\n"
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
    uint32_t id = 0;
    aclmdlDesc* desc = nullptr;
    int64_t input_h = 0, input_w = 0;
    size_t input_bytes = 0, output_bytes = 0;
    HeadGeometry head;  // frame size filled per channel
};

std::string DimsText(const aclmdlIODims& dims) {
    std::string text;
    for (size_t i = 0; i < dims.dimCount; ++i)
        text += (i ? "x" : "") + std::to_string(dims.dims[i]);
    return text;
}

// Checks that the model is a detector this pipeline can feed and read; throws with the reason.
void DescribeModel(const std::string& path, SharedModel* model) {
    model->desc = aclmdlCreateDesc();
    if (model->desc == nullptr) throw AclFailure("aclmdlCreateDesc failed");
    Check(aclmdlGetDesc(model->desc, model->id), "aclmdlGetDesc");
    aclmdlIODims in{}, out{};
    if (aclmdlGetNumInputs(model->desc) != 1 || aclmdlGetNumOutputs(model->desc) < 1) {
        throw std::invalid_argument("model '" + path + "' has " +
                                    std::to_string(aclmdlGetNumInputs(model->desc)) +
                                    " inputs; the pipeline feeds one image tensor");
    }
    Check(aclmdlGetInputDims(model->desc, 0, &in), "aclmdlGetInputDims");
    Check(aclmdlGetOutputDims(model->desc, 0, &out), "aclmdlGetOutputDims");
    if (in.dimCount != 4 || in.dims[0] != 1 || in.dims[1] != 3 || in.dims[2] < 16 ||
        in.dims[3] < 16 || aclmdlGetInputDataType(model->desc, 0) != ACL_FLOAT) {
        throw std::invalid_argument("model '" + path + "' takes input '" +
                                    aclmdlGetInputNameByIndex(model->desc, 0) + "' of shape " +
                                    DimsText(in) +
                                    "; the pipeline feeds one RGB image as float 1x3xHxW "
                                    "(H, W >= 16)");
    }
    const int64_t channels = out.dimCount == 4 ? out.dims[1] : 0;
    if (out.dimCount != 4 || out.dims[0] != 1 || channels % 3 != 0 || channels / 3 < 6 ||
        aclmdlGetOutputDataType(model->desc, 0) != ACL_FLOAT) {
        throw std::invalid_argument(
            "model '" + path + "' has output '" + aclmdlGetOutputNameByIndex(model->desc, 0) +
            "' of shape " + DimsText(out) +
            "; the pipeline reads a detection grid, float 1x(3*(5+C))xGHxGW (3 anchors, C >= 1 "
            "classes)");
    }
    model->input_h = in.dims[2];
    model->input_w = in.dims[3];
    model->input_bytes = aclmdlGetInputSizeByIndex(model->desc, 0);
    model->output_bytes = aclmdlGetOutputSizeByIndex(model->desc, 0);
    model->head.anchors = 3;
    model->head.classes = channels / 3 - 5;
    model->head.grid_h = out.dims[2];
    model->head.grid_w = out.dims[3];
    model->head.input_h = in.dims[2];
    model->head.input_w = in.dims[3];
}

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

// Everything a channel needs for one frame in flight. Async mode has --buffers of these.
struct FrameSlot {
    void* host_frame = nullptr;   // pinned: decoded frame (BGR)
    void* dev_frame = nullptr;    // device: uploaded frame
    void* dev_input = nullptr;    // device: preprocessed model input
    void* dev_output = nullptr;   // device: model output
    void* host_output = nullptr;  // pinned: downloaded model output
    aclmdlDataset* input = nullptr;
    aclmdlDataset* output = nullptr;
    aclrtEvent preprocessed = nullptr, inferred = nullptr, done = nullptr;
    bool in_flight = false;
    int64_t frame = 0;
    ChannelRun* channel = nullptr;
    const HeadGeometry* head = nullptr;
    float threshold = 0;
    Clock::time_point downloaded_at;
};

struct Pipeline {
    const Options* options = nullptr;
    aclrtContext context = nullptr;
    SharedModel* model = nullptr;
    aclrtFuncHandle preprocess = nullptr;
    uint32_t preprocess_blocks = 1;
    std::vector<int> cpus;  // the cores this process may use
    int device_cores = 1, host_cores = 1;
    // The host's cores are the last ones; channel i decodes on one of them. None when the
    // device was given every core.
    int DecoderCore(int channel) const {
        const size_t index = static_cast<size_t>(device_cores + channel % host_cores);
        return device_cores < static_cast<int>(cpus.size()) ? cpus[index] : -1;
    }
};

aclmdlDataset* MakeDataset(void* data, size_t bytes, Releases& releases) {
    aclmdlDataset* dataset = aclmdlCreateDataset();
    if (dataset == nullptr) throw AclFailure("aclmdlCreateDataset failed");
    releases.Add([dataset] { aclmdlDestroyDataset(dataset); });
    aclDataBuffer* buffer = aclCreateDataBuffer(data, bytes);
    if (buffer == nullptr) throw AclFailure("aclCreateDataBuffer failed");
    releases.Add([buffer] { aclDestroyDataBuffer(buffer); });
    Check(aclmdlAddDatasetBuffer(dataset, buffer), "aclmdlAddDatasetBuffer");
    return dataset;
}

void* DeviceMalloc(size_t bytes, Releases& releases, const char* what) {
    void* p = nullptr;
    Check(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), what);
    releases.Add([p] { aclrtFree(p); });
    return p;
}

void* HostMalloc(size_t bytes, Releases& releases, const char* what) {
    void* p = nullptr;
    Check(aclrtMallocHost(&p, bytes), what);
    releases.Add([p] { aclrtFreeHost(p); });
    return p;
}

void PrepareSlot(FrameSlot* slot, size_t frame_bytes, const SharedModel& model, bool events,
                 Releases& releases) {
    slot->host_frame = HostMalloc(frame_bytes, releases, "aclrtMallocHost: frame buffer");
    slot->dev_frame = DeviceMalloc(frame_bytes, releases, "aclrtMalloc: device frame");
    slot->dev_input = DeviceMalloc(model.input_bytes, releases, "aclrtMalloc: model input");
    slot->dev_output = DeviceMalloc(model.output_bytes, releases, "aclrtMalloc: model output");
    slot->host_output = HostMalloc(model.output_bytes, releases, "aclrtMallocHost: results");
    slot->input = MakeDataset(slot->dev_input, model.input_bytes, releases);
    slot->output = MakeDataset(slot->dev_output, model.output_bytes, releases);
    if (!events) return;
    for (aclrtEvent* event : {&slot->preprocessed, &slot->inferred, &slot->done}) {
        Check(aclrtCreateEvent(event), "aclrtCreateEvent");
        aclrtEvent e = *event;
        releases.Add([e] { aclrtDestroyEvent(e); });
    }
}

// Decodes the next frame straight into the slot's pinned buffer. False at the end of the clip.
bool DecodeInto(cv::VideoCapture& capture, const FrameSlot& slot, int height, int width) {
    cv::Mat frame(height, width, CV_8UC3, slot.host_frame);
    cv::Mat decoded = frame;
    if (!capture.read(decoded) || decoded.empty()) return false;
    if (decoded.data != frame.data) {  // a frame of another size or type: convert into place
        if (decoded.type() != CV_8UC3) return false;
        cv::resize(decoded, frame, frame.size());
    }
    return true;
}

void LaunchPreprocess(const Pipeline& p, const FrameSlot& slot, int height, int width,
                      aclrtStream stream) {
    uint64_t args[7] = {reinterpret_cast<uint64_t>(slot.dev_frame),
                        reinterpret_cast<uint64_t>(slot.dev_input),
                        static_cast<uint64_t>(width),
                        static_cast<uint64_t>(height),
                        static_cast<uint64_t>(width) * 3,
                        static_cast<uint64_t>(p.model->input_w),
                        static_cast<uint64_t>(p.model->input_h)};
    Check(aclrtLaunchKernelWithHostArgs(p.preprocess, p.preprocess_blocks, stream, nullptr, args,
                                        sizeof args, nullptr, 0),
          "aclrtLaunchKernelWithHostArgs(preprocess_frame)");
}

void Postprocess(FrameSlot* slot) {
    HeadGeometry head = *slot->head;
    FrameResult result;
    result.detections =
        DecodeDetections(static_cast<const float*>(slot->host_output), head, slot->threshold);
    result.json = DetectionsJson(slot->channel->index, slot->frame, result.detections);
    std::lock_guard<std::mutex> lock(slot->channel->results_mutex);
    slot->channel->results[slot->frame] = std::move(result);
}

// The callback the download stream runs after each frame's results reached pinned memory.
void PostprocessCallback(void* user_data) {
    auto* slot = static_cast<FrameSlot*>(user_data);
    const auto start = Clock::now();
    Postprocess(slot);
    slot->channel->times.postprocess += Ms(Clock::now() - start);  // only this thread writes it
}

// A channel's video, opened on the channel's thread, and where the model's grid lies on it.
struct ChannelVideo {
    cv::VideoCapture capture;
    int width = 0, height = 0;
    size_t frame_bytes = 0;
    HeadGeometry head;
};

ChannelVideo OpenChannel(const Pipeline& p, const ChannelRun& run) {
    Check(aclrtSetCurrentContext(p.context), "aclrtSetCurrentContext (channel thread)");
    ChannelVideo video;
    std::string error;
    video.capture = OpenVideo(run.input, &error, p.DecoderCore(run.index));
    if (!video.capture.isOpened()) throw std::invalid_argument(error);
    video.width = static_cast<int>(video.capture.get(cv::CAP_PROP_FRAME_WIDTH));
    video.height = static_cast<int>(video.capture.get(cv::CAP_PROP_FRAME_HEIGHT));
    video.frame_bytes = static_cast<size_t>(video.width) * video.height * 3;
    video.head = p.model->head;
    video.head.frame_h = video.height;
    video.head.frame_w = video.width;
    return video;
}

void RunSyncChannel(const Pipeline& p, ChannelRun* run) {
    ChannelVideo video = OpenChannel(p, *run);
    cv::VideoCapture& capture = video.capture;
    const int width = video.width, height = video.height;
    const size_t frame_bytes = video.frame_bytes;
    FrameSlot slot;
    Releases releases;  // after what its releases use
    PrepareSlot(&slot, frame_bytes, *p.model, false, releases);
    slot.channel = run;
    slot.head = &video.head;
    slot.threshold = p.options->threshold;
    for (int64_t f = 0; p.options->frames == 0 || f < p.options->frames; ++f) {
        auto t0 = Clock::now();
        if (!DecodeInto(capture, slot, height, width)) break;
        auto t1 = Clock::now();
        Check(aclrtMemcpy(slot.dev_frame, frame_bytes, slot.host_frame, frame_bytes,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              "aclrtMemcpy: frame to device");
        auto t2 = Clock::now();
        LaunchPreprocess(p, slot, height, width, nullptr);
        Check(aclrtSynchronizeStream(nullptr), "aclrtSynchronizeStream: preprocess");
        auto t3 = Clock::now();
        Check(aclmdlExecute(p.model->id, slot.input, slot.output), "aclmdlExecute");
        auto t4 = Clock::now();
        Check(aclrtMemcpy(slot.host_output, p.model->output_bytes, slot.dev_output,
                          p.model->output_bytes, ACL_MEMCPY_DEVICE_TO_HOST),
              "aclrtMemcpy: results to host");
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

void RunAsyncChannel(const Pipeline& p, ChannelRun* run) {
    ChannelVideo video = OpenChannel(p, *run);
    cv::VideoCapture& capture = video.capture;
    const int width = video.width, height = video.height;
    const size_t frame_bytes = video.frame_bytes;

    // Declared before the releases that use them, so they outlive those.
    std::vector<FrameSlot> slots(static_cast<size_t>(p.options->buffers));
    aclrtStream upload = nullptr, infer = nullptr, download = nullptr;
    std::atomic<bool> stop{false};
    std::thread reporter;
    uint64_t reporter_id = 0;
    Releases releases;
    // A stream per stage.
    for (aclrtStream* stream : {&upload, &infer, &download}) {
        Check(aclrtCreateStream(stream), "aclrtCreateStream");
        aclrtStream s = *stream;
        releases.Add([s] { aclrtDestroyStream(s); });
    }
    for (FrameSlot& slot : slots) {
        PrepareSlot(&slot, frame_bytes, *p.model, true, releases);
        slot.channel = run;
        slot.head = &video.head;
        slot.threshold = p.options->threshold;
    }
    // The callback thread: the download stream hands each frame's results to it.
    reporter = std::thread([&] {
        aclrtSetCurrentContext(p.context);
        while (!stop.load(std::memory_order_relaxed))
            aclrtProcessReport(50);
    });
    releases.Add([&] {
        stop = true;
        reporter.join();
    });
    reporter_id = static_cast<uint64_t>(reporter.native_handle());
    Check(aclrtSubscribeReport(reporter_id, download), "aclrtSubscribeReport");
    // On an error midway, drain what was queued before the buffers go away.
    releases.Add([&] {
        aclrtSynchronizeStream(upload);
        aclrtSynchronizeStream(infer);
        aclrtSynchronizeStream(download);
        aclrtUnSubscribeReport(reporter_id, download);
    });

    for (int64_t f = 0; p.options->frames == 0 || f < p.options->frames; ++f) {
        FrameSlot& slot = slots[static_cast<size_t>(f) % slots.size()];
        auto t0 = Clock::now();
        if (slot.in_flight)
            Check(aclrtSynchronizeEvent(slot.done), "aclrtSynchronizeEvent: free buffer");
        auto t1 = Clock::now();
        if (!DecodeInto(capture, slot, height, width)) break;
        auto t2 = Clock::now();
        run->times.host_wait += Ms(t1 - t0);
        run->times.decode += Ms(t2 - t1);
        slot.frame = f;
        slot.in_flight = true;
        // Stage 1: upload and preprocess.
        Check(aclrtMemcpyAsync(slot.dev_frame, frame_bytes, slot.host_frame, frame_bytes,
                               ACL_MEMCPY_HOST_TO_DEVICE, upload),
              "aclrtMemcpyAsync: frame to device");
        LaunchPreprocess(p, slot, height, width, upload);
        Check(aclrtRecordEvent(slot.preprocessed, upload), "aclrtRecordEvent: preprocessed");
        // Stage 2: inference, once the frame is preprocessed.
        Check(aclrtStreamWaitEvent(infer, slot.preprocessed), "aclrtStreamWaitEvent: preprocessed");
        Check(aclmdlExecuteAsync(p.model->id, slot.input, slot.output, infer),
              "aclmdlExecuteAsync");
        Check(aclrtRecordEvent(slot.inferred, infer), "aclrtRecordEvent: inferred");
        // Stage 3: results back to the host and postprocessed by the callback thread.
        Check(aclrtStreamWaitEvent(download, slot.inferred), "aclrtStreamWaitEvent: inferred");
        Check(aclrtMemcpyAsync(slot.host_output, p.model->output_bytes, slot.dev_output,
                               p.model->output_bytes, ACL_MEMCPY_DEVICE_TO_HOST, download),
              "aclrtMemcpyAsync: results to host");
        Check(aclrtLaunchCallback(PostprocessCallback, &slot, ACL_CALLBACK_BLOCK, download),
              "aclrtLaunchCallback: postprocess");
        Check(aclrtRecordEvent(slot.done, download), "aclrtRecordEvent: frame done");
        run->frames = f + 1;
    }
    Check(aclrtSynchronizeStream(download), "aclrtSynchronizeStream: last frames");
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

void PrintStages(const ModeResult& sync, int device_cores, int host_cores, int channels) {
    const double n = static_cast<double>(sync.frames);
    const StageTimes& t = sync.times;
    const double device = (t.upload + t.preprocess + t.inference + t.download) / n;
    struct Row {
        const char* name;
        double ms;
        const char* where;
    } rows[] = {{"decode", t.decode / n, "host, channel thread"},
                {"upload", t.upload / n, "device"},
                {"preprocess", t.preprocess / n, "device, kernel"},
                {"inference", t.inference / n, "device, model"},
                {"download", t.download / n, "device"},
                {"postprocess", t.postprocess / n, "host, callback"}};
    std::printf("\nstage times alone (sync run, mean per frame):\n");
    for (const Row& r : rows)
        std::printf("  %-12s %7.2f ms   %s\n", r.name, r.ms, r.where);
    // In the async pipeline each channel's decode runs on its own thread, the device stages share
    // the device's cores and the host stages share the rest: the scarcest of these sets the pace.
    struct Bound {
        std::string what;
        double fps;
    };
    const double host = (t.decode + t.postprocess) / n;
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
    setenv("OPENACL_MODEL_THREADS", std::to_string(device_cores).c_str(), 0);
    std::string config = "{\"openacl\": {\"worker_threads\": " + std::to_string(device_cores);
    if (!options.trace.empty()) config += ", \"trace\": \"" + options.trace + "\"";
    config += "}}";
    char config_path[] = "/tmp/video_pipeline_acl_XXXXXX.json";
    const int fd = mkstemps(config_path, 5);
    if (fd < 0 || write(fd, config.data(), config.size()) != static_cast<ssize_t>(config.size())) {
        std::fprintf(stderr, "video_pipeline: cannot write the aclInit configuration\n");
        return 1;
    }
    close(fd);
    const aclError init = aclInit(config_path);
    unlink(config_path);
    Check(init, "aclInit");
    Pipeline p;
    SharedModel model;
    Releases releases;  // after what its releases use
    releases.Add([] { aclFinalize(); });
    Check(aclrtSetDevice(0), "aclrtSetDevice(0)");
    releases.Add([] { aclrtResetDevice(0); });
    p.options = &options;
    p.cpus = cpus;
    p.device_cores = device_cores;
    p.host_cores = host_cores;
    Check(aclrtCreateContext(&p.context, 0), "aclrtCreateContext");
    releases.Add([&p] { aclrtDestroyContext(p.context); });

    if (aclmdlLoadFromFile(options.model.c_str(), &model.id) != ACL_SUCCESS) {
        throw std::invalid_argument("cannot load model '" + options.model +
                                    "': " + aclGetRecentErrMsg());
    }
    releases.Add([&model] { aclmdlUnload(model.id); });
    releases.Add([&model] {
        if (model.desc) aclmdlDestroyDesc(model.desc);
    });
    DescribeModel(options.model, &model);
    p.model = &model;

    aclrtBinHandle binary = nullptr;
    Check(aclrtBinaryLoadFromFile(options.kernels.c_str(), nullptr, &binary),
          "aclrtBinaryLoadFromFile: the pipeline's kernels");
    releases.Add([binary] { aclrtBinaryUnLoad(binary); });
    Check(aclrtBinaryGetFunction(binary, "preprocess_frame", &p.preprocess),
          "aclrtBinaryGetFunction(preprocess_frame)");
    p.preprocess_blocks = static_cast<uint32_t>(std::min<int64_t>(model.input_h, 4 * device_cores));

    std::printf(
        "video pipeline: %d channel(s) of %s, model %s (%lldx%lld in, %lld classes), "
        "device on %d core(s), host on %d\n",
        options.channels, options.inputs[0].c_str(), options.model.c_str(),
        static_cast<long long>(model.input_w), static_cast<long long>(model.input_h),
        static_cast<long long>(model.head.classes), device_cores, host_cores);

    ModeResult sync, async;
    if (options.run_sync) {
        sync = RunMode(p, false);
        std::printf("  sync : %5lld frames in %8.1f ms  %7.1f fps\n",
                    static_cast<long long>(sync.frames), sync.wall_ms, sync.Fps());
    }
    if (options.run_async) {
        async = RunMode(p, true);
        std::printf(
            "  async: %5lld frames in %8.1f ms  %7.1f fps  (%d buffers per channel; host "
            "waited for a free buffer %.0f%% of the time)\n",
            static_cast<long long>(async.frames), async.wall_ms, async.Fps(), options.buffers,
            100.0 * async.times.host_wait / options.channels / async.wall_ms);
    }
    int status = 0;
    if (options.run_sync && options.run_async) {
        std::printf("speed-up async/sync: %.2fx\n", async.Fps() / sync.Fps());
        PrintStages(sync, device_cores, host_cores, options.channels);
        const bool same = SameResults(sync, async);
        std::printf("async detections equal sync detections, frame by frame: %s\n",
                    same ? "yes" : "NO");
        if (!same) status = 1;
    } else if (options.run_sync) {
        PrintStages(sync, device_cores, host_cores, options.channels);
    }
    if (!options.json_dir.empty()) {
        if ((options.run_sync && !WriteJson(options.json_dir, sync)) ||
            (options.run_async && !WriteJson(options.json_dir, async)))
            status = 1;
    }
    if (!options.annotate.empty() && !Annotate(options.annotate, options.run_async ? async : sync))
        status = 1;
    releases.RunAll();
    if (!options.trace.empty())
        std::printf("timeline: %s (open in ui.perfetto.dev)\n", options.trace.c_str());
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
    if (options.inputs.empty()) options.inputs.push_back(OPENACL_VIDEO_PIPELINE_CLIP);
    if (options.model.empty()) options.model = OPENACL_VIDEO_PIPELINE_MODEL;
    options.kernels = OPENACL_VIDEO_PIPELINE_KERNELS;
    // Bad input is found before anything starts.
    for (const std::string& input : options.inputs) {
        std::string error;
        if (!OpenVideo(input, &error).isOpened()) {
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
