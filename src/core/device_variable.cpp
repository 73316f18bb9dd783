#include "core/device_variable.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "core/context.h"
#include "core/device.h"
#include "core/elf_symbols.h"
#include "core/error.h"
#include "core/kernel.h"
#include "core/memory.h"
#include "core/runtime.h"

namespace openacl::device_variable {

namespace {

// A variable the program asked for, by its first byte.
struct Entry {
    uint64_t size;
    bool writable;
    std::string name;
    std::string origin;
    const KernelBinary* owner;  // the loaded binary it belongs to; nullptr: the program's
};

struct Registry {
    std::shared_mutex mutex;
    std::map<uintptr_t, Entry> variables;
    std::atomic<size_t> count{0};  // lets ClassifyPointer skip the lock while there are none
};

Registry& TheRegistry() {
    static auto* registry = new Registry;
    return *registry;
}

void Register(uintptr_t base, const Entry& entry) {
    Registry& r = TheRegistry();
    std::unique_lock lock(r.mutex);
    if (r.variables.emplace(base, entry).second) r.count.fetch_add(1, std::memory_order_release);
}

// What a variable is called in messages: its C++ name, else its symbol name.
std::string DisplayName(const ElfSymbols& symbols, const ElfSymbol& symbol) {
    std::string source = SourceName(symbols.Name(symbol));
    return source.empty() ? symbols.Name(symbol) : source;
}

// Device variables are the host image's globals, which a GPU cannot reach.
aclError RefuseAccelerator() {
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    if (backend::Accelerator* accelerator = ctx->device()->accelerator()) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "the current device is %s (CUDA backend): device variables are globals of "
                    "the host image the kernels were compiled into, which it cannot reach; %s "
                    "runs on the CPU backend only",
                    accelerator->name(), CurrentApi());
    }
    return ACL_SUCCESS;
}

aclError CheckRange(const Variable& variable, size_t offset, size_t count) {
    if (offset > variable.size || count > variable.size - offset) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "offset %zu + count %zu runs past the end of device variable %s, which has "
                    "%" PRIu64 " bytes (aclrtGetSymbolSize)",
                    offset, count, variable.name.c_str(), variable.size);
    }
    return ACL_SUCCESS;
}

}  // namespace

aclError Resolve(const void* symbol, Variable* out) {
    if (aclError rc = RefuseAccelerator()) return rc;
    LoadedObject object;
    if (!FindLoadedObject(symbol, &object)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "symbol %p lies in no loaded program or library: pass the address of a "
                    "__gm__ variable (&variable, or an array's name)",
                    symbol);
    }
    // A loaded kernel binary's variables belong to it, and its symbols were read at its load.
    const KernelBinary* owner = nullptr;
    std::string origin = object.path;
    std::shared_ptr<const ElfSymbols> symbols;
    uintptr_t bias = object.bias;
    std::string why;
    std::vector<KernelBinary*> loaded = RetainLoadedBinaries();
    for (KernelBinary* binary : loaded) {
        LoadedObject image;
        if (binary->in_process() || !FindLoadedObject(binary->source_table(), &image) ||
            image.begin != object.begin) {
            continue;
        }
        symbols = binary->Symbols(&bias, &why);
        if (symbols != nullptr) {
            owner = binary;
            origin = binary->origin();
            break;
        }
    }
    for (KernelBinary* binary : loaded)
        binary->Release();  // `owner` only names the binary from here on
    if (symbols == nullptr) symbols = LoadedObjectSymbols(object, &why);
    if (symbols == nullptr) {
        return Fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND,
                    "symbol %p lies in %s, whose symbols are unknown: %s", symbol,
                    object.path.c_str(), why.c_str());
    }
    const uint64_t value = reinterpret_cast<uintptr_t>(symbol) - bias;
    const ElfSymbol* variable = symbols->StartingAt(value, false);
    if (variable == nullptr) {
        if (const ElfSymbol* function = symbols->StartingAt(value, true)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "symbol %p is the function %s of %s, not a variable: a kernel is found "
                        "with aclrtGetFuncBySymbol",
                        symbol, DisplayName(*symbols, *function).c_str(), origin.c_str());
        }
        const ElfSymbol* around = symbols->Containing(value);
        if (around != nullptr && !around->function) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "symbol %p points %" PRIu64
                        " bytes into the device variable %s of %s: pass the variable's own "
                        "address",
                        symbol, value - around->value, DisplayName(*symbols, *around).c_str(),
                        origin.c_str());
        }
        return Fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND,
                    "no global variable of %s starts at %p%s: pass the address of a __gm__ "
                    "variable",
                    origin.c_str(), symbol,
                    symbols->full() ? "" : " (it was stripped: only exported ones are known)");
    }
    out->address = reinterpret_cast<void*>(bias + variable->value);
    out->size = variable->size;
    out->writable = variable->writable;
    out->name = DisplayName(*symbols, *variable);
    Register(bias + variable->value,
             {variable->size, variable->writable, out->name, origin, owner});
    return ACL_SUCCESS;
}

