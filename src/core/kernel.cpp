#include "core/kernel.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "backend/cpu/block_threads.h"
#include "backend/cpu/executor.h"
#include "backend/cpu/parallel_for.h"
#include "backend/cpu/sync.h"
#include "core/context.h"
#include "core/device.h"
#include "core/device_variable.h"
#include "core/dump.h"
#include "core/elf_image.h"
#include "core/elf_symbols.h"
#include "core/error.h"
#include "core/exception_info.h"
#include "core/handle_table.h"
#include "core/host_mapping.h"
#include "core/kernel_args.h"
#include "core/kernel_block_writes.h"
#include "core/memory.h"
#include "core/model_ri.h"
#include "core/op_timeout.h"
#include "core/overflow.h"
#include "core/soc.h"
#include "core/stream.h"
#include "core/trace.h"

namespace openacl {
namespace {

HandleTable<KernelBinary>& Binaries() {
    static auto* table = new HandleTable<KernelBinary>;
    return *table;
}

// The registry of function handles. A handle is kTag | generation << kIndexBits | slot: the slot
// says where the function is registered, the generation which of the slot's successive
// occupants it is. An address would alias: after aclrtBinaryUnLoad the allocator hands it to
// the next function, and a stale handle would launch the wrong kernel. The tag sets high bits
// that user-space addresses leave clear, so other handles and pointers are not even looked up.
// A lookup takes no lock (one slot read), and a stale handle is told apart from a forged one
// without any record of the dead beyond each slot's last occupant's name.
class FunctionRegistry {
 public:
    aclrtFuncHandle Add(KernelFunction* function) {
        std::lock_guard lock(mutex_);
        uint32_t index;
        if (!free_.empty()) {
            index = free_.back();
            free_.pop_back();
        } else {
            index = used_.load(std::memory_order_relaxed);
            if (index == kMaxSlots) return nullptr;
            if (index % kChunkSize == 0) chunks_[index / kChunkSize].store(new Slot[kChunkSize]);
        }
        Slot& slot = At(index);
        slot.generation = (slot.generation + 1) & kGenerationMask;
        auto handle = reinterpret_cast<aclrtFuncHandle>(
            kTag | uint64_t{slot.generation} << kIndexBits | index);
        function->set_handle(handle);
        slot.function.store(function, std::memory_order_release);
        if (index == used_.load(std::memory_order_relaxed)) {
            used_.store(index + 1, std::memory_order_release);
        }
        return handle;
    }

    void Remove(KernelFunction* function) {
        std::lock_guard lock(mutex_);
        uint32_t index = Index(function->handle());
        Slot& slot = At(index);
        slot.function.store(nullptr, std::memory_order_release);
        slot.last_name = function->name();
        free_.push_back(index);
    }

    // The live function behind handle, or nullptr; *stale tells whether the handle was one whose
    // binary has since been unloaded, and *name then holds its kernel's name if still known.
    KernelFunction* Find(aclrtFuncHandle handle, bool* stale, std::string* name) {
        auto value = reinterpret_cast<uint64_t>(handle);
        if ((value & ~kValueMask) != kTag) return nullptr;
        uint32_t index = Index(handle);
        if (index >= used_.load(std::memory_order_acquire)) return nullptr;
        Slot& slot = At(index);
        KernelFunction* function = slot.function.load(std::memory_order_acquire);
        if (function != nullptr && function->handle() == handle) return function;
        // Every tagged value of a slot below used_ was handed out once (error path: may lock).
        std::lock_guard lock(mutex_);
        auto generation = static_cast<uint32_t>(value >> kIndexBits);
        if (generation == 0 || generation > slot.generation) return nullptr;  // never handed out
        *stale = true;
        if (generation == slot.generation) *name = slot.last_name;
        return nullptr;
    }

 private:
    static constexpr unsigned kIndexBits = 20;       // a million functions looked up at once
    static constexpr unsigned kGenerationBits = 32;  // reuses of a slot before a handle recurs
    static constexpr uint64_t kValueMask = (uint64_t{1} << (kIndexBits + kGenerationBits)) - 1;
    static constexpr uint64_t kTag = uint64_t{0xAC1} << (kIndexBits + kGenerationBits);
    static constexpr uint32_t kGenerationMask = ~uint32_t{0};
    static constexpr uint32_t kMaxSlots = uint32_t{1} << kIndexBits;
    static constexpr uint32_t kChunkSize = 1024;

    struct Slot {
        std::atomic<KernelFunction*> function{nullptr};
        uint32_t generation = 0;  // under mutex_
        std::string last_name;    // under mutex_: the name of the last function removed
    };
    static uint32_t Index(aclrtFuncHandle handle) {
        return static_cast<uint32_t>(reinterpret_cast<uint64_t>(handle) & (kMaxSlots - 1));
    }
    Slot& At(uint32_t index) {
        return chunks_[index / kChunkSize].load(std::memory_order_acquire)[index % kChunkSize];
    }

