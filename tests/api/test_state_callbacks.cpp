// Stream and device state callbacks: aclrtRegStreamStateCallback (a stream was created, or is
// about to be destroyed: explicit and default streams alike) and aclrtRegDeviceStateCallback
// (before and after aclrtSetDevice; before and after the reset that releases a device).
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "test_support.h"

namespace {

struct StreamEvent {
    aclrtStream stream;
    aclrtStreamState state;
};
struct DeviceEvent {
    int32_t device;
    aclrtDeviceState state;
};

// What the callbacks saw, in order; `tag` tells registrations apart.
struct Seen {
    std::mutex mutex;
    std::vector<StreamEvent> streams;
    std::vector<DeviceEvent> devices;
    std::string tag;
    std::vector<std::string>* order = nullptr;  // shared by registrations, when set
    std::vector<StreamEvent> Streams() {
        std::lock_guard lock(mutex);
        return streams;
    }
    std::vector<DeviceEvent> Devices() {
        std::lock_guard lock(mutex);
        return devices;
    }
    size_t Count(aclrtStream stream, aclrtStreamState state) {
        std::lock_guard lock(mutex);
        return std::count_if(streams.begin(), streams.end(), [&](const StreamEvent& e) {
            return e.stream == stream && e.state == state;
        });
    }
};

void OnStream(aclrtStream stream, aclrtStreamState state, void* args) {
    auto* seen = static_cast<Seen*>(args);
    std::lock_guard lock(seen->mutex);
    seen->streams.push_back({stream, state});
    if (seen->order != nullptr) seen->order->push_back(seen->tag);
}

void OnDevice(int32_t device, aclrtDeviceState state, void* args) {
    auto* seen = static_cast<Seen*>(args);
    std::lock_guard lock(seen->mutex);
    seen->devices.push_back({device, state});
}

// Registrations live for one test: the registry is process-wide.
class ScopedStreamCallback {
 public:
    ScopedStreamCallback(const char* name, Seen* seen, aclrtStreamStateCallback fn = OnStream)
        : name_(name) {
        EXPECT_EQ(aclrtRegStreamStateCallback(name, fn, seen), ACL_SUCCESS);
    }
    ~ScopedStreamCallback() { aclrtRegStreamStateCallback(name_.c_str(), nullptr, nullptr); }

 private:
    std::string name_;
};
class ScopedDeviceCallback {
 public:
    ScopedDeviceCallback(const char* name, Seen* seen) : name_(name) {
        EXPECT_EQ(aclrtRegDeviceStateCallback(name, OnDevice, seen), ACL_SUCCESS);
    }
    ~ScopedDeviceCallback() { aclrtRegDeviceStateCallback(name_.c_str(), nullptr, nullptr); }

 private:
    std::string name_;
};

class StateCallbacks : public DeviceTest {};

// Tests that set and reset the device themselves.
class DeviceStateCallbacks : public ::testing::Test {
 protected:
    void TearDown() override {
        aclrtResetDeviceForce(0);
        aclGetRecentErrMsg();
    }
};

}  // namespace

TEST_F(StateCallbacks, AStreamCallbackSeesCreatePostAndDestroyPreOfAnExplicitStream) {
    Seen seen;
    ScopedStreamCallback registered("test-streams", &seen);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(seen.Streams().size(), 1u);
    EXPECT_EQ(seen.Streams()[0].stream, stream);
    EXPECT_EQ(seen.Streams()[0].state, ACL_RT_STREAM_STATE_CREATE_POST);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    ASSERT_EQ(seen.Streams().size(), 2u);
    EXPECT_EQ(seen.Streams()[1].stream, stream);
    EXPECT_EQ(seen.Streams()[1].state, ACL_RT_STREAM_STATE_DESTROY_PRE);
}

