// Row softmax of a rows x cols float matrix; blocks take rows round-robin.
#include <cmath>

#include "openacl/kernel.h"

extern "C" __global__ __aicore__ void row_softmax(GM_ADDR input, GM_ADDR output, uint32_t rows,
                                                  uint32_t cols) {
    const auto* in = reinterpret_cast<const float*>(input);
    auto* out = reinterpret_cast<float*>(output);
    for (int64_t r = GetBlockIdx(); r < rows; r += GetBlockNum()) {
        const float* row = in + r * cols;
        float* dst = out + r * cols;
        float peak = row[0];
        for (uint32_t c = 1; c < cols; ++c)
            peak = std::fmax(peak, row[c]);
        float sum = 0.0f;
        for (uint32_t c = 0; c < cols; ++c)
            sum += dst[c] = std::exp(row[c] - peak);
        for (uint32_t c = 0; c < cols; ++c)
            dst[c] /= sum;
    }
}
