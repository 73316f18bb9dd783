// libascendcl's side of CANN's CPU-debug host interface (tikicpulib.h): GmAlloc/GmFree, the
// kernel mode and tiling key, and ICPU_RUN_KF's launch through the runtime.
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>

#include "acl/acl.h"
#include "core/context.h"
#include "tikicpulib.h"

namespace {

std::mutex& Mutex() {
    static auto* mutex = new std::mutex;
    return *mutex;
}

// The live GmAlloc blocks, so GmFree can tell a foreign or freed pointer.
std::unordered_set<void*>& Blocks() {
    static auto* blocks = new std::unordered_set<void*>;
    return *blocks;
}

// One kernel table per kernel run through ICPU_RUN_KF (by its address and name); they live as
// long as the process, as the runtime keeps registered tables.
struct DebugKernel {
    std::string name;
    std::string origin;
    openaclKernelEntry entry{};
    openaclKernelTable table{};
};
std::map<std::pair<const void*, std::string>, std::unique_ptr<DebugKernel>>& Kernels() {
    static auto* kernels =
        new std::map<std::pair<const void*, std::string>, std::unique_ptr<DebugKernel>>;
    return *kernels;
}

std::atomic<int> g_mode{static_cast<int>(AscendC::KernelMode::MIX_MODE)};
std::atomic<uint64_t> g_tiling_key{0};

const DebugKernel& Register(const char* name, const void* kernel, openaclKernelBlockFn run,
                            uint32_t param_count, size_t args_size) {
    std::lock_guard lock(Mutex());
    std::unique_ptr<DebugKernel>& slot = Kernels()[{kernel, name}];
    if (slot == nullptr) {
        slot = std::make_unique<DebugKernel>();
        slot->name = name;
        slot->origin = "ICPU_RUN_KF's kernel " + slot->name;
        slot->entry = {slot->name.c_str(), param_count, static_cast<uint32_t>(args_size), run};
        slot->table = {OPENACL_KERNEL_BINARY_MAGIC, OPENACL_KERNEL_BINARY_VERSION, "cpu", 1,
                       &slot->entry};
    }
    return *slot;
}

// The recent error message, printed for the programmer (CANN's CPU debug prints its failures).
int Report(const char* what, aclError rc) {
    const char* message = aclGetRecentErrMsg();
    std::fprintf(stderr, "[ERROR] %s failed (error %d): %s\n", what, static_cast<int>(rc),
                 message != nullptr && *message != '\0' ? message : "no further detail");
    return static_cast<int>(rc);
}

}  // namespace

extern "C" {

void* openaclCpuDebugGmAlloc(size_t size) {
    if (size == 0) {
        std::fprintf(stderr, "[ERROR] GmAlloc(0): ask for at least one byte\n");
        return nullptr;
    }
    void* ptr = nullptr;
    if (aclError rc = aclrtMallocHost(&ptr, size); rc != ACL_SUCCESS) {
        char what[64];
        std::snprintf(what, sizeof what, "GmAlloc(%zu)", size);
        Report(what, rc);
        return nullptr;
    }
    std::lock_guard lock(Mutex());
    Blocks().insert(ptr);
    return ptr;
}

int openaclCpuDebugGmFree(void* ptr) {
    if (ptr == nullptr) return 0;
    {
        std::lock_guard lock(Mutex());
        if (Blocks().erase(ptr) == 0) {
            std::fprintf(stderr,
                         "[ERROR] GmFree(%p): the pointer is not a block from GmAlloc, or it was "
                         "freed already; nothing freed\n",
                         ptr);
            return static_cast<int>(ACL_ERROR_INVALID_PARAM);
        }
    }
    if (aclError rc = aclrtFreeHost(ptr); rc != ACL_SUCCESS) {
        char what[64];
        std::snprintf(what, sizeof what, "GmFree(%p)", ptr);
        return Report(what, rc);
    }
    return 0;
}

void openaclCpuDebugSetKernelMode(int mode) {
    if (mode < static_cast<int>(AscendC::KernelMode::MIX_MODE) ||
        mode > static_cast<int>(AscendC::KernelMode::MIX_MODE_1_1)) {
        std::fprintf(stderr,
                     "[ERROR] SetKernelMode(%d): not a KernelMode (MIX_MODE, AIC_MODE, AIV_MODE, "
                     "MIX_MODE_1_1); the mode stays as it was\n",
                     mode);
        return;
    }
    g_mode.store(mode, std::memory_order_relaxed);
}

int openaclCpuDebugKernelMode(void) {
    return g_mode.load(std::memory_order_relaxed);
}

void openaclCpuDebugSetTilingKey(uint64_t key) {
    if (key == 0) {
        std::fprintf(stderr,
                     "[WARNING] ICPU_SET_TILING_KEY(0): tiling key 0 selects no TILING_KEY_IS "
                     "branch but key 0's; set the key the kernel tests\n");
    }
    g_tiling_key.store(key, std::memory_order_relaxed);
}

uint64_t openaclCpuDebugTilingKey(void) {
    return g_tiling_key.load(std::memory_order_relaxed);
}

int openaclCpuDebugRun(const char* name, const void* kernel, openaclKernelBlockFn run,
                       uint32_t paramCount, uint32_t numBlocks, const void* args, size_t argsSize) {
    if (name == nullptr) name = "(unnamed kernel)";
    char what[160];
    std::snprintf(what, sizeof what, "ICPU_RUN_KF(%s, %" PRIu32 " blocks)", name, numBlocks);
    if (kernel == nullptr || run == nullptr) {
        std::fprintf(stderr, "[ERROR] %s: the kernel is a null function pointer\n", what);
        return static_cast<int>(ACL_ERROR_INVALID_PARAM);
    }
    // A program of CANN's CPU-debug mode sets no device: run on device 0 then, as the NPU
    // program's aclrtSetDevice(0) would. A program that set one keeps its own.
    if (openacl::CurrentContext() == nullptr) {
        if (aclError rc = aclrtSetDevice(0); rc != ACL_SUCCESS) return Report(what, rc);
    }
    const DebugKernel& debug = Register(name, kernel, run, paramCount, argsSize);
    // A stream of its own: the wait and the failure it reports are this launch's only.
    aclrtStream stream = nullptr;
    if (aclError rc = aclrtCreateStream(&stream); rc != ACL_SUCCESS) return Report(what, rc);
    aclError rc = static_cast<aclError>(openaclLaunchKernelTable("ICPU_RUN_KF", &debug.table,
                                                                 debug.origin.c_str(), 0, numBlocks,
                                                                 stream, args, argsSize, nullptr));
    if (rc == ACL_SUCCESS) rc = aclrtSynchronizeStream(stream);
    int result = rc == ACL_SUCCESS ? 0 : Report(what, rc);
    aclrtDestroyStream(stream);
    return result;
}

}  // extern "C"
