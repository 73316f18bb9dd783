// acl_mdl.h: loading, unloading and executing models, and choosing dynamic gears.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_set>

#include "acl/acl.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/host_mapping.h"
#include "core/memory.h"
#include "core/prof_subscribe.h"
#include "core/stream.h"
#include "model/dataset.h"
#include "model/model.h"

using openacl::CheckUnregisteredHostMemory;
using openacl::Fail;
using openacl::HostAccess;
namespace model = openacl::model;

namespace {

// Writes host bytes into device memory. On an accelerator (CUDA) the host cannot reach memory
// from aclrtMalloc, so the accelerator copies them; on the CPU backend the host writes.
aclError WriteDevice(void* dst, const void* src, size_t size) {
    openacl::MemRegion region = openacl::ClassifyPointer(dst);
    openacl::backend::Accelerator* accelerator =
        region.device != nullptr ? region.device->accelerator() : nullptr;
    if (accelerator == nullptr) {
        std::memcpy(dst, src, size);
        return ACL_SUCCESS;
    }
    if (int32_t status = accelerator->CopySync(dst, src, size); status != 0) {
        return Fail(ACL_ERROR_RT_COPY_DATA, "writing %zu bytes to %p on %s failed: %s", size, dst,
                    accelerator->name(), accelerator->StatusText(status).c_str());
    }
    return ACL_SUCCESS;
}

// Loads a model image into the current context. weight/work: caller-provided device memory,
// or null for runtime-managed memory.
aclError LoadUnguarded(const void* data, size_t size, uint32_t* model_id, void* work,
                       size_t work_size, void* weight, size_t weight_size,
                       const std::string& file_stem);

// A hostile model may declare tensors too large to allocate: that is an error, not a crash.
aclError Load(const void* data, size_t size, uint32_t* model_id, void* work, size_t work_size,
              void* weight, size_t weight_size, const std::string& file_stem) {
    try {
        return LoadUnguarded(data, size, model_id, work, work_size, weight, weight_size, file_stem);
    } catch (const std::bad_alloc&) {
        return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory while loading the model");
    }
}

aclError LoadUnguarded(const void* data, size_t size, uint32_t* model_id, void* work,
                       size_t work_size, void* weight, size_t weight_size,
                       const std::string& file_stem) {
    aclError rc = ACL_SUCCESS;
    openacl::Context* ctx = openacl::RequireContext(&rc);
    if (ctx == nullptr) return rc;
    model::ModelImage image;
    rc = model::ReadModelImage(data, size, &image);
    image.file_stem = file_stem;
    if (rc != ACL_SUCCESS) return rc;
    size_t need_work = 0, need_weight = 0;
    model::QueryModelSize(image, &need_work, &need_weight);
    auto check_user_memory = [&](void* ptr, size_t given, size_t needed, const char* what) {
        if (ptr == nullptr) return ACL_SUCCESS;
        if (given < needed) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%sSize is %zu bytes but the model needs %zu (see aclmdlQuerySize)", what,
                        given, needed);
        }
        openacl::MemRegion region = openacl::ClassifyPointer(ptr);
        uint64_t offset = reinterpret_cast<uintptr_t>(ptr) - region.base;
        if (region.domain != openacl::MemDomain::kDevice || region.device != ctx->device() ||
            given > region.usable - offset) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%sPtr %p is not %zu bytes of device memory of the current device "
                        "(allocate it with aclrtMalloc)",
                        what, ptr, given);
        }
        return ACL_SUCCESS;
    };
    if ((rc = check_user_memory(work, work_size, need_work, "work")) != ACL_SUCCESS) return rc;
    if ((rc = check_user_memory(weight, weight_size, need_weight, "weight")) != ACL_SUCCESS) {
        return rc;
    }
    bool owns_work = work == nullptr, owns_weight = weight == nullptr;
    if (owns_weight) {
        rc = openacl::DeviceMalloc(&weight, need_weight, ACL_MEM_MALLOC_HUGE_FIRST,
                                   openacl::DeviceAllocKind::kModel, __builtin_return_address(0));
        if (rc != ACL_SUCCESS) return rc;
    }
    if (owns_work) {
        rc = openacl::DeviceMalloc(&work, need_work, ACL_MEM_MALLOC_HUGE_FIRST,
                                   openacl::DeviceAllocKind::kModel, __builtin_return_address(0));
        if (rc != ACL_SUCCESS) {
            if (owns_weight) openacl::DeviceFree(weight, false);
            return rc;
        }
    }
    // The weight memory is reserved, not written: the engines compute from weights of their
    // own in host memory, so a copy of the graph there would be one more copy of the weights.
    auto loaded = std::make_shared<model::Model>(model::NextModelId(), std::move(image), ctx,
                                                 weight, owns_weight, work, owns_work);
    rc = loaded->Start();
    if (rc != ACL_SUCCESS) return rc;
    *model_id = loaded->id();
    model::RegisterModel(std::move(loaded));
    return ACL_SUCCESS;
}

