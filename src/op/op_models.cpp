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
    // By type: loaded models first (never aged), then compiled ones.
    std::unordered_map<std::string, std::vector<std::shared_ptr<const Model>>> loaded;
    std::unordered_map<std::string, std::vector<std::shared_ptr<const Model>>> compiled;
    std::list<std::shared_ptr<const Model>> compiled_order;  // most recently added first
    uint64_t capacity = 20000;
    size_t loaded_count = 0;

    void Trim() {
        while (compiled_order.size() > capacity) {
            std::shared_ptr<const Model> oldest = compiled_order.back();
            compiled_order.pop_back();
            auto& list = compiled[oldest->desc.type];
            for (auto it = list.begin(); it != list.end(); ++it) {
                if (*it == oldest) {
                    list.erase(it);
                    break;
                }
            }
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

// The model's text identity, so loading the same model twice keeps one.
std::string Identity(const OpDesc& desc) {
    return OpModelToJson(OpModelSpec{desc, ""}, "");
}

bool AddLoaded(Store& store, OpDesc desc, std::string source) {
    auto& list = store.loaded[desc.type];
    const std::string identity = Identity(desc);
    for (const auto& model : list) {
        if (Identity(model->desc) == identity) return false;
    }
    list.push_back(std::make_shared<const Model>(Model{std::move(desc), std::move(source)}));
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
    Store& store = TheStore();
    std::lock_guard<std::mutex> lock(store.mutex);
    auto& list = store.compiled[desc.type];
    std::string why;
    for (const auto& model : list) {
        if (Matches(model->desc, desc, &why) && Matches(desc, model->desc, &why)) return;
    }
    auto model = std::make_shared<const Model>(Model{desc, "aclopCompile"});
    list.push_back(model);
    store.compiled_order.push_front(model);
    store.Trim();
}

bool HasModel(const OpDesc& call) {
    Store& store = TheStore();
    std::lock_guard<std::mutex> lock(store.mutex);
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

void RequireModel(const OpDesc& call) {
    if (HasModel(call)) return;
    Store& store = TheStore();
    std::lock_guard<std::mutex> lock(store.mutex);
    size_t same_type = 0;
    std::string nearest;
    for (auto* map : {&store.loaded, &store.compiled}) {
        auto it = map->find(call.type);
        if (it == map->end()) continue;
        for (const auto& model : it->second) {
            std::string why;
            Matches(model->desc, call, &why);
            if (same_type++ == 0)
                nearest = "; the first, from " + model->source + ", differs: " + why;
        }
    }
    Throw(ACL_ERROR_OP_NOT_FOUND,
          "no single-operator model matches %s (check op type, number of inputs and outputs, "
          "format, dtype, memtype, attr, dim range): %zu models loaded, %zu of type %s%s",
          DescText(call).c_str(), store.loaded_count, same_type, call.type.c_str(),
          nearest.c_str());
}

void SetCompiledModelCapacity(uint64_t capacity) {
    Store& store = TheStore();
    std::lock_guard<std::mutex> lock(store.mutex);
    store.capacity = capacity;
    store.Trim();
}

}  // namespace openacl::op
