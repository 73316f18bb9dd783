// hccl_test's driver (hccl_test.h): the command line, the launch (MPI processes or threads of
// this process), the loop over data sizes with event timing, the checks and the table.
#include "hccl_test.h"

#include <getopt.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "operations.h"

#ifdef OPENACL_HCCL_TEST_MPI
#include <mpi.h>
#endif

namespace hccl_test {
namespace {

#ifdef OPENACL_HCCL_TEST_MPI
constexpr bool kHaveMpi = true;
#else
constexpr bool kHaveMpi = false;
#endif

// ---- The command line ------------------------------------------------------------------------

struct Options {
    uint64_t min_bytes = uint64_t{64} << 20;
    uint64_t max_bytes = uint64_t{64} << 20;
    uint64_t step_bytes = 0;
    bool step_bytes_set = false;
    double step_factor = 1;
    bool step_factor_set = false;
    int64_t iters = 20;
    int64_t warmup = 5;
    HcclReduceOp op = HCCL_REDUCE_SUM;
    bool op_set = false;
    HcclDataType type = HCCL_DATA_TYPE_FP32;
    int64_t root = 0;
    int64_t check = 1;
    int64_t npus = -1;  // -1: not given
    // Flags of CANN's tool that openacl accepts but does not act on, with the reason.
    std::vector<std::string> ignored;
};

struct NamedType {
    const char* name;
    HcclDataType type;
};
constexpr NamedType kTypes[] = {
    {"int8", HCCL_DATA_TYPE_INT8},       {"int16", HCCL_DATA_TYPE_INT16},
    {"int32", HCCL_DATA_TYPE_INT32},     {"fp16", HCCL_DATA_TYPE_FP16},
    {"fp32", HCCL_DATA_TYPE_FP32},       {"int64", HCCL_DATA_TYPE_INT64},
    {"uint64", HCCL_DATA_TYPE_UINT64},   {"uint8", HCCL_DATA_TYPE_UINT8},
    {"uint16", HCCL_DATA_TYPE_UINT16},   {"uint32", HCCL_DATA_TYPE_UINT32},
    {"fp64", HCCL_DATA_TYPE_FP64},       {"bfp16", HCCL_DATA_TYPE_BFP16},
    {"bf16", HCCL_DATA_TYPE_BFP16},      {"hif8", HCCL_DATA_TYPE_HIF8},
    {"fp8e4m3", HCCL_DATA_TYPE_FP8E4M3}, {"fp8e5m2", HCCL_DATA_TYPE_FP8E5M2},
    {"fp8e8m0", HCCL_DATA_TYPE_FP8E8M0},
};

const char* TypeName(HcclDataType type) {
    for (const NamedType& t : kTypes) {
        if (t.type == type) return t.name;
    }
    return "?";
}

void PrintUsage(Collective c) {
    std::printf(
        "USAGE: %s\n"
        "\t[-b,--minbytes <min size in bytes>] (K, M, G suffixes; default 64M)\n"
        "\t[-e,--maxbytes <max size in bytes>] (default 64M)\n"
        "\t[-i,--stepbytes <increment size>] (default (max - min) / 10; 0 repeats the min size "
        "until interrupted)\n"
        "\t[-f,--stepfactor <increment factor>] (> 1; wins over -i)\n"
        "\t[-n,--iters <iteration count>] (default 20)\n"
        "\t[-w,--warmup_iters <warmup iteration count>] (default 5)\n"
        "\t[-o,--op <sum/prod/max/min>] (default sum)\n"
        "\t[-d,--datatype <int8/int16/int32/fp16/fp32/int64/uint64/uint8/uint16/uint32/fp64/"
        "bfp16/hif8/fp8e4m3/fp8e5m2/fp8e8m0>] (default fp32)\n"
        "\t[-r,--root <root>] (default 0)\n"
        "\t[-c,--check <0/1>] (check every result against the host: default 1)\n"
        "\t[-p,--npus <npus used for one node>] (without mpirun: the number of ranks, run as\n"
        "\t threads of this process on virtual devices 0..npus-1)\n"
        "\t[-m, -z,--zero_copy, -s, -t, -a <value>] (accepted for CANN's command lines; "
        "openacl ignores them and says why)\n"
        "\t[-h,--help]\n",
        ProgramName(c));
}

// A size: digits (decimal, 0x hexadecimal) and an optional K, M or G (powers of 1024).
std::optional<uint64_t> ParseSize(const char* text) {
    if (text == nullptr || *text == '\0' || *text == '-') return std::nullopt;
    errno = 0;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 0);
    if (errno != 0 || end == text) return std::nullopt;
    uint64_t unit = 1;
    if (*end != '\0') {
        if (end[1] != '\0') return std::nullopt;
        switch (*end) {
            case 'k':
            case 'K':
                unit = uint64_t{1} << 10;
                break;
            case 'm':
            case 'M':
                unit = uint64_t{1} << 20;
                break;
            case 'g':
            case 'G':
                unit = uint64_t{1} << 30;
                break;
            default:
                return std::nullopt;
        }
    }
    if (value > UINT64_MAX / unit) return std::nullopt;
    return value * unit;
}

// A non-negative integer written in digits only.
std::optional<int64_t> ParseCount(const char* text) {
    if (text == nullptr || *text == '\0') return std::nullopt;
    for (const char* p = text; *p != '\0'; ++p) {
        if (*p < '0' || *p > '9') return std::nullopt;
    }
    errno = 0;
    const long long value = std::strtoll(text, nullptr, 10);
    if (errno != 0 || value > INT32_MAX) return std::nullopt;
    return value;
}

enum class Parsed { kRun, kHelp, kError };

// Parses argv into `o`. Errors are printed only when `speak` (one rank of an MPI launch).
Parsed ParseCommandLine(Collective c, int argc, char** argv, bool speak, Options* o) {
    static const option kLong[] = {
        {"minbytes", required_argument, nullptr, 'b'},
        {"maxbytes", required_argument, nullptr, 'e'},
        {"stepbytes", required_argument, nullptr, 'i'},
        {"stepfactor", required_argument, nullptr, 'f'},
        {"iters", required_argument, nullptr, 'n'},
        {"warmup_iters", required_argument, nullptr, 'w'},
        {"op", required_argument, nullptr, 'o'},
        {"datatype", required_argument, nullptr, 'd'},
        {"root", required_argument, nullptr, 'r'},
        {"check", required_argument, nullptr, 'c'},
        {"npus", required_argument, nullptr, 'p'},
        {"zero_copy", required_argument, nullptr, 'z'},
        {"help", no_argument, nullptr, 'h'},
        {nullptr, 0, nullptr, 0},
    };
    auto error = [speak](const char* format, const char* what) {
        if (speak) {
            std::printf("Error: ");
            std::printf(format, what);
            std::printf("\n");
        }
        return Parsed::kError;
    };
    auto count = [](int64_t* out) {
        const std::optional<int64_t> v = ParseCount(optarg);
        if (v) *out = *v;
        return v.has_value();
    };
    // Flags CANN's tool has for hardware openacl does not model: accepted, explained, ignored.
    auto ignore = [o](char flag, const char* why) {
        if (std::strcmp(optarg, "0") == 0) return;  // asked for the default: nothing to say
        char text[320];
        std::snprintf(text, sizeof text,
                      "Warning: -%c %s is not supported by openacl: %s; ignored.", flag, optarg,
                      why);
        o->ignored.emplace_back(text);
    };
    opterr = 0;
    optind = 1;
    int flag;
    while ((flag = getopt_long(argc, argv, ":b:e:i:f:n:w:o:d:r:c:p:m:z:s:t:a:h", kLong, nullptr)) !=
           -1) {
        switch (flag) {
            case 'b':
            case 'e': {
                const std::optional<uint64_t> v = ParseSize(optarg);
                if (!v) {
                    return error(
                        "[-b,--minbytes] or [-e,--maxbytes] is invalid: \"%s\" is not "
                        "a size (digits with an optional K, M or G)",
                        optarg);
                }
                (flag == 'b' ? o->min_bytes : o->max_bytes) = *v;
                break;
            }
            case 'i': {
                const std::optional<uint64_t> v = ParseSize(optarg);
                if (!v) {
                    return error("[-i,--stepbytes] is invalid: \"%s\" is not a size of 0 or more",
                                 optarg);
                }
                o->step_bytes = *v;
                o->step_bytes_set = true;
                break;
            }
            case 'f': {
                char* end = nullptr;
                o->step_factor = std::strtod(optarg, &end);
                if (end == optarg || *end != '\0' || !(o->step_factor > 1.0)) {
                    return error(
                        "[-f,--stepfactor] is invalid: \"%s\"; it must be a number "
                        "greater than 1",
                        optarg);
                }
                o->step_factor_set = true;
                break;
            }
            case 'n':
                if (!count(&o->iters)) {
                    return error(
                        "[-n,--iters] is invalid: \"%s\"; it must be an integer of 0 or "
                        "more",
                        optarg);
                }
                break;
            case 'w':
                if (!count(&o->warmup)) {
                    return error(
                        "[-w,--warmup_iters] is invalid: \"%s\"; it must be an integer "
                        "of 0 or more",
                        optarg);
                }
                break;
            case 'o': {
                static const char* const kOps[] = {"sum", "prod", "max", "min"};
                static const HcclReduceOp kOpValues[] = {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD,
                                                         HCCL_REDUCE_MAX, HCCL_REDUCE_MIN};
                bool found = false;
                for (size_t i = 0; i < 4; ++i) {
                    if (std::strcmp(optarg, kOps[i]) == 0) {
                        o->op = kOpValues[i];
                        found = true;
                    }
                }
                if (!found)
                    return error("[-o,--op] is invalid: \"%s\"; use sum, prod, max or min", optarg);
                o->op_set = true;
                break;
            }
            case 'd': {
                bool found = false;
                for (const NamedType& t : kTypes) {
                    if (std::strcmp(optarg, t.name) == 0) {
                        o->type = t.type;
                        found = true;
                    }
                }
                if (!found) {
                    return error("[-d,--datatype] is invalid: \"%s\"; see -h for the types",
                                 optarg);
                }
                break;
            }
            case 'r':
                if (!count(&o->root)) {
                    return error("[-r,--root] is invalid: \"%s\"; it must be a rank", optarg);
                }
                break;
            case 'c':
                if (!count(&o->check) || o->check > 1) {
                    return error("[-c,--check] is invalid: \"%s\"; use 0 (off) or 1 (on)", optarg);
                }
                break;
            case 'p':
                if (!count(&o->npus) || o->npus < 1) {
                    return error("[-p,--npus] is invalid: \"%s\"; it must be 1 or more", optarg);
                }
                break;
            case 'm':
                ignore('m',
                       "symmetric memory windows (HcclCommSymWin*) are not implemented; "
                       "buffers come from aclrtMalloc");
                break;
            case 'z':
                ignore('z',
                       "zero copy needs the Atlas A3's mapped memory ranges; buffers come from "
                       "aclrtMalloc");
                break;
            case 's':
                ignore('s', "NSLB is a feature of the switches between servers");
                break;
            case 't':
                ignore('t',
                       "device-only timing needs the NPU's task timestamps; the events time "
                       "the stream, host enqueue included, as with -t 0");
                break;
            case 'a':
                ignore('a', "accelerator selection applies to the Ascend 950 only");
                break;
            case 'h':
                PrintUsage(c);
                return Parsed::kHelp;
            case ':':
                return error("option %s needs a value; try -h", argv[optind - 1]);
            default: {
                char name[3] = {'-', static_cast<char>(optopt), '\0'};
                return error("invalid option %s; try -h", optopt != 0 ? name : argv[optind - 1]);
            }
        }
    }
    if (optind < argc) return error("unexpected argument \"%s\"; try -h", argv[optind]);
    if (o->max_bytes < o->min_bytes) {
        return error("%s", "maxbytes < minbytes: check [-b,--minbytes] and [-e,--maxbytes]");
    }
    return Parsed::kRun;
}

// ---- Data sizes ------------------------------------------------------------------------------

constexpr uint64_t kAlignedAbove = uint64_t{1} << 20;  // CANN aligns sizes above 1 MiB ...
constexpr uint64_t kAlignUnit = 512;                   // ... to ranks x 512 bytes

struct Sizes {
    uint64_t min = 0, max = 0, step = 0;
    double factor = 1;  // > 1: multiply instead of adding step
};

// CANN's rules: collectives that split the data among the ranks get sizes that divide by the
// rank count (and above 1 MiB by ranks x 512); the step is rounded up the same way.
Sizes MakeSizes(const Options& o, Collective c, uint32_t ranks) {
    Sizes s;
    s.min = o.min_bytes;
    s.max = o.max_bytes;
    if (o.step_bytes_set) {
        s.step = o.step_bytes;
    } else {
        s.step = s.max > s.min ? (s.max - s.min) / 10 : 1;
    }
    if (o.step_factor_set) s.factor = o.step_factor;
    if (SplitsData(c)) {
        const uint64_t fine = ranks, coarse = ranks * kAlignUnit;
        auto down = [&](uint64_t v) {
            v = std::max<uint64_t>(v, fine);
            return v > kAlignedAbove ? v / coarse * coarse : v / fine * fine;
        };
        auto up = [&](uint64_t v) {
            const uint64_t unit = v > kAlignedAbove ? coarse : fine;
            return (v + unit - 1) / unit * unit;
        };
        s.min = down(s.min);
        s.max = down(s.max);
        s.step = up(s.step);
    }
    return s;
}

// The size after `size`; equal to it only with -i 0, which repeats the first size.
uint64_t NextSize(const Sizes& s, uint64_t size) {
    if (s.factor > 1) {
        const double next = static_cast<double>(size) * s.factor;
        if (next >= 18446744073709549568.0) return UINT64_MAX;
        return std::max(size + 1, static_cast<uint64_t>(next));
    }
    return size > UINT64_MAX - s.step ? UINT64_MAX : size + s.step;
}

uint64_t AlignedSize(Collective c, uint32_t ranks, uint64_t size) {
    if (!SplitsData(c) || size <= kAlignedAbove) return size;
    const uint64_t unit = uint64_t{ranks} * kAlignUnit;
    return (size + unit - 1) / unit * unit;
}

// ---- The ranks' meeting point ----------------------------------------------------------------

// What the ranks share besides HCCL itself: the root info, the check results, an abort.
class Group {
 public:
    virtual ~Group() = default;
    // Every rank calls it; `mine` is this rank's vote. Returns whether any rank voted true.
    virtual bool Any(bool mine) = 0;
    // The root's `info` reaches every rank; false on every rank when the root passes ok=false.
    virtual bool ShareRootInfo(uint32_t rank, uint32_t root, HcclRootInfo* info, bool ok) = 0;
    // Ends every rank's process now (a failed call would leave the others waiting).
    [[noreturn]] virtual void Abort(int code) = 0;
};

// Ranks as threads of this process.
class ThreadGroup final : public Group {
 public:
    explicit ThreadGroup(uint32_t ranks) : ranks_(ranks) {}

