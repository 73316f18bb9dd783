// Ascend C's basic kernel types: scalar types, buffer positions, pipes and hardware events.
#ifndef OPENACL_ASCENDC_KERNEL_TYPE_H_
#define OPENACL_ASCENDC_KERNEL_TYPE_H_

#include <cstdint>

#include "kernel_arch.h"
#include "kernel_bfloat16.h"
#include "kernel_half.h"
#include "kernel_rounding.h"
#include "openacl/kernel.h"

// The pipes of one core (compiler built-ins in CANN, hence global).
enum pipe_t : uint8_t {
    PIPE_S = 0,  // scalar
    PIPE_V,      // vector
    PIPE_M,      // cube
    PIPE_MTE1,   // L1 -> L0A/L0B
    PIPE_MTE2,   // GM -> local memory
    PIPE_MTE3,   // local memory -> GM
    PIPE_ALL,
    PIPE_MTE4,
    PIPE_MTE5,
    PIPE_V2,
    PIPE_FIX,  // fixpipe
};

// Event ids for SetFlag/WaitFlag (compiler built-ins too).
enum event_t : uint8_t {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
};

namespace AscendC {

using ::GetBlockIdx;
using ::GetBlockNum;

// Where a local tensor lives, by its role (values as in CANN).
enum class TPosition : uint8_t {
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
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;

// The physical memories behind the positions.
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// Source_destination pipe pairs for SetFlag/WaitFlag (values as in CANN).
enum class HardEvent : uint8_t {
    MTE2_MTE1,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    MAX,
};

using TEventID = int8_t;

// Vector mask modes: NORMAL = a lane mask per repeat, COUNTER = a total element count.
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

// 32 bytes: the alignment and copy unit ("DataBlock"); a repeat is 8 of them.
constexpr uint32_t ONE_BLK_SIZE = 32;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = ONE_BLK_SIZE * DEFAULT_BLK_NUM;
constexpr uint32_t MAX_REPEAT_TIMES = 255;
constexpr uint32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint64_t MASK_PLACEHOLDER = 0;

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_TYPE_H_
