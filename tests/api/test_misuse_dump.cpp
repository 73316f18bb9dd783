// Misuse table, dumps and operator subscriptions: calls out of order, bad configurations,
// callbacks, paths, subscription configurations and the readers of subscription records.
#include <unistd.h>

#include <fstream>

#include "acl/acl_dump.h"
#include "acl/acl_prof.h"
#include "misuse_table.h"
#include "temp_dir.h"

namespace {

int32_t IgnoreChunk(const acldumpChunk*, int32_t) {
    return 0;
}

// For calls that answer a value: the recorded error when the value says it failed.
aclError null_means_failure(bool failed) {
    return failed ? RecordedError() : ACL_SUCCESS;
}

}  // namespace

TEST(MisuseTable, Dumps) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    TempDir dir("openacl-misuse-dump");
    const std::string bad_mode = dir.File("mode.json");
    std::ofstream(bad_mode) << R"({"dump": {"dump_path": "x", "dump_list": [], "dump_mode": "z"}})";
    const std::vector<MisuseRow> rows = {
        {"aclmdlSetDump(path) before aclmdlInitDump",
         [&] { return aclmdlSetDump(bad_mode.c_str()); }, ACL_ERROR_DUMP_NOT_RUN},
        {"aclmdlFinalizeDump() before aclmdlInitDump", [] { return aclmdlFinalizeDump(); },
         ACL_ERROR_DUMP_NOT_RUN},
        {"aclmdlInitDump() twice",
         [] {
             aclmdlInitDump();
             return aclmdlInitDump();
         },
         ACL_ERROR_DUMP_ALREADY_RUN},
        {"aclmdlSetDump(NULL)", [] { return aclmdlSetDump(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlSetDump(dump_mode \"z\")", [&] { return aclmdlSetDump(bad_mode.c_str()); },
         ACL_ERROR_INVALID_DUMP_CONFIG},
        {"aclmdlSetDump(missing file)", [&] { return aclmdlSetDump(dir.File("no").c_str()); },
         ACL_ERROR_INVALID_FILE},
        {"acldumpRegCallback(NULL, 0)", [] { return acldumpRegCallback(nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldumpRegCallback(fn, 1)", [] { return acldumpRegCallback(IgnoreChunk, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"acldumpGetPath(0)",
         [] {
             return acldumpGetPath(static_cast<acldumpType>(0)) == nullptr ? RecordedError()
                                                                           : ACL_SUCCESS;
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclopStartDumpArgs(0x2, path)", [&] { return aclopStartDumpArgs(2, dir.path().c_str()); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, NULL)",
         [] { return aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopStopDumpArgs(0)", [] { return aclopStopDumpArgs(0); }, ACL_ERROR_INVALID_PARAM},
        {"acldumpSaveExceptionInfo(NULL, ...)",
         [] { return acldumpSaveExceptionInfo(nullptr, nullptr, nullptr, 0); },
         ACL_ERROR_INVALID_PARAM},
        {"acldumpSaveExceptionInfo(\"f\", tag, NULL, 1)",
         [] { return acldumpSaveExceptionInfo("f", "tag", nullptr, 1); }, ACL_ERROR_INVALID_PARAM},
        {"acldumpGetExceptionInfoPath(NULL, 64)",
         [] { return acldumpGetExceptionInfoPath(nullptr, 64); }, ACL_ERROR_INVALID_PARAM},
        {"acldumpGetExceptionInfoPath(buf, 64) with exception dumps off",
         [] {
             char path[64];
             return acldumpGetExceptionInfoPath(path, sizeof path);
         },
         ACL_ERROR_FAILURE},
    };
    ExpectEveryRowFails(rows);
    aclmdlFinalizeDump();
    aclFinalize();
}

TEST(MisuseTable, OperatorSubscriptions) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    int not_a_config = 0;
    auto* bogus = reinterpret_cast<aclprofSubscribeConfig*>(&not_a_config);
    const std::string garbage(256, 'x');
    size_t length = 0;
    uint32_t count = 0;
    char text[8];
    const std::vector<MisuseRow> rows = {
        {"aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fd)",
         [&] {
             return null_means_failure(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds[1]) ==
                                       nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, NULL)",
         [&] {
             return null_means_failure(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, nullptr) ==
                                       nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofDestroySubscribeConfig(not a config)",
         [&] { return aclprofDestroySubscribeConfig(bogus); }, ACL_ERROR_INVALID_PARAM},
        {"aclprofModelSubscribe(1, NULL)", [] { return aclprofModelSubscribe(1, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofModelSubscribe(1, not a config)", [&] { return aclprofModelSubscribe(1, bogus); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofModelUnSubscribe(never subscribed)",
         [] { return aclprofModelUnSubscribe(987654); }, ACL_ERROR_INVALID_MODEL_ID},
        {"aclprofGetOpDescSize(NULL)", [] { return aclprofGetOpDescSize(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetOpNum(garbage, ...)",
         [&] { return aclprofGetOpNum(garbage.data(), garbage.size(), &count); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetOpTypeLen(NULL, ...)",
         [&] { return aclprofGetOpTypeLen(nullptr, 256, 0, &length); }, ACL_ERROR_INVALID_PARAM},
        {"aclprofGetOpType(garbage, ...)",
         [&] { return aclprofGetOpType(garbage.data(), garbage.size(), 0, text, sizeof text); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetOpNameLen(garbage, 0 bytes, ...)",
         [&] { return aclprofGetOpNameLen(garbage.data(), 0, 0, &length); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetOpName(garbage, ...)",
         [&] { return aclprofGetOpName(garbage.data(), garbage.size(), 0, text, sizeof text); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetOpStart(NULL, ...)",
         [] { return null_means_failure(aclprofGetOpStart(nullptr, 0, 0) == 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetOpEnd(NULL, ...)",
         [] { return null_means_failure(aclprofGetOpEnd(nullptr, 0, 0) == 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetOpDuration(NULL, ...)",
         [] { return null_means_failure(aclprofGetOpDuration(nullptr, 0, 0) == 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetModelId(NULL, ...)",
         [] { return null_means_failure(aclprofGetModelId(nullptr, 0, 0) == 0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetOpFlag(NULL, ...)",
         [] { return null_means_failure(aclprofGetOpFlag(nullptr, 0, 0) == ACL_SUBSCRIBE_NONE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclprofGetOpAttriValue(garbage, ...)",
         [&] {
             return null_means_failure(aclprofGetOpAttriValue(garbage.data(), garbage.size(), 0,
                                                              ACL_SUBSCRIBE_ATTRI_THREADID) ==
                                       nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    close(fds[0]);
    close(fds[1]);
    aclrtResetDeviceForce(0);
}
