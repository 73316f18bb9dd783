// Helpers for the DVPP tests: a device, a stream and a channel; media buffers filled from host
// data; test pictures made at test time (smooth gradients, so interpolation differences stay
// small) and encoded with libjpeg-turbo or OpenCV. Nothing is downloaded.
#pragma once

#include <gtest/gtest.h>
#include <turbojpeg.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

#define EXPECT_MESSAGE_CONTAINS(text)                                                              \
    do {                                                                                           \
        const char* message_ = aclGetRecentErrMsg();                                               \
        ASSERT_NE(message_, nullptr) << "no error message was recorded";                           \
        EXPECT_NE(std::string(message_).find(text), std::string::npos) << "message: " << message_; \
    } while (0)

inline uint32_t AlignUp(uint32_t x, uint32_t k) {
    return (x + k - 1) / k * k;
}

// A media buffer (acldvppMalloc) freed at scope exit.
class MediaBuffer {
 public:
    explicit MediaBuffer(size_t size) : size_(size) {
        EXPECT_EQ(acldvppMalloc(&data_, size), ACL_SUCCESS);
        if (data_) aclrtMemset(data_, size, 0, size);
    }
    explicit MediaBuffer(const std::vector<uint8_t>& host) : MediaBuffer(host.size()) {
        if (data_) {
            EXPECT_EQ(
                aclrtMemcpy(data_, size_, host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
        }
    }
    ~MediaBuffer() {
        if (data_) acldvppFree(data_);
    }
    MediaBuffer(const MediaBuffer&) = delete;
    MediaBuffer& operator=(const MediaBuffer&) = delete;
    void* get() const { return data_; }
    uint32_t size() const { return static_cast<uint32_t>(size_); }
    std::vector<uint8_t> Read() const {
        std::vector<uint8_t> host(size_);
        EXPECT_EQ(aclrtMemcpy(host.data(), size_, data_, size_, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        return host;
    }

 private:
    void* data_ = nullptr;
    size_t size_;
};

// A picture descriptor destroyed at scope exit.
struct PicDesc {
    acldvppPicDesc* desc = acldvppCreatePicDesc();
    PicDesc() = default;
    PicDesc(void* data, uint32_t size, acldvppPixelFormat format, uint32_t w, uint32_t h,
            uint32_t ws, uint32_t hs) {
        acldvppSetPicDescData(desc, data);
        acldvppSetPicDescSize(desc, size);
        acldvppSetPicDescFormat(desc, format);
        acldvppSetPicDescWidth(desc, w);
        acldvppSetPicDescHeight(desc, h);
        acldvppSetPicDescWidthStride(desc, ws);
        acldvppSetPicDescHeightStride(desc, hs);
    }
    ~PicDesc() { acldvppDestroyPicDesc(desc); }
    PicDesc(const PicDesc&) = delete;
    PicDesc& operator=(const PicDesc&) = delete;
    operator acldvppPicDesc*() const { return desc; }
};

// Device 0, a stream, and a channel with every engine.
class DvppTest : public ::testing::Test {
 protected:
    void SetUp() override {
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
        channel_ = acldvppCreateChannelDesc();
        ASSERT_NE(channel_, nullptr);
        ASSERT_EQ(acldvppCreateChannel(channel_), ACL_SUCCESS);
    }
    void TearDown() override {
        acldvppDestroyChannel(channel_);
        acldvppDestroyChannelDesc(channel_);
        aclrtDestroyStream(stream_);
        aclrtResetDeviceForce(0);
        aclGetRecentErrMsg();
    }
    aclrtStream stream_ = nullptr;
    acldvppChannelDesc* channel_ = nullptr;
};

// DvppTest on a chosen chip: OPENACL_SOC_NAME is set before aclInit, so the DVPP rules are
// that chip's (each test runs in its own process). Derived fixtures pass the soc name.
class DvppChipTest : public DvppTest {
 protected:
    explicit DvppChipTest(const char* soc_name) : soc_name_(soc_name) {}
    void SetUp() override {
        setenv("OPENACL_SOC_NAME", soc_name_, 1);
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_STREQ(aclrtGetSocName(), soc_name_);
        DvppTest::SetUp();
    }
    void TearDown() override {
        DvppTest::TearDown();
        aclFinalize();
        unsetenv("OPENACL_SOC_NAME");
    }
    const char* soc_name_;
};

// An NV12 picture in host memory with strides ws x hs: a smooth luma gradient and slowly
// varying chroma.
inline std::vector<uint8_t> MakeNv12(uint32_t w, uint32_t h, uint32_t ws, uint32_t hs) {
    std::vector<uint8_t> pic(static_cast<size_t>(ws) * hs * 3 / 2, 0);
    for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
            pic[y * ws + x] = static_cast<uint8_t>(16 + (200 * x / w + 30 * y / h) % 220);
        }
    }
    uint8_t* uv = pic.data() + static_cast<size_t>(ws) * hs;
    for (uint32_t y = 0; y < h / 2; ++y) {
        for (uint32_t x = 0; x < w / 2; ++x) {
            uv[y * ws + 2 * x] = static_cast<uint8_t>(64 + 128 * x / (w / 2));
            uv[y * ws + 2 * x + 1] = static_cast<uint8_t>(192 - 128 * y / (h / 2));
        }
    }
    return pic;
}

// An NV12 picture with texture (sinusoids of a few pixels' period), where nearest and bilinear
// sampling differ clearly, so a resize comparison tells them apart.
inline std::vector<uint8_t> MakeTexturedNv12(uint32_t w, uint32_t h, uint32_t ws, uint32_t hs) {
    std::vector<uint8_t> pic(static_cast<size_t>(ws) * hs * 3 / 2, 0);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
            pic[y * ws + x] =
                static_cast<uint8_t>(128 + 100 * std::sin(x * 0.3) * std::cos(y * 0.2));
    uint8_t* uv = pic.data() + static_cast<size_t>(ws) * hs;
    for (uint32_t y = 0; y < h / 2; ++y)
        for (uint32_t x = 0; x < w / 2; ++x) {
            uv[y * ws + 2 * x] = static_cast<uint8_t>(128 + 60 * std::sin(x * 0.4));
            uv[y * ws + 2 * x + 1] = static_cast<uint8_t>(128 + 60 * std::cos(y * 0.5));
        }
    return pic;
}

// Encodes a smooth test image (w x h) as a JPEG with the given TurboJPEG subsampling.
inline std::vector<uint8_t> MakeJpeg(int w, int h, int subsamp, int quality = 95) {
    std::vector<uint8_t> rgb(static_cast<size_t>(w) * h * 3);
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            uint8_t* p = &rgb[(static_cast<size_t>(y) * w + x) * 3];
            p[0] = static_cast<uint8_t>(255 * x / w);
            p[1] = static_cast<uint8_t>(255 * y / h);
            p[2] = static_cast<uint8_t>(128 + 64 * ((x + y) % 2 == 0 ? 0 : 0));
        }
    }
    tjhandle tj = tjInitCompress();
    unsigned char* out = nullptr;
    unsigned long size = 0;
    int pf = TJPF_RGB;
    std::vector<uint8_t> grey;
    const unsigned char* src = rgb.data();
    if (subsamp == TJSAMP_GRAY) {
        grey.resize(static_cast<size_t>(w) * h);
        for (size_t i = 0; i < grey.size(); ++i)
            grey[i] = rgb[3 * i];
        src = grey.data();
        pf = TJPF_GRAY;
    }
    EXPECT_EQ(tjCompress2(tj, src, w, 0, h, pf, &out, &size, subsamp, quality, 0), 0);
    std::vector<uint8_t> jpeg(out, out + size);
    tjFree(out);
    tjDestroy(tj);
    return jpeg;
}