    std::mutex mutex_;
    std::atomic<Slot*> chunks_[kMaxSlots / kChunkSize] = {};
    std::atomic<uint32_t> used_{0};  // slots handed out so far; chunks below it exist
    std::vector<uint32_t> free_;
};

FunctionRegistry& Functions() {
    static auto* registry = new FunctionRegistry;
    return *registry;
}

HandleTable<BinaryImage>& Images() {
    static auto* table = new HandleTable<BinaryImage>;
    return *table;
}

constexpr const char* kBuildHint =
    "build kernels with the CMake function openacl_add_kernel_binary (openacl/kernel.h)";

std::string MemfdPath(int fd) {
    return "/proc/self/fd/" + std::to_string(fd);
}

// Closes the in-memory file a module was loaded from, once the module has been dlclose()d.
// dlopen() finds loaded modules by name first, so while one loaded through /proc/self/fd/N
// stays resident (dlclose does not unload a module with STB_GNU_UNIQUE symbols), fd N must stay
// open: a later binary opened through the same name would get the old module instead.
void ReleaseMemfd(int fd) {
    if (fd < 0) return;
    if (void* resident = dlopen(MemfdPath(fd).c_str(), RTLD_LAZY | RTLD_NOLOAD)) {
        dlclose(resident);
        return;  // keep fd: its name stays taken for as long as the process lives
    }
    close(fd);
}

// Why a kernel table cannot be used here (nullptr: it can). `text` holds a composed reason.
const char* TableProblem(const openaclKernelTable& table, char* text, size_t size) {
    if (table.magic != OPENACL_KERNEL_BINARY_MAGIC) return "its kernel table is damaged";
    if (table.version < OPENACL_KERNEL_BINARY_MIN_VERSION ||
        table.version > OPENACL_KERNEL_BINARY_VERSION) {
        std::snprintf(text, size,
                      "its kernel table has version %u, but this openacl reads tables of version "
                      "%u to version %u",
                      table.version, OPENACL_KERNEL_BINARY_MIN_VERSION,
                      OPENACL_KERNEL_BINARY_VERSION);
        return text;
    }
    if (table.backend == nullptr || std::strcmp(table.backend, "cpu") != 0) {
        std::snprintf(text, size, "it was built for the %s backend, not the CPU backend",
                      table.backend ? table.backend : "(unnamed)");
        return text;
    }
    if (table.kernelCount > 0 && table.kernels == nullptr) return "its kernel table has no kernels";
    return nullptr;
}

// A version-1 entry: no argsSize (padding in its place), every parameter one 8-byte slot.
struct KernelEntryV1 {
    const char* name;
    uint32_t paramCount;
    openaclKernelBlockFn run;
};

// dlopen()s a file and checks it is an openacl kernel binary for this backend. Takes `memfd`
// (the file of a binary loaded from data, -1 for none). `bytes` are the file's contents, whose
// symbol table the binary keeps (the file may change once loaded).
aclError OpenModule(const std::string& path, const std::string& origin, int memfd,
                    const void* bytes, size_t length, aclrtBinHandle* out) {
    // Two loads of one file get one link map, which the first dlopen wrote inside the loader;
    // reading its l_addr below is ordered after that write only through a lock of our own (the
    // loader's is invisible to ThreadSanitizer, which saw the race in the soak test).
    std::unique_lock load_lock(LoaderMutex());
    void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (module == nullptr) {
        const char* why = dlerror();
        ReleaseMemfd(memfd);
        return Fail(ACL_ERROR_INVALID_PARAM, "%s is not a loadable kernel binary (%s): %s",
                    origin.c_str(), why ? why : "unknown reason", kBuildHint);
    }
    auto* table =
        static_cast<const openaclKernelTable*>(dlsym(module, OPENACL_KERNEL_TABLE_SYMBOL));
    char text[160];
    const char* problem = table == nullptr ? "it has no openacl kernel table"
                                           : TableProblem(*table, text, sizeof text);
    if (problem != nullptr) {
        dlclose(module);
        ReleaseMemfd(memfd);
        return Fail(ACL_ERROR_INVALID_PARAM, "%s is not an openacl CPU kernel binary: %s; %s",
                    origin.c_str(), problem, kBuildHint);
    }
    auto binary = std::make_unique<KernelBinary>(module, table, origin, memfd);
    link_map* map = nullptr;
    uintptr_t base = 0;
    const bool mapped = dlinfo(module, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr;
    if (mapped) base = map->l_addr;
    load_lock.unlock();
    if (mapped) binary->SetModuleSymbols(ElfSymbols::Parse(bytes, length), base);
    *out = Binaries().Insert(std::move(binary));
    return ACL_SUCCESS;
}

// Loads a CUDA binary into the current device's accelerator.
aclError LoadDeviceBinary(const void* data, size_t length, const std::string& origin,
                          aclrtBinHandle* out) {
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    backend::Accelerator* accelerator = ctx->device()->accelerator();
    if (accelerator == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s is a CUDA binary (cubin, fatbin or PTX), which only the CUDA backend "
                    "runs: select it with OPENACL_BACKEND=cuda, or build the kernel for the CPU "
                    "backend with openacl_add_kernel_binary",
                    origin.c_str());
    }
    std::string why;
    void* module = accelerator->LoadModule(data, length, &why);
    if (module == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s cannot be loaded on %s: %s", origin.c_str(),
                    accelerator->name(), why.c_str());
    }
    std::vector<std::string> names = accelerator->KernelNames(module);
    std::vector<backend::DeviceKernel> kernels;
    for (const std::string& name : names) {
        backend::DeviceKernel kernel;
        if (!accelerator->GetKernel(module, name.c_str(), &kernel, &why)) {
            accelerator->UnloadModule(module);
            return Fail(ACL_ERROR_INVALID_PARAM, "%s: kernel %s cannot be found: %s",
                        origin.c_str(), name.c_str(), why.c_str());
        }
        kernels.push_back(kernel);
    }
    *out = Binaries().Insert(std::make_unique<KernelBinary>(accelerator, module, std::move(names),
                                                            std::move(kernels), origin));
    return ACL_SUCCESS;
}

// A CPU kernel binary (a shared object) cannot run on an accelerator's device memory. An
// entry-style kernel can be built for it with nvcc; an Ascend C kernel (a kernel table of an
// Ascend C library or ICPU_RUN_KF) runs on the CPU backend only: its kernel API is host code.
aclError RefuseHostBinaryOnAccelerator(const std::string& origin, bool ascendc = false) {
    Context* ctx = CurrentContext();
    if (ctx == nullptr || ctx->device()->accelerator() == nullptr) return ACL_SUCCESS;
    if (ascendc) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s: Ascend C kernels run on the CPU backend only, and the current device is "
                    "%s (CUDA backend): select the CPU backend (OPENACL_BACKEND=cpu) to run them",
                    origin.c_str(), ctx->device()->accelerator()->name());
    }
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s is a CPU kernel binary, but the current device is %s (CUDA backend): build "
                "the kernel with openacl_add_cuda_kernel_binary (nvcc) to run it there",
                origin.c_str(), ctx->device()->accelerator()->name());
}

bool LooksLikeElf(const void* data, size_t length) {
    return length >= 4 && std::memcmp(data,
                                      "\x7f"
                                      "ELF",
                                      4) == 0;
}

// The launch task's payload: everything a launch needs when its stream reaches it.
struct Launch {
    const openaclKernelEntry* entry;
    KernelBinary* binary;  // retained until the task has run or was discarded
    const void* args;
    Stream* stream;
    uint32_t num_blocks;
    uint32_t timeout_ms;  // 0: none
    uint32_t args_size;   // bytes of arguments given (the accelerator passes them all)
    bool owns_args;       // host arguments copied for this launch, freed by the task
    bool check_args;      // arguments in device memory: still allocated when the launch runs?
    bool check_overflow = false;  // the stream's overflow switch was on (core/overflow.h)
};
static_assert(sizeof(Launch) <= cpu::Task::kPayloadSize);

