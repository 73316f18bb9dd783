// What the C++ layer's tests share: a fixture that holds device 0 through acl::Device, and
// readers of the runtime's state that do not go through the layer under test.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "acl/acl.h"
#include "openacl/acl.hpp"

namespace cpp_test {

// The newest error message ("" if none), clearing the messages.
inline std::string RecentMessage() {
    const char* message = aclGetRecentErrMsg();
    return message != nullptr ? message : "";
}

// Free device memory of the current context's device, in bytes.
inline size_t FreeDeviceMemory() {
    size_t free = 0, total = 0;
    EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
    return free;
}

// Device 0, set for the test by the layer's own guard and reset when the test ends.
class DeviceTest : public ::testing::Test {
 protected:
    void SetUp() override { RecentMessage(); }
    acl::Device device_{0};
};

}  // namespace cpp_test
