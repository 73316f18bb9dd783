#include "core/kernel_args.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/error.h"

namespace openacl {
namespace {

constexpr size_t kSlot = OPENACL_KERNEL_ARG_SLOT;

size_t RoundUpToSlot(size_t bytes) {
    return (bytes + kSlot - 1) / kSlot * kSlot;
}

size_t RoundUp(size_t bytes, size_t alignment) {
    return (bytes + alignment - 1) / alignment * alignment;
}

// Where the next parameter of a packed kernel goes. CANN's launch stubs align each field to
// max(4, its alignment); an appended value comes with its size only, so the alignment is read
// from the size: a multiple of 8 (pointers, 64-bit scalars, structs holding them) is aligned to
// 8, anything else to 4. (A struct of only 4-byte members whose size is a multiple of 8 is the
// one case this cannot tell apart; the size check at launch catches most such mismatches.)
size_t PackedAlignment(size_t size) {
    return size % 8 == 0 ? 8 : 4;
}

// A parameter's place in the packed argument block.
struct PackedParam {
    uint32_t offset;
    uint32_t size;
};

// A handle openacl owns (aclrtKernelArgsInit).
struct OwnedArgs {
    std::vector<uint64_t> slots;  // slot kernels
    // Packed kernels: the parameters, laid out as the kernel reads them, and where each is.
    std::vector<unsigned char> bytes;
    std::vector<PackedParam> params;
    struct Placeholder {
        size_t slot;
        std::vector<unsigned char> data;
    };
    std::vector<Placeholder> placeholders;
    bool finalized = false;
};

// A handle's state in the caller's handle memory (aclrtKernelArgsInitByUserMem), followed there
// by room for one placeholder record per kernel parameter. Plain data that openacl reads only
// while the handle is used: the caller frees the memory without telling it.
struct UserArgs {
    struct Placeholder {
        uint64_t slot;
        uint64_t offset;    // of its data in the argument memory
        uint64_t size;      // bytes asked for
        uint64_t capacity;  // bytes reserved there (0: no buffer handed out yet)
    };
    // The argument memory: the parameter area (param_count slots, or a packed kernel's block
    // rounded up to 8), then placeholder data.
    unsigned char* memory;
    uint64_t memory_size;
    uint64_t data_used;  // bytes of placeholder data handed out after the parameter area
    uint32_t param_count;
    uint32_t slot_count;  // parameters appended so far
    uint32_t placeholder_count;
    uint32_t finalized;
    uint32_t param_area;  // bytes
    uint32_t packed_end;  // packed kernels: where the last parameter appended ends
    Placeholder* placeholders() { return reinterpret_cast<Placeholder*>(this + 1); }
    // Packed kernels: one record per parameter, after the placeholder records.
    PackedParam* params() { return reinterpret_cast<PackedParam*>(placeholders() + param_count); }
};
static_assert(sizeof(UserArgs) % alignof(UserArgs::Placeholder) == 0);
static_assert(sizeof(UserArgs::Placeholder) % alignof(PackedParam) == 0);

// What openacl knows of a live handle, kept in its own memory for either kind, so that
// aclrtBinaryUnLoad drops handles without reading memory a caller may have freed.
struct ArgsEntry {
    std::unique_ptr<OwnedArgs> owned;  // aclrtKernelArgsInit
    UserArgs* user = nullptr;          // aclrtKernelArgsInitByUserMem: the caller's memory
    uint64_t function_serial = 0;
    std::string kernel_name;
    uint32_t packed_size = 0;  // a packed kernel's argument block; 0: a slot kernel
    uint32_t param_count = 0;

