#include "core/device_limits.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/runtime.h"
#include "core/soc.h"
#include "core/stream.h"

namespace openacl {

ChipLine CurrentChipLine() {
    const std::string& soc = Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0) {
        return ChipLine::kAtlasA2A3;
    }
    if (soc.rfind("Ascend950", 0) == 0) return ChipLine::kAscend950;
    if (soc.rfind("Ascend310P", 0) == 0) return ChipLine::kAtlas310P;
    return ChipLine::kOther;
}

namespace {

constexpr size_t kKiB = 1024;
constexpr size_t kMiB = 1024 * kKiB;
constexpr size_t kSimtThreadsPerWarp = 32;  // a SIMT stack value is per thread, 32 to a warp

size_t RoundUp(size_t value, size_t to) {
    return (value + to - 1) / to * to;
}

// The documented defaults (CANN's aclrtDeviceLimit reference).
struct Limits {
    size_t simt_stack = 1152;  // per thread, before the x32
    size_t simt_dvg_warp_stack = 1024;
    size_t simd_stack = 32 * kKiB;
    size_t simd_printf_fifo_per_core = 32 * kKiB;
    size_t simt_printf_fifo = 2 * kMiB;
};

const char* LimitName(aclrtDeviceLimit limit) {
    switch (limit) {
        case ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE:
            return "ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE";
        case ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE:
            return "ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE";
        case ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE:
            return "ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE";
        case ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE:
            return "ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE";
        case ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE:
            return "ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE";
    }
    return nullptr;
}

bool IsSimt(aclrtDeviceLimit limit) {
    return limit == ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE ||
           limit == ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE ||
           limit == ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE;
}

// Checks that the chip has the limit: the SIMT ones exist on the Ascend 950 only, and the
// Atlas A2/A3 and the 950 are the products CANN documents the functions for.
aclError CheckLimitOnChip(aclrtDeviceLimit limit) {
    const char* name = LimitName(limit);
    if (name == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "limit %d is not an aclrtDeviceLimit",
                    static_cast<int>(limit));
    }
    const ChipLine line = CurrentChipLine();
    if (line != ChipLine::kAtlasA2A3 && line != ChipLine::kAscend950) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "device limits are not available on %s (CANN documents them for Atlas A2/A3 "
                    "and the Ascend 950)",
                    Runtime::Get().config().soc_name.c_str());
    }
    if (line == ChipLine::kAtlasA2A3 && IsSimt(limit)) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s is a SIMT limit, which %s (Atlas A2/A3) does not have: only the SIMD "
                    "limits apply to it",
                    name, Runtime::Get().config().soc_name.c_str());
    }
    return ACL_SUCCESS;
}

std::mutex g_mutex;
Limits g_limits;                                                           // g_mutex
std::map<int32_t, std::map<aclrtDevResLimitType, uint32_t>> g_device_res;  // g_mutex
struct StreamRes {
    int32_t device = 0;
    std::map<aclrtDevResLimitType, uint32_t> values;
};
std::map<int32_t, StreamRes> g_stream_res;      // g_mutex; by stream id
std::set<const aclrtGroupInfo*> g_group_infos;  // g_mutex; live aclrtCreateGroupInfo results

constexpr int32_t kNoStream = -1;
thread_local int32_t t_stream_res = kNoStream;  // aclrtUseStreamResInCurrentThread

uint32_t DeviceResLimitLocked(int32_t device, aclrtDevResLimitType type) {
    auto it = g_device_res.find(device);
    if (it != g_device_res.end()) {
        auto value = it->second.find(type);
        if (value != it->second.end()) return value->second;
    }
    return HardwareCores(type);
}

}  // namespace

