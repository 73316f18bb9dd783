// Weight dequantization (ops/antiquant.h).
#include "ops/antiquant.h"

#include <omp.h>

#include <cstring>

#include "backend/cpu/compute_gate.h"
#include "core/device.h"
#include "core/float16.h"

namespace openacl::ops {
namespace {

float LoadHalfOrBf16(const void* base, int64_t index, aclDataType type) {
    uint16_t bits;
    std::memcpy(&bits, static_cast<const char*>(base) + index * 2, sizeof bits);
    return type == ACL_BF16 ? f16::Bf16ToFloat(bits) : f16::HalfToFloat(bits);
}

// The signed value of element `index` (in elements) of an int8 or packed int4 buffer.
inline int32_t Quant(const void* base, int64_t index, bool int4) {
    const auto* bytes = static_cast<const uint8_t*>(base);
    if (!int4) return static_cast<int8_t>(bytes[index]);
    const uint8_t byte = bytes[index >> 1];
    const int32_t nibble = (index & 1) != 0 ? byte >> 4 : byte & 0x0f;
    return nibble >= 8 ? nibble - 16 : nibble;
}

}  // namespace

void Antiquantize(const AntiquantArgs& a) {
    const bool int4 = a.weight_type == ACL_INT4;
    const int64_t groups = (a.k + a.group - 1) / a.group;
    // One line of the output at a time: a column (all k of one n) when the output is
    // column-major, a row otherwise, so each thread writes its own run and reads q in order
    // for the layouts clients use.
    const int64_t lines = a.columns ? a.n : a.k;
    const int64_t length = a.columns ? a.k : a.n;
    cpu::ComputeLease lease(ComputeThreadsPerRun());
#pragma omp parallel for num_threads(lease.threads()) if (a.k * a.n >= (1 << 15)) schedule(static)
    for (int64_t line = 0; line < lines; ++line) {
        float* out = a.out + line * length;
        if (a.columns) {
            const int64_t j = line;
            for (int64_t g = 0; g < groups; ++g) {
                const float scale = LoadHalfOrBf16(
                    a.scale, g * a.scale_strides[0] + j * a.scale_strides[1], a.scale_type);
                const float offset =
                    a.offset == nullptr
                        ? 0.0f
                        : LoadHalfOrBf16(a.offset,
                                         g * a.offset_strides[0] + j * a.offset_strides[1],
                                         a.scale_type);
                const int64_t first = g * a.group,
                              last = first + a.group < a.k ? first + a.group : a.k;
                for (int64_t i = first; i < last; ++i) {
                    const int64_t at =
                        a.weight_offset + i * a.weight_strides[0] + j * a.weight_strides[1];
                    out[i] = (static_cast<float>(Quant(a.weight, at, int4)) + offset) * scale;
                }
            }
        } else {
            const int64_t i = line, g = i / a.group;
            for (int64_t j = 0; j < a.n; ++j) {
                const float scale = LoadHalfOrBf16(
                    a.scale, g * a.scale_strides[0] + j * a.scale_strides[1], a.scale_type);
                const float offset =
                    a.offset == nullptr
                        ? 0.0f
                        : LoadHalfOrBf16(a.offset,
                                         g * a.offset_strides[0] + j * a.offset_strides[1],
                                         a.scale_type);
                const int64_t at =
                    a.weight_offset + i * a.weight_strides[0] + j * a.weight_strides[1];
                out[j] = (static_cast<float>(Quant(a.weight, at, int4)) + offset) * scale;
            }
        }
    }
}

}  // namespace openacl::ops