// How many blocks of an Ascend C kernel run at once: the chip's cores (vector cores on the
// separated architectures, AI Cores and Vector Cores on the coupled ones).
uint32_t CoResidentBlocks() {
    const SocSpec soc = CurrentSoc();
    return static_cast<uint32_t>(std::max(soc.vector_cores, soc.ai_cores));
}

cpu::TaskStatus RunLaunchBlocks(const Launch& launch);

// A kernel's tensors for a dump: the device memory each argument that holds a device address
// points at, up to the end of its allocation (kernels declare no shapes), copied now.
struct DumpedArguments {
    std::vector<std::vector<uint8_t>> bytes;
    std::vector<model::TensorView> views;
};

void CopyArgumentMemory(const Launch& launch, DumpedArguments* out) {
    const size_t slots = launch.entry->argsSize != 0 ? launch.entry->argsSize / sizeof(uint64_t)
                                                     : launch.entry->paramCount;
    std::vector<uintptr_t> seen;
    for (size_t i = 0; i < slots; ++i) {
        uintptr_t value = 0;
        std::memcpy(&value, static_cast<const uint8_t*>(launch.args) + i * sizeof value,
                    sizeof value);
        if (value == 0 || std::find(seen.begin(), seen.end(), value) != seen.end()) continue;
        const MemRegion region = ClassifyPointer(reinterpret_cast<const void*>(value));
        if (region.domain != MemDomain::kDevice || !region.readable ||
            value >= region.base + region.requested) {
            continue;
        }
        seen.push_back(value);
        const size_t size = region.base + region.requested - value;
        const auto* data = reinterpret_cast<const uint8_t*>(value);
        out->bytes.emplace_back(data, data + size);
    }
    for (const auto& bytes : out->bytes) {
        out->views.push_back(model::TensorView{
            ACL_UINT8, {static_cast<int64_t>(bytes.size())}, bytes.data(), bytes.size()});
    }
}

std::atomic<uint32_t> g_dumped_launches{0};  // task ids of kernel dump files

cpu::TaskStatus RunLaunch(const Launch& launch) {
    // Single-operator dumps ("dump_op_switch": "on"): the argument memory before and after.
    const std::shared_ptr<const dump::ModelDump> dumped =
        dump::ForOperators(launch.stream->context()->device()->id());
    DumpedArguments before;
    if (dumped) [[unlikely]]
        CopyArgumentMemory(launch, &before);
    cpu::TaskStatus status = RunLaunchBlocks(launch);
    if (dumped && !status.failed()) [[unlikely]] {
        DumpedArguments after;
        CopyArgumentMemory(launch, &after);
        dumped->WriteLayer(0, static_cast<uint32_t>(launch.stream->id()),
                           g_dumped_launches.fetch_add(1, std::memory_order_relaxed),
                           launch.entry->name, launch.entry->name, before.views, after.views);
    }
    return status;
}

cpu::TaskStatus RunLaunchBlocks(const Launch& launch) {
    size_t needed = KernelFunction::EntryArgsSize(*launch.entry);
    if (launch.check_args) {
        MemRegion region = ClassifyPointer(launch.args);
        if (!region.device_accessible() ||
            needed > region.usable - (reinterpret_cast<uintptr_t>(launch.args) - region.base)) {
            launch.stream->NoteFailure(
                "kernel %s: its argument block at %p was freed before the launch ran",
                launch.entry->name, launch.args);
            return cpu::TaskStatus::Failed(ACL_ERROR_RT_AICORE_EXCEPTION);
        }
    }
    // The blocks are spread over every idle worker of the device; the first failing block
    // leaves its message here and cancels the blocks not yet started.
    struct Blocks {
        const Launch* launch;
        std::atomic<bool> failed{false};
        std::atomic<uint32_t> raised{0};  // overflow flags of watched blocks
        char error[256] = {};
        KernelBlockWrites writes{};  // global memory Ascend C blocks wrote
    } blocks{&launch, {}, {}, {}, {}};
    auto run_block = [](const cpu::BlockContext& ctx, uint32_t block, void* arg) -> int32_t {
        auto* state = static_cast<Blocks*>(arg);
        char error[256] = {};
        const Launch& l = *state->launch;
        overflow::BlockProbe probe(l.check_overflow, &state->raised);
        KernelBlockWrites::BlockScope scope(&state->writes, block);
        if (l.entry->run(l.args, block, ctx.num_blocks(), error, sizeof error) == 0) return 0;
        if (!state->failed.exchange(true)) std::memcpy(state->error, error, sizeof error);
        return ACL_ERROR_RT_AICORE_EXCEPTION;
    };
    cpu::ParallelOptions options;
    options.timeout = std::chrono::milliseconds(launch.timeout_ms);
    cpu::Executor* executor = cpu::Executor::Current();
    // An Ascend C kernel's blocks all run at once on the chip, up to its core count, and may
    // wait for one another (SyncAll): give each its own thread. Beyond the core count the chip
    // runs them in waves, as ParallelFor does.
    const cpu::ParallelStatus status =
        launch.entry->argsSize != 0 && launch.num_blocks <= CoResidentBlocks()
            ? cpu::RunCoResident(launch.num_blocks, run_block, &blocks, options)
            : executor->ParallelFor(launch.num_blocks, run_block, &blocks, options);
    if (launch.check_overflow) overflow::Note(launch.stream, blocks.raised.load());
    if (status.failed()) {
        launch.stream->NoteFailure("kernel %s failed in block %u of %u: %s", launch.entry->name,
                                   status.block, launch.num_blocks, blocks.error);
        return cpu::TaskStatus::Failed(status.code);
    }
    if (status.timed_out()) {
        launch.stream->NoteFailure(
            "kernel %s did not finish within its %u ms timeout (%u of %u blocks had run)",
            launch.entry->name, launch.timeout_ms, status.blocks_run, launch.num_blocks);
        return cpu::TaskStatus::Failed(ACL_ERROR_RT_AICORE_TIMEOUT);
    }
    if (status.rejected()) {
        launch.stream->NoteFailure("kernel %s: internal error: launched off the device's workers",
                                   launch.entry->name);
        return cpu::TaskStatus::Failed(ACL_ERROR_RT_FAILURE);
    }
    if (const std::string overlap = blocks.writes.Overlap(); !overlap.empty()) {
        launch.stream->NoteFailure("kernel %s: %s", launch.entry->name, overlap.c_str());
        return cpu::TaskStatus::Failed(ACL_ERROR_RT_AICORE_EXCEPTION);
    }
    return cpu::TaskStatus::Done();
}