aclError LoadFile(const char* path, uint32_t* model_id, void* work, size_t work_size, void* weight,
                  size_t weight_size) {
    if (path == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelPath is null");
    if (model_id == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelId is null");
    std::string bytes;
    aclError rc = model::ReadModelFile(path, &bytes);
    if (rc != ACL_SUCCESS) return rc;
    return Load(bytes.data(), bytes.size(), model_id, work, work_size, weight, weight_size,
                std::filesystem::path(path).stem().string());
}

aclError LoadMem(const void* data, size_t size, uint32_t* model_id, void* work, size_t work_size,
                 void* weight, size_t weight_size) {
    if (data == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "model is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "modelSize is 0");
    if (model_id == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelId is null");
    if (aclError rc = CheckUnregisteredHostMemory("model", data, size, HostAccess::kRead)) {
        return rc;
    }
    return Load(data, size, model_id, work, work_size, weight, weight_size, std::string());
}

std::shared_ptr<model::Model> Find(uint32_t model_id) {
    auto found = model::FindModel(model_id);
    if (!found) {
        Fail(ACL_ERROR_INVALID_MODEL_ID,
             "model id %u is not a loaded model (unloaded already, or never loaded)", model_id);
    }
    return found;
}

aclError CheckDatasets(const aclmdlDataset* input, const aclmdlDataset* output) {
    if (input == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "input dataset is null");
    if (output == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "output dataset is null");
    if (!model::IsLiveDataset(input)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "input %p is not a live dataset",
                    static_cast<const void*>(input));
    }
    if (!model::IsLiveDataset(output)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "output %p is not a live dataset",
                    static_cast<const void*>(output));
    }
    return ACL_SUCCESS;
}

aclError Execute(uint32_t model_id, const aclmdlDataset* input, aclmdlDataset* output) {
    model::DrainDeferredReleases();
    aclError rc = CheckDatasets(input, output);
    if (rc != ACL_SUCCESS) return rc;
    auto found = Find(model_id);
    if (!found) return ACL_ERROR_INVALID_MODEL_ID;
    model::ExecRequest request;
    rc = found->Prepare(input, output, false, &request);
    if (rc != ACL_SUCCESS) return rc;
    std::string error;
    const bool ran = found->device()->accelerator() != nullptr
                         ? found->RunStaged(request, &error, &rc)
                         : found->Run(request, false, &error, &rc);
    if (!ran) {
        return Fail(rc, "model %u execution failed: %s", model_id, error.c_str());
    }
    return ACL_SUCCESS;
}

aclError ExecuteAsync(uint32_t model_id, const aclmdlDataset* input, aclmdlDataset* output,
                      aclrtStream stream) {
    model::DrainDeferredReleases();
    aclError rc = CheckDatasets(input, output);
    if (rc != ACL_SUCCESS) return rc;
    auto found = Find(model_id);
    if (!found) return ACL_ERROR_INVALID_MODEL_ID;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    model::ExecRequest request;
    rc = found->Prepare(input, output, true, &request);
    if (rc != ACL_SUCCESS) return rc;
    return model::SubmitExecution(std::move(found), std::move(request), resolved);
}

}  // namespace

aclError aclmdlLoadFromFile(const char* modelPath, uint32_t* modelId) {
    OPENACL_API();
    return LoadFile(modelPath, modelId, nullptr, 0, nullptr, 0);
}

aclError aclmdlLoadFromMem(const void* model, size_t modelSize, uint32_t* modelId) {
    OPENACL_API();
    return LoadMem(model, modelSize, modelId, nullptr, 0, nullptr, 0);
}

aclError aclmdlLoadFromFileWithMem(const char* modelPath, uint32_t* modelId, void* workPtr,
                                   size_t workSize, void* weightPtr, size_t weightSize) {
    OPENACL_API();
    return LoadFile(modelPath, modelId, workPtr, workSize, weightPtr, weightSize);
}

aclError aclmdlLoadFromMemWithMem(const void* model, size_t modelSize, uint32_t* modelId,
                                  void* workPtr, size_t workSize, void* weightPtr,
                                  size_t weightSize) {
    OPENACL_API();
    return LoadMem(model, modelSize, modelId, workPtr, workSize, weightPtr, weightSize);
}

aclError aclmdlUnload(uint32_t modelId) {
    OPENACL_API();
    model::DrainDeferredReleases();
    auto removed = model::RemoveModel(modelId);
    if (!removed) {
        return Fail(ACL_ERROR_INVALID_MODEL_ID,
                    "model id %u is not a loaded model (unloaded already, or never loaded)",
                    modelId);
    }
    // A subscription ends with its model (ids are never reused, so it could only leak).
    if (openacl::prof::SubscriptionOf(modelId)) openacl::prof::Unsubscribe(modelId);
    // Executions still queued hold their own reference; the model goes when the last ends.
    return ACL_SUCCESS;
}

aclError aclmdlQuerySize(const char* fileName, size_t* workSize, size_t* weightSize) {
    OPENACL_API();
    if (fileName == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "fileName is null");
    if (workSize == nullptr && weightSize == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "workSize and weightSize are both null");
    }
    std::string bytes;
    aclError rc = model::ReadModelFile(fileName, &bytes);
    if (rc != ACL_SUCCESS) return rc;
    model::ModelImage image;
    rc = model::ReadModelImage(bytes.data(), bytes.size(), &image);
    if (rc != ACL_SUCCESS) return rc;
    model::QueryModelSize(image, workSize, weightSize);
    return ACL_SUCCESS;
}

