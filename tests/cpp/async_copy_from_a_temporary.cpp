// Must not compile: a queued copy from a container destroyed at the end of the statement.
#include <vector>

#include "openacl/acl.hpp"

void CopyFromATemporary(acl::StreamRef stream, acl::DeviceBuffer<int>& dst) {
    stream.copy(dst, std::vector<int>(4, 0));
}
