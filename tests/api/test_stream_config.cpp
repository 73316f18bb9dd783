// Stream configuration: config handles and aclrtCreateStreamV2, stream attributes
// (aclrtSet/GetStreamAttribute) and the overflow switch.
#include <gtest/gtest.h>

#include <cstdint>

#include "acl/acl.h"
#include "test_support.h"

namespace {
class StreamConfig : public DeviceTest {};
}  // namespace

TEST_F(StreamConfig, AConfigHandleGivesTheNewStreamItsPriorityAndFlags) {
    aclrtStreamConfigHandle* handle = aclrtCreateStreamConfigHandle();
    ASSERT_NE(handle, nullptr);
    const uint32_t priority = 3, flag = ACL_STREAM_FAST_LAUNCH;
    ASSERT_EQ(aclrtSetStreamConfigOpt(handle, ACL_RT_STREAM_PRIORITY, &priority, sizeof priority),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSetStreamConfigOpt(handle, ACL_RT_STREAM_FLAG, &flag, sizeof flag), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStreamV2(&stream, handle), ACL_SUCCESS) << TakeErrMsg();
    uint32_t got = 99, flags = 0;
    ASSERT_EQ(aclrtStreamGetPriority(stream, &got), ACL_SUCCESS);
    EXPECT_EQ(got, 3u);
    ASSERT_EQ(aclrtStreamGetFlags(stream, &flags), ACL_SUCCESS);
    EXPECT_EQ(flags, ACL_STREAM_FAST_LAUNCH);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStreamConfigHandle(handle), ACL_SUCCESS);
}

TEST_F(StreamConfig, AnOptionOfTheWrongSizeIsRefused) {
    aclrtStreamConfigHandle* handle = aclrtCreateStreamConfigHandle();
    const uint64_t priority = 1;
    EXPECT_EQ(aclrtSetStreamConfigOpt(handle, ACL_RT_STREAM_PRIORITY, &priority, sizeof priority),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("takes 4 bytes, not valueSize 8");
    aclrtDestroyStreamConfigHandle(handle);
}

TEST_F(StreamConfig, ANullHandleMakesADefaultStream) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStreamV2(&stream, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(StreamConfig, AttributesAreReadBackAsSet) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtStreamAttrValue value{};
    value.userCustomTag = 0xabcdef;
    ASSERT_EQ(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &value),
              ACL_SUCCESS);
    value = {};
    value.overflowSwitch = 1;
    ASSERT_EQ(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value),
              ACL_SUCCESS);
    value = {};
    value.streamPriority = 6;
    ASSERT_EQ(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value), ACL_SUCCESS);
    aclrtStreamAttrValue read{};
    ASSERT_EQ(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &read), ACL_SUCCESS);
    EXPECT_EQ(read.userCustomTag, 0xabcdefu);
    uint32_t overflow = 0;
    ASSERT_EQ(aclrtGetStreamOverflowSwitch(stream, &overflow), ACL_SUCCESS);
    EXPECT_EQ(overflow, 1u) << "the attribute and the switch are one setting";
    uint32_t priority = 0;
    ASSERT_EQ(aclrtStreamGetPriority(stream, &priority), ACL_SUCCESS);
    EXPECT_EQ(priority, 6u);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(StreamConfig, TheFailureModeAttributeIsTheFailureMode) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtStreamAttrValue value{};
    value.failureMode = ACL_STOP_ON_FAILURE;
    ASSERT_EQ(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &value), ACL_SUCCESS);
    aclrtStreamAttrValue read{};
    ASSERT_EQ(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &read), ACL_SUCCESS);
    EXPECT_EQ(read.failureMode, uint64_t{ACL_STOP_ON_FAILURE});
    EXPECT_EQ(aclrtSetStreamFailureMode(stream, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_INVALID_PARAM)
        << "set once, whichever way";
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(StreamConfig, TheDefaultStreamsFailureModeCannotBeSet) {
    aclrtStreamAttrValue value{};
    value.failureMode = ACL_STOP_ON_FAILURE;
    EXPECT_EQ(aclrtSetStreamAttribute(nullptr, ACL_STREAM_ATTR_FAILURE_MODE, &value),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("default stream's failure mode cannot be set");
}

class StreamConfigOn310P : public InitializedDeviceTest {
 private:
    ScopedEnv soc_{"OPENACL_SOC_NAME", "Ascend310P3"};
};

TEST_F(StreamConfigOn310P, PrioritiesAsAttributesAreFeatureNotSupport) {
    aclrtStreamAttrValue value{};
    value.streamPriority = 1;
    EXPECT_EQ(aclrtSetStreamAttribute(nullptr, ACL_STREAM_ATTR_PRIORITY, &value),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}
