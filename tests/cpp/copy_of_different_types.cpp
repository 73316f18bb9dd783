// Must not compile: a typed copy between different element types.
#include <vector>

#include "openacl/acl.hpp"

void CopyFloatsIntoInts(acl::DeviceBuffer<int>& dst, const std::vector<float>& src) {
    acl::copy(dst, src);
}
