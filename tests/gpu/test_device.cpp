// Devices on the CUDA backend are the machine's CUDA devices, with their real memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "acl/acl.h"
#include "cuda_probe.h"
#include "gpu_test_support.h"

using namespace gpu_test;

namespace {

class GpuDevice : public GpuTest {};

TEST_F(GpuDevice, DeviceCountIsCudaDeviceCount) {
    int cuda_count = 0;
    const std::string error = cuda_probe::DeviceCount(&cuda_count);
    ASSERT_EQ(error, "");
    uint32_t count = 0;
    ACL_ASSERT(aclrtGetDeviceCount(&count));
    EXPECT_EQ(count, static_cast<uint32_t>(cuda_count));
}

TEST_F(GpuDevice, MemInfoIsTheDevicesRealMemory) {
    size_t acl_free = 0, acl_total = 0;
    ACL_ASSERT(aclrtGetMemInfo(ACL_HBM_MEM, &acl_free, &acl_total));
    size_t cuda_free = 0, cuda_total = 0;
    const std::string error = cuda_probe::MemInfo(&cuda_free, &cuda_total);
    ASSERT_EQ(error, "");
    // Free memory moves with every context and pool on the device; 2 GiB of slack still tells
    // the real numbers from a CPU arena's. (The total may come from another CUDA call.)
    const double slack = 2.0 * (1 << 30);
    EXPECT_NEAR(static_cast<double>(acl_total), static_cast<double>(cuda_total), slack);
    EXPECT_NEAR(static_cast<double>(acl_free), static_cast<double>(cuda_free), slack);
    EXPECT_LE(acl_free, acl_total);
}

TEST_F(GpuDevice, MemInfoFreeFallsByALargeAllocation) {
    size_t before = 0, after = 0, total = 0;
    ACL_ASSERT(aclrtGetMemInfo(ACL_HBM_MEM, &before, &total));
    constexpr size_t kBytes = size_t{4} << 30;  // far above any pool's granularity
    void* p = nullptr;
    ACL_ASSERT(aclrtMalloc(&p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_ASSERT(aclrtMemset(p, kBytes, 0, kBytes));  // touch it, in case allocation is lazy
    ACL_ASSERT(aclrtGetMemInfo(ACL_HBM_MEM, &after, &total));
    ACL_EXPECT(aclrtFree(p));
    EXPECT_LE(after + kBytes - (size_t{256} << 20), before)
        << "free memory fell by " << (before - after) << " bytes for a " << kBytes
        << "-byte allocation";
}

}  // namespace
