// A profiling session (aclprofInit ... aclprofFinalize) into a fresh directory, for tests that
// read back the timeline it writes: msproftx, mstx and aclrtProfTrace.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "temp_dir.h"
#include "test_support.h"

class ProfSession : public InitializedDeviceTest {
 protected:
    using json = nlohmann::json;

    void SetUp() override {
        InitializedDeviceTest::SetUp();
        ASSERT_FALSE(dir_.empty());
        ASSERT_EQ(aclprofInit(dir_.c_str(), dir_.size()), ACL_SUCCESS);
    }
    void TearDown() override {
        if (config_ != nullptr) aclprofDestroyConfig(config_);
        aclprofFinalize();
        InitializedDeviceTest::TearDown();
    }
    void Start(uint64_t data_types = ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX) {
        uint32_t devices[] = {0};
        config_ = aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, data_types);
        ASSERT_NE(config_, nullptr);
        ASSERT_EQ(aclprofStart(config_), ACL_SUCCESS);
    }
    // Stops the session and returns every event of the trace it wrote.
    std::vector<json> StopAndRead() {
        EXPECT_EQ(aclprofStop(config_), ACL_SUCCESS);
        std::ifstream in(TracePath());
        EXPECT_TRUE(in.good());
        return json::parse(in)["traceEvents"].get<std::vector<json>>();
    }
    // Stops the session and returns the trace's events of category `cat`.
    std::vector<json> Stop(const std::string& cat = "user") {
        std::vector<json> events;
        for (const json& e : StopAndRead())
            if (e.value("cat", "") == cat) events.push_back(e);
        return events;
    }
    // The session's trace: the one JSON file in the directory (its name counts the sessions of
    // the process).
    std::string TracePath() const {
        for (const auto& entry : std::filesystem::directory_iterator(dir_))
            if (entry.path().extension() == ".json") return entry.path().string();
        return dir_ + "/missing.json";
    }

    TempDir tmp_{"openacl-prof"};
    const std::string dir_ = tmp_.path();
    aclprofConfig* config_ = nullptr;
};

// The first event named `name` with phase `ph`, or nullptr.
inline const nlohmann::json* FindEvent(const std::vector<nlohmann::json>& events,
                                       const std::string& name, const std::string& ph) {
    for (const nlohmann::json& e : events)
        if (e.value("name", "") == name && e.value("ph", "") == ph) return &e;
    return nullptr;
}
