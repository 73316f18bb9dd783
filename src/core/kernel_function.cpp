#include "core/kernel_function.h"

#include <cinttypes>
#include <cstring>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/device.h"
#include "core/elf_symbols.h"
#include "core/error.h"
#include "core/kernel.h"
#include "core/soc.h"

namespace openacl {

namespace {

constexpr const char* kCpuOnly = "runs on the CPU backend only";

aclError RefuseCudaKernel(const KernelFunction* function, const char* what) {
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "kernel %s is a CUDA kernel of %s: %s; %s %s",
                function->name(), function->binary()->origin().c_str(), what, CurrentApi(),
                kCpuOnly);
}

// The function symbol of the kernel `name` in `symbols`, or nullptr with the reason in *why.
const ElfSymbol* KernelSymbol(const ElfSymbols& symbols, const char* name, const char* origin,
                              std::string* why) {
    const std::vector<const ElfSymbol*> found = symbols.Named(name, true);
    if (const ElfSymbol* symbol = SoleSymbol(found)) return symbol;
    if (found.empty()) {
        *why = std::string("the symbol table of ") + origin + " has no function " + name +
               (symbols.full() ? "" : " (it was stripped: only exported functions are listed)");
    } else {
        *why = std::string("the symbol table of ") + origin + " has " +
               std::to_string(found.size()) + " distinct functions named " + name;
    }
    return nullptr;
}

// Whether the kernel at `index` of `binary` is the function at `value` of its image.
bool KernelIsAt(KernelBinary* binary, uint32_t index, uint64_t value) {
    uintptr_t bias = 0;
    std::string why;
    std::shared_ptr<const ElfSymbols> symbols = binary->Symbols(&bias, &why);
    if (symbols == nullptr) return false;
    const ElfSymbol* symbol = KernelSymbol(*symbols, binary->table()->kernels[index].name,
                                           binary->origin().c_str(), &why);
    return symbol != nullptr && symbol->value == value;
}

// The kernel of `binary` whose function is `symbol` (named `name`, its C++ name `source`).
KernelFunction* FindInBinary(KernelBinary* binary, const char* name, const std::string& source,
                             uint64_t value) {
    const std::string last =
        source.rfind("::") == std::string::npos ? source : source.substr(source.rfind("::") + 2);
    for (uint32_t i = 0; i < binary->table()->kernelCount; ++i) {
        const char* entry = binary->table()->kernels[i].name;
        if (std::strcmp(entry, name) != 0 && last != entry) continue;
        if (KernelIsAt(binary, i, value)) return binary->FunctionAt(i);
    }
    return nullptr;
}

// Whether `table` (read where an Ascend C library's stubs left it) names the kernel.
bool TableNames(const openaclKernelTable* table, const char* name, const std::string& source) {
    if (table == nullptr || table->magic != OPENACL_KERNEL_BINARY_MAGIC ||
        table->version != OPENACL_KERNEL_BINARY_VERSION || table->kernels == nullptr) {
        return false;
    }
    const std::string last =
        source.rfind("::") == std::string::npos ? source : source.substr(source.rfind("::") + 2);
    for (uint32_t i = 0; i < table->kernelCount; ++i) {
        const char* entry = table->kernels[i].name;
        if (entry != nullptr && (std::strcmp(entry, name) == 0 || last == entry)) return true;
    }
    return false;
}

}  // namespace

aclrtKernelType KernelType() {
    return CurrentSoc().separated ? ACL_KERNEL_TYPE_VECTOR : ACL_KERNEL_TYPE_AICORE;
}