// Tells the exception callbacks (core/exception_info.h) which kernel failed, and with what.
void ReportLaunchFailure(const cpu::TaskContext& ctx, const Launch& launch, int32_t code) {
    const auto index = static_cast<uint32_t>(launch.entry - launch.binary->table()->kernels);
    const KernelFunction* function = launch.binary->FunctionAt(index);  // null once unloaded
    const exception_info::KernelFault fault{function != nullptr ? function->handle() : nullptr,
                                            const_cast<void*>(launch.args), launch.args_size,
                                            launch.binary};
    exception_info::Report(ctx, launch.stream, code, &fault);
}

// A launch on an accelerator is enqueued on the device at once: CUDA copies the argument
// values when the launch is enqueued. An argument block in device memory is read first, in
// stream order, which makes the caller wait for the stream (aclrtLaunchKernelWithHostArgs
// and aclrtLaunchKernelWithConfig do not).
aclError LaunchOnDevice(const Launch& launch) {
    backend::Accelerator* accelerator = launch.binary->accelerator();
    backend::Lane* lane = launch.stream->lane();
    std::unique_ptr<void, decltype(&std::free)> owned(
        launch.owns_args ? const_cast<void*>(launch.args) : nullptr, &std::free);
    if (lane == nullptr || launch.stream->context()->device()->accelerator() != accelerator) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "kernel %s was loaded on %s, but stream %p runs on device %d: load the "
                    "binary with that device current",
                    launch.entry->name, accelerator->name(), static_cast<void*>(launch.stream),
                    launch.stream->context()->device()->id());
    }
    void* args = const_cast<void*>(launch.args);
    std::unique_ptr<unsigned char[]> read_back;
    if (launch.check_args && launch.args_size != 0) {
        // Failures of earlier work stay for the stream's next synchronisation.
        lane->Drain(cpu::kWaitForever);
        read_back = std::make_unique<unsigned char[]>(launch.args_size);
        if (int32_t status = accelerator->CopySync(read_back.get(), args, launch.args_size)) {
            return Fail(ACL_ERROR_RT_COPY_DATA, "kernel %s: cannot read its arguments at %p: %s",
                        launch.entry->name, args, accelerator->StatusText(status).c_str());
        }
        args = read_back.get();
    }
    const backend::DeviceKernel& kernel = launch.binary->device_kernel(launch.entry);
    int32_t status = 0;
    {
        trace::Label label;
        if (trace::On()) {
            label = {trace::Kind::kKernel, launch.num_blocks, 0, nullptr,
                     trace::Intern(launch.entry->name)};
        }
        LaneTraceScope traced(launch.stream, label);
        status = lane->Launch(kernel, launch.num_blocks, args, launch.args_size);
    }
    if (status != 0) {
        return Fail(ACL_ERROR_RT_FAILURE,
                    "kernel %s (%u blocks of %u threads) cannot be launched on %s: %s",
                    launch.entry->name, launch.num_blocks, kernel.block_threads,
                    accelerator->name(), accelerator->StatusText(status).c_str());
    }
    return ACL_SUCCESS;
}

// Set while BuildLaunchTask runs: Submit hands the task and its capture record here instead.
struct TaskSink {
    cpu::Task* task;
    CaptureInfo* info;
};
thread_local TaskSink* t_sink = nullptr;

aclError Submit(const Launch& launch, KernelFunction* function, const LaunchOptions& options) {
    if (launch.binary->accelerator() != nullptr) [[unlikely]]
        return LaunchOnDevice(launch);
    launch.binary->Retain();
    Launch watched = launch;
    watched.check_overflow = overflow::Watched(*launch.stream);
    // Replayable: a captured model runs borrowed copies; the original releases the arguments
    // and the binary once, when the model goes.
    cpu::Task task = cpu::MakeTask(
        [launch = watched](cpu::TaskContext& ctx) {
            cpu::TaskStatus status = ctx.cancelled() ? cpu::TaskStatus::Done() : RunLaunch(launch);
            if (status.failed() && exception_info::g_callbacks.load() != 0) [[unlikely]]
                ReportLaunchFailure(ctx, launch, status.code);
            if (status.failed() && dump::ExceptionDumpsOn()) [[unlikely]] {
                DumpedArguments memory;
                CopyArgumentMemory(launch, &memory);
                dump::DumpFailedKernel(launch.stream->context()->device()->id(),
                                       static_cast<uint32_t>(launch.stream->id()),
                                       static_cast<uint32_t>(ctx.seq()), launch.entry->name,
                                       memory.views);
            }
            if (ctx.borrowed()) return status;
            if (launch.owns_args) std::free(const_cast<void*>(launch.args));
            launch.binary->Release();
            return status;
        },
        0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable | cpu::Task::kFusable);
    trace::Label label;
    if (trace::On()) {
        // The binary may be unloaded before the trace is written: keep a copy of the name.
        label = {trace::Kind::kKernel, launch.num_blocks, 0, nullptr,
                 trace::Intern(launch.entry->name)};
    }
    if (launch.stream->diverted() || t_sink != nullptr) [[unlikely]] {
        CaptureInfo info;
        info.type = ACL_MODEL_RI_TASK_KERNEL;
        info.func = function->handle();
        info.args = launch.args;
        info.args_size = launch.args_size;
        info.num_blocks = launch.num_blocks;
        info.host_args = launch.owns_args;
        info.launch = options;
        if (t_sink != nullptr) {
            *t_sink->task = task;
            *t_sink->info = info;
            return ACL_SUCCESS;
        }
        launch.stream->Submit(task, label, &info);
        return ACL_SUCCESS;
    }
    launch.stream->Submit(task, label);
    return ACL_SUCCESS;
}

aclError CheckLaunch(KernelFunction* function, const LaunchOptions& options, size_t args_size) {
    if (args_size > UINT32_MAX) {
        return Fail(ACL_ERROR_INVALID_PARAM, "argsSize %zu is too large for an argument block",
                    args_size);
    }
    if (options.num_blocks == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "numBlocks is 0: a launch needs at least one block");
    }
    if (function->packed()) {
        if (args_size >= function->launch_args_size()) return ACL_SUCCESS;
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "kernel %s takes a packed argument block of %zu bytes (its %u parameters) but "
                    "argsSize is %zu",
                    function->name(), function->launch_args_size(), function->param_count(),
                    args_size);
    }
    if (args_size < function->args_size()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "kernel %s takes %u parameters (%zu bytes of arguments, one %u-byte slot "
                    "each) but argsSize is %zu",
                    function->name(), function->entry()->paramCount, function->args_size(),
                    OPENACL_KERNEL_ARG_SLOT, args_size);
    }
    return ACL_SUCCESS;
}

