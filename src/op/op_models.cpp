#include "op/op_models.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "op/op_model_file.h"
#include "op/op_plan.h"

namespace openacl::op {
namespace {

namespace fs = std::filesystem;

struct Model {
    OpDesc desc;
    std::string source;  // the file, "aclopLoad" or "aclopCompile"
};

struct Store {
    std::mutex mutex;
    bool dir_set = false;
    // Every model by type, for the matching that ranges and tolerances need.
    std::unordered_map<std::string, std::vector<std::shared_ptr<const Model>>> loaded;
    std::unordered_map<std::string, std::vector<std::shared_ptr<const Model>>> compiled;
    // By DescKey (with output shapes): a call with the same key matches at once. Loaded models
    // with static shapes, and every compiled one (least recently used last in `order`).
    std::unordered_map<std::string, std::shared_ptr<const Model>> loaded_exact;
    struct Compiled {
        std::shared_ptr<const Model> model;
        std::list<std::string>::iterator position;
    };
    std::unordered_map<std::string, Compiled> compiled_exact;
    std::list<std::string> order;
    uint64_t capacity = 20000;
    size_t loaded_count = 0;

    void Trim() {
        while (compiled_exact.size() > capacity && !order.empty()) {
            auto it = compiled_exact.find(order.back());
            order.pop_back();
            if (it == compiled_exact.end()) continue;
            auto& list = compiled[it->second.model->desc.type];
            list.erase(std::remove(list.begin(), list.end(), it->second.model), list.end());
            compiled_exact.erase(it);
        }
    }
};

Store& TheStore() {
    static auto* store = new Store;  // never destroyed: calls may come during exit
    return *store;
}

// Whether a call's tensor fits a model's; if not, *why says how.
bool SpecMatches(const TensorSpec& model, const TensorSpec& call, bool output, std::string* why) {
    auto differ = [why](std::string text) {
        *why = std::move(text);
        return false;
    };
    if (model.absent() || call.absent()) {
        if (model.absent() == call.absent()) return true;
        return differ(model.absent() ? "the model has no tensor here" : "the model has one here");
    }
    if (model.dtype != call.dtype) return differ("the data type differs");
    if (model.format != call.format) return differ("the format differs");
    if (model.dims.size() == 1 && model.dims[0] == kUnknownRankDim) return true;
    if (model.dims.size() != call.dims.size()) return differ("the rank differs");
    for (size_t d = 0; d < model.dims.size(); ++d) {
        const int64_t want = model.dims[d], got = call.dims[d];
        if (want >= 0) {
            if (want != got) return differ("dimension " + std::to_string(d) + " differs");
            continue;
        }
        if (output || d >= model.shape_range.size()) continue;  // outputs may give a max shape
        const auto& range = model.shape_range[d];
        if (got < range[0] || (range[1] != -1 && got > range[1])) {
            return differ("dimension " + std::to_string(d) + " (" + std::to_string(got) +
                          ") is outside the model's range [" + std::to_string(range[0]) + ", " +
                          std::to_string(range[1]) + "]");
        }
    }
    if (!output && model.is_const && !model.const_data.empty()) {
        if (!call.has_value || call.value != model.const_data) {
            return differ("the model fixes this input's constant value, the call's differs");
        }
    }
    return true;
}

bool Matches(const OpDesc& model, const OpDesc& call, std::string* why) {
    if (model.inputs.size() != call.inputs.size()) {
        *why = "the model has " + std::to_string(model.inputs.size()) + " inputs";
        return false;
    }
    if (model.outputs.size() != call.outputs.size()) {
        *why = "the model has " + std::to_string(model.outputs.size()) + " outputs";
        return false;
    }
    std::string detail;
    for (size_t i = 0; i < model.inputs.size(); ++i) {
        if (!SpecMatches(model.inputs[i], call.inputs[i], false, &detail)) {
            *why = "input " + std::to_string(i) + ": " + detail + " (the model's is " +
                   SpecText(model.inputs[i]) + ")";
            return false;
        }
    }
    for (size_t j = 0; j < model.outputs.size(); ++j) {
        if (!SpecMatches(model.outputs[j], call.outputs[j], true, &detail)) {
            *why = "output " + std::to_string(j) + ": " + detail + " (the model's is " +
                   SpecText(model.outputs[j]) + ")";
            return false;
        }
    }
    if (!aclopAttr::Matches(&model.attr, &call.attr)) {
        *why = "the attributes differ (the model's are " + model.attr.Text() + ")";
        return false;
    }
    return true;
}

bool IsStatic(const OpDesc& desc) {
    for (const auto* list : {&desc.inputs, &desc.outputs}) {
        for (const TensorSpec& t : *list) {
            if (!t.absent() && !t.is_static()) return false;
        }
    }
    return true;
}

// Loading the same model twice keeps one.
bool AddLoaded(Store& store, OpDesc desc, std::string source) {
    auto& list = store.loaded[desc.type];
    const std::string key = DescKey(desc, true);
    for (const auto& model : list) {
        if (DescKey(model->desc, true) == key) return false;
    }
    auto model = std::make_shared<const Model>(Model{std::move(desc), std::move(source)});
    list.push_back(model);
    if (IsStatic(model->desc)) store.loaded_exact.emplace(key, model);
    ++store.loaded_count;
    return true;
}

std::string ReadAll(const fs::path& path, bool* ok) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    *ok = in.good() || in.eof();
    return bytes;
}

}  // namespace

