// Notifies shared between processes: a notify exported with aclrtNotifyGetExportKey and imported
// in another process with aclrtNotifyImportByKey is one flag: a record in either process releases
// one wait in either. The allow-list of aclrtNotifySetImportPid decides who may import. The other
// process is a peer program (tests/support/ipc_peer.cpp), spawned and driven over pipes.
#include <gtest/gtest.h>

#include <string>

#include "acl/acl.h"
#include "ipc_peer.h"
#include "test_support.h"

namespace {

const std::string kStreamTimedOut = std::to_string(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
const std::string kRefused = std::to_string(ACL_ERROR_RT_DRV_INTERNAL_ERROR);

class IpcNotify : public DeviceTest {
 protected:
    void SetUp() override {
        DeviceTest::SetUp();
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateNotify(&notify_, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtDestroyStreamForce(stream_);
        aclrtDestroyNotify(notify_);
        DeviceTest::TearDown();
    }
    std::string Export(uint64_t flags) {
        char key[65] = {};
        EXPECT_EQ(aclrtNotifyGetExportKey(notify_, key, sizeof key, flags), ACL_SUCCESS)
            << TakeErrMsg();
        return key;
    }

    aclrtStream stream_ = nullptr;
    aclrtNotify notify_ = nullptr;
};

}  // namespace

TEST_F(IpcNotify, ARecordInAnotherProcessReleasesAWaitHere) {
    const std::string key = Export(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    ASSERT_EQ(aclrtWaitAndResetNotify(notify_, stream_, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        << "nothing recorded yet";
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    ASSERT_EQ(peer.AskCode("ntimport " + key), 0);
    ASSERT_EQ(peer.AskCode("ntrecord"), 0);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 10000), ACL_SUCCESS) << TakeErrMsg();
}

TEST_F(IpcNotify, ARecordHereReleasesAWaitInAnotherProcess) {
    const std::string key = Export(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    ASSERT_EQ(peer.AskCode("ntimport " + key), 0);
    ASSERT_EQ(peer.AskCode("ntwait 0"), 0);
    EXPECT_EQ(peer.Ask("sync 100"), kStreamTimedOut) << "nothing recorded yet";
    ASSERT_EQ(aclrtRecordNotify(notify_, stream_), ACL_SUCCESS);
    EXPECT_EQ(peer.Ask("sync 10000"), "0");
}

TEST_F(IpcNotify, EachRecordReleasesOneWaitWhicheverProcessMadeIt) {
    const std::string key = Export(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    ASSERT_EQ(peer.AskCode("ntimport " + key), 0);
    ASSERT_EQ(aclrtRecordNotify(notify_, stream_), ACL_SUCCESS);  // set before any wait
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(peer.AskCode("ntwait 0"), 0);
    EXPECT_EQ(peer.Ask("sync 10000"), "0") << "the flag set here releases the peer's wait";
    ASSERT_EQ(peer.AskCode("ntwait 0"), 0);
    EXPECT_EQ(peer.Ask("sync 100"), kStreamTimedOut) << "that wait reset the flag";
    ASSERT_EQ(aclrtRecordNotify(notify_, stream_), ACL_SUCCESS);
    EXPECT_EQ(peer.Ask("sync 10000"), "0") << "a second record releases the second wait";
    ASSERT_EQ(peer.AskCode("ntrecord"), 0);
    ASSERT_EQ(peer.Ask("sync 10000"), "0");
    ASSERT_EQ(aclrtWaitAndResetNotify(notify_, stream_, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 10000), ACL_SUCCESS)
        << "the peer's record releases a wait here";
}

TEST_F(IpcNotify, AProcessNotOnTheAllowListCannotImport) {
    const std::string key = Export(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT);
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    EXPECT_EQ(peer.Ask("ntimport " + key), kRefused);
    int32_t pid = peer.pid();
    ASSERT_EQ(aclrtNotifySetImportPid(notify_, &pid, 1), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(peer.AskCode("ntimport " + key), 0);
}

TEST_F(IpcNotify, TheKeyOfADestroyedNotifyIsRefused) {
    IpcPeer peer;
    ASSERT_TRUE(peer.running());
    int code = -1;
    const std::string key = peer.AskSecond(
        "ntcreate " + std::to_string(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION), &code);
    ASSERT_EQ(code, 0);
    ASSERT_EQ(peer.AskCode("ntdestroy"), 0);
    aclrtNotify imported = nullptr;
    EXPECT_EQ(aclrtNotifyImportByKey(&imported, key.c_str(), 0), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    EXPECT_THAT_MESSAGE_CONTAINS(key);
}

TEST_F(IpcNotify, AWaitParkedBeforeTheExportIsReleasedByARecordAfterIt) {
    ASSERT_EQ(aclrtWaitAndResetNotify(notify_, stream_, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    const std::string key = Export(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    aclrtNotify imported = nullptr;
    ASSERT_EQ(aclrtNotifyImportByKey(&imported, key.c_str(), 0), ACL_SUCCESS) << TakeErrMsg();
    aclrtStream recorder = nullptr;
    ASSERT_EQ(aclrtCreateStream(&recorder), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordNotify(imported, recorder), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 10000), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(aclrtDestroyStream(recorder), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyNotify(imported), ACL_SUCCESS);
}

TEST_F(IpcNotify, AWaitWithATimeoutFailsWhenNoProcessRecords) {
    const std::string key = Export(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    aclrtNotify imported = nullptr;
    ASSERT_EQ(aclrtNotifyImportByKey(&imported, key.c_str(), 0), ACL_SUCCESS) << TakeErrMsg();
    ASSERT_EQ(aclrtWaitAndResetNotify(imported, stream_, 1), ACL_SUCCESS);  // 1 s
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_TASK_TIMEOUT);
    EXPECT_EQ(aclrtDestroyNotify(imported), ACL_SUCCESS);
}

TEST_F(IpcNotify, ExportingTwiceGivesTheSameKey) {
    const std::string first = Export(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT);
    const std::string second = Export(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT);
    EXPECT_EQ(first, second);
}
