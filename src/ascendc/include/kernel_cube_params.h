// The parameter structs of the cube instructions: DataCopy's ND->NZ form, LoadData, Mmad,
// Fixpipe and InitConstValue (names, fields and defaults as CANN documents them).
#ifndef OPENACL_ASCENDC_KERNEL_CUBE_PARAMS_H_
#define OPENACL_ASCENDC_KERNEL_CUBE_PARAMS_H_

#include <cstdint>

#include "kernel_type.h"

namespace AscendC {

// GM -> A1/B1 with the ND -> NZ conversion. Strides: srcNdMatrixStride, srcDValue and
// dstNzMatrixStride in elements; dstNzC0Stride and dstNzNStride in C0 blocks (32 bytes).
struct Nd2NzParams {
    __aicore__ Nd2NzParams() = default;
    __aicore__ Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn,
                           uint16_t srcNdMatrixStrideIn, uint16_t srcDValueIn,
                           uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn,
                           uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn),
          nValue(nValueIn),
          dValue(dValueIn),
          srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn),
          dstNzC0Stride(dstNzC0StrideIn),
          dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}

    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
};

// LoadData's 2-D form: repeatTimes fractals of 512 bytes, the source ones startIndex +
// r * srcStride fractals in, the destination ones dstGap fractals apart.
struct LoadData2DParams {
    __aicore__ LoadData2DParams() = default;
    __aicore__ LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn,
                                uint8_t sidIn, uint16_t dstGapIn, bool ifTransposeIn,
                                uint8_t addrModeIn)
        : startIndex(startIndexIn),
          repeatTimes(repeatTimesIn),
          srcStride(srcStrideIn),
          sid(sidIn),
          dstGap(dstGapIn),
          ifTranspose(ifTransposeIn),
          addrMode(addrModeIn) {}

    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint8_t sid = 0;
    uint16_t dstGap = 0;
    bool ifTranspose = false;
    uint8_t addrMode = 0;
};

// Mmad: C (m x n, CO1) = A (m x k, A2) * B (k x n, B2), starting from 0 (cmatrixInitVal), from
// what CO1 holds (cmatrixSource false) or from the bias table (cmatrixSource true).
struct MmadParams {
    __aicore__ MmadParams() = default;
    __aicore__ MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn,
                          int32_t fmOffsetIn, bool enSsparseIn, bool enWinogradAIn,
                          bool enWinogradBIn)
        : m(mIn),
          n(nIn),
          k(kIn),
          isBias(isBiasIn),
          fmOffset(fmOffsetIn),
          enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn),
          enWinogradB(enWinogradBIn) {}
    __aicore__ MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn,
                          bool cmatrixSourceIn, bool cmatrixInitValIn)
        : m(mIn),
          n(nIn),
          k(kIn),
          unitFlag(unitFlagIn),
          cmatrixSource(cmatrixSourceIn),
          cmatrixInitVal(cmatrixInitValIn) {}

    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;  // deprecated: true = accumulate onto CO1
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool cmatrixInitVal = true;
};

// Fixpipe's conversion of the float/int32 results on the way out of CO1.
enum QuantMode_t : uint8_t {
    NoQuant = 0,
    F322F16,
    F322BF16,
    DEQF16,
    VDEQF16,
    QF322B8_PRE,
    VQF322B8_PRE,
    REQ8,
    VREQ8,
};

// CO1 -> GM (or L1) through the fixpipe; ND output unless the config asks for NZ.
struct FixpipeParamsV220 {
    __aicore__ FixpipeParamsV220() = default;
    __aicore__ FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn,
                                 uint32_t dstStrideIn, bool reluEnIn)
        : nSize(nSizeIn),
          mSize(mSizeIn),
          srcStride(srcStrideIn),
          dstStride(dstStrideIn),
          reluEn(reluEnIn) {}

    uint16_t nSize = 0;      // columns written
    uint16_t mSize = 0;      // rows written
    uint16_t srcStride = 0;  // rows between column blocks of 16 in CO1 (usually m aligned to 16)
    uint32_t dstStride = 0;  // ND: elements between destination rows; NZ: 32-byte blocks
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;  // fractals of 16 x 16 between source matrices
    uint16_t dstNdStride = 0;  // elements between destination matrices
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
    CO2Layout format;
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

// InitConstValue: repeatTimes iterations of blockNum blocks (32 bytes in A1/B1, 512 in
// A2/B2), dstGap blocks apart.
template <typename T>
struct InitConstValueParams {
    __aicore__ InitConstValueParams() = default;
    __aicore__ InitConstValueParams(uint16_t repeatTimesIn, uint16_t blockNumIn, uint16_t dstGapIn,
                                    T initValueIn)
        : repeatTimes(repeatTimesIn),
          blockNum(blockNumIn),
          dstGap(dstGapIn),
          initValue(initValueIn) {}
    __aicore__ InitConstValueParams(uint16_t repeatTimesIn, T initValueIn)
        : repeatTimes(repeatTimesIn), initValue(initValueIn) {}

    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    T initValue{};
};

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_CUBE_PARAMS_H_
