// Misuse table, BLAS (acl/ops/acl_cblas.h).
#include "acl/ops/acl_cblas.h"
#include "misuse_table.h"

TEST(MisuseTable, Blas) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    auto* h = static_cast<aclFloat16*>(dev);
    auto* i8 = static_cast<int8_t*>(dev);
    auto* i32 = static_cast<int32_t*>(dev);
    const aclFloat16 one_h = aclFloatToFloat16(1.0f);
    const int32_t one_i = 1;
    const auto kHigh = ACL_COMPUTE_HIGH_PRECISION;

    const std::vector<MisuseRow> rows = {
        {"aclblasGemmEx(ACL_TRANS_NZ, ...)",
         [&] {
             return aclblasGemmEx(ACL_TRANS_NZ, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, &one_h, dev, 2,
                                  ACL_FLOAT16, dev, 2, ACL_FLOAT16, &one_h, dev, 2, ACL_FLOAT16,
                                  kHigh, nullptr);
         },
         ACL_ERROR_FORMAT_NOT_MATCH},
        {"aclblasGemmEx(float inputs)",
         [&] {
             return aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, &one_h, dev, 2,
                                  ACL_FLOAT, dev, 2, ACL_FLOAT, &one_h, dev, 2, ACL_FLOAT, kHigh,
                                  nullptr);
         },
         ACL_ERROR_UNSUPPORTED_DATA_TYPE},
        {"aclblasHgemm(m = -1)",
         [&] {
             return aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, -1, 2, 2, &one_h, h, 2, h,
                                 2, &one_h, h, 2, kHigh, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclblasS8gemm(host matrices)",
         [&] {
             int8_t host[4] = {};
             int32_t out[4] = {};
             return aclblasS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, &one_i, host, 2,
                                  host, 2, &one_i, out, 2, kHigh, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclblasGemvEx(incx 0)",
         [&] {
             return aclblasGemvEx(ACL_TRANS_N, 2, 2, &one_h, dev, 2, ACL_FLOAT16, dev, 0,
                                  ACL_FLOAT16, &one_h, dev, 1, ACL_FLOAT16, kHigh, nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclblasHgemv(lda 1 < n)",
         [&] {
             return aclblasHgemv(ACL_TRANS_N, 2, 2, &one_h, h, 1, h, 1, &one_h, h, 1, kHigh,
                                 nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclblasS8gemv(NULL alpha)",
         [&] {
             return aclblasS8gemv(ACL_TRANS_N, 2, 2, nullptr, i8, 2, i8, 1, &one_i, i32, 1, kHigh,
                                  nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclblasCreateHandleForGemmEx(NULL handle)",
         [&] {
             return aclblasCreateHandleForGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2,
                                                 ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, kHigh,
                                                 nullptr);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclblasCreateHandleForHgemm(transC ACL_TRANS_T)",
         [&] {
             aclopHandle* handle = nullptr;
             return aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_T, 2, 2, 2,
                                                kHigh, &handle);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclblasCreateHandleForS8gemm(k = 0)",
         [&] {
             aclopHandle* handle = nullptr;
             return aclblasCreateHandleForS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 0,
                                                 kHigh, &handle);
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclblasCreateHandleForGemvEx(float operands)",
         [&] {
             aclopHandle* handle = nullptr;
             return aclblasCreateHandleForGemvEx(ACL_TRANS_N, 2, 2, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT,
                                                 kHigh, &handle);
         },
         ACL_ERROR_UNSUPPORTED_DATA_TYPE},
        {"aclblasCreateHandleForHgemv(ACL_TRANS_NZ)",
         [&] {
             aclopHandle* handle = nullptr;
             return aclblasCreateHandleForHgemv(ACL_TRANS_NZ, 2, 2, kHigh, &handle);
         },
         ACL_ERROR_FORMAT_NOT_MATCH},
        {"aclblasCreateHandleForS8gemv(compute type 9)",
         [&] {
             aclopHandle* handle = nullptr;
             return aclblasCreateHandleForS8gemv(ACL_TRANS_N, 2, 2, static_cast<aclComputeType>(9),
                                                 &handle);
         },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
    aclrtFree(dev);
    aclrtResetDeviceForce(0);
}
