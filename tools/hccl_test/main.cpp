// One of hccl_test's programs: CMake builds this file once per collective, naming it in
// HCCL_TEST_COLLECTIVE (kAllReduce for all_reduce_test, ...).
#include "hccl_test.h"

int main(int argc, char** argv) {
    return hccl_test::Main(hccl_test::Collective::HCCL_TEST_COLLECTIVE, argc, argv);
}