uint32_t TimeoutMs(const LaunchOptions& options) {
    if (options.timeout_us == 0) return LaunchTimeoutMs();  // aclrtSetOpExecuteTimeOut*
    uint64_t ms = (options.timeout_us + 999) / 1000;
    return ms > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(ms);
}

}  // namespace

KernelBinary::KernelBinary(void* module, const openaclKernelTable* table, std::string origin,
                           int memfd)
    : module_(module),
      memfd_(memfd),
      table_(table),
      source_table_(table),
      origin_(std::move(origin)) {
    if (table->version >= 2) return;
    const auto* old = reinterpret_cast<const KernelEntryV1*>(table->kernels);
    for (uint32_t i = 0; i < table->kernelCount; ++i) {
        entries_.push_back({old[i].name, old[i].paramCount, 0, old[i].run});
    }
    own_table_ = *table;
    own_table_.version = OPENACL_KERNEL_BINARY_VERSION;
    own_table_.kernels = entries_.data();
    table_ = &own_table_;
}

KernelBinary::KernelBinary(backend::Accelerator* accelerator, void* device_module,
                           std::vector<std::string> names,
                           std::vector<backend::DeviceKernel> kernels, std::string origin)
    : module_(nullptr),
      memfd_(-1),
      table_(&own_table_),
      source_table_(&own_table_),
      origin_(std::move(origin)),
      accelerator_(accelerator),
      device_module_(device_module),
      names_(std::move(names)),
      device_kernels_(std::move(kernels)) {
    for (size_t i = 0; i < names_.size(); ++i) {
        // Parameters are known from the binary's metadata (0 when it says nothing, and then
        // any argument block is accepted).
        entries_.push_back({names_[i].c_str(), device_kernels_[i].param_bytes / 8, 0, nullptr});
    }
    own_table_.magic = OPENACL_KERNEL_BINARY_MAGIC;
    own_table_.version = OPENACL_KERNEL_BINARY_VERSION;
    own_table_.backend = "cuda";
    own_table_.kernelCount = static_cast<uint32_t>(entries_.size());
    own_table_.kernels = entries_.data();
}

KernelBinary::~KernelBinary() {
    if (device_module_ != nullptr) {
        // Launches already queued on the device must not lose their code.
        accelerator_->Synchronize();
        accelerator_->UnloadModule(device_module_);
    }
    if (module_ != nullptr) dlclose(module_);
    ReleaseMemfd(memfd_);
}

void KernelBinary::Release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

KernelFunction* KernelBinary::FunctionAt(uint32_t index) {
    std::lock_guard lock(functions_mutex_);
    if (unloading_ || index >= table_->kernelCount) return nullptr;
    if (functions_.empty()) functions_.resize(table_->kernelCount);
    std::unique_ptr<KernelFunction>& function = functions_[index];
    if (function == nullptr) {
        auto made = std::make_unique<KernelFunction>(this, &table_->kernels[index]);
        if (Functions().Add(made.get()) == nullptr) return nullptr;
        function = std::move(made);
    }
    return function.get();
}

KernelFunction* KernelBinary::Function(const char* name) {
    for (uint32_t i = 0; i < table_->kernelCount; ++i) {
        if (std::strcmp(table_->kernels[i].name, name) == 0) return FunctionAt(i);
    }
    return nullptr;
}

std::vector<std::unique_ptr<KernelFunction>> KernelBinary::TakeFunctions() {
    std::lock_guard lock(functions_mutex_);
    unloading_ = true;
    std::vector<std::unique_ptr<KernelFunction>> taken;
    taken.swap(functions_);
    return taken;
}

std::shared_ptr<const ElfSymbols> KernelBinary::Symbols(uintptr_t* bias, std::string* why) {
    if (accelerator_ != nullptr) {
        *why = origin_ + " is a CUDA binary, whose code lies in GPU memory";
        return nullptr;
    }
    std::lock_guard lock(symbols_mutex_);
    if (symbols_ == nullptr && module_ == nullptr) {
        // In-process: the kernels were compiled into the image that holds their table.
        LoadedObject object;
        if (!FindLoadedObject(source_table_, &object)) {
            *why = "the kernel table of " + origin_ + " lies in no loaded program or library";
            return nullptr;
        }
        symbols_ = LoadedObjectSymbols(object, why);
        bias_ = object.bias;
    }
    if (symbols_ == nullptr && why->empty())
        *why = "the symbol table of " + origin_ + " is unknown";
    *bias = bias_;
    return symbols_;
}

void KernelBinary::SetModuleSymbols(std::shared_ptr<const ElfSymbols> symbols, uintptr_t bias) {
    std::lock_guard lock(symbols_mutex_);
    symbols_ = std::move(symbols);
    bias_ = bias;
}

std::string KernelBinary::KernelNames() const {
    std::string names;
    for (uint32_t i = 0; i < table_->kernelCount; ++i) {
        if (!names.empty()) names += ", ";
        names += table_->kernels[i].name;
    }
    return names;
}

std::string KernelBinary::KernelEntries() const {
    std::string entries;
    for (uint32_t i = 0; i < table_->kernelCount; ++i) {
        if (!entries.empty()) entries += ", ";
        entries += std::to_string(i) + " " + table_->kernels[i].name;
    }
    return entries;
}

aclError LoadKernelBinaryFromFile(const char* path, aclrtBinHandle* out) {
    if (access(path, R_OK) != 0) {
        return Fail(ACL_ERROR_INVALID_FILE, "cannot read kernel binary %s: %s", path,
                    std::strerror(errno));
    }
    // A directory, FIFO or device is no file to load (and reading a FIFO would block).
    struct stat info {};
    if (stat(path, &info) != 0) {
        return Fail(ACL_ERROR_INVALID_FILE, "cannot read kernel binary %s: %s", path,
                    std::strerror(errno));
    }
    if (!S_ISREG(info.st_mode)) {
        return Fail(ACL_ERROR_INVALID_FILE, "kernel binary %s is %s, not a regular file", path,
                    S_ISDIR(info.st_mode) ? "a directory" : "a special file");
    }
    // Read whole (kernel binaries are small) so a damaged one is refused before dlopen maps it.
    std::ifstream file(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
    if (backend::IsCudaBinary(bytes.data(), bytes.size())) {
        return LoadDeviceBinary(bytes.data(), bytes.size(), path, out);
    }
    if (aclError rc = RefuseHostBinaryOnAccelerator(path)) return rc;
    if (!LooksLikeElf(bytes.data(), bytes.size())) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s is not a kernel binary (not an ELF shared object): %s", path, kBuildHint);
    }
    if (const std::string problem = ElfImageProblem(bytes.data(), bytes.size()); !problem.empty()) {
        return Fail(ACL_ERROR_INVALID_PARAM, "kernel binary %s is damaged or foreign: %s", path,
                    problem.c_str());
    }
    return OpenModule(path, path, -1, bytes.data(), bytes.size(), out);
}

