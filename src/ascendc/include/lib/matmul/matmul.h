// The high-level Matmul: C = A * B (+ bias) over one core's singleCoreM x singleCoreN part of
// the problem, in baseM x baseN blocks accumulated in the core's L0C, as TCubeTiling describes.
//
// Init carves the L1/L0A/L0B/L0C (and bias-table) buffers the tiling implies from the TPipe, so
// a tiling too large for the chip, or a kernel that leaves the Matmul too little room, fails as
// it would on the NPU. Products are formed exactly in float (int32 for int8) and summed in k
// order; the output is rounded once to C's type.
#ifndef OPENACL_ASCENDC_LIB_MATMUL_MATMUL_H_
#define OPENACL_ASCENDC_LIB_MATMUL_MATMUL_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_core_state.h"
#include "kernel_cube_layout.h"
#include "kernel_data_copy.h"
#include "kernel_tensor_impl.h"
#include "kernel_tiling/kernel_tiling.h"
#include "kernel_tpipe_impl.h"
#include "lib/matmul/matmul_config.h"
#include "lib/matmul/matmul_type.h"

namespace openacl::ascendc::matmul {

// An operand in GM or in a local memory, read element by element.
template <typename T>
struct Operand {
    const T* data = nullptr;
    bool transposed = false;
    bool set = false;
};

template <typename T>
constexpr bool kFloatLike =
    std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

template <typename T>
__aicore__ inline std::string Dims(T a, T b) {
    return std::to_string(a) + " x " + std::to_string(b);
}

}  // namespace openacl::ascendc::matmul

// libascendcl's float GEMM (oneDNN, on the calling thread; src/ascendc/kernel_gemm.cpp), row
// major as dnnl_sgemm. Weak: a kernel built into a program without libascendcl (the kernel
// API's unit tests) computes its products element by element instead.
extern "C" __attribute__((weak)) int openaclKernelSgemm(char transa, char transb, int64_t m,
                                                        int64_t n, int64_t k, float alpha,
                                                        const float* a, int64_t lda, const float* b,
                                                        int64_t ldb, float beta, float* c,
                                                        int64_t ldc);

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const MatmulConfig& MM_CFG = CFG_NORM, class... Extensions>
class Matmul {
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    using L0cT = std::conditional_t<std::is_same_v<SrcAT, int8_t>, int32_t, float>;
    static_assert(openacl::ascendc::cube::kMmadTypesSupported<SrcAT, SrcBT, L0cT>,
                  "Matmul multiplies half, bfloat16_t, float or int8_t matrices of one type");

 public:
    __aicore__ Matmul() = default;
    Matmul(const Matmul&) = delete;
    Matmul& operator=(const Matmul&) = delete;

