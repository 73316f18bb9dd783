// The shared set-up of the GPU tests: they run openacl's CUDA backend (OPENACL_BACKEND=cuda)
// through the public AscendCL API, and skip, saying why, where no CUDA device is usable.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "cuda_probe.h"

namespace gpu_test {

// Expects ACL_SUCCESS, printing the runtime's own explanation otherwise.
#define ACL_ASSERT(call)                                                                  \
    do {                                                                                  \
        const aclError rc_ = (call);                                                      \
        ASSERT_EQ(rc_, ACL_SUCCESS) << #call << " -> " << rc_ << ": " << RecentMessage(); \
    } while (0)
#define ACL_EXPECT(call)                                                                  \
    do {                                                                                  \
        const aclError rc_ = (call);                                                      \
        EXPECT_EQ(rc_, ACL_SUCCESS) << #call << " -> " << rc_ << ": " << RecentMessage(); \
    } while (0)

inline std::string RecentMessage() {
    const char* message = aclGetRecentErrMsg();
    return message != nullptr ? message : "(no message)";
}

// Selects the CUDA backend unless the environment already chose (ctest sets it too), and keeps
// the runtime's log files in the build tree.
inline void SelectCudaBackend() {
    setenv("OPENACL_BACKEND", "cuda", 0);
    setenv("ASCEND_PROCESS_LOG_PATH", OPENACL_GPU_TEST_LOG_DIR, 0);
}

// Sets an environment variable for the scope of a test; members of this type in a fixture
// are set before SetUp runs aclInit.
class ScopedEnv {
 public:
    // Sets `name` to `value`, or unsets it when `value` is null.
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        if (value != nullptr) {
            setenv(name, value, 1);
        } else {
            unsetenv(name);
        }
    }
    ~ScopedEnv() {
        if (had_) {
            setenv(name_.c_str(), old_.c_str(), 1);
        } else {
            unsetenv(name_.c_str());
        }
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
    std::string name_, old_;
    bool had_ = false;
};

// aclInit on the CUDA backend, device 0 and one stream; skips without a CUDA device. With a
// device present, an aclInit that fails is a failure of the backend, not a reason to skip.
class GpuTest : public ::testing::Test {
 protected:
    void SetUp() override {
        // OPENACL_GPU_TESTS_ON_CPU=1: a check of the tests themselves on the CPU backend, the
        // reference (those that need CUDA binaries or CUDA's numbers fail there).
        const char* on_cpu = std::getenv("OPENACL_GPU_TESTS_ON_CPU");
        if (on_cpu != nullptr && std::string(on_cpu) == "1") {
            unsetenv("OPENACL_BACKEND");
        } else {
            const std::string reason = cuda_probe::NoDeviceReason();
            if (!reason.empty()) GTEST_SKIP() << reason;
            if (!BackendFromConfig()) SelectCudaBackend();
        }
        const aclError init = aclInit(ConfigPath());
        ASSERT_EQ(init, ACL_SUCCESS)
            << "CUDA has a device but aclInit on the CUDA backend failed: " << RecentMessage();
        initialized_ = true;
        uint32_t count = 0;
        ACL_ASSERT(aclrtGetDeviceCount(&count));
        ASSERT_GT(count, 0u) << "the CUDA backend reports no device: " << RecentMessage();
        ACL_ASSERT(aclrtSetDevice(0));
        ACL_ASSERT(aclrtCreateStream(&stream_));
    }
    void TearDown() override { Finalize(); }
    // Destroys the stream, resets device 0 and finalizes (what writes traces); TearDown does
    // it for tests that do not.
    void Finalize() {
        if (stream_ != nullptr) {
            EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
        }
        stream_ = nullptr;
        if (initialized_) {
            aclrtResetDeviceForce(0);
            EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << RecentMessage();
        }
        initialized_ = false;
    }
    // The aclInit configuration file; none by default.
    virtual const char* ConfigPath() { return nullptr; }
    // True where that file, not OPENACL_BACKEND, selects the backend.
    virtual bool BackendFromConfig() { return false; }

    aclrtStream stream_ = nullptr;

 private:
    bool initialized_ = false;
};

// Device memory freed at scope exit.
class DeviceBuffer {
 public:
    explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
        const aclError rc = aclrtMalloc(&ptr_, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        EXPECT_EQ(rc, ACL_SUCCESS) << "aclrtMalloc(" << bytes << "): " << RecentMessage();
    }
    ~DeviceBuffer() {
        if (ptr_ != nullptr) {
            EXPECT_EQ(aclrtFree(ptr_), ACL_SUCCESS) << RecentMessage();
        }
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return ptr_; }
    size_t size() const { return bytes_; }
    template <typename T>
    T* as() const {
        return static_cast<T*>(ptr_);
    }

 private:
    void* ptr_ = nullptr;
    size_t bytes_;
};

// Pinned host memory (aclrtMallocHost) freed at scope exit.
class PinnedBuffer {
 public:
    explicit PinnedBuffer(size_t bytes) : bytes_(bytes) {
        const aclError rc = aclrtMallocHost(&ptr_, bytes);
        EXPECT_EQ(rc, ACL_SUCCESS) << "aclrtMallocHost(" << bytes << "): " << RecentMessage();
    }
    ~PinnedBuffer() {
        if (ptr_ != nullptr) {
            EXPECT_EQ(aclrtFreeHost(ptr_), ACL_SUCCESS) << RecentMessage();
        }
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    void* get() const { return ptr_; }
    size_t size() const { return bytes_; }
    template <typename T>
    T* as() const {
        return static_cast<T*>(ptr_);
    }

 private:
    void* ptr_ = nullptr;
    size_t bytes_;
};

template <typename T>
void Upload(void* device, const std::vector<T>& host) {
    const size_t bytes = host.size() * sizeof(T);
    ASSERT_EQ(aclrtMemcpy(device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS)
        << RecentMessage();
}

template <typename T>
std::vector<T> Download(const void* device, size_t count) {
    std::vector<T> host(count);
    const size_t bytes = count * sizeof(T);
    EXPECT_EQ(aclrtMemcpy(host.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS)
        << RecentMessage();
    return host;
}

// A kernel argument slot: openacl kernels take 8-byte parameters.
inline uint64_t Slot(const void* p) {
    return reinterpret_cast<uint64_t>(p);
}

inline std::string ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

// Polls `done` every millisecond until it holds or `timeout` passes.
inline bool WaitUntil(const std::function<bool()>& done,
                      std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

}  // namespace gpu_test
