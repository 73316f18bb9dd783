#include "op/op_kernel.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "backend/cpu/task.h"
#include "core/context.h"
#include "core/data_buffer.h"
#include "core/device.h"
#include "core/error.h"
#include "core/kernel.h"
#include "core/live_set.h"
#include "core/memory.h"
#include "core/stream.h"
#include "model/tensor_desc.h"
#include "op/op_plan.h"

namespace openacl::op {
namespace {

// What a selector chose for one set of shapes, with the function of the kernel it named.
struct Selection {
    std::string kernel_id;
    uint32_t block_dim = 0;
    std::string tiling;
    std::vector<size_t> workspace_sizes;
    aclrtFuncHandle function = nullptr;
};

struct Registered {
    std::string name;
    aclrtFuncHandle function = nullptr;
};

// Process-wide, as in CANN: registrations outlive aclFinalize. Never destroyed (programs may
// call in from their own static destructors); the binaries stay loaded with it.
struct Registry {
    std::mutex mutex;
    std::map<std::pair<std::string, std::string>, Registered> kernels;  // (type, kernel id)
    std::map<std::string, aclopCompileFunc> selectors;
    // What the selector chose, by type and the call's DescKey (with output shapes), the most
    // recently used first; at most `capacity` (aclopSetMaxOpQueueNum, CANN's 20000 by default).
    struct Chosen {
        std::string type;
        std::shared_ptr<const Selection> selection;
    };
    std::list<std::string> order;
    std::unordered_map<std::string, std::pair<Chosen, std::list<std::string>::iterator>> selections;
    uint64_t capacity = 20000;

