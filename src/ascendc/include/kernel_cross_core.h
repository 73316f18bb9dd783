// Mix kernels and the synchronisation between their cores. On the separated architectures
// (Atlas A2/A3) a mix kernel's block is a group of one cube core (AIC) and one or two vector
// cores (AIV) running at once: 1:2 for KERNEL_TYPE_MIX_AIC_1_2 / __mix__(1, 2), 1:1 for
// KERNEL_TYPE_MIX_AIC_1_1 / __mix__(1, 1). The AIC's GetBlockIdx() is the block's index; an
// AIV's is block * ratio + GetSubBlockIdx(), and GetTaskRation() is the ratio there;
// GetBlockNum() is the number of blocks launched on both.
//
// CrossCoreSetFlag<mode, pipe>(id) / CrossCoreWaitFlag(id): each core has a counter per flag id;
// a wait blocks until its core's counter is above 0, then takes one. Mode 2 (AIC <-> AIV): the
// AIC's set adds one to each AIV's counter, and once every AIV has set, the AIC's counter gets
// one. Mode 1 (the AIVs of a group): once every AIV has set, each AIV's counter gets one. Mode 0
// (every core of the launch, in a kernel whose blocks are one core each, such as the
// KERNEL_TYPE_MIX_AIV_1_0 ones CANN asks for): once every block has set, each core's counter
// gets one; it is the runtime's (openaclKernelAllCoresSet / Wait, openacl/kernel_binary.h),
// whose launch state spans the blocks; in a mix kernel it is not provided. A wait that no core is
// left to answer (all the cores it depends on waiting, or finished) traps instead of hanging as
// the chip would.
#ifndef OPENACL_ASCENDC_KERNEL_CROSS_CORE_H_
#define OPENACL_ASCENDC_KERNEL_CROSS_CORE_H_

#include <array>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "kernel_core_state.h"
#include "kernel_type.h"

// Weak: kernels built into programs without libascendcl (unit tests) still link.
extern "C" __attribute__((weak)) int openaclKernelAllCoresSet(uint32_t id);
extern "C" __attribute__((weak)) int openaclKernelAllCoresWait(uint32_t id, uint64_t taken);

namespace openacl::ascendc {

constexpr uint32_t kCrossCoreFlags = 16;     // flag ids 0 .. 15
constexpr uint32_t kCrossCoreMaxCount = 15;  // sets a counter holds before a wait takes one

struct MixGroup {
    explicit MixGroup(uint32_t ratio) : ratio(ratio), running(1 + ratio) {}

    std::mutex mutex;
    std::condition_variable changed;
    const uint32_t ratio;  // AIVs per AIC: 1 or 2
    uint32_t running;      // cores of the group still inside the kernel
    uint32_t waiting = 0;  // of them, blocked in CrossCoreWaitFlag
    bool failed = false;   // a core trapped: the others stop waiting
    std::array<std::array<uint32_t, kCrossCoreFlags>, 3> counters{};  // per slot, per id
    std::array<uint32_t, kCrossCoreFlags> aivSetsToAic{};  // mode 2 sets of the AIVs so far
    std::array<uint32_t, kCrossCoreFlags> aivSetsToAiv{};  // mode 1 sets of the AIVs so far

