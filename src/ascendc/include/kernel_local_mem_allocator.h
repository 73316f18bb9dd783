// LocalMemAllocator: the static tensor programming mode. A kernel hands out tensors from one
// local memory (UB by default; L1, L0A/B/C or the bias table) from its start upwards, without
// TPipe or queues, and orders its pipes itself (PipeBarrier, SetFlag/WaitFlag). Each
// allocation is rounded up to 32 bytes; asking for more than is left, or for a position of
// another memory, traps with a message, and so does mixing the mode with a TPipe in one block
// (CANN forbids it: both would hand out the same bytes).
#ifndef OPENACL_ASCENDC_KERNEL_LOCAL_MEM_ALLOCATOR_H_
#define OPENACL_ASCENDC_KERNEL_LOCAL_MEM_ALLOCATOR_H_

#include <cstdint>
#include <string>

#include "kernel_core_state.h"
#include "kernel_tensor_impl.h"
#include "kernel_tpipe_impl.h"
#include "kernel_type.h"

namespace AscendC {

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
    static_assert(hard != Hardware::GM && hard != Hardware::MAX,
                  "LocalMemAllocator allocates from a local memory: UB, L1, L0A, L0B, L0C, BIAS");

 public:
    __aicore__ LocalMemAllocator() = default;

    // The offset in the memory where the next tensor starts (bytes handed out so far).
    __aicore__ uint32_t GetCurAddr() const { return next_; }

    template <class T, uint32_t tileSize>
    __aicore__ LocalTensor<T> Alloc() {
        return Take<T>(DefaultPosition(), tileSize);
    }
    template <TPosition pos, class T, uint32_t tileSize>
    __aicore__ LocalTensor<T> Alloc() {
        return Take<T>(pos, tileSize);
    }
    template <class T>
    __aicore__ LocalTensor<T> Alloc(uint32_t tileSize) {
        return Take<T>(DefaultPosition(), tileSize);
    }
    template <TPosition pos, class T>
    __aicore__ LocalTensor<T> Alloc(uint32_t tileSize) {
        return Take<T>(pos, tileSize);
    }

 private:
    // The position a tensor of this memory gets when the kernel names none.
    static constexpr TPosition DefaultPosition() {
        switch (hard) {
            case Hardware::L1:
                return TPosition::A1;
            case Hardware::L0A:
                return TPosition::A2;
            case Hardware::L0B:
                return TPosition::B2;
            case Hardware::L0C:
                return TPosition::CO1;
            case Hardware::BIAS:
                return TPosition::C2;
            default:
                return TPosition::VECCALC;
        }
    }

    template <class T>
    __aicore__ LocalTensor<T> Take(TPosition pos, uint32_t tileSize) {
        constexpr const char* kApi = "LocalMemAllocator::Alloc";
        auto& core = openacl::ascendc::t_core;
        const char* memory = openacl::ascendc::HardwareName(hard);
        if (core.pipe != nullptr) {
            openacl::ascendc::Trap(kApi,
                                   "a TPipe is alive on this core: the static tensor mode "
                                   "(LocalMemAllocator) cannot be mixed with TPipe, since both "
                                   "hand out the same memory");
        }
        if (openacl::ascendc::PositionHardware(pos) != hard) {
            openacl::ascendc::Trap(
                kApi, std::string("the position lives in the ") +
                          openacl::ascendc::HardwareName(openacl::ascendc::PositionHardware(pos)) +
                          ", not in this allocator's " + memory);
        }
        const uint32_t capacity = openacl::ascendc::HardwareCapacity(hard);
        const uint64_t bytes = internal::AlignUp32(uint64_t{tileSize} * sizeof(T));
        if (capacity == 0) {
            openacl::ascendc::Trap(kApi, std::string("this chip has no ") + memory);
        }
        if (tileSize == 0 || next_ + bytes > capacity) {
            openacl::ascendc::Trap(kApi, "asks for " + std::to_string(tileSize) + " elements (" +
                                             std::to_string(bytes) + " bytes) but the " + memory +
                                             " has " + std::to_string(capacity) + " bytes, " +
                                             std::to_string(next_) + " of them already given out" +
                                             (tileSize == 0 ? ": ask for 1 or more" : ""));
        }
        core.staticTensors = true;
        std::byte* begin = core.Memory(hard) + next_;
        next_ += static_cast<uint32_t>(bytes);
        return LocalTensor<T>(reinterpret_cast<T*>(begin), tileSize, begin, begin + bytes, pos);
    }

    uint32_t next_ = 0;
};

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_LOCAL_MEM_ALLOCATOR_H_