aclError GetKernelCode(KernelFunction* function, KernelCode* out) {
    KernelBinary* binary = function->binary();
    if (binary->accelerator() != nullptr) {
        return RefuseCudaKernel(function,
                                "its code lies in GPU memory, which the CUDA driver does not "
                                "disclose");
    }
    uintptr_t bias = 0;
    std::string why;
    std::shared_ptr<const ElfSymbols> symbols = binary->Symbols(&bias, &why);
    const ElfSymbol* symbol =
        symbols ? KernelSymbol(*symbols, function->name(), binary->origin().c_str(), &why)
                : nullptr;
    if (symbol == nullptr) {
        return Fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND, "the code of kernel %s cannot be found: %s",
                    function->name(), why.c_str());
    }
    out->address = reinterpret_cast<void*>(bias + symbol->value);
    out->size = symbol->size;
    return ACL_SUCCESS;
}

aclError GetKernelAttribute(KernelFunction* function, aclrtFuncAttribute attribute,
                            int64_t* value) {
    switch (attribute) {
        case ACL_FUNC_ATTR_KERNEL_TYPE:
        case ACL_FUNC_ATTR_KERNEL_RATIO:
        case ACL_FUNC_ATTR_KERNEL_SCHED_MODE:
            break;
        default:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "attrType %d is not an aclrtFuncAttribute (ACL_FUNC_ATTR_KERNEL_TYPE, "
                        "_KERNEL_RATIO or _KERNEL_SCHED_MODE)",
                        static_cast<int>(attribute));
    }
    if (function->binary()->accelerator() != nullptr) {
        return RefuseCudaKernel(function, "a GPU has no Ascend core types or schedules");
    }
    const aclrtKernelType type = KernelType();
    switch (attribute) {
        case ACL_FUNC_ATTR_KERNEL_TYPE:
            *value = type;
            return ACL_SUCCESS;
        case ACL_FUNC_ATTR_KERNEL_RATIO:
            // CANN documents the ratio for A2, A3 and the 310P, not for the 950.
            if (CurrentSoc().npu_arch == 3510) {
                return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "ACL_FUNC_ATTR_KERNEL_RATIO is not supported on %s",
                            CurrentSoc().family);
            }
            // Cube cores in bits 16..31, vector cores in bits 0..15: each block is one core of
            // the kind KernelType says.
            *value = type == ACL_KERNEL_TYPE_VECTOR ? 1 : int64_t{1} << 16;
            return ACL_SUCCESS;
        default:
            // 1 (batch): an Ascend C kernel's blocks start together, as many as the chip has
            // cores (they may wait for each other in SyncAll); 0 (normal): the blocks of a
            // kernel binary's kernel start on whichever workers are idle.
            *value = function->packed() ? 1 : 0;
            return ACL_SUCCESS;
    }
}

aclError GetKernelParamCount(KernelFunction* function, size_t* count) {
    if (function->binary()->accelerator() != nullptr) {
        return RefuseCudaKernel(function,
                                "a CUDA binary's metadata gives the size of its parameter "
                                "block, not its parameters");
    }
    *count = function->param_count();
    return ACL_SUCCESS;
}

aclError GetKernelParamInfo(KernelFunction* function, size_t index, size_t* offset, size_t* size) {
    if (function->binary()->accelerator() != nullptr) {
        return RefuseCudaKernel(function,
                                "a CUDA binary's metadata gives the size of its parameter "
                                "block, not its parameters");
    }
    if (index >= function->param_count()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "paramIndex %zu is out of range: kernel %s has %u parameters (indices 0 to "
                    "paramCount - 1, from aclrtFunctionGetParamCount)",
                    index, function->name(), function->param_count());
    }
    if (function->packed()) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "kernel %s reads one packed block of %zu bytes laid out by its launch stubs; "
                    "openacl's kernel table records the block's size but not where each of its "
                    "%u parameters lies",
                    function->name(), function->launch_args_size(), function->param_count());
    }
    // A kernel binary's kernel reads one 8-byte slot per parameter, in order.
    *offset = index * OPENACL_KERNEL_ARG_SLOT;
    *size = OPENACL_KERNEL_ARG_SLOT;
    return ACL_SUCCESS;
}

