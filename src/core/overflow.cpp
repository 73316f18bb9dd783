#include "core/overflow.h"

#include <array>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <mutex>
#include <vector>

#include "backend/cpu/task.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/log.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/soc.h"
#include "core/stream.h"

namespace openacl::overflow {

namespace {

constexpr int kWatchedExceptions = FE_OVERFLOW | FE_DIVBYZERO | FE_INVALID;

// What the runtime saw per device (status bits). Device ids stay below 64 (openacl.device_count).
constexpr size_t kMaxDevices = 64;
std::array<std::atomic<uint32_t>, kMaxDevices> g_device_flags{};

std::atomic<uint32_t>* DeviceFlags(const Device* device) {
    const int32_t id = device->id();
    return id >= 0 && static_cast<size_t>(id) < kMaxDevices ? &g_device_flags[id] : nullptr;
}

// CANN: on Atlas A2/A3 (arch 2201) and the 950 (3510) the status is the process's.
bool ProcessWide() {
    const int32_t arch = CurrentSoc().npu_arch;
    return arch == 2201 || arch == 3510;
}

// A context's overflow word. The context pointer is compared, never followed, until its serial
// proves it is the live context it was made for: a destroyed context's address may be reused.
struct Word {
    const Context* ctx;
    uint64_t serial;
    const Device* device;
    uint32_t* word;  // kStatusBytes of device memory
};
std::mutex g_words_mutex;  // after the lifecycle mutex when both are held
std::vector<Word>& Words() {
    static auto* words = new std::vector<Word>;
    return *words;
}

// The word of a live context, or nullptr (g_words_mutex held).
uint32_t* WordOfLocked(const Context* ctx) {
    for (const Word& w : Words()) {
        if (w.ctx == ctx && w.serial == ctx->serial()) return w.word;
    }
    return nullptr;
}

// Calls fn(word) for the words of live contexts the status of `device` covers (every device's
// when process_wide). Lifecycle mutex and g_words_mutex held.
template <typename Fn>
void ForWordsInScopeLocked(const Device* device, bool process_wide, Fn fn) {
    for (const Word& w : Words()) {
        if (!process_wide && w.device != device) continue;
        const Context* live = LookupContextLocked(w.ctx);
        if (live == nullptr || live->serial() != w.serial) continue;
        fn(std::atomic_ref<uint32_t>(*w.word));
    }
}

// aclFinalize: the words go before the devices do (their contexts are still alive here).
void ReleaseWords() {
    std::vector<void*> owned;
    {
        std::lock_guard lifecycle(Runtime::Get().lifecycle_mutex());
        std::lock_guard lock(g_words_mutex);
        for (const Word& w : Words()) {
            const Context* live = LookupContextLocked(w.ctx);
            if (live != nullptr && live->serial() == w.serial) owned.push_back(w.word);
        }
        Words().clear();
    }
    for (void* word : owned)
        DeviceFree(word, false);
    for (auto& flags : g_device_flags)
        flags.store(0, std::memory_order_relaxed);
}

void HookFinalize() {
    static const bool hooked = (Runtime::Get().AddReleaseHook(ReleaseWords), true);
    (void)hooked;
}

bool IsNonFinite16(uint16_t bits, uint16_t exponent_mask, uint32_t* flags) {
    if ((bits & exponent_mask) != exponent_mask) return false;
    *flags |= (bits & static_cast<uint16_t>(~exponent_mask & 0x7FFF)) != 0 ? kInvalid : kOverflow;
    return true;
}

template <typename T>
uint32_t ScanFloats(const T* values, uint64_t count, int64_t stride) {
    uint32_t flags = 0;
    for (uint64_t i = 0; i < count && flags != (kOverflow | kInvalid); ++i) {
        const T v = values[static_cast<int64_t>(i) * stride];
        if (std::isnan(v)) {
            flags |= kInvalid;
        } else if (std::isinf(v)) {
            flags |= kOverflow;
        }
    }
    return flags;
}

// half: exponent bits 0x7C00; bfloat16: 0x7F80. All ones: infinity (no mantissa) or NaN.
uint32_t Scan16(const uint16_t* values, uint64_t count, int64_t stride, uint16_t exponent_mask) {
    uint32_t flags = 0;
    for (uint64_t i = 0; i < count && flags != (kOverflow | kInvalid); ++i)
        IsNonFinite16(values[static_cast<int64_t>(i) * stride], exponent_mask, &flags);
    return flags;
}

}  // namespace

bool Watched(Stream& stream) {
    return std::atomic_ref<uint32_t>(stream.overflow_switch).load(std::memory_order_relaxed) != 0;
}

uint32_t RaisedFlags() {
    const int raised = std::fetestexcept(kWatchedExceptions);
    uint32_t flags = 0;
    if (raised & (FE_OVERFLOW | FE_DIVBYZERO)) flags |= kOverflow;
    if (raised & FE_INVALID) flags |= kInvalid;
    return flags;
}

void ClearFlags() {
    std::feclearexcept(kWatchedExceptions);
}

uint32_t ScanNonFinite(const void* data, aclDataType type, uint64_t count, int64_t stride) {
    if (data == nullptr || count == 0) return 0;
    switch (type) {
        case ACL_FLOAT:
            return ScanFloats(static_cast<const float*>(data), count, stride);
        case ACL_DOUBLE:
            return ScanFloats(static_cast<const double*>(data), count, stride);
        case ACL_FLOAT16:
            return Scan16(static_cast<const uint16_t*>(data), count, stride, 0x7C00);
        case ACL_BF16:
            return Scan16(static_cast<const uint16_t*>(data), count, stride, 0x7F80);
        default:
            return 0;
    }
}

uint32_t ScanMatrix(const void* data, aclDataType type, int64_t rows, int64_t cols,
                    int64_t row_stride, int64_t col_stride) {
    // Only the float types can overflow (core does not call the API's aclDataTypeSize).
    const size_t element = type == ACL_DOUBLE                        ? 8
                           : type == ACL_FLOAT                       ? 4
                           : type == ACL_FLOAT16 || type == ACL_BF16 ? 2
                                                                     : 0;
    if (data == nullptr || rows <= 0 || cols <= 0 || element == 0) return 0;
    uint32_t flags = 0;
    for (int64_t r = 0; r < rows; ++r) {
        const void* row = static_cast<const unsigned char*>(data) + r * row_stride * element;
        flags |= ScanNonFinite(row, type, static_cast<uint64_t>(cols), col_stride);
    }
    return flags;
}

void Note(Stream* stream, uint32_t flags) {
    if (flags == 0) return;
    const Context* ctx = stream->context();
    if (std::atomic<uint32_t>* device = DeviceFlags(ctx->device())) {
        device->fetch_or(flags, std::memory_order_relaxed);
    }
    std::lock_guard lock(g_words_mutex);
    if (uint32_t* word = WordOfLocked(ctx)) {
        std::atomic_ref<uint32_t>(*word).fetch_or(flags, std::memory_order_relaxed);
    }
}

aclError EnqueueGetStatus(void* out, uint64_t size, Stream* stream, const char* api) {
    if (out == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "outputAddr is null");
    if (size < kStatusBytes) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "outputSize is %llu, but the overflow status is %llu bytes of device memory",
                    static_cast<unsigned long long>(size),
                    static_cast<unsigned long long>(kStatusBytes));
    }
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s is not supported on the %s backend: overflow detection watches the CPU "
                    "backend's tasks only",
                    api, stream->context()->device()->accelerator()->name());
    }
    if (const char* problem = LiveDeviceRangeProblem(out, kStatusBytes)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "outputAddr %p %s: the status is written into %llu bytes of device memory "
                    "(aclrtMalloc)",
                    out, problem, static_cast<unsigned long long>(kStatusBytes));
    }
    HookFinalize();
    struct Query {
        Stream* stream;
        void* out;
        bool process_wide;
    };
    const Query query{stream, out, ProcessWide()};
    stream->Submit(cpu::MakeTask([query]() {
        if (LiveDeviceRangeProblem(query.out, kStatusBytes) != nullptr) {
            query.stream->NoteFailure(
                "the overflow status could not be written: the memory at %p was freed before "
                "the query ran",
                query.out);
            return cpu::TaskStatus::Failed(ACL_ERROR_RT_COPY_DATA);
        }
        const Device* device = query.stream->context()->device();
        uint32_t flags = 0;
        if (query.process_wide) {
            for (const auto& seen : g_device_flags)
                flags |= seen.load(std::memory_order_relaxed);
        } else if (const std::atomic<uint32_t>* seen = DeviceFlags(device)) {
            flags = seen->load(std::memory_order_relaxed);
        }
        {
            std::lock_guard lifecycle(Runtime::Get().lifecycle_mutex());
            std::lock_guard lock(g_words_mutex);
            ForWordsInScopeLocked(device, query.process_wide,
                                  [&flags](std::atomic_ref<uint32_t> w) {
                                      flags |= w.load(std::memory_order_relaxed);
                                  });
        }
        unsigned char status[kStatusBytes] = {};
        std::memcpy(status, &flags, sizeof flags);
        std::memcpy(query.out, status, sizeof status);
        return cpu::TaskStatus::Done();
    }));
    return ACL_SUCCESS;
}

