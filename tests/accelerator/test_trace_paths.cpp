// The timeline on an accelerator device: device work is timed by the lane's markers and shows
// on its stream's track like the CPU backend's tasks.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "fake_accelerator.h"
#include "temp_dir.h"

namespace openacl::testing {
namespace {

using json = nlohmann::json;

void Nothing(void*) {}

TEST(TracePaths, DeviceWorkIsOnItsStreamsTrackInStreamOrder) {
    TempDir dir("openacl-trace");
    ASSERT_FALSE(dir.path().empty());
    const std::string path = dir.File("trace.json");
    setenv("OPENACL_BACKEND", "cuda", 1);
    setenv("OPENACL_TRACE", path.c_str(), 1);
    InstallFakeAccelerators(1);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    constexpr size_t kBytes = size_t{1} << 20;
    void* host = nullptr;
    void* device = nullptr;
    ASSERT_EQ(aclrtMallocHost(&host, kBytes), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(device, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(device, kBytes, 0, kBytes, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, &Nothing, nullptr), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    aclrtStream other = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(other, event), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
    ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);

    std::ifstream file(path);
    ASSERT_TRUE(file.good()) << "no trace at " << path;
    const json trace = json::parse(file);
    std::map<std::string, std::vector<json>> slices;
    for (const json& e : trace["traceEvents"]) {
        if (e["ph"] == "X") slices[e["name"].get<std::string>()].push_back(e);
    }
    for (const char* name :
         {"memcpy H2D 1 MiB", "memset 1 MiB", "host func", "event record", "event wait"}) {
        ASSERT_EQ(slices[name].size(), 1u) << name;
    }
    EXPECT_EQ(slices["event record"][0]["tid"], slices["host func"][0]["tid"]);
    EXPECT_NE(slices["event wait"][0]["tid"], slices["host func"][0]["tid"]);
    const json& copy = slices["memcpy H2D 1 MiB"][0];
    const json& fill = slices["memset 1 MiB"][0];
    const json& func = slices["host func"][0];
    EXPECT_EQ(copy["tid"], fill["tid"]);
    EXPECT_EQ(fill["tid"], func["tid"]);
    EXPECT_EQ(copy["args"]["api"], "aclrtMemcpyAsync");
    EXPECT_LE(copy["ts"].get<double>() + copy["dur"].get<double>(),
              fill["ts"].get<double>() + 1e-3);
    EXPECT_LE(fill["ts"].get<double>() + fill["dur"].get<double>(),
              func["ts"].get<double>() + 1e-3);
}

}  // namespace
}  // namespace openacl::testing