    // Reads the tiling and takes the buffers it implies from the TPipe (the current one when
    // tpipe is null).
    __aicore__ void Init(const TCubeTiling* cubeTiling, TPipe* tpipe = nullptr) {
        (void)tpipe;
        if (cubeTiling == nullptr) Fail("Init", "the tiling is null: pass &tiling");
        tiling_ = *cubeTiling;
        CheckTiling();
        orgM_ = tiling_.M;
        orgN_ = tiling_.N;
        orgKa_ = tiling_.Ka;
        orgKb_ = tiling_.Kb;
        singleM_ = tiling_.singleCoreM;
        singleN_ = tiling_.singleCoreN;
        singleK_ = tiling_.singleCoreK;
        biasEnabled_ = tiling_.isBias != 0;
        uint32_t a1 = Bytes(tiling_.depthA1, tiling_.baseM, tiling_.baseK, sizeof(SrcAT));
        uint32_t b1 = Bytes(tiling_.depthB1, tiling_.baseN, tiling_.baseK, sizeof(SrcBT));
        pipe_ = &openacl::ascendc::t_core;
        if (openacl::ascendc::t_core.pipe == nullptr) {
            Fail("Init",
                 "no TPipe is alive on this core: construct one and pass it to "
                 "REGIST_MATMUL_OBJ");
        }
        InitBuffer(l1A_, a1, "A1 (depthA1 x baseM x baseK)");
        InitBuffer(l1B_, b1, "B1 (depthB1 x baseN x baseK)");
        InitBuffer(l0A_, Bytes(Db(tiling_.dbL0A), tiling_.baseM, tiling_.baseK, sizeof(SrcAT)),
                   "A2 (dbL0A x baseM x baseK)");
        InitBuffer(l0B_, Bytes(Db(tiling_.dbL0B), tiling_.baseN, tiling_.baseK, sizeof(SrcBT)),
                   "B2 (dbL0B x baseK x baseN)");
        InitBuffer(l0C_, Bytes(Db(tiling_.dbL0C), tiling_.baseM, tiling_.baseN, sizeof(L0cT)),
                   "CO1 (dbL0C x baseM x baseN)");
        if (biasEnabled_ && openacl::ascendc::kBtSize > 0) {
            InitBuffer(bt_, uint32_t(tiling_.baseN) * sizeof(L0cT), "C2 (baseN bias)");
        }
        initialised_ = true;
        ResetIteration();
    }

