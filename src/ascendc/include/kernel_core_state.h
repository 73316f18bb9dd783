// What one AI core holds while it runs a block: its local memories (UB, L1, L0A/B/C, bias
// table) and the state the hardware keeps between instructions (vector mask, atomic mode, pad
// value, event flags). Blocks run concurrently on different threads, so all of it is per thread.
#ifndef OPENACL_ASCENDC_KERNEL_CORE_STATE_H_
#define OPENACL_ASCENDC_KERNEL_CORE_STATE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "kernel_pipe_hazard.h"
#include "kernel_type.h"

namespace openacl::ascendc {

constexpr size_t kHardwareCount = static_cast<size_t>(AscendC::Hardware::MAX);
constexpr size_t kHardEventCount = static_cast<size_t>(AscendC::HardEvent::MAX);
constexpr uint32_t kEventIdsPerEvent = 8;  // EVENT_ID0 .. EVENT_ID7
constexpr std::align_val_t kLocalMemoryAlignment{4096};

__aicore__ inline uint32_t HardwareCapacity(AscendC::Hardware hardware) {
    switch (hardware) {
        case AscendC::Hardware::UB:
            return kUbSize;
        case AscendC::Hardware::L1:
            return kL1Size;
        case AscendC::Hardware::L0A:
            return kL0ASize;
        case AscendC::Hardware::L0B:
            return kL0BSize;
        case AscendC::Hardware::L0C:
            return kL0CSize;
        case AscendC::Hardware::BIAS:
            return kBtSize;
        default:
            return 0;
    }
}

__aicore__ inline const char* HardwareName(AscendC::Hardware hardware) {
    switch (hardware) {
        case AscendC::Hardware::UB:
            return "unified buffer (UB)";
        case AscendC::Hardware::L1:
            return "L1 buffer";
        case AscendC::Hardware::L0A:
            return "L0A buffer";
        case AscendC::Hardware::L0B:
            return "L0B buffer";
        case AscendC::Hardware::L0C:
            return "L0C buffer";
        case AscendC::Hardware::BIAS:
            return "bias table";
        default:
            return "global memory";
    }
}

// The memory a position's buffers are carved from.
__aicore__ inline AscendC::Hardware PositionHardware(AscendC::TPosition position) {
    using AscendC::Hardware;
    using AscendC::TPosition;
    switch (position) {
        case TPosition::A1:
        case TPosition::B1:
        case TPosition::C1:
        case TPosition::TSCM:
            return Hardware::L1;
        case TPosition::A2:
            return Hardware::L0A;
        case TPosition::B2:
            return Hardware::L0B;
        case TPosition::CO1:
            return Hardware::L0C;
        case TPosition::C2:
            return Hardware::BIAS;
        case TPosition::GM:
            return Hardware::GM;
        default:  // VECIN, VECOUT, VECCALC, CO2, SPM, ...
            return Hardware::UB;
    }
}

// "HardEvent::MTE2_V" for messages.
__aicore__ inline std::string HardEventName(AscendC::HardEvent event) {
    return "HardEvent::" + EventName(static_cast<size_t>(event));
}

enum class CoreType : uint8_t { AIV, AIC };
struct MixGroup;  // kernel_cross_core.h: the cores of one block of a mix kernel
enum class AtomicMode : uint8_t { NONE, ADD, MAX, MIN };

struct CoreState {
    std::array<std::byte*, kHardwareCount> memory{};
    // Bytes a TPipe has handed out of each memory; reset by each new TPipe.
    std::array<uint32_t, kHardwareCount> used{};
    uint32_t bufferCount = 0;
    // Bumped by each TPipe construction, Reset and Destroy: queues and buffers initialised
    // under an older epoch are stale.
    uint64_t epoch = 1;
    void* pipe = nullptr;
    // Set when LocalMemAllocator hands out memory (the static tensor mode): a TPipe may not
    // then be built in the same block.
    bool staticTensors = false;

    AscendC::MaskMode maskMode = AscendC::MaskMode::NORMAL;
    uint64_t maskHigh = ~0ULL;
    uint64_t maskLow = ~0ULL;
    AtomicMode atomicMode = AtomicMode::NONE;
    bool padValueSet = false;
    uint64_t padValueBits = 0;

    std::array<std::array<uint32_t, kEventIdsPerEvent>, kHardEventCount> flags{};
    std::array<uint32_t, kHardEventCount> allocatedEventIds{};  // a bit per id

