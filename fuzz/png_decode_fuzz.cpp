// Fuzz target: PNG decoding (PNGD) on arbitrary bytes. acldvppPngGetImageInfo and
// acldvppPngPredictDecSize probe them on the host; when they describe a picture the decoder
// takes, acldvppPngDecodeAsync decodes them into a buffer of the predicted size, as RGB or RGBA
// (the first byte of the input chooses, so the seeds reach both). Every outcome must be a code
// (the stream's, for undecodable data): no crash, hang or leak.
#define ENABLE_DVPP_INTERFACE
#include <cstddef>
#include <cstdint>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

namespace {

struct Device {
    aclrtStream stream = nullptr;
    acldvppChannelDesc* channel = nullptr;
    Device() {
        aclrtSetDevice(0);
        aclrtCreateStream(&stream);
        channel = acldvppCreateChannelDesc();
        acldvppSetChannelDescMode(channel, DVPP_CHNMODE_PNGD);
        acldvppCreateChannel(channel);
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static Device device;  // one device for the whole run, as a decoding service would hold
    const acldvppPixelFormat format =
        size > 0 && (data[size - 1] & 1) != 0 ? PIXEL_FORMAT_RGBA_8888 : PIXEL_FORMAT_RGB_888;
    uint32_t w = 0, h = 0, out_size = 0;
    int32_t components = 0;
    aclError info = acldvppPngGetImageInfo(data, static_cast<uint32_t>(size), &w, &h, &components);
    aclError predicted =
        acldvppPngPredictDecSize(data, static_cast<uint32_t>(size), format, &out_size);
    // Decoding is bounded (the fuzzer's memory limit): up to 2048 x 2048.
    if (info == ACL_SUCCESS && predicted == ACL_SUCCESS && size > 0 && out_size > 0 && w <= 2048 &&
        h <= 2048) {
        void* in = nullptr;
        void* out = nullptr;
        if (acldvppMalloc(&in, size) == ACL_SUCCESS &&
            acldvppMalloc(&out, out_size) == ACL_SUCCESS) {
            aclrtMemcpy(in, size, data, size, ACL_MEMCPY_HOST_TO_DEVICE);
            acldvppPicDesc* pic = acldvppCreatePicDesc();
            acldvppSetPicDescData(pic, out);
            acldvppSetPicDescSize(pic, out_size);
            acldvppSetPicDescFormat(pic, format);
            if (acldvppPngDecodeAsync(device.channel, in, static_cast<uint32_t>(size), pic,
                                      device.stream) == ACL_SUCCESS) {
                aclrtSynchronizeStream(device.stream);
            }
            acldvppDestroyPicDesc(pic);
        }
        if (in) acldvppFree(in);
        if (out) acldvppFree(out);
    }
    aclGetRecentErrMsg();
    return 0;
}
