// Built-in device tasks on an accelerator device (OPENACL_BACKEND=cuda): aclrtReduceAsync and
// aclrtRandomNumAsync run on the CPU backend only, and say so here.
#include <cstdint>
#include <cstring>
#include <string>

#include "accelerator_test.h"

namespace openacl::testing {
namespace {

using DeviceTaskPaths = AcceleratorTest;

TEST_F(DeviceTaskPaths, AReductionIsNotSupportedOnTheAcceleratorYet) {
    void* dst = Device(64);
    void* src = Device(64);
    EXPECT_EQ(aclrtReduceAsync(dst, src, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, stream_,
                               nullptr),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("is not supported on the Fake Accelerator backend yet"),
              std::string::npos)
        << message;
    EXPECT_EQ(aclrtFree(dst), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(src), ACL_SUCCESS);
}

TEST_F(DeviceTaskPaths, RandomNumbersAreNotSupportedOnTheAcceleratorYet) {
    void* result = Device(64);
    void* counter = Device(16);
    aclrtRandomNumTaskInfo task{};
    task.dataType = ACL_FLOAT;
    task.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
    const float low = 0.0f, high = 1.0f;
    const uint64_t seed = 1, count = 4;
    auto& uniform = task.randomNumFuncParaInfo.paramInfo.uniformDisInfo;
    std::memcpy(uniform.min.valueOrAddr, &low, 4);
    uniform.min.size = 4;
    std::memcpy(uniform.max.valueOrAddr, &high, 4);
    uniform.max.size = 4;
    std::memcpy(task.randomSeed.valueOrAddr, &seed, 8);
    task.randomSeed.size = 8;
    std::memcpy(task.randomNum.valueOrAddr, &count, 8);
    task.randomNum.size = 8;
    task.randomResultAddr = result;
    task.randomCounterAddr = counter;
    EXPECT_EQ(aclrtRandomNumAsync(&task, stream_, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("is not supported on the Fake Accelerator backend yet"),
              std::string::npos)
        << message;
    EXPECT_EQ(aclrtFree(result), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(counter), ACL_SUCCESS);
}

}  // namespace
}  // namespace openacl::testing
