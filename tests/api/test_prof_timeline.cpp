// What an application adds to the timeline aclprofStart/aclprofStop write: msproftx marks and
// ranges, step timestamps, and the session options of aclprofSetConfig.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "prof_session.h"

namespace {

using nlohmann::json;

// A profiling session (prof_session.h) with stamps.
class ProfTx : public ProfSession {
 protected:
    static void* StampWith(const std::string& message) {
        void* stamp = aclprofCreateStamp();
        EXPECT_NE(stamp, nullptr);
        EXPECT_EQ(aclprofSetStampTraceMessage(stamp, message.c_str(), message.size()), ACL_SUCCESS);
        return stamp;
    }
};

TEST_F(ProfTx, MarkIsAnInstantOnTheCallingThread) {
    Start();
    void* stamp = StampWith("model_load_mark");
    ASSERT_EQ(aclprofMark(stamp), ACL_SUCCESS);
    aclprofDestroyStamp(stamp);
    auto events = Stop();
    const json* mark = FindEvent(events, "model_load_mark", "i");
    ASSERT_NE(mark, nullptr);
    EXPECT_EQ((*mark)["pid"], 1);  // the host process track
}

TEST_F(ProfTx, PushAndPopNestOnOneThread) {
    Start();
    void* outer = StampWith("frame");
    void* inner = StampWith("preprocess");
    ASSERT_EQ(aclprofPush(outer), ACL_SUCCESS);
    ASSERT_EQ(aclprofPush(inner), ACL_SUCCESS);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ASSERT_EQ(aclprofPop(), ACL_SUCCESS);  // closes "preprocess"
    ASSERT_EQ(aclprofPop(), ACL_SUCCESS);  // closes "frame"
    aclprofDestroyStamp(outer);
    aclprofDestroyStamp(inner);
    auto events = Stop();
    const json* frame = FindEvent(events, "frame", "X");
    const json* pre = FindEvent(events, "preprocess", "X");
    ASSERT_NE(frame, nullptr);
    ASSERT_NE(pre, nullptr);
    EXPECT_GE((*pre)["dur"].get<double>(), 2000.0);  // microseconds
    EXPECT_LE((*frame)["ts"].get<double>(), (*pre)["ts"].get<double>());
    EXPECT_GE((*frame)["dur"].get<double>(), (*pre)["dur"].get<double>());
}

TEST_F(ProfTx, PopWithoutPushIsInvalidParam) {
    Start();
    EXPECT_EQ(aclprofPop(), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("aclprofPush");
    EXPECT_EQ(aclprofRangePop(), ACL_ERROR_INVALID_PARAM);
    Stop();
}

TEST_F(ProfTx, RangeMayEndOnAnotherThread) {
    Start();
    void* stamp = StampWith("decode");
    uint32_t id = 0;
    ASSERT_EQ(aclprofRangeStart(stamp, &id), ACL_SUCCESS);
    EXPECT_NE(id, 0u);
    std::thread other([id] { EXPECT_EQ(aclprofRangeStop(id), ACL_SUCCESS); });
    other.join();
    aclprofDestroyStamp(stamp);
    auto events = Stop();
    const json* begin = FindEvent(events, "decode", "b");
    const json* end = FindEvent(events, "decode", "e");
    ASSERT_NE(begin, nullptr);
    ASSERT_NE(end, nullptr);
    EXPECT_EQ((*begin)["id"], (*end)["id"]);
    EXPECT_NE((*begin)["tid"], (*end)["tid"]);
}

TEST_F(ProfTx, RangeIdsAreUniqueAndStopTwiceIsInvalidParam) {
    Start();
    void* stamp = StampWith("r");
    uint32_t a = 0, b = 0;
    ASSERT_EQ(aclprofRangeStart(stamp, &a), ACL_SUCCESS);
    ASSERT_EQ(aclprofRangeStart(stamp, &b), ACL_SUCCESS);
    EXPECT_NE(a, b);
    ASSERT_EQ(aclprofRangeStop(a), ACL_SUCCESS);
    EXPECT_EQ(aclprofRangeStop(a), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not open");
    ASSERT_EQ(aclprofRangeStop(b), ACL_SUCCESS);
    aclprofDestroyStamp(stamp);
    Stop();
}

TEST_F(ProfTx, MarkExMarksTheStreamWhenItsTurnComes) {
    Start();
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclprofMarkEx("after upload", 12, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    bool host_mark = false, stream_task = false;
    for (const json& e : StopAndRead()) {
        if (e.value("cat", "") == "user" && e["name"] == "after upload") host_mark = true;
        if (e.value("cat", "") == "task" && e["name"] == "mark: after upload") {
            stream_task = e["pid"].get<int>() >= 100;  // a device track
        }
    }
    EXPECT_TRUE(host_mark);
    EXPECT_TRUE(stream_task);
}

TEST_F(ProfTx, MarkExMessagesAreAtMost127Characters) {
    Start();
    const std::string long_message(128, 'x');
    EXPECT_EQ(aclprofMarkEx(long_message.c_str(), long_message.size(), nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclprofMarkEx(long_message.c_str(), 127, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclprofMarkEx(nullptr, 3, nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    Stop();
}

TEST_F(ProfTx, RangePushExShowsTheOperatorAndItsTensors) {
    Start();
    aclprofTensor tensors[2] = {};
    tensors[0] = {0, ACL_FORMAT_NCHW, ACL_FLOAT, 4, {1, 3, 224, 224}};
    tensors[1] = {1, ACL_FORMAT_ND, ACL_FLOAT, 2, {1, 1000}};
    aclprofTensorInfo info{};
    info.opNameId = aclprofStr2Id("resnet/fc");
    info.opTypeId = aclprofStr2Id("MatMul");
    info.tensorNum = 2;
    info.tensors = tensors;
    aclprofEventAttributes attr{};
    attr.version = ACL_PROF_EVENT_ATTR_VERSION;
    attr.size = sizeof attr;
    attr.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;
    attr.message.tensorInfo = &info;
    ASSERT_EQ(aclprofRangePushEx(&attr), ACL_SUCCESS);
    ASSERT_EQ(aclprofRangePop(), ACL_SUCCESS);
    auto events = Stop();
    const json* op = FindEvent(events, "resnet/fc", "X");
    ASSERT_NE(op, nullptr);
    EXPECT_EQ((*op)["args"]["op_type"], "MatMul");
    ASSERT_EQ((*op)["args"]["tensors"].size(), 2u);
    EXPECT_EQ((*op)["args"]["tensors"][0]["shape"], json({1, 3, 224, 224}));
    EXPECT_EQ((*op)["args"]["tensors"][1]["io"], "output");
}

TEST_F(ProfTx, RangePushExChecksItsAttributes) {
    Start();
    aclprofEventAttributes attr{};
    EXPECT_EQ(aclprofRangePushEx(nullptr), ACL_ERROR_INVALID_PARAM);
    attr.messageType = 7;
    EXPECT_EQ(aclprofRangePushEx(&attr), ACL_ERROR_INVALID_PARAM);
    attr.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;
    EXPECT_EQ(aclprofRangePushEx(&attr), ACL_ERROR_INVALID_PARAM);  // no tensor info
    aclprofTensor tensor{};
    tensor.shapeDim = 9;
    aclprofTensorInfo info{};
    info.tensorNum = 1;
    info.tensors = &tensor;
    attr.message.tensorInfo = &info;
    EXPECT_EQ(aclprofRangePushEx(&attr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("shapeDim 9");
    Stop();
}

TEST_F(ProfTx, AConfigurationWithoutMsproftxRecordsNoAnnotations) {
    Start(ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
    void* stamp = StampWith("invisible");
    EXPECT_EQ(aclprofMark(stamp), ACL_SUCCESS);
    EXPECT_EQ(aclprofPush(stamp), ACL_SUCCESS);
    EXPECT_EQ(aclprofPop(), ACL_SUCCESS);
    aclprofDestroyStamp(stamp);
    EXPECT_TRUE(Stop().empty());
}

TEST_F(ProfTx, OutsideASessionTheCallsSayWhereTheyBelong) {
    EXPECT_EQ(aclprofCreateStamp(), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("between aclprofStart and aclprofStop");
    EXPECT_EQ(aclprofMarkEx("m", 1, nullptr), ACL_ERROR_PROF_NOT_RUN);
    Start();
    void* stamp = StampWith("late");
    ASSERT_EQ(aclprofStop(config_), ACL_SUCCESS);
    EXPECT_EQ(aclprofMark(stamp), ACL_ERROR_PROF_NOT_RUN);
    EXPECT_EQ(aclprofPush(stamp), ACL_ERROR_PROF_NOT_RUN);
    aclprofDestroyStamp(stamp);
}

TEST_F(ProfTx, ADestroyedStampIsInvalidParam) {
    Start();
    void* keep = StampWith("keep");  // so the next stamp cannot reuse the address
    void* stamp = StampWith("gone");
    aclprofDestroyStamp(stamp);
    EXPECT_EQ(aclprofMark(stamp), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not a live stamp");
    EXPECT_EQ(aclprofSetStampTraceMessage(stamp, "x", 1), ACL_ERROR_INVALID_PARAM);
    aclprofDestroyStamp(keep);
    Stop();
}

TEST_F(ProfTx, StepTimestampsMarkTheStreamWithNumberedSteps) {
    Start();
    aclprofStepInfo* info = aclprofCreateStepInfo();
    ASSERT_NE(info, nullptr);
    for (int i = 0; i < 2; ++i) {
        ASSERT_EQ(aclprofGetStepTimestamp(info, ACL_STEP_START, nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclprofGetStepTimestamp(info, ACL_STEP_END, nullptr), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    aclprofDestroyStepInfo(info);
    std::set<std::string> names;
    for (const json& e : Stop("task"))
        names.insert(e["name"].get<std::string>());
    for (const char* name : {"step 1 start", "step 1 end", "step 2 start", "step 2 end"})
        EXPECT_TRUE(names.count(name)) << name;
}

TEST_F(ProfTx, StepEndWithoutStartIsInvalidParam) {
    Start();
    aclprofStepInfo* info = aclprofCreateStepInfo();
    EXPECT_EQ(aclprofGetStepTimestamp(info, ACL_STEP_END, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("ACL_STEP_START");
    EXPECT_EQ(aclprofGetStepTimestamp(info, static_cast<aclprofStepTag>(5), nullptr),
              ACL_ERROR_INVALID_PARAM);
    aclprofDestroyStepInfo(info);
    Stop();
}

TEST_F(ProfTx, StepTimestampsNeedARunningSession) {
    aclprofStepInfo* info = aclprofCreateStepInfo();
    EXPECT_EQ(aclprofGetStepTimestamp(info, ACL_STEP_START, nullptr), ACL_ERROR_PROF_NOT_RUN);
    aclprofDestroyStepInfo(info);
}

TEST_F(ProfTx, StorageLimitTakesMegabytesFrom200) {
    EXPECT_EQ(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "500MB", 5), ACL_SUCCESS);
    EXPECT_EQ(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "100MB", 5), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("<n>MB");
    EXPECT_EQ(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "500", 3), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "lots", 4), ACL_ERROR_INVALID_PARAM);
    Start();  // the session starts with the limit as its record buffer
    Stop();
}

TEST_F(ProfTx, HardwareOptionsAreAcceptedAndChecked) {
    EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2), ACL_SUCCESS);
    EXPECT_EQ(aclprofSetConfig(ACL_PROF_ARGS_MIN, "1", 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclprofSetConfig(ACL_PROF_LLC_MODE, nullptr, 4), ACL_ERROR_INVALID_PARAM);
    const std::string long_value(257, '1');
    EXPECT_EQ(aclprofSetConfig(ACL_PROF_DVPP_FREQ, long_value.c_str(), long_value.size()),
              ACL_ERROR_INVALID_PARAM);
}

TEST(ProfTxIds, Str2IdIsStableAndSaysFailureWithTheMaximum) {
    EXPECT_EQ(aclprofStr2Id("Conv2D"), aclprofStr2Id("Conv2D"));
    EXPECT_NE(aclprofStr2Id("Conv2D"), aclprofStr2Id("MatMul"));
    EXPECT_EQ(aclprofStr2Id(nullptr), UINT64_MAX);
}

}  // namespace
