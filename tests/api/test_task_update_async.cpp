// aclrtTaskUpdateAsync: a task of another stream replaces one task of a built model — a kernel
// launch's function and block count, or a random-number task's addresses, seed and count — with
// values it reads from device memory when it runs; later runs of the model run the new task.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

class TaskUpdateAsync : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&exec_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStreamWithConfig(&persistent_, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
        ASSERT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &binary_), ACL_SUCCESS);
        ASSERT_EQ(aclrtBinaryGetFunction(binary_, "write_value", &write_value_), ACL_SUCCESS);
        out_ = Device(8);
        entry_ = Device(8);
        blocks_ = Device(4);
    }
    void TearDown() override {
        if (model_) aclmdlRIDestroy(model_);
        for (void* p : buffers_)
            aclrtFree(p);
        aclrtBinaryUnLoad(binary_);
        aclrtDestroyStream(persistent_);
        aclrtDestroyStream(exec_);
        DeviceTest::TearDown();
    }
    void* Device(size_t bytes) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemset(p, bytes, 0, bytes), ACL_SUCCESS);
        buffers_.push_back(p);
        return p;
    }
    template <class T>
    void Put(void* device, T value) {
        ASSERT_EQ(
            aclrtMemcpy(device, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
    }
    uint64_t Get(void* device) {
        uint64_t value = 0;
        EXPECT_EQ(aclrtMemcpy(&value, 8, device, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        return value;
    }
    // The entry aclrtBinaryGetFunctionByEntry takes for the kernel called `name`.
    uint64_t EntryOf(const char* name) {
        aclrtFuncHandle wanted = nullptr;
        EXPECT_EQ(aclrtBinaryGetFunction(binary_, name, &wanted), ACL_SUCCESS);
        for (uint64_t entry = 0; entry < 64; ++entry) {
            aclrtFuncHandle f = nullptr;
            if (aclrtBinaryGetFunctionByEntry(binary_, entry, &f) == ACL_SUCCESS && f == wanted)
                return entry;
        }
        ADD_FAILURE() << name << " has no entry";
        return 0;
    }
    // A model whose one task is write_value(out, 7) on one block; *task_id its id.
    void BuildWriteValue(uint32_t* task_id) {
        ASSERT_EQ(aclmdlRIBuildBegin(&model_, 0), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRIBindStream(model_, persistent_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
        uint64_t args[2] = {reinterpret_cast<uint64_t>(out_), 7};
        ASSERT_EQ(aclrtLaunchKernelWithHostArgs(write_value_, 1, persistent_, nullptr, args,
                                                sizeof args, nullptr, 0),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtGetThreadLastTaskId(task_id), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRIEndTask(model_, persistent_), ACL_SUCCESS);
        ASSERT_EQ(aclmdlRIBuildEnd(model_, nullptr), ACL_SUCCESS);
    }
    aclrtTaskUpdateInfo KernelUpdate() {
        aclrtTaskUpdateInfo info{};
        info.id = ACL_RT_UPDATE_AIC_AIV_TASK;
        info.val.aicAivTaskAttr.binHandle = binary_;
        info.val.aicAivTaskAttr.funcEntryAddr = entry_;
        info.val.aicAivTaskAttr.blockDimAddr = blocks_;
        return info;
    }
    uint64_t Run() {
        Put<uint64_t>(out_, 0);
        EXPECT_EQ(aclmdlRIExecute(model_, -1), ACL_SUCCESS) << aclGetRecentErrMsg();
        return Get(out_);
    }

    aclrtStream exec_ = nullptr;
    aclrtStream persistent_ = nullptr;
    aclrtBinHandle binary_ = nullptr;
    aclrtFuncHandle write_value_ = nullptr;
    aclmdlRI model_ = nullptr;
    void* out_ = nullptr;
    void* entry_ = nullptr;
    void* blocks_ = nullptr;
    std::vector<void*> buffers_;
};

TEST_F(TaskUpdateAsync, AKernelTaskRunsTheFunctionAndBlockCountTheUpdateRead) {
    uint32_t task = 0;
    BuildWriteValue(&task);
    EXPECT_EQ(Run(), 7u);
    // sleep_ms(ran, ms) takes the same arguments: each block counts itself in *ran.
    Put<uint64_t>(entry_, EntryOf("sleep_ms"));
    Put<uint32_t>(blocks_, 3);
    aclrtTaskUpdateInfo info = KernelUpdate();
    ASSERT_EQ(aclrtTaskUpdateAsync(persistent_, task, &info, exec_), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(exec_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Run(), 3u) << "three blocks of sleep_ms";
    EXPECT_EQ(Run(), 3u) << "and on every later run";
}

TEST_F(TaskUpdateAsync, TheValuesAreReadWhenTheUpdateRunsInItsStreamsOrder) {
    uint32_t task = 0;
    BuildWriteValue(&task);
    Put<uint64_t>(entry_, EntryOf("sleep_ms"));
    Put<uint32_t>(blocks_, 5);
    // Held by a 30 ms kernel, then the block count is rewritten before the update reads it.
    aclrtFuncHandle sleep = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(binary_, "sleep_ms", &sleep), ACL_SUCCESS);
    void* ran = Device(8);
    uint64_t args[2] = {reinterpret_cast<uint64_t>(ran), 30};
    ASSERT_EQ(
        aclrtLaunchKernelWithHostArgs(sleep, 1, exec_, nullptr, args, sizeof args, nullptr, 0),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetD32Async(blocks_, 4, 2, 1, exec_), ACL_SUCCESS) << aclGetRecentErrMsg();
    aclrtTaskUpdateInfo info = KernelUpdate();
    ASSERT_EQ(aclrtTaskUpdateAsync(persistent_, task, &info, exec_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(exec_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Run(), 2u);
}

TEST_F(TaskUpdateAsync, AnEntryTheBinaryLacksFailsTheUpdatesStream) {
    uint32_t task = 0;
    BuildWriteValue(&task);
    Put<uint64_t>(entry_, 1000);
    Put<uint32_t>(blocks_, 1);
    aclrtTaskUpdateInfo info = KernelUpdate();
    ASSERT_EQ(aclrtTaskUpdateAsync(persistent_, task, &info, exec_), ACL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(exec_), ACL_SUCCESS);
    EXPECT_EQ(Run(), 7u) << "the task stays as it was";
}

TEST_F(TaskUpdateAsync, ARandomTaskTakesTheNewSeedAndCount) {
    void* counter = Device(16);
    void* result = Device(64);
    void* expected = Device(64);
    auto task_info = [&](void* out, uint64_t seed, uint64_t count) {
        aclrtRandomNumTaskInfo t{};
        t.dataType = ACL_FLOAT;
        t.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
        float lo = 0.0f, hi = 1.0f;
        auto& uniform = t.randomNumFuncParaInfo.paramInfo.uniformDisInfo;
        std::memcpy(uniform.min.valueOrAddr, &lo, 4);
        uniform.min.size = 4;
        std::memcpy(uniform.max.valueOrAddr, &hi, 4);
        uniform.max.size = 4;
        t.randomResultAddr = out;
        t.randomCounterAddr = counter;
        std::memcpy(t.randomSeed.valueOrAddr, &seed, 8);
        t.randomSeed.size = 8;
        std::memcpy(t.randomNum.valueOrAddr, &count, 8);
        t.randomNum.size = 8;
        return t;
    };
    ASSERT_EQ(aclmdlRIBuildBegin(&model_, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBindStream(model_, persistent_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    aclrtRandomNumTaskInfo first = task_info(result, 1, 16);
    ASSERT_EQ(aclrtRandomNumAsync(&first, persistent_, nullptr), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    uint32_t task = 0;
    ASSERT_EQ(aclrtGetThreadLastTaskId(&task), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIEndTask(model_, persistent_), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIBuildEnd(model_, nullptr), ACL_SUCCESS);

    // The description the update reads lives in device memory: seed 2, 8 numbers.
    const aclrtRandomNumTaskInfo second = task_info(result, 2, 8);
    void* source = Device(sizeof second);
    ASSERT_EQ(aclrtMemcpy(source, sizeof second, &second, sizeof second, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    aclrtTaskUpdateInfo info{};
    info.id = ACL_RT_UPDATE_RANDOM_TASK;
    info.val.randomTaskAttr.srcAddr = source;
    info.val.randomTaskAttr.size = sizeof second;
    ASSERT_EQ(aclrtTaskUpdateAsync(persistent_, task, &info, exec_), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(exec_), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemset(result, 64, 0, 64), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecute(model_, -1), ACL_SUCCESS) << aclGetRecentErrMsg();

    aclrtRandomNumTaskInfo eager = task_info(expected, 2, 8);
    ASSERT_EQ(aclrtRandomNumAsync(&eager, exec_, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(exec_), ACL_SUCCESS);
    std::vector<float> got(16), want(16);
    ASSERT_EQ(aclrtMemcpy(got.data(), 64, result, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(want.data(), 64, expected, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(got, want) << "the replay made seed 2's eight numbers, as an eager task does";
    EXPECT_EQ(got[8], 0.0f) << "and only eight";
}

TEST_F(TaskUpdateAsync, TheUpdateMustFitTheTask) {
    uint32_t task = 0;
    BuildWriteValue(&task);
    aclrtTaskUpdateInfo random{};
    random.id = ACL_RT_UPDATE_RANDOM_TASK;
    random.val.randomTaskAttr.srcAddr = Device(256);
    random.val.randomTaskAttr.size = 256;
    EXPECT_EQ(aclrtTaskUpdateAsync(persistent_, task, &random, exec_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("not a random-number task");
    aclrtTaskUpdateInfo info = KernelUpdate();
    EXPECT_EQ(aclrtTaskUpdateAsync(persistent_, task + 100, &info, exec_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("is not a task of stream");
    std::vector<uint64_t> host(1);
    info.val.aicAivTaskAttr.funcEntryAddr = host.data();
    EXPECT_EQ(aclrtTaskUpdateAsync(persistent_, task, &info, exec_), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("funcEntryAddr");
}

TEST_F(TaskUpdateAsync, TheTaskStreamMustHoldAModelsTasks) {
    aclrtTaskUpdateInfo info = KernelUpdate();
    EXPECT_EQ(aclrtTaskUpdateAsync(exec_, 0, &info, exec_), ACL_ERROR_RT_STREAM_MODEL);
}

}  // namespace