    bool Any(bool mine) override {
        std::unique_lock lock(mutex_);
        const uint64_t generation = generation_;
        votes_ = votes_ || mine;
        if (++arrived_ == ranks_) {
            result_ = votes_;
            votes_ = false;
            arrived_ = 0;
            ++generation_;
            all_.notify_all();
            return result_;
        }
        all_.wait(lock, [&] { return generation_ != generation; });
        return result_;  // read under the lock: the next round needs this thread to finish
    }

    bool ShareRootInfo(uint32_t rank, uint32_t root, HcclRootInfo* info, bool ok) override {
        if (rank == root) shared_ = *info;
        if (Any(rank == root && !ok)) return false;
        if (rank != root) *info = shared_;
        return true;
    }

    [[noreturn]] void Abort(int code) override {
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(code);
    }

 private:
    const uint32_t ranks_;
    std::mutex mutex_;
    std::condition_variable all_;
    uint64_t generation_ = 0;
    uint32_t arrived_ = 0;
    bool votes_ = false;
    bool result_ = false;
    HcclRootInfo shared_{};
};

#ifdef OPENACL_HCCL_TEST_MPI
// Ranks as MPI processes: the root info goes out by broadcast, as with CANN's tool; a root that
// could not make one broadcasts the word "invalid" instead.
class MpiGroup final : public Group {
 public:
    bool Any(bool mine) override {
        int in = mine ? 1 : 0, out = 0;
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
        return out != 0;
    }

