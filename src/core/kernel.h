// Kernel binaries and launches. A kernel binary is a shared object built by
// openacl_add_kernel_binary, which exports a table of its kernels (openacl/kernel_binary.h), or
// a table an Ascend C library's launch stubs register from the program's own image
// (openaclRegisterKernelTable). A launch is one task on its stream that runs numBlocks blocks
// and completes when all have.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "backend/accelerator.h"
#include "backend/cpu/task.h"
#include "openacl/kernel_binary.h"

namespace openacl {

class Stream;
class KernelFunction;
class ElfSymbols;
struct CaptureInfo;

// aclrtCreateBinary: a kernel image held in host memory until it is loaded.
struct BinaryImage {
    std::vector<unsigned char> bytes;
};

// A loaded kernel binary (aclrtBinHandle). Reference counted: queued launches keep the code
// loaded after aclrtBinaryUnLoad until they have run.
class KernelBinary {
 public:
    // memfd: the in-memory file a binary loaded from data was opened through (-1: none); the
    // binary owns it, so its /proc/self/fd name is not reused while the module is loaded.
    // module: the dlopen() handle, or nullptr for a table registered from the program's own
    // image (nothing to dlclose). A version-1 table is read into a table of the current version.
    KernelBinary(void* module, const openaclKernelTable* table, std::string origin, int memfd = -1);
    // A binary loaded into an accelerator (a CUDA cubin, fatbin or PTX): `names` are its
    // kernels, `kernels` what the device needs to launch each (same order).
    KernelBinary(backend::Accelerator* accelerator, void* device_module,
                 std::vector<std::string> names, std::vector<backend::DeviceKernel> kernels,
                 std::string origin);
    ~KernelBinary();
    // A table registered from the program's own image (no module).
    bool in_process() const { return module_ == nullptr && accelerator_ == nullptr; }
    // nullptr for a CPU kernel binary.
    backend::Accelerator* accelerator() const { return accelerator_; }
    // The device kernel behind one of this binary's entries (accelerator binaries only).
    const backend::DeviceKernel& device_kernel(const openaclKernelEntry* entry) const {
        return device_kernels_[static_cast<size_t>(entry - table_->kernels)];
    }
    void Retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
    void Release();

    const std::string& origin() const { return origin_; }
    const openaclKernelTable* table() const { return table_; }
    // The table this binary was made from (differs from table() for a version-1 table).
    const openaclKernelTable* source_table() const { return source_table_; }
    // The function of the kernel at `index` in the table (registered on first use), or nullptr
    // if there is none or the binary is being unloaded.
    KernelFunction* FunctionAt(uint32_t index);
    // The function of the kernel named `name`, or nullptr.
    KernelFunction* Function(const char* name);
    std::string KernelNames() const;
    // Lists "index name" pairs, for messages about entry values.
    std::string KernelEntries() const;
    // Hands the functions over for unregistering (aclrtBinaryUnLoad); later lookups find none.
    std::vector<std::unique_ptr<KernelFunction>> TakeFunctions();

    // The symbol table of the image the kernels' code lies in, and the bias its values are
    // offset by in memory: the loaded shared object's (read from the bytes it was loaded from),
    // or, for a table registered in-process, the program's or library's that holds the table.
    // nullptr, with the reason in *why, for a CUDA binary or an image without a readable file.
    std::shared_ptr<const ElfSymbols> Symbols(uintptr_t* bias, std::string* why);
    // A loaded shared object's symbols, from the bytes it was loaded from.
    void SetModuleSymbols(std::shared_ptr<const ElfSymbols> symbols, uintptr_t bias);

 private:
    void* module_;
    int memfd_;
    const openaclKernelTable* table_;
    const openaclKernelTable* source_table_;
    std::string origin_;
    std::atomic<uint32_t> refs_{1};
    std::mutex functions_mutex_;
    std::vector<std::unique_ptr<KernelFunction>> functions_;  // by table index, made on first use
    bool unloading_ = false;
    std::mutex symbols_mutex_;
    std::shared_ptr<const ElfSymbols> symbols_;  // read on first use for an in-process table
    uintptr_t bias_ = 0;
    // Accelerator binaries: the device module, and the table built for its kernels.
    backend::Accelerator* accelerator_ = nullptr;
    void* device_module_ = nullptr;
    std::vector<std::string> names_;
    std::vector<openaclKernelEntry> entries_;
    std::vector<backend::DeviceKernel> device_kernels_;
    openaclKernelTable own_table_{};
};

// aclrtFuncHandle. The handle is not the object's address but a value the function registry
// hands out (see kernel.cpp), so a handle kept past its binary's unload never names another
// function and is reported as what it is.
class KernelFunction {
 public:
    KernelFunction(KernelBinary* binary, const openaclKernelEntry* entry)
        : binary_(binary), entry_(entry), serial_(next_serial_.fetch_add(1) + 1) {}
    KernelBinary* binary() const { return binary_; }
    aclrtFuncHandle handle() const { return handle_; }
    void set_handle(aclrtFuncHandle handle) { handle_ = handle; }
    // Unique for the life of the process: argument handles remember their function by it.
    uint64_t serial() const { return serial_; }
    const openaclKernelEntry* entry() const { return entry_; }
    const char* name() const { return entry_->name; }
    uint32_t param_count() const { return entry_->paramCount; }
    // Whether the kernel reads one packed argument block (an Ascend C library's kernel) rather
    // than one 8-byte slot per parameter.
    bool packed() const { return entry_->argsSize != 0; }
    // The bytes of one 8-byte slot per parameter (how aclrtKernelArgs* build arguments).
    size_t args_size() const { return size_t{entry_->paramCount} * OPENACL_KERNEL_ARG_SLOT; }
    // The bytes of arguments a launch must give: the packed block, or the slots.
    size_t launch_args_size() const { return EntryArgsSize(*entry_); }
    static size_t EntryArgsSize(const openaclKernelEntry& entry) {
        return entry.argsSize != 0 ? entry.argsSize
                                   : size_t{entry.paramCount} * OPENACL_KERNEL_ARG_SLOT;
    }

