// acl_dvpp.h: picture descriptors, batches and the small configs (ROI, resize, JPEGE, border,
// LUT, histogram). Plain host objects: none of these needs a device. Every object handed out
// is registered, so each call refuses a destroyed or foreign pointer with a message.
#include <new>

#include "core/error.h"
#include "dvpp/chip.h"
#include "dvpp/descriptors.h"

using openacl::Fail;
using namespace openacl::dvpp;
using openacl::LiveSet;

namespace {

template <class T>
bool Live(LiveSet<T>& set, const T* object, const char* what, const char* type) {
    if (object == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "%s is null", what);
        return false;
    }
    if (!set.Contains(object)) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "%s %p is not a live %s (destroyed, or not made by its create function)", what,
             static_cast<const void*>(object), type);
        return false;
    }
    return true;
}

bool LivePic(const acldvppPicDesc* d) {
    return Live(PicDescs(), d, "picDesc", "acldvppPicDesc");
}
bool LiveRoi(const acldvppRoiConfig* c) {
    return Live(RoiConfigs(), c, "config", "acldvppRoiConfig");
}
bool LiveBorder(const acldvppBorderConfig* c) {
    return Live(BorderConfigs(), c, "borderConfig", "acldvppBorderConfig");
}

template <class T>
aclError Destroy(LiveSet<T>& set, T* object, const char* what, const char* type) {
    if (!Live(set, object, what, type)) return ACL_ERROR_INVALID_PARAM;
    set.Remove(object);
    delete object;
    return ACL_SUCCESS;
}

}  // namespace

// ---- picture descriptors ----

acldvppPicDesc* acldvppCreatePicDesc() {
    OPENACL_API();
    return PicDescs().Add(new (std::nothrow) acldvppPicDesc);
}

aclError acldvppDestroyPicDesc(acldvppPicDesc* picDesc) {
    OPENACL_API();
    if (!LivePic(picDesc)) return ACL_ERROR_INVALID_PARAM;
    if (picDesc->in_batch) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "picDesc %p belongs to an acldvppBatchPicDesc: it is destroyed with the "
                    "batch (acldvppDestroyBatchPicDesc)",
                    static_cast<void*>(picDesc));
    }
    PicDescs().Remove(picDesc);
    delete picDesc;
    return ACL_SUCCESS;
}

#define OPENACL_PIC_SETTER(Name, Type, field)                               \
    aclError acldvppSetPicDesc##Name(acldvppPicDesc* picDesc, Type value) { \
        OPENACL_API();                                                      \
        if (!LivePic(picDesc)) return ACL_ERROR_INVALID_PARAM;              \
        picDesc->field = value;                                             \
        return ACL_SUCCESS;                                                 \
    }
#define OPENACL_PIC_GETTER(Name, Type, field, fallback)           \
    Type acldvppGetPicDesc##Name(const acldvppPicDesc* picDesc) { \
        OPENACL_API();                                            \
        if (!LivePic(picDesc)) return fallback;                   \
        return picDesc->field;                                    \
    }

OPENACL_PIC_SETTER(Data, void*, data)
OPENACL_PIC_SETTER(Size, uint32_t, size)
OPENACL_PIC_SETTER(Width, uint32_t, width)
OPENACL_PIC_SETTER(Height, uint32_t, height)
OPENACL_PIC_SETTER(WidthStride, uint32_t, width_stride)
OPENACL_PIC_SETTER(HeightStride, uint32_t, height_stride)
OPENACL_PIC_SETTER(RetCode, uint32_t, ret_code)
OPENACL_PIC_GETTER(Data, void*, data, nullptr)
OPENACL_PIC_GETTER(Size, uint32_t, size, 0)
OPENACL_PIC_GETTER(Format, acldvppPixelFormat, format, PIXEL_FORMAT_YUV_400)
OPENACL_PIC_GETTER(Width, uint32_t, width, 0)
OPENACL_PIC_GETTER(Height, uint32_t, height, 0)
OPENACL_PIC_GETTER(WidthStride, uint32_t, width_stride, 0)
OPENACL_PIC_GETTER(HeightStride, uint32_t, height_stride, 0)
OPENACL_PIC_GETTER(RetCode, uint32_t, ret_code, 0)