    static std::string Key(const std::string& type, const OpDesc& desc) {
        return type + '\0' + DescKey(desc, true);
    }
    std::shared_ptr<const Selection> Find(const OpDesc& desc) {
        auto it = selections.find(Key(desc.type, desc));
        if (it == selections.end()) return nullptr;
        order.splice(order.begin(), order, it->second.second);
        return it->second.first.selection;
    }
    void Keep(const OpDesc& desc, std::shared_ptr<const Selection> selection) {
        std::string key = Key(desc.type, desc);
        if (auto it = selections.find(key); it != selections.end()) {
            it->second.first.selection = std::move(selection);
            order.splice(order.begin(), order, it->second.second);
            return;
        }
        order.push_front(key);
        selections.emplace(std::move(key),
                           std::make_pair(Chosen{desc.type, std::move(selection)}, order.begin()));
        Trim();
    }
    void Trim() {
        while (selections.size() > capacity) {
            selections.erase(order.back());
            order.pop_back();
        }
    }
    void Forget(const std::string& type) {
        std::erase_if(selections, [&](const auto& entry) {
            if (entry.second.first.type != type) return false;
            order.erase(entry.second.second);
            return true;
        });
    }
};

Registry& TheRegistry() {
    static auto* registry = new Registry;
    return *registry;
}

// The descriptions selectors are filling now: aclopSetKernelArgs takes no other.
LiveSet<aclopKernelDesc>& FillingDescs() {
    static auto* descs = new LiveSet<aclopKernelDesc>;
    return *descs;
}

// aclopSetKernelArgs and aclopSetKernelWorkspaceSizes take only a description being filled.
aclError CheckFilling(const aclopKernelDesc* desc) {
    if (FillingDescs().Contains(desc)) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM,
                "kernelDesc %p is not one a selector is filling: use the aclopKernelDesc the "
                "selector was handed, while it runs",
                static_cast<const void*>(desc));
}

std::string KernelIds(Registry& registry, const std::string& type) {
    std::string ids;
    for (const auto& [key, kernel] : registry.kernels) {
        if (key.first != type) continue;
        ids += (ids.empty() ? "\"" : ", \"") + key.second + "\"";
    }
    return ids.empty() ? "none" : ids;
}

std::shared_ptr<const Selection> RunSelector(const KernelCall& call) {
    const std::string& type = call.desc->type;
    aclopCompileFunc selector = nullptr;
    {
        Registry& registry = TheRegistry();
        std::lock_guard lock(registry.mutex);
        if (auto it = registry.selectors.find(type); it != registry.selectors.end())
            selector = it->second;
    }
    if (selector == nullptr) {
        Throw(ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED,
              "%s has no selector: register one with aclopRegisterCompileFunc", type.c_str());
    }
    aclopKernelDesc chosen;
    FillingDescs().Add(&chosen);
    // Outside the registry's lock: the selector may call back into acl_op.h.
    const aclError rc = selector(call.num_inputs, call.input_desc, call.num_outputs,
                                 call.output_desc, call.attr, &chosen);
    FillingDescs().Remove(&chosen);
    if (rc != ACL_SUCCESS) {
        Throw(rc, "the selector of %s (aclopRegisterCompileFunc) failed with %d for %s",
              type.c_str(), static_cast<int>(rc), DescText(*call.desc).c_str());
    }
    if (!chosen.chosen) {
        Throw(ACL_ERROR_KERNEL_NOT_FOUND,
              "the selector of %s chose no kernel for %s: it must call aclopSetKernelArgs",
              type.c_str(), DescText(*call.desc).c_str());
    }
    if (chosen.block_dim == 0) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "the selector of %s chose kernel \"%s\" with blockDim 0: a kernel runs on one "
              "block at least",
              type.c_str(), chosen.kernel_id.c_str());
    }
    auto selection = std::make_shared<Selection>();
    selection->kernel_id = chosen.kernel_id;
    selection->block_dim = chosen.block_dim;
    selection->tiling = std::move(chosen.tiling);
    selection->workspace_sizes = std::move(chosen.workspace_sizes);
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    auto kernel = registry.kernels.find({type, selection->kernel_id});
    if (kernel == registry.kernels.end()) {
        Throw(ACL_ERROR_KERNEL_NOT_FOUND,
              "the selector of %s chose kernel id \"%s\", which aclopCreateKernel has not "
              "registered for %s (registered: %s)",
              type.c_str(), selection->kernel_id.c_str(), type.c_str(),
              KernelIds(registry, type).c_str());
    }
    selection->function = kernel->second.function;
    registry.Keep(*call.desc, selection);
    return selection;
}

constexpr uint64_t kWorkspaceAlign = 64;

uint64_t AlignUp(uint64_t n) {
    return (n + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign;
}

// The bytes a described tensor occupies; throws for a shape that is not static.
uint64_t BytesOf(const TensorSpec& spec, const char* what, size_t index) {
    if (!spec.is_static()) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s[%zu] is %s: a registered kernel needs the call's real shapes (it does not say "
              "its output shapes)",
              what, index, SpecText(spec).c_str());
    }
    return static_cast<uint64_t>(spec.numel()) * ElementSize(spec.dtype);
}

}  // namespace

