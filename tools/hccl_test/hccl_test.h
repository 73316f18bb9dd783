// openacl's hccl_test: the eleven programs CANN installs under tools/hccl_test/bin
// (all_reduce_test, all_gather_test, ...), with CANN's command line and output table plus a bus
// bandwidth column as nccl-tests computes it. Each program is a one-line main (main.cpp) over
// this shared code; docs/HCCL_TEST.md describes the flags, the launch modes and the checks.
#pragma once

#include <cstdint>

namespace hccl_test {

enum class Collective : uint8_t {
    kAllReduce,
    kAllGather,
    kAllGatherV,
    kAlltoAll,
    kAlltoAllV,
    kAlltoAllVC,
    kBroadcast,
    kReduceScatter,
    kReduceScatterV,
    kReduce,
    kScatter,
};

// Runs the program for `collective`; returns its exit status.
int Main(Collective collective, int argc, char** argv);

}  // namespace hccl_test
