// Graph capture of each kind of task openacl enqueues: the work runs eagerly, then is captured
// and replayed, and every replay gives the eager run's bytes (or accumulates as eager runs
// do); host code runs again, and waits wait again, at each replay.
#define ENABLE_DVPP_INTERFACE
#include <gtest/gtest.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "acl/ops/acl_dvpp.h"
#include "async_test_support.h"
#include "onnx_builder.h"
#include "test_support.h"

namespace {

using namespace std::chrono_literals;
using Bytes = std::vector<uint8_t>;
using Work = std::function<void(aclrtStream)>;

// Device memory (DVPP media memory when `media`), zeroed; freed at scope exit.
class Buffer {
 public:
    explicit Buffer(size_t size, bool media = false) : size_(size), media_(media) {
        EXPECT_EQ(media ? acldvppMalloc(&ptr_, size)
                        : aclrtMalloc(&ptr_, size, ACL_MEM_MALLOC_HUGE_FIRST),
                  ACL_SUCCESS);
        Fill(0);
    }
    ~Buffer() { media_ ? acldvppFree(ptr_) : aclrtFree(ptr_); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    void* get() const { return ptr_; }
    uint32_t size() const { return static_cast<uint32_t>(size_); }
    void Fill(uint8_t byte) { EXPECT_EQ(aclrtMemset(ptr_, size_, byte, size_), ACL_SUCCESS); }
    template <class T>
    void Write(const std::vector<T>& values) {
        ASSERT_EQ(aclrtMemcpy(ptr_, size_, values.data(), values.size() * sizeof(T),
                              ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
    }
    Bytes Read() const {
        Bytes host(size_);
        EXPECT_EQ(aclrtMemcpy(host.data(), size_, ptr_, size_, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return host;
    }

 private:
    void* ptr_ = nullptr;
    size_t size_;
    bool media_;
};

// Bytes with a pattern that differs per position and per seed.
Bytes Pattern(size_t n, uint8_t seed) {
    Bytes bytes(n);
    for (size_t i = 0; i < n; ++i)
        bytes[i] = static_cast<uint8_t>(seed + 31 * i + i / 7);
    return bytes;
}

// Runs `work` on `stream` now and waits for it.
void RunEagerly(aclrtStream stream, const Work& work) {
    work(stream);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
}

// Captures `work` on `stream` (GLOBAL mode); nullptr, and a test failure, if the capture fails.
aclmdlRI Capture(aclrtStream stream, const Work& work) {
    EXPECT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    work(stream);
    aclmdlRI model = nullptr;
    EXPECT_EQ(aclmdlRICaptureEnd(stream, &model), ACL_SUCCESS) << aclGetRecentErrMsg();
    return model;
}

// Runs `model` once on `stream` and waits for it.
void Replay(aclmdlRI model, aclrtStream stream) {
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
}

class CapturedTaskKinds : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStream(stream_);
        DeviceTest::TearDown();
    }
    aclrtStream stream_ = nullptr;
};

// ---- Compute: BLAS and models --------------------------------------------------------------

TEST_F(CapturedTaskKinds, ABlasGemmReplaysWithTheEagerResultAndAccumulatesLikeIt) {
    constexpr int m = 8, n = 12, k = 16;
    std::vector<aclFloat16> a(m * k), b(k * n);
    std::vector<float> c(m * n);
    for (size_t i = 0; i < a.size(); ++i)
        a[i] = aclFloatToFloat16(static_cast<float>(static_cast<int>(i * 37 % 17) - 8) / 8);
    for (size_t i = 0; i < b.size(); ++i)
        b[i] = aclFloatToFloat16(static_cast<float>(static_cast<int>(i * 11 % 13) - 6) / 4);
    for (size_t i = 0; i < c.size(); ++i)
        c[i] = static_cast<float>(i) / 3;
    Buffer da(a.size() * 2), db(b.size() * 2), dc(c.size() * 4);
    da.Write(a);
    db.Write(b);
    dc.Write(c);
    const float alpha = 1.25f, beta = 0.5f;  // C = alpha AB + beta C: each run changes C
    const Work gemm = [&](aclrtStream s) {
        EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &alpha, da.get(),
                                -1, ACL_FLOAT16, db.get(), -1, ACL_FLOAT16, &beta, dc.get(), -1,
                                ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, s),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
    };
    RunEagerly(stream_, gemm);
    const Bytes once = dc.Read();
    RunEagerly(stream_, gemm);
    const Bytes twice = dc.Read();
    dc.Write(c);
    const Bytes start = dc.Read();
    aclmdlRI model = Capture(stream_, gemm);
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(dc.Read(), start) << "the capture ran nothing";
    Replay(model, stream_);
    EXPECT_EQ(dc.Read(), once);
    Replay(model, stream_);
    EXPECT_EQ(dc.Read(), twice);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CapturedTaskKinds, AModelExecutionReplaysWithTheEagerOutputEvenAfterTheModelIsUnloaded) {
    const std::string onnx = test_onnx::Builder()
                                 .Input("a", {4, 8})
                                 .Input("b", {8, 4})
                                 .Output("y", {4, 4})
                                 .Node("MatMul", {"a", "b"}, {"t"})
                                 .Node("Relu", {"t"}, {"y"})
                                 .Bytes();
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromMem(onnx.data(), onnx.size(), &id), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<float> a(32), b(32);
    for (size_t i = 0; i < 32; ++i) {
        a[i] = static_cast<float>(static_cast<int>(i % 9) - 4) * 0.75f;
        b[i] = static_cast<float>(static_cast<int>(i % 5) - 2) * 1.5f;
    }
    Buffer da(32 * 4), db(32 * 4), dy(16 * 4);
    da.Write(a);
    db.Write(b);
    aclmdlDataset* in = aclmdlCreateDataset();
    aclmdlDataset* out = aclmdlCreateDataset();
    ASSERT_EQ(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(da.get(), da.size())), ACL_SUCCESS);
    ASSERT_EQ(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(db.get(), db.size())), ACL_SUCCESS);
    ASSERT_EQ(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(dy.get(), dy.size())), ACL_SUCCESS);
    const Work execute = [&](aclrtStream s) {
        EXPECT_EQ(aclmdlExecuteAsync(id, in, out, s), ACL_SUCCESS) << aclGetRecentErrMsg();
    };
    RunEagerly(stream_, execute);
    const Bytes eager = dy.Read();
    ASSERT_NE(eager, Bytes(eager.size(), 0)) << "the model computes something";
    dy.Fill(0);
    aclmdlRI model = Capture(stream_, execute);
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(dy.Read(), Bytes(eager.size(), 0)) << "the capture ran nothing";
    Replay(model, stream_);
    EXPECT_EQ(dy.Read(), eager);
    // The captured execution holds the model, as a queued one does.
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    dy.Fill(0);
    Replay(model, stream_);
    EXPECT_EQ(dy.Read(), eager);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    for (aclmdlDataset* set : {in, out}) {
        for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i)
            aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, i));
        aclmdlDestroyDataset(set);
    }
}