    CoreType coreType = CoreType::AIV;
    // In a mix kernel's block: the group of one AIC and its AIVs this core belongs to, its slot
    // there (0: the AIC, 1..: the AIVs), and GetSubBlockIdx / GetTaskRation's answers.
    MixGroup* group = nullptr;
    uint32_t groupSlot = 0;
    uint32_t subBlockIdx = 0;
    uint32_t taskRation = 1;
    uint64_t tilingKey = 0;
    uint8_t* sysWorkspace = nullptr;
    // CrossCoreSetFlag mode 0 outside mix kernels: per flag id, the sets of this core and the
    // launch-wide rounds its waits took.
    std::array<uint64_t, 16> allCoreSets{};
    std::array<uint64_t, 16> allCoreTaken{};
    // The order between this core's pipes, for the cross-pipe hazard check.
    PipeHazards hazards;
    // The global memory this block wrote outside atomics ([begin, end) pairs, and the API of
    // each), handed to the runtime when the block ends (EndBlock) to compare with other blocks'.
    std::vector<uint64_t> globalWrites;
    std::vector<const char*> globalWriters;

    CoreState() = default;
    CoreState(const CoreState&) = delete;
    CoreState& operator=(const CoreState&) = delete;
    ~CoreState() {
        for (std::byte* area : memory) {
            if (area != nullptr) ::operator delete(area, kLocalMemoryAlignment);
        }
    }

    // The thread's area for one memory, allocated on first use.
    std::byte* Memory(AscendC::Hardware hardware) {
        std::byte*& area = memory[static_cast<size_t>(hardware)];
        if (area == nullptr) {
            area = static_cast<std::byte*>(
                ::operator new(HardwareCapacity(hardware), kLocalMemoryAlignment));
        }
        return area;
    }