aclError acldvppSetPicDescFormat(acldvppPicDesc* picDesc, acldvppPixelFormat format) {
    OPENACL_API();
    if (!LivePic(picDesc)) return ACL_ERROR_INVALID_PARAM;
    int value = static_cast<int>(format);
    bool known = (value >= PIXEL_FORMAT_YUV_400 && value <= PIXEL_FORMAT_BGRA_8565) ||
                 (value >= PIXEL_FORMAT_RGB_BAYER_8BPP && value <= PIXEL_FORMAT_RGB_BAYER_16BPP) ||
                 (value >= PIXEL_FORMAT_BGR_888_PLANAR && value <= PIXEL_FORMAT_S64C1) ||
                 (value >= PIXEL_FORMAT_YUV_SEMIPLANAR_440 && value <= PIXEL_FORMAT_FLOAT32) ||
                 value == PIXEL_FORMAT_UNKNOWN;
    if (!known) {
        return Fail(ACL_ERROR_INVALID_PARAM, "format %d is not an acldvppPixelFormat", value);
    }
    picDesc->format = format;
    return ACL_SUCCESS;
}

// ---- batches ----

acldvppBatchPicDesc* acldvppCreateBatchPicDesc(uint32_t batchSize) {
    OPENACL_API();
    if (batchSize == 0) {
        Fail(ACL_ERROR_INVALID_PARAM, "batchSize is 0: a batch holds at least one picture");
        return nullptr;
    }
    auto* batch = new (std::nothrow) acldvppBatchPicDesc;
    if (batch == nullptr) return nullptr;
    try {
        batch->pictures.reserve(batchSize);
        for (uint32_t i = 0; i < batchSize; ++i) {
            batch->pictures.push_back(std::make_unique<acldvppPicDesc>());
            batch->pictures.back()->in_batch = true;
        }
    } catch (const std::bad_alloc&) {
        delete batch;
        Fail(ACL_ERROR_BAD_ALLOC, "no memory for a batch of %u picture descriptors", batchSize);
        return nullptr;
    }
    for (auto& pic : batch->pictures)
        PicDescs().Add(pic.get());
    return BatchPicDescs().Add(batch);
}

acldvppPicDesc* acldvppGetPicDesc(acldvppBatchPicDesc* batchPicDesc, uint32_t index) {
    OPENACL_API();
    if (!Live(BatchPicDescs(), batchPicDesc, "batchPicDesc", "acldvppBatchPicDesc")) return nullptr;
    if (index >= batchPicDesc->pictures.size()) {
        Fail(ACL_ERROR_INVALID_PARAM, "index %u is outside the batch of %zu pictures", index,
             batchPicDesc->pictures.size());
        return nullptr;
    }
    return batchPicDesc->pictures[index].get();
}

aclError acldvppDestroyBatchPicDesc(acldvppBatchPicDesc* batchPicDesc) {
    OPENACL_API();
    if (!Live(BatchPicDescs(), batchPicDesc, "batchPicDesc", "acldvppBatchPicDesc")) {
        return ACL_ERROR_INVALID_PARAM;
    }
    for (auto& pic : batchPicDesc->pictures)
        PicDescs().Remove(pic.get());
    BatchPicDescs().Remove(batchPicDesc);
    delete batchPicDesc;
    return ACL_SUCCESS;
}

// ---- ROI: any values are stored; the task that uses a box checks its rules ----

acldvppRoiConfig* acldvppCreateRoiConfig(uint32_t left, uint32_t right, uint32_t top,
                                         uint32_t bottom) {
    OPENACL_API();
    auto* roi = new (std::nothrow) acldvppRoiConfig{left, right, top, bottom};
    return RoiConfigs().Add(roi);
}