// ---- DVPP ----------------------------------------------------------------------------------

// A picture descriptor over a buffer, destroyed at scope exit.
struct Picture {
    acldvppPicDesc* desc = acldvppCreatePicDesc();
    Picture(const Buffer& buffer, acldvppPixelFormat format, uint32_t w, uint32_t h) {
        acldvppSetPicDescData(desc, buffer.get());
        acldvppSetPicDescSize(desc, buffer.size());
        acldvppSetPicDescFormat(desc, format);
        acldvppSetPicDescWidth(desc, w);
        acldvppSetPicDescHeight(desc, h);
        acldvppSetPicDescWidthStride(desc, w);
        acldvppSetPicDescHeightStride(desc, h);
    }
    ~Picture() { acldvppDestroyPicDesc(desc); }
    Picture(const Picture&) = delete;
    Picture& operator=(const Picture&) = delete;
};

// An NV12 picture of w x h (strides w and h): gradients, so every engine has work to do.
Bytes Nv12(uint32_t w, uint32_t h) {
    Bytes pic(w * h * 3 / 2);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
            pic[y * w + x] = static_cast<uint8_t>(16 + (190 * x / w + 40 * y / h));
    for (uint32_t i = w * h; i < pic.size(); ++i)
        pic[i] = static_cast<uint8_t>(64 + i % 128);
    return pic;
}