TEST_F(StateCallbacks, EveryWayOfCreatingAndDestroyingAStreamNotifies) {
    Seen seen;
    ScopedStreamCallback registered("test-streams", &seen);
    aclrtStream with_config = nullptr, v2 = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&with_config, 2, ACL_STREAM_FAST_LAUNCH), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStreamV2(&v2, nullptr), ACL_SUCCESS);
    EXPECT_EQ(seen.Count(with_config, ACL_RT_STREAM_STATE_CREATE_POST), 1u);
    EXPECT_EQ(seen.Count(v2, ACL_RT_STREAM_STATE_CREATE_POST), 1u);
    ASSERT_EQ(aclrtDestroyStreamForce(with_config), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(v2), ACL_SUCCESS);
    EXPECT_EQ(seen.Count(with_config, ACL_RT_STREAM_STATE_DESTROY_PRE), 1u);
    EXPECT_EQ(seen.Count(v2, ACL_RT_STREAM_STATE_DESTROY_PRE), 1u);
}

TEST_F(StateCallbacks, ARefusedCreateOrDestroyNotifiesNothing) {
    Seen seen;
    ScopedStreamCallback registered("test-streams", &seen);
    aclrtStream stream = nullptr;
    EXPECT_EQ(aclrtCreateStreamWithConfig(&stream, 99, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);
    aclGetRecentErrMsg();
    EXPECT_TRUE(seen.Streams().empty());
}

TEST_F(StateCallbacks, AnExplicitContextsDefaultStreamNotifiesToo) {
    Seen seen;
    ScopedStreamCallback registered("test-streams", &seen);
    aclrtContext previous = nullptr, context = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&previous), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    aclrtStream default_stream = nullptr, explicit_stream = nullptr;
    ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&default_stream), ACL_SUCCESS);
    EXPECT_EQ(seen.Count(default_stream, ACL_RT_STREAM_STATE_CREATE_POST), 1u);
    ASSERT_EQ(aclrtCreateStream(&explicit_stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
    EXPECT_EQ(seen.Count(default_stream, ACL_RT_STREAM_STATE_DESTROY_PRE), 1u);
    EXPECT_EQ(seen.Count(explicit_stream, ACL_RT_STREAM_STATE_DESTROY_PRE), 1u)
        << "the streams a context takes with it are announced too";
    ASSERT_EQ(aclrtSetCurrentContext(previous), ACL_SUCCESS);
}

TEST_F(StateCallbacks, CallbacksRunInNameOrderAndEachGetsItsArgs) {
    std::vector<std::string> order;  // written on this thread only
    Seen first, second;
    first.tag = "a";
    second.tag = "b";
    first.order = second.order = &order;
    ScopedStreamCallback b("test-b", &second);
    ScopedStreamCallback a("test-a", &first);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(first.Streams().size(), 2u);
    EXPECT_EQ(second.Streams().size(), 2u);
    EXPECT_EQ(order, (std::vector<std::string>{"a", "b", "a", "b"}));
}

TEST_F(StateCallbacks, ACallbackMayCallTheRuntime) {
    static int32_t seen_id = -1;
    ScopedStreamCallback registered("test-calls-back", nullptr,
                                    [](aclrtStream stream, aclrtStreamState state, void*) {
                                        if (state == ACL_RT_STREAM_STATE_CREATE_POST)
                                            aclrtStreamGetId(stream, &seen_id);
                                    });
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    int32_t id = -2;
    ASSERT_EQ(aclrtStreamGetId(stream, &id), ACL_SUCCESS);
    EXPECT_EQ(seen_id, id);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(StateCallbacks, AnUnregisteredCallbackIsNoLongerCalled) {
    Seen seen;
    ASSERT_EQ(aclrtRegStreamStateCallback("test-streams", OnStream, &seen), ACL_SUCCESS);
    ASSERT_EQ(aclrtRegStreamStateCallback("test-streams", nullptr, nullptr), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_TRUE(seen.Streams().empty());
}

TEST(StateCallbackRegistration, NamesMustBeGivenAndUnique) {
    Seen seen;
    EXPECT_EQ(aclrtRegStreamStateCallback(nullptr, OnStream, &seen), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("regName is null");
    EXPECT_EQ(aclrtRegDeviceStateCallback(nullptr, OnDevice, &seen), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("regName is null");
    EXPECT_EQ(aclrtRegStreamStateCallback("", OnStream, &seen), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("regName is empty");
    EXPECT_EQ(aclrtRegDeviceStateCallback("", OnDevice, &seen), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT_MESSAGE_CONTAINS("regName is empty");
    {
        ScopedStreamCallback stream_one("test-taken", &seen);
        ScopedDeviceCallback device_one("test-taken", &seen);  // a separate registry
        EXPECT_EQ(aclrtRegStreamStateCallback("test-taken", OnStream, &seen),
                  ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_THAT_MESSAGE_CONTAINS("already registered as \"test-taken\"");
        EXPECT_EQ(aclrtRegDeviceStateCallback("test-taken", OnDevice, &seen),
                  ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_THAT_MESSAGE_CONTAINS("already registered");
    }
    EXPECT_EQ(aclrtRegStreamStateCallback("test-never", nullptr, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtRegDeviceStateCallback("test-never", nullptr, nullptr), ACL_SUCCESS);
}

TEST_F(DeviceStateCallbacks, EverySetNotifiesBeforeAndAfterAndOnlyTheReleasingResetNotifies) {
    Seen seen;
    ScopedDeviceCallback registered("test-devices", &seen);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    auto devices = seen.Devices();
    ASSERT_EQ(devices.size(), 4u);
    EXPECT_EQ(devices[0].state, ACL_RT_DEVICE_STATE_SET_PRE);
    EXPECT_EQ(devices[1].state, ACL_RT_DEVICE_STATE_SET_POST);
    EXPECT_EQ(devices[2].state, ACL_RT_DEVICE_STATE_SET_PRE);
    EXPECT_EQ(devices[3].state, ACL_RT_DEVICE_STATE_SET_POST);
    for (const DeviceEvent& e : devices)
        EXPECT_EQ(e.device, 0);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(seen.Devices().size(), 4u) << "a reset that leaves the device in use is no change";
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    devices = seen.Devices();
    ASSERT_EQ(devices.size(), 6u);
    EXPECT_EQ(devices[4].state, ACL_RT_DEVICE_STATE_RESET_PRE);
    EXPECT_EQ(devices[5].state, ACL_RT_DEVICE_STATE_RESET_POST);
}

TEST_F(DeviceStateCallbacks, AForcedResetNotifiesAndAFailedSetOnlyNotifiesBefore) {
    Seen seen;
    ScopedDeviceCallback registered("test-devices", &seen);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
    auto devices = seen.Devices();
    ASSERT_EQ(devices.size(), 6u);
    EXPECT_EQ(devices[4].state, ACL_RT_DEVICE_STATE_RESET_PRE);
    EXPECT_EQ(devices[5].state, ACL_RT_DEVICE_STATE_RESET_POST);
    EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(seen.Devices().size(), 6u) << "a refused reset changes nothing";
    EXPECT_EQ(aclrtSetDevice(100000), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_EQ(seen.Devices().size(), 6u) << "a device that does not exist has no state";
    aclGetRecentErrMsg();
}

TEST_F(DeviceStateCallbacks, TheDefaultStreamComesWithTheFirstSetAndGoesWithTheRelease) {
    Seen seen;
    ScopedStreamCallback streams("test-streams", &seen);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream default_stream = nullptr;
    ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&default_stream), ACL_SUCCESS);
    EXPECT_EQ(seen.Count(default_stream, ACL_RT_STREAM_STATE_CREATE_POST), 1u);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(seen.Count(default_stream, ACL_RT_STREAM_STATE_CREATE_POST), 1u)
        << "a second set reuses the default stream";
    aclrtStream left_over = nullptr;
    ASSERT_EQ(aclrtCreateStream(&left_over), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
    EXPECT_EQ(seen.Count(default_stream, ACL_RT_STREAM_STATE_DESTROY_PRE), 1u);
    EXPECT_EQ(seen.Count(left_over, ACL_RT_STREAM_STATE_DESTROY_PRE), 1u);
}
