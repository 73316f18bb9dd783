// The fixture of the accelerator-path tests: OPENACL_BACKEND=cuda with the fake accelerator
// (tests/support/fake_accelerator.h) installed before aclInit, device 0 set, one stream.
// Each test runs in its own process (gtest_discover_tests), so the runtime starts fresh.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "acl/acl.h"
#include "fake_accelerator.h"

namespace openacl::testing {

// Holds a stream at a host function until opened.
class Gate {
 public:
    aclError Block(aclrtStream stream) { return aclrtLaunchHostFunc(stream, &Gate::Wait, this); }
    void Open() { open_.store(true); }
    ~Gate() { Open(); }

 private:
    static void Wait(void* self) {
        auto* gate = static_cast<Gate*>(self);
        while (!gate->open_.load())
            std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    std::atomic<bool> open_{false};
};

class AcceleratorTest : public ::testing::Test {
 protected:
    void SetUp() override {
        setenv("OPENACL_BACKEND", "cuda", 1);
        InstallFakeAccelerators(1);
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
        fake_ = Installed(0);
        ASSERT_NE(fake_, nullptr) << "the runtime did not take its device from the factory";
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << aclGetRecentErrMsg();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    }
    void TearDown() override {
        if (stream_ != nullptr) {
            EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
        }
        EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
        EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
        unsetenv("OPENACL_BACKEND");
    }
    void* Device(size_t size) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        return p;
    }
    void* Pinned(size_t size) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMallocHost(&p, size), ACL_SUCCESS) << aclGetRecentErrMsg();
        return p;
    }

    FakeAccelerator* fake_ = nullptr;
    aclrtStream stream_ = nullptr;
};

}  // namespace openacl::testing
