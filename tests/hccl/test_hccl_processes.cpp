// Ranks in several processes: the root info is made here and handed to hccl_rank_main children
// through their stdin; they reach the root and each other over loopback (HCCL_IF_IP=127.0.0.1,
// ports the system picks), through Gloo. Also: a peer killed mid-collective, a rank that
// never joins, inconsistent joins, a stale root info, and two network namespaces standing in
// for two machines.
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "hccl_process.h"
#include "hccl_suite.h"
#include "hccl_test_support.h"

namespace {

using hccl_test::Child;
using hccl_test::RankMain;
using hccl_test::RecentError;

// This process's sockets that a child it starts would inherit (found through /proc's links,
// which touch no other thread's descriptor).
std::vector<int> InheritableSockets() {
    std::vector<int> found;
    DIR* dir = opendir("/proc/self/fd");
    if (dir == nullptr) return found;
    while (const dirent* entry = readdir(dir)) {
        char target[64] = {};
        const std::string link = std::string("/proc/self/fd/") + entry->d_name;
        if (readlink(link.c_str(), target, sizeof target - 1) <= 0) continue;
        const int fd = std::atoi(entry->d_name);
        if (std::strncmp(target, "socket:", 7) == 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC) == 0)
            found.push_back(fd);
    }
    closedir(dir);
    return found;
}

class HcclProcessTest : public hccl_test::HcclTest {
 protected:
    void SetUp() override {
        setenv("HCCL_HOST_SOCKET_PORT_RANGE", "auto", 1);
        unsetenv("HCCL_CONNECT_TIMEOUT");
        HcclTest::SetUp();
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    }
    // The root info, made here (HCCL_CONNECT_TIMEOUT counts from now).
    void MakeRoot() { ASSERT_EQ(HcclGetRootInfo(&root_), HCCL_SUCCESS) << RecentError(); }
    void TearDown() override {
        HcclTest::TearDown();
        unsetenv("HCCL_CONNECT_TIMEOUT");
        unsetenv("HCCL_EXEC_TIMEOUT");
    }

    // Starts hccl_rank_main <mode> <rank> <n> [extra] with the root info on its stdin.
    void Spawn(Child& child, const std::string& mode, uint32_t rank, uint32_t n,
               std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {RankMain(), mode, std::to_string(rank), std::to_string(n)};
        args.insert(args.end(), extra.begin(), extra.end());
        ASSERT_TRUE(child.Start(args)) << child.error();
        ASSERT_TRUE(child.Write(&root_, sizeof root_));
        child.CloseIn();
    }

    // Joins as `rank` of `n` on device `rank` in this thread; runs body, then destroys.
    static void JoinHere(const HcclRootInfo& root, uint32_t rank, uint32_t n,
                         const std::function<void(hccl_test::Rank&)>& body) {
        hccl_test::Rank r;
        r.rank = rank;
        r.size = n;
        ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(rank)), ACL_SUCCESS);
        ASSERT_EQ(HcclCommInitRootInfo(n, &root, rank, &r.comm), HCCL_SUCCESS) << RecentError();
        ASSERT_EQ(aclrtCreateStream(&r.stream), ACL_SUCCESS);
        body(r);
        EXPECT_EQ(aclrtDestroyStream(r.stream), ACL_SUCCESS);
        EXPECT_EQ(HcclCommDestroy(r.comm), HCCL_SUCCESS) << RecentError();
    }

    void EveryCollectiveIn(uint32_t n) {
        MakeRoot();
        std::vector<Child> children(n);
        for (uint32_t r = 0; r < n; ++r)
            Spawn(children[r], "suite", r, n);
        for (uint32_t r = 0; r < n; ++r)
            EXPECT_EQ(children[r].Wait(30000), 0) << "rank " << r << " (see its stderr)";
    }

    HcclRootInfo root_{};
};

TEST_F(HcclProcessTest, EveryCollectiveBetweenTwoProcesses) {
    EveryCollectiveIn(2);
}

TEST_F(HcclProcessTest, EveryCollectiveBetweenThreeProcesses) {
    EveryCollectiveIn(3);
}

TEST_F(HcclProcessTest, TwoThreadsHereAndOneProcessRunEveryCollective) {
    MakeRoot();
    Child child;
    Spawn(child, "suite", 2, 3);
    std::latch both_done(2);
    std::vector<std::thread> threads;
    for (uint32_t r = 0; r < 2; ++r) {
        threads.emplace_back([&, r] {
            JoinHere(root_, r, 3, [&both_done](hccl_test::Rank& rank) {
                EXPECT_EQ(hccl_suite::Suite(rank.comm, rank.stream, rank.rank, 3).Run(), 0)
                    << "rank " << rank.rank << " (see stderr)";
                // Once both ranks here are through, none is connecting: Gloo's connections
                // do not leak into children this process starts.
                both_done.arrive_and_wait();
                EXPECT_TRUE(InheritableSockets().empty());
            });
        });
    }
    for (std::thread& t : threads)
        t.join();
    EXPECT_EQ(child.Wait(30000), 0);
}

