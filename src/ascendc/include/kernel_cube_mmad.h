// Mmad: the cube's matrix multiply-accumulate, C (CO1, NZ) = init + A (A2, ZZ) * B (B2, ZN),
// reading each operand through its fractal layout (kernel_cube_layout.h), so that data loaded
// in the wrong layout gives the wrong product, as on the NPU.
#ifndef OPENACL_ASCENDC_KERNEL_CUBE_MMAD_H_
#define OPENACL_ASCENDC_KERNEL_CUBE_MMAD_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include "kernel_cube_layout.h"
#include "kernel_cube_params.h"
#include "kernel_tensor_impl.h"

namespace openacl::ascendc::cube {

enum class MmadInit : uint8_t { Zero, Accumulate, BiasVector, BiasMatrix };

template <typename C, typename A, typename B, typename V>
__aicore__ inline void MmadCompute(const char* api, const AscendC::LocalTensor<C>& dst,
                                   const AscendC::LocalTensor<A>& fm,
                                   const AscendC::LocalTensor<B>& filter,
                                   const AscendC::LocalTensor<V>* bias,
                                   const AscendC::MmadParams& p, MmadInit init) {
    static_assert(kMmadTypesSupported<A, B, C>,
                  "Mmad multiplies half x half -> float, bfloat16_t x bfloat16_t -> float, "
                  "float x float -> float or int8_t x int8_t -> int32_t");
    CheckRange(api, "m", p.m, 0, 4095);
    CheckRange(api, "n", p.n, 0, 4095);
    CheckRange(api, "k", p.k, 0, 4095);
    if (p.m == 0 || p.n == 0) return;
    constexpr uint32_t c0 = C0<A>();
    uint32_t mBlocks = CeilDiv(p.m, kFractalRows);
    uint32_t nBlocks = CeilDiv(p.n, kFractalRows);
    uint32_t kBlocks = CeilDiv(p.k, c0);
    CheckCubeOperand(api, "fm (A)", fm, AscendC::Hardware::L0A, kFractalBytes,
                     uint64_t(mBlocks) * kBlocks * kFractalBytes, kCubeRead);
    CheckCubeOperand(api, "filter (B)", filter, AscendC::Hardware::L0B, kFractalBytes,
                     uint64_t(kBlocks) * nBlocks * kFractalBytes, kCubeRead);
    uint64_t cBytes = uint64_t(mBlocks) * nBlocks * kCFractalElements * sizeof(C);
    if (init == MmadInit::BiasVector) {
        CheckCubeOperand(api, "bias", *bias, AscendC::Hardware::BIAS, 64, uint64_t(p.n) * sizeof(V),
                         kCubeRead);
    } else if (init == MmadInit::BiasMatrix) {
        CheckCubeOperand(api, "bias", *bias, AscendC::Hardware::L0C, 64, cBytes, kCubeRead);
    }
    CheckCubeOperand(api, "dst (C)", dst, AscendC::Hardware::L0C, 64, cBytes, {Pipe::M, true});
    const A* a = fm.Data();
    const B* b = filter.Data();
    C* c = dst.Data();
    for (uint32_t i = 0; i < p.m; ++i) {
        for (uint32_t j = 0; j < p.n; ++j) {
            uint64_t at =
                (uint64_t(j / kFractalRows) * mBlocks + i / kFractalRows) * kCFractalElements +
                (i % kFractalRows) * kFractalRows + j % kFractalRows;
            C acc{};
            if (init == MmadInit::Accumulate) acc = c[at];
            if (init == MmadInit::BiasVector) acc = static_cast<C>(bias->Data()[j]);
            if (init == MmadInit::BiasMatrix) acc = static_cast<C>(bias->Data()[at]);
            for (uint32_t kk = 0; kk < p.k; ++kk) {
                const A& left =
                    a[(uint64_t(i / kFractalRows) * kBlocks + kk / c0) * kFractalRows * c0 +
                      (i % kFractalRows) * c0 + kk % c0];
                const B& right =
                    b[(uint64_t(kk / c0) * nBlocks + j / kFractalRows) * c0 * kFractalRows +
                      (j % kFractalRows) * c0 + kk % c0];
                acc += Widen<C>(left) * Widen<C>(right);
            }
            c[at] = acc;
        }
    }
}

}  // namespace openacl::ascendc::cube

namespace AscendC {

template <typename T, typename U, typename S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
                            const LocalTensor<S>& filter, const MmadParams& mmadParams) {
    using openacl::ascendc::cube::MmadInit;
    MmadInit init = MmadInit::Zero;
    if (mmadParams.isBias || !mmadParams.cmatrixInitVal) {
        if (mmadParams.cmatrixSource && !mmadParams.isBias) {
            openacl::ascendc::Trap(
                "Mmad",
                "cmatrixSource = true starts C from the bias table: pass the bias tensor (C2) "
                "to the Mmad form that takes one");
        }
        init = MmadInit::Accumulate;
    }
    openacl::ascendc::cube::MmadCompute<T, U, S, T>("Mmad", dst, fm, filter, nullptr, mmadParams,
                                                    init);
}

// The bias decides where C starts: a bias-table (C2) vector of n elements added to every row,
// or a CO1 matrix in C's own layout.
template <typename T, typename U, typename S, typename V>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
                            const LocalTensor<S>& filter, const LocalTensor<V>& bias,
                            const MmadParams& mmadParams) {
    using openacl::ascendc::cube::MmadInit;
    Hardware where = openacl::ascendc::PositionHardware(bias.GetPosition());
    MmadInit init = where == Hardware::L0C ? MmadInit::BiasMatrix : MmadInit::BiasVector;
    openacl::ascendc::cube::MmadCompute<T, U, S, V>("Mmad", dst, fm, filter, &bias, mmadParams,
                                                    init);
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_CUBE_MMAD_H_