aclError acldvppDestroyRoiConfig(acldvppRoiConfig* roiConfig) {
    OPENACL_API();
    return Destroy(RoiConfigs(), roiConfig, "roiConfig", "acldvppRoiConfig");
}

#define OPENACL_ROI_SETTER(Name, field)                                            \
    aclError acldvppSetRoiConfig##Name(acldvppRoiConfig* config, uint32_t value) { \
        OPENACL_API();                                                             \
        if (!LiveRoi(config)) return ACL_ERROR_INVALID_PARAM;                      \
        config->field = value;                                                     \
        return ACL_SUCCESS;                                                        \
    }
OPENACL_ROI_SETTER(Left, left)
OPENACL_ROI_SETTER(Right, right)
OPENACL_ROI_SETTER(Top, top)
OPENACL_ROI_SETTER(Bottom, bottom)

aclError acldvppSetRoiConfig(acldvppRoiConfig* config, uint32_t left, uint32_t right, uint32_t top,
                             uint32_t bottom) {
    OPENACL_API();
    if (!LiveRoi(config)) return ACL_ERROR_INVALID_PARAM;
    *config = {left, right, top, bottom};
    return ACL_SUCCESS;
}

// ---- resize ----

acldvppResizeConfig* acldvppCreateResizeConfig() {
    OPENACL_API();
    return ResizeConfigs().Add(new (std::nothrow) acldvppResizeConfig);
}

aclError acldvppDestroyResizeConfig(acldvppResizeConfig* resizeConfig) {
    OPENACL_API();
    return Destroy(ResizeConfigs(), resizeConfig, "resizeConfig", "acldvppResizeConfig");
}

aclError acldvppSetResizeConfigInterpolation(acldvppResizeConfig* resizeConfig,
                                             uint32_t interpolation) {
    OPENACL_API();
    if (!Live(ResizeConfigs(), static_cast<const acldvppResizeConfig*>(resizeConfig),
              "resizeConfig", "acldvppResizeConfig")) {
        return ACL_ERROR_INVALID_PARAM;
    }
    // Each family has its own list (acl_dvpp reference 6.5.6): the 310P dropped the
    // TensorFlow-like 3 and 4, A2/A3 kept them as aliases and added 5.
    const DvppChip chip = CurrentChip();
    if (chip == DvppChip::k310P && interpolation > 2) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "interpolation %u is not one of 0 (default, bilinear), 1 (bilinear) or 2 "
                    "(nearest) on %s",
                    interpolation, ChipName().c_str());
    }
    if (chip == DvppChip::kA2 && interpolation > 5) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "interpolation %u is not one of 0 (default, bilinear), 1 (bilinear), 2 "
                    "(nearest), 3 (as 1), 4 (as 2) or 5 (high-order filter) on %s",
                    interpolation, ChipName().c_str());
    }
    if (!IsNewDvpp(chip) && interpolation > 4) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "interpolation %u is not one of 0 (default filter), 1 (bilinear), 2 "
                    "(nearest), 3 (bilinear, TensorFlow-like) or 4 (nearest, TensorFlow-like) "
                    "on %s",
                    interpolation, ChipName().c_str());
    }
    resizeConfig->interpolation = interpolation;
    return ACL_SUCCESS;
}

uint32_t acldvppGetResizeConfigInterpolation(const acldvppResizeConfig* resizeConfig) {
    OPENACL_API();
    if (!Live(ResizeConfigs(), resizeConfig, "resizeConfig", "acldvppResizeConfig")) return 0;
    return resizeConfig->interpolation;
}

// ---- JPEGE ----

acldvppJpegeConfig* acldvppCreateJpegeConfig() {
    OPENACL_API();
    return JpegeConfigs().Add(new (std::nothrow) acldvppJpegeConfig);
}

