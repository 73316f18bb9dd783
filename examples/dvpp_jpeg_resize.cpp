// A DVPP pre-processing pipeline as real AscendCL programs write it: encode a picture to JPEG
// (JPEGE), read the JPEG's header on the host, decode it (JPEGD), resize it to a model's
// 224x224 input (VPC) and letterbox it into a 320x256 canvas (crop-and-paste). Every task goes
// on one stream; results are read after aclrtSynchronizeStream. Build it against openacl or
// CANN unchanged: it uses only the public API (with ENABLE_DVPP_INTERFACE, as CANN requires).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

namespace {

void Check(aclError rc, const char* what) {
    if (rc != ACL_SUCCESS) {
        const char* message = aclGetRecentErrMsg();
        std::printf("FAILED: %s returned %d: %s\n", what, rc, message ? message : "");
        std::exit(1);
    }
    std::printf("ok  %s\n", what);
}

uint32_t AlignUp(uint32_t x, uint32_t k) {
    return (x + k - 1) / k * k;
}

// A picture descriptor for a semi-planar YUV 4:2:0 picture.
acldvppPicDesc* Nv12Desc(void* data, uint32_t size, uint32_t w, uint32_t h, uint32_t ws,
                         uint32_t hs) {
    acldvppPicDesc* desc = acldvppCreatePicDesc();
    acldvppSetPicDescData(desc, data);
    acldvppSetPicDescSize(desc, size);
    acldvppSetPicDescFormat(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(desc, w);
    acldvppSetPicDescHeight(desc, h);
    acldvppSetPicDescWidthStride(desc, ws);
    acldvppSetPicDescHeightStride(desc, hs);
    return desc;
}

}  // namespace

int main() {
    Check(aclInit(nullptr), "aclInit");
    Check(aclrtSetDevice(0), "aclrtSetDevice(0)");
    aclrtStream stream = nullptr;
    Check(aclrtCreateStream(&stream), "aclrtCreateStream");
    acldvppChannelDesc* channel = acldvppCreateChannelDesc();
    Check(acldvppCreateChannel(channel), "acldvppCreateChannel (VPC, JPEGD, JPEGE, PNGD)");

    // 1. A 640x480 NV12 picture (a colour gradient), encoded to JPEG by JPEGE.
    const uint32_t w = 640, h = 480, ws = AlignUp(w, 16), hs = AlignUp(h, 2);
    std::vector<uint8_t> nv12(ws * hs * 3 / 2);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
            nv12[y * ws + x] = static_cast<uint8_t>(16 + 219 * x / w);
    for (uint32_t i = ws * hs; i < nv12.size(); i += 2) {
        nv12[i] = 90;
        nv12[i + 1] = 200;
    }
    void* picture = nullptr;
    Check(acldvppMalloc(&picture, nv12.size()), "acldvppMalloc for the picture");
    Check(aclrtMemcpy(picture, nv12.size(), nv12.data(), nv12.size(), ACL_MEMCPY_HOST_TO_DEVICE),
          "aclrtMemcpy the picture to media memory");
    acldvppPicDesc* picture_desc = Nv12Desc(picture, nv12.size(), w, h, ws, hs);
    acldvppJpegeConfig* jpege = acldvppCreateJpegeConfig();
    Check(acldvppSetJpegeConfigLevel(jpege, 90), "acldvppSetJpegeConfigLevel(90)");
    uint32_t jpeg_capacity = 0;
    Check(acldvppJpegPredictEncSize(picture_desc, jpege, &jpeg_capacity),
          "acldvppJpegPredictEncSize");
    void* jpeg = nullptr;
    Check(acldvppMalloc(&jpeg, jpeg_capacity), "acldvppMalloc for the JPEG");
    uint32_t jpeg_size = jpeg_capacity;
    Check(acldvppJpegEncodeAsync(channel, picture_desc, jpeg, &jpeg_size, jpege, stream),
          "acldvppJpegEncodeAsync");
    Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream: the JPEG is ready");
    std::printf("    %u-byte JPEG (predicted at most %u)\n", jpeg_size, jpeg_capacity);

    // 2. The header is read on the host, as applications do after reading a file.
    std::vector<uint8_t> host_jpeg(jpeg_size);
    Check(aclrtMemcpy(host_jpeg.data(), jpeg_size, jpeg, jpeg_size, ACL_MEMCPY_DEVICE_TO_HOST),
          "aclrtMemcpy the JPEG back to the host");
    uint32_t jw = 0, jh = 0;
    int32_t components = 0;
    Check(acldvppJpegGetImageInfo(host_jpeg.data(), jpeg_size, &jw, &jh, &components),
          "acldvppJpegGetImageInfo");
    uint32_t decoded_size = 0;
    Check(acldvppJpegPredictDecSize(host_jpeg.data(), jpeg_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420,
                                    &decoded_size),
          "acldvppJpegPredictDecSize");
    std::printf("    %ux%u, %d components, decodes into %u bytes\n", jw, jh, components,
                decoded_size);

    // 3. JPEGD writes NV12 with strides aligned to 128 x 16 (64 x 16 on the 310P, the default
    // chip); the descriptor says so after sync.
    void* decoded = nullptr;
    Check(acldvppMalloc(&decoded, decoded_size), "acldvppMalloc for the decoded picture");
    acldvppPicDesc* decoded_desc = acldvppCreatePicDesc();
    acldvppSetPicDescData(decoded_desc, decoded);
    acldvppSetPicDescSize(decoded_desc, decoded_size);
    acldvppSetPicDescFormat(decoded_desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    Check(acldvppJpegDecodeAsync(channel, jpeg, jpeg_size, decoded_desc, stream),
          "acldvppJpegDecodeAsync");

    // 4. VPC resizes the decoded picture to 224x224 (queued behind the decode, same stream).
    const uint32_t mw = 224, mh = 224;
    const uint32_t model_size = AlignUp(mw, 16) * AlignUp(mh, 2) * 3 / 2;
    void* model_input = nullptr;
    Check(acldvppMalloc(&model_input, model_size), "acldvppMalloc for the 224x224 input");
    acldvppPicDesc* model_desc = Nv12Desc(model_input, model_size, mw, mh, AlignUp(mw, 16), mh);
    acldvppResizeConfig* resize = acldvppCreateResizeConfig();
    Check(acldvppSetResizeConfigInterpolation(resize, 1), "bilinear interpolation");
    Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream: decoded");
    std::printf("    decoded %ux%u, strides %ux%u\n", acldvppGetPicDescWidth(decoded_desc),
                acldvppGetPicDescHeight(decoded_desc), acldvppGetPicDescWidthStride(decoded_desc),
                acldvppGetPicDescHeightStride(decoded_desc));
    Check(acldvppVpcResizeAsync(channel, decoded_desc, model_desc, resize, stream),
          "acldvppVpcResizeAsync to 224x224");

    // 5. Letterbox: the whole picture scaled to 320x240 and pasted at row 8 of a 320x256 canvas;
    //    the rows above and below keep the canvas's black.
    const uint32_t cw = 320, ch = 256, canvas_size = cw * ch * 3 / 2;
    std::vector<uint8_t> black(canvas_size, 16);
    std::memset(black.data() + cw * ch, 128, cw * ch / 2);
    void* canvas = nullptr;
    Check(acldvppMalloc(&canvas, canvas_size), "acldvppMalloc for the canvas");
    Check(aclrtMemcpy(canvas, canvas_size, black.data(), canvas_size, ACL_MEMCPY_HOST_TO_DEVICE),
          "aclrtMemcpy a black canvas");
    acldvppPicDesc* canvas_desc = Nv12Desc(canvas, canvas_size, cw, ch, cw, ch);
    acldvppRoiConfig* crop = acldvppCreateRoiConfig(0, jw - 1, 0, jh - 1);
    acldvppRoiConfig* paste = acldvppCreateRoiConfig(0, cw - 1, 8, 8 + 240 - 1);
    Check(acldvppVpcCropAndPasteAsync(channel, decoded_desc, canvas_desc, crop, paste, stream),
          "acldvppVpcCropAndPasteAsync into the canvas");
    Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream: both VPC tasks done");

    std::vector<uint8_t> letterbox(canvas_size);
    Check(
        aclrtMemcpy(letterbox.data(), canvas_size, canvas, canvas_size, ACL_MEMCPY_DEVICE_TO_HOST),
        "aclrtMemcpy the canvas back");
    std::printf("    canvas row 0 luma %u (black), row 128 luma at x=0/160/319: %u/%u/%u\n",
                letterbox[0], letterbox[128 * cw], letterbox[128 * cw + 160],
                letterbox[128 * cw + 319]);
    const bool ok = letterbox[0] == 16 && letterbox[128 * cw + 319] > letterbox[128 * cw];

    acldvppDestroyRoiConfig(crop);
    acldvppDestroyRoiConfig(paste);
    acldvppDestroyResizeConfig(resize);
    acldvppDestroyJpegeConfig(jpege);
    for (acldvppPicDesc* d : {picture_desc, decoded_desc, model_desc, canvas_desc})
        acldvppDestroyPicDesc(d);
    for (void* p : {picture, jpeg, decoded, model_input, canvas})
        Check(acldvppFree(p), "acldvppFree");
    Check(acldvppDestroyChannel(channel), "acldvppDestroyChannel");
    Check(acldvppDestroyChannelDesc(channel), "acldvppDestroyChannelDesc");
    Check(aclrtDestroyStream(stream), "aclrtDestroyStream");
    Check(aclrtResetDevice(0), "aclrtResetDevice");
    Check(aclFinalize(), "aclFinalize");
    std::printf(ok ? "pipeline OK\n" : "pipeline produced unexpected pixels\n");
    return ok ? 0 : 1;
}
