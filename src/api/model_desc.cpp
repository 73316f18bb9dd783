// acl_mdl.h: model descriptions (aclmdlDesc) — inputs, outputs, sizes, dims, names, types,
// formats and dynamic gears.
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

#include "acl/acl.h"
#include "core/error.h"
#include "core/host_mapping.h"
#include "model/model.h"
#include "model/model_desc.h"

using openacl::Fail;
namespace model = openacl::model;

namespace {

std::mutex g_descs_mutex;
std::unordered_set<const aclmdlDesc*>& LiveDescs() {
    static auto* live = new std::unordered_set<const aclmdlDesc*>;
    return *live;
}

bool IsLiveDesc(const aclmdlDesc* desc) {
    std::lock_guard lock(g_descs_mutex);
    return LiveDescs().count(desc) != 0;
}

// The description behind a descriptor argument, or nullptr after recording why not.
const model::ModelDescription* Described(const aclmdlDesc* desc) {
    if (desc == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "modelDesc is null");
        return nullptr;
    }
    if (!IsLiveDesc(desc)) {
        Fail(ACL_ERROR_INVALID_PARAM, "modelDesc %p is not a live model description",
             static_cast<const void*>(desc));
        return nullptr;
    }
    if (!desc->filled) {
        Fail(ACL_ERROR_INVALID_PARAM, "modelDesc %p is empty: fill it with aclmdlGetDesc first",
             static_cast<const void*>(desc));
        return nullptr;
    }
    return &desc->description;
}

const model::IoDesc* Io(const aclmdlDesc* desc, size_t index, bool input) {
    const auto* d = Described(desc);
    if (d == nullptr) return nullptr;
    const auto& list = input ? d->inputs : d->outputs;
    if (index >= list.size()) {
        Fail(ACL_ERROR_INVALID_PARAM, "index %zu is out of range: the model has %zu %s", index,
             list.size(), input ? "inputs" : "outputs");
        return nullptr;
    }
    return &list[index];
}

aclError FillDims(const std::string& name, const std::vector<int64_t>& dims, aclmdlIODims* out) {
    if (out == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dims is null");
    if (dims.size() > ACL_MAX_DIM_CNT) {
        return Fail(ACL_ERROR_STORAGE_OVER_LIMIT, "the tensor has %zu dims, more than %d",
                    dims.size(), ACL_MAX_DIM_CNT);
    }
    std::memset(out, 0, sizeof *out);
    std::strncpy(out->name, name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
    out->dimCount = dims.size();
    for (size_t i = 0; i < dims.size(); ++i)
        out->dims[i] = dims[i];
    return ACL_SUCCESS;
}

aclError GetDims(const aclmdlDesc* desc, size_t index, aclmdlIODims* dims, bool input) {
    const auto* io = Io(desc, index, input);
    if (io == nullptr) return ACL_ERROR_INVALID_PARAM;
    return FillDims(io->name, io->dims, dims);
}

aclError IndexByName(const aclmdlDesc* desc, const char* name, size_t* index, bool input) {
    const auto* d = Described(desc);
    if (d == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (name == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "name is null");
    if (index == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "index is null");
    const auto& list = input ? d->inputs : d->outputs;
    for (size_t i = 0; i < list.size(); ++i) {
        if (list[i].name == name) {
            *index = i;
            return ACL_SUCCESS;
        }
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "the model has no %s named \"%s\"",
                input ? "input" : "output", name);
}

aclError FillFromImage(aclmdlDesc* desc, const void* data, size_t size) {
    model::ModelImage image;
    aclError rc = model::ReadModelImage(data, size, &image);
    if (rc != ACL_SUCCESS) return rc;
    desc->description = std::move(image.description);
    desc->model_id = 0;
    desc->filled = true;
    return ACL_SUCCESS;
}

}  // namespace

aclmdlDesc* aclmdlCreateDesc() {
    OPENACL_API();
    auto* desc = new (std::nothrow) aclmdlDesc;
    if (desc == nullptr) {
        Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
        return nullptr;
    }
    std::lock_guard lock(g_descs_mutex);
    LiveDescs().insert(desc);
    return desc;
}

aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc) {
    OPENACL_API();
    if (modelDesc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelDesc is null");
    {
        std::lock_guard lock(g_descs_mutex);
        if (LiveDescs().erase(modelDesc) == 0) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "modelDesc %p is not a live model description (destroyed already?)",
                        static_cast<void*>(modelDesc));
        }
    }
    delete modelDesc;
    return ACL_SUCCESS;
}

aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId) {
    OPENACL_API();
    if (modelDesc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelDesc is null");
    if (!IsLiveDesc(modelDesc)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "modelDesc %p is not a live model description",
                    static_cast<void*>(modelDesc));
    }
    auto found = model::FindModel(modelId);
    if (!found) {
        return Fail(ACL_ERROR_INVALID_MODEL_ID, "model id %u is not a loaded model", modelId);
    }
    modelDesc->description = found->description();
    modelDesc->model_id = modelId;
    modelDesc->filled = true;
    return ACL_SUCCESS;
}