    bool packed() const { return packed_size != 0; }
    bool finalized() const { return owned ? owned->finalized : user->finalized != 0; }
    // Parameters appended so far.
    size_t slot_count() const {
        if (owned) return packed() ? owned->params.size() : owned->slots.size();
        return user->slot_count;
    }
    // Packed kernels: the parameter area and where parameter i lies in it.
    unsigned char* packed_bytes() const { return owned ? owned->bytes.data() : user->memory; }
    PackedParam packed_param(size_t i) const {
        return owned ? owned->params[i] : user->params()[i];
    }
    size_t packed_end() const {
        if (!owned) return user->packed_end;
        return owned->params.empty() ? 0 : owned->params.back().offset + owned->params.back().size;
    }
    // The slots, 8 bytes each, in order.
    unsigned char* slots() const {
        return owned ? reinterpret_cast<unsigned char*>(owned->slots.data()) : user->memory;
    }
    // Calls fn(slot, data, size) for every placeholder.
    template <class Fn>
    void ForEachPlaceholder(Fn fn) const {
        if (owned) {
            for (const auto& p : owned->placeholders)
                fn(p.slot, p.data.data(), p.data.size());
            return;
        }
        for (uint32_t i = 0; i < user->placeholder_count; ++i) {
            const UserArgs::Placeholder& p = user->placeholders()[i];
            fn(p.slot, user->memory + p.offset, p.capacity == 0 ? 0 : p.size);
        }
    }
};

// Every live argument handle by its value: the address of an OwnedArgs, or of a caller's
// handle memory. (HandleTable keys an object by its own address, which the entry of a
// user-memory handle does not have.) Lookups are cached per thread and trusted until any entry
// is dropped or replaced, so launching with the same handle again takes no lock.
class ArgsRegistry {
 public:
    void Put(const void* handle, std::unique_ptr<ArgsEntry> entry) {
        std::unique_ptr<ArgsEntry> replaced;
        std::unique_lock lock(mutex_);
        std::unique_ptr<ArgsEntry>& slot = entries_[handle];
        if (slot != nullptr) epoch_.fetch_add(1, std::memory_order_acq_rel);
        replaced = std::exchange(slot, std::move(entry));
    }

    ArgsEntry* Find(const void* handle) {
        if (handle == nullptr) return nullptr;
        Cache& cache = ThreadCache();
        uint64_t epoch = epoch_.load(std::memory_order_acquire);
        if (cache.epoch == epoch) {
            for (const auto& hit : cache.hits) {
                if (hit.handle == handle) return hit.entry;
            }
        } else {
            cache = Cache{};
            cache.epoch = epoch;
        }
        ArgsEntry* entry = nullptr;
        {
            std::shared_lock lock(mutex_);
            auto it = entries_.find(handle);
            if (it != entries_.end()) entry = it->second.get();
        }
        if (entry != nullptr) {
            cache.hits[cache.next] = {handle, entry};
            cache.next = (cache.next + 1) % kCacheSize;
        }
        return entry;
    }

    void DropFunctions(const std::vector<uint64_t>& serials) {
        std::vector<std::unique_ptr<ArgsEntry>> dropped;  // freed after the unlock
        std::unique_lock lock(mutex_);
        for (auto it = entries_.begin(); it != entries_.end();) {
            if (std::find(serials.begin(), serials.end(), it->second->function_serial) !=
                serials.end()) {
                dropped.push_back(std::move(it->second));
                it = entries_.erase(it);
            } else {
                ++it;
            }
        }
        if (!dropped.empty()) epoch_.fetch_add(1, std::memory_order_acq_rel);
    }

 private:
    static constexpr int kCacheSize = 4;
    struct Cache {
        uint64_t epoch = 0;
        struct Hit {
            const void* handle = nullptr;
            ArgsEntry* entry = nullptr;
        } hits[kCacheSize];
        int next = 0;
    };
    static Cache& ThreadCache() {
        thread_local Cache cache;
        return cache;
    }

    std::shared_mutex mutex_;
    std::unordered_map<const void*, std::unique_ptr<ArgsEntry>> entries_;
    std::atomic<uint64_t> epoch_{1};
};

ArgsRegistry& Registry() {
    static auto* registry = new ArgsRegistry;
    return *registry;
}

ArgsEntry* Resolve(aclrtArgsHandle handle, aclError* rc) {
    ArgsEntry* entry = Registry().Find(handle);
    if (entry == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "argsHandle %p is not a live argument handle: it comes from "
                   "aclrtKernelArgsInit or aclrtKernelArgsInitByUserMem and goes away with its "
                   "binary's aclrtBinaryUnLoad",
                   handle);
    }
    return entry;
}

// Resolves a handle that may still take parameters.
ArgsEntry* ResolveOpen(aclrtArgsHandle handle, aclError* rc) {
    ArgsEntry* entry = Resolve(handle, rc);
    if (entry != nullptr && entry->finalized()) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "argsHandle %p is already finalized", handle);
        return nullptr;
    }
    return entry;
}

