// Misuse table, aclrtReduceAsync / aclrtRandomNumAsync.
#include <cstring>
#include <vector>

#include "misuse_table.h"

namespace {

aclrtRandomParaInfo FloatValue(float v) {
    aclrtRandomParaInfo p{};
    std::memcpy(p.valueOrAddr, &v, 4);
    p.size = 4;
    return p;
}

aclrtRandomParaInfo CountValue(uint64_t v) {
    aclrtRandomParaInfo p{};
    std::memcpy(p.valueOrAddr, &v, 8);
    p.size = 8;
    return p;
}

}  // namespace

TEST(MisuseTable, ReduceAsync) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    char* bytes = static_cast<char*>(dev);
    std::vector<float> host(16);
    int not_a_stream = 0, reserve = 0;
    const auto sum = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
    const std::vector<MisuseRow> rows = {
        {"aclrtReduceAsync(NULL dst)",
         [&] { return aclrtReduceAsync(nullptr, dev, 16, sum, ACL_FLOAT, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReduceAsync(NULL src)",
         [&] { return aclrtReduceAsync(dev, nullptr, 16, sum, ACL_FLOAT, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReduceAsync(reserve not NULL)",
         [&] { return aclrtReduceAsync(dev, dev, 16, sum, ACL_FLOAT, nullptr, &reserve); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReduceAsync(kind 9)",
         [&] {
             return aclrtReduceAsync(dev, dev, 16, static_cast<aclrtReduceKind>(9), ACL_FLOAT,
                                     nullptr, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReduceAsync(type ACL_DOUBLE)",
         [&] { return aclrtReduceAsync(dev, dev, 16, sum, ACL_DOUBLE, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReduceAsync(not a stream)",
         [&] { return aclrtReduceAsync(dev, dev, 16, sum, ACL_FLOAT, &not_a_stream, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReduceAsync(kind EQUAL)",
         [&] {
             return aclrtReduceAsync(dev, dev, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT,
                                     nullptr, nullptr);
         },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtReduceAsync(type ACL_UINT32 on Atlas A2)",
         [&] { return aclrtReduceAsync(dev, dev, 16, sum, ACL_UINT32, nullptr, nullptr); },
         ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
        {"aclrtReduceAsync(float dst not 4-byte aligned)",
         [&] { return aclrtReduceAsync(bytes + 2, dev, 8, sum, ACL_FLOAT, nullptr, nullptr); },
         ACL_ERROR_RT_ADDR_UNALIGNED},
        {"aclrtReduceAsync(count splits an element)",
         [&] { return aclrtReduceAsync(dev, dev, 6, sum, ACL_FLOAT, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReduceAsync(host dst)",
         [&] { return aclrtReduceAsync(host.data(), dev, 16, sum, ACL_FLOAT, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtReduceAsync(count past the allocation)",
         [&] { return aclrtReduceAsync(dev, dev, 4096, sum, ACL_FLOAT, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtFree(dev);
    aclrtResetDeviceForce(0);
}

TEST(MisuseTable, RandomNumAsync) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* result = nullptr;
    void* counter = nullptr;
    ASSERT_EQ(aclrtMalloc(&result, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&counter, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<uint8_t> host(64);
    int not_a_stream = 0, reserve = 0;
    aclrtRandomNumTaskInfo good{};
    good.dataType = ACL_FLOAT;
    good.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
    good.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = FloatValue(0.0f);
    good.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = FloatValue(1.0f);
    good.randomResultAddr = result;
    good.randomCounterAddr = counter;
    good.randomSeed = CountValue(1);
    good.randomNum = CountValue(4);
    // A copy of the good description with one change.
    const auto with = [&](auto change) {
        aclrtRandomNumTaskInfo t = good;
        change(t);
        return aclrtRandomNumAsync(&t, nullptr, nullptr);
    };
    const std::vector<MisuseRow> rows = {
        {"aclrtRandomNumAsync(NULL taskInfo)",
         [&] { return aclrtRandomNumAsync(nullptr, nullptr, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtRandomNumAsync(reserve not NULL)",
         [&] { return aclrtRandomNumAsync(&good, nullptr, &reserve); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtRandomNumAsync(dataType ACL_DOUBLE)",
         [&] { return with([](aclrtRandomNumTaskInfo& t) { t.dataType = ACL_DOUBLE; }); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRandomNumAsync(not a stream)",
         [&] { return aclrtRandomNumAsync(&good, &not_a_stream, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRandomNumAsync(funcType 4)",
         [&] {
             return with([](aclrtRandomNumTaskInfo& t) {
                 t.randomNumFuncParaInfo.funcType = static_cast<aclrtRandomNumFuncType>(4);
             });
         },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtRandomNumAsync(normal numbers of ACL_INT32)",
         [&] {
             return with([](aclrtRandomNumTaskInfo& t) {
                 t.dataType = ACL_INT32;
                 t.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS;
             });
         },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtRandomNumAsync(NULL randomCounterAddr)",
         [&] { return with([](aclrtRandomNumTaskInfo& t) { t.randomCounterAddr = nullptr; }); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtRandomNumAsync(NULL randomResultAddr)",
         [&] { return with([](aclrtRandomNumTaskInfo& t) { t.randomResultAddr = nullptr; }); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtRandomNumAsync(randomSeed.isAddr 2)",
         [&] { return with([](aclrtRandomNumTaskInfo& t) { t.randomSeed.isAddr = 2; }); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtRandomNumAsync(randomNum.size 0)",
         [&] { return with([](aclrtRandomNumTaskInfo& t) { t.randomNum.size = 0; }); },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtRandomNumAsync(float min of 8 bytes)",
         [&] {
             return with([](aclrtRandomNumTaskInfo& t) {
                 t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min.size = 8;
             });
         },
         ACL_ERROR_RT_PARAM_INVALID},
        {"aclrtRandomNumAsync(host counter)",
         [&] {
             return with([&](aclrtRandomNumTaskInfo& t) { t.randomCounterAddr = host.data(); });
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRandomNumAsync(result too small)",
         [&] { return with([](aclrtRandomNumTaskInfo& t) { t.randomNum = CountValue(1000); }); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtFree(result);
    aclrtFree(counter);
    aclrtResetDeviceForce(0);
}
