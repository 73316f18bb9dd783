// Small helpers shared by the API tests.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "recorded_error.h"
#include "scoped_env.h"

// Expects that the newest recorded error message contains `text` (and clears the messages).
#define EXPECT_THAT_MESSAGE_CONTAINS(text)                                                         \
    do {                                                                                           \
        const char* message_ = TakeErrMsg();                                                       \
        ASSERT_NE(message_, nullptr) << "no error message was recorded";                           \
        EXPECT_NE(std::string(message_).find(text), std::string::npos) << "message: " << message_; \
    } while (0)

// Settings for a test that logs to stdout at every level; aclInit re-reads them.
class LogToStdoutTest : public ::testing::Test {
 protected:
    void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
    void TearDown() override { aclFinalize(); }

    // Runs `log` and returns what it printed.
    template <typename Fn>
    static std::string Capture(Fn log) {
        testing::internal::CaptureStdout();
        log();
        return testing::internal::GetCapturedStdout();
    }

 private:
    ScopedEnv print_{"ASCEND_SLOG_PRINT_TO_STDOUT", "1"};
    ScopedEnv level_{"ASCEND_GLOBAL_LOG_LEVEL", "0"};
};

// How many times `what` occurs in `text`.
inline size_t CountOccurrences(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// A file with the given content, removed at scope exit.
class TempFile {
 public:
    explicit TempFile(const std::string& content, const char* suffix = ".json") {
        path_ = "/tmp/openacl-test-XXXXXX" + std::string(suffix);
        int fd = mkstemps(path_.data(), static_cast<int>(std::string(suffix).size()));
        if (fd >= 0) {
            if (write(fd, content.data(), content.size()) < 0) path_.clear();
            close(fd);
        }
    }
    ~TempFile() { std::remove(path_.c_str()); }
    const char* path() const { return path_.c_str(); }

 private:
    std::string path_;
};

// Sets device 0 for the test and resets it afterwards; most API tests start here.
class DeviceTest : public ::testing::Test {
 protected:
    void SetUp() override { ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }
    void TearDown() override {
        aclrtResetDeviceForce(0);
        aclGetRecentErrMsg();
    }
};

// aclInit and device 0, for fixtures that first set environment variables the runtime reads
// at aclInit: derived fixtures declare ScopedEnv members, which exist before SetUp runs.
class InitializedDeviceTest : public ::testing::Test {
 protected:
    void SetUp() override {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    }
    void TearDown() override {
        aclFinalize();
        aclGetRecentErrMsg();
    }
};