aclError Find(KernelBinary* binary, const char* name, Variable* out) {
    if (binary->accelerator() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s is a CUDA binary: openacl's copies cannot reach its globals in GPU "
                    "memory; %s runs on the CPU backend only",
                    binary->origin().c_str(), CurrentApi());
    }
    if (aclError rc = RefuseAccelerator()) return rc;
    uintptr_t bias = 0;
    std::string why;
    std::shared_ptr<const ElfSymbols> symbols = binary->Symbols(&bias, &why);
    if (symbols == nullptr) {
        return Fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND, "the globals of %s are unknown: %s",
                    binary->origin().c_str(), why.c_str());
    }
    const std::vector<const ElfSymbol*> found = symbols->Named(name, false);
    const ElfSymbol* variable = SoleSymbol(found);
    if (variable == nullptr && found.size() > 1) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s has %zu distinct global variables named \"%s\" (static ones of "
                    "different sources, or ones of different namespaces): give the C++ name "
                    "with its namespace",
                    binary->origin().c_str(), found.size(), name);
    }
    if (variable == nullptr) {
        return Fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND, "%s has no global variable named \"%s\"%s",
                    binary->origin().c_str(), name,
                    symbols->full() ? "" : " (it was stripped: only exported ones are known)");
    }
    out->address = reinterpret_cast<void*>(bias + variable->value);
    out->size = variable->size;
    out->writable = variable->writable;
    out->name = DisplayName(*symbols, *variable);
    // An in-process table's binary is no image of its own: its variables are the program's.
    Register(bias + variable->value, {variable->size, variable->writable, out->name,
                                      binary->origin(), binary->in_process() ? nullptr : binary});
    return ACL_SUCCESS;
}

aclError CopyTo(const void* symbol, const void* src, size_t count, size_t offset,
                aclrtMemcpyKind kind, Stream* stream) {
    Variable variable;
    if (aclError rc = Resolve(symbol, &variable)) return rc;
    if (aclError rc = CheckRange(variable, offset, count)) return rc;
    if (!variable.writable) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "device variable %s is read-only (const): nothing can be copied into it",
                    variable.name.c_str());
    }
    void* dst = static_cast<unsigned char*>(variable.address) + offset;
    const size_t room = variable.size - offset;
    return stream != nullptr ? MemcpyAsync(dst, room, src, count, kind, stream)
                             : Memcpy(dst, room, src, count, kind);
}

aclError CopyFrom(void* dst, size_t dst_max, const void* symbol, size_t count, size_t offset,
                  aclrtMemcpyKind kind, Stream* stream) {
    Variable variable;
    if (aclError rc = Resolve(symbol, &variable)) return rc;
    if (aclError rc = CheckRange(variable, offset, count)) return rc;
    const void* src = static_cast<const unsigned char*>(variable.address) + offset;
    return stream != nullptr ? MemcpyAsync(dst, dst_max, src, count, kind, stream)
                             : Memcpy(dst, dst_max, src, count, kind);
}

bool Classify(const void* p, MemRegion* region) {
    Registry& r = TheRegistry();
    if (r.count.load(std::memory_order_acquire) == 0) return false;
    const auto address = reinterpret_cast<uintptr_t>(p);
    uintptr_t base = 0;
    Entry entry;
    {
        std::shared_lock lock(r.mutex);
        auto it = r.variables.upper_bound(address);
        if (it == r.variables.begin()) return false;
        --it;
        if (address - it->first >= it->second.size) return false;
        base = it->first;
        entry = it->second;
    }
    // Every device's kernels use the one copy: it is memory of whichever device is current.
    Device* device = nullptr;
    if (Context* ctx = CurrentContext()) device = ctx->device();
    if (device == nullptr && !Runtime::Get().devices().empty()) {
        device = Runtime::Get().devices().front();
    }
    if (device == nullptr) return false;  // no device to own it: plain host memory again
    *region = MemRegion{};
    region->domain = MemDomain::kDevice;
    region->variable = true;
    region->device = device;
    region->base = base;
    region->usable = entry.size;
    region->requested = entry.size;
    region->writable = entry.writable;
    return true;
}

std::string Describe(const void* p) {
    Registry& r = TheRegistry();
    if (r.count.load(std::memory_order_acquire) == 0) return "";
    const auto address = reinterpret_cast<uintptr_t>(p);
    std::shared_lock lock(r.mutex);
    auto it = r.variables.upper_bound(address);
    if (it == r.variables.begin()) return "";
    --it;
    if (address - it->first >= it->second.size) return "";
    char size[64], where[32];
    std::snprintf(size, sizeof size, "the %" PRIu64 "-byte device variable ", it->second.size);
    std::snprintf(where, sizeof where, "%p", reinterpret_cast<void*>(it->first));
    return size + it->second.name + " of " + it->second.origin + " at " + where;
}

void ForgetBinary(const KernelBinary* binary) {
    Registry& r = TheRegistry();
    if (r.count.load(std::memory_order_acquire) == 0) return;
    std::unique_lock lock(r.mutex);
    for (auto it = r.variables.begin(); it != r.variables.end();) {
        if (it->second.owner == binary) {
            it = r.variables.erase(it);
            r.count.fetch_sub(1, std::memory_order_release);
        } else {
            ++it;
        }
    }
}

}  // namespace openacl::device_variable
