// Every HCCL collective once, checked against values computed on the host: what a rank runs in
// the tests that put ranks in several processes (hccl_rank_main.cpp) and, for the ranks of
// the test's own process, in test_hccl_processes.cpp. No gtest here: failures are counted and
// printed to stderr, so a child process can report them through its exit code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace hccl_suite {

class Suite {
 public:
    Suite(HcclComm comm, aclrtStream stream, uint32_t rank, uint32_t size)
        : comm_(comm), stream_(stream), rank_(rank), n_(size) {}

    // Runs everything; returns the number of failed checks.
    int Run() {
        AllReduce();
        Broadcast();
        Reduce();
        AllGather();
        AllGatherV();
        ReduceScatter();
        ReduceScatterV();
        Scatter();
        AlltoAll();
        AlltoAllV();
        AlltoAllVC();
        Barrier();
        SendRecv();
        BatchSendRecv();
        GroupedSendRecv();
        Mismatch();
        SubCommunicator();
        return failures_;
    }

 private:
    template <typename T>
    void* Upload(const std::vector<T>& values) {
        void* p = nullptr;
        const size_t bytes = std::max<size_t>(1, values.size() * sizeof(T));
        if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
            Fail("aclrtMalloc", "failed");
            return nullptr;
        }
        if (!values.empty()) {
            aclrtMemcpy(p, bytes, values.data(), values.size() * sizeof(T),
                        ACL_MEMCPY_HOST_TO_DEVICE);
        }
        buffers_.push_back(p);
        return p;
    }
    template <typename T>
    std::vector<T> Download(const void* p, size_t n) {
        std::vector<T> values(n);
        if (n > 0) {
            aclrtMemcpy(values.data(), n * sizeof(T), p, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST);
        }
        return values;
    }
    void FreeAll() {
        for (void* p : buffers_)
            aclrtFree(p);
        buffers_.clear();
    }
    void Fail(const std::string& what, const std::string& detail) {
        ++failures_;
        if (failures_ <= 10)
            std::fprintf(stderr, "rank %u: %s: %s\n", rank_, what.c_str(), detail.c_str());
    }
    // Issues through `call`, synchronises, and says whether both succeeded.
    bool Issue(const char* what, HcclResult rc) {
        if (rc != HCCL_SUCCESS) {
            Fail(what, "returned " + std::to_string(rc) + ": " + Msg());
            return false;
        }
        const aclError sync = aclrtSynchronizeStream(stream_);
        if (sync != ACL_SUCCESS) {
            Fail(what, "the stream failed with " + std::to_string(sync) + ": " + Msg());
            return false;
        }
        return true;
    }
    static std::string Msg() {
        const char* m = aclGetRecentErrMsg();
        return m == nullptr ? "" : m;
    }
    template <typename T>
    void Expect(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
        for (size_t i = 0; i < want.size(); ++i) {
            if (i >= got.size() || got[i] != want[i]) {
                Fail(what, "element " + std::to_string(i) + " is " +
                               (i < got.size() ? std::to_string(got[i]) : "missing") +
                               ", expected " + std::to_string(want[i]));
                return;
            }
        }
    }
    static int32_t V(uint32_t rank, size_t i) { return static_cast<int32_t>(rank * 1000 + i); }

    void AllReduce() {
        // int32 sum; fp32 sum over 256 KiB (several Gloo segments); int64 max in place; int8.
        {
            const size_t count = 1000;
            std::vector<int32_t> mine(count), want(count, 0);
            for (size_t i = 0; i < count; ++i) {
                mine[i] = V(rank_, i);
                for (uint32_t r = 0; r < n_; ++r)
                    want[i] += V(r, i);
            }
            void* s = Upload(mine);
            void* d = Upload(std::vector<int32_t>(count));
            if (Issue("HcclAllReduce int32 sum", HcclAllReduce(s, d, count, HCCL_DATA_TYPE_INT32,
                                                               HCCL_REDUCE_SUM, comm_, stream_)))
                Expect("HcclAllReduce int32 sum", Download<int32_t>(d, count), want);
        }
        {
            const size_t count = 65536;
            std::vector<float> mine(count), want(count, 0.0f);
            for (size_t i = 0; i < count; ++i) {
                mine[i] = static_cast<float>((rank_ + 1) * (i % 97));
                for (uint32_t r = 0; r < n_; ++r)
                    want[i] += static_cast<float>((r + 1) * (i % 97));
            }
            void* s = Upload(mine);
            void* d = Upload(std::vector<float>(count));
            if (Issue("HcclAllReduce fp32 sum", HcclAllReduce(s, d, count, HCCL_DATA_TYPE_FP32,
                                                              HCCL_REDUCE_SUM, comm_, stream_)))
                Expect("HcclAllReduce fp32 sum", Download<float>(d, count), want);
        }
        {
            std::vector<int64_t> mine = {int64_t{rank_} << 40, -static_cast<int64_t>(rank_), 7};
            std::vector<int64_t> want = {int64_t{n_ - 1} << 40, 0, 7};
            void* b = Upload(mine);
            if (Issue(
                    "HcclAllReduce int64 max in place",
                    HcclAllReduce(b, b, 3, HCCL_DATA_TYPE_INT64, HCCL_REDUCE_MAX, comm_, stream_)))
                Expect("HcclAllReduce int64 max in place", Download<int64_t>(b, 3), want);
        }
        {
            std::vector<int8_t> mine(33), want(33, 0);
            for (size_t i = 0; i < mine.size(); ++i) {
                mine[i] = static_cast<int8_t>(rank_ + i % 3);
                for (uint32_t r = 0; r < n_; ++r)
                    want[i] = static_cast<int8_t>(want[i] + static_cast<int8_t>(r + i % 3));
            }
            void* s = Upload(mine);
            void* d = Upload(std::vector<int8_t>(33));
            if (Issue("HcclAllReduce int8 sum", HcclAllReduce(s, d, 33, HCCL_DATA_TYPE_INT8,
                                                              HCCL_REDUCE_SUM, comm_, stream_)))
                Expect("HcclAllReduce int8 sum", Download<int8_t>(d, 33), want);
        }
        FreeAll();
    }

    void Broadcast() {
        const uint32_t root = n_ - 1;
        const size_t count = 301;
        std::vector<int32_t> mine(count), want(count);
        for (size_t i = 0; i < count; ++i) {
            mine[i] = rank_ == root ? V(root, i) : -1;
            want[i] = V(root, i);
        }
        void* b = Upload(mine);
        if (Issue("HcclBroadcast",
                  HcclBroadcast(b, count, HCCL_DATA_TYPE_INT32, root, comm_, stream_)))
            Expect("HcclBroadcast", Download<int32_t>(b, count), want);
        FreeAll();
    }

    void Reduce() {
        for (uint32_t root : {0u, n_ - 1}) {
            const size_t count = 129;
            std::vector<int32_t> mine(count), want(count, 0);
            for (size_t i = 0; i < count; ++i) {
                mine[i] = V(rank_, i);
                for (uint32_t r = 0; r < n_; ++r)
                    want[i] += V(r, i);
            }
            void* s = Upload(mine);
            void* d = rank_ == root ? Upload(std::vector<int32_t>(count)) : nullptr;
            if (Issue("HcclReduce", HcclReduce(s, d, count, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM,
                                               root, comm_, stream_)) &&
                rank_ == root)
                Expect("HcclReduce", Download<int32_t>(d, count), want);
            FreeAll();
        }
    }

    void AllGather() {
        const size_t count = 17;
        std::vector<int32_t> mine(count), want;
        for (size_t i = 0; i < count; ++i)
            mine[i] = V(rank_, i);
        for (uint32_t r = 0; r < n_; ++r) {
            for (size_t i = 0; i < count; ++i)
                want.push_back(V(r, i));
        }
        void* s = Upload(mine);
        void* d = Upload(std::vector<int32_t>(count * n_));
        if (Issue("HcclAllGather",
                  HcclAllGather(s, d, count, HCCL_DATA_TYPE_INT32, comm_, stream_)))
            Expect("HcclAllGather", Download<int32_t>(d, count * n_), want);
        FreeAll();
    }

    void AllGatherV() {
        // Rank r sends r + 2 elements; blocks land in reverse rank order with a gap of 3.
        std::vector<uint64_t> counts(n_), displs(n_);
        uint64_t at = 0;
        for (uint32_t k = 0; k < n_; ++k) {
            const uint32_t r = n_ - 1 - k;
            counts[r] = r + 2;
            displs[r] = at;
            at += counts[r] + 3;
        }
        std::vector<int32_t> mine(counts[rank_]), want(at, -7);
        for (size_t i = 0; i < mine.size(); ++i)
            mine[i] = V(rank_, i);
        for (uint32_t r = 0; r < n_; ++r) {
            for (size_t i = 0; i < counts[r]; ++i)
                want[displs[r] + i] = V(r, i);
        }
        void* s = Upload(mine);
        void* d = Upload(std::vector<int32_t>(at, -7));
        if (Issue("HcclAllGatherV",
                  HcclAllGatherV(s, counts[rank_], d, counts.data(), displs.data(),
                                 HCCL_DATA_TYPE_INT32, comm_, stream_)))
            Expect("HcclAllGatherV", Download<int32_t>(d, at), want);
        FreeAll();
    }

    void ReduceScatter() {
        const size_t count = 5;
        std::vector<int32_t> mine(count * n_), want(count, 0);
        for (size_t i = 0; i < mine.size(); ++i)
            mine[i] = V(rank_, i);
        for (size_t i = 0; i < count; ++i) {
            for (uint32_t r = 0; r < n_; ++r)
                want[i] += V(r, rank_ * count + i);
        }
        void* s = Upload(mine);
        void* d = Upload(std::vector<int32_t>(count));
        if (Issue("HcclReduceScatter", HcclReduceScatter(s, d, count, HCCL_DATA_TYPE_INT32,
                                                         HCCL_REDUCE_SUM, comm_, stream_)))
            Expect("HcclReduceScatter", Download<int32_t>(d, count), want);
        FreeAll();
    }

    void ReduceScatterV() {
        // Rank d receives d + 1 elements; every rank's blocks sit in reverse order, 2 apart.
        std::vector<uint64_t> counts(n_), displs(n_);
        uint64_t at = 0;
        for (uint32_t k = 0; k < n_; ++k) {
            const uint32_t d = n_ - 1 - k;
            counts[d] = d + 1;
            displs[d] = at;
            at += counts[d] + 2;
        }
        std::vector<int32_t> mine(at);
        for (size_t i = 0; i < at; ++i)
            mine[i] = V(rank_, i);
        std::vector<int32_t> want(counts[rank_], 0);
        for (size_t i = 0; i < want.size(); ++i) {
            for (uint32_t r = 0; r < n_; ++r)
                want[i] += V(r, displs[rank_] + i);
        }
        void* s = Upload(mine);
        void* d = Upload(std::vector<int32_t>(counts[rank_]));
        if (Issue("HcclReduceScatterV",
                  HcclReduceScatterV(s, counts.data(), displs.data(), d, counts[rank_],
                                     HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, comm_, stream_)))
            Expect("HcclReduceScatterV", Download<int32_t>(d, counts[rank_]), want);
        FreeAll();
    }

    void Scatter() {
        const uint32_t root = 0;
        const size_t count = 4;
        std::vector<int32_t> all(count * n_), want(count);
        for (size_t i = 0; i < all.size(); ++i)
            all[i] = V(root, i);
        for (size_t i = 0; i < count; ++i)
            want[i] = V(root, rank_ * count + i);
        void* s = rank_ == root ? Upload(all) : nullptr;
        void* d = Upload(std::vector<int32_t>(count));
        if (Issue("HcclScatter",
                  HcclScatter(s, d, count, HCCL_DATA_TYPE_INT32, root, comm_, stream_)))
            Expect("HcclScatter", Download<int32_t>(d, count), want);
        FreeAll();
    }

    // What rank s sends rank d in the all-to-all tests.
    static int32_t A(uint32_t s, uint32_t d, size_t i) {
        return static_cast<int32_t>(s * 10000 + d * 100 + i);
    }

    void AlltoAll() {
        const size_t count = 3;
        std::vector<int32_t> mine(count * n_), want(count * n_);
        for (uint32_t d = 0; d < n_; ++d) {
            for (size_t i = 0; i < count; ++i) {
                mine[d * count + i] = A(rank_, d, i);
                want[d * count + i] = A(d, rank_, i);
            }
        }
        void* s = Upload(mine);
        void* d = Upload(std::vector<int32_t>(count * n_));
        if (Issue("HcclAlltoAll", HcclAlltoAll(s, count, HCCL_DATA_TYPE_INT32, d, count,
                                               HCCL_DATA_TYPE_INT32, comm_, stream_)))
            Expect("HcclAlltoAll", Download<int32_t>(d, count * n_), want);
        FreeAll();
    }

    // Rank s sends rank d (s + 2 d) % 4 elements (some zero).
    static uint64_t C(uint32_t s, uint32_t d) { return (s + 2 * d) % 4; }

    void AlltoAllV() {
        std::vector<uint64_t> sc(n_), sd(n_), rc(n_), rd(n_);
        uint64_t send_at = 0;
        uint64_t recv_at = 0;
        for (uint32_t k = 0; k < n_; ++k) {  // sent blocks in reverse order, received with gaps
            const uint32_t d = n_ - 1 - k;
            sc[d] = C(rank_, d);
            sd[d] = send_at;
            send_at += sc[d];
        }
        for (uint32_t s = 0; s < n_; ++s) {
            rc[s] = C(s, rank_);
            rd[s] = recv_at;
            recv_at += rc[s] + 1;
        }
        std::vector<int32_t> mine(send_at), want(recv_at, -5);
        for (uint32_t d = 0; d < n_; ++d) {
            for (size_t i = 0; i < sc[d]; ++i)
                mine[sd[d] + i] = A(rank_, d, i);
        }
        for (uint32_t s = 0; s < n_; ++s) {
            for (size_t i = 0; i < rc[s]; ++i)
                want[rd[s] + i] = A(s, rank_, i);
        }
        void* s = Upload(mine);
        void* d = Upload(std::vector<int32_t>(recv_at, -5));
        if (Issue("HcclAlltoAllV",
                  HcclAlltoAllV(s, sc.data(), sd.data(), HCCL_DATA_TYPE_INT32, d, rc.data(),
                                rd.data(), HCCL_DATA_TYPE_INT32, comm_, stream_)))
            Expect("HcclAlltoAllV", Download<int32_t>(d, recv_at), want);
        FreeAll();
    }

    void AlltoAllVC() {
        std::vector<uint64_t> matrix(n_ * n_);
        for (uint32_t s = 0; s < n_; ++s) {
            for (uint32_t d = 0; d < n_; ++d)
                matrix[s * n_ + d] = C(s, d) + 1;
        }
        std::vector<int32_t> mine, want;
        for (uint32_t d = 0; d < n_; ++d) {
            for (size_t i = 0; i < C(rank_, d) + 1; ++i)
                mine.push_back(A(rank_, d, i));
        }
        for (uint32_t s = 0; s < n_; ++s) {
            for (size_t i = 0; i < C(s, rank_) + 1; ++i)
                want.push_back(A(s, rank_, i));
        }
        void* s = Upload(mine);
        void* d = Upload(std::vector<int32_t>(want.size()));
        if (Issue("HcclAlltoAllVC", HcclAlltoAllVC(s, matrix.data(), HCCL_DATA_TYPE_INT32, d,
                                                   HCCL_DATA_TYPE_INT32, comm_, stream_)))
            Expect("HcclAlltoAllVC", Download<int32_t>(d, want.size()), want);
        FreeAll();
    }

    void Barrier() { Issue("HcclBarrier", HcclBarrier(comm_, stream_)); }

    void SendRecv() {
        if (n_ < 2) return;
        const uint32_t next = (rank_ + 1) % n_;
        const uint32_t prev = (rank_ + n_ - 1) % n_;
        const size_t count = 50;
        std::vector<int32_t> mine(count), want(count);
        for (size_t i = 0; i < count; ++i) {
            mine[i] = V(rank_, i);
            want[i] = V(prev, i);
        }
        void* s = Upload(mine);
        void* d = Upload(std::vector<int32_t>(count));
        // Even ranks send first, odd ranks receive first: no two ranks wait on each other.
        bool ok = true;
        for (int step = 0; step < 2 && ok; ++step) {
            if ((step == 0) == (rank_ % 2 == 0)) {
                ok = Issue("HcclSend",
                           HcclSend(s, count, HCCL_DATA_TYPE_INT32, next, comm_, stream_));
            } else {
                ok = Issue("HcclRecv",
                           HcclRecv(d, count, HCCL_DATA_TYPE_INT32, prev, comm_, stream_));
            }
        }
        if (ok) Expect("HcclSend/HcclRecv", Download<int32_t>(d, count), want);
        FreeAll();
    }

    void BatchSendRecv() {
        if (n_ < 2) return;
        std::vector<HcclSendRecvItem> items;
        std::vector<void*> recvs(n_, nullptr);
        const size_t count = 6;
        for (uint32_t peer = 0; peer < n_; ++peer) {
            if (peer == rank_) continue;
            std::vector<int32_t> mine(count);
            for (size_t i = 0; i < count; ++i)
                mine[i] = A(rank_, peer, i);
            items.push_back({HCCL_SEND, Upload(mine), count, HCCL_DATA_TYPE_INT32, peer});
            recvs[peer] = Upload(std::vector<int32_t>(count));
            items.push_back({HCCL_RECV, recvs[peer], count, HCCL_DATA_TYPE_INT32, peer});
        }
        if (Issue("HcclBatchSendRecv",
                  HcclBatchSendRecv(items.data(), static_cast<uint32_t>(items.size()), comm_,
                                    stream_))) {
            for (uint32_t peer = 0; peer < n_; ++peer) {
                if (peer == rank_) continue;
                std::vector<int32_t> want(count);
                for (size_t i = 0; i < count; ++i)
                    want[i] = A(peer, rank_, i);
                Expect("HcclBatchSendRecv", Download<int32_t>(recvs[peer], count), want);
            }
        }
        FreeAll();
    }

    void GroupedSendRecv() {
        if (n_ < 2) return;
        const uint32_t next = (rank_ + 1) % n_;
        const uint32_t prev = (rank_ + n_ - 1) % n_;
        std::vector<int32_t> mine = {V(rank_, 0), V(rank_, 1)};
        void* s = Upload(mine);
        void* d = Upload(std::vector<int32_t>(2));
        HcclGroupStart();
        HcclResult rc = HcclSend(s, 2, HCCL_DATA_TYPE_INT32, next, comm_, stream_);
        const HcclResult rc2 = HcclRecv(d, 2, HCCL_DATA_TYPE_INT32, prev, comm_, stream_);
        const HcclResult end = HcclGroupEnd();
        if (rc == HCCL_SUCCESS) rc = rc2;
        if (rc == HCCL_SUCCESS) rc = end;
        if (Issue("grouped HcclSend/HcclRecv", rc))
            Expect("grouped HcclSend/HcclRecv", Download<int32_t>(d, 2),
                   std::vector<int32_t>{V(prev, 0), V(prev, 1)});
        FreeAll();
    }

    // Ranks that disagree fail together, and the communicator stays usable.
    void Mismatch() {
        if (n_ < 2) return;
        void* b = Upload(std::vector<float>(8));
        const uint64_t count = rank_ == 0 ? 8 : 4;
        HcclResult rc =
            HcclAllReduce(b, b, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm_, stream_);
        const aclError sync = aclrtSynchronizeStream(stream_);
        const std::string message = Msg();
        if (rc != HCCL_SUCCESS || sync != ACL_ERROR_RT_PARAM_INVALID)
            Fail("mismatched counts", "returned " + std::to_string(rc) + ", stream " +
                                          std::to_string(sync) + ": " + message);
        else if (message.find("count") == std::string::npos ||
                 message.find("rank") == std::string::npos)
            Fail("mismatched counts", "the message names no count or rank: " + message);
        HcclResult async = HCCL_SUCCESS;
        HcclGetCommAsyncError(comm_, &async);
        if (async != HCCL_E_PARA)
            Fail("mismatched counts", "async error " + std::to_string(async) + ", not PARA");
        std::vector<int32_t> one = {1};
        void* s = Upload(one);
        void* d = Upload(std::vector<int32_t>(1));
        if (Issue("HcclAllReduce after a mismatch",
                  HcclAllReduce(s, d, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, comm_, stream_)))
            Expect("HcclAllReduce after a mismatch", Download<int32_t>(d, 1),
                   std::vector<int32_t>{static_cast<int32_t>(n_)});
        FreeAll();
    }

    // Ranks 0 and n-1 form a sub-communicator; the others stay out.
    void SubCommunicator() {
        std::vector<uint32_t> members = {0};
        if (n_ > 1) members.push_back(n_ - 1);
        const bool member = rank_ == 0 || rank_ == n_ - 1;
        HcclCommConfig config;
        HcclCommConfigInit(&config);
        HcclComm sub = nullptr;
        HcclComm parent = comm_;
        const HcclResult rc = HcclCreateSubCommConfig(
            &parent, static_cast<uint32_t>(members.size()), member ? members.data() : nullptr,
            member ? 7 : 0xFFFFFFFFull, rank_ == 0 ? 0 : 1, &config, &sub);
        if (rc != HCCL_SUCCESS) {
            Fail("HcclCreateSubCommConfig", "returned " + std::to_string(rc) + ": " + Msg());
            return;
        }
        if (!member) return;
        uint32_t size = 0;
        HcclGetRankSize(sub, &size);
        if (size != members.size()) Fail("sub-communicator", "size " + std::to_string(size));
        std::vector<int32_t> mine = {static_cast<int32_t>(rank_ + 1)};
        void* s = Upload(mine);
        void* d = Upload(std::vector<int32_t>(1));
        const int32_t want = static_cast<int32_t>(1 + (n_ > 1 ? n_ : 0));
        HcclComm saved = comm_;
        comm_ = sub;
        if (Issue("HcclAllReduce on a sub-communicator",
                  HcclAllReduce(s, d, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, sub, stream_)))
            Expect("HcclAllReduce on a sub-communicator", Download<int32_t>(d, 1),
                   std::vector<int32_t>{want});
        comm_ = saved;
        if (HcclCommDestroy(sub) != HCCL_SUCCESS) Fail("HcclCommDestroy(sub)", Msg());
        FreeAll();
    }

    HcclComm comm_;
    aclrtStream stream_;
    uint32_t rank_;
    uint32_t n_;
    int failures_ = 0;
    std::vector<void*> buffers_;
};

}  // namespace hccl_suite
