// Descriptors, configs and channels: defaults, setters and getters, and refusal of null,
// destroyed or foreign handles with a message.
#include "dvpp_test_support.h"

TEST(DvppPicDesc, NewDescriptorHasTheDocumentedDefaults) {
    acldvppPicDesc* d = acldvppCreatePicDesc();
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(acldvppGetPicDescData(d), nullptr);
    EXPECT_EQ(acldvppGetPicDescSize(d), 0u);
    EXPECT_EQ(acldvppGetPicDescFormat(d), PIXEL_FORMAT_YUV_400);
    EXPECT_EQ(acldvppGetPicDescWidth(d), 0u);
    EXPECT_EQ(acldvppGetPicDescHeight(d), 0u);
    EXPECT_EQ(acldvppGetPicDescWidthStride(d), 0u);
    EXPECT_EQ(acldvppGetPicDescHeightStride(d), 0u);
    EXPECT_EQ(acldvppGetPicDescRetCode(d), 0u);
    EXPECT_EQ(acldvppDestroyPicDesc(d), ACL_SUCCESS);
}

TEST(DvppPicDesc, GettersReturnWhatSettersSet) {
    acldvppPicDesc* d = acldvppCreatePicDesc();
    int dummy = 0;
    EXPECT_EQ(acldvppSetPicDescData(d, &dummy), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetPicDescSize(d, 1234), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetPicDescFormat(d, PIXEL_FORMAT_YVU_SEMIPLANAR_420), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetPicDescWidth(d, 640), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetPicDescHeight(d, 480), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetPicDescWidthStride(d, 640), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetPicDescHeightStride(d, 480), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetPicDescRetCode(d, 7), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetPicDescData(d), &dummy);
    EXPECT_EQ(acldvppGetPicDescSize(d), 1234u);
    EXPECT_EQ(acldvppGetPicDescFormat(d), PIXEL_FORMAT_YVU_SEMIPLANAR_420);
    EXPECT_EQ(acldvppGetPicDescWidth(d), 640u);
    EXPECT_EQ(acldvppGetPicDescHeight(d), 480u);
    EXPECT_EQ(acldvppGetPicDescWidthStride(d), 640u);
    EXPECT_EQ(acldvppGetPicDescHeightStride(d), 480u);
    EXPECT_EQ(acldvppGetPicDescRetCode(d), 7u);
    acldvppDestroyPicDesc(d);
}

