// Misuse table, DVPP (acl_dvpp.h): every implemented function called with a null descriptor,
// config, channel or buffer. The rows were generated from the header's signatures; the rules a
// valid descriptor can still break are tested in tests/dvpp/.
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "misuse_table.h"
#include "scoped_env.h"

TEST(MisuseTable, DvppWithNullObjects) {
    // The 310P has every one of these functions (pyramid-down only it); before any call, so
    // the runtime starts with it.
    ScopedEnv chip("OPENACL_SOC_NAME", "Ascend310P3");
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    const std::vector<MisuseRow> rows = {
        {"acldvppCreateBatchPicDesc(0)",
         [] { return acldvppCreateBatchPicDesc(0) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppDestroyChannelDesc(NULL)", [] { return acldvppDestroyChannelDesc(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetChannelDescChannelId(NULL)",
         [] {
             (void)acldvppGetChannelDescChannelId(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetChannelDescMode(NULL, ...)",
         [] { return acldvppSetChannelDescMode(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppSetChannelDescParam(NULL, ...)",
         [] {
             return acldvppSetChannelDescParam(nullptr, static_cast<acldvppChannelDescParamType>(0),
                                               0, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetChannelDescParam(NULL, ...)",
         [] {
             return acldvppGetChannelDescParam(nullptr, static_cast<acldvppChannelDescParamType>(0),
                                               0, nullptr, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppCreateChannel(NULL)", [] { return acldvppCreateChannel(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppDestroyChannel(NULL)", [] { return acldvppDestroyChannel(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppDestroyPicDesc(NULL)", [] { return acldvppDestroyPicDesc(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetPicDescData(NULL, ...)", [] { return acldvppSetPicDescData(nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetPicDescSize(NULL, ...)", [] { return acldvppSetPicDescSize(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetPicDescFormat(NULL, ...)",
         [] { return acldvppSetPicDescFormat(nullptr, static_cast<acldvppPixelFormat>(0)); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetPicDescWidth(NULL, ...)", [] { return acldvppSetPicDescWidth(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetPicDescHeight(NULL, ...)", [] { return acldvppSetPicDescHeight(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetPicDescWidthStride(NULL, ...)",
         [] { return acldvppSetPicDescWidthStride(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppSetPicDescHeightStride(NULL, ...)",
         [] { return acldvppSetPicDescHeightStride(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppSetPicDescRetCode(NULL, ...)", [] { return acldvppSetPicDescRetCode(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetPicDescData(NULL)",
         [] { return acldvppGetPicDescData(nullptr) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetPicDescSize(NULL)",
         [] {
             (void)acldvppGetPicDescSize(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetPicDescFormat(NULL)",
         [] {
             (void)acldvppGetPicDescFormat(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetPicDescWidth(NULL)",
         [] {
             (void)acldvppGetPicDescWidth(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetPicDescHeight(NULL)",
         [] {
             (void)acldvppGetPicDescHeight(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetPicDescWidthStride(NULL)",
         [] {
             (void)acldvppGetPicDescWidthStride(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetPicDescHeightStride(NULL)",
         [] {
             (void)acldvppGetPicDescHeightStride(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetPicDescRetCode(NULL)",
         [] {
             (void)acldvppGetPicDescRetCode(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetPicDesc(NULL, ...)",
         [] { return acldvppGetPicDesc(nullptr, 0) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppDestroyBatchPicDesc(NULL)", [] { return acldvppDestroyBatchPicDesc(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppDestroyRoiConfig(NULL)", [] { return acldvppDestroyRoiConfig(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetRoiConfigLeft(NULL, ...)", [] { return acldvppSetRoiConfigLeft(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetRoiConfigRight(NULL, ...)", [] { return acldvppSetRoiConfigRight(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetRoiConfigTop(NULL, ...)", [] { return acldvppSetRoiConfigTop(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetRoiConfigBottom(NULL, ...)",
         [] { return acldvppSetRoiConfigBottom(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppSetRoiConfig(NULL, ...)", [] { return acldvppSetRoiConfig(nullptr, 0, 0, 0, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppDestroyResizeConfig(NULL)", [] { return acldvppDestroyResizeConfig(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetResizeConfigInterpolation(NULL, ...)",
         [] { return acldvppSetResizeConfigInterpolation(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppGetResizeConfigInterpolation(NULL)",
         [] {
             (void)acldvppGetResizeConfigInterpolation(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppDestroyJpegeConfig(NULL)", [] { return acldvppDestroyJpegeConfig(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetJpegeConfigLevel(NULL, ...)",
         [] { return acldvppSetJpegeConfigLevel(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppGetJpegeConfigLevel(NULL)",
         [] {
             (void)acldvppGetJpegeConfigLevel(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetBorderConfigValue(NULL, ...)",
         [] { return acldvppSetBorderConfigValue(nullptr, 0, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppSetBorderConfigBorderType(NULL, ...)",
         [] {
             return acldvppSetBorderConfigBorderType(nullptr, static_cast<acldvppBorderType>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetBorderConfigTop(NULL, ...)",
         [] { return acldvppSetBorderConfigTop(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppSetBorderConfigBottom(NULL, ...)",
         [] { return acldvppSetBorderConfigBottom(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppSetBorderConfigLeft(NULL, ...)",
         [] { return acldvppSetBorderConfigLeft(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppSetBorderConfigRight(NULL, ...)",
         [] { return acldvppSetBorderConfigRight(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppGetBorderConfigValue(NULL, ...)",
         [] {
             (void)acldvppGetBorderConfigValue(nullptr, 0);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetBorderConfigBorderType(NULL)",
         [] {
             (void)acldvppGetBorderConfigBorderType(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetBorderConfigTop(NULL)",
         [] {
             (void)acldvppGetBorderConfigTop(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetBorderConfigBottom(NULL)",
         [] {
             (void)acldvppGetBorderConfigBottom(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetBorderConfigLeft(NULL)",
         [] {
             (void)acldvppGetBorderConfigLeft(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetBorderConfigRight(NULL)",
         [] {
             (void)acldvppGetBorderConfigRight(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppDestroyBorderConfig(NULL)", [] { return acldvppDestroyBorderConfig(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppDestroyLutMap(NULL)", [] { return acldvppDestroyLutMap(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetLutMapDims(NULL)",
         [] {
             (void)acldvppGetLutMapDims(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetLutMapData(NULL, ...)",
         [] { return acldvppGetLutMapData(nullptr, 0, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppDestroyHist(NULL)", [] { return acldvppDestroyHist(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetHistDims(NULL)",
         [] {
             (void)acldvppGetHistDims(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetHistData(NULL, ...)",
         [] { return acldvppGetHistData(nullptr, 0, nullptr, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppGetHistRetCode(NULL)",
         [] {
             (void)acldvppGetHistRetCode(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppClearHist(NULL)", [] { return acldvppClearHist(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppJpegGetImageInfo(NULL, ...)",
         [] { return acldvppJpegGetImageInfo(nullptr, 0, nullptr, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppJpegGetImageInfoV2(NULL, ...)",
         [] { return acldvppJpegGetImageInfoV2(nullptr, 0, nullptr, nullptr, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppJpegPredictEncSize(NULL, ...)",
         [] { return acldvppJpegPredictEncSize(nullptr, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppJpegPredictDecSize(NULL, ...)",
         [] {
             return acldvppJpegPredictDecSize(nullptr, 0, static_cast<acldvppPixelFormat>(0),
                                              nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppPngGetImageInfo(NULL, ...)",
         [] { return acldvppPngGetImageInfo(nullptr, 0, nullptr, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppPngPredictDecSize(NULL, ...)",
         [] {
             return acldvppPngPredictDecSize(nullptr, 0, static_cast<acldvppPixelFormat>(0),
                                             nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppJpegDecodeAsync(NULL, ...)",
         [] {
             return acldvppJpegDecodeAsync(nullptr, nullptr, 0, nullptr,
                                           static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppJpegEncodeAsync(NULL, ...)",
         [] {
             return acldvppJpegEncodeAsync(nullptr, nullptr, nullptr, nullptr, nullptr,
                                           static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppPngDecodeAsync(NULL, ...)",
         [] {
             return acldvppPngDecodeAsync(nullptr, nullptr, 0, nullptr,
                                          static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcResizeAsync(NULL, ...)",
         [] {
             return acldvppVpcResizeAsync(nullptr, nullptr, nullptr, nullptr,
                                          static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcCropAsync(NULL, ...)",
         [] {
             return acldvppVpcCropAsync(nullptr, nullptr, nullptr, nullptr,
                                        static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcCropResizeAsync(NULL, ...)",
         [] {
             return acldvppVpcCropResizeAsync(nullptr, nullptr, nullptr, nullptr, nullptr,
                                              static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcBatchCropAsync(NULL, ...)",
         [] {
             return acldvppVpcBatchCropAsync(nullptr, nullptr, nullptr, 0, nullptr, nullptr,
                                             static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcBatchCropResizeAsync(NULL, ...)",
         [] {
             return acldvppVpcBatchCropResizeAsync(nullptr, nullptr, nullptr, 0, nullptr, nullptr,
                                                   nullptr, static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcCropAndPasteAsync(NULL, ...)",
         [] {
             return acldvppVpcCropAndPasteAsync(nullptr, nullptr, nullptr, nullptr, nullptr,
                                                static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcCropResizePasteAsync(NULL, ...)",
         [] {
             return acldvppVpcCropResizePasteAsync(nullptr, nullptr, nullptr, nullptr, nullptr,
                                                   nullptr, static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcBatchCropAndPasteAsync(NULL, ...)",
         [] {
             return acldvppVpcBatchCropAndPasteAsync(nullptr, nullptr, nullptr, 0, nullptr, nullptr,
                                                     nullptr, static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcBatchCropResizePasteAsync(NULL, ...)",
         [] {
             return acldvppVpcBatchCropResizePasteAsync(nullptr, nullptr, nullptr, 0, nullptr,
                                                        nullptr, nullptr, nullptr,
                                                        static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcConvertColorAsync(NULL, ...)",
         [] {
             return acldvppVpcConvertColorAsync(nullptr, nullptr, nullptr,
                                                static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcPyrDownAsync(NULL, ...)",
         [] {
             return acldvppVpcPyrDownAsync(nullptr, nullptr, nullptr, nullptr,
                                           static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcEqualizeHistAsync(NULL, ...)",
         [] {
             return acldvppVpcEqualizeHistAsync(nullptr, nullptr, nullptr, nullptr,
                                                static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcMakeBorderAsync(NULL, ...)",
         [] {
             return acldvppVpcMakeBorderAsync(nullptr, nullptr, nullptr, nullptr,
                                              static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcCalcHistAsync(NULL, ...)",
         [] {
             return acldvppVpcCalcHistAsync(nullptr, nullptr, nullptr, nullptr,
                                            static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppVpcBatchCropResizeMakeBorderAsync(NULL, ...)",
         [] {
             return acldvppVpcBatchCropResizeMakeBorderAsync(nullptr, nullptr, nullptr, 0, nullptr,
                                                             nullptr, nullptr, nullptr,
                                                             static_cast<aclrtStream>(0));
         },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtResetDeviceForce(0);
}

// The creators no argument can make fail (listed in test_misuse_coverage.cpp) answer objects
// that their destroy functions take back, recording nothing.
TEST(MisuseTable, DvppCreatorsWithoutBadInputAnswer) {
    aclGetRecentErrMsg();
    acldvppChannelDesc* channel = acldvppCreateChannelDesc();
    acldvppPicDesc* pic = acldvppCreatePicDesc();
    acldvppResizeConfig* resize = acldvppCreateResizeConfig();
    acldvppJpegeConfig* jpege = acldvppCreateJpegeConfig();
    acldvppBorderConfig* border = acldvppCreateBorderConfig();
    acldvppLutMap* lut = acldvppCreateLutMap();
    acldvppHist* hist = acldvppCreateHist();
    acldvppRoiConfig* roi = acldvppCreateRoiConfig(9, 1, 9, 1);  // checked where it is used
    EXPECT_EQ(acldvppDestroyChannelDesc(channel), ACL_SUCCESS);
    EXPECT_EQ(acldvppDestroyPicDesc(pic), ACL_SUCCESS);
    EXPECT_EQ(acldvppDestroyResizeConfig(resize), ACL_SUCCESS);
    EXPECT_EQ(acldvppDestroyJpegeConfig(jpege), ACL_SUCCESS);
    EXPECT_EQ(acldvppDestroyBorderConfig(border), ACL_SUCCESS);
    EXPECT_EQ(acldvppDestroyLutMap(lut), ACL_SUCCESS);
    EXPECT_EQ(acldvppDestroyHist(hist), ACL_SUCCESS);
    EXPECT_EQ(acldvppDestroyRoiConfig(roi), ACL_SUCCESS);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

// Video (VDEC, VENC) and the stream descriptor: the same, with a null first argument.
TEST(MisuseTable, DvppVideoWithNullObjects) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    const std::vector<MisuseRow> rows = {
        {"acldvppDestroyStreamDesc(NULL)", [] { return acldvppDestroyStreamDesc(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetStreamDescData(NULL, ...)",
         [] { return acldvppSetStreamDescData(nullptr, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppSetStreamDescSize(NULL, ...)", [] { return acldvppSetStreamDescSize(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetStreamDescFormat(NULL, ...)",
         [] { return acldvppSetStreamDescFormat(nullptr, static_cast<acldvppStreamFormat>(0)); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppSetStreamDescTimestamp(NULL, ...)",
         [] { return acldvppSetStreamDescTimestamp(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppSetStreamDescRetCode(NULL, ...)",
         [] { return acldvppSetStreamDescRetCode(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppSetStreamDescEos(NULL, ...)", [] { return acldvppSetStreamDescEos(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetStreamDescData(NULL)",
         [] { return acldvppGetStreamDescData(nullptr) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetStreamDescSize(NULL)",
         [] {
             (void)acldvppGetStreamDescSize(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetStreamDescFormat(NULL)",
         [] {
             (void)acldvppGetStreamDescFormat(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetStreamDescTimestamp(NULL)",
         [] {
             (void)acldvppGetStreamDescTimestamp(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetStreamDescRetCode(NULL)",
         [] {
             (void)acldvppGetStreamDescRetCode(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppGetStreamDescEos(NULL)",
         [] {
             (void)acldvppGetStreamDescEos(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecDestroyChannelDesc(NULL)", [] { return aclvdecDestroyChannelDesc(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecSetChannelDescChannelId(NULL, ...)",
         [] { return aclvdecSetChannelDescChannelId(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvdecSetChannelDescThreadId(NULL, ...)",
         [] { return aclvdecSetChannelDescThreadId(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvdecSetChannelDescCallback(NULL, ...)",
         [] { return aclvdecSetChannelDescCallback(nullptr, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclvdecSetChannelDescEnType(NULL, ...)",
         [] { return aclvdecSetChannelDescEnType(nullptr, static_cast<acldvppStreamFormat>(0)); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecSetChannelDescOutPicFormat(NULL, ...)",
         [] {
             return aclvdecSetChannelDescOutPicFormat(nullptr, static_cast<acldvppPixelFormat>(0));
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecSetChannelDescOutPicWidth(NULL, ...)",
         [] { return aclvdecSetChannelDescOutPicWidth(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvdecSetChannelDescOutPicHeight(NULL, ...)",
         [] { return aclvdecSetChannelDescOutPicHeight(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvdecSetChannelDescRefFrameNum(NULL, ...)",
         [] { return aclvdecSetChannelDescRefFrameNum(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvdecSetChannelDescBitDepth(NULL, ...)",
         [] { return aclvdecSetChannelDescBitDepth(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvdecGetChannelDescChannelId(NULL)",
         [] {
             (void)aclvdecGetChannelDescChannelId(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecGetChannelDescThreadId(NULL)",
         [] {
             (void)aclvdecGetChannelDescThreadId(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecGetChannelDescCallback(NULL)",
         [] { return aclvdecGetChannelDescCallback(nullptr) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecGetChannelDescEnType(NULL)",
         [] {
             (void)aclvdecGetChannelDescEnType(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecGetChannelDescOutPicFormat(NULL)",
         [] {
             (void)aclvdecGetChannelDescOutPicFormat(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecGetChannelDescOutPicWidth(NULL)",
         [] {
             (void)aclvdecGetChannelDescOutPicWidth(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecGetChannelDescOutPicHeight(NULL)",
         [] {
             (void)aclvdecGetChannelDescOutPicHeight(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecGetChannelDescBitDepth(NULL)",
         [] {
             (void)aclvdecGetChannelDescBitDepth(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecGetChannelDescRefFrameNum(NULL)",
         [] {
             (void)aclvdecGetChannelDescRefFrameNum(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecSetChannelDescOutMode(NULL, ...)",
         [] { return aclvdecSetChannelDescOutMode(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvdecGetChannelDescOutMode(NULL)",
         [] {
             (void)aclvdecGetChannelDescOutMode(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecSetChannelDescParam(NULL, ...)",
         [] {
             return aclvdecSetChannelDescParam(nullptr, static_cast<aclvdecChannelDescParamType>(0),
                                               0, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecGetChannelDescParam(NULL, ...)",
         [] {
             return aclvdecGetChannelDescParam(nullptr, static_cast<aclvdecChannelDescParamType>(0),
                                               0, nullptr, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecDestroyFrameConfig(NULL)", [] { return aclvdecDestroyFrameConfig(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecCreateChannel(NULL)", [] { return aclvdecCreateChannel(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecDestroyChannel(NULL)", [] { return aclvdecDestroyChannel(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecSendFrame(NULL, ...)",
         [] { return aclvdecSendFrame(nullptr, nullptr, nullptr, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvdecSendSkippedFrame(NULL, ...)",
         [] { return aclvdecSendSkippedFrame(nullptr, nullptr, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencDestroyChannelDesc(NULL)", [] { return aclvencDestroyChannelDesc(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescThreadId(NULL, ...)",
         [] { return aclvencSetChannelDescThreadId(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescCallback(NULL, ...)",
         [] { return aclvencSetChannelDescCallback(nullptr, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescEnType(NULL, ...)",
         [] { return aclvencSetChannelDescEnType(nullptr, static_cast<acldvppStreamFormat>(0)); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescPicFormat(NULL, ...)",
         [] { return aclvencSetChannelDescPicFormat(nullptr, static_cast<acldvppPixelFormat>(0)); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescPicWidth(NULL, ...)",
         [] { return aclvencSetChannelDescPicWidth(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescPicHeight(NULL, ...)",
         [] { return aclvencSetChannelDescPicHeight(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescKeyFrameInterval(NULL, ...)",
         [] { return aclvencSetChannelDescKeyFrameInterval(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescBufAddr(NULL, ...)",
         [] { return aclvencSetChannelDescBufAddr(nullptr, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescBufSize(NULL, ...)",
         [] { return aclvencSetChannelDescBufSize(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescRcMode(NULL, ...)",
         [] { return aclvencSetChannelDescRcMode(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescSrcRate(NULL, ...)",
         [] { return aclvencSetChannelDescSrcRate(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescMaxBitRate(NULL, ...)",
         [] { return aclvencSetChannelDescMaxBitRate(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvencSetChannelDescParam(NULL, ...)",
         [] {
             return aclvencSetChannelDescParam(nullptr, static_cast<aclvencChannelDescParamType>(0),
                                               0, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescBufAddr(NULL)",
         [] { return aclvencGetChannelDescBufAddr(nullptr) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescBufSize(NULL)",
         [] {
             (void)aclvencGetChannelDescBufSize(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescChannelId(NULL)",
         [] {
             (void)aclvencGetChannelDescChannelId(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescThreadId(NULL)",
         [] {
             (void)aclvencGetChannelDescThreadId(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescCallback(NULL)",
         [] { return aclvencGetChannelDescCallback(nullptr) ? ACL_SUCCESS : RecordedError(); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescEnType(NULL)",
         [] {
             (void)aclvencGetChannelDescEnType(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescPicFormat(NULL)",
         [] {
             (void)aclvencGetChannelDescPicFormat(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescPicWidth(NULL)",
         [] {
             (void)aclvencGetChannelDescPicWidth(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescPicHeight(NULL)",
         [] {
             (void)aclvencGetChannelDescPicHeight(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescKeyFrameInterval(NULL)",
         [] {
             (void)aclvencGetChannelDescKeyFrameInterval(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescRcMode(NULL)",
         [] {
             (void)aclvencGetChannelDescRcMode(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescSrcRate(NULL)",
         [] {
             (void)aclvencGetChannelDescSrcRate(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescMaxBitRate(NULL)",
         [] {
             (void)aclvencGetChannelDescMaxBitRate(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetChannelDescParam(NULL, ...)",
         [] {
             return aclvencGetChannelDescParam(nullptr, static_cast<aclvencChannelDescParamType>(0),
                                               0, nullptr, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetFrameConfigForceIFrame(NULL)",
         [] {
             (void)aclvencGetFrameConfigForceIFrame(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencGetFrameConfigEos(NULL)",
         [] {
             (void)aclvencGetFrameConfigEos(nullptr);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencSetFrameConfigForceIFrame(NULL, ...)",
         [] { return aclvencSetFrameConfigForceIFrame(nullptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"aclvencSetFrameConfigEos(NULL, ...)", [] { return aclvencSetFrameConfigEos(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencDestroyFrameConfig(NULL)", [] { return aclvencDestroyFrameConfig(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencCreateChannel(NULL)", [] { return aclvencCreateChannel(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencDestroyChannel(NULL)", [] { return aclvencDestroyChannel(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclvencSendFrame(NULL, ...)",
         [] { return aclvencSendFrame(nullptr, nullptr, nullptr, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtResetDeviceForce(0);
}

// The video creators take no argument: they answer objects their destroy functions take back.
TEST(MisuseTable, DvppVideoCreatorsWithoutBadInputAnswer) {
    aclGetRecentErrMsg();
    acldvppStreamDesc* stream = acldvppCreateStreamDesc();
    aclvdecChannelDesc* vdec = aclvdecCreateChannelDesc();
    aclvdecFrameConfig* vdec_config = aclvdecCreateFrameConfig();
    aclvencChannelDesc* venc = aclvencCreateChannelDesc();
    aclvencFrameConfig* venc_config = aclvencCreateFrameConfig();
    EXPECT_EQ(acldvppDestroyStreamDesc(stream), ACL_SUCCESS);
    EXPECT_EQ(aclvdecDestroyChannelDesc(vdec), ACL_SUCCESS);
    EXPECT_EQ(aclvdecDestroyFrameConfig(vdec_config), ACL_SUCCESS);
    EXPECT_EQ(aclvencDestroyChannelDesc(venc), ACL_SUCCESS);
    EXPECT_EQ(aclvencDestroyFrameConfig(venc_config), ACL_SUCCESS);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}
