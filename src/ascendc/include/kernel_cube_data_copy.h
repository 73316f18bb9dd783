// The cube's data movement: DataCopy GM -> L1 with the ND -> NZ conversion (Nd2NzParams), and
// Fixpipe from L0C (CO1) to GM or L1 with the NZ -> ND conversion, the float -> half/bfloat16
// and int32 dequantisation conversions and ReLU.
#ifndef OPENACL_ASCENDC_KERNEL_CUBE_DATA_COPY_H_
#define OPENACL_ASCENDC_KERNEL_CUBE_DATA_COPY_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "kernel_cube_layout.h"
#include "kernel_cube_params.h"
#include "kernel_data_copy.h"
#include "kernel_tensor_impl.h"

namespace openacl::ascendc::cube {

// One ND matrix row r, column c lands at
//   (c / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + c % C0
// of its NZ matrix. The part of the last C0 block past dValue is filled with zeros, so that a
// k that is not a multiple of C0 multiplies by zeros; rows past nValue are not written.
template <typename T>
__aicore__ inline void Nd2Nz(T* dst, const T* src, const AscendC::Nd2NzParams& p) {
    constexpr uint32_t c0 = C0<T>();
    for (uint32_t matrix = 0; matrix < p.ndNum; ++matrix) {
        T* nz = dst + uint64_t(matrix) * p.dstNzMatrixStride;
        const T* nd = src + uint64_t(matrix) * p.srcNdMatrixStride;
        uint32_t columns = CeilAlign(p.dValue, c0);
        for (uint32_t r = 0; r < p.nValue; ++r) {
            for (uint32_t c = 0; c < columns; ++c) {
                uint64_t at = uint64_t(c / c0) * p.dstNzC0Stride * c0 +
                              uint64_t(r) * p.dstNzNStride * c0 + c % c0;
                nz[at] = c < p.dValue ? nd[uint64_t(r) * p.srcDValue + c] : T{};
            }
        }
    }
}

template <typename T>
__aicore__ inline uint64_t Nd2NzExtentBytes(const AscendC::Nd2NzParams& p) {
    constexpr uint32_t c0 = C0<T>();
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return 0;
    uint64_t last = uint64_t(p.ndNum - 1) * p.dstNzMatrixStride +
                    uint64_t(CeilDiv(p.dValue, c0) - 1) * p.dstNzC0Stride * c0 +
                    uint64_t(p.nValue - 1) * p.dstNzNStride * c0 + c0;
    return last * sizeof(T);
}

__aicore__ inline float DeqScale(uint64_t deqScalar) {
    auto bits = static_cast<uint32_t>(deqScalar & 0xffffffffULL);
    float scale;
    std::memcpy(&scale, &bits, sizeof(scale));
    return scale;
}

template <typename Out>
__aicore__ inline Out SaturateToInt(float value) {
    float low = static_cast<float>(std::numeric_limits<Out>::min());
    float high = static_cast<float>(std::numeric_limits<Out>::max());
    if (std::isnan(value)) return Out{0};
    return static_cast<Out>(std::nearbyint(std::clamp(value, low, high)));
}

// One CO1 element through the fixpipe: optional ReLU, then the conversion quantPre names.
template <typename Dst, typename Src>
__aicore__ inline Dst FixpipeConvert(const char* api, Src value,
                                     const AscendC::FixpipeParamsV220& p) {
    using AscendC::QuantMode_t;
    if (p.reluEn && value < Src{0}) value = Src{0};
    switch (p.quantPre) {
        case QuantMode_t::NoQuant:
            if constexpr (std::is_same_v<Dst, Src>) return value;
            break;
        case QuantMode_t::F322F16:
            if constexpr (std::is_same_v<Src, float> && std::is_same_v<Dst, half>) {
                return half(value);
            }
            break;
        case QuantMode_t::F322BF16:
            if constexpr (std::is_same_v<Src, float> && std::is_same_v<Dst, bfloat16_t>) {
                return bfloat16_t(value);
            }
            break;
        case QuantMode_t::DEQF16:
            if constexpr (std::is_same_v<Src, int32_t> && std::is_same_v<Dst, half>) {
                return half(static_cast<float>(value) * DeqScale(p.deqScalar));
            }
            break;
        case QuantMode_t::REQ8:
            if constexpr (std::is_same_v<Src, int32_t> &&
                          (std::is_same_v<Dst, int8_t> || std::is_same_v<Dst, uint8_t>)) {
                return SaturateToInt<Dst>(static_cast<float>(value) * DeqScale(p.deqScalar));
            }
            break;
        case QuantMode_t::QF322B8_PRE:
            if constexpr (std::is_same_v<Src, float> &&
                          (std::is_same_v<Dst, int8_t> || std::is_same_v<Dst, uint8_t>)) {
                return SaturateToInt<Dst>(value * DeqScale(p.deqScalar));
            }
            break;
        default:
            Trap(api, "quantPre " + std::to_string(int(p.quantPre)) +
                          " (a per-channel tensor quantisation) needs the cbufWorkspace form, "
                          "which openacl does not provide");
    }
    Trap(api, "quantPre " + std::to_string(int(p.quantPre)) + " does not convert a " +
                  std::to_string(sizeof(Src)) + "-byte CO1 element to a " +
                  std::to_string(sizeof(Dst)) +
                  "-byte destination element: use NoQuant for the same type, F322F16 / "
                  "F322BF16 for float -> half / bfloat16, DEQF16 or REQ8 for int32");
}

// CO1 (NZ, 16 x 16 fractals, column blocks srcStride rows apart) -> ND or NZ destination.
template <typename Dst, typename Src, AscendC::CO2Layout layout>
__aicore__ inline void FixpipeCopy(const char* api, Dst* dst, const AscendC::LocalTensor<Src>& src,
                                   const AscendC::FixpipeParamsV220& p) {
    static_assert(std::is_same_v<Src, float> || std::is_same_v<Src, int32_t>,
                  "Fixpipe reads float or int32_t results from CO1");
    CheckRange(api, "mSize", p.mSize, 1, 65535);
    CheckRange(api, "nSize", p.nSize, 1, 4095);
    uint32_t ndNum = p.ndNum == 0 ? 1 : p.ndNum;
    if (p.srcStride < p.mSize) {
        Trap(api, "srcStride " + std::to_string(p.srcStride) + " is less than mSize " +
                      std::to_string(p.mSize) +
                      ": it is the row count of each 16-column block in CO1 (m aligned to 16)");
    }
    if (ndNum > 1 && (p.srcNdStride == 0 || p.dstNdStride == 0)) {
        Trap(api, "srcNdStride and dstNdStride must be non-zero when ndNum > 1");
    }
    uint64_t srcElements =
        uint64_t(ndNum - 1) * p.srcNdStride * kCFractalElements +
        uint64_t(CeilDiv(p.nSize, kFractalRows) - 1) * p.srcStride * kFractalRows +
        uint64_t(p.mSize) * kFractalRows;
    CheckCubeOperand(api, "src", src, AscendC::Hardware::L0C, 64, srcElements * sizeof(Src),
                     {Pipe::FIX, false});
    const Src* from = src.Data();
    for (uint32_t matrix = 0; matrix < ndNum; ++matrix) {
        const Src* nz = from + uint64_t(matrix) * p.srcNdStride * kCFractalElements;
        for (uint32_t i = 0; i < p.mSize; ++i) {
            for (uint32_t j = 0; j < p.nSize; ++j) {
                Src value = nz[uint64_t(j / kFractalRows) * p.srcStride * kFractalRows +
                               uint64_t(i) * kFractalRows + j % kFractalRows];
                uint64_t at;
                if constexpr (layout == AscendC::CO2Layout::NZ) {
                    at = uint64_t(matrix) * p.dstNdStride +
                         uint64_t(j / kFractalRows) * p.dstStride * AscendC::ONE_BLK_SIZE /
                             sizeof(Dst) +
                         uint64_t(i) * kFractalRows + j % kFractalRows;
                } else {
                    at = uint64_t(matrix) * p.dstNdStride + uint64_t(i) * p.dstStride + j;
                }
                Dst out = FixpipeConvert<Dst, Src>(api, value, p);
                WriteGlobal(dst + at, &out, 1);
            }
        }
    }
}

}  // namespace openacl::ascendc::cube