aclError aclmdlGetDescFromFile(aclmdlDesc* modelDesc, const char* modelPath) {
    OPENACL_API();
    if (modelDesc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelDesc is null");
    if (modelPath == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelPath is null");
    if (!IsLiveDesc(modelDesc)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "modelDesc %p is not a live model description",
                    static_cast<void*>(modelDesc));
    }
    std::string bytes;
    aclError rc = model::ReadModelFile(modelPath, &bytes);
    if (rc != ACL_SUCCESS) return rc;
    return FillFromImage(modelDesc, bytes.data(), bytes.size());
}

aclError aclmdlGetDescFromMem(aclmdlDesc* modelDesc, const void* model, size_t modelSize) {
    OPENACL_API();
    if (modelDesc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "modelDesc is null");
    if (model == nullptr || modelSize == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "model is null or modelSize is 0");
    }
    if (!IsLiveDesc(modelDesc)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "modelDesc %p is not a live model description",
                    static_cast<void*>(modelDesc));
    }
    if (aclError rc = openacl::CheckUnregisteredHostMemory("model", model, modelSize,
                                                           openacl::HostAccess::kRead)) {
        return rc;
    }
    return FillFromImage(modelDesc, model, modelSize);
}

size_t aclmdlGetNumInputs(aclmdlDesc* modelDesc) {
    OPENACL_API();
    const auto* d = Described(modelDesc);
    return d ? d->inputs.size() : 0;
}

size_t aclmdlGetNumOutputs(aclmdlDesc* modelDesc) {
    OPENACL_API();
    const auto* d = Described(modelDesc);
    return d ? d->outputs.size() : 0;
}

size_t aclmdlGetInputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
    OPENACL_API();
    const auto* io = Io(modelDesc, index, true);
    return io ? io->size : 0;
}

size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
    OPENACL_API();
    const auto* io = Io(modelDesc, index, false);
    return io ? io->size : 0;
}

aclError aclmdlGetInputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
    OPENACL_API();
    return GetDims(modelDesc, index, dims, true);
}

// openacl applies no AIPP, so the pre-AIPP dims are the dims.
aclError aclmdlGetInputDimsV2(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
    OPENACL_API();
    return GetDims(modelDesc, index, dims, true);
}

aclError aclmdlGetOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
    OPENACL_API();
    return GetDims(modelDesc, index, dims, false);
}

aclError aclmdlGetCurOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
    OPENACL_API();
    const auto* io = Io(modelDesc, index, false);
    if (io == nullptr) return ACL_ERROR_INVALID_PARAM;
    // After an execution: what it produced; before one: the largest shape.
    std::vector<int64_t> current;
    if (modelDesc->model_id != 0) {
        if (auto found = model::FindModel(modelDesc->model_id)) {
            current = found->CurrentOutputDims(index);
        }
    }
    return FillDims(io->name, current.empty() ? io->max_dims : current, dims);
}

const char* aclmdlGetInputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
    OPENACL_API();
    const auto* io = Io(modelDesc, index, true);
    return io ? io->name.c_str() : "";
}

const char* aclmdlGetOutputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
    OPENACL_API();
    const auto* io = Io(modelDesc, index, false);
    return io ? io->name.c_str() : "";
}

aclFormat aclmdlGetInputFormat(const aclmdlDesc* modelDesc, size_t index) {
    OPENACL_API();
    const auto* io = Io(modelDesc, index, true);
    return io ? io->format : ACL_FORMAT_UNDEFINED;
}

aclFormat aclmdlGetOutputFormat(const aclmdlDesc* modelDesc, size_t index) {
    OPENACL_API();
    const auto* io = Io(modelDesc, index, false);
    return io ? io->format : ACL_FORMAT_UNDEFINED;
}

aclDataType aclmdlGetInputDataType(const aclmdlDesc* modelDesc, size_t index) {
    OPENACL_API();
    const auto* io = Io(modelDesc, index, true);
    return io ? io->type : ACL_DT_UNDEFINED;
}

aclDataType aclmdlGetOutputDataType(const aclmdlDesc* modelDesc, size_t index) {
    OPENACL_API();
    const auto* io = Io(modelDesc, index, false);
    return io ? io->type : ACL_DT_UNDEFINED;
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
    OPENACL_API();
    return IndexByName(modelDesc, name, index, true);
}

aclError aclmdlGetOutputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
    OPENACL_API();
    return IndexByName(modelDesc, name, index, false);
}

