// Events shared between processes: an ACL_EVENT_IPC event's handle (aclrtIpcGetEventHandle)
// opened in another process (aclrtIpcOpenEventHandle) lets that process's streams and host wait
// for the records of the first, and the other way round. The other process is a peer program
// (tests/support/ipc_peer.cpp), spawned and driven over pipes.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <utility>

#include "acl/acl.h"
#include "ipc_peer.h"
#include "test_support.h"

namespace {

using namespace std::chrono_literals;

const std::string kStreamTimedOut = std::to_string(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
const std::string kEventTimedOut = std::to_string(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);

class IpcEvent : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&other_), ACL_SUCCESS);
    }
    void TearDown() override {
        held_ = false;
        aclrtDestroyStreamForce(stream_);
        aclrtDestroyStreamForce(other_);
        DeviceTest::TearDown();
    }
    // An ACL_EVENT_IPC event of this process and its handle.
    aclrtEvent CreateShared(aclrtIpcEventHandle* handle) {
        aclrtEvent event = nullptr;
        EXPECT_EQ(aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC), ACL_SUCCESS) << TakeErrMsg();
        EXPECT_EQ(aclrtIpcGetEventHandle(event, handle), ACL_SUCCESS) << TakeErrMsg();
        return event;
    }
    // The name of an IPC event the peer created ("" when it could not).
    static std::string PeerEvent(IpcPeer& peer) {
        int code = -1;
        const std::string name = peer.AskSecond("evcreate", &code);
        EXPECT_EQ(code, 0);
        return name;
    }
    static aclrtEvent Open(const aclrtIpcEventHandle& handle) {
        aclrtEvent opened = nullptr;
        EXPECT_EQ(aclrtIpcOpenEventHandle(handle, &opened), ACL_SUCCESS) << TakeErrMsg();
        return opened;
    }
    // An IPC event of this process, and the same event opened through its handle.
    std::pair<aclrtEvent, aclrtEvent> CreateAndOpen() {
        aclrtIpcEventHandle handle{};
        aclrtEvent event = CreateShared(&handle);
        return {event, Open(handle)};
    }
    static aclrtIpcEventHandle HandleNamed(const std::string& name) {
        aclrtIpcEventHandle handle{};
        std::snprintf(handle.reserved, sizeof handle.reserved, "%s", name.c_str());
        return handle;
    }
    // Stops `stream` at a host task until Release().
    void Hold(aclrtStream stream) {
        held_ = true;
        ASSERT_EQ(aclrtLaunchHostFunc(
                      stream,
                      [](void* held) {
                          while (static_cast<std::atomic<bool>*>(held)->load())
                              std::this_thread::sleep_for(1ms);
                      },
                      &held_),
                  ACL_SUCCESS);
    }
    void Release() { held_ = false; }
    static aclrtEventRecordedStatus Status(aclrtEvent event) {
        aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
        EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS) << TakeErrMsg();
        return status;
    }

    aclrtStream stream_ = nullptr;
    aclrtStream other_ = nullptr;
    std::atomic<bool> held_{false};
};

}  // namespace

TEST_F(IpcEvent, AStreamOfAnotherProcessWaitsForTheRecord) {
    aclrtIpcEventHandle handle{};
    aclrtEvent event = CreateShared(&handle);
    Hold(stream_);
    ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    ASSERT_EQ(peer.AskCode(std::string("evopen ") + handle.reserved), 0);
    EXPECT_EQ(peer.Ask("evquery"), "0 0") << "the record has not run";
    ASSERT_EQ(peer.AskCode("evwait"), 0);
    EXPECT_EQ(peer.Ask("sync 100"), kStreamTimedOut) << "the peer's stream waits";
    Release();
    EXPECT_EQ(peer.Ask("sync -1"), "0");
    EXPECT_EQ(peer.Ask("evquery"), "0 1");
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(IpcEvent, TheHostOfAnotherProcessSynchronizesWithTheRecord) {
    aclrtIpcEventHandle handle{};
    aclrtEvent event = CreateShared(&handle);
    Hold(stream_);
    ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    ASSERT_EQ(peer.AskCode(std::string("evopen ") + handle.reserved), 0);
    EXPECT_EQ(peer.Ask("evsync 50"), kEventTimedOut);
    Release();
    EXPECT_EQ(peer.Ask("evsync -1"), "0");
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(IpcEvent, ARecordOfAnotherProcessReleasesAStreamHere) {
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    const std::string name = PeerEvent(peer);
    ASSERT_FALSE(name.empty());
    ASSERT_EQ(peer.AskCode("hold"), 0);
    ASSERT_EQ(peer.AskCode("evrecord"), 0);
    aclrtEvent opened = Open(HandleNamed(name));
    ASSERT_NE(opened, nullptr);
    EXPECT_EQ(Status(opened), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, opened), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(peer.AskCode("release"), 0);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(Status(opened), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    EXPECT_EQ(aclrtDestroyEvent(opened), ACL_SUCCESS);
}

TEST_F(IpcEvent, AWaitTakesTheNewestRecordAsOfTheCall) {
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    const std::string name = PeerEvent(peer);
    ASSERT_FALSE(name.empty());
    ASSERT_EQ(peer.AskCode("evrecord"), 0);
    ASSERT_EQ(peer.Ask("sync -1"), "0");
    aclrtEvent opened = Open(HandleNamed(name));
    ASSERT_NE(opened, nullptr);
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, opened), ACL_SUCCESS);  // the first record: it ran
    ASSERT_EQ(peer.AskCode("hold"), 0);
    ASSERT_EQ(peer.AskCode("evrecord"), 0);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 5000), ACL_SUCCESS) << TakeErrMsg();
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, opened), ACL_SUCCESS);  // the second: held
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(peer.AskCode("release"), 0);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(aclrtDestroyEvent(opened), ACL_SUCCESS);
}

