// acl_op.h: kernels a program registers for a single operator and the selector that picks one
// for a call's shapes (op/op_kernel.h). These are host settings: none needs aclInit or a device.
#include "op/op_kernel.h"
#include "acl/acl_op.h"
#include "core/error.h"

using openacl::Fail;

aclError aclopCreateKernel(const char* opType, const char* kernelId, const char* kernelName,
                           void* binData, int binSize, aclopEngineType enginetype,
                           aclDataDeallocator deallocator) {
    OPENACL_API();
    if (opType == nullptr || kernelId == nullptr || kernelName == nullptr || binData == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s is null",
                    opType == nullptr       ? "opType"
                    : kernelId == nullptr   ? "kernelId"
                    : kernelName == nullptr ? "kernelName"
                                            : "binData");
    }
    if (enginetype != ACL_ENGINE_SYS && enginetype != ACL_ENGINE_AICORE &&
        enginetype != ACL_ENGINE_VECTOR) {
        return Fail(ACL_ERROR_INVALID_PARAM, "enginetype %d is not an aclopEngineType",
                    static_cast<int>(enginetype));
    }
    return openacl::op::CreateKernel(opType, kernelId, kernelName, binData, binSize, deallocator);
}

aclError aclopRegisterCompileFunc(const char* opType, aclopCompileFunc func) {
    OPENACL_API();
    if (opType == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "opType is null");
    if (func == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "func is null");
    return openacl::op::RegisterSelector(opType, func);
}

aclError aclopUnregisterCompileFunc(const char* opType) {
    OPENACL_API();
    if (opType == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "opType is null");
    openacl::op::UnregisterSelector(opType);
    return ACL_SUCCESS;
}

aclError aclopSetKernelArgs(aclopKernelDesc* kernelDesc, const char* kernelId, uint32_t blockDim,
                            const void* args, uint32_t argSize) {
    OPENACL_API();
    if (kernelDesc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "kernelDesc is null");
    if (kernelId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "kernelId is null");
    if (args == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "args is null");
    return openacl::op::SetKernelArgs(kernelDesc, kernelId, blockDim, args, argSize);
}

aclError aclopSetKernelWorkspaceSizes(aclopKernelDesc* kernelDesc, int numWorkspaces,
                                      size_t* workspaceSizes) {
    OPENACL_API();
    if (kernelDesc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "kernelDesc is null");
    if (numWorkspaces < 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "numWorkspaces is %d: it must not be negative",
                    numWorkspaces);
    }
    if (numWorkspaces > 0 && workspaceSizes == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "workspaceSizes is null but numWorkspaces is %d",
                    numWorkspaces);
    }
    return openacl::op::SetKernelWorkspaceSizes(kernelDesc, numWorkspaces, workspaceSizes);
}
