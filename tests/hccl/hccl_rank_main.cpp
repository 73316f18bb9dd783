// One HCCL rank in a process of its own, for the tests that spread ranks over processes
// (test_hccl_processes.cpp, test_hccl_rank_table.cpp start it with posix_spawn). The root info
// comes on stdin (4108 bytes) unless this process makes it; stdout carries only what the test
// reads back (a root info, "joined"); messages go to stderr. Exit 0 means the rank did what
// the mode expects.
//
//   hccl_rank_main suite <rank> <n>                  join, run every collective (hccl_suite.h)
//   hccl_rank_main root-suite <rank> <n>             make the root info (to stdout), then suite
//   hccl_rank_main expect <rank> <n> <code> <text>   joining returns <code>, the message has <text>
//   hccl_rank_main hang <rank> <n>                   join, print "joined", wait to be killed
//   hccl_rank_main joining <rank> <n>                print "joining", then join
//   hccl_rank_main fail <rank> <n>                   join; an AllReduce fails: a peer died
//   hccl_rank_main table <rank> <path>               join through a rank table, one AllReduce
//   hccl_rank_main table-expect <rank> <path> <code> <text>
//
// The device is rank % 4 (the tests run with OPENACL_DEVICE_COUNT=4).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl_suite.h"

namespace {

std::string Msg() {
    const char* m = aclGetRecentErrMsg();
    return m == nullptr ? "" : m;
}

bool ReadAll(int fd, void* data, size_t n) {
    auto* p = static_cast<char*>(data);
    while (n > 0) {
        const ssize_t got = ::read(fd, p, n);
        if (got <= 0) return false;
        p += got;
        n -= static_cast<size_t>(got);
    }
    return true;
}

bool WriteAll(int fd, const void* data, size_t n) {
    const auto* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t put = ::write(fd, p, n);
        if (put <= 0) return false;
        p += put;
        n -= static_cast<size_t>(put);
    }
    return true;
}

int Usage() {
    std::fprintf(stderr,
                 "usage: hccl_rank_main suite|root-suite|expect|hang|fail|table|"
                 "table-expect <rank> ...\n");
    return 2;
}

// Checks a result against the expected code and text.
int Expect(HcclResult rc, int want, const char* text, const char* what) {
    const std::string message = Msg();
    if (static_cast<int>(rc) != want || message.find(text) == std::string::npos) {
        std::fprintf(stderr,
                     "%s returned %d (expected %d) with \"%s\" (expected to contain \"%s\")\n",
                     what, static_cast<int>(rc), want, message.c_str(), text);
        return 1;
    }
    return 0;
}

// One AllReduce of (rank + 1) over the communicator.
int SumRanks(HcclComm comm, aclrtStream stream, uint32_t rank) {
    uint32_t n = 0;
    HcclGetRankSize(comm, &n);
    void* buf = nullptr;
    aclrtMalloc(&buf, sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    const int32_t mine = static_cast<int32_t>(rank + 1);
    aclrtMemcpy(buf, sizeof mine, &mine, sizeof mine, ACL_MEMCPY_HOST_TO_DEVICE);
    int rc = 0;
    if (HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, comm, stream) !=
            HCCL_SUCCESS ||
        aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        std::fprintf(stderr, "rank %u: AllReduce failed: %s\n", rank, Msg().c_str());
        rc = 1;
    } else {
        int32_t got = 0;
        aclrtMemcpy(&got, sizeof got, buf, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST);
        if (got != static_cast<int32_t>(n * (n + 1) / 2)) {
            std::fprintf(stderr, "rank %u: AllReduce gave %d\n", rank, got);
            rc = 1;
        }
    }
    aclrtFree(buf);
    return rc;
}