aclError LoadKernelBinaryFromData(const void* data, size_t length, aclrtBinHandle* out) {
    if (aclError rc = CheckUnregisteredHostMemory("data", data, length, HostAccess::kRead)) {
        return rc;
    }
    char origin[64];
    std::snprintf(origin, sizeof origin, "kernel binary data at %p", data);
    if (backend::IsCudaBinary(data, length)) return LoadDeviceBinary(data, length, origin, out);
    if (aclError rc = RefuseHostBinaryOnAccelerator(origin)) return rc;
    if (!LooksLikeElf(data, length)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the %zu bytes at %p are not a kernel binary (not an ELF shared object): %s",
                    length, data, kBuildHint);
    }
    if (const std::string problem = ElfImageProblem(data, length); !problem.empty()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the %zu bytes at %p are a damaged or foreign kernel binary: %s", length, data,
                    problem.c_str());
    }
    // dlopen needs a file: an anonymous in-memory one leaves nothing behind on disk.
    int fd = memfd_create("openacl-kernel", MFD_CLOEXEC);
    if (fd < 0) {
        return Fail(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "cannot hold the kernel binary: %s",
                    std::strerror(errno));
    }
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (size_t done = 0; done < length;) {
        ssize_t n = write(fd, bytes + done, length - done);
        if (n <= 0) {
            close(fd);
            return Fail(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "cannot hold the kernel binary: %s",
                        std::strerror(errno));
        }
        done += static_cast<size_t>(n);
    }
    return OpenModule(MemfdPath(fd), origin, fd, data, length, out);
}

aclError RegisterKernelTable(const openaclKernelTable* table, const char* origin,
                             aclrtBinHandle* out) {
    // The tables registered so far and the handle each was registered as: a table is one
    // binary for as long as that handle is loaded.
    static auto* mutex = new std::mutex;
    static auto* handles = new std::unordered_map<const openaclKernelTable*, aclrtBinHandle>;
    std::lock_guard lock(*mutex);
    if (auto it = handles->find(table); it != handles->end()) {
        // The handle is the binary's address, which a later binary may reuse once it is unloaded.
        KernelBinary* binary = Binaries().Find(it->second);
        if (binary != nullptr && binary->source_table() == table && binary->in_process()) {
            *out = it->second;
            return ACL_SUCCESS;
        }
        handles->erase(it);
    }
    char text[160];
    const char* problem = TableProblem(*table, text, sizeof text);
    if (problem == nullptr && table->version < 2) {
        problem = "a table registered in-process must be of version 2 or later";
    }
    for (uint32_t i = 0; problem == nullptr && i < table->kernelCount; ++i) {
        if (table->kernels[i].name == nullptr || table->kernels[i].run == nullptr) {
            std::snprintf(text, sizeof text, "entry %u of its kernel table has no %s", i,
                          table->kernels[i].name == nullptr ? "name" : "block function");
            problem = text;
        }
    }
    if (problem != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s is not an openacl CPU kernel table: %s", origin,
                    problem);
    }
    if (aclError rc = RefuseHostBinaryOnAccelerator(origin, /*ascendc=*/true)) return rc;
    aclrtBinHandle handle =
        Binaries().Insert(std::make_unique<KernelBinary>(nullptr, table, origin));
    handles->emplace(table, handle);
    *out = handle;
    return ACL_SUCCESS;
}

aclError UnloadKernelBinary(aclrtBinHandle handle) {
    std::unique_ptr<KernelBinary> binary = Binaries().Remove(handle);
    if (binary == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "binHandle %p is not a loaded kernel binary (already unloaded?)", handle);
    }
    exception_info::ForgetBinary(binary.get());   // its exception callback goes with it
    device_variable::ForgetBinary(binary.get());  // its globals stop being device memory
    std::vector<uint64_t> serials;
    for (const std::unique_ptr<KernelFunction>& function : binary->TakeFunctions()) {
        if (function == nullptr) continue;
        Functions().Remove(function.get());
        serials.push_back(function->serial());
    }
    // Argument handles built for the binary's kernels go with it (CANN has no call to free
    // them, so this is where their memory comes back).
    DropKernelArgs(serials);
    binary.release()->Release();  // queued launches may still hold it
    return ACL_SUCCESS;
}

KernelBinary* ResolveKernelBinary(aclrtBinHandle handle, aclError* rc) {
    KernelBinary* binary = handle ? Binaries().Find(handle) : nullptr;
    if (binary == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "binHandle %p is not a loaded kernel binary", handle);
    }
    return binary;
}

std::vector<KernelBinary*> RetainLoadedBinaries() {
    std::vector<KernelBinary*> binaries;
    Binaries().ForEach([&](KernelBinary* binary) {
        if (binary->accelerator() != nullptr) return;
        binary->Retain();
        binaries.push_back(binary);
    });
    return binaries;
}

// On the CPU backend a kernel binary is loaded as a shared object (or its kernels were compiled
// into the program): its image is what the loader mapped, from the first byte of its first
// segment to the end of its last.
aclError GetBinaryImage(KernelBinary* binary, void** address, size_t* size) {
    if (binary->accelerator() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s is a CUDA binary: the CUDA driver does not disclose where a module lies "
                    "in GPU memory (aclrtBinaryGetDevAddress runs on the CPU backend only)",
                    binary->origin().c_str());
    }
    LoadedObject object;
    if (!FindLoadedObject(binary->source_table(), &object)) {
        return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
                    "the kernel table of %s lies in no loaded program or library",
                    binary->origin().c_str());
    }
    *address = reinterpret_cast<void*>(object.begin);
    *size = object.end - object.begin;
    return ACL_SUCCESS;
}

