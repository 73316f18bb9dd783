// Kernels a program registers for a single operator, CANN's dynamic-shape path of acl_op.h:
// aclopCreateKernel keeps a kernel binary under (operator type, kernel id), and
// aclopRegisterCompileFunc gives the operator type a selector: a callback that, for the shapes
// of a call, picks one of those kernels with its block count and tiling bytes
// (aclopSetKernelArgs) and workspace sizes (aclopSetKernelWorkspaceSizes) on the
// aclopKernelDesc it is handed. aclopUpdateParams runs the selector for a set of shapes;
// executing an operator type that has a selector (aclopExecuteV2, aclopCompileAndExecute[V2])
// launches the kernel it picked for the call's shapes, running it first when they are new.
//
// On openacl the binary is an openacl kernel binary (what aclrtBinaryLoadFromData takes) and
// the kernel is called as an Ascend C kernel is: one pointer per input (null for an absent
// optional one), per output and per workspace, then one to the tiling bytes in device memory
// (left out when the selector set none). Such a type needs no single-operator model: the
// program said what runs it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_op.h"
#include "op/op_desc.h"

// What a selector fills in (opaque to programs).
struct aclopKernelDesc {
    std::string kernel_id;
    uint32_t block_dim = 0;
    std::string tiling;  // the bytes aclopSetKernelArgs gave
    std::vector<size_t> workspace_sizes;
    bool chosen = false;  // aclopSetKernelArgs was called
};

namespace openacl::op {

// aclopCreateKernel (arguments checked for null by the caller). The deallocator, when given,
// is called before this returns, whatever the outcome: the binary is loaded from a copy.
aclError CreateKernel(const char* op_type, const char* kernel_id, const char* kernel_name,
                      void* data, int size, aclDataDeallocator deallocator);
// aclopRegisterCompileFunc / aclopUnregisterCompileFunc (unregistering an operator type that
// has no selector succeeds; its cached selections go with it).
aclError RegisterSelector(const char* op_type, aclopCompileFunc selector);
void UnregisterSelector(const char* op_type);
bool HasSelector(const std::string& op_type);
// aclopSetKernelArgs / aclopSetKernelWorkspaceSizes on a description a selector was handed.
aclError SetKernelArgs(aclopKernelDesc* desc, const char* kernel_id, uint32_t block_dim,
                       const void* args, uint32_t size);
aclError SetKernelWorkspaceSizes(aclopKernelDesc* desc, int count, const size_t* sizes);

// A call of an operator type with a selector, as the API received it.
struct KernelCall {
    const OpDesc* desc;  // the same call by value (its cache key)
    int num_inputs;
    const aclTensorDesc* const* input_desc;
    int num_outputs;
    const aclTensorDesc* const* output_desc;
    const aclopAttr* attr;
};

// Runs the selector for the call's shapes and keeps what it chose (aclopUpdateParams). Throws
// OpError: a selector that fails or chooses nothing, or a kernel id never registered.
void Select(const KernelCall& call);
// Launches the kernel chosen for the call's shapes (choosing it first when they are new) on
// `stream` with these buffers. Throws OpError.
void LaunchSelected(const KernelCall& call, const aclDataBuffer* const* inputs,
                    const aclDataBuffer* const* outputs, aclrtStream stream);
// aclopSetMaxOpQueueNum: how many choices are kept (the least recently used go first).
void SetSelectionCapacity(uint64_t capacity);

}  // namespace openacl::op