aclError CreateKernel(const char* op_type, const char* kernel_id, const char* kernel_name,
                      void* data, int size, aclDataDeallocator deallocator) {
    // The data is the runtime's from here on: released through the deallocator once loaded
    // (the loaded binary is a copy), or refused.
    struct Release {
        void* data;
        int size;
        aclDataDeallocator deallocator;
        ~Release() {
            if (deallocator != nullptr) deallocator(data, static_cast<size_t>(std::max(size, 0)));
        }
    } release{data, size, deallocator};
    if (size <= 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "binSize is %d: it must be the binary's size in bytes",
                    size);
    }
    Registry& registry = TheRegistry();
    {
        std::lock_guard lock(registry.mutex);
        if (registry.kernels.count({op_type, kernel_id}) != 0) {
            return Fail(ACL_ERROR_KERNEL_ALREADY_REGISTERED,
                        "kernel id \"%s\" of %s is registered already", kernel_id, op_type);
        }
    }
    aclrtBinHandle binary = nullptr;
    if (aclError rc = LoadKernelBinaryFromData(data, static_cast<size_t>(size), &binary)) {
        return rc;
    }
    aclError rc = ACL_SUCCESS;
    KernelBinary* loaded = ResolveKernelBinary(binary, &rc);
    aclrtFuncHandle function = nullptr;
    if (loaded != nullptr) rc = GetKernelFunction(loaded, kernel_name, &function);
    if (rc != ACL_SUCCESS) {
        const char* why = TakeRecentErrMsg();
        const std::string reason = why != nullptr ? why : "";
        UnloadKernelBinary(binary);
        return Fail(ACL_ERROR_KERNEL_NOT_FOUND, "kernel \"%s\" of %s (id \"%s\"): %s", kernel_name,
                    op_type, kernel_id, reason.c_str());
    }
    std::lock_guard lock(registry.mutex);
    if (!registry.kernels
             .emplace(std::make_pair(op_type, kernel_id), Registered{kernel_name, function})
             .second) {
        UnloadKernelBinary(binary);  // another thread registered the same id meanwhile
        return Fail(ACL_ERROR_KERNEL_ALREADY_REGISTERED,
                    "kernel id \"%s\" of %s is registered already", kernel_id, op_type);
    }
    return ACL_SUCCESS;
}

aclError RegisterSelector(const char* op_type, aclopCompileFunc selector) {
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    if (!registry.selectors.emplace(op_type, selector).second) {
        return Fail(ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED,
                    "%s has a selector already: aclopUnregisterCompileFunc it first to change it",
                    op_type);
    }
    return ACL_SUCCESS;
}

void UnregisterSelector(const char* op_type) {
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    registry.selectors.erase(op_type);
    // What the old selector chose is the old selector's: the next call asks the new one.
    registry.Forget(op_type);
}

bool HasSelector(const std::string& op_type) {
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    return registry.selectors.count(op_type) != 0;
}

aclError SetKernelArgs(aclopKernelDesc* desc, const char* kernel_id, uint32_t block_dim,
                       const void* args, uint32_t size) {
    if (aclError rc = CheckFilling(desc)) return rc;
    desc->kernel_id = kernel_id;
    desc->block_dim = block_dim;
    desc->tiling.assign(static_cast<const char*>(args), size);
    desc->chosen = true;
    return ACL_SUCCESS;
}

aclError SetKernelWorkspaceSizes(aclopKernelDesc* desc, int count, const size_t* sizes) {
    if (aclError rc = CheckFilling(desc)) return rc;
    desc->workspace_sizes.assign(sizes, sizes + count);
    return ACL_SUCCESS;
}

void Select(const KernelCall& call) {
    RunSelector(call);
}

void SetSelectionCapacity(uint64_t capacity) {
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    registry.capacity = capacity;
    registry.Trim();
}