TEST_F(HcclProcessTest, KilledPeerFailsTheOthersPromptly) {
    MakeRoot();
    Child survivor;
    Child victim;
    Spawn(survivor, "fail", 1, 3);
    Spawn(victim, "hang", 2, 3);
    JoinHere(root_, 0, 3, [&](hccl_test::Rank& r) {
        ASSERT_EQ(victim.ReadLine(20000), "joined");
        ASSERT_EQ(survivor.ReadLine(20000), "joined");
        void* buf = r.Upload(std::vector<float>(1024));
        const auto start = std::chrono::steady_clock::now();
        ASSERT_EQ(
            HcclAllReduce(buf, buf, 1024, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));  // ranks 0, 1 wait for 2
        victim.Kill();
        EXPECT_NE(r.Sync(), ACL_SUCCESS);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_LT(seconds, 10.0) << "the failure took " << seconds << " s to show";
        HcclResult async = HCCL_SUCCESS;
        EXPECT_EQ(HcclGetCommAsyncError(r.comm, &async), HCCL_SUCCESS);
        EXPECT_TRUE(async == HCCL_E_REMOTE || async == HCCL_E_TCP_TRANSFER) << async;
        EXPECT_NE(RecentError().find("rank"), std::string::npos) << RecentError();
        // Later operations fail at once.
        ASSERT_EQ(
            HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        EXPECT_NE(r.Sync(), ACL_SUCCESS);
        aclrtFree(buf);
    });
    EXPECT_EQ(survivor.Wait(20000), 0) << "rank 1 (see its stderr)";
}

TEST_F(HcclProcessTest, RankThatNeverJoinsFailsTheOthersWithATimeout) {
    setenv("HCCL_CONNECT_TIMEOUT", "1", 1);
    MakeRoot();
    Child child;
    Spawn(child, "expect", 1, 3, {std::to_string(HCCL_E_TIMEOUT), "rank 2 of 3 did not join"});
    HcclComm comm = nullptr;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(HcclCommInitRootInfo(3, &root_, 0, &comm), HCCL_E_TIMEOUT);
    EXPECT_NE(RecentError().find("rank 2 of 3 did not join"), std::string::npos) << RecentError();
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 8.0);
    EXPECT_EQ(child.Wait(20000), 0) << "rank 1 (see its stderr)";
}

TEST_F(HcclProcessTest, RankThatDiesBeforeTheCommunicatorFormsFailsTheOthers) {
    MakeRoot();
    Child dying;
    Spawn(dying, "joining", 1, 3);
    ASSERT_EQ(dying.ReadLine(20000), "joining");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // its join is in
    dying.Kill();
    HcclComm comm = nullptr;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(HcclCommInitRootInfo(3, &root_, 0, &comm), HCCL_E_TCP_CONNECT);
    const std::string message = RecentError();
    EXPECT_NE(message.find("rank 1 (127.0.0.1) left"), std::string::npos) << message;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
              10.0);
}

TEST_F(HcclProcessTest, StaleRootInfoIsRefused) {
    MakeRoot();
    Child child;
    Spawn(child, "expect", 1, 2, {"0", ""});
    JoinHere(root_, 0, 2, [](hccl_test::Rank&) {});
    EXPECT_EQ(child.Wait(20000), 0);
    // The communicator formed: nothing listens for it any more.
    Child late;
    Spawn(late, "expect", 1, 2, {std::to_string(HCCL_E_TCP_CONNECT), "stale"});
    EXPECT_EQ(late.Wait(20000), 0) << "see its stderr";
    HcclComm comm = nullptr;
    EXPECT_EQ(HcclCommInitRootInfo(2, &root_, 0, &comm), HCCL_E_PARA);
}

