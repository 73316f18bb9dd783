// matmul_tiling::MatmulApiTiling (one core) and MultiCoreMatmulTiling: the host side of the
// Matmul API. From the operand types, the shape and the core count it computes a TCubeTiling
// whose buffers fit the chip's L1, L0A, L0B, L0C and bias table: M and N split over the cores
// (K is not split), each core's part computed in baseM x baseN x baseK blocks.
#ifndef OPENACL_ASCENDC_TILING_MATMUL_TILING_H_
#define OPENACL_ASCENDC_TILING_MATMUL_TILING_H_

#include <algorithm>
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/matmul_tiling_data.h"
#include "tiling/platform/platform_ascendc.h"

namespace matmul_tiling {

enum class TPosition : int32_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    MAX,
};

enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

// Values as ge::DataType / aclDataType.
enum class DataType : int32_t {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_BF16 = 27,
    DT_INT4 = 29,
};

enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };

// The buffer sizes a tiling must fit, for code that has no PlatformAscendC.
struct PlatformInfo {
    platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
    uint64_t l1Size = 0;
    uint64_t l0CSize = 0;
    uint64_t ubSize = 0;
    uint64_t l0ASize = 0;
    uint64_t l0BSize = 0;
};

class MatmulApiTilingBase {
 public:
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& platform) {
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1_);
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a_);
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, l0b_);
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c_);
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub_);
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::BT, bt_);
        cores_ = static_cast<int32_t>(platform.GetCoreNumAic());
    }
    explicit MatmulApiTilingBase(const PlatformInfo& info)
        : l1_(info.l1Size),
          l0a_(info.l0ASize),
          l0b_(info.l0BSize),
          l0c_(info.l0CSize),
          ub_(info.ubSize) {}
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        a_ = {pos, type, dataType, isTrans};
        return 0;
    }
    int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        b_ = {pos, type, dataType, isTrans};
        return 0;
    }
    int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType) {
        c_ = {pos, type, dataType, false};
        return 0;
    }
    int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
        bias_ = {pos, type, dataType, false};
        return 0;
    }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) {
        if (m <= 0 || n <= 0 || k <= 0) return -1;
        m_ = m;
        n_ = n;
        k_ = k;
        return 0;
    }
    int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgK) {
        return SetOrgShape(orgM, orgN, orgK, orgK);
    }
    int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgKa, int32_t orgKb) {
        if (orgM <= 0 || orgN <= 0 || orgKa <= 0 || orgKb <= 0) return -1;
        orgM_ = orgM;
        orgN_ = orgN;
        orgKa_ = orgKa;
        orgKb_ = orgKb;
        return 0;
    }
    int32_t EnableBias(bool isBias = false) {
        isBias_ = isBias;
        return 0;
    }
    int32_t SetBias(bool isBias = false) { return EnableBias(isBias); }
    // -1 keeps the chip's size.
    int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1,
                           int32_t btSize = -1) {
        if (l1Size >= 0) l1Limit_ = l1Size;
        if (l0CSize >= 0) l0cLimit_ = l0CSize;
        if (ubSize >= 0) ubLimit_ = ubSize;
        if (btSize >= 0) btLimit_ = btSize;
        return 0;
    }
    int32_t SetFixSplit(int32_t baseM = -1, int32_t baseN = -1, int32_t baseK = -1) {
        fixM_ = baseM;
        fixN_ = baseN;
        fixK_ = baseK;
        return 0;
    }
    int32_t SetTraverse(MatrixTraverse traverse) {
        traverse_ = traverse;
        return 0;
    }

    // 0 with `tiling` filled in, or -1 when no tiling fits (shape unset, unsupported types,
    // buffers too small for one block, a fixed split that does not fit).
    int64_t GetTiling(optiling::TCubeTiling& tiling) { return GetTiling(tiling.Data()); }
    int64_t GetTiling(::TCubeTiling& tiling) {
        ::TCubeTiling result{};
        if (Compute(result) != 0) return -1;
        tiling = result;
        return 0;
    }

    int32_t GetBaseM() const { return baseM_; }
    int32_t GetBaseN() const { return baseN_; }
    int32_t GetBaseK() const { return baseK_; }

 protected:
    struct Operand {
        TPosition pos = TPosition::GM;
        CubeFormat format = CubeFormat::ND;
        DataType type = DataType::DT_FLOAT16;
        bool trans = false;
    };

    // mDim x nDim cores to use for this shape (MultiCoreMatmulTiling overrides).
    virtual void SplitCores(int32_t& mDim, int32_t& nDim) const {
        mDim = 1;
        nDim = 1;
    }
    virtual bool SingleShape(int32_t& singleM, int32_t& singleN, int32_t& singleK) const {
        (void)singleM;
        (void)singleN;
        (void)singleK;
        return false;
    }

    static int32_t ElementSize(DataType type) {
        switch (type) {
            case DataType::DT_FLOAT:
            case DataType::DT_INT32:
                return 4;
            case DataType::DT_FLOAT16:
            case DataType::DT_BF16:
                return 2;
            case DataType::DT_INT8:
            case DataType::DT_UINT8:
                return 1;
            default:
                return 0;
        }
    }
    static int32_t CeilDiv(int64_t value, int64_t unit) {
        return int32_t((value + unit - 1) / unit);
    }
    static int32_t CeilAlign(int64_t value, int64_t unit) {
        return CeilDiv(value, unit) * int32_t(unit);
    }

    int32_t Compute(::TCubeTiling& t) {
        if (m_ <= 0 || n_ <= 0 || k_ <= 0) return -1;
        bool cubeType = a_.type == DataType::DT_FLOAT16 || a_.type == DataType::DT_BF16 ||
                        a_.type == DataType::DT_FLOAT || a_.type == DataType::DT_INT8;
        if (!cubeType || a_.type != b_.type) return -1;
        int32_t sizeA = ElementSize(a_.type), sizeB = ElementSize(b_.type);
        int32_t c0 = 32 / sizeA;
        int32_t orgM = orgM_ > 0 ? orgM_ : m_, orgN = orgN_ > 0 ? orgN_ : n_;
        int32_t orgKa = orgKa_ > 0 ? orgKa_ : k_, orgKb = orgKb_ > 0 ? orgKb_ : k_;
        if (m_ > orgM || n_ > orgN || k_ > std::min(orgKa, orgKb)) return -1;
        uint64_t l1 = std::min<uint64_t>(l1_, l1Limit_ >= 0 ? uint64_t(l1Limit_) : l1_);
        uint64_t l0c = std::min<uint64_t>(l0c_, l0cLimit_ >= 0 ? uint64_t(l0cLimit_) : l0c_);

        int32_t mDim = 1, nDim = 1;
        int32_t singleM = 0, singleN = 0, singleK = 0;
        if (!SingleShape(singleM, singleN, singleK)) {
            SplitCores(mDim, nDim);
            singleM = std::min(m_, CeilAlign(CeilDiv(m_, mDim), 16));
            singleN = std::min(n_, CeilAlign(CeilDiv(n_, nDim), 16));
            singleK = k_;
        }
        if (singleM <= 0 || singleN <= 0 || singleK <= 0) return -1;

        int32_t baseM = std::min(128, CeilAlign(singleM, 16));
        int32_t baseN = std::min(256, CeilAlign(singleN, 16));
        while (uint64_t(baseM) * baseN * 4 > l0c && (baseM > 16 || baseN > 16)) {
            if (baseN >= baseM) {
                baseN = std::max(16, baseN / 2 / 16 * 16);
            } else {
                baseM = std::max(16, baseM / 2 / 16 * 16);
            }
        }
        if (fixM_ > 0) baseM = fixM_;
        if (fixN_ > 0) baseN = fixN_;
        if (baseM % 16 != 0 || baseN % 16 != 0 || uint64_t(baseM) * baseN * 4 > l0c) return -1;
        // Two L0A/L0B buffers each (double buffering).
        int64_t kByA = int64_t(l0a_) / 2 / (int64_t(baseM) * sizeA);
        int64_t kByB = int64_t(l0b_) / 2 / (int64_t(baseN) * sizeB);
        int32_t baseK = int32_t(std::min<int64_t>({kByA, kByB, CeilAlign(singleK, c0)}) / c0 * c0);
        if (fixK_ > 0) {
            if (fixK_ % c0 != 0 || fixK_ > kByA || fixK_ > kByB) return -1;
            baseK = fixK_;
        }
        if (baseK < c0) return -1;

        int32_t kIter = CeilDiv(singleK, baseK);
        int32_t stepK = std::min(kIter, 2);
        auto l1Use = [&](int32_t step, int32_t depth) {
            return uint64_t(depth) * step *
                       (uint64_t(baseM) * baseK * sizeA + uint64_t(baseN) * baseK * sizeB) +
                   (isBias_ ? uint64_t(baseN) * 4 : 0);
        };
        int32_t depth = 2;
        while (l1Use(stepK, depth) > l1 && (stepK > 1 || depth > 1)) {
            if (stepK > 1) {
                --stepK;
            } else {
                depth = 1;
            }
        }
        if (l1Use(stepK, depth) > l1) return -1;
        if (isBias_ && bt_ > 0 && uint64_t(baseN) * 4 > bt_) return -1;

        t.M = orgM;
        t.N = orgN;
        t.Ka = orgKa;
        t.Kb = orgKb;
        t.singleCoreM = singleM;
        t.singleCoreN = singleN;
        t.singleCoreK = singleK;
        t.usedCoreNum = CeilDiv(m_, singleM) * CeilDiv(n_, singleN);
        t.baseM = baseM;
        t.baseN = baseN;
        t.baseK = baseK;
        t.stepM = 1;
        t.stepN = 1;
        t.stepKa = stepK;
        t.stepKb = stepK;
        t.depthA1 = depth * stepK;
        t.depthB1 = depth * stepK;
        t.isBias = isBias_ ? 1 : 0;
        t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
        t.shareMode = 0;
        t.shareL1Size = int32_t(l1Use(stepK, depth));
        t.shareL0CSize = baseM * baseN * 4;
        t.shareUbSize = 0;
        t.dbL0A = 2;
        t.dbL0B = 2;
        t.dbL0C = 1;
        baseM_ = baseM;
        baseN_ = baseN;
        baseK_ = baseK;
        usedMDim_ = CeilDiv(m_, singleM);
        usedNDim_ = CeilDiv(n_, singleN);
        return 0;
    }

    uint64_t l1_ = 0, l0a_ = 0, l0b_ = 0, l0c_ = 0, ub_ = 0, bt_ = 0;
    int32_t cores_ = 1;
    Operand a_, b_;
    Operand c_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false};
    Operand bias_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false};
    int32_t m_ = 0, n_ = 0, k_ = 0;
    int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
    bool isBias_ = false;
    int64_t l1Limit_ = -1, l0cLimit_ = -1, ubLimit_ = -1, btLimit_ = -1;
    int32_t fixM_ = -1, fixN_ = -1, fixK_ = -1;
    MatrixTraverse traverse_ = MatrixTraverse::NOSET;
    int32_t baseM_ = 0, baseN_ = 0, baseK_ = 0;
    int32_t usedMDim_ = 0, usedNDim_ = 0;
};