    // The per-core settings InitSocState restores.
    void ResetSettings() {
        maskMode = AscendC::MaskMode::NORMAL;
        maskHigh = ~0ULL;
        maskLow = ~0ULL;
        atomicMode = AtomicMode::NONE;
        padValueSet = false;
        padValueBits = 0;
        flags = {};
        allocatedEventIds = {};
    }
};

inline thread_local CoreState t_core;

// For launchers: puts the calling thread's core into its start state before a block runs
// (settings, flags, core type, tiling key).
inline void BeginBlock(uint64_t tilingKey = 0) {
    t_core.ResetSettings();
    t_core.staticTensors = false;
    t_core.group = nullptr;
    t_core.groupSlot = 0;
    t_core.subBlockIdx = 0;
    t_core.taskRation = 1;
    t_core.coreType = CoreType::AIV;
    t_core.tilingKey = tilingKey;
    t_core.allCoreSets = {};
    t_core.allCoreTaken = {};
    t_core.hazards.Reset();
    t_core.globalWrites.clear();
    t_core.globalWriters.clear();
}

// For launchers, after a block: SetFlag calls no WaitFlag consumed, as "HardEvent id: count"
// lines (empty when all pair up). On the NPU they leave flags set for the next kernel.
inline std::string UnpairedFlags() {
    std::string report;
    for (size_t event = 0; event < kHardEventCount; ++event) {
        for (uint32_t id = 0; id < kEventIdsPerEvent; ++id) {
            if (uint32_t n = t_core.flags[event][id]; n != 0) {
                report += HardEventName(static_cast<AscendC::HardEvent>(event)) + " id " +
                          std::to_string(id) + ": " + std::to_string(n) +
                          " SetFlag without WaitFlag\n";
            }
        }
    }
    return report;
}

// What a check says of an operand whose queue buffer was freed.
inline std::string FreedTensor(const std::string& role) {
    return role +
           " was freed (FreeTensor): its buffer may already hold another tensor on the NPU; use "
           "a tensor from a later AllocTensor or DeQue";
}

// The trap every check uses: "<api>: <problem>".
[[noreturn]] inline void Trap(const char* api, const std::string& problem) {
    KernelTrap(std::string(api) + ": " + problem);
}

// A failed answer of the runtime's waits between blocks (openacl/kernel_binary.h: SyncAll's
// barrier, IBWait's flags, CrossCoreSetFlag mode 0's rounds). `neverEnds` says what a launch
// with more blocks than cores could not do (1), `noneLeft` why no block can end the wait (2);
// `other` is the message of any further answer.
[[noreturn]] inline void FailInterBlockWait(const char* api, int result, const char* neverEnds,
                                            const std::string& noneLeft,
                                            const std::string& other = "") {
    switch (result) {
        case 1:
            Trap(api, "the launch has more blocks (" + std::to_string(GetBlockNum()) +
                          ") than the chip has cores, so not all of them run at once and " +
                          neverEnds +
                          " (the chip would hang): launch at most as many blocks as the chip "
                          "has cores");
        case 2:
            Trap(api, noneLeft);
        case 3:
            Trap(api,
                 "another block of the launch failed, or the launch's timeout passed, while "
                 "this block waited");
        default:
            Trap(api, other.empty() ? "the runtime answered " + std::to_string(result) : other);
    }
}

// How an instruction uses an operand: the pipe that runs it and whether it writes.
struct OperandUse {
    Pipe pipe;
    bool write;
    bool tracked = true;  // false: a pipe this check does not model
};
inline constexpr OperandUse kVectorRead{Pipe::V, false};
inline constexpr OperandUse kVectorWrite{Pipe::V, true};
inline constexpr OperandUse kCopyIn{Pipe::MTE2, true};     // GM -> local memory
inline constexpr OperandUse kCopyOut{Pipe::MTE3, false};   // local memory -> GM
inline constexpr OperandUse kGlobalIn{Pipe::MTE2, false};  // the GM side of those copies
inline constexpr OperandUse kGlobalOut{Pipe::MTE3, true};

// Checks the access against what the core's other pipes did and keeps it (kernel_pipe_hazard.h).
__aicore__ inline void TrackAccess(const char* api, const char* role, OperandUse use,
                                   const void* begin, uint64_t bytes) {
    if (!use.tracked) return;
    std::string problem = t_core.hazards.Access(api, role, use.pipe, use.write, begin, bytes);
    if (!problem.empty()) Trap(api, problem);
}

// Keeps a write of global memory outside atomics for the comparison between blocks; one pipe's
// adjoining writes are one range (a block's tiles of its part of the output).
__aicore__ inline void RecordGlobalWrite(const char* api, const void* begin, uint64_t bytes) {
    constexpr size_t kMaxRanges = 1 << 16;  // beyond: the rest is not compared
    if (t_core.atomicMode != AtomicMode::NONE || bytes == 0) return;
    const auto b = reinterpret_cast<uintptr_t>(begin);
    std::vector<uint64_t>& ranges = t_core.globalWrites;
    if (!ranges.empty() && ranges.back() == b && t_core.globalWriters.back() == api) {
        ranges.back() = b + bytes;
        return;
    }
    if (t_core.globalWriters.size() >= kMaxRanges) return;
    ranges.push_back(b);
    ranges.push_back(b + bytes);
    t_core.globalWriters.push_back(api);
}

// The GM side of a copy of `count` blocks of `bytes` with `gap` bytes between them. Checked
// against the other pipes when the blocks are contiguous (with gaps, the bytes in between may be
// another pipe's, so nothing is kept: a check given up, not invented); a write is also kept,
// block by block, for the comparison between blocks.
__aicore__ inline void TrackGlobalBlocks(const char* api, const char* role, OperandUse use,
                                         const void* begin, uint64_t count, uint64_t bytes,
                                         uint64_t gap) {
    if (gap == 0) TrackAccess(api, role, use, begin, count * bytes);
    if (!use.write) return;
    const auto* first = static_cast<const std::byte*>(begin);
    for (uint64_t i = 0; i < count; ++i)
        RecordGlobalWrite(api, first + i * (bytes + gap), bytes);
}

}  // namespace openacl::ascendc

// The runtime's side (openacl/kernel_binary.h); absent when the kernel runs without it.
extern "C" __attribute__((weak)) int openaclKernelBlockWrites(const uint64_t* ranges,
                                                              const char* const* apis,
                                                              uint32_t count);

namespace openacl::ascendc {

// For launchers, after a block that finished: hands its global-memory writes to the runtime.
inline void EndBlock() {
    if (openaclKernelBlockWrites != nullptr && !t_core.globalWriters.empty()) {
        openaclKernelBlockWrites(t_core.globalWrites.data(), t_core.globalWriters.data(),
                                 static_cast<uint32_t>(t_core.globalWriters.size()));
    }
}

}  // namespace openacl::ascendc

#endif  // OPENACL_ASCENDC_KERNEL_CORE_STATE_H_
