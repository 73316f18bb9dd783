// What a kernel function (aclrtFuncHandle) tells about itself: its code, its parameters, its
// attributes; and finding a kernel by its function's address (aclrtGetFuncBySymbol). On the
// CPU backend a kernel's code is its own function in the host image its binary came from, so
// the symbol table of that image answers (core/elf_symbols.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_rt.h"

namespace openacl {

class KernelFunction;

// Where a kernel's code starts and how many bytes it has (its ELF symbol's size).
struct KernelCode {
    void* address = nullptr;
    uint64_t size = 0;
};

// The kind of core openacl runs every kernel's blocks as: vector cores on the chips whose cube
// and vector units are separate cores (A2, 950), AI Cores on the others. aclrtGetFunctionAddr
// and aclrtGetFunctionSize answer in that core's slot.
aclrtKernelType KernelType();

aclError GetKernelCode(KernelFunction* function, KernelCode* out);
aclError GetKernelAttribute(KernelFunction* function, aclrtFuncAttribute attribute, int64_t* value);
aclError GetKernelParamCount(KernelFunction* function, size_t* count);
aclError GetKernelParamInfo(KernelFunction* function, size_t index, size_t* offset, size_t* size);
// The kernel whose function starts at `symbol`: a kernel of a loaded kernel binary, or of an
// Ascend C library compiled into the program (whose table is registered on first use).
aclError GetKernelBySymbol(const void* symbol, aclrtFuncHandle* out);

}  // namespace openacl
