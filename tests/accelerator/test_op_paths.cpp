// Single operators (acl_op.h) on an accelerator device (OPENACL_BACKEND=cuda): they run on the
// CPU backend only, and say so before any byte of device memory is touched.
#include <cstdint>
#include <string>

#include "accelerator_test.h"
#include "acl/acl_op.h"
#include "acl/acl_op_compiler.h"
#include "acl/ops/acl_cblas.h"

namespace openacl::testing {
namespace {

using OpPaths = AcceleratorTest;

TEST_F(OpPaths, CompileAndExecuteIsNotSupportedOnTheAcceleratorYet) {
    void* dev = Device(64);
    const int64_t dims[] = {4};
    aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    aclDataBuffer* buffer = aclCreateDataBuffer(dev, 64);
    aclTensorDesc* descs[] = {desc, desc};
    aclDataBuffer* buffers[] = {buffer, buffer};
    EXPECT_EQ(aclopCompileAndExecute("Add", 2, descs, buffers, 1, descs, buffers, nullptr,
                                     ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr, stream_),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("single operators run on the CPU backend only"), std::string::npos)
        << message;
    aclDestroyDataBuffer(buffer);
    aclDestroyTensorDesc(desc);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(OpPaths, AHandleIsMadeButNotRunOnTheAccelerator) {
    aclopHandle* handle = nullptr;
    ASSERT_EQ(aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2,
                                          ACL_COMPUTE_HIGH_PRECISION, &handle),
              ACL_SUCCESS);
    void* dev = Device(64);
    aclDataBuffer* buffer = aclCreateDataBuffer(dev, 64);
    aclDataBuffer* inputs[] = {buffer, buffer, buffer, buffer, buffer};
    aclDataBuffer* outputs[] = {buffer};
    EXPECT_EQ(aclopExecWithHandle(handle, 5, inputs, 1, outputs, stream_),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    aclopDestroyHandle(handle);
    aclDestroyDataBuffer(buffer);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

}  // namespace
}  // namespace openacl::testing
