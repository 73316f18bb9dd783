// Misuse table, stream control: stopping and aborting work, device task aborts and their
// callbacks, stream and device state callbacks, host function threads, waits with flags, and
// the persistent-task functions.
#include <pthread.h>

#include <cstdint>

#include "misuse_table.h"

TEST(MisuseTable, StreamControlStateCallbacksAndHostFunctionThreads) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtStream destroyed_stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&destroyed_stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(destroyed_stream), ACL_SUCCESS);
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclrtEvent destroyed_event = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&destroyed_event), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyEvent(destroyed_event), ACL_SUCCESS);
    int foreign_object = 0;
    void* foreign = &foreign_object;
    const uint64_t self = static_cast<uint64_t>(pthread_self());
    aclrtDeviceTaskAbortCallback abort_callback = [](int32_t, aclrtDeviceTaskAbortStage, uint32_t,
                                                     void*) -> int32_t { return 0; };
    aclrtStreamStateCallback stream_callback = [](aclrtStream, aclrtStreamState, void*) {};
    aclrtDeviceStateCallback device_callback = [](int32_t, aclrtDeviceState, void*) {};

    aclrtTaskUpdateInfo update{};
    update.id = ACL_RT_UPDATE_AIC_AIV_TASK;
    const std::vector<MisuseRow> rows = {
        {"aclrtStreamStop(NULL)", [] { return aclrtStreamStop(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamStop(destroyed)", [&] { return aclrtStreamStop(destroyed_stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtPersistentTaskClean(NULL)", [] { return aclrtPersistentTaskClean(nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtTaskUpdateAsync(NULL, 0, &info, NULL)",
         [&] { return aclrtTaskUpdateAsync(nullptr, 0, &update, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtTaskUpdateAsync(stream, 0, NULL, NULL)",
         [&] { return aclrtTaskUpdateAsync(destroyed_stream, 0, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtTaskUpdateAsync(destroyed, 0, &info, NULL)",
         [&] { return aclrtTaskUpdateAsync(destroyed_stream, 0, &update, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtPersistentTaskClean(destroyed)",
         [&] { return aclrtPersistentTaskClean(destroyed_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamAbort(destroyed)", [&] { return aclrtStreamAbort(destroyed_stream); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamAbort(foreign)", [&] { return aclrtStreamAbort(foreign); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceTaskAbort(0, 36 minutes + 1 ms)",
         [] { return aclrtDeviceTaskAbort(0, 36u * 60u * 1000u + 1u); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtDeviceTaskAbort(64, 0)", [] { return aclrtDeviceTaskAbort(64, 0); },
         ACL_ERROR_RT_INVALID_DEVICEID},
        {"aclrtSetDeviceTaskAbortCallback(NULL, fn, NULL)",
         [&] { return aclrtSetDeviceTaskAbortCallback(nullptr, abort_callback, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSetDeviceTaskAbortCallback(\"\", fn, NULL)",
         [&] { return aclrtSetDeviceTaskAbortCallback("", abort_callback, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRegStreamStateCallback(NULL, fn, NULL)",
         [&] { return aclrtRegStreamStateCallback(nullptr, stream_callback, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRegStreamStateCallback(\"\", fn, NULL)",
         [&] { return aclrtRegStreamStateCallback("", stream_callback, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRegDeviceStateCallback(NULL, fn, NULL)",
         [&] { return aclrtRegDeviceStateCallback(nullptr, device_callback, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtRegDeviceStateCallback(\"\", fn, NULL)",
         [&] { return aclrtRegDeviceStateCallback("", device_callback, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtSubscribeHostFunc(self, destroyed)",
         [&] { return aclrtSubscribeHostFunc(self, destroyed_stream); }, ACL_ERROR_INVALID_PARAM},
        {"aclrtUnSubscribeHostFunc(self, a stream it does not serve)",
         [&] { return aclrtUnSubscribeHostFunc(self, stream); }, ACL_ERROR_RT_STREAM_NO_CB_REG},
        {"aclrtProcessHostFunc(0)", [] { return aclrtProcessHostFunc(0); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamWaitEventWithFlag(stream, event, 0, flag 2)",
         [&] { return aclrtStreamWaitEventWithFlag(stream, event, 0, 2); },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamWaitEventWithFlag(stream, destroyed, 0, ACL_EVENT_WAIT_DEFAULT)",
         [&] {
             return aclrtStreamWaitEventWithFlag(stream, destroyed_event, 0,
                                                 ACL_EVENT_WAIT_DEFAULT);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclrtStreamWaitEventWithFlag(stream, event, 0, ACL_EVENT_WAIT_EXTERNAL) uncaptured",
         [&] { return aclrtStreamWaitEventWithFlag(stream, event, 0, ACL_EVENT_WAIT_EXTERNAL); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtDestroyEvent(event);
    aclrtDestroyStream(stream);
    aclrtResetDeviceForce(0);
}
