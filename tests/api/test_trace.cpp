// Tracing: OPENACL_TRACE, the aclInit "trace" key and the aclprof* lifecycle write a Chrome
// trace (checked here for its structure, not its timing) and a text summary.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "onnx_builder.h"
#include "temp_dir.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr size_t kBytes = 1 << 20;

json ReadJson(const std::string& path) {
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << "no trace at " << path;
    return json::parse(in);
}

std::string ReadText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void AddOne(void* counter) {
    ++*static_cast<int*>(counter);
}

// Two streams: s1 copies in, records an event and fills other memory; s2 waits for the event,
// copies device to device and back, and runs a host function.
void RunTwoStreamWorkload(int* host_func_calls) {
    aclrtStream s1 = nullptr, s2 = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
    void *a = nullptr, *b = nullptr, *c = nullptr, *host = nullptr;
    ASSERT_EQ(aclrtMalloc(&a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&c, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMallocHost(&host, kBytes), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);

    ASSERT_EQ(aclrtMemcpyAsync(a, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, s1),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, s1), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(s2, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(b, kBytes, a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s2), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(host, kBytes, b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s2),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(s2, AddOne, host_func_calls), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(c, kBytes, 0, kBytes, s1), ACL_SUCCESS);  // s2 still reads a
    ASSERT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS);

    ASSERT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(a), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(b), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(c), ACL_SUCCESS);
    ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(s1), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
}

struct Track {
    int pid;
    int tid;
    bool operator<(const Track& o) const { return pid != o.pid ? pid < o.pid : tid < o.tid; }
};

// Checks the structure every trace must have and returns the task slices by name.
std::map<std::string, std::vector<json>> CheckTrace(const json& trace, bool may_drop = false) {
    std::map<std::string, std::vector<json>> tasks;
    EXPECT_TRUE(trace.contains("traceEvents"));
    if (!may_drop) {
        EXPECT_EQ(trace["otherData"]["dropped_records"], 0);
    }
    const json& events = trace["traceEvents"];

    std::map<int, std::string> processes;
    std::map<Track, std::string> threads;
    for (const json& e : events) {
        if (e["ph"] != "M") continue;
        if (e["name"] == "process_name") processes[e["pid"]] = e["args"]["name"];
        if (e["name"] == "thread_name") threads[{e["pid"], e["tid"]}] = e["args"]["name"];
    }
    int device_pid = -1, host_pid = -1;
    for (const auto& [pid, name] : processes) {
        if (name == "device 0") device_pid = pid;
        if (name.rfind("host (pid ", 0) == 0) host_pid = pid;
    }
    if (!may_drop) {
        EXPECT_NE(device_pid, -1) << "no \"device 0\" process";
    }
    EXPECT_NE(host_pid, -1) << "no host process";

    double last_ts = -1;
    std::map<Track, std::vector<std::pair<double, double>>> slices;  // per track: ts, end
    std::map<uint64_t, int> flow_starts, flow_ends;
    for (const json& e : events) {
        const std::string ph = e["ph"];
        if (ph == "M") continue;
        const double ts = e["ts"];
        EXPECT_GE(ts, 0);
        EXPECT_GE(ts, last_ts) << "events are not in time order: " << e.dump();
        last_ts = ts;
        const Track track{e["pid"], e["tid"]};
        if (ph == "X") {
            const double dur = e["dur"];
            EXPECT_GE(dur, 0) << e.dump();
            slices[track].push_back({ts, ts + dur});
            if (e["cat"] == "task") {
                EXPECT_EQ(track.pid, device_pid) << e.dump();
                EXPECT_TRUE(threads.count(track)) << "task on an unnamed track: " << e.dump();
                EXPECT_EQ(threads[track].rfind("stream ", 0), 0u) << threads[track];
                EXPECT_NE(threads[track].find("context 0x"), std::string::npos) << threads[track];
                tasks[e["name"]].push_back(e);
            } else if (e["cat"] == "layer") {
                // A model's layer: inside its task on a stream's track, or on the host thread
                // that ran a synchronous aclmdlExecute.
                EXPECT_TRUE(threads.count(track)) << "layer on an unnamed track: " << e.dump();
                tasks["layer"].push_back(e);
            } else {
                EXPECT_EQ(track.pid, host_pid) << e.dump();
                EXPECT_TRUE(threads.count(track)) << "host slice on an unnamed track";
            }
        } else if (ph == "s") {
            ++flow_starts[e["id"]];
        } else if (ph == "f") {
            EXPECT_EQ(e["bp"], "e");
            ++flow_ends[e["id"]];
        } else {
            EXPECT_EQ(ph, "i") << "unexpected event type: " << e.dump();
        }
    }
    // Every flow has exactly one start and one end.
    EXPECT_EQ(flow_starts.size(), flow_ends.size());
    for (const auto& [id, count] : flow_starts) {
        EXPECT_EQ(count, 1) << "flow " << id;
        EXPECT_EQ(flow_ends[id], 1) << "flow " << id << " never ends";
    }
    // On each track, slices nest or follow each other; none is left open or straddles another.
    constexpr double kEps = 0.0015;  // timestamps are printed to the nanosecond
    for (auto& [track, list] : slices) {
        std::sort(list.begin(), list.end(), [](const auto& x, const auto& y) {
            return x.first != y.first ? x.first < y.first : x.second > y.second;
        });
        std::vector<double> open;  // ends of the enclosing slices
        for (const auto& [begin, end] : list) {
            while (!open.empty() && open.back() <= begin + kEps)
                open.pop_back();
            if (!open.empty()) {
                EXPECT_LE(end, open.back() + kEps)
                    << "slice [" << begin << ", " << end << "] straddles its parent on pid "
                    << track.pid << " tid " << track.tid;
            }
            open.push_back(end);
        }
    }
    return tasks;
}