    void Add(uint32_t slot, uint16_t id) {
        if (++counters[slot][id] > kCrossCoreMaxCount) {
            failed = true;
            changed.notify_all();
            Trap("CrossCoreSetFlag",
                 "flag " + std::to_string(id) + " was set " +
                     std::to_string(kCrossCoreMaxCount + 1) +
                     " times with no CrossCoreWaitFlag taking one: a core's counter holds " +
                     std::to_string(kCrossCoreMaxCount));
        }
    }
    void Leave(bool trapped) {
        std::lock_guard lock(mutex);
        --running;
        failed = failed || trapped;
        changed.notify_all();
    }
};

inline MixGroup& CurrentGroup(const char* api) {
    if (t_core.group == nullptr) {
        Trap(api,
             "the kernel is not a mix kernel, so this core has no partner cores: declare it "
             "__mix__(1, 2) (or KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)) or 1:1");
    }
    return *t_core.group;
}

inline void CheckFlagId(const char* api, uint16_t id) {
    if (id >= kCrossCoreFlags) {
        Trap(api, "flag id " + std::to_string(id) + " is outside 0.." +
                      std::to_string(kCrossCoreFlags - 1));
    }
}

// Mode 0 outside a mix kernel: the launch-wide rounds of the runtime.
inline void CheckAllCoresRuntime(const char* api) {
    if (openaclKernelAllCoresSet == nullptr || openaclKernelAllCoresWait == nullptr) {
        Trap(api,
             "mode 0 (every core of the launch) needs openacl's runtime (libascendcl), which "
             "did not launch this kernel");
    }
}

inline void CheckAllCoresResult(const char* api, int result, uint16_t id) {
    if (result == 0) return;
    FailInterBlockWait(api, result, "a mode 0 round could never complete",
                       "flag " + std::to_string(id) +
                           " never completes a round: mode 0 waits until every block of the "
                           "launch has set it, and every block still running waits (on the "
                           "chip this waits forever)");
}

inline void AllCoresSet(const char* api, uint16_t id) {
    CheckFlagId(api, id);
    CheckAllCoresRuntime(api);
    if (t_core.allCoreSets[id] - t_core.allCoreTaken[id] >= kCrossCoreMaxCount) {
        Trap(api, "flag " + std::to_string(id) + " was set " +
                      std::to_string(kCrossCoreMaxCount + 1) +
                      " times with no CrossCoreWaitFlag taking one: a core's counter holds " +
                      std::to_string(kCrossCoreMaxCount));
    }
    CheckAllCoresResult(api, openaclKernelAllCoresSet(id), id);
    ++t_core.allCoreSets[id];
}

inline void AllCoresWait(const char* api, uint16_t id) {
    CheckFlagId(api, id);
    CheckAllCoresRuntime(api);
    CheckAllCoresResult(api, openaclKernelAllCoresWait(id, t_core.allCoreTaken[id]), id);
    ++t_core.allCoreTaken[id];
}

// What the launch stub runs for one block of a mix kernel: the AIC on the calling thread, each
// AIV on a thread of its own, all at once. Returns "" or the first failure, naming its core.
template <uint32_t Ratio, class Body>
std::string RunMixGroup(uint32_t block, uint32_t blocks, Body body) {
    static_assert(Ratio == 1 || Ratio == 2, "a mix kernel has 1 or 2 AIVs per AIC");
    const uint64_t tilingKey = t_core.tilingKey;
    MixGroup group(Ratio);
    std::array<std::string, 1 + Ratio> errors;
    auto core = [&](uint32_t slot) {
        const bool aic = slot == 0;
        // GetBlockNum() is numBlocks as launched on every core (kernels count their AIVs as
        // GetBlockNum() * GetTaskRation()).
        openacl::kernel::t_block = {aic ? block : block * Ratio + (slot - 1), blocks};
        BeginBlock(tilingKey);
        t_core.coreType = aic ? CoreType::AIC : CoreType::AIV;
        t_core.group = &group;
        t_core.groupSlot = slot;
        t_core.subBlockIdx = aic ? 0 : slot - 1;
        t_core.taskRation = aic ? 1 : Ratio;
        bool trapped = true;
        try {
            body();
            trapped = false;
        } catch (const std::exception& e) {
            errors[slot] = e.what();
        } catch (...) {
            errors[slot] = "the kernel threw an exception";
        }
        group.Leave(trapped);
        t_core.group = nullptr;
    };
    std::array<std::thread, Ratio> aivs;
    for (uint32_t i = 0; i < Ratio; ++i) {
        try {
            aivs[i] = std::thread(core, i + 1);
        } catch (const std::exception& e) {  // no thread to be had: the block cannot run
            {
                std::lock_guard lock(group.mutex);
                group.failed = true;  // AIVs already started stop waiting for the others
                group.changed.notify_all();
            }
            for (uint32_t j = 0; j < i; ++j)
                aivs[j].join();
            return "could not start AIV " + std::to_string(i) + " of the block: " + e.what();
        }
    }
    core(0);
    for (auto& aiv : aivs)
        aiv.join();
    for (uint32_t slot = 0; slot <= Ratio; ++slot) {
        if (!errors[slot].empty()) {
            return (slot == 0 ? std::string("AIC") : "AIV " + std::to_string(slot - 1)) +
                   " of the block: " + errors[slot];
        }
    }
    return "";
}

}  // namespace openacl::ascendc