TEST_F(HcclProcessTest, RankWithAnotherRankCountIsRefused) {
    setenv("HCCL_CONNECT_TIMEOUT", "1", 1);
    MakeRoot();
    std::atomic<HcclResult> here{HCCL_SUCCESS};
    std::thread rank0([&] {
        HcclComm comm = nullptr;
        aclrtSetDevice(0);
        here = HcclCommInitRootInfo(2, &root_, 0, &comm);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // rank 0 is in first
    Child child;
    Spawn(child, "expect", 1, 3, {std::to_string(HCCL_E_PARA), "nRanks"});
    EXPECT_EQ(child.Wait(20000), 0) << "see its stderr";
    rank0.join();
    EXPECT_EQ(here.load(), HCCL_E_TIMEOUT);
}

TEST_F(HcclProcessTest, SecondRankOneIsRefusedAndTheFirstGoesOn) {
    MakeRoot();
    std::vector<std::thread> threads;
    for (uint32_t r = 0; r < 2; ++r)
        threads.emplace_back([&, r] { JoinHere(root_, r, 3, [](hccl_test::Rank&) {}); });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // ranks 0 and 1 are in
    Child duplicate;
    Spawn(duplicate, "expect", 1, 3, {std::to_string(HCCL_E_PARA), "rank 1 has already joined"});
    EXPECT_EQ(duplicate.Wait(20000), 0) << "see its stderr";
    Child last;
    Spawn(last, "expect", 2, 3, {"0", ""});
    EXPECT_EQ(last.Wait(20000), 0) << "see its stderr";
    for (std::thread& t : threads)
        t.join();
}

TEST_F(HcclProcessTest, RankThatNeverIssuesFailsTheOthersAtTheExecutionTimeout) {
    setenv("HCCL_EXEC_TIMEOUT", "1", 1);  // read when the communicator is created
    MakeRoot();
    Child idle;
    Spawn(idle, "hang", 1, 2);
    JoinHere(root_, 0, 2, [&](hccl_test::Rank& r) {
        unsetenv("HCCL_EXEC_TIMEOUT");
        ASSERT_EQ(idle.ReadLine(20000), "joined");
        void* buf = r.Upload(std::vector<int32_t>(4));
        ASSERT_EQ(
            HcclAllReduce(buf, buf, 4, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
            HCCL_SUCCESS);
        EXPECT_EQ(r.Sync(), ACL_ERROR_RT_TASK_TIMEOUT);
        EXPECT_NE(RecentError().find("rank 1 did not take part"), std::string::npos)
            << RecentError();
        HcclResult async = HCCL_SUCCESS;
        EXPECT_EQ(HcclGetCommAsyncError(r.comm, &async), HCCL_SUCCESS);
        EXPECT_EQ(async, HCCL_E_TIMEOUT);
        aclrtFree(buf);
    });
    idle.Kill();
}

TEST_F(HcclProcessTest, TwoProcessesOverIpv6Loopback) {
    const int probe = ::socket(AF_INET6, SOCK_STREAM, 0);
    sockaddr_in6 any{};
    any.sin6_family = AF_INET6;
    any.sin6_addr = in6addr_loopback;
    const bool usable =
        probe >= 0 && ::bind(probe, reinterpret_cast<sockaddr*>(&any), sizeof any) == 0;
    if (probe >= 0) ::close(probe);
    if (!usable) GTEST_SKIP() << "no IPv6 loopback here";
    setenv("HCCL_IF_IP", "::1", 1);
    MakeRoot();
    Child child;
    Spawn(child, "suite", 1, 2);
    JoinHere(root_, 0, 2, [](hccl_test::Rank& r) {
        EXPECT_EQ(hccl_suite::Suite(r.comm, r.stream, 0, 2).Run(), 0);
    });
    EXPECT_EQ(child.Wait(30000), 0) << "rank 1 (see its stderr)";
    setenv("HCCL_IF_IP", "127.0.0.1", 1);
}

TEST_F(HcclProcessTest, RootInfoExplainsItsEnvironment) {
    struct Case {
        const char* variable;
        const char* value;
        HcclResult code;
        const char* says;
    };
    const std::vector<Case> cases = {
        {"HCCL_IF_IP", "not-an-address", HCCL_E_PARA, "HCCL_IF_IP=not-an-address"},
        {"HCCL_HOST_SOCKET_PORT_RANGE", "60000-59000", HCCL_E_PARA, "60000-59000"},
        {"HCCL_HOST_SOCKET_PORT_RANGE", "http", HCCL_E_PARA, "not a port"},
        {"HCCL_IF_BASE_PORT", "80", HCCL_E_PARA, "[1024, 65520]"},
        {"HCCL_SOCKET_FAMILY", "AF_UNIX", HCCL_E_PARA, "AF_UNIX"},
    };
    for (const Case& c : cases) {
        const char* old = std::getenv(c.variable);
        const std::string saved = old == nullptr ? "" : old;
        setenv(c.variable, c.value, 1);
        if (std::string(c.variable) == "HCCL_IF_BASE_PORT") unsetenv("HCCL_HOST_SOCKET_PORT_RANGE");
        HcclRootInfo root;
        EXPECT_EQ(HcclGetRootInfo(&root), c.code) << c.variable << "=" << c.value;
        EXPECT_NE(RecentError().find(c.says), std::string::npos) << RecentError();
        if (old == nullptr) {
            unsetenv(c.variable);
        } else {
            setenv(c.variable, saved.c_str(), 1);
        }
        setenv("HCCL_HOST_SOCKET_PORT_RANGE", "auto", 1);
    }
    // Without HCCL_IF_IP, HCCL_SOCKET_IFNAME picks the NIC: lo here, or none at all.
    unsetenv("HCCL_IF_IP");
    setenv("HCCL_SOCKET_IFNAME", "=no_such_nic0", 1);
    HcclRootInfo root;
    EXPECT_EQ(HcclGetRootInfo(&root), HCCL_E_PARA);
    EXPECT_NE(RecentError().find("selects no NIC"), std::string::npos) << RecentError();
    setenv("HCCL_SOCKET_IFNAME", "lo", 1);
    EXPECT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS) << RecentError();
    RunRanks(2, [&](hccl_test::Rank&) {});  // a root info of its own, through lo too
    unsetenv("HCCL_SOCKET_IFNAME");
    setenv("HCCL_IF_IP", "127.0.0.1", 1);
    // A port range whose only port is taken.
    const int busy = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof at;
    ASSERT_EQ(::bind(busy, reinterpret_cast<sockaddr*>(&at), sizeof at), 0);
    ASSERT_EQ(::listen(busy, 1), 0);
    ASSERT_EQ(::getsockname(busy, reinterpret_cast<sockaddr*>(&at), &size), 0);
    setenv("HCCL_HOST_SOCKET_PORT_RANGE", std::to_string(ntohs(at.sin_port)).c_str(), 1);
    EXPECT_EQ(HcclGetRootInfo(&root), HCCL_E_UNAVAIL);
    EXPECT_NE(RecentError().find("in use"), std::string::npos) << RecentError();
    ::close(busy);
    setenv("HCCL_HOST_SOCKET_PORT_RANGE", "auto", 1);
}

// Two machines: two network namespaces joined by a veth pair, one rank in each. Needs root
// and `ip netns`; the namespaces go away whatever happens.
TEST(HcclNetworkNamespaces, TwoNamespacesStandInForTwoMachines) {
    if (geteuid() != 0) GTEST_SKIP() << "needs root for ip netns";
    const std::string tag = std::to_string(getpid() % 100000);
    const std::string ns_a = "oacl" + tag + "a";
    const std::string ns_b = "oacl" + tag + "b";
    const std::string if_a = "oa" + tag + "a";
    const std::string if_b = "oa" + tag + "b";
    const std::string net = "10.213." + std::to_string(getpid() % 250) + ".";
    if (hccl_test::Run({"ip", "netns", "add", ns_a}) != 0) GTEST_SKIP() << "ip netns unusable";
    struct Cleanup {
        std::vector<std::string> namespaces;
        ~Cleanup() {
            for (const std::string& ns : namespaces)
                hccl_test::Run({"ip", "netns", "del", ns});
        }
    } cleanup{{ns_a}};
    ASSERT_EQ(hccl_test::Run({"ip", "netns", "add", ns_b}), 0);
    cleanup.namespaces.push_back(ns_b);
    ASSERT_EQ(hccl_test::Run({"ip", "-n", ns_a, "link", "add", if_a, "type", "veth", "peer", "name",
                              if_b, "netns", ns_b}),
              0);
    ASSERT_EQ(hccl_test::Run({"ip", "-n", ns_a, "addr", "add", net + "1/24", "dev", if_a}), 0);
    ASSERT_EQ(hccl_test::Run({"ip", "-n", ns_b, "addr", "add", net + "2/24", "dev", if_b}), 0);
    for (const auto& [ns, dev] : {std::pair{ns_a, if_a}, std::pair{ns_b, if_b}}) {
        ASSERT_EQ(hccl_test::Run({"ip", "-n", ns, "link", "set", dev, "up"}), 0);
        ASSERT_EQ(hccl_test::Run({"ip", "-n", ns, "link", "set", "lo", "up"}), 0);
    }
    Child a;
    ASSERT_TRUE(a.Start({"ip", "netns", "exec", ns_a, "env", "HCCL_IF_IP=" + net + "1",
                         "HCCL_HOST_SOCKET_PORT_RANGE=auto", RankMain(), "root-suite", "0", "2"}))
        << a.error();
    a.CloseIn();
    HcclRootInfo root;
    ASSERT_TRUE(a.Read(&root, sizeof root, 20000)) << "rank 0 made no root info";
    Child b;
    ASSERT_TRUE(b.Start({"ip", "netns", "exec", ns_b, "env", "HCCL_IF_IP=" + net + "2", RankMain(),
                         "suite", "1", "2"}))
        << b.error();
    ASSERT_TRUE(b.Write(&root, sizeof root));
    b.CloseIn();
    EXPECT_EQ(a.Wait(30000), 0) << "rank 0 (see its stderr)";
    EXPECT_EQ(b.Wait(30000), 0) << "rank 1 (see its stderr)";
}

}  // namespace