 private:
    KernelBinary* binary_;
    const openaclKernelEntry* entry_;
    aclrtFuncHandle handle_ = nullptr;
    uint64_t serial_;
    static inline std::atomic<uint64_t> next_serial_{0};
};

// Loading and lookup (argument checks done by the caller).
aclError LoadKernelBinaryFromFile(const char* path, aclrtBinHandle* out);
aclError LoadKernelBinaryFromData(const void* data, size_t length, aclrtBinHandle* out);
// openaclRegisterKernelTable: the table lives in the program's own image.
aclError RegisterKernelTable(const openaclKernelTable* table, const char* origin,
                             aclrtBinHandle* out);
aclError UnloadKernelBinary(aclrtBinHandle handle);
KernelBinary* ResolveKernelBinary(aclrtBinHandle handle, aclError* rc);
// Every loaded CPU kernel binary, each retained (the caller releases them).
std::vector<KernelBinary*> RetainLoadedBinaries();
// aclrtBinaryGetDevAddress: where the binary's image lies in memory, and its size.
aclError GetBinaryImage(KernelBinary* binary, void** address, size_t* size);
KernelFunction* ResolveKernelFunction(aclrtFuncHandle handle, aclError* rc);
aclError GetKernelFunction(KernelBinary* binary, const char* name, aclrtFuncHandle* out);
// aclrtBinaryGetFunctionByEntry: the entry value of a kernel is its index in the binary's kernel
// table (see kernel.cpp).
aclError GetKernelFunctionByEntry(KernelBinary* binary, uint64_t entry, aclrtFuncHandle* out);
aclError CreateBinaryImage(const void* data, size_t length, aclrtBinary* out);
aclError DestroyBinaryImage(aclrtBinary handle);
BinaryImage* ResolveBinaryImage(aclrtBinary handle, aclError* rc);

// What a launch needs besides its function and stream.
struct LaunchOptions {
    uint32_t num_blocks = 0;
    uint64_t timeout_us = 0;  // 0: none
    // Hints for Ascend cores, kept only so that a captured launch can report them
    // (aclmdlRIKernelTaskGetAttribute).
    bool timeout_in_us = false;  // given as ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US
    uint8_t schem_mode = 0;
    uint8_t data_dump = 0;
    uint8_t enable_profiling = 0;
    uint32_t dyn_ubuf_size = 0;
};

// Launches with the argument block in device memory (aclrtLaunchKernel, aclrtLaunchKernelV2):
// the arguments are read when the launch runs, as on hardware.
aclError LaunchKernelDeviceArgs(KernelFunction* function, const LaunchOptions& options,
                                const void* args, size_t args_size, Stream* stream);
// Launches with arguments from host memory, copied now (aclrtLaunchKernelWithHostArgs,
// aclrtLaunchKernelWithConfig). Placeholders point argument slots at data inside the block.
aclError LaunchKernelHostArgs(KernelFunction* function, const LaunchOptions& options,
                              const void* args, size_t args_size,
                              const aclrtPlaceHolderInfo* placeholders, size_t placeholder_count,
                              Stream* stream);
// Launches with one pointer per parameter, each pointing at the parameter's value in host
// memory (aclrtLaunchKernelWithArgsArray): the values are copied now, one 8-byte slot each.
aclError LaunchKernelArgsArray(KernelFunction* function, const LaunchOptions& options,
                               void* const* args, Stream* stream);
// Launches with an argument block built in host memory for this launch (std::malloc), whose
// ownership passes to the launch whatever the outcome. slots_size: the bytes of parameter slots
// at its start (the rest is data they point at), checked against the kernel's parameters (a
// packed kernel's block is checked against its packed size).
aclError LaunchKernelOwnedArgs(KernelFunction* function, const LaunchOptions& options, void* block,
                               size_t slots_size, Stream* stream);
// Builds the task (and what a capture records of it) that a launch on `stream` would submit,
// without submitting it: aclmdlRITaskSetParams replaces a captured launch with it. Host
// arguments are copied as for a launch; the task owns them.
aclError BuildLaunchTask(KernelFunction* function, const LaunchOptions& options, const void* args,
                         size_t args_size, bool host_args, Stream* stream, cpu::Task* task,
                         CaptureInfo* info);
// Reads the launch attributes of a config (timeout; others have no meaning on a CPU).
aclError ApplyLaunchConfig(const aclrtLaunchKernelCfg* cfg, LaunchOptions* options);

}  // namespace openacl