// A parameter handle is its slot index + 1, so NULL is never a valid one.
aclrtParamHandle SlotHandle(size_t slot) {
    return reinterpret_cast<aclrtParamHandle>(slot + 1);
}
bool SlotOf(const ArgsEntry& entry, aclrtParamHandle handle, size_t* slot) {
    auto value = reinterpret_cast<uintptr_t>(handle);
    if (value == 0 || value > entry.slot_count()) return false;
    *slot = value - 1;
    return true;
}

uint64_t SlotValue(const void* value, size_t size) {
    uint64_t slot = 0;
    std::memcpy(&slot, value, size);
    return slot;
}

// Takes the next slot of a user-memory handle, which has one per kernel parameter.
aclError TakeUserSlot(aclrtArgsHandle handle, ArgsEntry* entry, size_t* slot) {
    UserArgs* user = entry->user;
    if (user->slot_count == user->param_count) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "argsHandle %p already holds all %u parameters of kernel %s (its argument "
                    "memory has one slot per parameter)",
                    handle, user->param_count, entry->kernel_name.c_str());
    }
    *slot = user->slot_count++;
    return ACL_SUCCESS;
}

// The bytes of a packed kernel's parameter area in a handle's memory.
size_t PackedArea(const KernelFunction& function) {
    return RoundUpToSlot(function.launch_args_size());
}

// Appends `size` bytes (value: nullptr for a placeholder's zeros) to a packed kernel's handle,
// aligned as PackedAlignment says, and gives the parameter's index.
aclError AppendPacked(aclrtArgsHandle handle, ArgsEntry* entry, const void* value, size_t size,
                      size_t* index) {
    *index = entry->slot_count();
    if (*index == entry->param_count) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "argsHandle %p already holds all %u parameters of "
                    "kernel %s",
                    handle, entry->param_count, entry->kernel_name.c_str());
    }
    const size_t offset = RoundUp(entry->packed_end(), PackedAlignment(size));
    if (offset + size > entry->packed_size) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "argsHandle %p: parameter %zu of kernel %s (%zu bytes, at offset %zu) ends "
                    "past the %u bytes of packed arguments the kernel reads: append each "
                    "parameter with the size of its type (pointers: sizeof(void*))",
                    handle, *index, entry->kernel_name.c_str(), size, offset, entry->packed_size);
    }
    const PackedParam param{static_cast<uint32_t>(offset), static_cast<uint32_t>(size)};
    unsigned char* bytes = nullptr;
    if (entry->owned) {
        entry->owned->bytes.resize(offset + size, 0);
        entry->owned->params.push_back(param);
        bytes = entry->owned->bytes.data();
    } else {
        UserArgs* user = entry->user;
        std::memset(user->memory + user->packed_end, 0, offset - user->packed_end);
        user->params()[user->slot_count++] = param;
        user->packed_end = static_cast<uint32_t>(offset + size);
        bytes = user->memory;
    }
    if (value != nullptr) {
        std::memcpy(bytes + offset, value, size);
    } else {
        std::memset(bytes + offset, 0, size);
    }
    return ACL_SUCCESS;
}

}  // namespace

size_t KernelArgsHandleMemSize(const KernelFunction& function) {
    return sizeof(UserArgs) +
           size_t{function.param_count()} * (sizeof(UserArgs::Placeholder) + sizeof(PackedParam));
}

aclError KernelArgsMemSize(const KernelFunction& function, size_t user_args_size, size_t* size) {
    // The parameter area (one slot per parameter, or the packed block), then room for the data:
    // userArgsSize counts placeholder data as well as plain values, so this is enough however
    // the caller split its parameters.
    size_t area = function.packed() ? PackedArea(function) : function.args_size();
    if (user_args_size > SIZE_MAX - kSlot - area) {
        return Fail(ACL_ERROR_INVALID_PARAM, "userArgsSize %zu is too large", user_args_size);
    }
    *size = area + RoundUpToSlot(user_args_size);
    return ACL_SUCCESS;
}

namespace {
std::unique_ptr<ArgsEntry> NewEntry(const KernelFunction& function) {
    auto entry = std::make_unique<ArgsEntry>();
    entry->function_serial = function.serial();
    entry->kernel_name = function.name();
    entry->param_count = function.param_count();
    if (function.packed()) entry->packed_size = static_cast<uint32_t>(function.launch_args_size());
    return entry;
}
}  // namespace

