// Strict checks and the timeline on the CUDA backend: a leak report names the aclrtMalloc still
// alive at aclrtResetDevice, and OPENACL_TRACE writes the stream's tasks as a Chrome trace.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "acl/acl.h"
#include "cuda_probe.h"
#include "gpu_kernels.h"
#include "gpu_test_support.h"
#include "temp_dir.h"

using namespace gpu_test;
using nlohmann::json;

namespace {

// OPENACL_CHECK=1 is read at aclInit, so it is set before SetUp (a member made first).
class GpuStrictChecks : public GpuTest {
    ScopedEnv check_{"OPENACL_CHECK", "1"};
};

// Not inlined, so the report names this function's line (the tests build with -g).
[[gnu::noinline]] void LeakOneAllocation() {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << RecentMessage();
}

TEST_F(GpuStrictChecks, ResetDeviceReportsALeakedMallocWithItsSite) {
    LeakOneAllocation();
    ACL_ASSERT(aclrtDestroyStream(stream_));
    stream_ = nullptr;
    testing::internal::CaptureStderr();
    ACL_EXPECT(aclrtResetDevice(0));
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("leak report at aclrtResetDevice(0)"), std::string::npos) << err;
    EXPECT_NE(err.find("1 device allocation(s) by aclrtMalloc on device 0"), std::string::npos)
        << err;
    EXPECT_NE(err.find("test_checks.cpp:"), std::string::npos) << "no allocation site: " << err;
}

// The same through aclInit's configuration file, which also selects the backend.
class GpuStrictChecksFromConfig : public GpuTest {
 protected:
    GpuStrictChecksFromConfig() : path_(dir_.File("config.json")) {
        std::ofstream(path_) << R"({"openacl": {"backend": "cuda", "check": true}})";
    }
    const char* ConfigPath() override { return path_.c_str(); }
    bool BackendFromConfig() override { return true; }

 private:
    TempDir dir_{"openacl-gpu-config"};
    std::string path_;
    ScopedEnv no_backend_{"OPENACL_BACKEND", nullptr};
    ScopedEnv no_check_{"OPENACL_CHECK", nullptr};
};

TEST_F(GpuStrictChecksFromConfig, ConfigSelectsCudaAndResetReportsALeak) {
    void* p = nullptr;
    ACL_ASSERT(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_EQ(cuda_probe::PointerKind(p), "device") << "the configuration did not select CUDA";
    ACL_ASSERT(aclrtDestroyStream(stream_));
    stream_ = nullptr;
    testing::internal::CaptureStderr();
    ACL_EXPECT(aclrtResetDevice(0));
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("1 device allocation(s) by aclrtMalloc on device 0"), std::string::npos)
        << err;
}

// OPENACL_TRACE names the file written at aclFinalize.
class GpuTrace : public GpuKernelTest {
 protected:
    GpuTrace() : path_(dir_.File("trace.json")), trace_("OPENACL_TRACE", path_.c_str()) {}

 private:
    TempDir dir_{"openacl-gpu-trace"};  // first: the path lies in it

 protected:
    std::string path_;

 private:
    ScopedEnv trace_;
};

void AddOne(void* counter) {
    ++*static_cast<int*>(counter);
}

// Copies, a fill, a kernel and a host function on one stream; frees what it allocates.
void RunOneStreamWorkload(aclrtStream stream, const std::function<aclError()>& spin) {
    constexpr size_t kBytes = 1 << 20;
    DeviceBuffer a(kBytes), b(kBytes);
    PinnedBuffer host(kBytes);
    int calls = 0;
    ACL_ASSERT(
        aclrtMemcpyAsync(a.get(), kBytes, host.get(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    ACL_ASSERT(aclrtMemsetAsync(b.get(), kBytes, 0, kBytes, stream));
    ACL_ASSERT(spin());
    ACL_ASSERT(
        aclrtMemcpyAsync(host.get(), kBytes, a.get(), kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    ACL_ASSERT(aclrtLaunchHostFunc(stream, AddOne, &calls));
    ACL_ASSERT(aclrtSynchronizeStream(stream));
    EXPECT_EQ(calls, 1);
}

TEST_F(GpuTrace, TraceHoldsTheStreamsTasks) {
    RunOneStreamWorkload(stream_, [&] { return Spin(1'000'000, stream_); });
    ReleaseKernels();
    Finalize();  // writes the trace

    std::ifstream in(path_);
    ASSERT_TRUE(in.good()) << "no trace at " << path_;
    const json trace = json::parse(in, nullptr, false);
    ASSERT_FALSE(trace.is_discarded()) << "the trace is not valid JSON";
    ASSERT_TRUE(trace.contains("traceEvents"));
    std::map<std::string, int> tasks;
    std::map<std::string, int> tids;
    for (const json& e : trace["traceEvents"]) {
        if (e.value("ph", "") == "X" && e.value("cat", "") == "task") {
            const std::string name = e.value("name", "");
            ++tasks[name];
            tids[name] = e.value("tid", -1);
        }
    }
    for (const char* name :
         {"memcpy H2D 1 MiB", "memset 1 MiB", "spin_ns x1", "memcpy D2H 1 MiB", "host func"}) {
        EXPECT_EQ(tasks[name], 1) << "task \"" << name << "\" in the trace " << tasks[name]
                                  << " times";
    }
    // One stream: one track.
    EXPECT_EQ(tids["memcpy H2D 1 MiB"], tids["host func"]);
    EXPECT_EQ(tids["memcpy H2D 1 MiB"], tids["spin_ns x1"]);
}

}  // namespace