int CountEvents(const json& trace, const std::string& ph, const std::string& name_prefix) {
    int count = 0;
    for (const json& e : trace["traceEvents"]) {
        if (e["ph"] == ph && e["name"].get<std::string>().rfind(name_prefix, 0) == 0) ++count;
    }
    return count;
}

TEST(Trace, EnvironmentVariableWritesTheTimelineAtFinalize) {
    TempDir dir;
    const std::string path = dir.path() + "/trace.json";
    ScopedEnv env("OPENACL_TRACE", path.c_str());
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int calls = 0;
    RunTwoStreamWorkload(&calls);
    EXPECT_EQ(calls, 1);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);

    const json trace = ReadJson(path);
    auto tasks = CheckTrace(trace);
    for (const char* name : {"memcpy H2D 1 MiB", "memcpy D2D 1 MiB", "memcpy D2H 1 MiB",
                             "memset 1 MiB", "host func", "event record", "event wait"}) {
        ASSERT_EQ(tasks[name].size(), 1u) << name;
    }
    const json& h2d = tasks["memcpy H2D 1 MiB"][0];
    EXPECT_EQ(h2d["args"]["bytes"], kBytes);
    EXPECT_EQ(h2d["args"]["api"], "aclrtMemcpyAsync");
    EXPECT_EQ(h2d["args"]["status"], "done");
    // The streams are two tracks; stream order is kept on each.
    EXPECT_EQ(h2d["tid"], tasks["event record"][0]["tid"]);
    EXPECT_EQ(h2d["tid"], tasks["memset 1 MiB"][0]["tid"]);
    EXPECT_NE(h2d["tid"], tasks["event wait"][0]["tid"]);
    EXPECT_EQ(tasks["event wait"][0]["tid"], tasks["host func"][0]["tid"]);
    // The wait ends once the record has run; the copy behind it starts after that.
    const json& record = tasks["event record"][0];
    const json& wait = tasks["event wait"][0];
    const double record_end = record["ts"].get<double>() + record["dur"].get<double>();
    EXPECT_GE(wait["ts"].get<double>() + wait["dur"].get<double>(), record_end);
    EXPECT_GE(tasks["memcpy D2D 1 MiB"][0]["ts"].get<double>(), record_end);
    EXPECT_EQ(record["args"]["event"], wait["args"]["event"]);

    // Arrows: one from each enqueue to its task (7), one from the record to the wait.
    EXPECT_EQ(CountEvents(trace, "s", "enqueue"), 7);
    EXPECT_EQ(CountEvents(trace, "s", "event "), 1);
    EXPECT_EQ(CountEvents(trace, "i", "event "), 2);  // recorded, wait satisfied
    // Host side: the API calls and the enqueues inside them.
    EXPECT_EQ(CountEvents(trace, "X", "aclrtMemcpyAsync"), 3);
    EXPECT_EQ(CountEvents(trace, "X", "aclrtSynchronizeStream"), 2);
    EXPECT_EQ(CountEvents(trace, "X", "enqueue memcpy"), 3);

    const std::string summary = ReadText(dir.path() + "/trace.txt");
    EXPECT_NE(summary.find("7 tasks on 2 streams"), std::string::npos) << summary;
    EXPECT_NE(summary.find("busy"), std::string::npos) << summary;
    EXPECT_NE(summary.find("top tasks by total time"), std::string::npos) << summary;
    EXPECT_NE(summary.find("memcpy H2D 1 MiB"), std::string::npos) << summary;
    EXPECT_NE(summary.find("streams overlapped for"), std::string::npos) << summary;
}