aclError CreateKernelArgs(KernelFunction* function, aclrtArgsHandle* out) {
    std::unique_ptr<ArgsEntry> entry = NewEntry(*function);
    entry->owned = std::make_unique<OwnedArgs>();
    *out = entry->owned.get();
    Registry().Put(*out, std::move(entry));
    return ACL_SUCCESS;
}

aclError CreateKernelArgsInUserMemory(KernelFunction* function, aclrtArgsHandle handle,
                                      void* memory, size_t size) {
    size_t handle_size = KernelArgsHandleMemSize(*function);
    // First: a library-made handle is smaller than handle memory, so the checks below would
    // misjudge it (an overlap with memory that merely lies next to it).
    if (ArgsEntry* existing = Registry().Find(handle); existing != nullptr && existing->owned) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "argsHandle %p is a handle made by aclrtKernelArgsInit, not memory of the "
                    "caller's to set a handle up in",
                    handle);
    }
    if (reinterpret_cast<uintptr_t>(handle) % alignof(UserArgs) != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "argsHandle %p is not %zu-byte aligned: allocate the %zu bytes of "
                    "aclrtKernelArgsGetHandleMemSize with malloc",
                    handle, alignof(UserArgs), handle_size);
    }
    const size_t area = function->packed() ? PackedArea(*function) : function->args_size();
    if (size < area) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "actualArgsSize %zu is less than the %zu bytes that the %u parameters of "
                    "kernel %s take: size the argument memory with aclrtKernelArgsGetMemSize",
                    size, area, function->param_count(), function->name());
    }
    auto h = reinterpret_cast<uintptr_t>(handle), m = reinterpret_cast<uintptr_t>(memory);
    if (h < m + size && m < h + handle_size) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the handle memory at %p (%zu bytes) and the argument memory at %p (%zu "
                    "bytes) overlap: they must be two separate buffers",
                    handle, handle_size, memory, size);
    }
    auto* user = new (handle) UserArgs{};
    user->memory = static_cast<unsigned char*>(memory);
    user->memory_size = size;
    user->param_count = function->param_count();
    user->param_area = static_cast<uint32_t>(area);
    std::unique_ptr<ArgsEntry> entry = NewEntry(*function);
    entry->user = user;
    Registry().Put(handle, std::move(entry));
    return ACL_SUCCESS;
}

aclError AppendKernelArg(aclrtArgsHandle handle, const void* value, size_t size,
                         aclrtParamHandle* out) {
    aclError rc = ACL_SUCCESS;
    ArgsEntry* entry = ResolveOpen(handle, &rc);
    if (entry == nullptr) return rc;
    size_t slot = 0;
    if (entry->packed()) {
        if (rc = AppendPacked(handle, entry, value, size, &slot); rc) return rc;
        *out = SlotHandle(slot);
        return ACL_SUCCESS;
    }
    if (size > kSlot) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "paramSize %zu: each parameter of kernel %s is one %zu-byte slot", size,
                    entry->kernel_name.c_str(), kSlot);
    }
    uint64_t slot_value = SlotValue(value, size);
    if (entry->owned) {
        slot = entry->owned->slots.size();
        entry->owned->slots.push_back(slot_value);
    } else {
        if (rc = TakeUserSlot(handle, entry, &slot); rc) return rc;
        std::memcpy(entry->user->memory + slot * kSlot, &slot_value, kSlot);
    }
    *out = SlotHandle(slot);
    return ACL_SUCCESS;
}

aclError AppendKernelArgPlaceholder(aclrtArgsHandle handle, aclrtParamHandle* out) {
    aclError rc = ACL_SUCCESS;
    ArgsEntry* entry = ResolveOpen(handle, &rc);
    if (entry == nullptr) return rc;
    size_t slot = 0;
    if (entry->packed()) {
        // A placeholder is the pointer the kernel gets to the data.
        if (rc = AppendPacked(handle, entry, nullptr, sizeof(void*), &slot); rc) return rc;
        if (entry->owned) {
            entry->owned->placeholders.push_back({slot, {}});
        } else {
            entry->user->placeholders()[entry->user->placeholder_count++] = {slot, 0, 0, 0};
        }
    } else if (entry->owned) {
        slot = entry->owned->slots.size();
        entry->owned->slots.push_back(0);
        entry->owned->placeholders.push_back({slot, {}});
    } else {
        if (rc = TakeUserSlot(handle, entry, &slot); rc) return rc;
        UserArgs* user = entry->user;
        std::memset(user->memory + slot * kSlot, 0, kSlot);
        user->placeholders()[user->placeholder_count++] = {slot, 0, 0, 0};
    }
    *out = SlotHandle(slot);
    return ACL_SUCCESS;
}