TEST_F(IpcEvent, ANeverRecordedEventImposesNothing) {
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    const std::string name = PeerEvent(peer);
    ASSERT_FALSE(name.empty());
    aclrtEvent opened = Open(HandleNamed(name));
    ASSERT_NE(opened, nullptr);
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, opened), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 5000), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(opened, 5000), ACL_SUCCESS);
    EXPECT_EQ(Status(opened), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    EXPECT_EQ(aclrtDestroyEvent(opened), ACL_SUCCESS);
}

TEST_F(IpcEvent, AWaitForARecordWhoseProcessEndedFailsInsteadOfHanging) {
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    const int peer_pid = peer.pid();
    const std::string name = PeerEvent(peer);
    ASSERT_FALSE(name.empty());
    ASSERT_EQ(peer.AskCode("hold"), 0);
    ASSERT_EQ(peer.AskCode("evrecord"), 0);
    aclrtEvent opened = Open(HandleNamed(name));
    ASSERT_NE(opened, nullptr);
    ASSERT_EQ(aclrtStreamWaitEvent(stream_, opened), ACL_SUCCESS);
    peer.Kill();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    EXPECT_EQ(aclrtSynchronizeEvent(opened), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    EXPECT_THAT_MESSAGE_CONTAINS("process " + std::to_string(peer_pid));
    EXPECT_EQ(aclrtDestroyEvent(opened), ACL_SUCCESS);
}

TEST_F(IpcEvent, TheHandleOfADestroyedEventIsRefused) {
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    const std::string name = PeerEvent(peer);
    ASSERT_FALSE(name.empty());
    ASSERT_EQ(peer.AskCode("evdestroy"), 0);
    aclrtEvent opened = nullptr;
    EXPECT_EQ(aclrtIpcOpenEventHandle(HandleNamed(name), &opened), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    EXPECT_THAT_MESSAGE_CONTAINS(name);
}

TEST_F(IpcEvent, AnOpenedEventStaysUsableAfterItsCreatorDestroysIt) {
    auto [event, opened] = CreateAndOpen();
    ASSERT_NE(opened, nullptr);
    Hold(stream_);
    ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(other_, opened), ACL_SUCCESS);
    EXPECT_EQ(Status(opened), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    Release();
    EXPECT_EQ(aclrtSynchronizeStream(other_), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(Status(opened), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    EXPECT_EQ(aclrtDestroyEvent(opened), ACL_SUCCESS);
}

TEST_F(IpcEvent, RecordsThroughEitherHandleAreSeenThroughTheOther) {
    auto [event, opened] = CreateAndOpen();
    ASSERT_NE(opened, nullptr);
    Hold(stream_);
    ASSERT_EQ(aclrtRecordEvent(opened, stream_), ACL_SUCCESS);
    EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    Release();
    EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(Status(opened), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    EXPECT_EQ(aclrtDestroyEvent(opened), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(IpcEvent, AWaitWithATimeoutFailsItsStreamWhenTheRecordDoesNotRun) {
    auto [event, opened] = CreateAndOpen();
    ASSERT_NE(opened, nullptr);
    Hold(stream_);
    ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEventWithTimeout(other_, opened, 1), ACL_SUCCESS);  // 1 s
    EXPECT_EQ(aclrtSynchronizeStream(other_), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    Release();
    EXPECT_EQ(aclrtDestroyEvent(opened), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(IpcEvent, ACaptureCannotHoldAnIpcEvent) {
    aclrtIpcEventHandle handle{};
    aclrtEvent event = CreateShared(&handle);
    ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    EXPECT_EQ(aclrtRecordEvent(event, stream_), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_THAT_MESSAGE_CONTAINS("capture");
    EXPECT_EQ(aclrtStreamWaitEvent(stream_, event), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    if (model != nullptr) aclmdlRIDestroy(model);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(IpcEvent, TheHandleIsTheSameEveryTimeItIsAsked) {
    aclrtIpcEventHandle first{};
    aclrtEvent event = CreateShared(&first);
    aclrtIpcEventHandle second{};
    ASSERT_EQ(aclrtIpcGetEventHandle(event, &second), ACL_SUCCESS);
    EXPECT_STREQ(first.reserved, second.reserved);
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}
