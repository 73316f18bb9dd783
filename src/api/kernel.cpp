// Kernel binaries, function lookup, argument building and launches.
#include <cstring>

#include "acl/acl.h"
#include "core/context.h"
#include "core/device_variable.h"
#include "core/error.h"
#include "core/kernel.h"
#include "core/kernel_args.h"
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
    return openacl::UnloadKernelBinary(binHandle);
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

aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                       aclrtFuncHandle* funcHandle) {
    OPENACL_API();
    if (funcHandle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "funcHandle is null");
    aclError rc = ACL_SUCCESS;
    openacl::KernelBinary* binary = openacl::ResolveKernelBinary(binHandle, &rc);
    if (binary == nullptr) return rc;
    return openacl::GetKernelFunctionByEntry(binary, funcEntry, funcHandle);
}

aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char* name, void** dptr,
                              size_t* size) {
    OPENACL_API();
    if (name == nullptr || name[0] == '\0') {
        return Fail(ACL_ERROR_INVALID_PARAM, "name must be a global variable's name, not %s",
                    name == nullptr ? "null" : "empty");
    }
    if (dptr == nullptr && size == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dptr and size must not both be null");
    }
    aclError rc = ACL_SUCCESS;
    openacl::KernelBinary* binary = openacl::ResolveKernelBinary(binHandle, &rc);
    if (binary == nullptr) return rc;
    openacl::device_variable::Variable variable;
    if (aclError failed = openacl::device_variable::Find(binary, name, &variable)) return failed;
    if (dptr != nullptr) *dptr = variable.address;
    if (size != nullptr) *size = variable.size;
    return ACL_SUCCESS;
}

aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void** binAddr, size_t* binSize) {
    OPENACL_API();
    if (binAddr == nullptr || binSize == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "binAddr and binSize must not be null");
    }
    aclError rc = ACL_SUCCESS;
    openacl::KernelBinary* binary = openacl::ResolveKernelBinary(binHandle, &rc);
    if (binary == nullptr) return rc;
    return openacl::GetBinaryImage(binary, binAddr, binSize);
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

aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks, aclrtStream stream,
                                        aclrtLaunchKernelCfg* cfg, void** args) {
    OPENACL_API();
    LaunchTarget target;
    if (aclError rc = ResolveLaunch(func, numBlocks, stream, cfg, &target)) return rc;
    return openacl::LaunchKernelArgsArray(target.function, target.options, args, target.stream);
}

aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t* memSize) {
    OPENACL_API();
    if (memSize == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "memSize is null");
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(funcHandle, &rc);
    if (function == nullptr) return rc;
    *memSize = openacl::KernelArgsHandleMemSize(*function);
    return ACL_SUCCESS;
}

aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize,
                                   size_t* actualArgsSize) {
    OPENACL_API();
    if (actualArgsSize == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "actualArgsSize is null");
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(funcHandle, &rc);
    if (function == nullptr) return rc;
    return openacl::KernelArgsMemSize(*function, userArgsSize, actualArgsSize);
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
    OPENACL_API();
    if (argsHandle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "argsHandle is null");
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(funcHandle, &rc);
    if (function == nullptr) return rc;
    return openacl::CreateKernelArgs(function, argsHandle);
}

aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                      void* userHostMem, size_t actualArgsSize) {
    OPENACL_API();
    if (argsHandle == nullptr || userHostMem == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "argsHandle and userHostMem must not be null: they are host memory of "
                    "aclrtKernelArgsGetHandleMemSize and aclrtKernelArgsGetMemSize bytes");
    }
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(funcHandle, &rc);
    if (function == nullptr) return rc;
    return openacl::CreateKernelArgsInUserMemory(function, argsHandle, userHostMem, actualArgsSize);
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                               aclrtParamHandle* paramHandle) {
    OPENACL_API();
    if (param == nullptr || paramHandle == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "param and paramHandle must not be null");
    }
    // How large a parameter may be depends on the kernel (one 8-byte slot, or a packed field
    // of any size): core checks it.
    if (paramSize == 0) return Fail(ACL_ERROR_INVALID_PARAM, "paramSize is 0");
    return openacl::AppendKernelArg(argsHandle, param, paramSize, paramHandle);
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                          aclrtParamHandle* paramHandle) {
    OPENACL_API();
    if (paramHandle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "paramHandle is null");
    return openacl::AppendKernelArgPlaceholder(argsHandle, paramHandle);
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                             aclrtParamHandle paramHandle, size_t dataSize,
                                             void** bufferAddr) {
    OPENACL_API();
    if (bufferAddr == nullptr || dataSize == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "bufferAddr must not be null and dataSize > 0");
    }
    return openacl::KernelArgPlaceholderBuffer(argsHandle, paramHandle, dataSize, bufferAddr);
}

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                   void* param, size_t paramSize) {
    OPENACL_API();
    if (param == nullptr || paramSize == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "param must not be null and paramSize must not be 0");
    }
    return openacl::UpdateKernelArg(argsHandle, paramHandle, param, paramSize);
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
    OPENACL_API();
    return openacl::FinalizeKernelArgs(argsHandle);
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                     aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                     aclrtArgsHandle argsHandle, void* reserve) {
    OPENACL_API();
    if (reserve != nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
    LaunchTarget target;
    if (aclError rc = ResolveLaunch(funcHandle, numBlocks, stream, cfg, &target)) return rc;
    return openacl::LaunchKernelWithArgsHandle(target.function, target.options, argsHandle,
                                               target.stream);
}

int openaclRegisterKernelTable(const openaclKernelTable* table, const char* origin, void** handle) {
    OPENACL_API();
    if (table == nullptr || handle == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "table and handle must not be null");
    }
    return openacl::RegisterKernelTable(table, origin ? origin : "an in-process kernel table",
                                        handle);
}

int openaclLaunchKernelTable(const char* apiName, const openaclKernelTable* table,
                             const char* origin, uint32_t index, uint32_t numBlocks, void* stream,
                             const void* args, size_t argsSize, const char* nullParam) {
    openacl::ApiScope scope(apiName != nullptr ? apiName : __func__);
    if (table == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "table is null");
    if (nullParam != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s is null: pass the address of the struct the kernel takes by value",
                    nullParam);
    }
    aclrtBinHandle binary = nullptr;
    if (aclError rc = openacl::RegisterKernelTable(
            table, origin ? origin : "an in-process kernel table", &binary)) {
        return rc;
    }
    aclrtFuncHandle handle = nullptr;
    aclError rc = ACL_SUCCESS;
    openacl::KernelBinary* loaded = openacl::ResolveKernelBinary(binary, &rc);
    if (loaded == nullptr) return rc;
    if (aclError rc = openacl::GetKernelFunctionByEntry(loaded, index, &handle)) return rc;
    LaunchTarget target;
    if (aclError rc = ResolveLaunch(handle, numBlocks, stream, nullptr, &target)) return rc;
    return openacl::LaunchKernelHostArgs(target.function, target.options, args, argsSize, nullptr,
                                         0, target.stream);
}
