// Must not compile: host memory passed to a kernel.
#include <vector>

#include "openacl/acl.hpp"

void LaunchWithHostMemory(acl::StreamRef stream, acl::Kernel kernel, std::vector<float>& host) {
    stream.launch(kernel, 1, host);
}