    bool ShareRootInfo(uint32_t rank, uint32_t root, HcclRootInfo* info, bool ok) override {
        static constexpr char kInvalid[] = "invalid";
        if (rank == root && !ok) {
            std::memset(info, 0, sizeof *info);
            std::memcpy(info->internal, kInvalid, sizeof kInvalid);
        }
        MPI_Bcast(info->internal, HCCL_ROOT_INFO_BYTES, MPI_CHAR, static_cast<int>(root),
                  MPI_COMM_WORLD);
        return std::memcmp(info->internal, kInvalid, sizeof kInvalid) != 0;
    }

    [[noreturn]] void Abort(int code) override {
        std::fflush(stdout);
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, code);
        std::_Exit(code);
    }
};
#endif

// ---- One rank --------------------------------------------------------------------------------

struct Job {
    Collective collective;
    Options options;
    Setup setup;
    Sizes sizes;
    Group* group = nullptr;
};

enum class Verdict { kSuccess, kFailed, kNull };

class Rank {
 public:
    Rank(const Job& job, uint32_t rank, int32_t device)
        : job_(job), rank_(rank), device_(device), reporter_(rank == job.setup.root) {}

    // Runs every data size; returns the exit status (0, or 1 when a check failed).
    int Run() {
        Acl(aclrtSetDevice(device_), "aclrtSetDevice");
        Acl(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), "aclrtSetDeviceSatMode");
        Acl(aclrtCreateEvent(&start_), "aclrtCreateEvent");
        Acl(aclrtCreateEvent(&end_), "aclrtCreateEvent");
        Acl(aclrtCreateStream(&stream_), "aclrtCreateStream");
        Acl(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), "aclrtSetStreamFailureMode");
        JoinCommunicator();
        Warnings();
        bool failed = false;
        const Sizes& s = job_.sizes;
        const uint32_t ranks = job_.setup.ranks;
        for (uint64_t size = s.min; size <= s.max;) {
            size = AlignedSize(job_.collective, ranks, size);
            if (size > s.max) break;
            failed = RunSize(size) || failed;
            const uint64_t next = NextSize(s, size);
            if (next == UINT64_MAX && size == UINT64_MAX) break;
            size = next;
        }
        Hccl(HcclCommDestroy(comm_), "HcclCommDestroy");
        Acl(aclrtDestroyStream(stream_), "aclrtDestroyStream");
        Acl(aclrtDestroyEvent(start_), "aclrtDestroyEvent");
        Acl(aclrtDestroyEvent(end_), "aclrtDestroyEvent");
        Acl(aclrtResetDevice(device_), "aclrtResetDevice");
        return failed ? 1 : 0;
    }

 private:
    void JoinCommunicator() {
        const Options& o = job_.options;
        const uint32_t root = job_.setup.root;
        HcclRootInfo info{};
        bool ok = true;
        if (reporter_) {
            std::printf("the minbytes is %" PRIu64 ", maxbytes is %" PRIu64
                        ", iters is %d, warmup_iters is %d\n",
                        job_.sizes.min, job_.sizes.max, static_cast<int>(o.iters),
                        static_cast<int>(o.warmup));
            const HcclResult rc = HcclGetRootInfo(&info);
            if (rc != HCCL_SUCCESS) {
                Report("HcclGetRootInfo", static_cast<int>(rc), HcclGetErrorString(rc));
                ok = false;
            }
        }
        if (!job_.group->ShareRootInfo(rank_, root, &info, ok)) {
            if (!reporter_) {
                std::printf("rank %u: the root rank %u could not make the root info; exiting\n",
                            rank_, root);
            }
            job_.group->Abort(1);
        }
        Hccl(HcclCommInitRootInfo(job_.setup.ranks, &info, rank_, &comm_), "HcclCommInitRootInfo");
    }

    void Warnings() {
        if (!reporter_) return;
        for (const std::string& line : job_.options.ignored)
            std::printf("%s\n", line.c_str());
        if (job_.options.op_set && !Reduces(job_.collective)) {
            std::printf("Warning: -o,--op has no effect: %s does not reduce.\n",
                        FunctionName(job_.collective));
        }
        if (job_.options.check == 1 && !Checkable(job_.setup)) {
            std::printf(
                "Warning: a %s sum over %u ranks overflows what %s holds exactly: the "
                "results are not checked (NULL).\n",
                FunctionName(job_.collective), job_.setup.ranks, TypeName(job_.setup.type));
        }
    }

    // One data size: buffers, warm-up, the timed calls, the check and the table row. Returns
    // whether the check failed on any rank.
    bool RunSize(uint64_t size) {
        const Setup& setup = job_.setup;
        const size_t es = ElementSize(setup.type);
        const Layout layout = Plan(setup, rank_, size);
        void* send = Allocate(layout.send_elems * es);
        void* recv = Allocate(layout.recv_elems * es);
        {
            std::vector<uint8_t> host;
            FillSend(setup, layout, rank_, &host);
            Upload(send, host);
            FillRecv(setup, layout, rank_, &host);
            Upload(recv, host);
        }
        const Options& o = job_.options;
        for (int64_t i = 0; i < o.warmup; ++i)
            Hccl(Issue(setup, layout, send, recv, comm_, stream_), FunctionName(job_.collective));
        Acl(aclrtRecordEvent(start_, stream_), "aclrtRecordEvent");
        for (int64_t i = 0; i < o.iters; ++i)
            Hccl(Issue(setup, layout, send, recv, comm_, stream_), FunctionName(job_.collective));
        Acl(aclrtRecordEvent(end_, stream_), "aclrtRecordEvent");
        Acl(aclrtSynchronizeStream(stream_), "aclrtSynchronizeStream");
        float ms = 0;
        Acl(aclrtEventElapsedTime(&ms, start_, end_), "aclrtEventElapsedTime");
        const double avg_us = o.iters > 0 ? static_cast<double>(ms) * 1000.0 / o.iters : 0.0;
        const double algbw =
            avg_us > 0 ? static_cast<double>(layout.moved_bytes) / avg_us / 1e3 : 0;
        const double busbw = algbw * BusFactor(job_.collective, setup.ranks);

        Verdict verdict = Verdict::kNull;
        if (o.check == 1 && Checkable(setup)) {
            verdict = Verdict::kSuccess;
            std::vector<uint8_t> want;
            if (Expect(setup, layout, rank_, &want)) {
                std::vector<uint8_t> got(want.size());
                Download(got, recv);
                const std::string why = FirstDifference(setup, got, want);
                if (!why.empty()) {
                    verdict = Verdict::kFailed;
                    std::printf("rank id %u, check result failed, %-17" PRIu64
                                " | %-14.2f | %-20.5f | failed\n"
                                "rank id %u: %s\n",
                                rank_, size, avg_us, algbw, rank_, why.c_str());
                }
            }
        }
        if (send != nullptr) Acl(aclrtFree(send), "aclrtFree");
        if (recv != nullptr) Acl(aclrtFree(recv), "aclrtFree");
        const bool any_failed = job_.group->Any(verdict == Verdict::kFailed);
        if (reporter_) {
            if (!header_printed_) {
                std::printf("%-15s | %-12s | %-18s | %-13s | %s\n",
                            "data_size(Bytes):", "aveg_time(us):", "alg_bandwidth(GB/s):",
                            "check_result:", "bus_bandwidth(GB/s):");
                header_printed_ = true;
            }
            const char* result =
                any_failed ? "failed" : (verdict == Verdict::kNull ? "NULL" : "success");
            std::printf("%-17" PRIu64 " | %-14.2f | %-20.5f | %-13s | %.5f\n", size, avg_us, algbw,
                        result, busbw);
        }
        return any_failed;
    }

    void* Allocate(uint64_t bytes) {
        if (bytes == 0) return nullptr;
        void* p = nullptr;
        Acl(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
        return p;
    }
    void Upload(void* device, const std::vector<uint8_t>& host) {
        if (host.empty()) return;
        Acl(aclrtMemcpy(device, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE),
            "aclrtMemcpy");
    }
    void Download(std::vector<uint8_t>& host, const void* device) {
        if (host.empty()) return;
        Acl(aclrtMemcpy(host.data(), host.size(), device, host.size(), ACL_MEMCPY_DEVICE_TO_HOST),
            "aclrtMemcpy");
    }

    void Report(const char* call, int code, const char* name) {
        const char* detail = aclGetRecentErrMsg();
        std::printf("rank %u: %s returned %d (%s)%s%s\n", rank_, call, code, name,
                    detail != nullptr && *detail != '\0' ? ": " : "",
                    detail != nullptr ? detail : "");
    }
    void Acl(aclError rc, const char* call) {
        if (rc == ACL_SUCCESS) return;
        Report(call, rc, "acl error");
        job_.group->Abort(1);
    }
    void Hccl(HcclResult rc, const char* call) {
        if (rc == HCCL_SUCCESS) return;
        Report(call, static_cast<int>(rc), HcclGetErrorString(rc));
        job_.group->Abort(1);
    }

    const Job& job_;
    const uint32_t rank_;
    const int32_t device_;
    const bool reporter_;  // the root rank prints the table, as CANN's tool does
    HcclComm comm_ = nullptr;
    aclrtStream stream_ = nullptr;
    aclrtEvent start_ = nullptr, end_ = nullptr;
    bool header_printed_ = false;
};

