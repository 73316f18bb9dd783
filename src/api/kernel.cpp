// Kernel binaries, function lookup, argument building and launches.
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "core/context.h"
#include "core/error.h"
#include "core/handle_table.h"
#include "core/kernel.h"
#include "core/stream.h"

using openacl::Fail;
using openacl::KernelFunction;
using openacl::LaunchOptions;
using openacl::Stream;

namespace {

aclError CheckLoadOptions(const aclrtBinaryLoadOptions* options) {
    if (options == nullptr) return ACL_SUCCESS;
    if (options->numOpt > 0 && options->options == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "options->options is null but numOpt is %zu",
                    options->numOpt);
    }
    for (size_t i = 0; i < options->numOpt; ++i) {
        switch (options->options[i].type) {
            case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
            case ACL_RT_BINARY_LOAD_OPT_MAGIC:  // the Ascend core type: one kind of core here
            case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
                break;
            default:
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "options->options[%zu].type %d is not an aclrtBinaryLoadOptionType", i,
                            static_cast<int>(options->options[i].type));
        }
    }
    return ACL_SUCCESS;
}

// aclrtKernelArgs*: arguments built in host memory, one 8-byte slot per parameter, with
// placeholder slots that point at extra data carried along with the launch.
struct ArgsBuilder {
    // The kernel the arguments are for. Its handle may be unloaded, and even reused for another
    // kernel, while the builder lives: compare the serial too, and never dereference it here.
    KernelFunction* function;
    uint64_t function_serial;
    std::string kernel_name;
    std::vector<uint64_t> slots;
    struct Placeholder {
        size_t slot;
        std::vector<unsigned char> data;
    };
    std::vector<Placeholder> placeholders;
    bool finalized = false;
};

openacl::HandleTable<ArgsBuilder>& Builders() {
    static auto* table = new openacl::HandleTable<ArgsBuilder>;
    return *table;
}

ArgsBuilder* ResolveBuilder(aclrtArgsHandle handle, aclError* rc) {
    ArgsBuilder* builder = handle ? Builders().Find(handle) : nullptr;
    if (builder == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "argsHandle %p is not a live argument handle: it comes from "
                   "aclrtKernelArgsInit and goes away with its binary's aclrtBinaryUnLoad",
                   handle);
    }
    return builder;
}

// A parameter handle is its slot index + 1, so NULL is never a valid one.
aclrtParamHandle SlotHandle(size_t slot) {
    return reinterpret_cast<aclrtParamHandle>(slot + 1);
}
bool SlotOf(const ArgsBuilder* builder, aclrtParamHandle handle, size_t* slot) {
    auto value = reinterpret_cast<uintptr_t>(handle);
    if (value == 0 || value > builder->slots.size()) return false;
    *slot = value - 1;
    return true;
}

// What every launch call resolves first: the function, the stream and the launch options.
struct LaunchTarget {
    KernelFunction* function = nullptr;
    Stream* stream = nullptr;
    LaunchOptions options;
};

aclError ResolveLaunch(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                       const aclrtLaunchKernelCfg* cfg, LaunchTarget* target) {
    aclError rc = ACL_SUCCESS;
    target->function = openacl::ResolveKernelFunction(funcHandle, &rc);
    if (target->function == nullptr) return rc;
    target->stream = openacl::ResolveStream(stream, &rc);
    if (target->stream == nullptr) return rc;
    target->options.num_blocks = numBlocks;
    return openacl::ApplyLaunchConfig(cfg, &target->options);
}

}  // namespace

aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) {
    OPENACL_API();
    if (binPath == nullptr || binHandle == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "binPath and binHandle must not be null");
    }
    if (aclError rc = CheckLoadOptions(options)) return rc;
    return openacl::LoadKernelBinaryFromFile(binPath, binHandle);
}

aclError aclrtBinaryLoadFromData(const void* data, size_t length,
                                 const aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle) {
    OPENACL_API();
    if (data == nullptr || binHandle == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "data and binHandle must not be null");
    }
    if (length == 0) return Fail(ACL_ERROR_INVALID_PARAM, "length must be > 0");
    if (aclError rc = CheckLoadOptions(options)) return rc;
    return openacl::LoadKernelBinaryFromData(data, length, binHandle);
}

aclrtBinary aclrtCreateBinary(const void* data, size_t dataLen) {
    OPENACL_API();
    if (data == nullptr || dataLen == 0) {
        Fail(ACL_ERROR_INVALID_PARAM, "data must not be null and dataLen must be > 0");
        return nullptr;
    }
    aclrtBinary binary = nullptr;
    return openacl::CreateBinaryImage(data, dataLen, &binary) == ACL_SUCCESS ? binary : nullptr;
}

