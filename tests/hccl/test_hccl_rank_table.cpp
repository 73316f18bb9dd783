// HcclCommInitClusterInfo[Config]: rank tables in CANN's templates (and looser), joined by
// threads of this process and by hccl_rank_main processes, and the files it must refuse.
// Rank 0 listens on 127.0.0.1 at HCCL_IF_BASE_PORT, a port free when the test starts.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "hccl_process.h"
#include "hccl_test_support.h"

namespace {

using hccl_test::Child;
using hccl_test::RankMain;
using hccl_test::RecentError;

// A port nothing listens on now (the system's pick for a moment).
uint16_t FreePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof a;
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &size);
    ::close(fd);
    return ntohs(a.sin_port);
}

// Template 1: `n` ranks, rank r on device r of one server at 127.0.0.1.
std::string Template1(uint32_t n) {
    std::string devices;
    for (uint32_t r = 0; r < n; ++r) {
        devices += std::string(r ? ", " : "") + "{\"device_id\": \"" + std::to_string(r) +
                   "\", \"device_ip\": \"192.168.100." + std::to_string(r + 1) +
                   "\", \"rank_id\": \"" + std::to_string(r) + "\"}";
    }
    return "{\"status\": \"completed\", \"version\": \"1.0\", \"server_count\": \"1\", "
           "\"server_list\": [{\"server_id\": \"127.0.0.1\", \"device\": [" +
           devices + "]}]}";
}

class HcclRankTableTest : public hccl_test::HcclTest {
 protected:
    void SetUp() override {
        HcclTest::SetUp();
        char dir[] = "/tmp/openacl_ranktable_XXXXXX";
        ASSERT_NE(mkdtemp(dir), nullptr);
        dir_ = dir;
        setenv("HCCL_IF_BASE_PORT", std::to_string(FreePort()).c_str(), 1);
        setenv("HCCL_CONNECT_TIMEOUT", "10", 1);
    }
    void TearDown() override {
        HcclTest::TearDown();
        for (const std::string& f : files_)
            std::remove(f.c_str());
        rmdir(dir_.c_str());
        unsetenv("HCCL_IF_BASE_PORT");
        unsetenv("HCCL_CONNECT_TIMEOUT");
    }

    std::string Write(const std::string& name, const std::string& text) {
        const std::string path = dir_ + "/" + name;
        std::ofstream(path) << text;
        files_.push_back(path);
        return path;
    }

    // Joins as `rank` on device `rank` in this thread: the HcclResult.
    static HcclResult Init(const std::string& path, uint32_t rank, HcclComm* comm) {
        if (aclrtSetDevice(static_cast<int32_t>(rank)) != ACL_SUCCESS) return HCCL_E_RUNTIME;
        return HcclCommInitClusterInfo(path.c_str(), rank, comm);
    }

