// Misuse table, DVPP (acl_dvpp.h): every implemented function called with a null descriptor,
// config, channel or buffer. The rows were generated from the header's signatures; the rules a
// valid descriptor can still break are tested in tests/dvpp/.
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "misuse_table.h"

TEST(MisuseTable, DvppWithNullObjects) {
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
