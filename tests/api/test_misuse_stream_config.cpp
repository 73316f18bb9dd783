// Misuse table, stream configuration and attributes.
#include "misuse_table.h"

TEST(MisuseTable, StreamConfiguration) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStreamConfigHandle* live = aclrtCreateStreamConfigHandle();
    ASSERT_NE(live, nullptr);
    aclrtStreamConfigHandle foreign{};
    const uint32_t u32 = 9;
    aclrtStreamAttrValue value{};
    value.overflowSwitch = 2;
    aclrtStreamAttrValue priority{};
    priority.streamPriority = 8;
    int not_a_stream = 0;
    aclrtStream out = nullptr;

    const std::vector<MisuseRow> rows = {
        {"aclrtDestroyStreamConfigHandle(NULL)",
         [&] { return aclrtDestroyStreamConfigHandle(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyStreamConfigHandle(foreign)",
         [&] { return aclrtDestroyStreamConfigHandle(&foreign); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSetStreamConfigOpt(NULL value)",
         [&] { return aclrtSetStreamConfigOpt(live, ACL_RT_STREAM_FLAG, nullptr, 4); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetStreamConfigOpt(priority 9)",
         [&] { return aclrtSetStreamConfigOpt(live, ACL_RT_STREAM_PRIORITY, &u32, 4); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetStreamConfigOpt(attr 9)",
         [&] {
             return aclrtSetStreamConfigOpt(live, static_cast<aclrtStreamConfigAttr>(9), &u32, 4);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateStreamV2(NULL stream)", [&] { return aclrtCreateStreamV2(nullptr, live); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateStreamV2(host workptr)",
         [&] {
             aclrtStreamConfigHandle h{};
             h.workptr = &not_a_stream;
             h.workSize = 4;
             return aclrtCreateStreamV2(&out, &h);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetStreamAttribute(overflow switch 2)",
         [&] {
             return aclrtSetStreamAttribute(nullptr, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetStreamAttribute(priority 8)",
         [&] { return aclrtSetStreamAttribute(nullptr, ACL_STREAM_ATTR_PRIORITY, &priority); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetStreamAttribute(NULL value)",
         [&] { return aclrtSetStreamAttribute(nullptr, ACL_STREAM_ATTR_PRIORITY, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetStreamAttribute(attr 99)",
         [&] { return aclrtGetStreamAttribute(nullptr, static_cast<aclrtStreamAttr>(99), &value); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetStreamAttribute(not a stream)",
         [&] { return aclrtGetStreamAttribute(&not_a_stream, ACL_STREAM_ATTR_PRIORITY, &value); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetStreamOverflowSwitch(flag 2)",
         [&] { return aclrtSetStreamOverflowSwitch(nullptr, 2); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamWaitEventWithTimeout(NULL event)",
         [&] { return aclrtStreamWaitEventWithTimeout(nullptr, nullptr, 10); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamWaitEventWithTimeout(timeout -1)",
         [&] { return aclrtStreamWaitEventWithTimeout(nullptr, nullptr, -1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetStreamOverflowSwitch(NULL flag)",
         [&] { return aclrtGetStreamOverflowSwitch(nullptr, nullptr); }, ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtDestroyStreamConfigHandle(live), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}
