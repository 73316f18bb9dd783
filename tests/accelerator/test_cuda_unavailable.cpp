// The real CUDA backend on a machine without a usable GPU (CI): aclInit refuses and says why
// and how to run on the CPU. Skipped where a CUDA device exists.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "backend/accelerator.h"

namespace {

TEST(CudaBackendWithoutDevice, AclInitReportsNoDeviceAndHowToRunOnTheCpu) {
    std::string why;
    if (openacl::backend::CudaDeviceCount(&why) > 0) {
        GTEST_SKIP() << "a CUDA device is present: the CUDA backend can start here";
    }
    setenv("OPENACL_BACKEND", "cuda", 1);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_RT_NO_DEVICE);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    const std::string text = message;
    EXPECT_NE(text.find(why), std::string::npos) << "the reason is missing: " << text;
    EXPECT_NE(text.find("to run on the CPU backend"), std::string::npos) << text;
    unsetenv("OPENACL_BACKEND");
}

}  // namespace