// A pageable asynchronous copy is done before its call returns (CANN 8.5+), but it is still
// the stream's work: the timeline shows it on the stream's track, in order, marked so.
TEST(Trace, APageableAsyncCopyIsOnItsStreamsTrackMarkedDoneInTheCall) {
    TempDir dir;
    const std::string path = dir.path() + "/trace.json";
    ScopedEnv env("OPENACL_TRACE", path.c_str());
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<unsigned char> pageable(kBytes, 7), back(kBytes, 0);
    ASSERT_EQ(aclrtMemsetAsync(dev, kBytes, 0, kBytes, stream), ACL_SUCCESS);
    ASSERT_EQ(
        aclrtMemcpyAsync(dev, kBytes, pageable.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(back.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    EXPECT_EQ(back, pageable) << "both copies were done when their calls returned";
    ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);

    auto tasks = CheckTrace(ReadJson(path));
    const auto& fill = tasks["memset 1 MiB"];
    const auto& h2d = tasks["memcpy H2D 1 MiB (pageable, done in the call)"];
    const auto& d2h = tasks["memcpy D2H 1 MiB (pageable, done in the call)"];
    ASSERT_EQ(fill.size(), 1u);
    ASSERT_EQ(h2d.size(), 1u);
    ASSERT_EQ(d2h.size(), 1u);
    EXPECT_EQ(h2d[0]["args"]["done_in_call"], true);
    EXPECT_EQ(h2d[0]["args"]["api"], "aclrtMemcpyAsync");
    EXPECT_EQ(h2d[0]["tid"], fill[0]["tid"]) << "on the stream's own track";
    EXPECT_EQ(d2h[0]["tid"], fill[0]["tid"]);
    EXPECT_GE(h2d[0]["ts"].get<double>(),
              fill[0]["ts"].get<double>() + fill[0]["dur"].get<double>())
        << "after the work queued before it";
}

void Sleep20Ms(void*) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

// Slices are stamped with the CPU's time-stamp counter and converted when the trace is
// written: what they show must still be microseconds of real time.
TEST(Trace, SlicesMeasureRealTime) {
    TempDir dir;
    const std::string path = dir.path() + "/time.json";
    ScopedEnv env("OPENACL_TRACE", path.c_str());
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    const auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(aclrtLaunchHostFunc(stream, Sleep20Ms, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const double elapsed_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);

    const json trace = ReadJson(path);
    auto tasks = CheckTrace(trace);
    ASSERT_EQ(tasks["host func"].size(), 1u);
    const double task_us = tasks["host func"][0]["dur"];
    EXPECT_GE(task_us, 20000.0);
    EXPECT_LE(task_us, elapsed_us);
    int syncs = 0;
    for (const json& e : trace["traceEvents"]) {
        if (e["ph"] != "X" || e["name"] != "aclrtSynchronizeStream") continue;
        ++syncs;
        // The host waited for the task: its call ends after the task does.
        const double sync_end = e["ts"].get<double>() + e["dur"].get<double>();
        EXPECT_GE(sync_end, tasks["host func"][0]["ts"].get<double>() + task_us);
        EXPECT_LE(e["dur"].get<double>(), elapsed_us);
    }
    EXPECT_EQ(syncs, 1);
}

TEST(Trace, AclInitKeyTurnsTracingOn) {
    TempDir dir;
    const std::string path = dir.path() + "/from-config.json";
    TempFile config("{\"openacl\": {\"trace\": \"" + path + "\"}}");
    ASSERT_EQ(aclInit(config.path()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int calls = 0;
    ASSERT_EQ(aclrtLaunchHostFunc(nullptr, AddOne, &calls), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    auto tasks = CheckTrace(ReadJson(path));
    ASSERT_EQ(tasks["host func"].size(), 1u);
}

TEST(Trace, AnUnwritableDestinationIsReportedWhenTracingStarts) {
    TempDir dir;
    const std::string path = dir.path() + "/no-such-folder/trace.json";
    ScopedEnv env("OPENACL_TRACE", path.c_str());
    testing::internal::CaptureStderr();
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);  // the program runs on, untraced
    const std::string at_init = testing::internal::GetCapturedStderr();
    EXPECT_NE(at_init.find("no trace will be written: cannot write " + path +
                           ": No such file or directory"),
              std::string::npos)
        << at_init;
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int calls = 0;
    ASSERT_EQ(aclrtLaunchHostFunc(nullptr, AddOne, &calls), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    testing::internal::CaptureStderr();
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");  // said once, at the start
    EXPECT_EQ(access(path.c_str(), F_OK), -1);
}

TEST(Trace, BlockingCallbackSpansUntilTheReportThreadRanIt) {
    TempDir dir;
    const std::string path = dir.path() + "/callback.json";
    ScopedEnv env("OPENACL_TRACE", path.c_str());
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    std::atomic<bool> stop{false};
    std::thread reporter([&] {
        aclrtSetCurrentContext(context);
        while (!stop.load()) {
            if (aclrtProcessReport(10) == ACL_ERROR_RT_THREAD_SUBSCRIBE) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        }
    });
    const auto tid = static_cast<uint64_t>(reporter.native_handle());
    ASSERT_EQ(aclrtSubscribeReport(tid, stream), ACL_SUCCESS);
    int calls = 0;
    ASSERT_EQ(aclrtLaunchCallback(AddOne, &calls, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(calls, 1);
    ASSERT_EQ(aclrtUnSubscribeReport(tid, stream), ACL_SUCCESS);
    stop = true;
    reporter.join();
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    auto tasks = CheckTrace(ReadJson(path));
    ASSERT_EQ(tasks["callback (blocking)"].size(), 1u);
    EXPECT_EQ(tasks["callback (blocking)"][0]["args"]["blocking"], true);
}

TEST(Trace, ProcessExitWritesTheTraceOfAProgramThatNeverFinalizes) {
    TempDir dir;
    const std::string path = dir.path() + "/exit.json";
    // In a child, so that exit() runs the runtime's exit handler while this test watches.
    const pid_t child = fork();
    ASSERT_NE(child, -1);
    if (child == 0) {
        setenv("OPENACL_TRACE", path.c_str(), 1);
        int calls = 0;
        if (aclrtSetDevice(0) != ACL_SUCCESS) _exit(2);
        if (aclrtLaunchHostFunc(nullptr, AddOne, &calls) != ACL_SUCCESS) _exit(3);
        if (aclrtSynchronizeStream(nullptr) != ACL_SUCCESS) _exit(4);
        std::exit(0);  // no aclrtResetDevice, no aclFinalize
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    auto tasks = CheckTrace(ReadJson(path));
    EXPECT_EQ(tasks["host func"].size(), 1u);
}

TEST(Trace, AFullBufferDropsRecordsAndCountsThem) {
    TempDir dir;
    const std::string path = dir.path() + "/full.json";
    ScopedEnv env("OPENACL_TRACE", path.c_str());
    ScopedEnv size("OPENACL_TRACE_BUFFER_MB", "1");  // a few thousand records
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int calls = 0;
    constexpr int kTasks = 20000;
    for (int i = 0; i < kTasks; ++i)
        ASSERT_EQ(aclrtLaunchHostFunc(nullptr, AddOne, &calls), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(calls, kTasks);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    const json trace = ReadJson(path);
    auto tasks = CheckTrace(trace, true);
    EXPECT_GT(trace["otherData"]["dropped_records"].get<uint64_t>(), 0u);
    // Which records were kept depends on which thread filled the pool first.
    EXPECT_LT(tasks["host func"].size(), static_cast<size_t>(kTasks));
    EXPECT_EQ(ReadText(dir.path() + "/full.txt").find(" 0 records dropped"), std::string::npos);
}

// The resident and total size, in KiB, of the anonymous mapping whose size is within
// [min_kib, max_kib] (the trace pool, given a buffer size nothing else uses); -1 if none.
std::pair<long, long> MappingResidentKib(long min_kib, long max_kib) {
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool in_pool = false;
    long size = 0;
    while (std::getline(smaps, line)) {
        long value = 0;
        if (std::sscanf(line.c_str(), "Size: %ld kB", &value) == 1) {
            in_pool = value >= min_kib && value <= max_kib;
            size = value;
        } else if (in_pool && std::sscanf(line.c_str(), "Rss: %ld kB", &value) == 1) {
            return {value, size};
        }
    }
    return {-1, -1};
}

// Records land on memory already faulted in (a fresh page costs the writer, whose time the
// program is measuring, a fault and the clearing of the page), yet a session does not make its
// whole buffer resident up front.
TEST(Trace, TheBufferIsFaultedInAheadOfTheWritersNotAllAtOnce) {
    TempDir dir;
    const std::string path = dir.path() + "/ahead.json";
    ScopedEnv env("OPENACL_TRACE", path.c_str());
    ScopedEnv size("OPENACL_TRACE_BUFFER_MB", "203");  // a size nothing else maps
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    constexpr long kMinKib = 202 << 10, kMaxKib = 203 << 10;
    auto resident_kib = [&] { return MappingResidentKib(kMinKib, kMaxKib).first; };
    auto wait_for_resident = [&](long kib) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (resident_kib() < kib && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return resident_kib();
    };
    ASSERT_GT(MappingResidentKib(kMinKib, kMaxKib).second, 0) << "no trace pool found";
    // Before any record: a window of 16 – 32 MiB ahead is resident, not the 203 MiB.
    EXPECT_GE(wait_for_resident(16 << 10), 16 << 10);
    EXPECT_LE(resident_kib(), 32 << 10);
    // About 17 MiB of records (two per task: its enqueue and its run): the window moves on,
    // past what was resident before any record.
    int calls = 0;
    constexpr int kTasks = 100000;
    for (int i = 0; i < kTasks; ++i)
        ASSERT_EQ(aclrtLaunchHostFunc(nullptr, AddOne, &calls), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(calls, kTasks);
    EXPECT_GE(wait_for_resident(36 << 10), 36 << 10);
    EXPECT_LE(resident_kib(), 64 << 10);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    // The trace's contents are checked by the tests above; parsing tens of megabytes of JSON
    // here took most of this test's time (two minutes under ThreadSanitizer).
    EXPECT_GT(std::filesystem::file_size(path), static_cast<uintmax_t>(kTasks) * 100);
}

TEST(Trace, NothingIsWrittenWhenTracingIsOff) {
    TempDir dir;
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclprofInit(dir.path().c_str(), dir.path().size()), ACL_SUCCESS);
    int calls = 0;
    RunTwoStreamWorkload(&calls);
    ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);  // initialised, never started
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    EXPECT_TRUE(dir.Files().empty());
}

class Prof : public InitializedDeviceTest {
 protected:
    TempDir dir_;
};

TEST_F(Prof, StartAndStopWriteATraceIntoTheResultDirectory) {
    ASSERT_EQ(aclprofInit(dir_.path().c_str(), dir_.path().size()), ACL_SUCCESS);
    uint32_t devices[] = {0};
    aclprofConfig* config = aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr,
                                                ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
    ASSERT_NE(config, nullptr);
    ASSERT_EQ(aclprofStart(config), ACL_SUCCESS);
    int calls = 0;
    RunTwoStreamWorkload(&calls);
    ASSERT_EQ(aclprofStop(config), ACL_SUCCESS);
    const std::string path = dir_.path() + "/openacl_trace_" + std::to_string(getpid()) + ".json";
    auto tasks = CheckTrace(ReadJson(path));
    EXPECT_EQ(tasks["memcpy D2H 1 MiB"].size(), 1u);
    EXPECT_TRUE(fs::exists(dir_.path() + "/openacl_trace_" + std::to_string(getpid()) + ".txt"));

    // Work after the stop is not recorded; a second session gets a file of its own.
    ASSERT_EQ(aclrtLaunchHostFunc(nullptr, AddOne, &calls), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(CheckTrace(ReadJson(path))["host func"].size(), 1u);
    ASSERT_EQ(aclprofStart(config), ACL_SUCCESS);
    ASSERT_EQ(aclprofStop(config), ACL_SUCCESS);
    EXPECT_TRUE(fs::exists(dir_.path() + "/openacl_trace_" + std::to_string(getpid()) + "_2.json"));
    ASSERT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
    ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
}

// aclprofStop keeps the session's buffer for the next aclprofStart, whose records then land on
// pages written before (a page's first write is most of tracing's cost on a VM); a second
// session's trace holds its own tasks only; aclprofFinalize releases the buffer.
TEST_F(Prof, ASecondSessionRecordsIntoTheFirstsBufferUntilFinalize) {
    ScopedEnv size("OPENACL_TRACE_BUFFER_MB", "207");  // a size nothing else maps
    constexpr long kMinKib = 206 << 10, kMaxKib = 207 << 10;
    ASSERT_EQ(aclprofInit(dir_.path().c_str(), dir_.path().size()), ACL_SUCCESS);
    uint32_t devices[] = {0};
    aclprofConfig* config = aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr,
                                                ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
    ASSERT_NE(config, nullptr);
    auto session = [&](int tasks) {
        int calls = 0;
        EXPECT_EQ(aclprofStart(config), ACL_SUCCESS);
        for (int i = 0; i < tasks; ++i)
            EXPECT_EQ(aclrtLaunchHostFunc(nullptr, AddOne, &calls), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
        EXPECT_EQ(aclprofStop(config), ACL_SUCCESS);
        EXPECT_EQ(calls, tasks);
    };
    session(20000);  // several chunks per thread
    const auto [kept_kib, kept_size] = MappingResidentKib(kMinKib, kMaxKib);
    EXPECT_GT(kept_size, 0) << "the buffer was released at aclprofStop";
    EXPECT_GT(kept_kib, 0);
    session(300);
    EXPECT_EQ(MappingResidentKib(kMinKib, kMaxKib).second, kept_size);
    const std::string base = dir_.path() + "/openacl_trace_" + std::to_string(getpid());
    EXPECT_EQ(CheckTrace(ReadJson(base + ".json"))["host func"].size(), 20000u);
    EXPECT_EQ(CheckTrace(ReadJson(base + "_2.json"))["host func"].size(), 300u);
    ASSERT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
    ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
    EXPECT_EQ(MappingResidentKib(kMinKib, kMaxKib).second, -1) << "aclprofFinalize kept it";
}

// The end of an "X" slice, and whether `inner` lies within `outer` (timestamps are printed to
// the nanosecond, in microseconds).
double End(const json& e) {
    return e["ts"].get<double>() + e["dur"].get<double>();
}
bool Within(const json& inner, const json& outer) {
    return inner["pid"] == outer["pid"] && inner["tid"] == outer["tid"] &&
           inner["ts"].get<double>() >= outer["ts"].get<double>() - 0.0015 &&
           End(inner) <= End(outer) + 0.0015;
}

TEST_F(Prof, ModelLayersAreSlicesInsideTheirModelsRun) {
    const std::string bytes = test_onnx::Builder()
                                  .Input("x", {1, 64})
                                  .Output("y", {1, 64})
                                  .Node("Relu", {"x"}, {"h"})
                                  .Node("Sigmoid", {"h"}, {"y"})
                                  .Bytes();
    uint32_t id = 0;
    ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    void *x = nullptr, *y = nullptr;
    ASSERT_EQ(aclrtMalloc(&x, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&y, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclmdlDataset* in = aclmdlCreateDataset();
    aclmdlDataset* out = aclmdlCreateDataset();
    ASSERT_EQ(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(x, 256)), ACL_SUCCESS);
    ASSERT_EQ(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(y, 256)), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);

    ASSERT_EQ(aclprofInit(dir_.path().c_str(), dir_.path().size()), ACL_SUCCESS);
    uint32_t devices[] = {0};
    aclprofConfig* config = aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr,
                                                ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
    ASSERT_EQ(aclprofStart(config), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(id, in, out, stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS);
    ASSERT_EQ(aclprofStop(config), ACL_SUCCESS);

    const json trace =
        ReadJson(dir_.path() + "/openacl_trace_" + std::to_string(getpid()) + ".json");
    auto slices = CheckTrace(trace);
    ASSERT_EQ(slices["model " + std::to_string(id)].size(), 1u) << "the asynchronous run";
    const json& task = slices["model " + std::to_string(id)][0];
    json api;  // the synchronous run's API slice
    for (const json& e : trace["traceEvents"]) {
        if (e["ph"] == "X" && e["name"] == "aclmdlExecute") api = e;
    }
    ASSERT_FALSE(api.is_null()) << "no aclmdlExecute slice";
    int in_task = 0, in_api = 0;
    for (const json& layer : slices["layer"]) {
        const std::string name = layer["name"];
        EXPECT_TRUE(name.rfind("eltwise ", 0) == 0 || name == "outputs") << name;
        if (Within(layer, task)) ++in_task;
        if (Within(layer, api)) ++in_api;
    }
    EXPECT_GE(in_task, 1) << "no layer slice inside the model's task on its stream";
    EXPECT_GE(in_api, 1) << "no layer slice inside aclmdlExecute on the calling thread";
    EXPECT_EQ(in_task + in_api, static_cast<int>(slices["layer"].size()));
    EXPECT_EQ(in_task, in_api) << "both runs show the same layers";

    ASSERT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
    ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    for (aclmdlDataset* set : {in, out}) {
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, 0));
        aclmdlDestroyDataset(set);
    }
    aclrtFree(x);
    aclrtFree(y);
    ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(Prof, LifecycleErrorsUseTheDocumentedCodes) {
    uint32_t devices[] = {0};
    aclprofConfig* config =
        aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME);
    ASSERT_NE(config, nullptr);
    // Before aclprofInit.
    EXPECT_EQ(aclprofStart(config), ACL_ERROR_PROF_NOT_RUN);
    EXPECT_THAT_MESSAGE_CONTAINS("aclprofInit");
    EXPECT_EQ(aclprofStop(config), ACL_ERROR_PROF_NOT_RUN);
    EXPECT_EQ(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN);
    // Bad paths.
    EXPECT_EQ(aclprofInit(nullptr, 4), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclprofInit(dir_.path().c_str(), 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclprofInit(dir_.path().c_str(), 4097), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclprofInit("/proc/openacl-cannot-be-here", 28), ACL_ERROR_INVALID_PARAM);

    ASSERT_EQ(aclprofInit(dir_.path().c_str(), dir_.path().size()), ACL_SUCCESS);
    EXPECT_EQ(aclprofInit(dir_.path().c_str(), dir_.path().size()), ACL_ERROR_PROF_ALREADY_RUN);
    EXPECT_EQ(aclprofStop(config), ACL_ERROR_PROF_NOT_RUN);  // not started
    EXPECT_EQ(aclprofStart(nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclprofStart(config), ACL_SUCCESS);
    EXPECT_EQ(aclprofStart(config), ACL_ERROR_PROF_ALREADY_RUN);
    EXPECT_EQ(aclprofDestroyConfig(config), ACL_ERROR_INVALID_PARAM);  // in use
    aclprofConfig* other = aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE, nullptr, 0);
    ASSERT_NE(other, nullptr);
    EXPECT_EQ(aclprofStop(other), ACL_ERROR_INVALID_PARAM);  // not the started one
    EXPECT_EQ(aclprofStop(nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclprofStop(config), ACL_SUCCESS);
    ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);

    // Configurations.
    uint32_t bad[] = {7};
    EXPECT_EQ(aclprofCreateConfig(bad, 1, ACL_AICORE_NONE, nullptr, 0), nullptr);
    EXPECT_THAT_MESSAGE_CONTAINS("not a device");
    EXPECT_EQ(aclprofCreateConfig(nullptr, 1, ACL_AICORE_NONE, nullptr, 0), nullptr);
    EXPECT_EQ(aclprofCreateConfig(devices, 1, static_cast<aclprofAicoreMetrics>(42), nullptr, 0),
              nullptr);
    EXPECT_EQ(aclprofDestroyConfig(nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
    EXPECT_EQ(aclprofDestroyConfig(config), ACL_ERROR_INVALID_PARAM);  // twice
    ASSERT_EQ(aclprofDestroyConfig(other), ACL_SUCCESS);
}

TEST(ProfConflict, TheApiCannotStartWhileOpenaclTraceRecords) {
    TempDir dir;
    const std::string path = dir.path() + "/env.json";
    ScopedEnv env("OPENACL_TRACE", path.c_str());
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclprofInit(dir.path().c_str(), dir.path().size()), ACL_SUCCESS);
    aclprofConfig* config = aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE, nullptr, 0);
    ASSERT_NE(config, nullptr);
    EXPECT_EQ(aclprofStart(config), ACL_ERROR_PROF_API_CONFLICT);
    EXPECT_THAT_MESSAGE_CONTAINS("OPENACL_TRACE");
    ASSERT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
    ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    EXPECT_TRUE(fs::exists(path));
}

}  // namespace
