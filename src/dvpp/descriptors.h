// The opaque DVPP types of acl_dvpp.h: plain host objects holding what their setters set. The
// tasks read them when they are enqueued (inputs) or write them when they run (outputs).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "acl/ops/acl_dvpp.h"
#include "core/live_set.h"

struct acldvppPicDesc {
    void* data = nullptr;
    uint32_t size = 0;
    acldvppPixelFormat format = PIXEL_FORMAT_YUV_400;
    uint32_t width = 0;
    uint32_t height = 0;
    uint32_t width_stride = 0;
    uint32_t height_stride = 0;
    uint32_t ret_code = 0;
    bool in_batch = false;  // owned by an acldvppBatchPicDesc: destroyed with it only
};

struct acldvppBatchPicDesc {
    std::vector<std::unique_ptr<acldvppPicDesc>> pictures;
};

struct acldvppRoiConfig {
    uint32_t left = 0;
    uint32_t right = 0;
    uint32_t top = 0;
    uint32_t bottom = 0;
};

struct acldvppResizeConfig {
    uint32_t interpolation = 0;
};

struct acldvppJpegeConfig {
    uint32_t level = 0;
};

struct acldvppBorderConfig {
    std::array<double, 4> value{};
    acldvppBorderType border_type = BORDER_CONSTANT;
    uint32_t top = 0;
    uint32_t bottom = 0;
    uint32_t left = 0;
    uint32_t right = 0;
};

struct acldvppLutMap {
    std::vector<std::vector<uint8_t>> tables;  // one 256-entry table per component
};

// A compressed bit stream: VDEC's input, VENC's output. The data is the caller's (VDEC) or the
// library's, valid during the callback (VENC).
struct acldvppStreamDesc {
    void* data = nullptr;
    uint32_t size = 0;
    acldvppStreamFormat format = H265_MAIN_LEVEL;
    uint64_t timestamp = 0;
    uint32_t ret_code = 0;
    uint8_t eos = 0;
};

struct acldvppHist {
    std::vector<std::vector<uint32_t>> bins;  // 256 bins per component
    uint32_t ret_code = 0;
};

namespace openacl::dvpp {

LiveSet<acldvppPicDesc>& PicDescs();
LiveSet<acldvppBatchPicDesc>& BatchPicDescs();
LiveSet<acldvppRoiConfig>& RoiConfigs();
LiveSet<acldvppResizeConfig>& ResizeConfigs();
LiveSet<acldvppJpegeConfig>& JpegeConfigs();
LiveSet<acldvppBorderConfig>& BorderConfigs();
LiveSet<acldvppLutMap>& LutMaps();
LiveSet<acldvppHist>& Hists();
LiveSet<acldvppStreamDesc>& StreamDescs();

}  // namespace openacl::dvpp