aclError SetDeviceLimit(aclrtDeviceLimit limit, size_t value) {
    if (aclError rc = CheckLimitOnChip(limit); rc != ACL_SUCCESS) return rc;
    // CANN applies the values through device 0, so a process that cannot see it cannot set them.
    const std::vector<uint32_t>& visible = Runtime::Get().config().visible_devices;
    if (!visible.empty() && std::find(visible.begin(), visible.end(), 0u) == visible.end()) {
        return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                    "device limits are set through device 0, which ASCEND_RT_VISIBLE_DEVICES "
                    "leaves out: include device 0");
    }
    const bool a2a3 = CurrentChipLine() == ChipLine::kAtlasA2A3;
    std::lock_guard lock(g_mutex);
    switch (limit) {
        case ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE:
        case ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE: {
            const size_t most = std::numeric_limits<size_t>::max() / kSimtThreadsPerWarp - 127;
            if (value > most) {
                return Fail(ACL_ERROR_RT_PARAM_INVALID, "%s %zu bytes is more than any device has",
                            LimitName(limit), value);
            }
            const bool stack = limit == ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE;
            const size_t other = stack ? g_limits.simt_dvg_warp_stack : g_limits.simt_stack;
            if (value == 0 && other == 0) {
                return Fail(ACL_ERROR_RT_PARAM_INVALID,
                            "ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE and "
                            "ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE cannot both be 0");
            }
            (stack ? g_limits.simt_stack : g_limits.simt_dvg_warp_stack) = RoundUp(value, 128);
            return ACL_SUCCESS;
        }
        case ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE: {
            // CANN reports an oversized stack at the next aclrtSetDevice; here at once, where
            // the call that caused it is still on the stack.
            const size_t most = a2a3 ? 192 * kKiB : 128 * kKiB;
            if (value > most) {
                return Fail(ACL_ERROR_RT_PARAM_INVALID,
                            "ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE %zu bytes is above the %zu KB this "
                            "chip allows per core",
                            value, most / kKiB);
            }
            // Up to 32 KB the default stays; above, the size is rounded up to 16 KB.
            g_limits.simd_stack = value <= 32 * kKiB ? 32 * kKiB : RoundUp(value, 16 * kKiB);
            return ACL_SUCCESS;
        }
        case ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE:
        case ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE: {
            const bool simd = limit == ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE;
            const size_t least = simd ? kKiB : kMiB;
            if (value < least || value > 64 * kMiB) {
                return Fail(ACL_ERROR_RT_PARAM_INVALID,
                            "%s %zu bytes is outside [%zu, %zu]: the FIFO takes 1 %s to 64 MB",
                            LimitName(limit), value, least, 64 * kMiB, simd ? "KB" : "MB");
            }
            (simd ? g_limits.simd_printf_fifo_per_core : g_limits.simt_printf_fifo) =
                RoundUp(value, 8);
            return ACL_SUCCESS;
        }
    }
    return ACL_ERROR_INVALID_PARAM;  // CheckLimitOnChip refused it already
}

aclError GetDeviceLimit(aclrtDeviceLimit limit, size_t* value) {
    if (aclError rc = CheckLimitOnChip(limit); rc != ACL_SUCCESS) return rc;
    std::lock_guard lock(g_mutex);
    switch (limit) {
        case ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE:
            // The query answers a warp's worth: the per-thread size times 32.
            *value = g_limits.simt_stack * kSimtThreadsPerWarp;
            break;
        case ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE:
            *value = g_limits.simt_dvg_warp_stack;
            break;
        case ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE:
            *value = g_limits.simd_stack;
            break;
        case ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE:
            *value = g_limits.simd_printf_fifo_per_core;
            break;
        case ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE:
            *value = g_limits.simt_printf_fifo;
            break;
    }
    return ACL_SUCCESS;
}

// ---- Core resource limits ----------------------------------------------------------------

uint32_t HardwareCores(aclrtDevResLimitType type) {
    const SocSpec soc = CurrentSoc();
    return static_cast<uint32_t>(type == ACL_RT_DEV_RES_CUBE_CORE ? soc.cube_cores
                                                                  : soc.vector_cores);
}

aclError CheckResLimitType(aclrtDevResLimitType type) {
    if (type != ACL_RT_DEV_RES_CUBE_CORE && type != ACL_RT_DEV_RES_VECTOR_CORE) {
        return Fail(ACL_ERROR_INVALID_PARAM, "type %d is not an aclrtDevResLimitType",
                    static_cast<int>(type));
    }
    return ACL_SUCCESS;
}