size_t LoadModelDir(const char* dir) {
    char resolved[PATH_MAX];
    if (::realpath(dir, resolved) == nullptr) {
        Throw(ACL_ERROR_READ_MODEL_FAILURE, "modelDir \"%s\" cannot be read: %s", dir,
              std::strerror(errno));
    }
    std::error_code ec;
    if (!fs::is_directory(resolved, ec)) {
        Throw(ACL_ERROR_READ_MODEL_FAILURE, "modelDir \"%s\" is not a directory", dir);
    }
    Store& store = TheStore();
    std::lock_guard<std::mutex> lock(store.mutex);
    if (store.dir_set) {
        Throw(ACL_ERROR_REPEAT_INITIALIZE,
              "a model directory was set already: aclopSetModelDir works once per process "
              "(load more models with aclopLoad)");
    }
    // The directory and two levels below it, in a stable order.
    std::vector<fs::path> files;
    std::vector<std::pair<fs::path, int>> pending = {{fs::path(resolved), 0}};
    while (!pending.empty()) {
        auto [path, depth] = pending.back();
        pending.pop_back();
        std::vector<fs::path> entries;
        for (fs::directory_iterator it(path, fs::directory_options::skip_permission_denied, ec),
             end;
             !ec && it != end; it.increment(ec)) {
            entries.push_back(it->path());
        }
        if (ec && depth == 0) {
            Throw(ACL_ERROR_READ_MODEL_FAILURE, "modelDir \"%s\" cannot be listed: %s", dir,
                  ec.message().c_str());
        }
        ec.clear();
        std::sort(entries.begin(), entries.end());
        for (const fs::path& entry : entries) {
            if (fs::is_directory(entry, ec)) {
                if (depth < 2) pending.push_back({entry, depth + 1});
            } else if (entry.extension() == ".om" && fs::is_regular_file(entry, ec)) {
                files.push_back(entry);
            }
            ec.clear();
        }
    }
    std::sort(files.begin(), files.end());
    size_t loaded = 0;
    for (const fs::path& file : files) {
        bool ok = false;
        const std::string bytes = ReadAll(file, &ok);
        OpModelSpec spec;
        std::string error;
        if (!ok) {
            Warn("skipping %s: it cannot be read", file.c_str());
        } else if (!IsOpModel(bytes.data(), bytes.size())) {
            Warn(
                "skipping %s: it is not a single-operator model of openacl's atc "
                "(atc --singleop); network models load with aclmdlLoadFromFile",
                file.c_str());
        } else if (!ParseOpModel(bytes.data(), bytes.size(), &spec, &error)) {
            Warn("skipping %s: %s", file.c_str(), error.c_str());
        } else if (AddLoaded(store, std::move(spec.desc), file.string())) {
            ++loaded;
        }
    }
    store.dir_set = true;
    return loaded;
}