aclError EnqueueResetStatus(Stream* stream) {
    if (stream->lane() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s is not supported on the %s backend: overflow detection watches the CPU "
                    "backend's tasks only",
                    CurrentApi(), stream->context()->device()->accelerator()->name());
    }
    struct Reset {
        Stream* stream;
        bool process_wide;
    };
    const Reset reset{stream, ProcessWide()};
    stream->Submit(cpu::MakeTask([reset]() {
        const Device* device = reset.stream->context()->device();
        if (reset.process_wide) {
            for (auto& seen : g_device_flags)
                seen.store(0, std::memory_order_relaxed);
        } else if (std::atomic<uint32_t>* seen = DeviceFlags(device)) {
            seen->store(0, std::memory_order_relaxed);
        }
        std::lock_guard lifecycle(Runtime::Get().lifecycle_mutex());
        std::lock_guard lock(g_words_mutex);
        ForWordsInScopeLocked(device, reset.process_wide, [](std::atomic_ref<uint32_t> w) {
            w.store(0, std::memory_order_relaxed);
        });
        return cpu::TaskStatus::Done();
    }));
    return ACL_SUCCESS;
}

aclError ContextOverflowAddress(Context* ctx, void** out) {
    if (const backend::Accelerator* accelerator = ctx->device()->accelerator()) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "the context's overflow address is not supported on the %s backend: "
                    "overflow detection watches the CPU backend's tasks only",
                    accelerator->name());
    }
    HookFinalize();
    {
        std::lock_guard lock(g_words_mutex);
        if (uint32_t* word = WordOfLocked(ctx)) {
            *out = word;
            return ACL_SUCCESS;
        }
    }
    // Allocated outside the lock: nothing is locked while g_words_mutex is held.
    void* word = nullptr;
    if (aclError rc = DeviceMalloc(&word, kStatusBytes, ACL_MEM_MALLOC_HUGE_FIRST,
                                   DeviceAllocKind::kMalloc, __builtin_return_address(0))) {
        return rc;
    }
    std::memset(word, 0, kStatusBytes);
    void* spare = nullptr;
    {
        std::lock_guard lock(g_words_mutex);
        if (uint32_t* other = WordOfLocked(ctx)) {  // another thread made one meanwhile
            spare = word;
            word = other;
        } else {
            // Entries of a destroyed context that had this address go (their memory went with
            // the context's device, or goes with it at its reset).
            std::erase_if(Words(), [ctx](const Word& w) { return w.ctx == ctx; });
            Words().push_back({ctx, ctx->serial(), ctx->device(), static_cast<uint32_t*>(word)});
        }
    }
    if (spare != nullptr) DeviceFree(spare, false);
    *out = word;
    return ACL_SUCCESS;
}

}  // namespace openacl::overflow
