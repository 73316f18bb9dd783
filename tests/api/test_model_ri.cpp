// aclmdlRI* queries clients make on every launch: a stream nobody captures answers "none", and
// each thread keeps its own capture mode.
#include <gtest/gtest.h>

#include <thread>

#include "acl/acl.h"
#include "test_support.h"

namespace {
class ModelRiQueries : public DeviceTest {};
}  // namespace

TEST_F(ModelRiQueries, NoStreamIsBeingCaptured) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    int dummy = 0;
    aclmdlRI model = &dummy;
    ASSERT_EQ(aclmdlRICaptureGetInfo(stream, &status, &model), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    EXPECT_EQ(model, nullptr);
    ASSERT_EQ(aclmdlRICaptureGetInfo(nullptr, &status, nullptr), ACL_SUCCESS)
        << "the default stream, without asking for the model";
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(ModelRiQueries, ExchangingTheCaptureModeGivesBackThePreviousOne) {
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) << "the default";
    mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
    ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    std::thread([] {
        aclmdlRICaptureMode other = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
        EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(&other), ACL_SUCCESS);
        EXPECT_EQ(other, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) << "each thread has its own";
    }).join();
    mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;  // as the other tests expect it
    ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
}