aclError aclrtDestroyBinary(aclrtBinary binary) {
    OPENACL_API();
    if (binary == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "binary is null");
    return openacl::DestroyBinaryImage(binary);
}

aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle* binHandle) {
    OPENACL_API();
    if (binHandle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "binHandle is null");
    aclError rc = ACL_SUCCESS;
    openacl::BinaryImage* image = openacl::ResolveBinaryImage(binary, &rc);
    if (image == nullptr) return rc;
    return openacl::LoadKernelBinaryFromData(image->bytes.data(), image->bytes.size(), binHandle);
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
    OPENACL_API();
    if (binHandle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "binHandle is null");
    aclError rc = ACL_SUCCESS;
    openacl::KernelBinary* binary = openacl::ResolveKernelBinary(binHandle, &rc);
    if (binary == nullptr) return rc;
    std::vector<uint64_t> serials = binary->FunctionSerials();
    if (rc = openacl::UnloadKernelBinary(binHandle); rc) return rc;
    // Argument handles built for the binary's kernels go with it (CANN has no call to free
    // them, so this is where their memory comes back).
    std::vector<const void*> doomed;
    Builders().ForEach([&](ArgsBuilder* builder) {
        if (std::find(serials.begin(), serials.end(), builder->function_serial) != serials.end()) {
            doomed.push_back(builder);
        }
    });
    for (const void* handle : doomed)
        Builders().Remove(handle);
    return ACL_SUCCESS;
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                aclrtFuncHandle* funcHandle) {
    OPENACL_API();
    if (kernelName == nullptr || funcHandle == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "kernelName and funcHandle must not be null");
    }
    aclError rc = ACL_SUCCESS;
    openacl::KernelBinary* binary = openacl::ResolveKernelBinary(binHandle, &rc);
    if (binary == nullptr) return rc;
    return openacl::GetKernelFunction(binary, kernelName, funcHandle);
}

aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char* name) {
    OPENACL_API();
    if (name == nullptr || maxLen == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "name must not be null and maxLen must be > 0");
    }
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(funcHandle, &rc);
    if (function == nullptr) return rc;
    size_t length = std::strlen(function->name());
    if (length + 1 > maxLen) {
        return Fail(ACL_ERROR_INVALID_PARAM, "the name \"%s\" needs %zu bytes, maxLen is %u",
                    function->name(), length + 1, maxLen);
    }
    std::memcpy(name, function->name(), length + 1);
    return ACL_SUCCESS;
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                           size_t argsSize, aclrtStream stream) {
    OPENACL_API();
    LaunchTarget target;
    if (aclError rc = ResolveLaunch(funcHandle, numBlocks, stream, nullptr, &target)) return rc;
    return openacl::LaunchKernelDeviceArgs(target.function, target.options, argsData, argsSize,
                                           target.stream);
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                             size_t argsSize, aclrtLaunchKernelCfg* cfg, aclrtStream stream) {
    OPENACL_API();
    LaunchTarget target;
    if (aclError rc = ResolveLaunch(funcHandle, numBlocks, stream, cfg, &target)) return rc;
    return openacl::LaunchKernelDeviceArgs(target.function, target.options, argsData, argsSize,
                                           target.stream);
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                       aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                       void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray,
                                       size_t placeHolderNum) {
    OPENACL_API();
    LaunchTarget target;
    if (aclError rc = ResolveLaunch(funcHandle, numBlocks, stream, cfg, &target)) return rc;
    return openacl::LaunchKernelHostArgs(target.function, target.options, hostArgs, argsSize,
                                         placeHolderArray, placeHolderNum, target.stream);
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
    OPENACL_API();
    if (argsHandle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "argsHandle is null");
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(funcHandle, &rc);
    if (function == nullptr) return rc;
    auto builder = std::make_unique<ArgsBuilder>();
    builder->function = function;
    builder->function_serial = function->serial();
    builder->kernel_name = function->name();
    *argsHandle = Builders().Insert(std::move(builder));
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                               aclrtParamHandle* paramHandle) {
    OPENACL_API();
    if (param == nullptr || paramHandle == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "param and paramHandle must not be null");
    }
    if (paramSize == 0 || paramSize > OPENACL_KERNEL_ARG_SLOT) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "paramSize %zu: each kernel parameter is one %u-byte slot", paramSize,
                    OPENACL_KERNEL_ARG_SLOT);
    }
    aclError rc = ACL_SUCCESS;
    ArgsBuilder* builder = ResolveBuilder(argsHandle, &rc);
    if (builder == nullptr) return rc;
    if (builder->finalized) {
        return Fail(ACL_ERROR_INVALID_PARAM, "argsHandle %p is already finalized", argsHandle);
    }
    uint64_t slot = 0;
    std::memcpy(&slot, param, paramSize);
    builder->slots.push_back(slot);
    *paramHandle = SlotHandle(builder->slots.size() - 1);
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                          aclrtParamHandle* paramHandle) {
    OPENACL_API();
    if (paramHandle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "paramHandle is null");
    aclError rc = ACL_SUCCESS;
    ArgsBuilder* builder = ResolveBuilder(argsHandle, &rc);
    if (builder == nullptr) return rc;
    if (builder->finalized) {
        return Fail(ACL_ERROR_INVALID_PARAM, "argsHandle %p is already finalized", argsHandle);
    }
    builder->slots.push_back(0);
    builder->placeholders.push_back({builder->slots.size() - 1, {}});
    *paramHandle = SlotHandle(builder->slots.size() - 1);
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                             aclrtParamHandle paramHandle, size_t dataSize,
                                             void** bufferAddr) {
    OPENACL_API();
    if (bufferAddr == nullptr || dataSize == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "bufferAddr must not be null and dataSize > 0");
    }
    aclError rc = ACL_SUCCESS;
    ArgsBuilder* builder = ResolveBuilder(argsHandle, &rc);
    if (builder == nullptr) return rc;
    size_t slot = 0;
    if (SlotOf(builder, paramHandle, &slot)) {
        for (auto& placeholder : builder->placeholders) {
            if (placeholder.slot != slot) continue;
            placeholder.data.assign(dataSize, 0);
            *bufferAddr = placeholder.data.data();
            return ACL_SUCCESS;
        }
    }
    return Fail(ACL_ERROR_INVALID_PARAM,
                "paramHandle %p is not a placeholder of argsHandle %p (aclrtKernelArgsAppend"
                "PlaceHolder)",
                paramHandle, argsHandle);
}

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                   void* param, size_t paramSize) {
    OPENACL_API();
    if (param == nullptr || paramSize == 0 || paramSize > OPENACL_KERNEL_ARG_SLOT) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "param must not be null and paramSize must be 1..%u bytes",
                    OPENACL_KERNEL_ARG_SLOT);
    }
    aclError rc = ACL_SUCCESS;
    ArgsBuilder* builder = ResolveBuilder(argsHandle, &rc);
    if (builder == nullptr) return rc;
    size_t slot = 0;
    if (!SlotOf(builder, paramHandle, &slot)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramHandle %p is not a parameter of argsHandle %p",
                    paramHandle, argsHandle);
    }
    uint64_t value = 0;
    std::memcpy(&value, param, paramSize);
    builder->slots[slot] = value;
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    ArgsBuilder* builder = ResolveBuilder(argsHandle, &rc);
    if (builder == nullptr) return rc;
    builder->finalized = true;
    return ACL_SUCCESS;
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                     aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                     aclrtArgsHandle argsHandle, void* reserve) {
    OPENACL_API();
    if (reserve != nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(funcHandle, &rc);
    if (function == nullptr) return rc;
    ArgsBuilder* builder = ResolveBuilder(argsHandle, &rc);
    if (builder == nullptr) return rc;
    if (builder->function != function || builder->function_serial != function->serial()) {
        return Fail(ACL_ERROR_INVALID_PARAM, "argsHandle %p was built for kernel %s%s, not %s",
                    argsHandle, builder->kernel_name.c_str(),
                    builder->function == function ? " (of a binary since unloaded)" : "",
                    function->name());
    }
    if (!builder->finalized) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "argsHandle %p is not finalized: call aclrtKernelArgsFinalize first",
                    argsHandle);
    }
    Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    LaunchOptions options;
    options.num_blocks = numBlocks;
    if (rc = openacl::ApplyLaunchConfig(cfg, &options); rc) return rc;
    // One block: the slots, then each placeholder's data, which its slot points at.
    std::vector<unsigned char> block(builder->slots.size() * OPENACL_KERNEL_ARG_SLOT);
    std::memcpy(block.data(), builder->slots.data(), block.size());
    std::vector<aclrtPlaceHolderInfo> placeholders;
    for (const auto& placeholder : builder->placeholders) {
        placeholders.push_back({static_cast<uint32_t>(placeholder.slot * OPENACL_KERNEL_ARG_SLOT),
                                static_cast<uint32_t>(block.size())});
        block.insert(block.end(), placeholder.data.begin(), placeholder.data.end());
        block.resize((block.size() + 7) / 8 * 8 + (placeholder.data.empty() ? 8 : 0));
    }
    return openacl::LaunchKernelHostArgs(function, options, block.data(), block.size(),
                                         placeholders.data(), placeholders.size(), resolved);
}