aclError KernelArgPlaceholderBuffer(aclrtArgsHandle handle, aclrtParamHandle param, size_t size,
                                    void** out) {
    aclError rc = ACL_SUCCESS;
    ArgsEntry* entry = Resolve(handle, &rc);
    if (entry == nullptr) return rc;
    size_t slot = 0;
    bool known = SlotOf(*entry, param, &slot);
    if (known && entry->owned) {
        for (auto& placeholder : entry->owned->placeholders) {
            if (placeholder.slot != slot) continue;
            placeholder.data.assign(size, 0);
            *out = placeholder.data.data();
            return ACL_SUCCESS;
        }
    } else if (known) {
        UserArgs* user = entry->user;
        for (uint32_t i = 0; i < user->placeholder_count; ++i) {
            UserArgs::Placeholder& placeholder = user->placeholders()[i];
            if (placeholder.slot != slot) continue;
            if (placeholder.capacity < size) {
                // Taken from the argument memory after the parameter area; a smaller earlier
                // buffer of this placeholder stays unused.
                size_t start = user->param_area + user->data_used;
                if (RoundUpToSlot(size) > user->memory_size - start) {
                    return Fail(ACL_ERROR_INVALID_PARAM,
                                "argsHandle %p: its argument memory (%zu bytes, %zu of them "
                                "left for placeholder data) has no room for %zu more bytes; "
                                "size it with aclrtKernelArgsGetMemSize, counting the "
                                "placeholder data in userArgsSize",
                                handle, static_cast<size_t>(user->memory_size),
                                static_cast<size_t>(user->memory_size - start), size);
                }
                placeholder.offset = start;
                placeholder.capacity = RoundUpToSlot(size);
                user->data_used += placeholder.capacity;
            }
            placeholder.size = size;
            std::memset(user->memory + placeholder.offset, 0, size);
            *out = user->memory + placeholder.offset;
            return ACL_SUCCESS;
        }
    }
    return Fail(ACL_ERROR_INVALID_PARAM,
                "paramHandle %p is not a placeholder of argsHandle %p (aclrtKernelArgsAppend"
                "PlaceHolder)",
                param, handle);
}

aclError UpdateKernelArg(aclrtArgsHandle handle, aclrtParamHandle param, const void* value,
                         size_t size) {
    aclError rc = ACL_SUCCESS;
    ArgsEntry* entry = Resolve(handle, &rc);
    if (entry == nullptr) return rc;
    size_t slot = 0;
    if (!SlotOf(*entry, param, &slot)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramHandle %p is not a parameter of argsHandle %p",
                    param, handle);
    }
    if (entry->packed()) {
        const PackedParam place = entry->packed_param(slot);
        if (size != place.size) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "paramSize %zu: parameter %zu of argsHandle %p was appended with %u "
                        "bytes, and an update must give as many",
                        size, slot, handle, place.size);
        }
        std::memcpy(entry->packed_bytes() + place.offset, value, size);
        return ACL_SUCCESS;
    }
    if (size > kSlot) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "paramSize %zu: each parameter of kernel %s is one %zu-byte slot", size,
                    entry->kernel_name.c_str(), kSlot);
    }
    uint64_t slot_value = SlotValue(value, size);
    std::memcpy(entry->slots() + slot * kSlot, &slot_value, kSlot);
    return ACL_SUCCESS;
}

aclError FinalizeKernelArgs(aclrtArgsHandle handle) {
    aclError rc = ACL_SUCCESS;
    ArgsEntry* entry = Resolve(handle, &rc);
    if (entry == nullptr) return rc;
    if (entry->owned) {
        entry->owned->finalized = true;
    } else {
        entry->user->finalized = 1;
    }
    return ACL_SUCCESS;
}