// ---- The launch ------------------------------------------------------------------------------

// Where mpirun says this process is: Open MPI's variables, else MPICH's (Hydra's PMI).
struct Launch {
    bool by_mpi = false;
    uint32_t rank = 0;
    uint32_t size = 1;
};

Launch DetectLaunch() {
    Launch l;
    const char* pairs[][2] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                              {"PMI_RANK", "PMI_SIZE"}};
    for (const auto& pair : pairs) {
        const char* rank = std::getenv(pair[0]);
        const char* size = std::getenv(pair[1]);
        if (rank == nullptr || size == nullptr) continue;
        l.by_mpi = true;
        l.rank = static_cast<uint32_t>(std::strtoul(rank, nullptr, 10));
        l.size = static_cast<uint32_t>(std::max(1ul, std::strtoul(size, nullptr, 10)));
        break;
    }
    return l;
}

// HCCL_TEST_USE_DEVS: the devices to use ("4,5,6,7"), sorted; empty when not set.
std::vector<int32_t> DeviceList() {
    std::vector<int32_t> devices;
    const char* text = std::getenv("HCCL_TEST_USE_DEVS");
    if (text == nullptr) return devices;
    const char* p = text;
    while (*p != '\0') {
        char* end = nullptr;
        const long id = std::strtol(p, &end, 10);
        if (end == p) break;
        if (id >= 0) devices.push_back(static_cast<int32_t>(id));
        p = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0') break;
    }
    std::sort(devices.begin(), devices.end());
    return devices;
}

}  // namespace

