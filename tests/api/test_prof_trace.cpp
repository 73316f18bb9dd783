// aclrtProfTrace: a profiling point with the program's own data, put on a stream and shown on
// the stream's track when the stream gets there.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "acl/acl.h"
#include "prof_session.h"
#include "test_support.h"

namespace {

using nlohmann::json;

// The 18 bytes as rtProfilerTraceEx laid them out: index id, model id, tag id.
struct TraceData {
    uint64_t index_id;
    uint64_t model_id;
    uint16_t tag_id;
} __attribute__((packed));
static_assert(sizeof(TraceData) == 18);

class ProfTrace : public ProfSession {};

TEST_F(ProfTrace, IsATaskOnTheStreamWithTheUserData) {
    Start();
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    TraceData data{7, 3, 0x0105};
    ASSERT_EQ(aclrtProfTrace(&data, sizeof data, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    const auto tasks = Stop("task");
    const json* task = FindEvent(tasks, "prof trace", "X");
    ASSERT_NE(task, nullptr);
    EXPECT_NE((*task)["pid"], 1);  // a device's track
    const json& args = (*task)["args"];
    EXPECT_EQ(args["api"], "aclrtProfTrace");
    EXPECT_EQ(args["userdata"], "070000000000000003000000000000000501");
    EXPECT_EQ(args["index_id"], 7);
    EXPECT_EQ(args["model_id"], 3);
    EXPECT_EQ(args["tag_id"], 0x0105);
}

TEST_F(ProfTrace, ShorterUserDataIsPaddedWithZeros) {
    Start();
    const char data[] = {'\x01', '\x02', '\x03'};
    ASSERT_EQ(aclrtProfTrace(const_cast<char*>(data), sizeof data, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const auto tasks = Stop("task");
    const json* task = FindEvent(tasks, "prof trace", "X");
    ASSERT_NE(task, nullptr);
    EXPECT_EQ((*task)["args"]["userdata"], "010203" + std::string(30, '0'));
}

TEST_F(ProfTrace, MoreThan18BytesIsInvalidParam) {
    Start();
    char data[19] = {};
    EXPECT_EQ(aclrtProfTrace(data, 19, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("0 to 18 bytes");
    EXPECT_EQ(aclrtProfTrace(data, 18, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    Stop();
}

TEST(ProfTraceOutsideATrace, IsAnEmptyTaskInStreamOrder) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    TraceData data{1, 2, 3};
    EXPECT_EQ(aclrtProfTrace(&data, sizeof data, stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}

}  // namespace
