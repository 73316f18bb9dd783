// DVPP tasks are stream tasks like copies and kernels: a trace shows them on their stream's
// track, named after the API that queued them.
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "dvpp_test_support.h"
#include "temp_dir.h"

TEST(DvppTrace, TasksAppearOnTheirStreamNamedAfterTheApi) {
    TempDir dir("openacl-dvpp-trace");
    ASSERT_FALSE(dir.path().empty());
    const std::string path = dir.File("trace.json");  // the summary goes next to it
    setenv("OPENACL_TRACE", path.c_str(), 1);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    acldvppChannelDesc* channel = acldvppCreateChannelDesc();
    ASSERT_EQ(acldvppCreateChannel(channel), ACL_SUCCESS);
    {
        MediaBuffer in(64 * 64 * 3 / 2), out(32 * 32 * 3 / 2);
        void* pinned = nullptr;
        ASSERT_EQ(aclrtMallocHost(&pinned, in.size()), ACL_SUCCESS);
        std::vector<uint8_t> nv12 = MakeNv12(64, 64, 64, 64);
        std::memcpy(pinned, nv12.data(), nv12.size());
        PicDesc input(in.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 64, 64);
        PicDesc output(out.get(), out.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 32, 32, 32);
        ASSERT_EQ(aclrtMemcpyAsync(in.get(), in.size(), pinned, in.size(),
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream),
                  ACL_SUCCESS);
        ASSERT_EQ(acldvppVpcResizeAsync(channel, input, output, nullptr, stream), ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        aclrtFreeHost(pinned);
    }
    acldvppDestroyChannel(channel);
    acldvppDestroyChannelDesc(channel);
    aclrtDestroyStream(stream);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    unsetenv("OPENACL_TRACE");

    std::ifstream file(path);
    ASSERT_TRUE(file.good()) << path;
    const nlohmann::json trace = nlohmann::json::parse(file);
    const nlohmann::json* resize = nullptr;
    const nlohmann::json* copy = nullptr;
    for (const auto& e : trace["traceEvents"]) {
        if (e["ph"] != "X" || e.value("cat", "") != "task") continue;
        if (e["name"] == "acldvppVpcResizeAsync") resize = &e;
        if (e["name"] == "memcpy H2D 6 KiB") copy = &e;
    }
    ASSERT_NE(resize, nullptr) << "no acldvppVpcResizeAsync task in the trace";
    ASSERT_NE(copy, nullptr) << "no copy task in the trace";
    EXPECT_EQ((*resize)["tid"], (*copy)["tid"]);  // the same stream
    EXPECT_GE((*resize)["ts"].get<double>(), (*copy)["ts"].get<double>());
}
