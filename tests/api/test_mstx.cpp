// mstx (mstx/ms_tools_ext.h): marks and ranges on the timeline, tied to streams and grouped in
// domains, collected as msprof collects them: with ACL_PROF_MSPROFTX (or OPENACL_TRACE).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "mstx/ms_tools_ext.h"
#include "prof_session.h"
#include "temp_dir.h"
#include "test_support.h"

namespace {

using nlohmann::json;

constexpr size_t kBytes = 1 << 20;
constexpr int kHostPid = 1;

class Mstx : public ProfSession {};

// The events named `name` with phase `ph`.
std::vector<json> All(const std::vector<json>& events, const std::string& name,
                      const std::string& ph) {
    std::vector<json> found;
    for (const json& e : events)
        if (e.value("name", "") == name && e.value("ph", "") == ph) found.push_back(e);
    return found;
}

double End(const json& e) {
    return e["ts"].get<double>() + e["dur"].get<double>();
}

TEST_F(Mstx, MarkIsAnInstantOnTheCallingThread) {
    Start();
    mstxMarkA("weights loaded", nullptr);
    const auto events = Stop();
    const json* mark = FindEvent(events, "weights loaded", "i");
    ASSERT_NE(mark, nullptr);
    EXPECT_EQ((*mark)["pid"], kHostPid);
}

TEST_F(Mstx, MarkWithAStreamAlsoMarksTheStreamWhenItsTurnComes) {
    Start();
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    mstxMarkA("after upload", stream);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    const auto events = StopAndRead();
    const json* host = FindEvent(events, "after upload", "i");
    const json* task = FindEvent(events, "mark: after upload", "X");
    ASSERT_NE(host, nullptr);
    ASSERT_NE(task, nullptr);
    EXPECT_EQ((*host)["pid"], kHostPid);
    EXPECT_EQ((*task)["cat"], "task");
    EXPECT_NE((*task)["pid"], kHostPid);  // a device's track
    EXPECT_EQ((*task)["args"]["api"], "mstxMarkA");
}

TEST_F(Mstx, RangeMayEndOnAnotherThread) {
    Start();
    const mstxRangeId id = mstxRangeStartA("decode", nullptr);
    EXPECT_NE(id, 0u);
    std::thread other([id] { mstxRangeEnd(id); });
    other.join();
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    const auto events = Stop();
    const json* begin = FindEvent(events, "decode", "b");
    const json* end = FindEvent(events, "decode", "e");
    ASSERT_NE(begin, nullptr);
    ASSERT_NE(end, nullptr);
    EXPECT_EQ((*begin)["id"], (*end)["id"]);
    EXPECT_NE((*begin)["tid"], (*end)["tid"]);
}

TEST_F(Mstx, RangeIdsAreUniqueAndEndingOneTwiceIsAnError) {
    Start();
    const mstxRangeId a = mstxRangeStartA("a", nullptr);
    const mstxRangeId b = mstxRangeStartA("b", nullptr);
    EXPECT_NE(a, 0u);
    EXPECT_NE(b, 0u);
    EXPECT_NE(a, b);
    mstxRangeEnd(a);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    mstxRangeEnd(a);
    EXPECT_THAT_MESSAGE_CONTAINS("is not open");
    mstxRangeEnd(b);
    Stop();
}

TEST_F(Mstx, ARangeOnAStreamIsAlsoDrawnOnTheStreamsTrackAroundItsTasks) {
    Start();
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* device = nullptr;
    ASSERT_EQ(aclrtMalloc(&device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const mstxRangeId id = mstxRangeStartA("upload", stream);
    ASSERT_NE(id, 0u);
    ASSERT_EQ(aclrtMemsetAsync(device, kBytes, 0, kBytes, stream), ACL_SUCCESS);
    mstxRangeEnd(id);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
    const auto events = StopAndRead();

    // The host side: a range on the host's tracks.
    EXPECT_NE(FindEvent(events, "upload", "b"), nullptr);
    EXPECT_NE(FindEvent(events, "upload", "e"), nullptr);
    // The stream side: a slice on the stream's own track around the fill it ran in the range,
    // between the tasks that mark where the stream reached the start and the end.
    const json* fill = FindEvent(events, "memset 1 MiB", "X");
    const json* range = FindEvent(events, "upload", "X");
    const json* start = FindEvent(events, "range start: upload", "X");
    const json* end = FindEvent(events, "range end: upload", "X");
    ASSERT_NE(fill, nullptr);
    ASSERT_NE(range, nullptr);
    ASSERT_NE(start, nullptr);
    ASSERT_NE(end, nullptr);
    EXPECT_EQ((*range)["cat"], "user");
    EXPECT_EQ((*range)["pid"], (*fill)["pid"]);
    EXPECT_EQ((*range)["tid"], (*fill)["tid"]);
    EXPECT_EQ((*range)["args"]["range_id"], id);
    EXPECT_EQ((*range)["ts"], (*start)["ts"]);
    EXPECT_LE(End(*start), (*fill)["ts"].get<double>());
    EXPECT_LE(End(*fill), (*end)["ts"].get<double>());
    EXPECT_DOUBLE_EQ(End(*range), End(*end));
}

TEST_F(Mstx, NestedStreamRangesNestOnTheStreamsTrack) {
    Start();
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    const mstxRangeId outer = mstxRangeStartA("step", stream);
    const mstxRangeId inner = mstxRangeStartA("forward", stream);
    mstxRangeEnd(inner);
    mstxRangeEnd(outer);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    const auto events = StopAndRead();
    const json* step = FindEvent(events, "step", "X");
    const json* forward = FindEvent(events, "forward", "X");
    ASSERT_NE(step, nullptr);
    ASSERT_NE(forward, nullptr);
    EXPECT_EQ((*step)["tid"], (*forward)["tid"]);
    EXPECT_LE((*step)["ts"].get<double>(), (*forward)["ts"].get<double>());
    EXPECT_GE(End(*step), End(*forward));
}

TEST_F(Mstx, StreamRangesThatCrossCannotNestAndBecomeAsyncSlicesOfTheDevice) {
    Start();
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    const mstxRangeId first = mstxRangeStartA("first", stream);
    const mstxRangeId second = mstxRangeStartA("second", stream);
    mstxRangeEnd(first);  // ends inside "second", which began inside it
    mstxRangeEnd(second);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    const auto events = StopAndRead();
    ASSERT_NE(FindEvent(events, "first", "X"), nullptr);
    EXPECT_EQ(FindEvent(events, "second", "X"), nullptr);
    // "second" is an async slice of the device (its host side is one of the host's).
    std::vector<json> begins;
    for (const json& b : All(events, "second", "b"))
        if (b["pid"] != kHostPid) begins.push_back(b);
    ASSERT_EQ(begins.size(), 1u);
    bool ended = false;
    for (const json& e : All(events, "second", "e"))
        ended = ended || (e["pid"] == begins[0]["pid"] && e["id"] == begins[0]["id"]);
    EXPECT_TRUE(ended);
}

TEST_F(Mstx, DomainAnnotationsCarryTheDomainsName) {
    Start();
    mstxDomainHandle_t domain = mstxDomainCreateA("sample");
    ASSERT_NE(domain, nullptr);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    mstxDomainMarkA(domain, "tick", stream);
    const mstxRangeId id = mstxDomainRangeStartA(domain, "phase", nullptr);
    ASSERT_NE(id, 0u);
    mstxDomainRangeEnd(domain, id);
    const mstxRangeId on_stream = mstxDomainRangeStartA(domain, "stream phase", stream);
    mstxDomainRangeEnd(domain, on_stream);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    const auto events = StopAndRead();
    for (const char* ph : {"i", "b"}) {
        const json* e = FindEvent(events, ph == std::string("i") ? "tick" : "phase", ph);
        ASSERT_NE(e, nullptr) << ph;
        EXPECT_EQ((*e)["cat"], "user,sample");
        EXPECT_EQ((*e)["args"]["domain"], "sample");
    }
    const json* task = FindEvent(events, "mark: tick", "X");
    ASSERT_NE(task, nullptr);
    EXPECT_EQ((*task)["args"]["domain"], "sample");
    const json* stream_range = FindEvent(events, "stream phase", "X");  // on the stream's track
    ASSERT_NE(stream_range, nullptr);
    EXPECT_EQ((*stream_range)["cat"], "user,sample");
    EXPECT_EQ((*stream_range)["args"]["domain"], "sample");
    mstxDomainDestroy(domain);
}

TEST_F(Mstx, ARangeEndsInTheDomainItStartedIn) {
    Start();
    mstxDomainHandle_t domain = mstxDomainCreateA("io");
    const mstxRangeId id = mstxDomainRangeStartA(domain, "read", nullptr);
    ASSERT_NE(id, 0u);
    mstxRangeEnd(id);
    EXPECT_THAT_MESSAGE_CONTAINS("was started in domain \"io\", not in the default domain");
    mstxDomainRangeEnd(domain, id);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    mstxDomainDestroy(domain);
    Stop();
}

TEST(MstxDomains, OneNameGivesOneHandleUntilTheDomainIsDestroyed) {
    mstxDomainHandle_t a = mstxDomainCreateA("alpha");
    mstxDomainHandle_t b = mstxDomainCreateA("beta_2");
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_NE(a, b);
    EXPECT_EQ(mstxDomainCreateA("alpha"), a);
    mstxDomainDestroy(a);
    mstxDomainHandle_t again = mstxDomainCreateA("alpha");
    ASSERT_NE(again, nullptr);
    EXPECT_NE(again, a);  // the old handle stays destroyed
    mstxDomainDestroy(again);
    mstxDomainDestroy(b);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST(MstxDomains, NamesHaveOnlyDigitsLettersAndUnderscoresUpTo1023Bytes) {
    EXPECT_EQ(mstxDomainCreateA("data-loader"), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("'-' at byte 4");
    EXPECT_EQ(mstxDomainCreateA(""), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("1 to 1023 bytes");
    EXPECT_EQ(mstxDomainCreateA(std::string(1024, 'a').c_str()), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("1 to 1023 bytes");
    mstxDomainHandle_t longest = mstxDomainCreateA(std::string(1023, 'a').c_str());
    EXPECT_NE(longest, nullptr);
    mstxDomainDestroy(longest);
}

TEST_F(Mstx, ADestroyedDomainRecordsNothingAndIsNotAnError) {
    Start();
    mstxDomainHandle_t domain = mstxDomainCreateA("gone");
    mstxDomainDestroy(domain);
    mstxDomainMarkA(domain, "late mark", nullptr);
    EXPECT_EQ(mstxDomainRangeStartA(domain, "late range", nullptr), 0u);
    mstxDomainRangeEnd(domain, 1);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);  // documented as a warning
    const auto events = Stop("user,gone");
    EXPECT_TRUE(events.empty());
}

class MstxWarnings : public LogToStdoutTest {};

TEST_F(MstxWarnings, ADestroyedDomainIsNamedInAWarning) {
    mstxDomainHandle_t domain = mstxDomainCreateA("retired");
    mstxDomainDestroy(domain);
    const std::string log = Capture([&] { mstxDomainMarkA(domain, "m", nullptr); });
    EXPECT_NE(log.find("[WARNING]"), std::string::npos) << log;
    EXPECT_NE(log.find("mstx domain \"retired\""), std::string::npos) << log;
}

TEST_F(Mstx, DestroyingADomainDropsTheRangesStillOpenInIt) {
    Start();
    mstxDomainHandle_t domain = mstxDomainCreateA("short_lived");
    const mstxRangeId id = mstxDomainRangeStartA(domain, "open", nullptr);
    ASSERT_NE(id, 0u);
    mstxDomainDestroy(domain);
    mstxDomainHandle_t again = mstxDomainCreateA("short_lived");
    mstxDomainRangeEnd(again, id);
    EXPECT_THAT_MESSAGE_CONTAINS("is not open");
    mstxDomainDestroy(again);
    Stop();
}

TEST_F(Mstx, MessagesAreAtMost156Bytes) {
    Start();
    const std::string longest(156, 'x');
    const std::string too_long(157, 'y');
    mstxMarkA(longest.c_str(), nullptr);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    mstxMarkA(too_long.c_str(), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("longer than 156 bytes");
    EXPECT_EQ(mstxRangeStartA(too_long.c_str(), nullptr), 0u);
    const auto events = Stop();
    EXPECT_NE(FindEvent(events, longest, "i"), nullptr);
    EXPECT_EQ(events.size(), 1u);
}

TEST_F(Mstx, WithoutMsproftxNothingIsCollected) {
    Start(ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
    uint64_t tool = 1;
    mstxGetToolId(&tool);
    EXPECT_EQ(tool, static_cast<uint64_t>(MSTX_TOOL_INVALID_ID));
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    mstxMarkA("invisible", stream);
    EXPECT_EQ(mstxRangeStartA("invisible", stream), 0u);
    mstxRangeEnd(0);  // what a program does with the id it got
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    for (const json& e : StopAndRead()) {
        const std::string name = e.value("name", "");
        EXPECT_EQ(name.find("invisible"), std::string::npos) << e.dump();
    }
}

TEST_F(Mstx, ToolIdIsMsprofWhileATraceCollectsTheAnnotations) {
    uint64_t tool = 1;
    mstxGetToolId(&tool);
    EXPECT_EQ(tool, static_cast<uint64_t>(MSTX_TOOL_INVALID_ID));
    Start();
    mstxGetToolId(&tool);
    EXPECT_EQ(tool, static_cast<uint64_t>(MSTX_TOOL_MSPROF_ID));
    Stop();
    mstxGetToolId(&tool);
    EXPECT_EQ(tool, static_cast<uint64_t>(MSTX_TOOL_INVALID_ID));
}

TEST(MstxOutsideATrace, CallsCheckTheirArgumentsAndRecordNothing) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    mstxMarkA("nobody collects this", nullptr);
    EXPECT_EQ(mstxRangeStartA("nor this", nullptr), 0u);
    mstxRangeEnd(0);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    mstxMarkA(nullptr, nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("message is null");
    aclrtResetDeviceForce(0);
}

TEST_F(Mstx, MsproftxRangesAndMstxDomainRangesAreToldApart) {
    Start();
    mstxDomainHandle_t domain = mstxDomainCreateA("mixed");
    const mstxRangeId id = mstxDomainRangeStartA(domain, "mstx range", nullptr);
    ASSERT_NE(id, 0u);
    EXPECT_EQ(aclprofRangeStop(static_cast<uint32_t>(id)), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("mstxDomainRangeEnd");
    mstxDomainRangeEnd(domain, id);
    mstxDomainDestroy(domain);
    Stop();
}

TEST(MstxUnderOpenaclTrace, AnnotationsAreCollectedWithoutTheProfilingApi) {
    TempDir dir;
    const std::string path = dir.File("trace.json");
    ScopedEnv env("OPENACL_TRACE", path.c_str());
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    uint64_t tool = 0;
    mstxGetToolId(&tool);
    EXPECT_EQ(tool, static_cast<uint64_t>(MSTX_TOOL_MSPROF_ID));
    mstxMarkA("traced", nullptr);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    std::ifstream in(path);
    ASSERT_TRUE(in.good());
    const auto events = json::parse(in)["traceEvents"].get<std::vector<json>>();
    const json* mark = FindEvent(events, "traced", "i");
    ASSERT_NE(mark, nullptr);
    EXPECT_EQ((*mark)["cat"], "user");
}

}  // namespace
