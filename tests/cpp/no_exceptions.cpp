// The try_ forms in a program built with -fno-exceptions: failures come back as values.
#include <cstdio>
#include <string>
#include <vector>

#include "openacl/acl.hpp"

namespace {

int failures = 0;

void Expect(bool ok, const char* what) {
    if (!ok) {
        std::printf("FAILED: %s\n", what);
        ++failures;
    }
}

}  // namespace

int main() {
    auto device = acl::Device::try_create(0);
    Expect(device.has_value(), "device 0 is set");
    auto stream = acl::Stream::try_create();
    Expect(stream.has_value(), "a stream is created");
    auto buffer = acl::DeviceBuffer<int>::try_create(4);
    Expect(buffer.has_value(), "a buffer is allocated");

    std::vector<int> in = {1, 2, 3, 4}, out(4, 0);
    Expect(stream->try_copy(*buffer, in).has_value(), "copy to the device");
    Expect(stream->try_copy(out, *buffer).has_value(), "copy back");
    Expect(stream->try_synchronize().has_value(), "synchronize");
    Expect(out == in, "the data came back");

    std::vector<int> too_big(8, 0);
    acl::Status status = acl::try_copy(*buffer, too_big);
    Expect(!status && status.code() == ACL_ERROR_INVALID_PARAM, "an oversized copy fails");
    Expect(!status && status.error().function == "aclrtMemcpy", "the failure names aclrtMemcpy");
    Expect(!status && !status.error().message.empty(), "the failure carries a message");

    auto missing = acl::Device::try_create(1000);
    Expect(!missing && missing.code() == ACL_ERROR_RT_INVALID_DEVICEID,
           "device 1000 does not exist");
    if (failures == 0) std::printf("no-exceptions build OK\n");
    return failures == 0 ? 0 : 1;
}