namespace AscendC {

// GM -> A1/B1 (or VECIN) converting ND matrices to NZ.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const Nd2NzParams& intriParams) {
    namespace cube = openacl::ascendc::cube;
    const char* api = "DataCopy(Nd2NzParams)";
    const Nd2NzParams& p = intriParams;
    cube::CheckRange(api, "ndNum", p.ndNum, 0, 4095);
    cube::CheckRange(api, "nValue", p.nValue, 0, 16384);
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    cube::CheckRange(api, "dstNzC0Stride", p.dstNzC0Stride, 1, 16384);
    cube::CheckRange(api, "dstNzNStride", p.dstNzNStride, 1, 16384);
    if (p.nValue > 1) cube::CheckRange(api, "srcDValue", p.srcDValue, p.dValue, 65535);
    if (p.ndNum > 1) cube::CheckRange(api, "dstNzMatrixStride", p.dstNzMatrixStride, 1, 65535);
    if (p.dValue > cube::C0<T>() && p.dstNzC0Stride < p.nValue * p.dstNzNStride) {
        openacl::ascendc::Trap(
            api, "dstNzC0Stride " + std::to_string(p.dstNzC0Stride) +
                     " puts the next C0 column block inside this one's " +
                     std::to_string(p.nValue) +
                     " rows: it must be at least nValue * dstNzNStride (usually nValue "
                     "aligned to 16)");
    }
    openacl::ascendc::CheckGlobal(api, src);
    Hardware memory = openacl::ascendc::PositionHardware(dst.GetPosition());
    if (memory != Hardware::L1 && memory != Hardware::UB) {
        openacl::ascendc::Trap(api, std::string("the destination is a ") +
                                        cube::PositionName(dst.GetPosition()) +
                                        " tensor: ND -> NZ copies go to A1/B1/C1 (L1) or VECIN");
    }
    cube::CheckCubeOperand(api, "the destination", dst, memory, ONE_BLK_SIZE,
                           cube::Nd2NzExtentBytes<T>(p), openacl::ascendc::kCopyIn);
    cube::Nd2Nz(dst.Data(), src.GetPhyAddr(), p);
}