KernelFunction* ResolveKernelFunction(aclrtFuncHandle handle, aclError* rc) {
    bool stale = false;
    std::string name;
    KernelFunction* function = Functions().Find(handle, &stale, &name);
    if (function != nullptr) return function;
    if (stale) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "funcHandle %p%s%s%s is a function of a kernel binary that was unloaded "
                   "(aclrtBinaryUnLoad): look the kernel up again in a loaded binary",
                   handle, name.empty() ? "" : " (kernel ", name.c_str(), name.empty() ? "" : ")");
    } else {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "funcHandle %p is not a kernel function (from aclrtBinaryGetFunction of a "
                   "loaded binary)",
                   handle);
    }
    return nullptr;
}

aclError GetKernelFunction(KernelBinary* binary, const char* name, aclrtFuncHandle* out) {
    KernelFunction* function = binary->Function(name);
    if (function == nullptr) {
        return Fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND, "%s has no kernel named \"%s\" (it has: %s)",
                    binary->origin().c_str(), name, binary->KernelNames().c_str());
    }
    *out = function->handle();
    return ACL_SUCCESS;
}

// openacl's entry value of a kernel is its index in the binary's kernel table: the order of the
// kernel entries in the sources given to openacl_add_kernel_binary, from 0. It is stable for a
// given build of a binary, needs no name, and lets a program enumerate a binary's kernels
// (entries 0, 1, ... until ACL_ERROR_RT_SYMBOL_NOT_FOUND, naming each with aclrtGetFunctionName).
aclError GetKernelFunctionByEntry(KernelBinary* binary, uint64_t entry, aclrtFuncHandle* out) {
    KernelFunction* function = nullptr;
    if (entry < binary->table()->kernelCount) {
        function = binary->FunctionAt(static_cast<uint32_t>(entry));
    }
    if (function == nullptr) {
        return Fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND,
                    "%s has no kernel with entry value %" PRIu64
                    ": openacl's entry value is the kernel's index in the binary's kernel table "
                    "(valid entries: %s)",
                    binary->origin().c_str(), entry, binary->KernelEntries().c_str());
    }
    *out = function->handle();
    return ACL_SUCCESS;
}

aclError CreateBinaryImage(const void* data, size_t length, aclrtBinary* out) {
    if (aclError rc = CheckUnregisteredHostMemory("data", data, length, HostAccess::kRead)) {
        return rc;
    }
    auto image = std::make_unique<BinaryImage>();
    const auto* bytes = static_cast<const unsigned char*>(data);
    image->bytes.assign(bytes, bytes + length);
    *out = Images().Insert(std::move(image));
    return ACL_SUCCESS;
}

aclError DestroyBinaryImage(aclrtBinary handle) {
    if (Images().Remove(handle) == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "binary %p is not a live aclrtBinary", handle);
    }
    return ACL_SUCCESS;
}

BinaryImage* ResolveBinaryImage(aclrtBinary handle, aclError* rc) {
    BinaryImage* image = handle ? Images().Find(handle) : nullptr;
    if (image == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "binary %p is not a live aclrtBinary", handle);
    }
    return image;
}

aclError ApplyLaunchConfig(const aclrtLaunchKernelCfg* cfg, LaunchOptions* options) {
    if (cfg == nullptr) return ACL_SUCCESS;
    if (cfg->numAttrs > 0 && cfg->attrs == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "cfg->attrs is null but cfg->numAttrs is %zu",
                    cfg->numAttrs);
    }
    bool seconds = false, micros = false;
    for (size_t i = 0; i < cfg->numAttrs; ++i) {
        const aclrtLaunchKernelAttr& attr = cfg->attrs[i];
        switch (attr.id) {
            case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
                seconds = true;
                options->timeout_us = uint64_t{attr.value.timeout} * 1000000;
                break;
            case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
                micros = true;
                options->timeout_in_us = true;
                options->timeout_us = (uint64_t{attr.value.timeoutUs.timeoutHigh} << 32) |
                                      attr.value.timeoutUs.timeoutLow;
                break;
            // Scheduling hints for Ascend cores: nothing to do on a CPU, but a captured launch
            // reports them back.
            case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
                options->schem_mode = attr.value.schemMode;
                break;
            case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
                options->dyn_ubuf_size = attr.value.dynUBufSize;
                break;
            case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
                options->data_dump = attr.value.isDataDump;
                break;
            case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
                options->enable_profiling = attr.value.enableProfiling;
                break;
            case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
            case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
            case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
                break;
            default:
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "cfg->attrs[%zu].id %d is not an aclrtLaunchKernelAttrId", i,
                            static_cast<int>(attr.id));
        }
    }
    if (seconds && micros) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT and ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US "
                    "are mutually exclusive");
    }
    return ACL_SUCCESS;
}

aclError LaunchKernelDeviceArgs(KernelFunction* function, const LaunchOptions& options,
                                const void* args, size_t args_size, Stream* stream) {
    if (args == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "argsData is null");
    if (aclError rc = CheckLaunch(function, options, args_size)) return rc;
    MemRegion region = ClassifyPointer(args);
    if (region.domain != MemDomain::kDevice) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "argsData %p is %s, but it must be device memory (aclrtMalloc) holding the "
                    "packed arguments; for host memory use aclrtLaunchKernelWithHostArgs",
                    args, DomainName(region.domain));
    }
    Device* device = stream->context()->device();
    if (region.device != device) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "argsData %p is device memory of device %d, but the stream runs on device %d: "
                    "the argument block must be on the device that runs the launch",
                    args, region.device->id(), device->id());
    }
    uint64_t left = region.usable - (reinterpret_cast<uintptr_t>(args) - region.base);
    if (args_size > left) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "argsSize %zu runs past the end of the device allocation at %p (%" PRIu64
                    " bytes left)",
                    args_size, args, left);
    }
    return Submit(Launch{function->entry(), function->binary(), args, stream, options.num_blocks,
                         TimeoutMs(options), static_cast<uint32_t>(args_size), false, true},
                  function, options);
}

