// Checks an instruction makes of its local-memory operands: a buffer behind the tensor, a
// 32-byte aligned start (the NPU faults otherwise) and every byte touched inside the buffer.
#ifndef OPENACL_ASCENDC_KERNEL_OPERAND_CHECK_H_
#define OPENACL_ASCENDC_KERNEL_OPERAND_CHECK_H_

#include <cstdint>
#include <string>

#include "kernel_core_state.h"
#include "kernel_tensor_impl.h"

namespace openacl::ascendc {

// A local-to-local copy runs on the vector pipe between unified-buffer positions; other pairs
// (L1, L0C, ...) are not modelled.
template <typename T>
__aicore__ inline OperandUse LocalCopyUse(const AscendC::LocalTensor<T>& dst,
                                          const AscendC::LocalTensor<T>& src, bool write) {
    const bool ub = PositionHardware(dst.GetPosition()) == AscendC::Hardware::UB &&
                    PositionHardware(src.GetPosition()) == AscendC::Hardware::UB;
    return {Pipe::V, write, ub};
}

// `bytes` = how far past the tensor's start the instruction reaches (0: not known here; the
// caller checks the lanes it touches).
template <typename T>
__aicore__ inline void CheckOperand(const char* api, const char* role,
                                    const AscendC::LocalTensor<T>& tensor, uint64_t bytes,
                                    OperandUse use = kVectorRead) {
    if (!tensor.IsBound()) {
        Trap(api, std::string(role) +
                      " has no buffer: take it from AllocTensor, DeQue or TBuf::Get first");
    }
    if (tensor.Freed()) Trap(api, FreedTensor(role));
    auto offset = reinterpret_cast<uintptr_t>(tensor.Data()) -
                  reinterpret_cast<uintptr_t>(tensor.BufferBegin());
    if (offset % AscendC::ONE_BLK_SIZE != 0) {
        Trap(api, std::string(role) + " starts " + std::to_string(offset) +
                      " bytes into its buffer, not on a 32-byte boundary (the NPU requires "
                      "32-byte aligned local operands)");
    }
    if (bytes > tensor.BytesToBufferEnd()) {
        Trap(api, std::string(role) + " reaches " + std::to_string(bytes) +
                      " bytes past its start but its buffer has " +
                      std::to_string(tensor.BytesToBufferEnd()) + " from there");
    }
    TrackAccess(api, role, use, tensor.Data(), bytes);
}

}  // namespace openacl::ascendc

#endif  // OPENACL_ASCENDC_KERNEL_OPERAND_CHECK_H_
