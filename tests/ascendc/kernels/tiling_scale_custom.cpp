// A framework-style kernel: its tiling arrives as bytes the host wrote with SaveToBuffer, read
// with GET_TILING_DATA into the plain struct the op compiler would generate from the
// BEGIN_TILING_DATA_DEF definition (same fields, same order). y[i] = x[i] * scale + bias[i % 4].
#include <cstdint>

namespace {

struct TilingInner {
    uint16_t rows;
    uint64_t stamp;
};
struct ScaleTiling {
    uint8_t flag;
    uint32_t length;
    float scale;
    float bias[4];
    TilingInner inner;
};

}  // namespace

// The build names the tiling type (CANN's op compiler generates this per operator).
#define OPENACL_TILING_DATA_TYPE ScaleTiling
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void tiling_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                          GM_ADDR tiling) {
    GET_TILING_DATA(tilingData, tiling);
    auto* user = reinterpret_cast<__gm__ uint64_t*>(AscendC::GetUserWorkspace(workspace));
    user[0] = tilingData.inner.stamp + tilingData.inner.rows + tilingData.flag;
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, tilingData.length);
    yGm.SetGlobalBuffer((__gm__ float*)y, tilingData.length);
    for (uint32_t i = 0; i < tilingData.length; ++i)
        yGm.SetValue(i, xGm.GetValue(i) * tilingData.scale + tilingData.bias[i % 4]);
}