aclError LaunchKernelHostArgs(KernelFunction* function, const LaunchOptions& options,
                              const void* args, size_t args_size,
                              const aclrtPlaceHolderInfo* placeholders, size_t placeholder_count,
                              Stream* stream) {
    if (args == nullptr && args_size != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "hostArgs is null but argsSize is %zu", args_size);
    }
    if (placeholder_count > 0 && placeholders == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "placeHolderArray is null but placeHolderNum is %zu",
                    placeholder_count);
    }
    if (aclError rc = CheckLaunch(function, options, args_size)) return rc;
    if (aclError rc = CheckUnregisteredHostMemory("hostArgs", args, args_size, HostAccess::kRead)) {
        return rc;
    }
    if (placeholder_count > SIZE_MAX / sizeof(aclrtPlaceHolderInfo)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "placeHolderNum %zu is too large", placeholder_count);
    }
    if (aclError rc = CheckUnregisteredHostMemory("placeHolderArray", placeholders,
                                                  placeholder_count * sizeof(aclrtPlaceHolderInfo),
                                                  HostAccess::kRead)) {
        return rc;
    }
    // The launch owns a copy, so the caller may reuse its buffer as soon as this returns.
    auto* copy = static_cast<unsigned char*>(std::malloc(args_size == 0 ? 1 : args_size));
    if (copy == nullptr) return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory for the arguments");
    if (args_size != 0) std::memcpy(copy, args, args_size);
    for (size_t i = 0; i < placeholder_count; ++i) {
        const aclrtPlaceHolderInfo& p = placeholders[i];
        if (uint64_t{p.addrOffset} + sizeof(void*) > args_size || p.dataOffset >= args_size) {
            std::free(copy);
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "placeholder %zu (addrOffset %u, dataOffset %u) lies outside the %zu "
                        "bytes of arguments",
                        i, p.addrOffset, p.dataOffset, args_size);
        }
        void* target = copy + p.dataOffset;
        std::memcpy(copy + p.addrOffset, &target, sizeof target);
    }
    return Submit(Launch{function->entry(), function->binary(), copy, stream, options.num_blocks,
                         TimeoutMs(options), static_cast<uint32_t>(args_size), true, false},
                  function, options);
}

// slots_size: for a packed kernel, the bytes of its packed block at the start (argument handles
// lay their parameters out that way for such kernels).
aclError LaunchKernelOwnedArgs(KernelFunction* function, const LaunchOptions& options, void* block,
                               size_t slots_size, Stream* stream) {
    if (aclError rc = CheckLaunch(function, options, slots_size)) {
        std::free(block);
        return rc;
    }
    return Submit(Launch{function->entry(), function->binary(), block, stream, options.num_blocks,
                         TimeoutMs(options), static_cast<uint32_t>(slots_size), true, false},
                  function, options);
}

aclError BuildLaunchTask(KernelFunction* function, const LaunchOptions& options, const void* args,
                         size_t args_size, bool host_args, Stream* stream, cpu::Task* task,
                         CaptureInfo* info) {
    TaskSink sink{task, info};
    t_sink = &sink;
    const aclError rc =
        host_args ? LaunchKernelHostArgs(function, options, args, args_size, nullptr, 0, stream)
                  : LaunchKernelDeviceArgs(function, options, args, args_size, stream);
    t_sink = nullptr;
    return rc;
}

aclError LaunchKernelArgsArray(KernelFunction* function, const LaunchOptions& options,
                               void* const* args, Stream* stream) {
    if (function->packed()) {
        // The array gives each value's address but not its size, which a packed block needs.
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "kernel %s is an Ascend C kernel that reads one packed argument block of %zu "
                    "bytes, but aclrtLaunchKernelWithArgsArray gives no parameter sizes: launch it "
                    "with aclrtlaunch_%s (or <<<>>>), an aclrtKernelArgs* handle and "
                    "aclrtLaunchKernelWithConfig, aclrtLaunchKernelWithHostArgs or "
                    "aclrtLaunchKernel",
                    function->name(), function->launch_args_size(), function->name());
    }
    uint32_t count = function->param_count();
    if (args == nullptr && count > 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "args is null, but kernel %s takes %u parameters: pass an array of %u "
                    "pointers, each at one parameter's value",
                    function->name(), count, count);
    }
    for (uint32_t i = 0; i < count; ++i) {
        if (args[i] == nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "args[%u] is null: kernel %s takes %u parameters, and each element of "
                        "args must point at one parameter's value",
                        i, function->name(), count);
        }
    }
    auto* block = static_cast<unsigned char*>(std::malloc(count == 0 ? 1 : function->args_size()));
    if (block == nullptr) return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory for the arguments");
    // The kernel table has parameter counts, not sizes: each value is read as a full slot, of
    // which the kernel uses its parameter type's bytes (a narrower value has the bytes after it
    // read along; avoiding that needs the sizes in the table).
    for (uint32_t i = 0; i < count; ++i)
        std::memcpy(block + size_t{i} * OPENACL_KERNEL_ARG_SLOT, args[i], OPENACL_KERNEL_ARG_SLOT);
    return LaunchKernelOwnedArgs(function, options, block, function->args_size(), stream);
}

}  // namespace openacl

// The barrier of an Ascend C kernel's SyncAll (openacl/kernel_binary.h), called from kernel
// code on a co-resident block's thread.
// Each of these orders the launch's blocks: their writes to global memory are not compared.
static void NoteBlocksOrdered() {
    if (openacl::KernelBlockWrites* writes = openacl::KernelBlockWrites::Current())
        writes->NoteOrdered();
}

int openaclKernelSyncAll(uint32_t participants) {
    NoteBlocksOrdered();
    return static_cast<int>(openacl::cpu::CoResidentBarrier(participants));
}

// IBSet and IBWait of an Ascend C kernel, the same way.
int openaclKernelSetFlag(int32_t* flag, int32_t value) {
    NoteBlocksOrdered();
    return static_cast<int>(openacl::cpu::CoResidentSetFlag(flag, value));
}

int openaclKernelWaitFlag(const int32_t* flag, int32_t value) {
    NoteBlocksOrdered();
    return static_cast<int>(openacl::cpu::CoResidentWaitFlag(flag, value));
}

// CrossCoreSetFlag mode 0 and its wait.
int openaclKernelAllCoresSet(uint32_t id) {
    NoteBlocksOrdered();
    if (id >= openacl::cpu::kAllCoreFlags)
        return static_cast<int>(openacl::cpu::BarrierResult::kTooMany);
    return static_cast<int>(openacl::cpu::CoResidentAllCoresSet(id));
}

int openaclKernelAllCoresWait(uint32_t id, uint64_t taken) {
    NoteBlocksOrdered();
    if (id >= openacl::cpu::kAllCoreFlags)
        return static_cast<int>(openacl::cpu::BarrierResult::kTooMany);
    return static_cast<int>(openacl::cpu::CoResidentAllCoresWait(id, taken));
}