aclError aclmdlQuerySizeFromMem(const void* model, size_t modelSize, size_t* workSize,
                                size_t* weightSize) {
    OPENACL_API();
    if (model == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "model is null");
    if (modelSize == 0) return Fail(ACL_ERROR_INVALID_PARAM, "modelSize is 0");
    if (workSize == nullptr && weightSize == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "workSize and weightSize are both null");
    }
    if (aclError rc = CheckUnregisteredHostMemory("model", model, modelSize, HostAccess::kRead)) {
        return rc;
    }
    model::ModelImage image;
    aclError rc = model::ReadModelImage(model, modelSize, &image);
    if (rc != ACL_SUCCESS) return rc;
    model::QueryModelSize(image, workSize, weightSize);
    return ACL_SUCCESS;
}

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output) {
    OPENACL_API();
    return Execute(modelId, input, output);
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output,
                            aclrtStream stream) {
    OPENACL_API();
    return ExecuteAsync(modelId, input, output, stream);
}

namespace {

// Finds the dynamic tensor input a aclmdlSetDynamic* call names and checks the dataset.
aclError CheckDynamicTarget(uint32_t model_id, const aclmdlDataset* dataset, size_t index,
                            std::shared_ptr<model::Model>* out) {
    if (dataset == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dataset is null");
    if (!model::IsLiveDataset(dataset)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dataset %p is not a live dataset",
                    static_cast<const void*>(dataset));
    }
    auto found = Find(model_id);
    if (!found) return ACL_ERROR_INVALID_MODEL_ID;
    const auto& inputs = found->description().inputs;
    if (index >= inputs.size() || !inputs[index].dynamic_tensor) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "index %zu is not the model's %s input: find it with "
                    "aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &index)",
                    index, ACL_DYNAMIC_TENSOR_NAME);
    }
    *out = std::move(found);
    return ACL_SUCCESS;
}

