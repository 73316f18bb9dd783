// Misuse table, profiling: msproftx annotations, step timestamps, session options and
// aclrtProfTrace.
#include "acl/acl_prof.h"
#include "misuse_table.h"

TEST(MisuseTable, MsproftxAnnotations) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int not_a_stamp = 0;
    uint32_t id = 0;
    aclprofEventAttributes no_info{};
    no_info.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;

    const std::vector<MisuseRow> rows = {
        {"aclprofCreateStamp() outside a session",
         [] { return aclprofCreateStamp() == nullptr ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_PROF_NOT_RUN},
        {"aclprofDestroyStamp(not a stamp)",
         [&] {
             aclprofDestroyStamp(&not_a_stamp);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofSetStampTraceMessage(not a stamp, ...)",
         [&] { return aclprofSetStampTraceMessage(&not_a_stamp, "m", 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofSetStampTraceMessage(NULL, NULL, 1)",
         [] { return aclprofSetStampTraceMessage(nullptr, nullptr, 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclprofMark(NULL)", [] { return aclprofMark(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclprofPush(not a stamp)", [&] { return aclprofPush(&not_a_stamp); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofPop() with nothing pushed", [] { return aclprofPop(); }, ACL_ERROR_INVALID_PARAM},
        {"aclprofRangeStart(NULL, &id)", [&] { return aclprofRangeStart(nullptr, &id); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofRangeStop(never started)", [] { return aclprofRangeStop(123456); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofMarkEx(msg, 0, stream)", [] { return aclprofMarkEx("m", 0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofMarkEx(msg, 1, stream) outside a session",
         [] { return aclprofMarkEx("m", 1, nullptr); }, ACL_ERROR_PROF_NOT_RUN},
        {"aclprofStr2Id(NULL)",
         [] { return aclprofStr2Id(nullptr) == UINT64_MAX ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofRangePushEx(NULL)", [] { return aclprofRangePushEx(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofRangePushEx(attr without tensor info)",
         [&] { return aclprofRangePushEx(&no_info); }, ACL_ERROR_INVALID_PARAM},
        {"aclprofRangePop() with nothing pushed", [] { return aclprofRangePop(); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtResetDeviceForce(0);
}

TEST(MisuseTable, ProfilingStepsOptionsAndTracePoints) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int not_step_info = 0;
    auto* bogus = reinterpret_cast<aclprofStepInfo*>(&not_step_info);
    char data[19] = {};
    const std::vector<MisuseRow> rows = {
        {"aclprofSetConfig(ACL_PROF_ARGS_MAX, ...)",
         [] { return aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1); }, ACL_ERROR_INVALID_PARAM},
        {"aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, \"10MB\")",
         [] { return aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "10MB", 4); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetStepTimestamp(NULL, START, stream)",
         [] { return aclprofGetStepTimestamp(nullptr, ACL_STEP_START, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetStepTimestamp(not a step info, START, stream)",
         [&] { return aclprofGetStepTimestamp(bogus, ACL_STEP_START, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofDestroyStepInfo(not a step info)",
         [&] {
             aclprofDestroyStepInfo(bogus);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtProfTrace(NULL, 18, stream)", [] { return aclrtProfTrace(nullptr, 18, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtProfTrace(data, 19, stream)", [&] { return aclrtProfTrace(data, 19, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtProfTrace(data, -1, stream)", [&] { return aclrtProfTrace(data, -1, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtProfTrace(data, 18, not a stream)",
         [&] { return aclrtProfTrace(data, 18, &not_step_info); }, ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtResetDeviceForce(0);
}