aclError acldvppDestroyJpegeConfig(acldvppJpegeConfig* jpegeConfig) {
    OPENACL_API();
    return Destroy(JpegeConfigs(), jpegeConfig, "jpegeConfig", "acldvppJpegeConfig");
}

aclError acldvppSetJpegeConfigLevel(acldvppJpegeConfig* jpegeConfig, uint32_t level) {
    OPENACL_API();
    if (!Live(JpegeConfigs(), static_cast<const acldvppJpegeConfig*>(jpegeConfig), "jpegeConfig",
              "acldvppJpegeConfig")) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (level > 100) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "level %u is outside 0..100 (0 behaves like 100; lower is smaller and worse)",
                    level);
    }
    jpegeConfig->level = level;
    return ACL_SUCCESS;
}

uint32_t acldvppGetJpegeConfigLevel(const acldvppJpegeConfig* jpegeConfig) {
    OPENACL_API();
    if (!Live(JpegeConfigs(), jpegeConfig, "jpegeConfig", "acldvppJpegeConfig")) return 0;
    return jpegeConfig->level;
}

// ---- border ----

acldvppBorderConfig* acldvppCreateBorderConfig() {
    OPENACL_API();
    return BorderConfigs().Add(new (std::nothrow) acldvppBorderConfig);
}

aclError acldvppDestroyBorderConfig(acldvppBorderConfig* borderConfig) {
    OPENACL_API();
    return Destroy(BorderConfigs(), borderConfig, "borderConfig", "acldvppBorderConfig");
}

aclError acldvppSetBorderConfigValue(acldvppBorderConfig* borderConfig, uint32_t index,
                                     double value) {
    OPENACL_API();
    if (!LiveBorder(borderConfig)) return ACL_ERROR_INVALID_PARAM;
    if (index >= borderConfig->value.size()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "index %u is not 0 (R/Y), 1 (G/U), 2 (B/V) or 3 (reserved)", index);
    }
    borderConfig->value[index] = value;
    return ACL_SUCCESS;
}

aclError acldvppSetBorderConfigBorderType(acldvppBorderConfig* borderConfig,
                                          acldvppBorderType borderType) {
    OPENACL_API();
    if (!LiveBorder(borderConfig)) return ACL_ERROR_INVALID_PARAM;
    if (borderType < BORDER_CONSTANT || borderType > BORDER_REFLECT_101) {
        return Fail(ACL_ERROR_INVALID_PARAM, "borderType %d is not an acldvppBorderType",
                    static_cast<int>(borderType));
    }
    borderConfig->border_type = borderType;
    return ACL_SUCCESS;
}

#define OPENACL_BORDER_SIDE(Name, field)                                                   \
    aclError acldvppSetBorderConfig##Name(acldvppBorderConfig* borderConfig, uint32_t v) { \
        OPENACL_API();                                                                     \
        if (!LiveBorder(borderConfig)) return ACL_ERROR_INVALID_PARAM;                     \
        borderConfig->field = v;                                                           \
        return ACL_SUCCESS;                                                                \
    }                                                                                      \
    uint32_t acldvppGetBorderConfig##Name(const acldvppBorderConfig* borderConfig) {       \
        OPENACL_API();                                                                     \
        if (!LiveBorder(borderConfig)) return 0;                                           \
        return borderConfig->field;                                                        \
    }
OPENACL_BORDER_SIDE(Top, top)
OPENACL_BORDER_SIDE(Bottom, bottom)
OPENACL_BORDER_SIDE(Left, left)
OPENACL_BORDER_SIDE(Right, right)

double acldvppGetBorderConfigValue(const acldvppBorderConfig* borderConfig, uint32_t index) {
    OPENACL_API();
    if (!LiveBorder(borderConfig)) return -1.0;
    if (index >= borderConfig->value.size()) {
        Fail(ACL_ERROR_INVALID_PARAM, "index %u is not 0..3", index);
        return -1.0;
    }
    return borderConfig->value[index];
}