aclError aclmdlGetDynamicBatch(const aclmdlDesc* modelDesc, aclmdlBatch* batch) {
    OPENACL_API();
    const auto* d = Described(modelDesc);
    if (d == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (batch == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "batch is null");
    std::memset(batch, 0, sizeof *batch);
    batch->batchCount = d->batch_gears.size();
    for (size_t i = 0; i < d->batch_gears.size() && i < ACL_MAX_BATCH_NUM; ++i) {
        batch->batch[i] = d->batch_gears[i];
    }
    return ACL_SUCCESS;
}

// Dims gears (atc --dynamic_dims). `index` is reserved (CANN's callers pass -1): the gears are
// model-wide.
aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc* modelDesc, size_t index,
                                        size_t* gearCount) {
    OPENACL_API();
    (void)index;
    const auto* d = Described(modelDesc);
    if (d == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (gearCount == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "gearCount is null");
    *gearCount = d->dims_gears.size();
    return ACL_SUCCESS;
}

// Each gear as every graph input's dims one after the other (dimCount: their sum).
aclError aclmdlGetInputDynamicDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims,
                                   size_t gearCount) {
    OPENACL_API();
    (void)index;
    const auto* d = Described(modelDesc);
    if (d == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (dims == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dims is null");
    if (d->dims_gears.empty()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the model has no dynamic dims gears (convert it with atc --dynamic_dims)");
    }
    if (gearCount != d->dims_gears.size()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "gearCount is %zu but the model has %zu gears "
                    "(aclmdlGetInputDynamicGearCount)",
                    gearCount, d->dims_gears.size());
    }
    for (size_t g = 0; g < gearCount; ++g) {
        if (aclError rc = FillDims("", model::FlatGearDims(*d, g), &dims[g]); rc != ACL_SUCCESS) {
            return rc;
        }
    }
    return ACL_SUCCESS;
}

// Per dim of input `index`: [d, d] where it is fixed, [least, largest] over the gears where a
// gear decides it, [1, -1] where nothing bounds it.
aclError aclmdlGetInputDimsRange(const aclmdlDesc* modelDesc, size_t index,
                                 aclmdlIODimsRange* dimsRange) {
    OPENACL_API();
    const auto* io = Io(modelDesc, index, true);
    if (io == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (dimsRange == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dimsRange is null");
    const auto* d = Described(modelDesc);
    if (io->dims.size() > ACL_MAX_DIM_CNT || (io->dims.size() == 1 && io->dims[0] == -2)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "input %zu has no known rank", index);
    }
    std::vector<std::vector<int64_t>> gears;
    for (const auto& gear : d->dims_gears) {
        if (index < gear.size()) gears.push_back(gear[index]);
    }
    for (uint64_t b : d->batch_gears)
        gears.push_back(model::GearDims(*io, io->format, b, 0, 0));
    for (const auto& hw : d->hw_gears)
        gears.push_back(model::GearDims(*io, io->format, 0, hw[0], hw[1]));
    std::memset(dimsRange, 0, sizeof *dimsRange);
    dimsRange->rangeCount = io->dims.size();
    for (size_t i = 0; i < io->dims.size(); ++i) {
        int64_t lo = io->dims[i], hi = io->dims[i];
        if (lo < 0) {
            lo = 1;
            hi = -1;
            for (const auto& gear : gears) {
                if (i >= gear.size() || gear[i] < 0) continue;
                lo = hi < 0 ? gear[i] : std::min(lo, gear[i]);
                hi = std::max(hi, gear[i]);
            }
        }
        dimsRange->range[i][0] = lo;
        dimsRange->range[i][1] = hi;
    }
    return ACL_SUCCESS;
}

// openacl keeps the graph's own names: a name is its own real name when the model has it.
const char* aclmdlGetTensorRealName(const aclmdlDesc* modelDesc, const char* name) {
    OPENACL_API();
    const auto* d = Described(modelDesc);
    if (d == nullptr) return nullptr;
    if (name == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "name is null");
        return nullptr;
    }
    for (const auto* list : {&d->inputs, &d->outputs}) {
        for (const auto& io : *list) {
            if (io.name == name) return io.name.c_str();
        }
    }
    Fail(ACL_ERROR_INVALID_PARAM, "the model has no input or output named \"%s\"", name);
    return nullptr;
}

aclError aclmdlGetDynamicHW(const aclmdlDesc* modelDesc, size_t index, aclmdlHW* hw) {
    OPENACL_API();
    const auto* d = Described(modelDesc);
    if (d == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (hw == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "hw is null");
    // index is documented as "-1 (all inputs)" or an input index; the gears are model-wide.
    (void)index;
    std::memset(hw, 0, sizeof *hw);
    hw->hwCount = d->hw_gears.size();
    for (size_t i = 0; i < d->hw_gears.size() && i < ACL_MAX_HW_NUM; ++i) {
        hw->hw[i][0] = d->hw_gears[i][0];
        hw->hw[i][1] = d->hw_gears[i][1];
    }
    return ACL_SUCCESS;
}