namespace {

// The launch block of a packed kernel's handle: the packed parameters (as many bytes as the
// kernel reads), then each placeholder's data, which its pointer parameter is pointed at.
aclError LaunchPacked(KernelFunction* function, const LaunchOptions& options,
                      aclrtArgsHandle handle, const ArgsEntry& entry, Stream* stream) {
    if (entry.slot_count() != entry.param_count) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "kernel %s takes %u parameters but argsHandle %p holds %zu", function->name(),
                    entry.param_count, handle, entry.slot_count());
    }
    // The kernel's block is the packed struct: its size is the end of the last parameter
    // rounded up to the struct's alignment (4 or 8).
    const size_t end = entry.packed_end();
    if (RoundUp(end, 4) != entry.packed_size && RoundUp(end, 8) != entry.packed_size) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the %u parameters in argsHandle %p take %zu bytes, but kernel %s reads a "
                    "packed block of %u: a parameter was appended with a size other than its "
                    "type's",
                    entry.param_count, handle, end, function->name(), entry.packed_size);
    }
    const size_t area = RoundUpToSlot(entry.packed_size);
    size_t size = area;
    entry.ForEachPlaceholder([&](size_t, const unsigned char*, size_t bytes) {
        size += RoundUpToSlot(std::max(bytes, kSlot));
    });
    auto* block = static_cast<unsigned char*>(std::calloc(1, size));
    if (block == nullptr) return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory for the arguments");
    std::memcpy(block, entry.packed_bytes(), end);
    size_t offset = area;
    entry.ForEachPlaceholder([&](size_t index, const unsigned char* data, size_t bytes) {
        if (bytes != 0) std::memcpy(block + offset, data, bytes);
        void* target = block + offset;
        std::memcpy(block + entry.packed_param(index).offset, &target, sizeof target);
        offset += RoundUpToSlot(std::max(bytes, kSlot));
    });
    return LaunchKernelOwnedArgs(function, options, block, entry.packed_size, stream);
}

}  // namespace

aclError LaunchKernelWithArgsHandle(KernelFunction* function, const LaunchOptions& options,
                                    aclrtArgsHandle handle, Stream* stream) {
    aclError rc = ACL_SUCCESS;
    ArgsEntry* entry = Resolve(handle, &rc);
    if (entry == nullptr) return rc;
    if (entry->function_serial != function->serial()) {
        return Fail(ACL_ERROR_INVALID_PARAM, "argsHandle %p was built for kernel %s, not %s",
                    handle, entry->kernel_name.c_str(), function->name());
    }
    if (!entry->finalized()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "argsHandle %p is not finalized: call aclrtKernelArgsFinalize first", handle);
    }
    if (entry->packed()) return LaunchPacked(function, options, handle, *entry, stream);
    size_t slots_size = entry->slot_count() * kSlot;
    if (slots_size < function->args_size()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "kernel %s takes %u parameters but argsHandle %p holds %zu", function->name(),
                    function->param_count(), handle, entry->slot_count());
    }
    // One block for the launch: the slots, then each placeholder's data (at least a slot of
    // zeros when it has none), which its slot is pointed at.
    size_t size = slots_size;
    entry->ForEachPlaceholder([&](size_t, const unsigned char*, size_t bytes) {
        size += RoundUpToSlot(std::max(bytes, kSlot));
    });
    auto* block = static_cast<unsigned char*>(std::calloc(1, size == 0 ? 1 : size));
    if (block == nullptr) return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory for the arguments");
    if (slots_size != 0) std::memcpy(block, entry->slots(), slots_size);
    size_t offset = slots_size;
    entry->ForEachPlaceholder([&](size_t slot, const unsigned char* data, size_t bytes) {
        if (bytes != 0) std::memcpy(block + offset, data, bytes);
        void* target = block + offset;
        std::memcpy(block + slot * kSlot, &target, sizeof target);
        offset += RoundUpToSlot(std::max(bytes, kSlot));
    });
    return LaunchKernelOwnedArgs(function, options, block, slots_size, stream);
}

void DropKernelArgs(const std::vector<uint64_t>& function_serials) {
    if (!function_serials.empty()) Registry().DropFunctions(function_serials);
}

}  // namespace openacl