aclError GetKernelBySymbol(const void* symbol, aclrtFuncHandle* out) {
    if (Context* ctx = CurrentContext(); ctx != nullptr && ctx->device()->accelerator()) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "the current device is %s (CUDA backend), whose kernels are found by name "
                    "in their binary (aclrtBinaryGetFunction): %s %s",
                    ctx->device()->accelerator()->name(), CurrentApi(), kCpuOnly);
    }
    LoadedObject object;
    if (!FindLoadedObject(symbol, &object)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "symbol %p lies in no loaded program or library: pass the address of a "
                    "kernel function (&kernel)",
                    symbol);
    }
    const auto at = reinterpret_cast<uintptr_t>(symbol);
    // The loaded binaries whose code is this object: their symbols were read when they loaded.
    std::vector<KernelBinary*> loaded = RetainLoadedBinaries();
    std::vector<KernelBinary*> here;
    std::shared_ptr<const ElfSymbols> symbols;
    uintptr_t bias = object.bias;
    std::string why;
    for (KernelBinary* binary : loaded) {
        LoadedObject image;
        if (!FindLoadedObject(binary->source_table(), &image) || image.begin != object.begin) {
            continue;
        }
        here.push_back(binary);
        if (symbols == nullptr) symbols = binary->Symbols(&bias, &why);
    }
    if (symbols == nullptr) symbols = LoadedObjectSymbols(object, &why);
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = nullptr;
    const ElfSymbol* found =
        symbols ? symbols->StartingAt(static_cast<uint64_t>(at - bias), true) : nullptr;
    if (symbols == nullptr) {
        rc = Fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND,
                  "symbol %p lies in %s, whose symbols are unknown: %s", symbol,
                  object.path.c_str(), why.c_str());
    } else if (found == nullptr) {
        const ElfSymbol* variable = symbols->StartingAt(static_cast<uint64_t>(at - bias), false);
        rc = variable != nullptr
                 ? Fail(ACL_ERROR_INVALID_PARAM,
                        "symbol %p is the variable %s of %s, not a kernel function: a device "
                        "variable is reached with aclrtGetSymbolAddress",
                        symbol, symbols->Name(*variable), object.path.c_str())
                 : Fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND,
                        "no function of %s starts at %p%s: pass the address of a kernel "
                        "function (&kernel)",
                        object.path.c_str(), symbol,
                        symbols->full() ? "" : " (it was stripped: only exported ones are known)");
    } else {
        const char* name = symbols->Name(*found);
        const std::string source = SourceName(name);
        for (KernelBinary* binary : here) {
            function = FindInBinary(binary, name, source, found->value);
            if (function != nullptr) break;
        }
        // An Ascend C library's tables are registered at their first launch: before it, the
        // references its stubs left in the image lead to them.
        for (const ElfSymbol* ref : symbols->VariablesWithPrefix(OPENACL_KERNEL_TABLE_REF_PREFIX)) {
            if (function != nullptr) break;
            if (ref->size != sizeof(openaclKernelTableRef)) continue;
            const auto* table_ref =
                reinterpret_cast<const openaclKernelTableRef*>(bias + ref->value);
            if (!TableNames(table_ref->table, name, source)) continue;
            aclrtBinHandle handle = nullptr;
            if (RegisterKernelTable(table_ref->table,
                                    table_ref->origin ? table_ref->origin : object.path.c_str(),
                                    &handle) != ACL_SUCCESS) {
                continue;
            }
            aclError ignored = ACL_SUCCESS;
            if (KernelBinary* binary = ResolveKernelBinary(handle, &ignored)) {
                function = FindInBinary(binary, name, source, found->value);
            }
        }
        if (function != nullptr) {
            *out = function->handle();
        } else {
            rc = Fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND,
                      "symbol %p is the function %s of %s, which is not a kernel of a loaded "
                      "kernel binary or of an Ascend C library (ascendc_library) in it",
                      symbol, source.empty() ? name : source.c_str(), object.path.c_str());
        }
    }
    for (KernelBinary* binary : loaded)
        binary->Release();
    return rc;
}

}  // namespace openacl
