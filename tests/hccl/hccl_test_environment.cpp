// The environment every HCCL test expects: four virtual devices, the network on loopback only
// (HCCL_IF_IP), and listening ports the system picks, so that test processes running side by
// side never compete for HCCL's fixed range (HCCL_HOST_SOCKET_PORT_RANGE=auto).
// tests/hccl/CMakeLists.txt asks ctest for it, but gtest_discover_tests (CMake 3.25) splits a list
// of ENVIRONMENT values into separate properties, so only the first reaches the tests; these
// defaults fill in what is missing before main runs. Values set by whoever starts the tests win.
#include <cstdlib>

namespace {

const bool kEnvironmentSet = [] {
    setenv("OPENACL_DEVICE_COUNT", "4", 0);
    setenv("HCCL_IF_IP", "127.0.0.1", 0);
    setenv("HCCL_HOST_SOCKET_PORT_RANGE", "auto", 0);
    return true;
}();

}  // namespace
