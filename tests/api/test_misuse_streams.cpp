// Misuse table, the asynchronous engine: streams, events, callbacks, host functions and the
// asynchronous copies.
#define ENABLE_DVPP_INTERFACE  // acldvppMalloc and acldvppFree, as CANN guards them
#include <pthread.h>

#include <cstdint>

#include "acl/ops/acl_dvpp.h"
#include "misuse_table.h"

TEST(MisuseTable, StreamsEventsCallbacksAndAsyncCopies) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtStream destroyed_stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&destroyed_stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(destroyed_stream), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
    aclrtEvent destroyed_event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&destroyed_event), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyEvent(destroyed_event), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    void* host = nullptr;
    ASSERT_EQ(aclrtMallocHost(&host, 64), ACL_SUCCESS);
    int foreign_object = 0;
    void* foreign = &foreign_object;
    const uint64_t self = static_cast<uint64_t>(pthread_self());
    const auto kBadKind = static_cast<aclrtMemcpyKind>(99);

    uint32_t u32 = 0;
    int32_t i32 = 0;
    uint64_t u64 = 0;
    float ms = 0;
    aclrtEventStatus status{};
    aclrtEventRecordedStatus recorded{};
    aclrtEventWaitStatus waited{};
    aclrtUuid uuid{};
    aclrtEvent new_event = nullptr;
    void* ptr = nullptr;
    aclrtHostFunc noop_host_func = [](void*) {};
    aclrtCallback noop_callback = [](void*) {};

    const std::vector<MisuseRow> rows = {
        // Streams.
        {"aclrtSetStreamFailureMode(stream, mode 7)",
         [&] { return aclrtSetStreamFailureMode(stream, 7); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSetStreamFailureMode(destroyed, ACL_STOP_ON_FAILURE)",
         [&] { return aclrtSetStreamFailureMode(destroyed_stream, ACL_STOP_ON_FAILURE); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyStreamForce(NULL)", [] { return aclrtDestroyStreamForce(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyStreamForce(destroyed)",
         [&] { return aclrtDestroyStreamForce(destroyed_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamGetPriority(stream, NULL)",
         [&] { return aclrtStreamGetPriority(stream, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamGetPriority(foreign, &priority)",
         [&] { return aclrtStreamGetPriority(foreign, &u32); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamGetFlags(stream, NULL)", [&] { return aclrtStreamGetFlags(stream, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamGetFlags(destroyed, &flags)",
         [&] { return aclrtStreamGetFlags(destroyed_stream, &u32); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetStreamAvailableNum(NULL)", [] { return aclrtGetStreamAvailableNum(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetStreamPriorityRange(NULL, NULL)",
         [] { return aclrtDeviceGetStreamPriorityRange(nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetDeviceSatMode(NULL)", [] { return aclrtGetDeviceSatMode(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceGetUuid(64, &uuid)", [&] { return aclrtDeviceGetUuid(64, &uuid); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtDeviceGetUuid(0, NULL)", [] { return aclrtDeviceGetUuid(0, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetUserDevIdByPhyDevId(64, &id)",
         [&] { return aclrtGetUserDevIdByPhyDevId(64, &i32); }, ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtGetUserDevIdByPhyDevId(0, NULL)",
         [] { return aclrtGetUserDevIdByPhyDevId(0, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSetSysParamOpt(opt 99, 1)",
         [] { return aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(99), 1); },
         ACL_ERROR_INVALID_PARAM},

        // Events.
        {"aclrtCreateEvent(NULL)", [] { return aclrtCreateEvent(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateEventWithFlag(NULL, ACL_EVENT_SYNC)",
         [] { return aclrtCreateEventWithFlag(nullptr, ACL_EVENT_SYNC); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateEventWithFlag(&event, flag 0x80000000)",
         [&] { return aclrtCreateEventWithFlag(&new_event, 0x80000000U); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateEventExWithFlag(NULL, ACL_EVENT_SYNC)",
         [] { return aclrtCreateEventExWithFlag(nullptr, ACL_EVENT_SYNC); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtCreateEventExWithFlag(&event, flag 0x80000000)",
         [&] { return aclrtCreateEventExWithFlag(&new_event, 0x80000000U); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyEvent(NULL)", [] { return aclrtDestroyEvent(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyEvent(destroyed)", [&] { return aclrtDestroyEvent(destroyed_event); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDestroyEvent(foreign)", [&] { return aclrtDestroyEvent(foreign); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRecordEvent(NULL, stream)", [&] { return aclrtRecordEvent(nullptr, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRecordEvent(destroyed, stream)",
         [&] { return aclrtRecordEvent(destroyed_event, stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtRecordEvent(event, destroyed stream)",
         [&] { return aclrtRecordEvent(event, destroyed_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtRecordEventWithFlag(event, stream, flag 9)",
         [&] { return aclrtRecordEventWithFlag(event, stream, 9); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtRecordEventWithFlag(NULL, stream, default)",
         [&] { return aclrtRecordEventWithFlag(nullptr, stream, ACL_EVENT_RECORD_DEFAULT); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtResetEvent(NULL, stream)", [&] { return aclrtResetEvent(nullptr, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtResetEvent(event, destroyed stream)",
         [&] { return aclrtResetEvent(event, destroyed_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtQueryEvent(event, NULL)", [&] { return aclrtQueryEvent(event, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtQueryEvent(destroyed, &status)",
         [&] { return aclrtQueryEvent(destroyed_event, &status); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtQueryEventStatus(event, NULL)",
         [&] { return aclrtQueryEventStatus(event, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtQueryEventStatus(foreign, &status)",
         [&] { return aclrtQueryEventStatus(foreign, &recorded); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtQueryEventWaitStatus(event, NULL)",
         [&] { return aclrtQueryEventWaitStatus(event, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtQueryEventWaitStatus(destroyed, &status)",
         [&] { return aclrtQueryEventWaitStatus(destroyed_event, &waited); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSynchronizeEvent(NULL)", [] { return aclrtSynchronizeEvent(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSynchronizeEvent(destroyed)", [&] { return aclrtSynchronizeEvent(destroyed_event); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSynchronizeEventWithTimeout(event, -5)",
         [&] { return aclrtSynchronizeEventWithTimeout(event, -5); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtSynchronizeEventWithTimeout(NULL, 10)",
         [] { return aclrtSynchronizeEventWithTimeout(nullptr, 10); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtEventElapsedTime(NULL, event, event)",
         [&] { return aclrtEventElapsedTime(nullptr, event, event); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtEventElapsedTime(&ms, destroyed, event)",
         [&] { return aclrtEventElapsedTime(&ms, destroyed_event, event); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtEventGetTimestamp(event, NULL)",
         [&] { return aclrtEventGetTimestamp(event, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtEventGetTimestamp(destroyed, &timestamp)",
         [&] { return aclrtEventGetTimestamp(destroyed_event, &u64); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamWaitEvent(stream, NULL)",
         [&] { return aclrtStreamWaitEvent(stream, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamWaitEvent(destroyed stream, event)",
         [&] { return aclrtStreamWaitEvent(destroyed_stream, event); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtGetEventId(event, NULL)", [&] { return aclrtGetEventId(event, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetEventId(destroyed, &id)", [&] { return aclrtGetEventId(destroyed_event, &u32); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtGetEventAvailNum(NULL)", [] { return aclrtGetEventAvailNum(nullptr); },
         ACL_ERROR_INVALID_PARAM},

        // Callbacks and host functions.
        {"aclrtSubscribeReport(self, destroyed stream)",
         [&] { return aclrtSubscribeReport(self, destroyed_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtUnSubscribeReport(self, stream) never subscribed",
         [&] { return aclrtUnSubscribeReport(self, stream); }, ACL_ERROR_RT_STREAM_NO_CB_REG},
        {"aclrtLaunchCallback(NULL, ..., stream)",
         [&] { return aclrtLaunchCallback(nullptr, nullptr, ACL_CALLBACK_BLOCK, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtLaunchCallback(fn, ..., block type 7, stream)",
         [&] {
             return aclrtLaunchCallback(noop_callback, nullptr,
                                        static_cast<aclrtCallbackBlockType>(7), stream);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtLaunchCallback(fn, ..., stream) without a subscribed thread",
         [&] { return aclrtLaunchCallback(noop_callback, nullptr, ACL_CALLBACK_BLOCK, stream); },
         ACL_ERROR_RT_STREAM_NO_CB_REG},
        {"aclrtProcessReport(-5)", [] { return aclrtProcessReport(-5); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtProcessReport(10) on a thread no stream reports to",
         [] { return aclrtProcessReport(10); }, ACL_ERROR_RT_THREAD_SUBSCRIBE},
        {"aclrtLaunchHostFunc(stream, NULL, NULL)",
         [&] { return aclrtLaunchHostFunc(stream, nullptr, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtLaunchHostFunc(destroyed, fn, NULL)",
         [&] { return aclrtLaunchHostFunc(destroyed_stream, noop_host_func, nullptr); },
         ACL_ERROR_INVALID_PARAM},

        // Asynchronous copies and memory.
        {"aclrtMemcpyAsync(NULL, ...)",
         [&] { return aclrtMemcpyAsync(nullptr, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyAsync(count > destMax)",
         [&] { return aclrtMemcpyAsync(dev, 32, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyAsync(..., kind 99, stream)",
         [&] { return aclrtMemcpyAsync(dev, 64, host, 64, kBadKind, stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyAsync(..., destroyed stream)",
         [&] {
             return aclrtMemcpyAsync(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE,
                                     destroyed_stream);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpyAsyncWithCondition(NULL, ...)",
         [&] {
             return aclrtMemcpyAsyncWithCondition(nullptr, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE,
                                                  stream);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemcpy2dAsync(width > pitch)",
         [&] {
             return aclrtMemcpy2dAsync(dev, 8, host, 8, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE, stream);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMemsetAsync(NULL, ...)",
         [&] { return aclrtMemsetAsync(nullptr, 64, 0, 64, stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMemsetAsync(count > maxCount)",
         [&] { return aclrtMemsetAsync(dev, 32, 0, 64, stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocWithCfg(NULL, 64, ...)",
         [] { return aclrtMallocWithCfg(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtMallocWithCfg(&ptr, 0, ...)",
         [&] { return aclrtMallocWithCfg(&ptr, 0, ACL_MEM_MALLOC_HUGE_FIRST, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFreeWithDevSync(NULL)", [] { return aclrtFreeWithDevSync(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFreeWithDevSync(foreign)", [&] { return aclrtFreeWithDevSync(foreign); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFreeHostWithDevSync(NULL)", [] { return aclrtFreeHostWithDevSync(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtFreeHostWithDevSync(foreign)", [&] { return aclrtFreeHostWithDevSync(foreign); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppMalloc(NULL, 64)", [] { return acldvppMalloc(nullptr, 64); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppMalloc(&ptr, 0)", [&] { return acldvppMalloc(&ptr, 0); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppMallocWithCfg(NULL, 64, ...)",
         [] { return acldvppMallocWithCfg(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"acldvppFree(NULL)", [] { return acldvppFree(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"acldvppFree(foreign)", [&] { return acldvppFree(foreign); }, ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
    aclrtResetDeviceForce(0);
}