void LaunchSelected(const KernelCall& call, const aclDataBuffer* const* inputs,
                    const aclDataBuffer* const* outputs, aclrtStream stream) {
    const OpDesc& desc = *call.desc;
    std::shared_ptr<const Selection> selection;
    {
        Registry& registry = TheRegistry();
        std::lock_guard lock(registry.mutex);
        selection = registry.Find(desc);
    }
    if (selection == nullptr) selection = RunSelector(call);

    // Device memory of the launch: the workspaces, host-placed and constant inputs, the tiling.
    uint64_t total = 0;
    std::vector<uint64_t> workspace_at, value_at(desc.inputs.size(), 0);
    for (size_t size : selection->workspace_sizes) {
        workspace_at.push_back(total);
        total += AlignUp(size);
    }
    for (size_t i = 0; i < desc.inputs.size(); ++i) {
        const TensorSpec& spec = desc.inputs[i];
        if (spec.absent()) continue;
        const uint64_t need = BytesOf(spec, "inputDesc", i);
        if (spec.has_value) {
            value_at[i] = total;
            total += AlignUp(need);
        } else if (inputs[i]->size < need || (need > 0 && inputs[i]->data == nullptr)) {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "inputs[%zu] holds %zu bytes at %p but %s needs %" PRIu64, i, inputs[i]->size,
                  inputs[i]->data, SpecText(spec).c_str(), need);
        }
    }
    for (size_t j = 0; j < desc.outputs.size(); ++j) {
        const uint64_t need = BytesOf(desc.outputs[j], "outputDesc", j);
        if (outputs[j]->size < need || (need > 0 && outputs[j]->data == nullptr)) {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "outputs[%zu] holds %zu bytes at %p but %s needs %" PRIu64, j, outputs[j]->size,
                  outputs[j]->data, SpecText(desc.outputs[j]).c_str(), need);
        }
    }
    const uint64_t tiling_at = total;
    total += selection->tiling.size();

    aclError rc = ACL_SUCCESS;
    Stream* resolved = ResolveStream(stream, &rc);
    if (resolved == nullptr) throw OpError{rc, ""};
    if (const backend::Accelerator* accelerator = resolved->context()->device()->accelerator();
        accelerator != nullptr) {
        Throw(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
              "%s: registered kernels run on the CPU backend only (the stream's device is %s)",
              desc.type.c_str(), accelerator->name());
    }
    KernelFunction* function = ResolveKernelFunction(selection->function, &rc);
    if (function == nullptr) throw OpError{rc, ""};
    char* memory = nullptr;
    if (total > 0) {
        void* p = nullptr;
        rc = DeviceMallocIn(resolved->context(), &p, total, ACL_MEM_MALLOC_HUGE_FIRST,
                            DeviceAllocKind::kMalloc, nullptr);
        if (rc != ACL_SUCCESS) throw OpError{rc, ""};
        memory = static_cast<char*>(p);
    }
    // One pointer per input, output and workspace, then the tiling's.
    std::vector<void*> slots;
    for (size_t i = 0; i < desc.inputs.size(); ++i) {
        const TensorSpec& spec = desc.inputs[i];
        if (spec.absent()) {
            slots.push_back(nullptr);
        } else if (spec.has_value) {
            std::memcpy(memory + value_at[i], spec.value.data(), spec.value.size());
            slots.push_back(memory + value_at[i]);
        } else {
            slots.push_back(inputs[i]->data);
        }
    }
    for (size_t j = 0; j < desc.outputs.size(); ++j)
        slots.push_back(outputs[j]->data);
    for (uint64_t at : workspace_at)
        slots.push_back(memory + at);
    if (!selection->tiling.empty()) {
        std::memcpy(memory + tiling_at, selection->tiling.data(), selection->tiling.size());
        slots.push_back(memory + tiling_at);
    }
    LaunchOptions options;
    options.num_blocks = selection->block_dim;
    rc = LaunchKernelHostArgs(function, options, slots.data(), slots.size() * sizeof(void*),
                              nullptr, 0, resolved);
    if (rc != ACL_SUCCESS) {
        if (memory != nullptr) DeviceFree(memory, false);
        const char* why = TakeRecentErrMsg();
        Throw(rc, "%s: kernel \"%s\" could not be launched: %s", desc.type.c_str(),
              selection->kernel_id.c_str(), why != nullptr ? why : "");
    }
    if (memory != nullptr) {
        // The memory belongs to the launch: freed after it (or, for a captured launch, when
        // the graph that recorded it goes: a replay runs this borrowed and frees nothing).
        resolved->Submit(cpu::MakeTask(
            [memory](cpu::TaskContext& ctx) {
                if (!ctx.borrowed()) DeviceFree(memory, false);
            },
            0, cpu::Task::kCallWhenCancelled | cpu::Task::kReplayable | cpu::Task::kFusable));
    }
}

}  // namespace openacl::op