int Main(int argc, char** argv) {
    if (argc < 4) return Usage();
    const std::string mode = argv[1];
    const auto rank = static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10));
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(static_cast<int32_t>(rank % 4)) != 0) {
        std::fprintf(stderr, "rank %u: runtime setup failed: %s\n", rank, Msg().c_str());
        return 1;
    }
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    HcclComm comm = nullptr;
    int result = 0;

    if (mode == "table" || mode == "table-expect") {
        const HcclResult rc = HcclCommInitClusterInfo(argv[3], rank, &comm);
        if (mode == "table-expect") {
            if (argc < 6) return Usage();
            result = Expect(rc, std::atoi(argv[4]), argv[5], "HcclCommInitClusterInfo");
        } else if (rc != HCCL_SUCCESS) {
            std::fprintf(stderr, "rank %u: HcclCommInitClusterInfo: %s\n", rank, Msg().c_str());
            result = 1;
        } else {
            result = SumRanks(comm, stream, rank);
        }
    } else {
        const auto n = static_cast<uint32_t>(std::strtoul(argv[3], nullptr, 10));
        HcclRootInfo root;
        if (mode == "root-suite") {
            if (HcclGetRootInfo(&root) != HCCL_SUCCESS ||
                !WriteAll(STDOUT_FILENO, &root, sizeof root)) {
                std::fprintf(stderr, "HcclGetRootInfo failed: %s\n", Msg().c_str());
                return 1;
            }
        } else if (!ReadAll(STDIN_FILENO, &root, sizeof root)) {
            std::fprintf(stderr, "rank %u: no root info on stdin\n", rank);
            return 1;
        }
        if (mode == "joining") WriteAll(STDOUT_FILENO, "joining\n", 8);
        const HcclResult rc = HcclCommInitRootInfo(n, &root, rank, &comm);
        if (mode == "joining") {
            result = rc == HCCL_SUCCESS ? 0 : 1;
        } else if (mode == "expect") {
            if (argc < 6) return Usage();
            result = Expect(rc, std::atoi(argv[4]), argv[5], "HcclCommInitRootInfo");
        } else if (rc != HCCL_SUCCESS) {
            std::fprintf(stderr, "rank %u: HcclCommInitRootInfo returned %d: %s\n", rank,
                         static_cast<int>(rc), Msg().c_str());
            result = 1;
        } else if (mode == "suite" || mode == "root-suite") {
            result = hccl_suite::Suite(comm, stream, rank, n).Run() == 0 ? 0 : 1;
        } else if (mode == "hang") {
            WriteAll(STDOUT_FILENO, "joined\n", 7);
            for (;;)
                std::this_thread::sleep_for(std::chrono::seconds(1));
        } else if (mode == "fail") {
            WriteAll(STDOUT_FILENO, "joined\n", 7);
            void* buf = nullptr;
            aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
            const auto start = std::chrono::steady_clock::now();
            const HcclResult issued =
                HcclAllReduce(buf, buf, 1024, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream);
            const aclError sync = aclrtSynchronizeStream(stream);
            HcclResult async = HCCL_SUCCESS;
            HcclGetCommAsyncError(comm, &async);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (issued != HCCL_SUCCESS || sync == ACL_SUCCESS ||
                (async != HCCL_E_REMOTE && async != HCCL_E_TCP_TRANSFER)) {
                std::fprintf(stderr,
                             "rank %u: expected the AllReduce to fail for a dead peer; issued %d, "
                             "stream %d, async error %d (%s)\n",
                             rank, static_cast<int>(issued), static_cast<int>(sync),
                             static_cast<int>(async), Msg().c_str());
                result = 1;
            } else {
                std::fprintf(stderr, "rank %u: failed as expected after %.2f s: %s\n", rank,
                             seconds, Msg().c_str());
            }
            aclrtFree(buf);
        } else {
            return Usage();
        }
    }
    if (comm != nullptr && HcclCommDestroy(comm) != HCCL_SUCCESS) {
        std::fprintf(stderr, "rank %u: HcclCommDestroy: %s\n", rank, Msg().c_str());
        result = 1;
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(static_cast<int32_t>(rank % 4));
    aclFinalize();
    return result;
}

}  // namespace

int main(int argc, char** argv) {
    return Main(argc, argv);
}
