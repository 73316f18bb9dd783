// Launches the library's kernel with ACLRT_LAUNCH_KERNEL from plain C++ and checks every element.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_add_offset.h"

int main() {
    constexpr uint32_t kCount = 1000;
    constexpr size_t kBytes = kCount * sizeof(float);
    std::vector<float> data(kCount);
    for (uint32_t i = 0; i < kCount; ++i)
        data[i] = static_cast<float>(i);
    void* device = nullptr;
    aclrtStream stream = nullptr;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateStream(&stream) != ACL_SUCCESS ||
        aclrtMalloc(&device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(device, kBytes, data.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE) !=
            ACL_SUCCESS) {
        std::fprintf(stderr, "set-up failed: %s\n", aclGetRecentErrMsg());
        return 2;
    }
    if (ACLRT_LAUNCH_KERNEL(add_offset)(3, stream, device, 0.5f, kCount) != ACL_SUCCESS ||
        aclrtSynchronizeStream(stream) != ACL_SUCCESS ||
        aclrtMemcpy(data.data(), kBytes, device, kBytes, ACL_MEMCPY_DEVICE_TO_HOST) !=
            ACL_SUCCESS) {
        std::fprintf(stderr, "the launch failed: %s\n", aclGetRecentErrMsg());
        return 2;
    }
    for (uint32_t i = 0; i < kCount; ++i) {
        if (data[i] != static_cast<float>(i) + 0.5f) {
            std::fprintf(stderr, "element %u: got %g, want %g\n", i, data[i], i + 0.5);
            return 1;
        }
    }
    aclrtFree(device);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("aclrt_launch_main: every element matches\n");
    return 0;
}