aclError CheckResLimitValue(aclrtDevResLimitType type, uint32_t value) {
    const uint32_t cores = HardwareCores(type);
    if (value == 0 || value > cores) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID, "%u %s cores is outside [1, %u], what %s has",
                    value, type == ACL_RT_DEV_RES_CUBE_CORE ? "cube" : "vector", cores,
                    Runtime::Get().config().soc_name.c_str());
    }
    return ACL_SUCCESS;
}

void SetDeviceResLimit(int32_t device, aclrtDevResLimitType type, uint32_t value) {
    std::lock_guard lock(g_mutex);
    g_device_res[device][type] = value;
}

uint32_t DeviceResLimit(int32_t device, aclrtDevResLimitType type) {
    std::lock_guard lock(g_mutex);
    return DeviceResLimitLocked(device, type);
}

void ResetDeviceResLimit(int32_t device) {
    std::lock_guard lock(g_mutex);
    g_device_res.erase(device);
}

void SetStreamResLimit(int32_t stream, int32_t device, aclrtDevResLimitType type, uint32_t value) {
    std::lock_guard lock(g_mutex);
    StreamRes& res = g_stream_res[stream];
    res.device = device;
    res.values[type] = value;
}

uint32_t StreamResLimit(int32_t stream, int32_t device, aclrtDevResLimitType type) {
    std::lock_guard lock(g_mutex);
    auto it = g_stream_res.find(stream);
    if (it != g_stream_res.end()) {
        auto value = it->second.values.find(type);
        if (value != it->second.values.end()) return value->second;
    }
    return DeviceResLimitLocked(device, type);
}

void ResetStreamResLimit(int32_t stream) {
    std::lock_guard lock(g_mutex);
    g_stream_res.erase(stream);
}

bool StreamHasResLimit(int32_t stream) {
    std::lock_guard lock(g_mutex);
    return g_stream_res.count(stream) != 0;
}

void UseStreamResInThread(int32_t stream) {
    t_stream_res = stream;
}

bool UnuseStreamResInThread(int32_t stream) {
    if (t_stream_res != stream) return false;
    t_stream_res = kNoStream;
    return true;
}

uint32_t ResInCurrentThread(int32_t device, aclrtDevResLimitType type) {
    std::lock_guard lock(g_mutex);
    if (t_stream_res != kNoStream) {
        auto it = g_stream_res.find(t_stream_res);
        if (it != g_stream_res.end() && it->second.device == device) {
            auto value = it->second.values.find(type);
            if (value != it->second.values.end()) return value->second;
        }
    }
    return DeviceResLimitLocked(device, type);
}

// ---- Atomic operations --------------------------------------------------------------------

namespace {

// The widths whose atomics are lock-free on this CPU, which is what makes them atomic between
// the host's own threads and the device's workers alike (a lock inside libatomic would not be
// shared with code that takes no lock). 128-bit words and 4 x 32-bit vectors are not lock-free
// in the C++ sense on the compilers openacl supports, so they are not claimed.
uint32_t LockFreeWidths() {
    uint32_t bits = 0;
    if (std::atomic_ref<uint8_t>::is_always_lock_free) bits |= ACL_RT_ATOMIC_CAPABILITY_SCALAR8;
    if (std::atomic_ref<uint16_t>::is_always_lock_free) bits |= ACL_RT_ATOMIC_CAPABILITY_SCALAR16;
    if (std::atomic_ref<uint32_t>::is_always_lock_free) bits |= ACL_RT_ATOMIC_CAPABILITY_SCALAR32;
    if (std::atomic_ref<uint64_t>::is_always_lock_free) bits |= ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
    if (std::atomic_ref<unsigned __int128>::is_always_lock_free) {
        bits |= ACL_RT_ATOMIC_CAPABILITY_SCALAR128 | ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4;
    }
    return bits;
}

}  // namespace