// Also writes the choice into the dynamic tensor's device buffer when it has one, as the
// device runtime does.
void WriteDynamicTensor(aclmdlDataset* dataset, size_t index, const int64_t* values, size_t count) {
    if (index >= dataset->buffers.size()) return;
    aclDataBuffer* buffer = dataset->buffers[index];
    if (!openacl::IsLiveDataBuffer(buffer) || buffer->data == nullptr ||
        buffer->size < count * sizeof(int64_t)) {
        return;
    }
    openacl::MemRegion region = openacl::ClassifyPointer(buffer->data);
    if (region.domain != openacl::MemDomain::kDevice) return;
    WriteDevice(buffer->data, values, count * sizeof(int64_t));
}

}  // namespace

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                   uint64_t batchSize) {
    OPENACL_API();
    std::shared_ptr<model::Model> found;
    aclError rc = CheckDynamicTarget(modelId, dataset, index, &found);
    if (rc != ACL_SUCCESS) return rc;
    const auto& gears = found->description().batch_gears;
    if (gears.empty()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "model %u has no dynamic batch sizes (convert it with atc "
                    "--dynamic_batch_size)",
                    modelId);
    }
    if (std::find(gears.begin(), gears.end(), batchSize) == gears.end()) {
        std::string list;
        for (uint64_t g : gears)
            list += (list.empty() ? "" : ", ") + std::to_string(g);
        return Fail(ACL_ERROR_INVALID_PARAM, "batch size %lu is not one of model %u's gears (%s)",
                    static_cast<unsigned long>(batchSize), modelId, list.c_str());
    }
    dataset->dynamic_batch = batchSize;
    int64_t value = static_cast<int64_t>(batchSize);
    WriteDynamicTensor(dataset, index, &value, 1);
    return ACL_SUCCESS;
}

aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                   const aclmdlIODims* dims) {
    OPENACL_API();
    std::shared_ptr<model::Model> found;
    aclError rc = CheckDynamicTarget(modelId, dataset, index, &found);
    if (rc != ACL_SUCCESS) return rc;
    if (dims == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dims is null");
    const auto& gears = found->description().dims_gears;
    if (gears.empty()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "model %u has no dynamic dims gears (convert it with atc --dynamic_dims)",
                    modelId);
    }
    // The gear is named by every graph input's dims one after the other, as
    // aclmdlGetInputDynamicDims lists them.
    if (dims->dimCount > ACL_MAX_DIM_CNT) {
        return Fail(ACL_ERROR_INVALID_PARAM, "dims->dimCount %zu is more than %d", dims->dimCount,
                    ACL_MAX_DIM_CNT);
    }
    const std::vector<int64_t> given(dims->dims, dims->dims + dims->dimCount);
    for (size_t g = 0; g < gears.size(); ++g) {
        if (model::FlatGearDims(found->description(), g) != given) continue;
        // The dynamic tensor holds the gear's values of the -1 dims.
        std::vector<int64_t> values;
        const auto& inputs = found->description().inputs;
        for (size_t i = 0; i < gears[g].size(); ++i) {
            for (size_t k = 0; k < gears[g][i].size(); ++k) {
                if (inputs[i].dims[k] == -1) values.push_back(gears[g][i][k]);
            }
        }
        dataset->dynamic_dims_gear = static_cast<int64_t>(g);
        WriteDynamicTensor(dataset, index, values.data(), values.size());
        return ACL_SUCCESS;
    }
    std::string text;
    for (int64_t v : given)
        text += (text.empty() ? "" : ",") + std::to_string(v);
    return Fail(ACL_ERROR_INVALID_PARAM,
                "dims (%s) are not one of model %u's %zu gears: pass a gear as "
                "aclmdlGetInputDynamicDims lists it",
                text.c_str(), modelId, gears.size());
}

aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                uint64_t height, uint64_t width) {
    OPENACL_API();
    std::shared_ptr<model::Model> found;
    aclError rc = CheckDynamicTarget(modelId, dataset, index, &found);
    if (rc != ACL_SUCCESS) return rc;
    const auto& gears = found->description().hw_gears;
    if (gears.empty()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "model %u has no dynamic image sizes (convert it with atc "
                    "--dynamic_image_size)",
                    modelId);
    }
    bool known = std::any_of(gears.begin(), gears.end(),
                             [&](const auto& g) { return g[0] == height && g[1] == width; });
    if (!known) {
        std::string list;
        for (const auto& g : gears) {
            list += (list.empty() ? "" : "; ") + std::to_string(g[0]) + "," + std::to_string(g[1]);
        }
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "image size %lux%lu is not one of model %u's gears (%s)",
                    static_cast<unsigned long>(height), static_cast<unsigned long>(width), modelId,
                    list.c_str());
    }
    dataset->dynamic_height = height;
    dataset->dynamic_width = width;
    int64_t values[2] = {static_cast<int64_t>(height), static_cast<int64_t>(width)};
    WriteDynamicTensor(dataset, index, values, 2);
    return ACL_SUCCESS;
}

// ---- Load configuration (aclmdlLoadWithConfig) ----

struct aclmdlConfigHandle {
    int32_t priority = 0;
    size_t load_type = 0;  // ACL_MDL_LOAD_FROM_*; 0 = not set
    const char* path = nullptr;
    const void* mem = nullptr;
    size_t mem_size = 0;
    void* weight = nullptr;
    size_t weight_size = 0;
    void* work = nullptr;
    size_t work_size = 0;
};

namespace {

std::mutex g_configs_mutex;
std::unordered_set<const aclmdlConfigHandle*>& LiveConfigs() {
    static auto* live = new std::unordered_set<const aclmdlConfigHandle*>;
    return *live;
}

bool IsLiveConfig(const aclmdlConfigHandle* handle) {
    std::lock_guard lock(g_configs_mutex);
    return LiveConfigs().count(handle) != 0;
}

template <typename T>
aclError ReadOption(const void* value, size_t size, const char* attr, T* out) {
    if (size != sizeof(T)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s takes a value of %zu bytes, not %zu", attr,
                    sizeof(T), size);
    }
    std::memcpy(out, value, sizeof(T));
    return ACL_SUCCESS;
}

}  // namespace

aclmdlConfigHandle* aclmdlCreateConfigHandle() {
    OPENACL_API();
    auto* handle = new (std::nothrow) aclmdlConfigHandle;
    if (handle == nullptr) {
        Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
        return nullptr;
    }
    std::lock_guard lock(g_configs_mutex);
    LiveConfigs().insert(handle);
    return handle;
}

aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle* handle) {
    OPENACL_API();
    if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
    {
        std::lock_guard lock(g_configs_mutex);
        if (LiveConfigs().erase(handle) == 0) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "handle %p is not a live load configuration (destroyed already?)",
                        static_cast<void*>(handle));
        }
    }
    delete handle;
    return ACL_SUCCESS;
}

