// The cube unit's data layouts. Every matrix in L1/L0 is cut into fractals:
//   - A in L0A ("ZZ"): 16 x C0 fractals, row-major inside, fractals row-major;
//   - B in L0B ("ZN"): C0 x 16 fractals, column-major inside, fractals row-major;
//   - C in L0C ("NZ"): 16 x 16 fractals of float/int32, row-major inside, fractals column-major;
//   - L1 (after DataCopy's ND -> NZ): 16 x C0 fractals, row-major inside, column-major between.
// C0 = 32 bytes / sizeof(T): 16 half or bfloat16, 8 float, 32 int8. An A or B fractal is
// 512 bytes; a C fractal is 256 elements.
#ifndef OPENACL_ASCENDC_KERNEL_CUBE_LAYOUT_H_
#define OPENACL_ASCENDC_KERNEL_CUBE_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "kernel_core_state.h"
#include "kernel_tensor_impl.h"
#include "kernel_type.h"

namespace openacl::ascendc::cube {

constexpr uint32_t kFractalRows = 16;    // M0 = N0 = 16
constexpr uint32_t kFractalBytes = 512;  // an A/B fractal
constexpr uint32_t kCFractalElements = 256;

template <typename T>
constexpr uint32_t C0() {
    return AscendC::ONE_BLK_SIZE / sizeof(T);
}

constexpr uint32_t CeilDiv(uint32_t value, uint32_t unit) {
    return (value + unit - 1) / unit;
}
constexpr uint32_t CeilAlign(uint32_t value, uint32_t unit) {
    return CeilDiv(value, unit) * unit;
}

__aicore__ inline const char* PositionName(AscendC::TPosition position) {
    constexpr const char* kNames[] = {
        "GM",  "A1",    "A2",     "B1",      "B2",  "C1",   "C2",        "CO1",
        "CO2", "VECIN", "VECOUT", "VECCALC", "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL"};
    auto index = static_cast<size_t>(position);
    return index < sizeof(kNames) / sizeof(kNames[0]) ? kNames[index] : "?";
}

// How the cube's instructions use their operands (for the cross-pipe check); InitConstValue's
// pipe is not modelled.
inline constexpr OperandUse kCubeRead{Pipe::M, false};
inline constexpr OperandUse kUntracked{Pipe::M, false, false};

// The operand must be bound, live in one of the allowed memories, start `alignment` bytes
// aligned (local memories are page-aligned, so the address itself is checked), and reach no
// further than its buffer; `use` is checked against the core's other pipes.
template <typename T>
__aicore__ inline void CheckCubeOperand(const char* api, const char* role,
                                        const AscendC::LocalTensor<T>& tensor,
                                        AscendC::Hardware hardware, uint32_t alignment,
                                        uint64_t bytes, OperandUse use) {
    if (!tensor.IsBound()) {
        Trap(api, std::string(role) +
                      " has no buffer: take it from AllocTensor, DeQue or TBuf::Get first");
    }
    if (tensor.Freed()) Trap(api, FreedTensor(role));
    AscendC::Hardware actual = PositionHardware(tensor.GetPosition());
    if (actual != hardware) {
        Trap(api, std::string(role) + " is a " + PositionName(tensor.GetPosition()) +
                      " tensor in the " + HardwareName(actual) +
                      ", but this operand must be in the " + HardwareName(hardware));
    }
    auto address = reinterpret_cast<uintptr_t>(tensor.Data());
    if (address % alignment != 0) {
        auto base = reinterpret_cast<uintptr_t>(t_core.Memory(hardware));
        Trap(api, std::string(role) + " starts at byte " + std::to_string(address - base) +
                      " of the " + HardwareName(hardware) + ", not on a " +
                      std::to_string(alignment) + "-byte boundary");
    }
    if (bytes > tensor.BytesToBufferEnd()) {
        Trap(api, std::string(role) + " needs " + std::to_string(bytes) +
                      " bytes from its start but its buffer has " +
                      std::to_string(tensor.BytesToBufferEnd()) + " from there");
    }
    TrackAccess(api, role, use, tensor.Data(), bytes);
}

__aicore__ inline void CheckRange(const char* api, const char* field, uint64_t value, uint64_t low,
                                  uint64_t high) {
    if (value < low || value > high) {
        Trap(api, std::string(field) + " " + std::to_string(value) + " is outside [" +
                      std::to_string(low) + ", " + std::to_string(high) + "]");
    }
}

// The element types Mmad multiplies and the type it accumulates them in.
template <typename A, typename B, typename C>
constexpr bool kMmadTypesSupported =
    (std::is_same_v<A, half> && std::is_same_v<B, half> && std::is_same_v<C, float>) ||
    (std::is_same_v<A, bfloat16_t> && std::is_same_v<B, bfloat16_t> && std::is_same_v<C, float>) ||
    (std::is_same_v<A, float> && std::is_same_v<B, float> && std::is_same_v<C, float>) ||
    (std::is_same_v<A, int8_t> && std::is_same_v<B, int8_t> && std::is_same_v<C, int32_t>);

// Widening used by the cube: products of half/bfloat16 are exact in float.
template <typename Acc, typename T>
__aicore__ inline Acc Widen(T value) {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        return static_cast<Acc>(static_cast<float>(value));
    } else {
        return static_cast<Acc>(value);
    }
}

}  // namespace openacl::ascendc::cube

#endif  // OPENACL_ASCENDC_KERNEL_CUBE_LAYOUT_H_
