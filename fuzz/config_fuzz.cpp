// Fuzz target: the aclInit configuration file. Whatever the bytes, aclInit must return a code
// (and, when it succeeds, aclFinalize must undo it): no crash, hang or leak.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "acl/acl.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // A "trace" key names a file the runtime writes at aclFinalize: the fuzzer would write
    // files wherever its mutations pointed (as root, anywhere). Those inputs are skipped.
    if (std::string_view(reinterpret_cast<const char*>(data), size).find("trace") !=
        std::string_view::npos) {
        return 0;
    }
    // aclInit reads a path: an anonymous in-memory file keeps the fuzzer off the disk.
    static const int fd = memfd_create("openacl-config-fuzz", MFD_CLOEXEC);
    static const std::string path = "/proc/self/fd/" + std::to_string(fd);
    if (fd < 0 || ftruncate(fd, 0) != 0 ||
        pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) {
        return 0;
    }
    if (aclInit(path.c_str()) == ACL_SUCCESS) {
        // Some keys only act once a device is set: exercise them too.
        if (aclrtSetDevice(0) == ACL_SUCCESS) aclrtResetDevice(0);
        aclFinalize();
    }
    aclGetRecentErrMsg();  // keep the per-thread message list from growing
    return 0;
}