namespace AscendC {

template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId) {
    constexpr const char* kApi = "CrossCoreSetFlag";
    if constexpr (modeId == 0) {
        if (openacl::ascendc::t_core.group == nullptr) {
            openacl::ascendc::AllCoresSet(kApi, flagId);
            return;
        }
    }
    auto& group = openacl::ascendc::CurrentGroup(kApi);
    openacl::ascendc::CheckFlagId(kApi, flagId);
    const bool aic = openacl::ascendc::t_core.groupSlot == 0;
    std::lock_guard lock(group.mutex);
    if constexpr (modeId == 2) {
        if (aic) {
            for (uint32_t slot = 1; slot <= group.ratio; ++slot)
                group.Add(slot, flagId);
        } else if (++group.aivSetsToAic[flagId] == group.ratio) {
            group.aivSetsToAic[flagId] = 0;
            group.Add(0, flagId);
        }
    } else if constexpr (modeId == 1) {
        if (aic) {
            openacl::ascendc::Trap(kApi,
                                   "mode 1 synchronises the AIVs of a group; the AIC "
                                   "talks to them with mode 2");
        }
        if (++group.aivSetsToAiv[flagId] == group.ratio) {
            group.aivSetsToAiv[flagId] = 0;
            for (uint32_t slot = 1; slot <= group.ratio; ++slot)
                group.Add(slot, flagId);
        }
    } else {
        openacl::ascendc::Trap(kApi, "mode " + std::to_string(modeId) +
                                         " is not provided in a mix kernel by openacl (mode "
                                         "1: the AIVs of a group, mode 2: AIC and AIVs; mode 0 "
                                         "in kernels whose blocks are one core each)");
    }
    group.changed.notify_all();
}

template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId) {
    constexpr const char* kApi = "CrossCoreWaitFlag";
    if (openacl::ascendc::t_core.group == nullptr) {  // one core per block: mode 0's rounds
        openacl::ascendc::AllCoresWait(kApi, flagId);
        return;
    }
    auto& group = openacl::ascendc::CurrentGroup(kApi);
    openacl::ascendc::CheckFlagId(kApi, flagId);
    uint32_t& counter = group.counters[openacl::ascendc::t_core.groupSlot][flagId];
    std::unique_lock lock(group.mutex);
    ++group.waiting;
    while (counter == 0) {
        if (group.failed) {
            --group.waiting;
            openacl::ascendc::Trap(kApi,
                                   "another core of the block failed while this one "
                                   "waited for flag " +
                                       std::to_string(flagId));
        }
        if (group.waiting == group.running) {  // nobody left who could set it
            group.failed = true;
            --group.waiting;
            group.changed.notify_all();
            openacl::ascendc::Trap(
                kApi, "flag " + std::to_string(flagId) +
                          " is never set: every other core of the block has finished or waits "
                          "too (on the chip this waits forever); pair each wait with a "
                          "CrossCoreSetFlag on the core it waits for");
        }
        group.changed.wait(lock);
    }
    --group.waiting;
    --counter;
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_CROSS_CORE_H_
