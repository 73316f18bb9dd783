// Step 2, the host program: asks the Matmul tiling API how to split a 200 x 300 x 128 product
// over the chip's cube cores, hands the tiling to the kernel in device memory with the
// workspace the Matmul API needs, launches one block per part of C, and checks C.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_matmul.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

#define CHECK_ACL(call)                                                                         \
    do {                                                                                        \
        const aclError status_ = (call);                                                        \
        if (status_ != ACL_SUCCESS) {                                                           \
            std::fprintf(stderr, "%s failed: %d (%s)\n", #call, status_, aclGetRecentErrMsg()); \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

int main() {
    constexpr int32_t M = 200, N = 300, K = 128;
    // Quarters from -2 to 2: every product and sum is exact in float, so C must match exactly.
    std::vector<aclFloat16> a(M * K), b(K * N);
    for (int32_t i = 0; i < M * K; ++i)
        a[i] = aclFloatToFloat16(((i * 7) % 17 - 8) * 0.25f);
    for (int32_t i = 0; i < K * N; ++i)
        b[i] = aclFloatToFloat16(((i * 5) % 13 - 6) * 0.25f);

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));

    // The tiling: the platform says how many cube cores and how much L1/L0 the chip has.
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling tilingApi(*platform);
    using matmul_tiling::CubeFormat;
    using matmul_tiling::DataType;
    using matmul_tiling::TPosition;
    tilingApi.SetDim(static_cast<int32_t>(platform->GetCoreNumAic()));
    tilingApi.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    tilingApi.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    tilingApi.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tilingApi.SetOrgShape(M, N, K);
    tilingApi.SetShape(M, N, K);
    tilingApi.EnableBias(false);
    tilingApi.SetBufferSpace(-1, -1, -1);  // all of L1, L0A, L0B and L0C
    optiling::TCubeTiling tiling;
    if (tilingApi.GetTiling(tiling) != 0) {
        std::fprintf(stderr, "no tiling fits %d x %d x %d\n", M, N, K);
        return 1;
    }
    const uint32_t blocks = static_cast<uint32_t>(tiling.get_usedCoreNum());
    std::printf("matmul: %d x %d x %d on %u cube cores, each %d x %d of C in %d x %d x %d steps\n",
                M, N, K, blocks, tiling.get_singleCoreM(), tiling.get_singleCoreN(),
                tiling.get_baseM(), tiling.get_baseN(), tiling.get_baseK());
    std::vector<uint8_t> tilingBytes(tiling.GetDataSize());
    tiling.SaveToBuffer(tilingBytes.data(), tilingBytes.size());

    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    const size_t aBytes = a.size() * sizeof(aclFloat16), bBytes = b.size() * sizeof(aclFloat16);
    const size_t cBytes = size_t{M} * N * sizeof(float);
    const size_t workspaceBytes = platform->GetLibApiWorkSpaceSize();
    void *aDevice = nullptr, *bDevice = nullptr, *cDevice = nullptr, *workspace = nullptr,
         *tilingDevice = nullptr;
    CHECK_ACL(aclrtMalloc(&aDevice, aBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&bDevice, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&cDevice, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&workspace, workspaceBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&tilingDevice, tilingBytes.size(), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(aDevice, aBytes, a.data(), aBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(bDevice, bBytes, b.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, tilingBytes.size(), tilingBytes.data(), tilingBytes.size(),
                          ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK_ACL(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(matmul)(blocks, stream, aDevice, bDevice,
                                                                cDevice, workspace, tilingDevice)));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    std::vector<float> c(size_t{M} * N);
    CHECK_ACL(aclrtMemcpy(c.data(), cBytes, cDevice, cBytes, ACL_MEMCPY_DEVICE_TO_HOST));

    int wrong = 0;
    for (int32_t i = 0; i < M; ++i) {
        for (int32_t j = 0; j < N; ++j) {
            float want = 0.0f;
            for (int32_t p = 0; p < K; ++p) {
                want += aclFloat16ToFloat(a[i * K + p]) * aclFloat16ToFloat(b[p * N + j]);
            }
            if (c[size_t(i) * N + j] != want && wrong++ < 5) {
                std::fprintf(stderr, "C[%d][%d] = %g, want %g\n", i, j, c[size_t(i) * N + j], want);
            }
        }
    }
    for (void* p : {aDevice, bDevice, cDevice, workspace, tilingDevice})
        CHECK_ACL(aclrtFree(p));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    std::printf("matmul: %s\n", wrong == 0 ? "C is right" : "C is WRONG");
    return wrong == 0 ? 0 : 1;
}
