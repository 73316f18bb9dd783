// aclInit / aclFinalize / aclFinalizeReference, versions and error text.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "acl/acl.h"
#include "test_support.h"

TEST(Init, NullConfigPathMeansNoConfiguration) {
    EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, EmptyConfigPathMeansNoConfiguration) {
    EXPECT_EQ(aclInit(""), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, RepeatedInitReturnsRepeatInitializeButCounts) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
    uint64_t remaining = 99;
    EXPECT_EQ(aclFinalizeReference(&remaining), ACL_SUCCESS);
    EXPECT_EQ(remaining, 2u);
    EXPECT_EQ(aclFinalizeReference(&remaining), ACL_SUCCESS);
    EXPECT_EQ(remaining, 1u);
    EXPECT_EQ(aclFinalizeReference(&remaining), ACL_SUCCESS);
    EXPECT_EQ(remaining, 0u);
    EXPECT_EQ(aclFinalizeReference(&remaining), ACL_ERROR_REPEAT_FINALIZE);
}

TEST(Init, FinalizeResetsTheCountWhateverTheNumberOfInits) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS) << "init -> finalize -> init is allowed";
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, FinalizeWithoutInitIsRepeatFinalize) {
    EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    EXPECT_THAT_MESSAGE_CONTAINS("aclFinalize without a matching aclInit");
}

TEST(Init, MissingConfigFileIsInvalidFile) {
    EXPECT_EQ(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
    EXPECT_THAT_MESSAGE_CONTAINS("/nonexistent/acl.json");
    EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE) << "a failed init is not counted";
}

TEST(Init, MalformedJsonIsParseFileNamingTheLine) {
    TempFile config("{\n  \"openacl\": {\n    \"device_count\": 2,,\n  }\n}\n");
    EXPECT_EQ(aclInit(config.path()), ACL_ERROR_PARSE_FILE);
    EXPECT_THAT_MESSAGE_CONTAINS("line 3");
}

TEST(Init, NumberBeyondADoubleIsParseFile) {
    // Found by fuzz/config_fuzz.cpp: the JSON parser refused it with an exception of its own.
    TempFile config("{\"openacl\": {\"worker_threads\": 1e999}}");
    EXPECT_EQ(aclInit(config.path()), ACL_ERROR_PARSE_FILE);
    EXPECT_THAT_MESSAGE_CONTAINS("number overflow");
}

TEST(Init, JsonNestedDeeperThanTenLevelsIsRejected) {
    std::string deep = "{\"a\":";
    for (int i = 0; i < 11; ++i)
        deep += "[";
    for (int i = 0; i < 11; ++i)
        deep += "]";
    deep += "}";
    TempFile config(deep);
    EXPECT_EQ(aclInit(config.path()), ACL_ERROR_PARSE_FILE);
    EXPECT_THAT_MESSAGE_CONTAINS("nests deeper than 10");
}

namespace {

// The CPUs the calling thread may run on, as "0,1".
std::string ThreadCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    pthread_getaffinity_np(pthread_self(), sizeof set, &set);
    std::string list;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &set)) list += (list.empty() ? "" : ",") + std::to_string(cpu);
    return list;
}

// Runs a host function on a stream (so on one of the device's workers) and answers the CPUs
// that worker may run on.
std::string WorkerCpus() {
    static std::string seen;
    aclrtStream stream = nullptr;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) return "no stream";
    aclrtLaunchHostFunc(
        stream, [](void*) { seen = ThreadCpus(); }, nullptr);
    aclrtSynchronizeStream(stream);
    aclrtDestroyStream(stream);
    return seen;
}

// The first CPU this process may run on (CI may confine it to some).
std::string FirstCpu() {
    const std::string all = ThreadCpus();
    return all.substr(0, all.find(','));
}

}  // namespace

