// Argument handles (aclrtArgsHandle): a kernel's arguments built in host memory with the
// aclrtKernelArgs* calls, one 8-byte slot per parameter, where a placeholder is a slot that
// points at data carried along with the launch. A launch copies them, so a handle may be
// changed and launched again at once.
//
// aclrtKernelArgsInit makes a handle openacl owns, which grows as parameters are appended.
// aclrtKernelArgsInitByUserMem sets one up in two buffers of the caller: the handle memory
// (aclrtKernelArgsGetHandleMemSize bytes) holds the handle's state, the argument memory
// (aclrtKernelArgsGetMemSize bytes) the arguments themselves: the kernel's parameter slots,
// then the placeholder data that aclrtKernelArgsGetPlaceHolderBuffer hands out. Handles of
// either kind go away with their kernel's binary (aclrtBinaryUnLoad).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "acl/acl_rt.h"
#include "core/kernel.h"

namespace openacl {

// aclrtKernelArgsGetHandleMemSize: the handle memory a user-memory handle for `function` needs.
size_t KernelArgsHandleMemSize(const KernelFunction& function);
// aclrtKernelArgsGetMemSize: the argument memory needed for `user_args_size` bytes of argument
// data (CANN's sum of the parameters' sizes, each rounded up to 8).
aclError KernelArgsMemSize(const KernelFunction& function, size_t user_args_size, size_t* size);

aclError CreateKernelArgs(KernelFunction* function, aclrtArgsHandle* out);
aclError CreateKernelArgsInUserMemory(KernelFunction* function, aclrtArgsHandle handle,
                                      void* memory, size_t size);
aclError AppendKernelArg(aclrtArgsHandle handle, const void* value, size_t size,
                         aclrtParamHandle* out);
aclError AppendKernelArgPlaceholder(aclrtArgsHandle handle, aclrtParamHandle* out);
aclError KernelArgPlaceholderBuffer(aclrtArgsHandle handle, aclrtParamHandle param, size_t size,
                                    void** out);
aclError UpdateKernelArg(aclrtArgsHandle handle, aclrtParamHandle param, const void* value,
                         size_t size);
aclError FinalizeKernelArgs(aclrtArgsHandle handle);

// aclrtLaunchKernelWithConfig: launches `function` with the arguments of a finalized handle.
aclError LaunchKernelWithArgsHandle(KernelFunction* function, const LaunchOptions& options,
                                    aclrtArgsHandle handle, Stream* stream);

// Drops the argument handles built for these functions (their binary is being unloaded).
void DropKernelArgs(const std::vector<uint64_t>& function_serials);

}  // namespace openacl