TEST(DvppPicDesc, UnknownPixelFormatIsRefused) {
    acldvppPicDesc* d = acldvppCreatePicDesc();
    EXPECT_EQ(acldvppSetPicDescFormat(d, static_cast<acldvppPixelFormat>(45)),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("not an acldvppPixelFormat");
    acldvppDestroyPicDesc(d);
}

TEST(DvppPicDesc, DestroyedDescriptorIsRefusedWithAMessage) {
    acldvppPicDesc* d = acldvppCreatePicDesc();
    ASSERT_EQ(acldvppDestroyPicDesc(d), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetPicDescWidth(d, 4), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("not a live acldvppPicDesc");
    EXPECT_EQ(acldvppGetPicDescWidth(d), 0u);
    EXPECT_EQ(acldvppDestroyPicDesc(d), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acldvppDestroyPicDesc(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("is null");
}

TEST(DvppBatchPicDesc, HoldsBatchSizeDescriptorsOwnedByTheBatch) {
    acldvppBatchPicDesc* batch = acldvppCreateBatchPicDesc(3);
    ASSERT_NE(batch, nullptr);
    acldvppPicDesc* second = acldvppGetPicDesc(batch, 1);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(acldvppSetPicDescWidth(second, 64), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetPicDescWidth(acldvppGetPicDesc(batch, 1)), 64u);
    EXPECT_EQ(acldvppGetPicDesc(batch, 3), nullptr);
    EXPECT_MESSAGE_CONTAINS("outside the batch of 3");
    EXPECT_EQ(acldvppDestroyPicDesc(second), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("destroyed with the batch");
    EXPECT_EQ(acldvppDestroyBatchPicDesc(batch), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetPicDescWidth(second), 0u);  // gone with its batch
    aclGetRecentErrMsg();
}

TEST(DvppBatchPicDesc, EmptyBatchIsRefused) {
    EXPECT_EQ(acldvppCreateBatchPicDesc(0), nullptr);
    EXPECT_MESSAGE_CONTAINS("batchSize is 0");
}

TEST(DvppRoiConfig, SettersChangeTheBox) {
    acldvppRoiConfig* roi = acldvppCreateRoiConfig(0, 1, 2, 3);
    ASSERT_NE(roi, nullptr);
    EXPECT_EQ(acldvppSetRoiConfigLeft(roi, 16), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetRoiConfigRight(roi, 31), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetRoiConfigTop(roi, 4), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetRoiConfigBottom(roi, 9), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetRoiConfig(roi, 0, 15, 0, 7), ACL_SUCCESS);
    EXPECT_EQ(acldvppDestroyRoiConfig(roi), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetRoiConfigLeft(roi, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("not a live acldvppRoiConfig");
}

// The default chip is an Atlas A2 one (Ascend910B1), whose VPC takes 0 to 5.
TEST(DvppResizeConfig, InterpolationIsZeroToFiveOnTheDefaultChip) {
    acldvppResizeConfig* c = acldvppCreateResizeConfig();
    EXPECT_EQ(acldvppGetResizeConfigInterpolation(c), 0u);
    EXPECT_EQ(acldvppSetResizeConfigInterpolation(c, 5), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetResizeConfigInterpolation(c, 2), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetResizeConfigInterpolation(c), 2u);
    EXPECT_EQ(acldvppSetResizeConfigInterpolation(c, 6), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("interpolation 6");
    EXPECT_EQ(acldvppGetResizeConfigInterpolation(c), 2u);
    EXPECT_EQ(acldvppDestroyResizeConfig(c), ACL_SUCCESS);
}

TEST(DvppJpegeConfig, LevelIsZeroToHundred) {
    acldvppJpegeConfig* c = acldvppCreateJpegeConfig();
    EXPECT_EQ(acldvppGetJpegeConfigLevel(c), 0u);
    EXPECT_EQ(acldvppSetJpegeConfigLevel(c, 100), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetJpegeConfigLevel(c), 100u);
    EXPECT_EQ(acldvppSetJpegeConfigLevel(c, 101), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("level 101");
    EXPECT_EQ(acldvppDestroyJpegeConfig(c), ACL_SUCCESS);
}

TEST(DvppBorderConfig, KeepsValuesTypeAndSides) {
    acldvppBorderConfig* c = acldvppCreateBorderConfig();
    EXPECT_EQ(acldvppGetBorderConfigBorderType(c), BORDER_CONSTANT);
    EXPECT_EQ(acldvppSetBorderConfigValue(c, 2, 99.5), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetBorderConfigValue(c, 2), 99.5);
    EXPECT_LT(acldvppGetBorderConfigValue(c, 4), 0.0);
    EXPECT_EQ(acldvppSetBorderConfigBorderType(c, BORDER_REFLECT_101), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetBorderConfigBorderType(c), BORDER_REFLECT_101);
    EXPECT_EQ(acldvppSetBorderConfigTop(c, 1), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetBorderConfigBottom(c, 2), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetBorderConfigLeft(c, 3), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetBorderConfigRight(c, 4), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetBorderConfigTop(c), 1u);
    EXPECT_EQ(acldvppGetBorderConfigBottom(c), 2u);
    EXPECT_EQ(acldvppGetBorderConfigLeft(c), 3u);
    EXPECT_EQ(acldvppGetBorderConfigRight(c), 4u);
    EXPECT_EQ(acldvppDestroyBorderConfig(c), ACL_SUCCESS);
    aclGetRecentErrMsg();
}

TEST(DvppLutMapAndHist, HaveThreeComponentsOf256Entries) {
    acldvppLutMap* map = acldvppCreateLutMap();
    EXPECT_EQ(acldvppGetLutMapDims(map), 3u);
    uint8_t* table = nullptr;
    uint32_t len = 0;
    ASSERT_EQ(acldvppGetLutMapData(map, 1, &table, &len), ACL_SUCCESS);
    EXPECT_EQ(len, 256u);
    EXPECT_EQ(table[77], 77);
    EXPECT_EQ(acldvppDestroyLutMap(map), ACL_SUCCESS);
    acldvppHist* hist = acldvppCreateHist();
    EXPECT_EQ(acldvppGetHistDims(hist), 3u);
    uint32_t* bins = nullptr;
    uint16_t count = 0;
    ASSERT_EQ(acldvppGetHistData(hist, 0, &bins, &count), ACL_SUCCESS);
    EXPECT_EQ(count, 256);
    EXPECT_EQ(acldvppGetHistData(hist, 3, &bins, &count), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(acldvppClearHist(hist), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetHistRetCode(hist), 0u);
    EXPECT_EQ(acldvppDestroyHist(hist), ACL_SUCCESS);
    aclGetRecentErrMsg();
}

class DvppChannel : public ::testing::Test {
 protected:
    void SetUp() override { ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }
    void TearDown() override {
        aclrtResetDeviceForce(0);
        aclGetRecentErrMsg();
    }
};

TEST_F(DvppChannel, ChannelIdExistsOnlyWhileTheChannelDoes) {
    acldvppChannelDesc* d = acldvppCreateChannelDesc();
    EXPECT_EQ(acldvppGetChannelDescChannelId(d), 0u);
    ASSERT_EQ(acldvppCreateChannel(d), ACL_SUCCESS);
    EXPECT_NE(acldvppGetChannelDescChannelId(d), 0u);
    ASSERT_EQ(acldvppDestroyChannel(d), ACL_SUCCESS);
    EXPECT_EQ(acldvppGetChannelDescChannelId(d), 0u);
    EXPECT_EQ(acldvppDestroyChannelDesc(d), ACL_SUCCESS);
}

TEST_F(DvppChannel, DescriptorOfALiveChannelCannotBeDestroyed) {
    acldvppChannelDesc* d = acldvppCreateChannelDesc();
    ASSERT_EQ(acldvppCreateChannel(d), ACL_SUCCESS);
    EXPECT_EQ(acldvppDestroyChannelDesc(d), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("call acldvppDestroyChannel before");
    EXPECT_EQ(acldvppCreateChannel(d), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("already describes channel");
    acldvppDestroyChannel(d);
    EXPECT_EQ(acldvppDestroyChannel(d), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("has no channel");
    acldvppDestroyChannelDesc(d);
}

TEST_F(DvppChannel, ModeIsANonEmptySetOfEnginesSetBeforeCreation) {
    acldvppChannelDesc* d = acldvppCreateChannelDesc();
    EXPECT_EQ(acldvppSetChannelDescMode(d, 16), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("mode 0x10");
    EXPECT_EQ(acldvppSetChannelDescMode(d, DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD), ACL_SUCCESS);
    uint32_t mode = 0;
    size_t got = 0;
    EXPECT_EQ(acldvppGetChannelDescParam(d, ACL_DVPP_MODE_UINT32, sizeof mode, &got, &mode),
              ACL_SUCCESS);
    EXPECT_EQ(mode, 3u);
    EXPECT_EQ(got, sizeof mode);
    ASSERT_EQ(acldvppCreateChannel(d), ACL_SUCCESS);
    EXPECT_EQ(acldvppSetChannelDescMode(d, DVPP_CHNMODE_VPC), ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("before acldvppCreateChannel");
    acldvppDestroyChannel(d);
    acldvppDestroyChannelDesc(d);
}

TEST_F(DvppChannel, ParamsCheckTheirSizeAndRange) {
    acldvppChannelDesc* d = acldvppCreateChannelDesc();
    int32_t precision = ACL_YUVOUT_ALIGN_UP;
    EXPECT_EQ(acldvppSetChannelDescParam(d, ACL_DVPP_JPEGD_PRECISION_MODE_ENUM, sizeof precision,
                                         &precision),
              ACL_SUCCESS);
    uint64_t wrong = 1;
    EXPECT_EQ(acldvppSetChannelDescParam(d, ACL_DVPP_CSC_MATRIX_UINT32, sizeof wrong, &wrong),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("4-byte value");
    uint32_t width = 20000;
    EXPECT_EQ(acldvppSetChannelDescParam(d, ACL_DVPP_CHANNEL_WIDTH_UINT32, sizeof width, &width),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("32..8192");
    uint64_t id = 5;
    EXPECT_EQ(acldvppSetChannelDescParam(d, ACL_DVPP_CHANNEL_ID_UINT64, sizeof id, &id),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MESSAGE_CONTAINS("read-only");
    int32_t got = -1;
    size_t size = 0;
    EXPECT_EQ(
        acldvppGetChannelDescParam(d, ACL_DVPP_JPEGD_PRECISION_MODE_ENUM, sizeof got, &size, &got),
        ACL_SUCCESS);
    EXPECT_EQ(got, ACL_YUVOUT_ALIGN_UP);
    acldvppDestroyChannelDesc(d);
}
