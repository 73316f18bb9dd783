// Step 1, the host program: puts two vectors in device memory, launches vector_add over 8 blocks
// on a stream with the macro of the generated aclrtlaunch_vector_add.h, and checks the sum.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_vector_add.h"

#define CHECK_ACL(call)                                                                         \
    do {                                                                                        \
        const aclError status_ = (call);                                                        \
        if (status_ != ACL_SUCCESS) {                                                           \
            std::fprintf(stderr, "%s failed: %d (%s)\n", #call, status_, aclGetRecentErrMsg()); \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

int main() {
    constexpr uint32_t kBlocks = 8;
    constexpr uint32_t kLength = kBlocks * 4 * 512;  // 4 tiles of 512 per block
    constexpr size_t kBytes = kLength * sizeof(aclFloat16);
    std::vector<aclFloat16> x(kLength), y(kLength), z(kLength);
    for (uint32_t i = 0; i < kLength; ++i) {
        x[i] = aclFloatToFloat16(static_cast<float>(i % 100) * 0.5f);
        y[i] = aclFloatToFloat16(static_cast<float>(i % 7) - 3.0f);
    }

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    void *xDevice = nullptr, *yDevice = nullptr, *zDevice = nullptr;
    CHECK_ACL(aclrtMalloc(&xDevice, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&yDevice, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&zDevice, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(xDevice, kBytes, x.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(yDevice, kBytes, y.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));

    // Asynchronous, as on the chip: the launch is queued on the stream and returns.
    CHECK_ACL(static_cast<aclError>(
        ACLRT_LAUNCH_KERNEL(vector_add)(kBlocks, stream, xDevice, yDevice, zDevice, kLength)));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(z.data(), kBytes, zDevice, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));

    int wrong = 0;
    for (uint32_t i = 0; i < kLength; ++i) {
        const float want = aclFloat16ToFloat(x[i]) + aclFloat16ToFloat(y[i]);
        if (aclFloat16ToFloat(z[i]) != want && wrong++ < 5) {
            std::fprintf(stderr, "z[%u] = %g, want %g\n", i, aclFloat16ToFloat(z[i]), want);
        }
    }
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(zDevice));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    std::printf("vector_add: %u elements over %u blocks, %s\n", kLength, kBlocks,
                wrong == 0 ? "every sum right" : "WRONG");
    return wrong == 0 ? 0 : 1;
}
