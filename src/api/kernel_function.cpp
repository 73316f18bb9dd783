// Kernel functions: finding one by its function's address, and what a function handle tells
// about its code, parameters, binary and attributes.
#include "core/kernel_function.h"
#include "acl/acl.h"
#include "core/error.h"
#include "core/kernel.h"

using openacl::Fail;
using openacl::KernelFunction;

aclError aclrtGetFuncBySymbol(const void* symbol, aclrtFuncHandle* funcHandle) {
    OPENACL_API();
    if (symbol == nullptr || funcHandle == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "symbol and funcHandle must not be null: symbol is the address of a kernel "
                    "function (&kernel)");
    }
    return openacl::GetKernelBySymbol(symbol, funcHandle);
}

namespace {

// The code of a function for aclrtGetFunctionAddr/Size, and whether it is in the vector-core
// slot: it sits in the slot of the one kind of core that runs it; the other stays empty.
aclError CodeOf(aclrtFuncHandle handle, openacl::KernelCode* code, bool* vector) {
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(handle, &rc);
    if (function == nullptr) return rc;
    if (aclError failed = openacl::GetKernelCode(function, code)) return failed;
    *vector = openacl::KernelType() == ACL_KERNEL_TYPE_VECTOR;
    return ACL_SUCCESS;
}

}  // namespace

aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr, void** aivAddr) {
    OPENACL_API();
    if (aicAddr == nullptr || aivAddr == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "aicAddr and aivAddr must not be null");
    }
    openacl::KernelCode code;
    bool vector = false;
    if (aclError rc = CodeOf(funcHandle, &code, &vector)) return rc;
    *aicAddr = vector ? nullptr : code.address;
    *aivAddr = vector ? code.address : nullptr;
    return ACL_SUCCESS;
}

aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t* aicSize, size_t* aivSize) {
    OPENACL_API();
    if (aicSize == nullptr || aivSize == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "aicSize and aivSize must not be null");
    }
    openacl::KernelCode code;
    bool vector = false;
    if (aclError rc = CodeOf(funcHandle, &code, &vector)) return rc;
    *aicSize = vector ? 0 : code.size;
    *aivSize = vector ? code.size : 0;
    return ACL_SUCCESS;
}

aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType,
                                   int64_t* attrValue) {
    OPENACL_API();
    if (attrValue == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "attrValue is null");
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(funcHandle, &rc);
    if (function == nullptr) return rc;
    return openacl::GetKernelAttribute(function, attrType, attrValue);
}

aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle* binHandle) {
    OPENACL_API();
    if (binHandle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "binHandle is null");
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(funcHandle, &rc);
    if (function == nullptr) return rc;
    *binHandle = function->binary();  // a binary's handle is the binary
    return ACL_SUCCESS;
}

aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount) {
    OPENACL_API();
    if (paramCount == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "paramCount is null");
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(const_cast<void*>(func), &rc);
    if (function == nullptr) return rc;
    return openacl::GetKernelParamCount(function, paramCount);
}

aclError aclrtFunctionGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                   size_t* paramSize) {
    OPENACL_API();
    if (paramOffset == nullptr || paramSize == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "paramOffset and paramSize must not be null");
    }
    aclError rc = ACL_SUCCESS;
    KernelFunction* function = openacl::ResolveKernelFunction(const_cast<void*>(func), &rc);
    if (function == nullptr) return rc;
    return openacl::GetKernelParamInfo(function, paramIndex, paramOffset, paramSize);
}

aclError aclrtFunctionGetAvailDynUbufPerBlock(void* func, uint32_t flags, size_t* dynamicUbufSize) {
    OPENACL_API();
    if (dynamicUbufSize == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dynamicUbufSize is null");
    if (flags != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "flags is reserved and must be 0, not %u", flags);
    }
    aclError rc = ACL_SUCCESS;
    if (openacl::ResolveKernelFunction(func, &rc) == nullptr) return rc;
    // Dynamic UB is for SIMT kernels; openacl's kernels are all of the other kind, for which
    // CANN answers 0.
    *dynamicUbufSize = 0;
    return ACL_SUCCESS;
}