acldvppBorderType acldvppGetBorderConfigBorderType(const acldvppBorderConfig* borderConfig) {
    OPENACL_API();
    if (!LiveBorder(borderConfig)) return BORDER_CONSTANT;
    return borderConfig->border_type;
}

// ---- LUT map: one identity table of 256 entries per component until a task fills it ----

acldvppLutMap* acldvppCreateLutMap() {
    OPENACL_API();
    auto* map = new (std::nothrow) acldvppLutMap;
    if (map == nullptr) return nullptr;
    map->tables.assign(3, std::vector<uint8_t>(256));
    for (auto& table : map->tables) {
        for (int i = 0; i < 256; ++i)
            table[i] = static_cast<uint8_t>(i);
    }
    return LutMaps().Add(map);
}

aclError acldvppDestroyLutMap(acldvppLutMap* lutMap) {
    OPENACL_API();
    return Destroy(LutMaps(), lutMap, "lutMap", "acldvppLutMap");
}

uint32_t acldvppGetLutMapDims(const acldvppLutMap* lutMap) {
    OPENACL_API();
    if (!Live(LutMaps(), lutMap, "lutMap", "acldvppLutMap")) return 0;
    return static_cast<uint32_t>(lutMap->tables.size());
}

aclError acldvppGetLutMapData(const acldvppLutMap* lutMap, uint32_t dim, uint8_t** data,
                              uint32_t* len) {
    OPENACL_API();
    if (!Live(LutMaps(), lutMap, "lutMap", "acldvppLutMap")) return ACL_ERROR_INVALID_PARAM;
    if (data == nullptr || len == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "data and len must not be null");
    }
    if (dim >= lutMap->tables.size()) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dim %u is outside the map's %zu tables", dim,
                    lutMap->tables.size());
    }
    *data = const_cast<uint8_t*>(lutMap->tables[dim].data());
    *len = static_cast<uint32_t>(lutMap->tables[dim].size());
    return ACL_SUCCESS;
}

// ---- histogram: three components of 256 bins ----

acldvppHist* acldvppCreateHist() {
    OPENACL_API();
    auto* hist = new (std::nothrow) acldvppHist;
    if (hist == nullptr) return nullptr;
    hist->bins.assign(3, std::vector<uint32_t>(256, 0));
    return Hists().Add(hist);
}

aclError acldvppDestroyHist(acldvppHist* hist) {
    OPENACL_API();
    return Destroy(Hists(), hist, "hist", "acldvppHist");
}

uint32_t acldvppGetHistDims(acldvppHist* hist) {
    OPENACL_API();
    if (!Live(Hists(), static_cast<const acldvppHist*>(hist), "hist", "acldvppHist")) return 0;
    return static_cast<uint32_t>(hist->bins.size());
}

aclError acldvppGetHistData(acldvppHist* hist, uint32_t dim, uint32_t** data, uint16_t* len) {
    OPENACL_API();
    if (!Live(Hists(), static_cast<const acldvppHist*>(hist), "hist", "acldvppHist")) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (data == nullptr || len == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "data and len must not be null");
    }
    if (dim >= hist->bins.size()) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dim %u is outside the histogram's %zu components",
                    dim, hist->bins.size());
    }
    *data = hist->bins[dim].data();
    *len = static_cast<uint16_t>(hist->bins[dim].size());
    return ACL_SUCCESS;
}

uint32_t acldvppGetHistRetCode(acldvppHist* hist) {
    OPENACL_API();
    if (!Live(Hists(), static_cast<const acldvppHist*>(hist), "hist", "acldvppHist")) return 0;
    return hist->ret_code;
}

aclError acldvppClearHist(acldvppHist* hist) {
    OPENACL_API();
    if (!Live(Hists(), static_cast<const acldvppHist*>(hist), "hist", "acldvppHist")) {
        return ACL_ERROR_INVALID_PARAM;
    }
    for (auto& bins : hist->bins)
        std::fill(bins.begin(), bins.end(), 0u);
    return ACL_SUCCESS;
}