// CO1 -> GM. CFG_ROW_MAJOR (default) writes ND rows dstStride elements apart; CFG_NZ keeps
// the fractals, their column blocks dstStride 32-byte blocks apart.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& intriParams) {
    openacl::ascendc::CheckGlobal("Fixpipe", dst);
    if (config.format == CO2Layout::NZ) {
        openacl::ascendc::cube::FixpipeCopy<T, U, CO2Layout::NZ>("Fixpipe", dst.GetPhyAddr(), src,
                                                                 intriParams);
    } else {
        openacl::ascendc::cube::FixpipeCopy<T, U, CO2Layout::ROW_MAJOR>("Fixpipe", dst.GetPhyAddr(),
                                                                        src, intriParams);
    }
}

// CO1 -> L1 (A1/B1/C1), e.g. to feed the result into the next Mmad.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& intriParams) {
    namespace cube = openacl::ascendc::cube;
    const FixpipeParamsV220& p = intriParams;
    uint32_t ndNum = p.ndNum == 0 ? 1 : p.ndNum;
    uint64_t lastRow =
        config.format == CO2Layout::NZ
            ? uint64_t(cube::CeilDiv(p.nSize, 16) - 1) * p.dstStride * ONE_BLK_SIZE / sizeof(T) +
                  uint64_t(p.mSize) * 16
            : uint64_t(p.mSize - (p.mSize > 0)) * p.dstStride + p.nSize;
    uint64_t elements = uint64_t(ndNum - 1) * p.dstNdStride + lastRow;
    cube::CheckCubeOperand("Fixpipe", "dst", dst, Hardware::L1, ONE_BLK_SIZE, elements * sizeof(T),
                           {openacl::ascendc::Pipe::FIX, true});
    if (config.format == CO2Layout::NZ) {
        cube::FixpipeCopy<T, U, CO2Layout::NZ>("Fixpipe", dst.Data(), src, p);
    } else {
        cube::FixpipeCopy<T, U, CO2Layout::ROW_MAJOR>("Fixpipe", dst.Data(), src, p);
    }
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_CUBE_DATA_COPY_H_
