// Misuse table, batch copies (aclrtMemcpyBatch[V2], aclrtMemcpyBatchAsync[V2]).
#include <cstdint>

#include "misuse_table.h"

TEST(MisuseTable, BatchCopies) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    char host[64] = {};
    void* dsts[1] = {dev};
    void* srcs[1] = {host};
    size_t maxes[1] = {64}, sizes[1] = {64}, first[1] = {0}, fail = 0;
    aclrtMemcpyBatchAttr attr{};
    attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
    int not_a_stream = 0;

    const std::vector<MisuseRow> rows = {
        {"aclrtMemcpyBatch(NULL dsts)",
         [&] { return aclrtMemcpyBatch(nullptr, maxes, srcs, sizes, 1, &attr, first, 1, &fail); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyBatch(NULL failIndex)",
         [&] { return aclrtMemcpyBatch(dsts, maxes, srcs, sizes, 1, &attr, first, 1, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyBatch(numBatches 0)",
         [&] { return aclrtMemcpyBatch(dsts, maxes, srcs, sizes, 0, &attr, first, 1, &fail); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyBatchV2(NULL attrs)",
         [&] { return aclrtMemcpyBatchV2(dsts, maxes, srcs, sizes, 1, nullptr, first, 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyBatchV2(numAttrs 2 > numBatches 1)",
         [&] { return aclrtMemcpyBatchV2(dsts, maxes, srcs, sizes, 1, &attr, first, 2); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyBatchAsync(NULL failIndex)",
         [&] {
             return aclrtMemcpyBatchAsync(dsts, maxes, srcs, sizes, 1, &attr, first, 1, nullptr,
                                          nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyBatchAsync(not a stream)",
         [&] {
             return aclrtMemcpyBatchAsync(dsts, maxes, srcs, sizes, 1, &attr, first, 1, &fail,
                                          &not_a_stream);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyBatchAsyncV2(numAttrs 0)",
         [&] {
             return aclrtMemcpyBatchAsyncV2(dsts, maxes, srcs, sizes, 1, &attr, first, 0, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtFree(dev);
    aclrtResetDeviceForce(0);
}