TEST(Init, WorkerCpusKeepTheDevicesWorkersOnThoseCpus) {
    TempFile config("{\"openacl\": {\"worker_cpus\": \"" + FirstCpu() +
                    "\", \"worker_threads\": 2}}");
    ASSERT_EQ(aclInit(config.path()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(WorkerCpus(), FirstCpu());
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, WorkerCpusFromTheEnvironmentWin) {
    const std::string range = FirstCpu() + "-" + FirstCpu();
    ScopedEnv cpus("OPENACL_WORKER_CPUS", range.c_str());
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(WorkerCpus(), FirstCpu());
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, WorkerCpusThisProcessCannotUseAreRefused) {
    TempFile config(R"({"openacl": {"worker_cpus": "1000"}})");
    EXPECT_EQ(aclInit(config.path()), ACL_ERROR_FILE_ATTR_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("CPU 1000 is not one this process may run on");
    TempFile malformed(R"({"openacl": {"worker_cpus": "3-1"}})");
    EXPECT_EQ(aclInit(malformed.path()), ACL_ERROR_FILE_ATTR_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("\"3-1\" is not a CPU or a range of CPUs");
    ScopedEnv cpus("OPENACL_WORKER_CPUS", "x");
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("OPENACL_WORKER_CPUS=x");
}

TEST(Init, BackendMustBeCpuOrCuda) {
    TempFile config(R"({"openacl": {"backend": "rocm"}})");
    EXPECT_EQ(aclInit(config.path()), ACL_ERROR_FILE_ATTR_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("openacl.backend must be \"cpu\" or \"cuda\"");
    ScopedEnv backend("OPENACL_BACKEND", "gpu");
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("OPENACL_BACKEND=gpu: expected cpu or cuda");
}

TEST(Init, CpuBackendCanBeNamed) {
    ScopedEnv backend("OPENACL_BACKEND", "cpu");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// On a machine without a GPU (CI), selecting the CUDA backend fails at aclInit with the reason
// and the way back to the CPU; where a GPU exists the GPU suite (tests/gpu) takes over.
TEST(Init, CudaBackendWithoutAGpuSaysWhyAndHowToRunOnTheCpu) {
    ScopedEnv backend("OPENACL_BACKEND", "cuda");
    aclError rc = aclInit(nullptr);
    if (rc == ACL_SUCCESS) {
        aclFinalize();
        GTEST_SKIP() << "a CUDA device is present: tests/gpu covers this machine";
    }
    EXPECT_EQ(rc, ACL_ERROR_RT_NO_DEVICE);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("the CUDA backend is selected"), std::string::npos)
        << message;
    EXPECT_NE(std::string(message).find("unset it to run on the CPU backend"), std::string::npos)
        << message;
    EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST(Init, OpenaclSectionConfiguresDevices) {
    TempFile config(R"({"openacl": {"device_count": 3, "device_memory_mb": 64,
                                     "soc_name": "Ascend910B4"}})");
    ASSERT_EQ(aclInit(config.path()), ACL_SUCCESS);
    uint32_t count = 0;
    EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 3u);
    EXPECT_STREQ(aclrtGetSocName(), "Ascend910B4");
    ASSERT_EQ(aclrtSetDevice(2), ACL_SUCCESS);
    size_t free_bytes = 0, total = 0;
    EXPECT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &free_bytes, &total), ACL_SUCCESS);
    EXPECT_EQ(total, 64u << 20);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, EnvironmentOverridesTheConfigFile) {
    ScopedEnv env("OPENACL_DEVICE_COUNT", "2");
    TempFile config(R"({"openacl": {"device_count": 5}})");
    ASSERT_EQ(aclInit(config.path()), ACL_SUCCESS);
    uint32_t count = 0;
    EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 2u);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, WrongTypeForAnOpenaclKeyIsFileAttrInvalid) {
    TempFile config(R"({"openacl": {"device_count": "many"}})");
    EXPECT_EQ(aclInit(config.path()), ACL_ERROR_FILE_ATTR_INVALID);
    EXPECT_THAT_MESSAGE_CONTAINS("openacl.device_count");
}

TEST(Init, CannKeysAreAccepted) {
    TempFile config(R"({"dump": {"dump_path": "/tmp"}, "err_msg_mode": "0",
                        "defaultDevice": {"default_device": "0"}})");
    ASSERT_EQ(aclInit(config.path()), ACL_SUCCESS);
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS) << "defaultDevice sets the device implicitly";
    EXPECT_EQ(device, 0);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

namespace {
int g_init_calls = 0;
size_t g_init_len = 0;
aclError OnInit(const char*, size_t len, void* data) {
    g_init_calls += *static_cast<int*>(data);
    g_init_len = len;
    return ACL_SUCCESS;
}
int g_finalize_calls = 0;
aclError OnFinalize(void*) {
    ++g_finalize_calls;
    return ACL_SUCCESS;
}
}  // namespace

