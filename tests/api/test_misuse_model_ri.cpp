// Misuse table, the aclmdlRI* queries (aclmdlRICaptureGetInfo,
// aclmdlRICaptureThreadExchangeMode).
#include "misuse_table.h"

TEST(MisuseTable, ModelRiQueries) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclmdlRICaptureStatus status{};
    auto bad_mode = static_cast<aclmdlRICaptureMode>(7);
    int not_a_stream = 0;
    const std::vector<MisuseRow> rows = {
        {"aclmdlRICaptureGetInfo(NULL status)",
         [&] { return aclmdlRICaptureGetInfo(nullptr, nullptr, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureGetInfo(not a stream)",
         [&] { return aclmdlRICaptureGetInfo(&not_a_stream, &status, nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureThreadExchangeMode(NULL)",
         [&] { return aclmdlRICaptureThreadExchangeMode(nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclmdlRICaptureThreadExchangeMode(mode 7)",
         [&] { return aclmdlRICaptureThreadExchangeMode(&bad_mode); }, ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtResetDeviceForce(0);
}
