// LoadData (L1 or GM -> L0A/L0B, fractal by fractal, optionally transposing each 16 x 16
// fractal) and InitConstValue (fills A1/B1/A2/B2 with a value).
#ifndef OPENACL_ASCENDC_KERNEL_CUBE_LOAD_DATA_H_
#define OPENACL_ASCENDC_KERNEL_CUBE_LOAD_DATA_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "kernel_cube_layout.h"
#include "kernel_cube_params.h"
#include "kernel_data_copy.h"
#include "kernel_tensor_impl.h"

namespace openacl::ascendc::cube {

// Copies repeatTimes fractals: source fractal startIndex + r * srcStride, destination fractal
// r * (1 + dstGap). With ifTranspose each 16 x 16 fractal of a 16-bit type is transposed.
template <typename T>
__aicore__ inline void LoadFractals(const char* api, T* dst, const T* src,
                                    const AscendC::LoadData2DParams& p) {
    constexpr uint32_t perFractal = kFractalBytes / sizeof(T);
    if (p.ifTranspose && sizeof(T) != 2) {
        Trap(api, "ifTranspose transposes 16 x 16 fractals of 16-bit types only; a " +
                      std::to_string(sizeof(T)) +
                      "-byte type's fractal is not square (use a transposed copy into L1 "
                      "instead)");
    }
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const T* from = src + (uint64_t(p.startIndex) + uint64_t(r) * p.srcStride) * perFractal;
        T* to = dst + uint64_t(r) * (1 + p.dstGap) * perFractal;
        if (!p.ifTranspose) {
            std::memmove(to, from, kFractalBytes);
            continue;
        }
        T square[kFractalRows * kFractalRows];
        for (uint32_t i = 0; i < kFractalRows; ++i) {
            for (uint32_t j = 0; j < kFractalRows; ++j)
                square[j * kFractalRows + i] = from[i * kFractalRows + j];
        }
        std::memcpy(to, square, kFractalBytes);
    }
}

__aicore__ inline uint64_t LoadSourceBytes(const AscendC::LoadData2DParams& p) {
    if (p.repeatTimes == 0) return 0;
    return (uint64_t(p.startIndex) + uint64_t(p.repeatTimes - 1) * p.srcStride + 1) * kFractalBytes;
}
__aicore__ inline uint64_t LoadDestinationBytes(const AscendC::LoadData2DParams& p) {
    if (p.repeatTimes == 0) return 0;
    return (uint64_t(p.repeatTimes - 1) * (1 + p.dstGap) + 1) * kFractalBytes;
}

__aicore__ inline AscendC::Hardware LoadDestination(const char* api, AscendC::TPosition position) {
    AscendC::Hardware memory = PositionHardware(position);
    if (memory != AscendC::Hardware::L0A && memory != AscendC::Hardware::L0B &&
        memory != AscendC::Hardware::L1) {
        Trap(api, std::string("the destination is a ") + PositionName(position) +
                      " tensor: LoadData writes A2 (L0A), B2 (L0B) or A1/B1 (L1)");
    }
    return memory;
}

}  // namespace openacl::ascendc::cube

namespace AscendC {

// L1 (A1/B1) -> L0A (A2) / L0B (B2).
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData2DParams& loadDataParams) {
    namespace cube = openacl::ascendc::cube;
    const char* api = "LoadData";
    Hardware to = cube::LoadDestination(api, dst.GetPosition());
    if (to == Hardware::L1) {
        openacl::ascendc::Trap(api,
                               "the destination is in L1 but so is the source: load into A2 or B2");
    }
    if (loadDataParams.repeatTimes == 0) return;
    cube::CheckCubeOperand(api, "src", src, Hardware::L1, ONE_BLK_SIZE,
                           cube::LoadSourceBytes(loadDataParams),
                           {openacl::ascendc::Pipe::MTE1, false});
    cube::CheckCubeOperand(api, "dst", dst, to, cube::kFractalBytes,
                           cube::LoadDestinationBytes(loadDataParams),
                           {openacl::ascendc::Pipe::MTE1, true});
    cube::LoadFractals(api, dst.Data(), src.Data(), loadDataParams);
}

// GM -> L1 / L0A / L0B, fractals as they lie in global memory.
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const LoadData2DParams& loadDataParams) {
    namespace cube = openacl::ascendc::cube;
    const char* api = "LoadData";
    Hardware to = cube::LoadDestination(api, dst.GetPosition());
    if (loadDataParams.repeatTimes == 0) return;
    openacl::ascendc::CheckGlobal(api, src);
    cube::CheckCubeOperand(api, "dst", dst, to,
                           to == Hardware::L1 ? ONE_BLK_SIZE : cube::kFractalBytes,
                           cube::LoadDestinationBytes(loadDataParams), openacl::ascendc::kCopyIn);
    cube::LoadFractals(api, dst.Data(), src.GetPhyAddr(), loadDataParams);
}

// Fills repeatTimes runs of blockNum blocks (32 bytes in A1/B1, 512 in A2/B2) dstGap blocks
// apart with initValue; blockNum 0 is the older form of one 512-byte run per repeat.
template <typename T, typename U>
__aicore__ inline void InitConstValue(const LocalTensor<T>& dst,
                                      const InitConstValueParams<U>& initConstValueParams) {
    namespace cube = openacl::ascendc::cube;
    const char* api = "InitConstValue";
    const auto& p = initConstValueParams;
    Hardware memory = openacl::ascendc::PositionHardware(dst.GetPosition());
    if (memory != Hardware::L1 && memory != Hardware::L0A && memory != Hardware::L0B) {
        openacl::ascendc::Trap(api, std::string("the destination is a ") +
                                        cube::PositionName(dst.GetPosition()) +
                                        " tensor: InitConstValue fills A1, B1, A2 or B2");
    }
    cube::CheckRange(api, "repeatTimes", p.repeatTimes, 0, 32767);
    uint64_t block = memory == Hardware::L1 ? ONE_BLK_SIZE : cube::kFractalBytes;
    uint64_t run = p.blockNum == 0 ? cube::kFractalBytes : p.blockNum * block;
    uint64_t gap = p.blockNum == 0 ? 0 : p.dstGap * block;
    if (p.repeatTimes == 0) return;
    uint64_t extent = p.repeatTimes * run + (p.repeatTimes - 1) * gap;
    cube::CheckCubeOperand(api, "dst", dst, memory,
                           memory == Hardware::L1 ? ONE_BLK_SIZE : cube::kFractalBytes, extent,
                           cube::kUntracked);
    T value = static_cast<T>(p.initValue);
    auto* base = reinterpret_cast<std::byte*>(dst.Data());
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        T* start = reinterpret_cast<T*>(base + r * (run + gap));
        for (uint64_t i = 0; i < run / sizeof(T); ++i)
            start[i] = value;
    }
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_CUBE_LOAD_DATA_H_
