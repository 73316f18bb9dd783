// Must not compile: a kernel argument that is freed at the end of the statement.
#include "openacl/acl.hpp"

void LaunchWithATemporary(acl::StreamRef stream, acl::Kernel kernel) {
    stream.launch(kernel, 1, acl::DeviceBuffer<float>::create(4));
}