// One core computes the whole shape.
class MatmulApiTiling : public MatmulApiTilingBase {
 public:
    MatmulApiTiling()
        : MatmulApiTilingBase(*platform_ascendc::PlatformAscendCManager::GetInstance()) {}
    explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& platform)
        : MatmulApiTilingBase(platform) {}
    explicit MatmulApiTiling(const PlatformInfo& info) : MatmulApiTilingBase(info) {}
};

// M and N split over up to SetDim cores.
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
    MultiCoreMatmulTiling()
        : MatmulApiTilingBase(*platform_ascendc::PlatformAscendCManager::GetInstance()) {
        dim_ = cores_ > 0 ? cores_ : 1;
    }
    explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& platform)
        : MatmulApiTilingBase(platform) {
        dim_ = cores_ > 0 ? cores_ : 1;
    }
    explicit MultiCoreMatmulTiling(const PlatformInfo& info) : MatmulApiTilingBase(info) {}

    int32_t SetDim(int32_t dim) {
        if (dim <= 0) return -1;
        dim_ = dim;
        return 0;
    }
    int32_t SetSingleShape(int32_t singleM = -1, int32_t singleN = -1, int32_t singleK = -1) {
        singleM_ = singleM;
        singleN_ = singleN;
        singleK_ = singleK;
        return 0;
    }
    int32_t GetSingleShape(int32_t& singleM, int32_t& singleN, int32_t& singleK) const {
        singleM = singleM_;
        singleN = singleN_;
        singleK = singleK_;
        return 0;
    }
    // The cores GetTiling used: dim = mDim * nDim.
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const {
        mDim = usedMDim_;
        nDim = usedNDim_;
        dim = mDim * nDim;
        return 0;
    }

 protected:
    // The mDim x nDim <= dim split with the least work per core (then the fewest cores).
    void SplitCores(int32_t& mDim, int32_t& nDim) const override {
        int32_t mMax = std::min(dim_, CeilDiv(m_, 16));
        int32_t nMax = std::min(dim_, CeilDiv(n_, 16));
        int64_t best = -1;
        int32_t bestCores = 0;
        mDim = nDim = 1;
        for (int32_t mi = 1; mi <= mMax; ++mi) {
            for (int32_t ni = 1; ni <= nMax && mi * ni <= dim_; ++ni) {
                int32_t singleM = std::min(m_, CeilAlign(CeilDiv(m_, mi), 16));
                int32_t singleN = std::min(n_, CeilAlign(CeilDiv(n_, ni), 16));
                int64_t work = int64_t(singleM) * singleN;
                int32_t cores = CeilDiv(m_, singleM) * CeilDiv(n_, singleN);
                if (best < 0 || work < best || (work == best && cores < bestCores)) {
                    best = work;
                    bestCores = cores;
                    mDim = mi;
                    nDim = ni;
                }
            }
        }
    }
    bool SingleShape(int32_t& singleM, int32_t& singleN, int32_t& singleK) const override {
        if (singleM_ <= 0 && singleN_ <= 0 && singleK_ <= 0) return false;
        singleM = singleM_ > 0 ? std::min(singleM_, m_) : m_;
        singleN = singleN_ > 0 ? std::min(singleN_, n_) : n_;
        singleK = singleK_ > 0 ? std::min(singleK_, k_) : k_;
        return true;
    }

 private:
    int32_t dim_ = 1;
    int32_t singleM_ = -1, singleN_ = -1, singleK_ = -1;
};

}  // namespace matmul_tiling

#endif  // OPENACL_ASCENDC_TILING_MATMUL_TILING_H_