    // One AllReduce of rank + 1 on `comm`; the sum.
    static int32_t SumRanks(HcclComm comm, uint32_t rank) {
        aclrtStream stream = nullptr;
        EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
        void* buf = nullptr;
        EXPECT_EQ(aclrtMalloc(&buf, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        int32_t value = static_cast<int32_t>(rank + 1);
        aclrtMemcpy(buf, 4, &value, 4, ACL_MEMCPY_HOST_TO_DEVICE);
        EXPECT_EQ(HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, comm, stream),
                  HCCL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
        aclrtMemcpy(&value, 4, buf, 4, ACL_MEMCPY_DEVICE_TO_HOST);
        aclrtFree(buf);
        aclrtDestroyStream(stream);
        return value;
    }

    std::string dir_;
    std::vector<std::string> files_;
};

TEST_F(HcclRankTableTest, ThreadsOfOneProcessJoinThroughOneTable) {
    const std::string path = Write("table.json", Template1(2));
    std::vector<std::thread> threads;
    for (uint32_t r = 0; r < 2; ++r) {
        threads.emplace_back([&, r] {
            HcclComm comm = nullptr;
            ASSERT_EQ(Init(path, r, &comm), HCCL_SUCCESS) << RecentError();
            uint32_t size = 0;
            EXPECT_EQ(HcclGetRankSize(comm, &size), HCCL_SUCCESS);
            EXPECT_EQ(size, 2u);
            EXPECT_EQ(SumRanks(comm, r), 3);
            char name[COMM_NAME_MAX_LENGTH] = {};
            EXPECT_EQ(HcclGetCommName(comm, name), HCCL_SUCCESS);
            EXPECT_STREQ(name, "hccl_world_group");
            EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
        });
    }
    for (std::thread& t : threads)
        t.join();
}

TEST_F(HcclRankTableTest, TwoProcessesJoinThroughOneTable) {
    const std::string path = Write("table.json", Template1(2));
    Child child;  // rank 1 starts first: it waits for rank 0 to listen
    ASSERT_TRUE(child.Start({RankMain(), "table", "1", path})) << child.error();
    child.CloseIn();
    HcclComm comm = nullptr;
    ASSERT_EQ(Init(path, 0, &comm), HCCL_SUCCESS) << RecentError();
    EXPECT_EQ(SumRanks(comm, 0), 3);
    EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
    EXPECT_EQ(child.Wait(20000), 0) << "rank 1 (see its stderr)";
}

TEST_F(HcclRankTableTest, LooserTablesAreRead) {
    // Template 2 with numbers for strings and no status; version 1.2 with host_ip and a
    // super-pod list; one rank each (it forms alone).
    const std::string legacy = Write(
        "legacy.json",
        "{\"group_count\": 1, \"group_list\": [{\"group_name\": \"g\", \"instance_count\": 1, "
        "\"device_count\": 1, \"instance_list\": [{\"pod_name\": \"p\", \"server_id\": "
        "\"127.0.0.1\", \"devices\": [{\"device_id\": 0, \"device_ip\": \"\"}]}]}]}");
    const std::string v12 =
        Write("v12.json",
              "{\"status\": \"completed\", \"version\": \"1.2\", \"server_list\": [{\"server_id\": "
              "\"node_0\", \"host_ip\": \"127.0.0.1\", \"host_nic_ip\": \"reserve\", \"device\": "
              "[{\"device_id\": \"0\", \"super_device_id\": \"0\", \"device_ip\": \"192.168.1.8\", "
              "\"rank_id\": \"0\"}]}], \"super_pod_list\": [{\"super_pod_id\": \"0\", "
              "\"server_list\": [{\"server_id\": \"node_0\"}]}]}");
    for (const std::string& path : {legacy, v12}) {
        HcclComm comm = nullptr;
        ASSERT_EQ(Init(path, 0, &comm), HCCL_SUCCESS) << path << ": " << RecentError();
        EXPECT_EQ(SumRanks(comm, 0), 1);
        EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
    }
}

TEST_F(HcclRankTableTest, ARankInitialisesOnceWhileItsCommunicatorLives) {
    const std::string path = Write("one.json", Template1(1));
    HcclComm comm = nullptr;
    ASSERT_EQ(Init(path, 0, &comm), HCCL_SUCCESS) << RecentError();
    HcclComm again = nullptr;
    EXPECT_EQ(Init(path, 0, &again), HCCL_E_PARA);
    EXPECT_NE(RecentError().find("already has a communicator"), std::string::npos) << RecentError();
    EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
    ASSERT_EQ(Init(path, 0, &again), HCCL_SUCCESS) << RecentError();
    EXPECT_EQ(HcclCommDestroy(again), HCCL_SUCCESS);
}

TEST_F(HcclRankTableTest, BadTablesAreRefusedWithTheReason) {
    HcclComm comm = nullptr;
    EXPECT_EQ(HcclCommInitClusterInfo(nullptr, 0, &comm), HCCL_E_PTR);
    const std::string good = Write("good.json", Template1(2));
    EXPECT_EQ(HcclCommInitClusterInfo(good.c_str(), 0, nullptr), HCCL_E_PTR);
    EXPECT_EQ(HcclCommInitClusterInfoConfig(good.c_str(), 0, nullptr, &comm), HCCL_E_PTR);
    EXPECT_EQ(HcclCommInitClusterInfo(std::string(5000, 'x').c_str(), 0, &comm), HCCL_E_PARA);

    struct Case {
        const char* name;
        std::string text;  // empty: the file does not exist
        uint32_t rank;
        HcclResult code;
        const char* says;
    };
    const std::vector<Case> cases = {
        {"missing.json", "", 0, HCCL_E_OPEN_FILE_FAILURE, "cannot open"},
        {"broken.json", "{\"server_list\": [", 0, HCCL_E_PARA, "not valid JSON"},
        {"comment.json", "// a comment\n" + Template1(1), 0, HCCL_E_PARA, "not valid JSON"},
        {"array.json", "[1, 2]", 0, HCCL_E_PARA, "not a JSON object"},
        {"empty.json", "{\"version\": \"1.0\"}", 0, HCCL_E_PARA, "server_list"},
        {"nodevices.json", "{\"server_list\": [{\"server_id\": \"127.0.0.1\"}]}", 0, HCCL_E_PARA,
         "no \"device\" list"},
        {"outside.json", Template1(2), 2, HCCL_E_PARA, "rank 2 is not in the rank table"},
        {"twice.json",
         "{\"server_list\": [{\"server_id\": \"127.0.0.1\", \"device\": [{\"device_id\": \"0\", "
         "\"rank_id\": \"0\"}, {\"device_id\": \"1\", \"rank_id\": \"0\"}]}]}",
         0, HCCL_E_PARA, "appears twice"},
        {"range.json",
         "{\"server_list\": [{\"server_id\": \"127.0.0.1\", \"device\": [{\"device_id\": \"0\", "
         "\"rank_id\": \"5\"}]}]}",
         0, HCCL_E_PARA, "rank_id 5"},
        {"samedevice.json",
         "{\"server_list\": [{\"server_id\": \"127.0.0.1\", \"device\": [{\"device_id\": \"0\", "
         "\"rank_id\": \"0\"}, {\"device_id\": \"0\", \"rank_id\": \"1\"}]}]}",
         0, HCCL_E_PARA, "both device 0"},
        {"notnumber.json",
         "{\"server_list\": [{\"server_id\": \"127.0.0.1\", \"device\": [{\"device_id\": "
         "\"zero\", \"rank_id\": \"0\"}]}]}",
         0, HCCL_E_PARA, "not a whole number"},
        {"initializing.json",
         "{\"status\": \"initializing\", \"server_list\": [{\"server_id\": \"127.0.0.1\", "
         "\"device\": [{\"device_id\": \"0\", \"rank_id\": \"0\"}]}]}",
         0, HCCL_E_PARA, "initializing"},
        {"otherdevice.json",
         "{\"server_list\": [{\"server_id\": \"127.0.0.1\", \"device\": [{\"device_id\": \"3\", "
         "\"rank_id\": \"0\"}]}]}",
         0, HCCL_E_PARA, "aclrtSetDevice(3)"},
    };
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    for (const Case& c : cases) {
        const std::string path = c.text.empty() ? dir_ + "/" + c.name : Write(c.name, c.text);
        comm = nullptr;
        EXPECT_EQ(HcclCommInitClusterInfo(path.c_str(), c.rank, &comm), c.code) << c.name;
        EXPECT_NE(RecentError().find(c.says), std::string::npos) << c.name << ": " << RecentError();
        EXPECT_EQ(comm, nullptr) << c.name;
    }
}

TEST_F(HcclRankTableTest, AnotherProcessRefusesATableItsDeviceDoesNotMatch) {
    // hccl_rank_main puts rank 1 on device 1; the table says 2.
    const std::string path = Write(
        "device.json",
        "{\"server_list\": [{\"server_id\": \"127.0.0.1\", \"device\": [{\"device_id\": \"0\", "
        "\"rank_id\": \"0\"}, {\"device_id\": \"2\", \"rank_id\": \"1\"}]}]}");
    EXPECT_EQ(hccl_test::Run({RankMain(), "table-expect", "1", path, std::to_string(HCCL_E_PARA),
                              "device_id"}),
              0);
}

}  // namespace
