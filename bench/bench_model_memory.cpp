// The memory a loaded model holds: the process's resident set (/proc/self/statm, after
// malloc_trim, so that freed heap pages are not counted) before aclmdlLoadFromFile and after,
// once the runtime and a device are up. One model per process, loaded once: a model loaded
// again after an unload would reuse device memory whose freed pages still count as resident
// (MADV_FREE), and hide that copy. What a first load pays once per process (oneDNN's kernels,
// OpenMP's threads) is counted, a few MiB. Not a timing benchmark: docs/PERFORMANCE.md
// ("Memory held by a loaded model") says how it is used.
//
//   bench_model_memory MODEL.onnx|MODEL.om
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "acl/acl.h"

namespace {

double ResidentMiB() {
    malloc_trim(0);
    std::ifstream statm("/proc/self/statm");
    size_t size = 0, resident = 0;
    statm >> size >> resident;
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s MODEL\n", argv[0]);
        return 2;
    }
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        std::fprintf(stderr, "cannot start the runtime: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    std::ifstream file(argv[1], std::ios::binary | std::ios::ate);
    const double file_mib = static_cast<double>(file.tellg()) / (1 << 20);
    const double before = ResidentMiB();
    uint32_t id = 0;
    if (aclmdlLoadFromFile(argv[1], &id) != ACL_SUCCESS) {
        std::fprintf(stderr, "%s: %s\n", argv[1], aclGetRecentErrMsg());
        return 1;
    }
    const double loaded = ResidentMiB();
    aclmdlUnload(id);
    const double unloaded = ResidentMiB();
    std::printf(
        "%s: file %.1f MiB; resident %.1f MiB before the load, %.1f MiB loaded (%.1f MiB "
        "held), %.1f MiB after the unload\n",
        argv[1], file_mib, before, loaded, loaded - before, unloaded);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