    __aicore__ void SetOrgShape(int orgM, int orgN, int orgK) {
        SetOrgShape(orgM, orgN, orgK, orgK);
    }
    __aicore__ void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        (void)orgKc;
        if (orgM <= 0 || orgN <= 0 || orgKa <= 0 || orgKb <= 0) {
            Fail("SetOrgShape", "every dimension must be positive");
        }
        orgM_ = orgM;
        orgN_ = orgN;
        orgKa_ = orgKa;
        orgKb_ = orgKb;
    }
    __aicore__ void SetSingleShape(int singleM, int singleN, int singleK) {
        if (singleM <= 0 || singleN <= 0 || singleK <= 0) {
            Fail("SetSingleShape", "every dimension must be positive");
        }
        singleM_ = singleM;
        singleN_ = singleN;
        singleK_ = singleK;
        ResetIteration();
    }
    // A block's own, smaller part at the edge of C (negative: keep).
    __aicore__ void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM > 0) singleM_ = tailM;
        if (tailN > 0) singleN_ = tailN;
        if (tailK > 0) singleK_ = tailK;
        if (tailM == 0 || tailN == 0 || tailK == 0) {
            Fail("SetTail", "a tail of 0 leaves nothing to compute; skip the block instead");
        }
        ResetIteration();
    }

    __aicore__ void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
        SetOperand(a_, gm.GetPhyAddr(), isTransposeA, "SetTensorA");
    }
    __aicore__ void SetTensorA(const LocalTensor<SrcAT>& local, bool isTransposeA = false) {
        SetOperand(a_, local.Data(), isTransposeA, "SetTensorA");
    }
    __aicore__ void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
        SetOperand(b_, gm.GetPhyAddr(), isTransposeB, "SetTensorB");
    }
    __aicore__ void SetTensorB(const LocalTensor<SrcBT>& local, bool isTransposeB = false) {
        SetOperand(b_, local.Data(), isTransposeB, "SetTensorB");
    }
    __aicore__ void SetBias(const GlobalTensor<BiasT>& gm) { SetBiasData(gm.GetPhyAddr()); }
    __aicore__ void SetBias(const LocalTensor<BiasT>& local) { SetBiasData(local.Data()); }
    __aicore__ void DisableBias() { biasEnabled_ = false; }
    __aicore__ void ClearBias() { DisableBias(); }

    // Workspaces, HF32 and sub-block settings change nothing on the CPU.
    template <typename T>
    __aicore__ void SetWorkspace(const GlobalTensor<T>&) {}
    template <typename T>
    __aicore__ void SetWorkspace(__gm__ T*, int) {}
    __aicore__ void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}
    __aicore__ void SetHF32(bool, int32_t = 0) {}
    __aicore__ void SetSubBlockIdx(uint8_t) {}

    // Computes the next baseM x baseN block of C into L0C; false when all are done.
    template <bool sync = true>
    __aicore__ bool Iterate(bool enPartialSum = false) {
        CheckReady("Iterate");
        if (next_ >= BlockCount()) return false;
        BlockPosition(next_, curM_, curN_);
        ++next_;
        ComputeBlock(enPartialSum);
        hasBlock_ = true;
        return true;
    }

    // Writes the block Iterate computed to its place in C (GM), or to a local tensor (UB) as
    // baseM rows of baseN.
    template <bool sync = true>
    __aicore__ void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                               bool enSequentialWrite = false) {
        CheckBlock("GetTensorC");
        openacl::ascendc::CheckGlobal("GetTensorC", gm);
        if (enSequentialWrite) {
            WriteBlock(gm.GetPhyAddr(), uint32_t(tiling_.baseN), 0, 0, enAtomic);
        } else {
            WriteBlock(gm.GetPhyAddr(), OutputStride(orgN_), curM_ * uint32_t(tiling_.baseM),
                       curN_ * uint32_t(tiling_.baseN), enAtomic);
        }
    }
    template <bool sync = true>
    __aicore__ void GetTensorC(const LocalTensor<DstT>& local, uint8_t enAtomic = 0,
                               bool enSequentialWrite = false) {
        (void)enSequentialWrite;
        CheckBlock("GetTensorC");
        CheckLocalOutput("GetTensorC", local, uint64_t(tiling_.baseM) * tiling_.baseN);
        WriteBlock(local.Data(), uint32_t(tiling_.baseN), 0, 0, enAtomic);
    }

    // All of C = A * B (+ bias) for this core, written to GM with C's original row stride
    // (enAtomic 1: added to what is there), or to a local tensor as singleM rows of singleN.
    template <bool sync = true>
    __aicore__ void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                               bool enSequentialWrite = false, bool waitIterateAll = false,
                               bool fakeMsg = false) {
        (void)enSequentialWrite;
        (void)waitIterateAll;
        (void)fakeMsg;
        openacl::ascendc::CheckGlobal("IterateAll", gm);
        ResetIteration();
        if constexpr (kSgemmable && std::is_same_v<DstT, float>) {
            // The whole part in one product straight into C, when nothing accumulates there.
            if (openaclKernelSgemm != nullptr && enAtomic == 0 &&
                openacl::ascendc::t_core.atomicMode == openacl::ascendc::AtomicMode::NONE) {
                CheckReady("IterateAll");
                CheckOperands("IterateAll");
                Product(gm.GetPhyAddr(), OutputStride(orgN_), 0, 0, uint32_t(singleM_),
                        uint32_t(singleN_), false);
                return;
            }
        }
        while (Iterate()) {
            WriteBlock(gm.GetPhyAddr(), OutputStride(orgN_), curM_ * uint32_t(tiling_.baseM),
                       curN_ * uint32_t(tiling_.baseN), enAtomic);
        }
        ResetIteration();
    }
    template <bool sync = true>
    __aicore__ void IterateAll(const LocalTensor<DstT>& local, uint8_t enAtomic = 0) {
        CheckLocalOutput("IterateAll", local,
                         uint64_t(singleM_ - 1) * OutputStride(singleN_) + singleN_);
        ResetIteration();
        while (Iterate()) {
            WriteBlock(local.Data(), OutputStride(singleN_), curM_ * uint32_t(tiling_.baseM),
                       curN_ * uint32_t(tiling_.baseN), enAtomic);
        }
        ResetIteration();
    }

    __aicore__ void End() {
        a_ = {};
        b_ = {};
        bias_ = nullptr;
        hasBlock_ = false;
    }

 private:
    [[noreturn]] __aicore__ static void Fail(const char* api, const std::string& problem) {
        openacl::ascendc::Trap((std::string("Matmul::") + api).c_str(), problem);
    }
    __aicore__ static int32_t Db(int32_t db) { return db <= 0 ? 1 : db; }
    __aicore__ static uint32_t Bytes(int32_t count, int32_t rows, int32_t cols, size_t element) {
        return uint32_t(uint64_t(count <= 0 ? 1 : count) * rows * cols * element);
    }

    template <TPosition pos>
    __aicore__ void InitBuffer(TBuf<pos>& buffer, uint32_t bytes, const char* what) {
        auto& core = openacl::ascendc::t_core;
        Hardware hardware = openacl::ascendc::PositionHardware(pos);
        uint32_t capacity = openacl::ascendc::HardwareCapacity(hardware);
        uint32_t used = core.used[static_cast<size_t>(hardware)];
        if (uint64_t(used) + internal::AlignUp32(bytes) > capacity) {
            Fail("Init", std::string("the tiling's ") + what + " needs " + std::to_string(bytes) +
                             " bytes but the " + openacl::ascendc::HardwareName(hardware) +
                             " has " + std::to_string(capacity - used) +
                             " left: compute the tiling for this chip (GetTiling) or give the "
                             "Matmul more room");
        }
        static_cast<TPipe*>(core.pipe)->InitBuffer(buffer, bytes);
    }

    __aicore__ void CheckTiling() const {
        const TCubeTiling& t = tiling_;
        if (t.M <= 0 || t.N <= 0 || t.Ka <= 0 || t.Kb <= 0) {
            Fail("Init", "the tiling's M, N, Ka and Kb must be positive (got M " +
                             std::to_string(t.M) + ", N " + std::to_string(t.N) + ", Ka " +
                             std::to_string(t.Ka) + ", Kb " + std::to_string(t.Kb) +
                             "): was GetTiling's result checked?");
        }
        if (t.singleCoreM <= 0 || t.singleCoreN <= 0 || t.singleCoreK <= 0 || t.baseM <= 0 ||
            t.baseN <= 0 || t.baseK <= 0) {
            Fail("Init", "the tiling's singleCore and base sizes must be positive");
        }
        if (t.baseM % 16 != 0 || t.baseN % 16 != 0 ||
            t.baseK % openacl::ascendc::cube::C0<SrcAT>() != 0) {
            Fail("Init", "baseM and baseN must be multiples of 16 and baseK of " +
                             std::to_string(openacl::ascendc::cube::C0<SrcAT>()) + " (got " +
                             std::to_string(t.baseM) + ", " + std::to_string(t.baseN) + ", " +
                             std::to_string(t.baseK) + ")");
        }
    }

    template <typename T>
    __aicore__ void SetOperand(openacl::ascendc::matmul::Operand<T>& operand, const T* data,
                               bool transposed, const char* api) {
        CheckReady(api);
        if (data == nullptr) Fail(api, "the tensor has no memory: call SetGlobalBuffer first");
        operand.data = data;
        operand.transposed = transposed;
        operand.set = true;
    }
    __aicore__ void SetBiasData(const BiasT* data) {
        CheckReady("SetBias");
        if (data == nullptr) Fail("SetBias", "the bias has no memory: call SetGlobalBuffer first");
        bias_ = data;
        biasEnabled_ = true;
    }

    __aicore__ void CheckReady(const char* api) const {
        if (!initialised_) {
            Fail(api,
                 "the Matmul has no tiling: REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling) "
                 "or mm.Init(&tiling) first");
        }
    }
    __aicore__ void CheckBlock(const char* api) const {
        CheckReady(api);
        if (!hasBlock_) Fail(api, "no block was computed: call Iterate() first");
    }
    __aicore__ void CheckLocalOutput(const char* api, const LocalTensor<DstT>& local,
                                     uint64_t elements) const {
        CheckReady(api);
        if (!local.IsBound()) Fail(api, "the local C has no buffer");
        if (elements * sizeof(DstT) > local.BytesToBufferEnd()) {
            Fail(api, "the local C needs " + std::to_string(elements * sizeof(DstT)) +
                          " bytes but its buffer has " + std::to_string(local.BytesToBufferEnd()));
        }
    }

    __aicore__ uint32_t OutputStride(int32_t columns) const {
        if constexpr (C_TYPE::format == CubeFormat::ND_ALIGN) {
            return openacl::ascendc::cube::CeilAlign(uint32_t(columns), 32 / sizeof(DstT));
        } else {
            static_assert(
                C_TYPE::format == CubeFormat::ND || C_TYPE::format == CubeFormat::ND_ALIGN,
                "openacl's Matmul writes C in ND or ND_ALIGN format");
            return uint32_t(columns);
        }
    }

    __aicore__ uint32_t BlocksM() const {
        return openacl::ascendc::cube::CeilDiv(uint32_t(singleM_), uint32_t(tiling_.baseM));
    }
    __aicore__ uint32_t BlocksN() const {
        return openacl::ascendc::cube::CeilDiv(uint32_t(singleN_), uint32_t(tiling_.baseN));
    }
    __aicore__ uint32_t BlockCount() const { return BlocksM() * BlocksN(); }
    // iterateOrder 0: along M first; 1: along N first.
    __aicore__ void BlockPosition(uint32_t index, uint32_t& m, uint32_t& n) const {
        if (tiling_.iterateOrder == 1) {
            m = index / BlocksN();
            n = index % BlocksN();
        } else {
            m = index % BlocksM();
            n = index / BlocksM();
        }
    }
    __aicore__ void ResetIteration() {
        next_ = 0;
        hasBlock_ = false;
    }

    template <typename T, CubeFormat format>
    __aicore__ static L0cT Element(const openacl::ascendc::matmul::Operand<T>& operand,
                                   uint32_t row, uint32_t col, uint32_t rows, uint32_t cols) {
        // (row, col) of the logical matrix (rows x cols, the original shape).
        uint64_t at;
        if constexpr (format == CubeFormat::NZ) {
            constexpr uint32_t c0 = openacl::ascendc::cube::C0<T>();
            if (operand.transposed) {  // stored as cols x rows in NZ
                at = uint64_t(row / c0) * openacl::ascendc::cube::CeilAlign(cols, 16) * c0 +
                     uint64_t(col) * c0 + row % c0;
            } else {
                at = uint64_t(col / c0) * openacl::ascendc::cube::CeilAlign(rows, 16) * c0 +
                     uint64_t(row) * c0 + col % c0;
            }
        } else {
            static_assert(format == CubeFormat::ND, "openacl's Matmul reads A and B in ND or NZ");
            at = operand.transposed ? uint64_t(col) * rows + row : uint64_t(row) * cols + col;
        }
        return openacl::ascendc::cube::Widen<L0cT>(operand.data[at]);
    }

    __aicore__ void CheckOperands(const char* api) const {
        if (!a_.set || !b_.set) {
            Fail(api, std::string("no ") + (a_.set ? "B" : "A") +
                          " matrix: call SetTensorA and SetTensorB first");
        }
        if (biasEnabled_ && bias_ == nullptr) {
            Fail(api,
                 "the tiling enables the bias but none was set: call SetBias, or "
                 "DisableBias");
        }
    }

    __aicore__ void ComputeBlock(bool enPartialSum) {
        CheckOperands("Iterate");
        uint32_t baseM = uint32_t(tiling_.baseM), baseN = uint32_t(tiling_.baseN);
        blockM_ = std::min(baseM, uint32_t(singleM_) - curM_ * baseM);
        blockN_ = std::min(baseN, uint32_t(singleN_) - curN_ * baseN);
        if constexpr (kSgemmable) {
            if (openaclKernelSgemm != nullptr) {
                return Product(l0C_.template Get<float>().Data(), baseN, curM_ * baseM,
                               curN_ * baseN, blockM_, blockN_, enPartialSum);
            }
        }
        L0cT* acc = l0C_.template Get<L0cT>().Data();
        uint32_t kTotal = uint32_t(singleK_);
        for (uint32_t i = 0; i < blockM_; ++i) {
            uint32_t row = curM_ * baseM + i;
            for (uint32_t j = 0; j < blockN_; ++j) {
                uint32_t col = curN_ * baseN + j;
                L0cT sum = enPartialSum ? acc[i * baseN + j] : L0cT{};
                if (biasEnabled_ && !enPartialSum) sum = static_cast<L0cT>(float(bias_[col]));
                for (uint32_t k = 0; k < kTotal; ++k) {
                    sum += Element<SrcAT, A_TYPE::format>(a_, row, k, uint32_t(orgM_),
                                                          uint32_t(orgKa_)) *
                           Element<SrcBT, B_TYPE::format>(b_, k, col, uint32_t(orgKb_),
                                                          uint32_t(orgN_));
                }
                acc[i * baseN + j] = sum;
            }
        }
    }

    // Float, half and bfloat16 products of ND matrices accumulate in float: oneDNN's sgemm
    // computes the block (half and bfloat16 operands widened first), as the cube unit would,
    // far faster than element by element.
    static constexpr bool kSgemmable =
        A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND &&
        std::is_same_v<L0cT, float> && openacl::ascendc::matmul::kFloatLike<SrcAT> &&
        openacl::ascendc::matmul::kFloatLike<SrcBT>;

    // rows x cols from (row0, col0) of an ND operand whose whole matrix is orgRows x orgCols
    // (stored transposed when the operand says so), as float for sgemm: the operand in place
    // when it is float, else widened into scratch element by element, as Element reads it.
    template <typename T>
    __aicore__ static const float* AsFloat(const openacl::ascendc::matmul::Operand<T>& operand,
                                           uint32_t orgRows, uint32_t orgCols, uint32_t row0,
                                           uint32_t col0, uint32_t rows, uint32_t cols,
                                           std::vector<float>& scratch, char& trans,
                                           int64_t& lead) {
        if constexpr (std::is_same_v<T, float>) {
            trans = operand.transposed ? 'T' : 'N';
            lead = operand.transposed ? orgRows : orgCols;
            return operand.transposed ? operand.data + uint64_t(col0) * orgRows + row0
                                      : operand.data + uint64_t(row0) * orgCols + col0;
        } else {
            scratch.resize(size_t(rows) * cols);
            for (uint32_t r = 0; r < rows; ++r) {
                for (uint32_t c = 0; c < cols; ++c) {
                    scratch[size_t(r) * cols + c] =
                        Element<T, CubeFormat::ND>(operand, row0 + r, col0 + c, orgRows, orgCols);
                }
            }
            trans = 'N';
            lead = int64_t(cols);
            return scratch.data();
        }
    }

    // rows x cols of C = A * B (+ bias) from (row0, col0) of this core's part, into c (ldc
    // floats per row; partial: added to what c holds).
    __aicore__ void Product(float* c, uint32_t ldc, uint32_t row0, uint32_t col0, uint32_t rows,
                            uint32_t cols, bool partial) {
        const uint32_t k = uint32_t(singleK_);
        thread_local std::vector<float> scratchA, scratchB;
        char ta = 'N', tb = 'N';
        int64_t lda = 0, ldb = 0;
        const float* a =
            AsFloat(a_, uint32_t(orgM_), uint32_t(orgKa_), row0, 0, rows, k, scratchA, ta, lda);
        const float* b =
            AsFloat(b_, uint32_t(orgKb_), uint32_t(orgN_), 0, col0, k, cols, scratchB, tb, ldb);
        float beta = 0.0f;
        if (partial) {
            beta = 1.0f;
        } else if (biasEnabled_) {
            for (uint32_t i = 0; i < rows; ++i) {
                for (uint32_t j = 0; j < cols; ++j)
                    c[uint64_t(i) * ldc + j] = float(bias_[col0 + j]);
            }
            beta = 1.0f;
        }
        if (openaclKernelSgemm(ta, tb, rows, cols, k, 1.0f, a, lda, b, ldb, beta, c, ldc) != 0) {
            Fail("Iterate", "the product failed in openacl's GEMM (oneDNN)");
        }
    }

    // The block at (row0, col0) of a C with `stride` elements per row.
    __aicore__ void WriteBlock(DstT* c, uint32_t stride, uint32_t row0, uint32_t col0,
                               uint8_t enAtomic) {
        auto& core = openacl::ascendc::t_core;
        auto saved = core.atomicMode;
        if (enAtomic == 1) core.atomicMode = openacl::ascendc::AtomicMode::ADD;
        const L0cT* acc = l0C_.template Get<L0cT>().Data();
        for (uint32_t i = 0; i < blockM_; ++i) {
            for (uint32_t j = 0; j < blockN_; ++j) {
                DstT out;
                if constexpr (std::is_same_v<DstT, half> || std::is_same_v<DstT, bfloat16_t>) {
                    out = DstT(static_cast<float>(acc[i * tiling_.baseN + j]));
                } else {
                    out = static_cast<DstT>(acc[i * tiling_.baseN + j]);
                }
                openacl::ascendc::WriteGlobal(c + uint64_t(row0 + i) * stride + col0 + j, &out, 1);
            }
        }
        core.atomicMode = saved;
    }

    TCubeTiling tiling_{};
    bool initialised_ = false;
    void* pipe_ = nullptr;
    int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
    int32_t singleM_ = 0, singleN_ = 0, singleK_ = 0;
    openacl::ascendc::matmul::Operand<SrcAT> a_;
    openacl::ascendc::matmul::Operand<SrcBT> b_;
    const BiasT* bias_ = nullptr;
    bool biasEnabled_ = false;
    uint32_t next_ = 0;
    uint32_t curM_ = 0, curN_ = 0, blockM_ = 0, blockN_ = 0;
    bool hasBlock_ = false;
    TBuf<TPosition::A1> l1A_;
    TBuf<TPosition::B1> l1B_;
    TBuf<TPosition::A2> l0A_;
    TBuf<TPosition::B2> l0B_;
    TBuf<TPosition::CO1> l0C_;
    TBuf<TPosition::C2> bt_;
};

}  // namespace AscendC

namespace openacl::ascendc::matmul {

__aicore__ inline void Register(AscendC::TPipe*, GM_ADDR) {}

template <class MM, class... Rest>
__aicore__ inline void Register(AscendC::TPipe* pipe, GM_ADDR workspace, MM& mm,
                                const TCubeTiling* tiling, Rest&&... rest);

// A Matmul without a tiling: the kernel calls mm.Init(&tiling) itself.
template <class MM>
__aicore__ inline void Register(AscendC::TPipe*, GM_ADDR, MM&) {}

template <class MM, class... Rest>
__aicore__ inline void Register(AscendC::TPipe* pipe, GM_ADDR workspace, MM& mm,
                                const TCubeTiling* tiling, Rest&&... rest) {
    if (tiling != nullptr) mm.Init(tiling, pipe);
    Register(pipe, workspace, rest...);
}

}  // namespace openacl::ascendc::matmul

// REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm1, &tiling1[, mm2, &tiling2 ...]).
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
    ::openacl::ascendc::matmul::Register((tpipe), (workspace), __VA_ARGS__)

#endif  // OPENACL_ASCENDC_LIB_MATMUL_MATMUL_H_
