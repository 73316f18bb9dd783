#include "core/label.h"

#include <memory>
#include <mutex>
#include <unordered_map>

#include "core/context.h"
#include "core/error.h"
#include "core/model_ri.h"
#include "core/stream.h"

namespace openacl {
namespace {

// CANN's limit on the labels of a process.
constexpr size_t kMaxLabels = 65535;

std::mutex g_mutex;
std::unordered_map<const void*, std::unique_ptr<Label>>& Labels() {
    static auto* labels = new std::unordered_map<const void*, std::unique_ptr<Label>>;
    return *labels;
}
std::unordered_map<const void*, std::unique_ptr<LabelList>>& Lists() {
    static auto* lists = new std::unordered_map<const void*, std::unique_ptr<LabelList>>;
    return *lists;
}

}  // namespace

aclError CreateLabel(Label** out) {
    aclError rc = ACL_SUCCESS;
    Context* context = RequireContext(&rc);
    if (context == nullptr) return rc;
    std::lock_guard lock(g_mutex);
    if (Labels().size() >= kMaxLabels) {
        return Fail(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
                    "this process already holds %zu labels, CANN's limit: destroy some first",
                    kMaxLabels);
    }
    auto label = std::make_unique<Label>();
    label->context = context;
    *out = label.get();
    Labels().emplace(label.get(), std::move(label));
    return ACL_SUCCESS;
}

aclError DestroyLabel(Label* label) {
    std::lock_guard lock(g_mutex);
    Labels().erase(label);
    return ACL_SUCCESS;
}

aclError SetLabel(Label* label, Stream* stream) {
    if (label->context != stream->context()) {
        return Fail(ACL_ERROR_RT_LABEL_CONTEXT,
                    "label %p was made in another context than stream %p's: labels and the "
                    "streams they mark belong to one context",
                    static_cast<void*>(label), static_cast<void*>(stream));
    }
    ModelRI* model = stream->capture();
    if (model == nullptr || model->captured) {
        return Fail(ACL_ERROR_RT_STREAM_MODEL,
                    "stream %p is not bound to a model being built: labels mark the streams of "
                    "aclmdlRIBuildBegin models (aclmdlRIBindStream)",
                    static_cast<void*>(stream));
    }
    std::lock_guard model_lock(model->mutex);
    std::lock_guard lock(g_mutex);
    if (label->model != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "label %p is already set (each label marks one place)",
                    static_cast<void*>(label));
    }
    label->model = model;
    label->stream = ModelStreamIndex(model, stream);
    label->position = model->per_stream_count[label->stream];
    return ACL_SUCCESS;
}

aclError CreateLabelList(Label* const* labels, size_t count, LabelList** out) {
    auto list = std::make_unique<LabelList>();
    list->labels.assign(labels, labels + count);
    std::lock_guard lock(g_mutex);
    *out = list.get();
    Lists().emplace(list.get(), std::move(list));
    return ACL_SUCCESS;
}

aclError DestroyLabelList(LabelList* list) {
    std::lock_guard lock(g_mutex);
    Lists().erase(list);
    return ACL_SUCCESS;
}

Label* ResolveLabel(aclrtLabel handle, aclError* rc) {
    if (handle == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "label is null");
        return nullptr;
    }
    std::lock_guard lock(g_mutex);
    auto it = Labels().find(handle);
    if (it == Labels().end()) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM,
                   "label %p is not a live label (aclrtCreateLabel makes them)", handle);
        return nullptr;
    }
    return it->second.get();
}

LabelList* ResolveLabelList(aclrtLabelList handle, aclError* rc) {
    if (handle == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "labelList is null");
        return nullptr;
    }
    std::lock_guard lock(g_mutex);
    auto it = Lists().find(handle);
    if (it == Lists().end()) {
        *rc =
            Fail(ACL_ERROR_INVALID_PARAM,
                 "labelList %p is not a live label list (aclrtCreateLabelList makes them)", handle);
        return nullptr;
    }
    return it->second.get();
}

bool LabelTarget(const Label* label, const ModelRI* model, uint32_t* stream, uint32_t* position) {
    std::lock_guard lock(g_mutex);
    if (Labels().find(label) == Labels().end() || label->model != model) return false;
    *stream = label->stream;
    *position = label->position;
    return true;
}

}  // namespace openacl