TEST(Init, InitAndFinalizeCallbacksRunWithTheConfiguration) {
    int weight = 1;
    ASSERT_EQ(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, OnInit, &weight), ACL_SUCCESS);
    ASSERT_EQ(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, OnFinalize, nullptr), ACL_SUCCESS);
    TempFile config(R"({"openacl": {}})");
    ASSERT_EQ(aclInit(config.path()), ACL_SUCCESS);
    EXPECT_EQ(g_init_calls, 1);
    EXPECT_GT(g_init_len, 0u);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    EXPECT_EQ(g_finalize_calls, 1);
    EXPECT_EQ(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, OnInit), ACL_SUCCESS);
    EXPECT_EQ(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, OnInit), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, OnFinalize), ACL_SUCCESS);
}

TEST(Version, GetVersionAnswersTheInterfaceVersion) {
    int32_t major = 0, minor = 0, patch = -1;
    EXPECT_EQ(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
    EXPECT_EQ(major, ACL_MAJOR_VERSION);
    EXPECT_EQ(minor, 17);
    EXPECT_EQ(patch, 0);
    EXPECT_EQ(aclrtGetVersion(nullptr, &minor, &patch), ACL_ERROR_INVALID_PARAM);
}

TEST(Version, VersionStrAndNumDescribeKnownPackages) {
    char name[] = "runtime";
    char version[ACL_PKG_VERSION_MAX_SIZE] = {};
    EXPECT_EQ(aclsysGetVersionStr(name, version), ACL_SUCCESS);
    EXPECT_STREQ(version, "9.2.0");
    int32_t number = 0;
    EXPECT_EQ(aclsysGetVersionNum(name, &number), ACL_SUCCESS);
    EXPECT_EQ(number, 90200000);  // major x 10^7 + minor x 10^5 + patch x 10^3
    char unknown[] = "no_such_package";
    EXPECT_EQ(aclsysGetVersionStr(unknown, version), ACL_ERROR_INVALID_FILE);
    EXPECT_EQ(aclsysGetVersionNum(name, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(Version, RunModeIsHostEvenBeforeInit) {
    aclrtRunMode mode = ACL_DEVICE;
    EXPECT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
    EXPECT_EQ(mode, ACL_HOST);
    EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(Version, SocNameIsAnAtlasA2ChipByDefault) {
    EXPECT_STREQ(aclrtGetSocName(), "Ascend910B1");
}

TEST(Version, SocNameFollowsOpenaclSocName) {
    ScopedEnv env("OPENACL_SOC_NAME", "Ascend910B2");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_STREQ(aclrtGetSocName(), "Ascend910B2");
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(ErrorText, RecentErrMsgReturnsAndClears) {
    aclGetRecentErrMsg();  // whatever an earlier test in this process left
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "no error yet";
    EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("device id -1 is out of range"), std::string::npos);
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "taking the message clears it";
}

TEST(ErrorText, RecentErrMsgIsPerThread) {
    EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    const char* other = reinterpret_cast<const char*>(1);
    std::thread([&] { other = aclGetRecentErrMsg(); }).join();
    EXPECT_EQ(other, nullptr);
    EXPECT_NE(aclGetRecentErrMsg(), nullptr);
}

TEST(ErrorText, NewestMessageComesFirst) {
    EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
    std::string text = aclGetRecentErrMsg();
    EXPECT_LT(text.find("aclrtGetDeviceCount"), text.find("aclrtSetDevice"));
}

TEST(ErrorText, LastErrorCanBePeekedAndTaken) {
    aclrtGetLastError(ACL_RT_THREAD_LEVEL);  // whatever an earlier test in this process left
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDevice(1000), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

TEST(ErrorText, ParameterChecksDoNotBecomeTheLastRuntimeError) {
    aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS)
        << "the API layer's checks are not runtime errors";
    EXPECT_NE(aclGetRecentErrMsg(), nullptr) << "they still explain themselves";
}

TEST(ErrorText, ParameterChecksKeepAnEarlierRuntimeErrorAsTheLast) {
    aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    EXPECT_EQ(aclrtSetDevice(1000), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST(ErrorText, ProcessLevelMessagesAreSharedBetweenThreads) {
    TempFile config(R"({"err_msg_mode": "1"})");
    ASSERT_EQ(aclInit(config.path()), ACL_SUCCESS);
    std::thread([] { EXPECT_EQ(aclrtSetDevice(-3), ACL_ERROR_RT_INVALID_DEVICEID); }).join();
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("-3"), std::string::npos);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}