void LoadModel(const void* data, size_t size) {
    if (!IsOpModel(data, size)) {
        const bool network = size >= 8 && std::memcmp(data, "OACL-OM", 7) == 0;
        const bool cann = size >= 4 && std::memcmp(data, "IMOD", 4) == 0;
        Throw(ACL_ERROR_PARSE_MODEL, "the %zu bytes are not a single-operator model%s", size,
              network ? ": they are a network model (load it with aclmdlLoadFromMem)"
              : cann  ? ": they are a CANN model compiled for an Ascend chip; build the model "
                        "with openacl's atc --singleop"
                      : " (atc --singleop writes them)");
    }
    OpModelSpec spec;
    std::string error;
    if (!ParseOpModel(data, size, &spec, &error)) {
        Throw(ACL_ERROR_PARSE_MODEL, "the single-operator model cannot be read: %s", error.c_str());
    }
    Store& store = TheStore();
    std::lock_guard<std::mutex> lock(store.mutex);
    AddLoaded(store, std::move(spec.desc), "aclopLoad");
}

void AddCompiledModel(const OpDesc& desc) {
    const std::string key = DescKey(desc, true);
    Store& store = TheStore();
    std::lock_guard<std::mutex> lock(store.mutex);
    auto it = store.compiled_exact.find(key);
    if (it != store.compiled_exact.end()) {
        store.order.splice(store.order.begin(), store.order, it->second.position);
        return;
    }
    auto model = std::make_shared<const Model>(Model{desc, "aclopCompile"});
    store.compiled[desc.type].push_back(model);
    store.order.push_front(key);
    store.compiled_exact.emplace(key, Store::Compiled{model, store.order.begin()});
    store.Trim();
}

namespace {

// With the store locked.
bool HasModelLocked(Store& store, const OpDesc& call) {
    const std::string key = DescKey(call, true);
    if (store.loaded_exact.count(key) != 0) return true;
    if (auto it = store.compiled_exact.find(key); it != store.compiled_exact.end()) {
        store.order.splice(store.order.begin(), store.order, it->second.position);
        return true;
    }
    std::string why;
    for (auto* map : {&store.loaded, &store.compiled}) {
        auto it = map->find(call.type);
        if (it == map->end()) continue;
        for (const auto& model : it->second) {
            if (Matches(model->desc, call, &why)) return true;
        }
    }
    return false;
}

}  // namespace

bool HasModel(const OpDesc& call) {
    Store& store = TheStore();
    std::lock_guard<std::mutex> lock(store.mutex);
    return HasModelLocked(store, call);
}

void RequireModel(const OpDesc& call) {
    Store& store = TheStore();
    std::lock_guard<std::mutex> lock(store.mutex);
    if (HasModelLocked(store, call)) return;
    size_t same_type = 0;
    std::string nearest;
    for (auto* map : {&store.loaded, &store.compiled}) {
        auto it = map->find(call.type);
        if (it == map->end()) continue;
        for (const auto& model : it->second) {
            std::string why;
            Matches(model->desc, call, &why);
            if (same_type++ == 0) {
                nearest = "; the first, from " + model->source + ", differs: " + why;
            }
        }
    }
    Throw(ACL_ERROR_OP_NOT_FOUND,
          "no single-operator model matches %s: %zu models loaded, %zu of type %s%s (check op "
          "type, number of inputs and outputs, format, dtype, memtype, attr, dim range); the "
          "call is %s",
          call.type.c_str(), store.loaded_count, same_type, call.type.c_str(), nearest.c_str(),
          DescText(call).c_str());
}

void SetCompiledModelCapacity(uint64_t capacity) {
    Store& store = TheStore();
    std::lock_guard<std::mutex> lock(store.mutex);
    store.capacity = capacity;
    store.Trim();
}

}  // namespace openacl::op
