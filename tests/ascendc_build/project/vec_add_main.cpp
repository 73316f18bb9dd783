// The host program of vec_add as CANN's kernel-launch samples write it: one main for both
// builds. Built with RUN_MODE cpu (ASCENDC_CPU_DEBUG defined) it takes the CPU-debug path,
// GmAlloc and ICPU_RUN_KF; otherwise the AscendCL path, aclrtMalloc and ACLRT_LAUNCH_KERNEL.
// Either way the result is checked against plain C++; the exit status says whether it matched.
#include <cstdint>
#include <cstdio>
#include <vector>

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void vec_add(GM_ADDR x, GM_ADDR y, GM_ADDR z);
#else
#include "acl/acl.h"
#include "aclrtlaunch_vec_add.h"
#endif

#define CHECK_ACL(x)                                                                      \
    do {                                                                                  \
        int rc_ = static_cast<int>(x);                                                    \
        if (rc_ != 0) {                                                                   \
            std::fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #x, rc_); \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

namespace {
constexpr uint32_t kBlocks = 8;
constexpr size_t kLength = 8 * 2048;
constexpr size_t kBytes = kLength * sizeof(uint16_t);

// IEEE binary16 of small integers (exact), and back.
uint16_t HalfOf(int v) {
    if (v == 0) return 0;
    int exponent = 0;
    while ((v >> exponent) > 1)
        ++exponent;
    const uint32_t mantissa = (static_cast<uint32_t>(v) << (10 - exponent)) & 0x3FF;
    return static_cast<uint16_t>(((exponent + 15) << 10) | mantissa);
}

void Fill(uint16_t* x, uint16_t* y) {
    for (size_t i = 0; i < kLength; ++i) {
        x[i] = HalfOf(static_cast<int>(i % 1000));
        y[i] = HalfOf(static_cast<int>(2 * (i % 7)));
    }
}

int Check(const uint16_t* z) {
    for (size_t i = 0; i < kLength; ++i) {
        const uint16_t want = HalfOf(static_cast<int>(i % 1000 + 2 * (i % 7)));
        if (z[i] != want) {
            std::fprintf(stderr, "z[%zu] is 0x%04x, want 0x%04x\n", i, z[i], want);
            return 1;
        }
    }
    return 0;
}
}  // namespace

int main() {
#ifdef ASCENDC_CPU_DEBUG
    auto* x = static_cast<uint16_t*>(AscendC::GmAlloc(kBytes));
    auto* y = static_cast<uint16_t*>(AscendC::GmAlloc(kBytes));
    auto* z = static_cast<uint16_t*>(AscendC::GmAlloc(kBytes));
    Fill(x, y);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    CHECK_ACL(ICPU_RUN_KF(vec_add, kBlocks, x, y, z));
    const int result = Check(z);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    std::printf("vec_add (CPU debug, ICPU_RUN_KF): %s\n", result == 0 ? "match" : "MISMATCH");
#else
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    std::vector<uint16_t> x(kLength), y(kLength), z(kLength);
    Fill(x.data(), y.data());
    void *xDevice = nullptr, *yDevice = nullptr, *zDevice = nullptr;
    CHECK_ACL(aclrtMalloc(&xDevice, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&yDevice, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&zDevice, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(xDevice, kBytes, x.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(yDevice, kBytes, y.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(ACLRT_LAUNCH_KERNEL(vec_add)(kBlocks, stream, xDevice, yDevice, zDevice));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(z.data(), kBytes, zDevice, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    const int result = Check(z.data());
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(zDevice));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    std::printf("vec_add (AscendCL, ACLRT_LAUNCH_KERNEL): %s\n",
                result == 0 ? "match" : "MISMATCH");
#endif
    return result;
}