aclError AtomicCapabilities(aclrtAtomicOperation operation, uint32_t index, uint32_t* bits) {
    constexpr uint32_t kIntegers =
        ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_UNSIGNED;
    const uint32_t widths = LockFreeWidths();
    // Floats are read-modify-written with a compare-and-swap on their 16-, 32- or 64-bit word
    // (half, float, double), as openacl's Ascend C DataCopy under SetAtomicAdd does.
    const uint32_t float_widths =
        widths & (ACL_RT_ATOMIC_CAPABILITY_SCALAR16 | ACL_RT_ATOMIC_CAPABILITY_SCALAR32 |
                  ACL_RT_ATOMIC_CAPABILITY_SCALAR64);
    switch (operation) {
        // Reductions: the result is combined into memory, nothing is returned.
        case ACL_RT_ATOMIC_OPERATION_INTEGER_ADD:
        case ACL_RT_ATOMIC_OPERATION_INTEGER_MIN:
        case ACL_RT_ATOMIC_OPERATION_INTEGER_MAX:
        case ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT:
        case ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT:
        case ACL_RT_ATOMIC_OPERATION_AND:
        case ACL_RT_ATOMIC_OPERATION_OR:
        case ACL_RT_ATOMIC_OPERATION_XOR:
        // The copy engine's accumulating writes are DataCopy under SetAtomicAdd/Max/Min.
        case ACL_RT_ATOMIC_OPERATION_DMA_ADD:
        case ACL_RT_ATOMIC_OPERATION_DMA_MIN:
        case ACL_RT_ATOMIC_OPERATION_DMA_MAX:
        case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD:
        case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN:
        case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX:
            *bits = kIntegers | ACL_RT_ATOMIC_CAPABILITY_REDUCTION | widths;
            return ACL_SUCCESS;
        // Exchanges return the old value, so they are no reductions.
        case ACL_RT_ATOMIC_OPERATION_EXCHANGE:
        case ACL_RT_ATOMIC_OPERATION_CAS:
        case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS:
        case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH:
            *bits = kIntegers | widths;
            return ACL_SUCCESS;
        case ACL_RT_ATOMIC_OPERATION_FLOAT_ADD:
        case ACL_RT_ATOMIC_OPERATION_FLOAT_MIN:
        case ACL_RT_ATOMIC_OPERATION_FLOAT_MAX:
            *bits = ACL_RT_ATOMIC_CAPABILITY_REDUCTION | float_widths;
            return ACL_SUCCESS;
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "operations[%u] = %d is not an aclrtAtomicOperation",
                index, static_cast<int>(operation));
}

// ---- Compute groups -----------------------------------------------------------------------

aclError RequireGroups() {
    if (CurrentChipLine() == ChipLine::kAtlas310P) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "compute groups are not available on %s (CANN documents them for the Atlas "
                "inference series, Ascend310P, only)",
                Runtime::Get().config().soc_name.c_str());
}

aclrtGroupInfo* CreateGroupInfo() {
    auto* info = new aclrtGroupInfo[kGroupCount];
    std::lock_guard lock(g_mutex);
    g_group_infos.insert(info);
    return info;
}

bool DestroyGroupInfo(aclrtGroupInfo* info) {
    {
        std::lock_guard lock(g_mutex);
        if (g_group_infos.erase(info) == 0) return false;
    }
    delete[] info;
    return true;
}

bool IsLiveGroupInfo(const aclrtGroupInfo* info) {
    std::lock_guard lock(g_mutex);
    return g_group_infos.count(info) != 0;
}

void FillGroupInfo(aclrtGroupInfo* info) {
    const SocSpec soc = CurrentSoc();
    aclrtGroupInfo& group = info[0];
    group.filled = true;
    group.group_id = 0;
    group.ai_cores = static_cast<int32_t>(soc.ai_cores);
    group.vector_cores = static_cast<int32_t>(soc.vector_cores);
    group.cube_cores = static_cast<int32_t>(soc.cube_cores);
    // Copies run in stream order on the device's workers: one engine, serving every stream
    // the device may hold.
    group.sdma_engines = 1;
    group.async_queues = static_cast<int32_t>(kMaxStreamsPerDevice);
}

}  // namespace openacl