class CapturedDvpp : public CapturedTaskKinds {
 protected:
    void SetUp() override {
        CapturedTaskKinds::SetUp();
        channel_ = acldvppCreateChannelDesc();
        ASSERT_NE(channel_, nullptr);
        ASSERT_EQ(acldvppCreateChannel(channel_), ACL_SUCCESS);
    }
    void TearDown() override {
        acldvppDestroyChannel(channel_);
        acldvppDestroyChannelDesc(channel_);
        CapturedTaskKinds::TearDown();
    }
    acldvppChannelDesc* channel_ = nullptr;
};

TEST_F(CapturedDvpp, AVpcResizeAndCropReplayWithTheEagerPictures) {
    constexpr acldvppPixelFormat kNv12 = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    Buffer in(64 * 64 * 3 / 2, true), resized(32 * 32 * 3 / 2, true),
        cropped(32 * 32 * 3 / 2, true);
    in.Write(Nv12(64, 64));
    Picture in_pic(in, kNv12, 64, 64), resized_pic(resized, kNv12, 32, 32),
        cropped_pic(cropped, kNv12, 32, 32);
    acldvppRoiConfig* roi = acldvppCreateRoiConfig(16, 47, 8, 39);
    const Work vpc = [&](aclrtStream s) {
        EXPECT_EQ(acldvppVpcResizeAsync(channel_, in_pic.desc, resized_pic.desc, nullptr, s),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
        EXPECT_EQ(acldvppVpcCropAsync(channel_, in_pic.desc, cropped_pic.desc, roi, s), ACL_SUCCESS)
            << aclGetRecentErrMsg();
    };
    RunEagerly(stream_, vpc);
    const Bytes eager_resized = resized.Read(), eager_cropped = cropped.Read();
    const Bytes zeros(resized.size(), 0);
    ASSERT_NE(eager_resized, zeros);
    ASSERT_NE(eager_cropped, zeros);
    resized.Fill(0);
    cropped.Fill(0);
    aclmdlRI model = Capture(stream_, vpc);
    ASSERT_NE(model, nullptr);
    for (int run = 0; run < 2; ++run) {
        Replay(model, stream_);
        EXPECT_EQ(resized.Read(), eager_resized) << "replay " << run;
        EXPECT_EQ(cropped.Read(), eager_cropped) << "replay " << run;
        resized.Fill(0);
        cropped.Fill(0);
    }
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    acldvppDestroyRoiConfig(roi);
}

TEST_F(CapturedDvpp, AJpegEncodeAndDecodeReplayWithTheEagerBytes) {
    constexpr acldvppPixelFormat kNv12 = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    Buffer raw(64 * 64 * 3 / 2, true);
    raw.Write(Nv12(64, 64));
    Picture raw_pic(raw, kNv12, 64, 64);
    acldvppJpegeConfig* config = acldvppCreateJpegeConfig();
    ASSERT_EQ(acldvppSetJpegeConfigLevel(config, 90), ACL_SUCCESS);
    uint32_t capacity = 0;
    ASSERT_EQ(acldvppJpegPredictEncSize(raw_pic.desc, config, &capacity), ACL_SUCCESS);
    Buffer jpeg(capacity, true);
    uint32_t jpeg_size = capacity;
    // Encoded eagerly first: the decode's input size is the encoder's answer.
    RunEagerly(stream_, [&](aclrtStream s) {
        EXPECT_EQ(acldvppJpegEncodeAsync(channel_, raw_pic.desc, jpeg.get(), &jpeg_size, config, s),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
    });
    const Bytes eager_jpeg = jpeg.Read();
    const uint32_t eager_size = jpeg_size;
    ASSERT_GT(eager_size, 0u);
    ASSERT_LT(eager_size, capacity);
    uint32_t decoded_size = 0;
    const Bytes header(eager_jpeg.begin(), eager_jpeg.begin() + eager_size);
    ASSERT_EQ(acldvppJpegPredictDecSize(header.data(), eager_size, kNv12, &decoded_size),
              ACL_SUCCESS);
    Buffer decoded(decoded_size, true);
    acldvppPicDesc* decoded_pic = acldvppCreatePicDesc();
    acldvppSetPicDescData(decoded_pic, decoded.get());
    acldvppSetPicDescSize(decoded_pic, decoded.size());
    acldvppSetPicDescFormat(decoded_pic, kNv12);
    const Work codec = [&](aclrtStream s) {
        EXPECT_EQ(acldvppJpegEncodeAsync(channel_, raw_pic.desc, jpeg.get(), &jpeg_size, config, s),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
        EXPECT_EQ(acldvppJpegDecodeAsync(channel_, jpeg.get(), eager_size, decoded_pic, s),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
    };
    RunEagerly(stream_, codec);
    ASSERT_EQ(jpeg.Read(), eager_jpeg) << "the encoder is deterministic";
    const Bytes eager_decoded = decoded.Read();
    ASSERT_NE(eager_decoded, Bytes(decoded.size(), 0));
    jpeg.Fill(0);
    decoded.Fill(0);
    jpeg_size = capacity;
    aclmdlRI model = Capture(stream_, codec);
    ASSERT_NE(model, nullptr);
    for (int run = 0; run < 2; ++run) {
        Replay(model, stream_);
        EXPECT_EQ(jpeg_size, eager_size) << "replay " << run;
        EXPECT_EQ(jpeg.Read(), eager_jpeg) << "replay " << run;
        EXPECT_EQ(decoded.Read(), eager_decoded) << "replay " << run;
        jpeg.Fill(0);
        decoded.Fill(0);
        jpeg_size = capacity;
    }
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    acldvppDestroyPicDesc(decoded_pic);
    acldvppDestroyJpegeConfig(config);
}

// ---- Copies and fills ----------------------------------------------------------------------

TEST_F(CapturedTaskKinds, AMemcpyBatchCopiesTheSourcesAgainAtEachReplay) {
    constexpr size_t kCopies = 3, kSize = 96;
    void* host[kCopies] = {};
    void* srcs[kCopies] = {};
    void* dsts[kCopies] = {};
    size_t maxes[kCopies], sizes[kCopies];
    std::vector<std::unique_ptr<Buffer>> device;
    for (size_t i = 0; i < kCopies; ++i) {
        ASSERT_EQ(aclrtMallocHost(&host[i], kSize), ACL_SUCCESS);
        std::memcpy(host[i], Pattern(kSize, static_cast<uint8_t>(i)).data(), kSize);
        device.push_back(std::make_unique<Buffer>(kSize));
        srcs[i] = host[i];
        dsts[i] = device[i]->get();
        maxes[i] = sizes[i] = kSize - 8 * i;
    }
    aclrtMemcpyBatchAttr attr{};
    attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
    size_t first = 0, fail = 0;
    const Work batch = [&](aclrtStream s) {
        EXPECT_EQ(
            aclrtMemcpyBatchAsync(dsts, maxes, srcs, sizes, kCopies, &attr, &first, 1, &fail, s),
            ACL_SUCCESS)
            << aclGetRecentErrMsg();
    };
    RunEagerly(stream_, batch);
    std::vector<Bytes> eager;
    for (const auto& d : device) {
        eager.push_back(d->Read());
        d->Fill(0);
    }
    aclmdlRI model = Capture(stream_, batch);
    ASSERT_NE(model, nullptr);
    Replay(model, stream_);
    for (size_t i = 0; i < kCopies; ++i)
        EXPECT_EQ(device[i]->Read(), eager[i]) << i;
    // The sources are read when the replay runs.
    for (size_t i = 0; i < kCopies; ++i)
        std::memcpy(host[i], Pattern(kSize, static_cast<uint8_t>(100 + i)).data(), kSize);
    Replay(model, stream_);
    for (size_t i = 0; i < kCopies; ++i) {
        Bytes expected = Pattern(kSize, static_cast<uint8_t>(100 + i));
        std::fill(expected.begin() + static_cast<ptrdiff_t>(sizes[i]), expected.end(), 0);
        EXPECT_EQ(device[i]->Read(), expected) << i;
    }
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    for (void* p : host)
        aclrtFreeHost(p);
}

TEST_F(CapturedTaskKinds, AMemsetD32AndA2dCopyReplayWithTheEagerBytes) {
    constexpr size_t kSize = 256;
    Buffer src(kSize), filled(kSize), copied(kSize);
    src.Write(Pattern(kSize, 7));
    const Work work = [&](aclrtStream s) {
        EXPECT_EQ(aclrtMemsetD32Async(filled.get(), kSize, 0xA5C30F01u, 40, s), ACL_SUCCESS);
        // 12 rows of 10 bytes, from rows 16 apart to rows 20 apart.
        EXPECT_EQ(aclrtMemcpy2dAsync(copied.get(), 20, src.get(), 16, 10, 12,
                                     ACL_MEMCPY_DEVICE_TO_DEVICE, s),
                  ACL_SUCCESS)
            << aclGetRecentErrMsg();
    };
    RunEagerly(stream_, work);
    const Bytes eager_filled = filled.Read(), eager_copied = copied.Read();
    filled.Fill(0);
    copied.Fill(0);
    aclmdlRI model = Capture(stream_, work);
    ASSERT_NE(model, nullptr);
    for (int run = 0; run < 2; ++run) {
        Replay(model, stream_);
        EXPECT_EQ(filled.Read(), eager_filled) << "replay " << run;
        EXPECT_EQ(copied.Read(), eager_copied) << "replay " << run;
        filled.Fill(0);
        copied.Fill(0);
    }
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CapturedTaskKinds, AMemsetD32AsyncOfHostMemoryIsRefusedInACapture) {
    void* host = nullptr;
    ASSERT_EQ(aclrtMallocHost(&host, 64), ACL_SUCCESS);
    std::memset(host, 0, 64);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    // Host memory is filled in the call, which a replay would not repeat.
    EXPECT_EQ(aclrtMemsetD32Async(host, 64, 7, 16, stream_), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("aclrtMemsetD32Async of host memory");
    EXPECT_EQ(Bytes(static_cast<uint8_t*>(host), static_cast<uint8_t*>(host) + 64), Bytes(64, 0));
    aclmdlRI model = nullptr;
    aclmdlRICaptureEnd(stream_, &model);  // whether it survives is the capture's rule
    if (model != nullptr) aclmdlRIDestroy(model);
    aclGetRecentErrMsg();
    aclrtFreeHost(host);
}

// ---- Host code -----------------------------------------------------------------------------

void Count(void* counter) {
    static_cast<std::atomic<int>*>(counter)->fetch_add(1);
}

TEST_F(CapturedTaskKinds, HostFunctionsAndCallbacksRunOnceAtEachReplay) {
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::atomic<uint64_t> reporter_id{0};
    std::atomic<bool> stop{false};
    std::thread reporter([&] {
        aclrtSetCurrentContext(context);
        reporter_id.store(static_cast<uint64_t>(pthread_self()));
        while (!stop.load())
            aclrtProcessReport(5);
    });
    ASSERT_TRUE(async_test::WaitUntil([&] { return reporter_id.load() != 0; }));
    ASSERT_EQ(aclrtSubscribeReport(reporter_id.load(), stream_), ACL_SUCCESS);
    std::atomic<int> functions{0}, blocking{0}, plain{0};
    const Work work = [&](aclrtStream s) {
        EXPECT_EQ(aclrtLaunchHostFunc(s, Count, &functions), ACL_SUCCESS);
        EXPECT_EQ(aclrtLaunchCallback(Count, &blocking, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
        EXPECT_EQ(aclrtLaunchCallback(Count, &plain, ACL_CALLBACK_NO_BLOCK, s), ACL_SUCCESS);
    };
    RunEagerly(stream_, work);
    ASSERT_TRUE(async_test::WaitUntil([&] { return plain.load() == 1; }));
    aclmdlRI model = Capture(stream_, work);
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(functions.load() + blocking.load() + plain.load(), 3) << "the capture ran nothing";
    for (int run = 0; run < 3; ++run)
        Replay(model, stream_);
    EXPECT_EQ(functions.load(), 4);
    EXPECT_EQ(blocking.load(), 4) << "the stream waited for each blocking callback";
    EXPECT_TRUE(async_test::WaitUntil([&] { return plain.load() == 4; })) << plain.load();
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnSubscribeReport(reporter_id.load(), stream_), ACL_SUCCESS);
    stop.store(true);
    reporter.join();
}

// ---- Waits ---------------------------------------------------------------------------------

// A second stream forked from an origin stream and joined back to it, so that a capture of the
// origin takes both, and a log of the marks host functions leave on them.
class TwoStreams {
 public:
    TwoStreams() {
        EXPECT_EQ(aclrtCreateStream(&side_), ACL_SUCCESS);
        EXPECT_EQ(aclrtCreateEvent(&fork_), ACL_SUCCESS);
        EXPECT_EQ(aclrtCreateEvent(&join_), ACL_SUCCESS);
    }
    ~TwoStreams() {
        aclrtDestroyEvent(fork_);
        aclrtDestroyEvent(join_);
        aclrtDestroyStream(side_);
    }
    TwoStreams(const TwoStreams&) = delete;
    TwoStreams& operator=(const TwoStreams&) = delete;

    // The second stream runs `wait` and then marks 'W'; the origin meanwhile sleeps a little,
    // marks 'R' and runs `signal`. A wait that waits leaves "RW".
    void Run(aclrtStream origin, const Work& wait, const Work& signal) {
        EXPECT_EQ(aclrtRecordEvent(fork_, origin), ACL_SUCCESS);
        EXPECT_EQ(aclrtStreamWaitEvent(side_, fork_), ACL_SUCCESS);
        wait(side_);
        EXPECT_EQ(aclrtLaunchHostFunc(side_, MarkWait, this), ACL_SUCCESS);
        EXPECT_EQ(aclrtLaunchHostFunc(origin, SleepAndMarkRecord, this), ACL_SUCCESS);
        signal(origin);
        EXPECT_EQ(aclrtRecordEvent(join_, side_), ACL_SUCCESS);
        EXPECT_EQ(aclrtStreamWaitEvent(origin, join_), ACL_SUCCESS);
    }
    std::string TakeLog() {
        std::lock_guard lock(mutex_);
        return std::move(log_);
    }

 private:
    static void MarkWait(void* self) { static_cast<TwoStreams*>(self)->Mark('W'); }
    static void SleepAndMarkRecord(void* self) {
        std::this_thread::sleep_for(10ms);
        static_cast<TwoStreams*>(self)->Mark('R');
    }
    void Mark(char c) {
        std::lock_guard lock(mutex_);
        log_ += c;
    }

    aclrtStream side_ = nullptr;
    aclrtEvent fork_ = nullptr;
    aclrtEvent join_ = nullptr;
    std::mutex mutex_;
    std::string log_;
};

TEST_F(CapturedTaskKinds, ANotifyWaitOnAJoinedStreamWaitsAgainForEachReplaysRecord) {
    aclrtNotify notify = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&notify, 0), ACL_SUCCESS);
    TwoStreams streams;
    const Work work = [&](aclrtStream s) {
        streams.Run(
            s,
            [&](aclrtStream side) {
                EXPECT_EQ(aclrtWaitAndResetNotify(notify, side, 5), ACL_SUCCESS)
                    << aclGetRecentErrMsg();
            },
            [&](aclrtStream origin) { EXPECT_EQ(aclrtRecordNotify(notify, origin), ACL_SUCCESS); });
    };
    RunEagerly(stream_, work);
    EXPECT_EQ(streams.TakeLog(), "RW");
    aclmdlRI model = Capture(stream_, work);
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(streams.TakeLog(), "");
    for (int run = 0; run < 3; ++run)
        Replay(model, stream_);
    EXPECT_EQ(streams.TakeLog(), "RWRWRW");
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyNotify(notify), ACL_SUCCESS) << "no wait is left, no reference held";
}

// Replays the captured wait `notify` on a stream and destroys that stream (with ...Force) while
// the wait is parked: the discarded copy, borrowed, is not called, so it cannot leave the
// notify's list of waits.
void DiscardAParkedReplayOfAWaitFor(aclrtNotify notify, aclrtStream capture_on) {
    aclmdlRI model = Capture(capture_on, [&](aclrtStream s) {
        EXPECT_EQ(aclrtWaitAndResetNotify(notify, s, 0), ACL_SUCCESS);
    });
    ASSERT_NE(model, nullptr);
    aclrtStream doomed = nullptr;
    ASSERT_EQ(aclrtCreateStream(&doomed), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, doomed), ACL_SUCCESS);
    std::this_thread::sleep_for(10ms);  // parks meanwhile
    ASSERT_EQ(aclrtDestroyStreamForce(doomed), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(CapturedTaskKinds, ARecordReachesTheWaitBehindADiscardedReplaysWait) {
    aclrtNotify notify = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&notify, 0), ACL_SUCCESS);
    DiscardAParkedReplayOfAWaitFor(notify, stream_);
    aclrtStream waiter = nullptr, recorder = nullptr;
    ASSERT_EQ(aclrtCreateStream(&waiter), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&recorder), ACL_SUCCESS);
    ASSERT_EQ(aclrtWaitAndResetNotify(notify, waiter, 0), ACL_SUCCESS);
    std::this_thread::sleep_for(10ms);  // parked behind the discarded one
    ASSERT_EQ(aclrtRecordNotify(notify, recorder), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(waiter, 2000), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(recorder), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyNotify(notify), ACL_SUCCESS);
    aclrtDestroyStream(recorder);
    aclrtDestroyStreamForce(waiter);
}

TEST_F(CapturedTaskKinds, ANotifyWhoseOnlyWaitWasADiscardedReplaysCanBeDestroyed) {
    aclrtNotify notify = nullptr;
    ASSERT_EQ(aclrtCreateNotify(&notify, 0), ACL_SUCCESS);
    DiscardAParkedReplayOfAWaitFor(notify, stream_);
    EXPECT_EQ(aclrtDestroyNotify(notify), ACL_SUCCESS) << aclGetRecentErrMsg();
}

TEST_F(CapturedTaskKinds, AValueWaitOnAJoinedStreamWaitsAgainForEachReplaysWrite) {
    Buffer flag(8);
    TwoStreams streams;
    const Work work = [&](aclrtStream s) {
        streams.Run(
            s,
            [&](aclrtStream side) {
                EXPECT_EQ(aclrtValueWait(flag.get(), 1, ACL_STREAM_WAIT_VALUE_EQ, side),
                          ACL_SUCCESS)
                    << aclGetRecentErrMsg();
                EXPECT_EQ(aclrtValueWrite(flag.get(), 0, 0, side), ACL_SUCCESS);  // re-arms it
            },
            [&](aclrtStream origin) {
                EXPECT_EQ(aclrtValueWrite(flag.get(), 1, 0, origin), ACL_SUCCESS);
            });
    };
    RunEagerly(stream_, work);
    EXPECT_EQ(streams.TakeLog(), "RW");
    aclmdlRI model = Capture(stream_, work);
    ASSERT_NE(model, nullptr);
    for (int run = 0; run < 3; ++run)
        Replay(model, stream_);
    EXPECT_EQ(streams.TakeLog(), "RWRWRW");
    EXPECT_EQ(flag.Read(), Bytes(8, 0));
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// Counting notifies are the Ascend 950's.
class CapturedCountingNotify : public InitializedDeviceTest {
 protected:
    void SetUp() override {
        InitializedDeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStream(stream_);
        InitializedDeviceTest::TearDown();
    }
    aclrtStream stream_ = nullptr;

 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend950PR_9599"};
};

TEST_F(CapturedCountingNotify, AWaitOnAJoinedStreamComparesAgainAtEachReplay) {
    aclrtCntNotify notify = nullptr;
    ASSERT_EQ(aclrtCntNotifyCreate(&notify, 0), ACL_SUCCESS) << aclGetRecentErrMsg();
    TwoStreams streams;
    const Work work = [&](aclrtStream s) {
        streams.Run(
            s,
            [&](aclrtStream side) {
                aclrtCntNotifyWaitInfo info{};
                info.mode = ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE;
                info.value = 2;
                info.timeout = 5;
                info.isClear = 1;  // so that the next replay waits again
                EXPECT_EQ(aclrtCntNotifyWaitWithTimeout(notify, side, &info), ACL_SUCCESS)
                    << aclGetRecentErrMsg();
            },
            [&](aclrtStream origin) {
                aclrtCntNotifyRecordInfo add{ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1};
                EXPECT_EQ(aclrtCntNotifyRecord(notify, origin, &add), ACL_SUCCESS);
                EXPECT_EQ(aclrtCntNotifyRecord(notify, origin, &add), ACL_SUCCESS);
            });
    };
    RunEagerly(stream_, work);
    EXPECT_EQ(streams.TakeLog(), "RW");
    aclmdlRI model = Capture(stream_, work);
    ASSERT_NE(model, nullptr);
    for (int run = 0; run < 3; ++run)
        Replay(model, stream_);
    EXPECT_EQ(streams.TakeLog(), "RWRWRW");
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    EXPECT_EQ(aclrtCntNotifyDestroy(notify), ACL_SUCCESS);
}

}  // namespace