aclError aclmdlSetConfigOpt(aclmdlConfigHandle* handle, aclmdlConfigAttr attr,
                            const void* attrValue, size_t valueSize) {
    OPENACL_API();
    if (handle == nullptr || !IsLiveConfig(handle)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "handle %p is not a live load configuration",
                    static_cast<void*>(handle));
    }
    if (attrValue == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "attrValue is null");
    switch (attr) {
        case ACL_MDL_PRIORITY_INT32:
            return ReadOption(attrValue, valueSize, "ACL_MDL_PRIORITY_INT32", &handle->priority);
        case ACL_MDL_LOAD_TYPE_SIZET: {
            size_t type = 0;
            aclError rc = ReadOption(attrValue, valueSize, "ACL_MDL_LOAD_TYPE_SIZET", &type);
            if (rc != ACL_SUCCESS) return rc;
            if (type < ACL_MDL_LOAD_FROM_FILE || type > ACL_MDL_LOAD_FROM_MEM_WITH_Q) {
                return Fail(ACL_ERROR_INVALID_PARAM, "load type %zu is not an ACL_MDL_LOAD_* value",
                            type);
            }
            handle->load_type = type;
            return ACL_SUCCESS;
        }
        case ACL_MDL_PATH_PTR:
            return ReadOption(attrValue, valueSize, "ACL_MDL_PATH_PTR", &handle->path);
        case ACL_MDL_MEM_ADDR_PTR:
            return ReadOption(attrValue, valueSize, "ACL_MDL_MEM_ADDR_PTR", &handle->mem);
        case ACL_MDL_MEM_SIZET:
            return ReadOption(attrValue, valueSize, "ACL_MDL_MEM_SIZET", &handle->mem_size);
        case ACL_MDL_WEIGHT_ADDR_PTR:
            return ReadOption(attrValue, valueSize, "ACL_MDL_WEIGHT_ADDR_PTR", &handle->weight);
        case ACL_MDL_WEIGHT_SIZET:
            return ReadOption(attrValue, valueSize, "ACL_MDL_WEIGHT_SIZET", &handle->weight_size);
        case ACL_MDL_WORKSPACE_ADDR_PTR:
            return ReadOption(attrValue, valueSize, "ACL_MDL_WORKSPACE_ADDR_PTR", &handle->work);
        case ACL_MDL_WORKSPACE_SIZET:
            return ReadOption(attrValue, valueSize, "ACL_MDL_WORKSPACE_SIZET", &handle->work_size);
        default:
            if (static_cast<int>(attr) < 0 ||
                static_cast<int>(attr) > static_cast<int>(ACL_NPU_PERF_MODE)) {
                return Fail(ACL_ERROR_INVALID_PARAM,
                            "load option %d is not an aclmdlConfigAttr value (0 to %d)",
                            static_cast<int>(attr), static_cast<int>(ACL_NPU_PERF_MODE));
            }
            return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "load option %d is not supported by openacl (supported: priority, load "
                        "type, path, memory address/size, weight and workspace address/size)",
                        static_cast<int>(attr));
    }
}

aclError aclmdlLoadWithConfig(const aclmdlConfigHandle* handle, uint32_t* modelId) {
    OPENACL_API();
    if (handle == nullptr || !IsLiveConfig(handle)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "handle %p is not a live load configuration",
                    static_cast<const void*>(handle));
    }
    switch (handle->load_type) {
        case ACL_MDL_LOAD_FROM_FILE:
            return LoadFile(handle->path, modelId, nullptr, 0, nullptr, 0);
        case ACL_MDL_LOAD_FROM_FILE_WITH_MEM:
            return LoadFile(handle->path, modelId, handle->work, handle->work_size, handle->weight,
                            handle->weight_size);
        case ACL_MDL_LOAD_FROM_MEM:
            return LoadMem(handle->mem, handle->mem_size, modelId, nullptr, 0, nullptr, 0);
        case ACL_MDL_LOAD_FROM_MEM_WITH_MEM:
            return LoadMem(handle->mem, handle->mem_size, modelId, handle->work, handle->work_size,
                           handle->weight, handle->weight_size);
        case 0:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "the configuration has no load type: set ACL_MDL_LOAD_TYPE_SIZET");
        default:
            return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "queue-fed models (ACL_MDL_LOAD_FROM_*_WITH_Q) are not supported by "
                        "openacl");
    }
}