int Main(Collective collective, int argc, char** argv) {
    setvbuf(stdout, nullptr, _IOLBF, 0);  // lines appear as they are printed, as CANN's do
    const Launch launch = DetectLaunch();
    const bool mpi = launch.by_mpi && launch.size > 1;
    if (mpi && !kHaveMpi) {
        if (launch.rank == 0) {
            std::printf(
                "Error: %s was started by mpirun with %u processes, but this build of openacl's "
                "hccl_test has no MPI (install libopenmpi-dev, reconfigure and rebuild). Without "
                "MPI, run the ranks as threads of one process: %s -p %u ...\n",
                ProgramName(collective), launch.size, ProgramName(collective), launch.size);
        }
        return 1;
    }
#ifdef OPENACL_HCCL_TEST_MPI
    if (mpi) MPI_Init(&argc, &argv);
    auto finalize_mpi = [mpi] {
        if (mpi) MPI_Finalize();
    };
#else
    auto finalize_mpi = [] {};
#endif
    Options options;
    const Parsed parsed =
        ParseCommandLine(collective, argc, argv, !mpi || launch.rank == 0, &options);
    if (parsed != Parsed::kRun) {
        finalize_mpi();
        return parsed == Parsed::kHelp ? 0 : 1;
    }
    const bool speak = !mpi || launch.rank == 0;
    auto fail = [&](const char* format, auto... args) {
        if (speak) {
            std::printf(format, args...);
            std::printf("\n");
        }
        finalize_mpi();
        return 1;
    };

    // Devices. Ranks of one process need one virtual device each (OPENACL_DEVICE_COUNT):
    // it is set here when the user did not, before aclInit reads it.
    const std::vector<int32_t> devices = DeviceList();
    const bool count_given = std::getenv("OPENACL_DEVICE_COUNT") != nullptr;
    if (!count_given && (options.npus > 0 || !devices.empty())) {
        int64_t needed = options.npus > 0 ? options.npus : 1;
        if (!devices.empty()) needed = std::max<int64_t>(needed, devices.back() + 1);
        setenv("OPENACL_DEVICE_COUNT", std::to_string(needed).c_str(), 0);
    }
    if (const aclError rc = aclInit(nullptr); rc != ACL_SUCCESS) {
        const char* detail = aclGetRecentErrMsg();
        return fail("Error: aclInit returned %d: %s", rc, detail != nullptr ? detail : "");
    }
    uint32_t device_count = 0;
    aclrtGetDeviceCount(&device_count);
    if (device_count == 0) {
        aclFinalize();
        return fail("%s", "Error: there is no device (OPENACL_DEVICE_COUNT).");
    }
    const int64_t npus = options.npus > 0 ? options.npus : device_count;
    if (npus > static_cast<int64_t>(device_count)) {
        aclFinalize();
        return fail(
            "Error: [-p,--npus] is invalid: npus must be from 1 to %u, the number of "
            "devices (OPENACL_DEVICE_COUNT is set to %u; raise it, or unset it and let "
            "-p set it).",
            device_count, device_count);
    }
    const uint32_t ranks = mpi ? launch.size : static_cast<uint32_t>(npus);
    if (options.root >= ranks) {
        aclFinalize();
        return fail("Error: [-r,--root] is invalid: the root must be from 0 to %u.", ranks - 1);
    }
    for (int32_t d : devices) {
        if (d >= static_cast<int32_t>(device_count)) {
            aclFinalize();
            return fail("Error: HCCL_TEST_USE_DEVS names device %d, but there are %u devices.", d,
                        device_count);
        }
    }
    auto device_of = [&](uint32_t rank) {
        if (!devices.empty()) return devices[rank % devices.size()];
        return static_cast<int32_t>(rank % npus);
    };

    Job job;
    job.collective = collective;
    job.options = options;
    job.setup.collective = collective;
    job.setup.type = options.type;
    job.setup.op = options.op;
    job.setup.ranks = ranks;
    job.setup.root = static_cast<uint32_t>(options.root);
    job.sizes = MakeSizes(options, collective, ranks);

    int status = 0;
#ifdef OPENACL_HCCL_TEST_MPI
    if (mpi) {
        MpiGroup group;
        job.group = &group;
        status = Rank(job, launch.rank, device_of(launch.rank)).Run();
    }
#endif
    if (!mpi) {
        ThreadGroup group(ranks);
        job.group = &group;
        std::vector<int> statuses(ranks, 0);
        std::vector<std::thread> threads;
        for (uint32_t r = 0; r < ranks; ++r)
            threads.emplace_back([&, r] { statuses[r] = Rank(job, r, device_of(r)).Run(); });
        for (std::thread& t : threads)
            t.join();
        status = *std::max_element(statuses.begin(), statuses.end());
    }
    aclFinalize();
    finalize_mpi();
    return status;
}

}  // namespace hccl_test
