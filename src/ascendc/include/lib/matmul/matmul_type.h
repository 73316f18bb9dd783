// MatmulType<position, format, T, isTrans, ...>: where one Matmul operand lives, its format
// and element type.
#ifndef OPENACL_ASCENDC_LIB_MATMUL_MATMUL_TYPE_H_
#define OPENACL_ASCENDC_LIB_MATMUL_MATMUL_TYPE_H_

#include <cstdint>

#include "kernel_type.h"

// Kernels spell it CubeFormat::ND without a namespace.
enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

namespace AscendC {

enum class LayoutMode : uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
};

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_LIB_MATMUL_MATMUL_TYPE_H_
