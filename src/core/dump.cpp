#include "core/dump.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>
#include <new>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/context.h"
#include "core/device.h"
#include "core/dump_stats.h"
#include "core/error.h"
#include "core/log.h"
#include "core/memory.h"

namespace openacl::dump {
namespace {

using nlohmann::json;

struct ModelRule {
    std::string model_name;           // empty: every model
    std::vector<std::string> layers;  // empty: every layer
};

struct Settings {
    std::string root;  // where dumps go (environment, dump_path, or ".")
    Mode mode = Mode::kOutput;
    bool model_dump = false;  // "dump_list" given
    std::vector<ModelRule> rules;
    bool op_switch = false;  // "dump_op_switch": "on"
    bool exception = false;  // "dump_scene": an exception dump CANN's CPU-side tools read
    std::string exception_root;
    std::vector<std::pair<uint64_t, uint64_t>> steps;
    std::string session;  // {YYYYMMDDhhmmss}, fixed when the settings take effect
    uint32_t stats = 0;   // dump_data "stats": the Stat bits a row holds; 0: whole tensors
};

struct State {
    std::mutex mutex;
    bool acl_initialized = false;  // between aclInit and aclFinalize
    bool from_init = false;        // aclInit's file configured dumps
    bool initialized = false;      // aclmdlInitDump ... aclmdlFinalizeDump
    std::optional<Settings> settings;
    int32_t (*callback)(const acldumpChunk*, int32_t) = nullptr;
    std::string data_path;       // acldumpGetPath(DATA_DUMP / OVERFLOW_DUMP)
    std::string exception_path;  // acldumpGetPath(AIC_ERR_*)
    std::string op_args_path;    // aclopStartDumpArgs
};

std::atomic<bool> g_operators{false};   // single-operator dumps are on
std::atomic<bool> g_exceptions{false};  // exception dumps are on

State& state() {
    static State* s = new State;  // used by models until exit
    return *s;
}

bool MakeDirectories(const std::string& path, std::string* why) {
    std::string partial;
    std::stringstream parts(path);
    std::string part;
    if (!path.empty() && path[0] == '/') partial = "/";
    while (std::getline(parts, part, '/')) {
        if (part.empty()) continue;
        partial += part;
        if (mkdir(partial.c_str(), 0750) != 0 && errno != EEXIST) {
            *why = "cannot create " + partial + ": " + std::strerror(errno);
            return false;
        }
        partial += '/';
    }
    return true;
}

std::string SessionStamp() {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%d%H%M%S", &local);
    return text;
}

// The dump root: ASCEND_DUMP_PATH > ASCEND_WORK_PATH > dump_path > the working directory.
std::string Root(const std::string& configured) {
    for (const char* name : {"ASCEND_DUMP_PATH", "ASCEND_WORK_PATH"}) {
        const char* value = std::getenv(name);
        if (value != nullptr && *value != '\0') return value;
    }
    return configured.empty() ? "." : configured;
}

// The exception dump root: NPU_COLLECT_PATH > ASCEND_DUMP_PATH > ASCEND_WORK_PATH > dump_path
// > the working directory.
std::string ExceptionRoot(const std::string& configured) {
    if (const char* value = std::getenv("NPU_COLLECT_PATH"); value != nullptr && *value != '\0')
        return value;
    return Root(configured);
}

// The exception scenes openacl writes; detail dumps need the core's internal memories.
bool ParseScene(const std::string& scene, const std::string& where, bool* on) {
    *on =
        scene == "aic_err_brief_dump" || scene == "aic_err_norm_dump" || scene == "lite_exception";
    if (scene == "aic_err_detail_dump") {
        OPENACL_LOG_WARNING(
            "%s: dump_scene \"aic_err_detail_dump\" saves an AI Core's internal "
            "memories and registers, which a CPU device does not have; the "
            "brief exception dump is written instead",
            where.c_str());
        *on = true;
    }
    return *on || scene.empty() || scene == "watcher";
}

// "0|5|10-20": single executions and inclusive ranges.
bool ParseSteps(const std::string& text, std::vector<std::pair<uint64_t, uint64_t>>* out) {
    std::stringstream parts(text);
    std::string part;
    while (std::getline(parts, part, '|')) {
        uint64_t first = 0;
        uint64_t last = 0;
        char dash = 0;
        char extra = 0;
        const int got =
            std::sscanf(part.c_str(), "%" SCNu64 "%c%" SCNu64 "%c", &first, &dash, &last, &extra);
        if (got == 1 && part.find_first_not_of("0123456789") == std::string::npos) {
            out->emplace_back(first, first);
        } else if (got == 3 && dash == '-' && first <= last &&
                   part.find_first_not_of("0123456789-") == std::string::npos) {
            out->emplace_back(first, last);
        } else {
            return false;
        }
    }
    return !out->empty();
}

std::string Text(const json& section, const char* key) {
    auto it = section.find(key);
    return it != section.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Parses a "dump" section. `*any` says whether it asks for data dumps at all.
aclError ParseSection(const json& section, const std::string& where, Settings* out) {
    auto bad = [&](const std::string& what) {
        return Fail(ACL_ERROR_INVALID_DUMP_CONFIG, "%s: %s", where.c_str(), what.c_str());
    };
    if (!section.is_object()) return bad("\"dump\" must be an object");
    for (const char* key : {"dump_path", "dump_mode", "dump_op_switch", "dump_step", "dump_data",
                            "dump_debug", "dump_scene", "dump_level", "dump_kernel_data"}) {
        auto it = section.find(key);
        if (it != section.end() && !it->is_string()) {
            return bad(std::string("\"") + key + "\" must be a string");
        }
    }
    const std::string mode = Text(section, "dump_mode");
    if (mode.empty() || mode == "output") {
        out->mode = Mode::kOutput;
    } else if (mode == "input") {
        out->mode = Mode::kInput;
    } else if (mode == "all") {
        out->mode = Mode::kAll;
    } else {
        return bad("\"dump_mode\" is \"" + mode +
                   "\"; it must be \"input\", \"output\" or \"all\"");
    }
    const std::string op_switch = Text(section, "dump_op_switch");
    if (!op_switch.empty() && op_switch != "on" && op_switch != "off") {
        return bad("\"dump_op_switch\" must be \"on\" or \"off\"");
    }
    out->op_switch = op_switch == "on";
    const std::string step = Text(section, "dump_step");
    if (!step.empty() && !ParseSteps(step, &out->steps)) {
        return bad("\"dump_step\" is \"" + step +
                   "\"; it takes executions and ranges such as "
                   "\"0|5|10-20\"");
    }
    const std::string data = Text(section, "dump_data");
    if (!data.empty() && data != "tensor" && data != "stats") {
        return bad("\"dump_data\" must be \"tensor\" or \"stats\"");
    }
    if (data == "stats") {
        out->stats = kDefaultStats;
        if (auto chosen = section.find("dump_stats"); chosen != section.end()) {
            const char* kind =
                "\"dump_stats\" must be a non-empty array of \"Max\", \"Min\", \"Avg\", \"Nan\", "
                "\"Negative Inf\", \"Positive Inf\" and \"L2norm\"";
            if (!chosen->is_array() || chosen->empty()) return bad(kind);
            out->stats = 0;
            for (const json& name : *chosen) {
                const uint32_t stat = name.is_string() ? StatNamed(name.get<std::string>()) : 0;
                if (stat == 0) return bad(std::string(kind) + "; it holds " + name.dump());
                out->stats |= stat;
            }
        }
    }
    const std::string debug = Text(section, "dump_debug");
    if (!debug.empty() && debug != "on" && debug != "off") {
        return bad("\"dump_debug\" must be \"on\" or \"off\"");
    }
    const std::string scene = Text(section, "dump_scene");
    if (!ParseScene(scene, where, &out->exception)) {
        return bad("\"dump_scene\" is \"" + scene +
                   "\"; it takes aic_err_brief_dump, aic_err_norm_dump, aic_err_detail_dump, "
                   "lite_exception or watcher");
    }
    if (debug == "on" || scene == "watcher" || section.contains("dump_kernel_data")) {
        OPENACL_LOG_WARNING(
            "%s: overflow, watcher and kernel-debug dumps (dump_debug, dump_scene \"watcher\", "
            "dump_kernel_data) are not written by openacl yet; they are ignored",
            where.c_str());
    }
    auto list = section.find("dump_list");
    if (list != section.end()) {
        if (!list->is_array()) return bad("\"dump_list\" must be an array");
        out->model_dump = true;
        for (const json& entry : *list) {
            if (!entry.is_object()) return bad("each \"dump_list\" entry must be an object");
            ModelRule rule;
            if (auto name = entry.find("model_name"); name != entry.end()) {
                if (!name->is_string()) return bad("\"model_name\" must be a string");
                rule.model_name = name->get<std::string>();
            }
            if (auto layers = entry.find("layer"); layers != entry.end()) {
                if (!layers->is_array()) return bad("\"layer\" must be an array of names");
                for (const json& layer : *layers) {
                    if (!layer.is_string()) return bad("\"layer\" must be an array of names");
                    rule.layers.push_back(layer.get<std::string>());
                }
            }
            out->rules.push_back(std::move(rule));
        }
    }
    const std::string path = Text(section, "dump_path");
    const bool wants_data = out->model_dump || out->op_switch;
    if (wants_data && path.empty() && std::getenv("ASCEND_DUMP_PATH") == nullptr &&
        std::getenv("ASCEND_WORK_PATH") == nullptr) {
        return bad("\"dump_path\" is required where dump_list or dump_op_switch asks for dumps");
    }
    if (out->exception && (out->model_dump || out->op_switch)) {
        return bad(
            "an exception dump (dump_scene) cannot be on with a model or single-operator "
            "dump (dump_list, dump_op_switch)");
    }
    out->root = Root(path);
    out->exception_root = ExceptionRoot(path) + "/extra-info/data-dump";
    out->session = SessionStamp();
    return ACL_SUCCESS;
}

// Makes the settings the ones in force (state mutex held).
void ApplyLocked(State& s, Settings settings) {
    s.data_path = settings.model_dump || settings.op_switch ? settings.root : std::string();
    s.exception_path = settings.exception ? settings.exception_root : std::string();
    g_operators.store(settings.op_switch, std::memory_order_release);
    g_exceptions.store(settings.exception, std::memory_order_release);
    s.settings = std::move(settings);
}

// Back to no dump settings (state mutex held).
void ClearLocked(State& s) {
    g_operators.store(false, std::memory_order_release);
    g_exceptions.store(false, std::memory_order_release);
    s.settings.reset();
    s.data_path.clear();
    s.exception_path.clear();
}

// --- the file format: CANN's DumpData protobuf header, encoded by hand ---

void Varint(std::string* out, uint64_t value) {
    while (value >= 0x80) {
        out->push_back(static_cast<char>((value & 0x7F) | 0x80));
        value >>= 7;
    }
    out->push_back(static_cast<char>(value));
}

void Key(std::string* out, uint32_t field, uint32_t wire) {
    Varint(out, (uint64_t{field} << 3) | wire);
}

void VarintField(std::string* out, uint32_t field, uint64_t value) {
    if (value == 0) return;  // proto3 leaves defaults out
    Key(out, field, 0);
    Varint(out, value);
}

void BytesField(std::string* out, uint32_t field, const std::string& bytes) {
    Key(out, field, 2);
    Varint(out, bytes.size());
    out->append(bytes);
}

// toolkit.dump OutputDataType.
uint64_t DumpType(aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
            return 1;
        case ACL_FLOAT16:
            return 2;
        case ACL_INT8:
            return 3;
        case ACL_UINT8:
            return 4;
        case ACL_INT16:
            return 5;
        case ACL_UINT16:
            return 6;
        case ACL_INT32:
            return 7;
        case ACL_INT64:
            return 8;
        case ACL_UINT32:
            return 9;
        case ACL_UINT64:
            return 10;
        case ACL_BOOL:
            return 11;
        case ACL_DOUBLE:
            return 12;
        default:
            return 0;
    }
}

// One OpInput / OpOutput: data_type 1, format 2, shape 3, size (5 for inputs, 6 for outputs).
std::string Tensor(const model::TensorView& view, bool output) {
    std::string shape;
    if (!view.dims.empty()) {
        std::string dims;
        for (int64_t d : view.dims)
            Varint(&dims, static_cast<uint64_t>(d));
        BytesField(&shape, 1, dims);  // repeated uint64 dim, packed
    }
    std::string t;
    VarintField(&t, 1, DumpType(view.type));
    VarintField(&t, 2, view.dims.size() == 4 ? 0 : 2);  // FORMAT_NCHW for 4-D, else FORMAT_ND
    BytesField(&t, 3, shape);
    VarintField(&t, output ? 6 : 5, view.bytes);
    return t;
}

std::string Sanitized(std::string text) {
    for (char& c : text) {
        if (c == '.' || c == '/' || c == '\\' || c == ' ') c = '_';
    }
    return text;
}

uint64_t MicrosSinceEpoch() {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
}

// Hands `bytes` (one file) to the callback in chunks of at most 4 MiB.
void Deliver(int32_t (*callback)(const acldumpChunk*, int32_t), const std::string& file,
             const std::vector<std::pair<const void*, size_t>>& pieces) {
    constexpr size_t kChunk = size_t{4} << 20;
    size_t total = 0;
    for (const auto& piece : pieces)
        total += piece.second;
    auto* chunk = static_cast<acldumpChunk*>(::operator new(sizeof(acldumpChunk) + kChunk));
    std::memset(chunk, 0, sizeof(acldumpChunk));
    std::snprintf(chunk->fileName, sizeof chunk->fileName, "%s", file.c_str());
    size_t piece = 0;
    size_t within = 0;
    size_t sent = 0;
    do {
        size_t filled = 0;
        while (filled < kChunk && piece < pieces.size()) {
            const size_t take = std::min(kChunk - filled, pieces[piece].second - within);
            std::memcpy(chunk->dataBuf + filled,
                        static_cast<const uint8_t*>(pieces[piece].first) + within, take);
            filled += take;
            within += take;
            if (within == pieces[piece].second) {
                ++piece;
                within = 0;
            }
        }
        chunk->bufLen = static_cast<uint32_t>(filled);
        chunk->offset = static_cast<int64_t>(sent);
        sent += filled;
        chunk->isLastChunk = sent == total ? 1 : 0;
        callback(chunk, static_cast<int32_t>(sizeof(acldumpChunk) + filled));
    } while (sent < total);
    ::operator delete(chunk);
}

}  // namespace

bool ModelDump::WantsLayer(const std::string& name) const {
    return layers_.empty() || std::find(layers_.begin(), layers_.end(), name) != layers_.end();
}

bool ModelDump::WantsExecution(uint64_t index) const {
    if (steps_.empty()) return true;
    for (const auto& [first, last] : steps_) {
        if (index >= first && index <= last) return true;
    }
    return false;
}

namespace {

constexpr uint32_t kUserTagField = 100;

// The exception dump folder in force; ACL_ERROR_FAILURE (recorded) when exception dumps are off.
aclError ExceptionFolder(std::string* root) {
    std::lock_guard lock(state().mutex);
    if (!state().settings || !state().settings->exception) {
        return Fail(ACL_ERROR_FAILURE,
                    "exception dumps are off: turn them on with dump_scene (aclInit or "
                    "aclmdlSetDump) or ASCEND_DUMP_SCENE");
    }
    *root = state().exception_path;
    return ACL_SUCCESS;
}

// The device exception dumps of the calling thread go under: its context's, or 0.
int32_t CurrentDeviceId() {
    const Context* context = CurrentContext();
    return context != nullptr ? context->device()->id() : 0;
}

// Writes one dump file (or hands it to the registered callback): the header, then the inputs'
// and the outputs' bytes. False with *why when it could not be written.
bool WriteDumpFile(const std::string& directory, const std::string& file, uint64_t now,
                   const std::string& op_name, const std::string& user_tag,
                   const std::vector<model::TensorView>& inputs,
                   const std::vector<model::TensorView>& outputs, std::string* why) {
    std::string header;
    BytesField(&header, 1, "2.0");
    VarintField(&header, 2, now);
    for (const auto& view : outputs)
        BytesField(&header, 3, Tensor(view, true));
    for (const auto& view : inputs)
        BytesField(&header, 4, Tensor(view, false));
    BytesField(&header, 6, op_name);
    // openacl's own field (readers skip unknown ones): acldumpSaveExceptionInfo's user tag.
    if (!user_tag.empty()) BytesField(&header, kUserTagField, user_tag);
    const uint64_t length = header.size();
    uint8_t length_bytes[8];
    for (int i = 0; i < 8; ++i)
        length_bytes[i] = static_cast<uint8_t>(length >> (8 * i));
    std::vector<std::pair<const void*, size_t>> pieces{{length_bytes, 8},
                                                       {header.data(), header.size()}};
    // The data: the inputs', then the outputs' (the order the readers take them in).
    for (const auto& view : inputs)
        pieces.emplace_back(view.data, view.data ? view.bytes : 0);
    for (const auto& view : outputs)
        pieces.emplace_back(view.data, view.data ? view.bytes : 0);
    const std::string path = directory + "/" + file;
    int32_t (*callback)(const acldumpChunk*, int32_t) = nullptr;
    {
        std::lock_guard lock(state().mutex);
        callback = state().callback;
    }
    if (callback != nullptr) {
        Deliver(callback, path, pieces);
        return true;
    }
    if (!MakeDirectories(directory, why)) return false;
    std::ofstream out(path, std::ios::binary);
    for (const auto& [data, bytes] : pieces) {
        if (bytes != 0)
            out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    }
    if (!out) {
        *why = path + " was not written completely";
        return false;
    }
    return true;
}

std::string Timestamp16(uint64_t micros) {
    char text[24];
    std::snprintf(text, sizeof text, "%016" PRIu64, micros);
    return text;
}

}  // namespace

void ModelDump::WriteLayer(uint64_t execution, uint32_t stream_id, uint32_t task_id,
                           const std::string& op_type, const std::string& op_name,
                           const std::vector<model::TensorView>& inputs,
                           const std::vector<model::TensorView>& outputs) const {
    const uint64_t now = MicrosSinceEpoch();
    static const std::vector<model::TensorView> kNone;
    const std::string directory =
        per_execution_ ? directory_ + "/" + std::to_string(execution) : directory_;
    if (stats_ != 0) {
        WriteStats(directory, now, stream_id, task_id, op_type, op_name,
                   mode_ != Mode::kOutput ? inputs : kNone,
                   mode_ != Mode::kInput ? outputs : kNone);
        return;
    }
    const std::string file = Sanitized(op_type) + "." + Sanitized(op_name) + "." +
                             std::to_string(task_id) + "." + std::to_string(stream_id) + "." +
                             Timestamp16(now);
    std::string why;
    if (!WriteDumpFile(directory, file, now, op_name, "", mode_ != Mode::kOutput ? inputs : kNone,
                       mode_ != Mode::kInput ? outputs : kNone, &why)) {
        OPENACL_LOG_ERROR("dump of layer %s not written: %s", op_name.c_str(), why.c_str());
    }
}

void ModelDump::WriteStats(const std::string& directory, uint64_t now, uint32_t stream_id,
                           uint32_t task_id, const std::string& op_type, const std::string& op_name,
                           const std::vector<model::TensorView>& inputs,
                           const std::vector<model::TensorView>& outputs) const {
    std::string rows;
    for (int side = 0; side < 2; ++side) {
        const std::vector<model::TensorView>& views = side == 0 ? inputs : outputs;
        for (size_t slot = 0; slot < views.size(); ++slot) {
            const model::TensorView& v = views[slot];
            rows += CsvRow(stats_, op_type, op_name, task_id, stream_id, now, side == 0, slot,
                           v.type, v.dims, v.bytes, Compute(v.type, v.data, v.bytes));
        }
    }
    if (rows.empty()) return;
    // One file per folder, appended to by every layer (and by several threads for operators).
    static std::mutex* appending = new std::mutex;
    std::lock_guard lock(*appending);
    std::string why;
    if (!MakeDirectories(directory, &why)) {
        OPENACL_LOG_ERROR("statistics of layer %s not written: %s", op_name.c_str(), why.c_str());
        return;
    }
    const std::string path = directory + "/statistic.csv";
    struct stat existing {};
    const bool fresh = ::stat(path.c_str(), &existing) != 0;
    std::ofstream out(path, std::ios::app);
    if (fresh) out << CsvHeader(stats_);
    out << rows;
    if (!out.flush()) {
        OPENACL_LOG_ERROR("statistics of layer %s not written to %s", op_name.c_str(),
                          path.c_str());
    }
}

std::shared_ptr<const ModelDump> ForModel(const std::string& file_stem,
                                          const std::string& graph_name, uint32_t model_id,
                                          int32_t device_id) {
    State& s = state();
    std::lock_guard lock(s.mutex);
    if (!s.settings || !s.settings->model_dump) return nullptr;
    if (!s.from_init && !s.initialized) return nullptr;
    const Settings& settings = *s.settings;
    const ModelRule* rule = nullptr;
    for (const ModelRule& r : settings.rules) {
        if (r.model_name.empty() || r.model_name == file_stem || r.model_name == graph_name) {
            rule = &r;
            break;
        }
    }
    if (rule == nullptr && !settings.rules.empty()) return nullptr;
    auto dump = std::make_shared<ModelDump>();
    const std::string name =
        Sanitized(!rule || rule->model_name.empty() ? (file_stem.empty() ? graph_name : file_stem)
                                                    : rule->model_name);
    dump->directory_ = settings.root + "/" + settings.session + "/" + std::to_string(device_id) +
                       "/" + (name.empty() ? "model" : name) + "/" + std::to_string(model_id);
    dump->mode_ = settings.mode;
    dump->stats_ = settings.stats;
    if (rule) dump->layers_ = rule->layers;
    dump->steps_ = settings.steps;
    return dump;
}

std::shared_ptr<const ModelDump> ForOperators(int32_t device_id) {
    if (!g_operators.load(std::memory_order_acquire)) return nullptr;
    State& s = state();
    std::lock_guard lock(s.mutex);
    if (!s.settings || !s.settings->op_switch || (!s.from_init && !s.initialized)) return nullptr;
    auto dump = std::make_shared<ModelDump>();
    dump->directory_ =
        s.settings->root + "/" + s.settings->session + "/" + std::to_string(device_id);
    dump->per_execution_ = false;
    dump->mode_ = s.settings->mode;
    dump->stats_ = s.settings->stats;
    return dump;
}

aclError ConfigureFromInit(const std::string& json_text) {
    State& s = state();
    Settings settings;
    bool has = false;
    if (!json_text.empty()) {
        json root;
        try {
            root = json::parse(json_text);
        } catch (const json::exception&) {
            root = json();  // LoadConfig has judged the text already
        }
        if (root.is_object() && root.contains("dump")) {
            if (aclError rc = ParseSection(root["dump"], "aclInit's \"dump\" section", &settings)) {
                return rc;
            }
            has = settings.model_dump || settings.op_switch || settings.exception;
        }
    }
    // ASCEND_DUMP_SCENE turns exception dumps on without a configuration file.
    if (!has) {
        const char* scene = std::getenv("ASCEND_DUMP_SCENE");
        if (scene != nullptr && *scene != '\0') {
            bool on = false;
            if (ParseScene(scene, "ASCEND_DUMP_SCENE", &on) && on) {
                settings = Settings{};
                settings.exception = true;
                settings.root = Root("");
                settings.exception_root = ExceptionRoot("") + "/extra-info/data-dump";
                settings.session = SessionStamp();
                has = true;
            }
        }
    }
    std::lock_guard lock(s.mutex);
    s.acl_initialized = true;
    s.from_init = has;
    s.initialized = false;
    ClearLocked(s);
    if (has) ApplyLocked(s, std::move(settings));
    return ACL_SUCCESS;
}

aclError InitDump() {
    State& s = state();
    std::lock_guard lock(s.mutex);
    if (!s.acl_initialized) {
        return Fail(ACL_ERROR_UNINITIALIZE, "aclmdlInitDump needs aclInit first");
    }
    if (s.from_init) {
        return Fail(ACL_ERROR_DUMP_ALREADY_RUN,
                    "dumps are configured by aclInit's file; aclmdlInitDump cannot configure them "
                    "again in this process");
    }
    if (s.initialized) {
        return Fail(ACL_ERROR_DUMP_ALREADY_RUN,
                    "aclmdlInitDump was already called; call aclmdlFinalizeDump first");
    }
    s.initialized = true;
    return ACL_SUCCESS;
}

aclError SetDump(const char* config_path) {
    if (config_path == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dumpCfgPath is null");
    {
        std::lock_guard lock(state().mutex);
        if (!state().initialized) {
            return Fail(ACL_ERROR_DUMP_NOT_RUN, "aclmdlSetDump needs aclmdlInitDump first");
        }
    }
    std::ifstream in(config_path, std::ios::binary);
    if (!in) {
        return Fail(ACL_ERROR_INVALID_FILE, "cannot read the dump configuration %s: %s",
                    config_path, std::strerror(errno));
    }
    std::stringstream text;
    text << in.rdbuf();
    json root;
    try {
        root = json::parse(text.str());
    } catch (const json::exception& e) {
        return Fail(ACL_ERROR_INVALID_DUMP_CONFIG, "%s is not valid JSON: %s", config_path,
                    e.what());
    }
    if (!root.is_object() || !root.contains("dump")) {
        return Fail(ACL_ERROR_INVALID_DUMP_CONFIG, "%s has no \"dump\" section", config_path);
    }
    Settings settings;
    if (aclError rc = ParseSection(root["dump"], config_path, &settings)) return rc;
    State& s = state();
    std::lock_guard lock(s.mutex);
    if (!s.initialized) {
        return Fail(ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump ran while aclmdlSetDump read");
    }
    ApplyLocked(s, std::move(settings));  // a later call replaces an earlier one
    return ACL_SUCCESS;
}

aclError FinalizeDump() {
    State& s = state();
    std::lock_guard lock(s.mutex);
    if (!s.initialized) {
        return Fail(ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump without aclmdlInitDump");
    }
    s.initialized = false;
    ClearLocked(s);
    return ACL_SUCCESS;
}

void ResetAtFinalize() {
    State& s = state();
    std::lock_guard lock(s.mutex);
    s.acl_initialized = false;
    s.from_init = false;
    s.initialized = false;
    ClearLocked(s);
}

aclError RegisterCallback(int32_t (*callback)(const acldumpChunk*, int32_t), int32_t flag) {
    if (callback == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "messageCallback is null");
    if (flag != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flag is %d; only 0 (hand the data to the callback, write no files) is "
                    "supported",
                    flag);
    }
    std::lock_guard lock(state().mutex);
    state().callback = callback;
    return ACL_SUCCESS;
}

void UnregisterCallback() {
    std::lock_guard lock(state().mutex);
    state().callback = nullptr;
}

const char* PathOf(acldumpType type) {
    State& s = state();
    std::lock_guard lock(s.mutex);
    // The strings live in the state until the settings change, as CANN's do.
    switch (type) {
        case DATA_DUMP:
        case OVERFLOW_DUMP:
            return s.data_path.empty() ? nullptr : s.data_path.c_str();
        case AIC_ERR_BRIEF_DUMP:
        case AIC_ERR_NORM_DUMP:
        case AIC_ERR_DETAIL_DUMP:
            return s.exception_path.empty() ? nullptr : s.exception_path.c_str();
    }
    Fail(ACL_ERROR_INVALID_PARAM, "dumpType %d is not an acldumpType value",
         static_cast<int>(type));
    return nullptr;
}

aclError StartOpArgs(uint32_t dump_type, const char* path) {
    if ((dump_type & ACL_OP_DUMP_OP_AICORE_ARGS) == 0 ||
        (dump_type & ~ACL_OP_DUMP_OP_AICORE_ARGS)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dumpType is 0x%x; only ACL_OP_DUMP_OP_AICORE_ARGS (0x1) is defined",
                    dump_type);
    }
    if (path == nullptr || *path == '\0') return Fail(ACL_ERROR_INVALID_PARAM, "path is empty");
    std::string why;
    if (!MakeDirectories(path, &why)) return Fail(ACL_ERROR_INVALID_PARAM, "%s", why.c_str());
    std::lock_guard lock(state().mutex);
    // Operator information files come from single-operator (aclnn) calls, which openacl does
    // not have yet: the switch is kept, and no file is written, as CANN writes none elsewhere.
    state().op_args_path = path;
    return ACL_SUCCESS;
}

aclError StopOpArgs(uint32_t dump_type) {
    if ((dump_type & ACL_OP_DUMP_OP_AICORE_ARGS) == 0 ||
        (dump_type & ~ACL_OP_DUMP_OP_AICORE_ARGS)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dumpType is 0x%x; only ACL_OP_DUMP_OP_AICORE_ARGS (0x1) is defined",
                    dump_type);
    }
    std::lock_guard lock(state().mutex);
    state().op_args_path.clear();
    return ACL_SUCCESS;
}

bool ExceptionDumpsOn() {
    return g_exceptions.load(std::memory_order_acquire);
}

void DumpFailedKernel(int32_t device_id, uint32_t stream_id, uint32_t task_id,
                      const std::string& kernel, const std::vector<model::TensorView>& memory) {
    std::string root;
    {
        std::lock_guard lock(state().mutex);
        if (!state().settings || !state().settings->exception) return;
        root = state().exception_path;
    }
    const uint64_t now = MicrosSinceEpoch();
    const std::string name = Sanitized(kernel);
    const std::string file = name + "." + name + "." + std::to_string(task_id) + "." +
                             std::to_string(stream_id) + "." + Timestamp16(now);
    std::string why;
    if (!WriteDumpFile(root + "/" + std::to_string(device_id), file, now, kernel, "", memory, {},
                       &why)) {
        OPENACL_LOG_ERROR("the exception dump of kernel %s was not written: %s", kernel.c_str(),
                          why.c_str());
    }
}

aclError ExceptionInfoPath(char* path, size_t max_len) {
    if (path == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "path is null");
    if (max_len <= 1) return Fail(ACL_ERROR_INVALID_PARAM, "maxLen %zu is too small", max_len);
    std::string root;
    if (aclError rc = ExceptionFolder(&root)) return rc;
    const std::string full = root + "/" + std::to_string(CurrentDeviceId()) + "/";
    if (full.size() + 1 > max_len) {
        return Fail(ACL_ERROR_INVALID_PARAM, "maxLen %zu cannot hold the path %s (%zu bytes)",
                    max_len, full.c_str(), full.size() + 1);
    }
    std::memcpy(path, full.c_str(), full.size() + 1);
    return ACL_SUCCESS;
}

aclError SaveExceptionInfo(const char* file_name, const char* user_tag,
                           const acldumpTensorInfo* tensors, size_t count) {
    if (file_name == nullptr || *file_name == '\0') {
        return Fail(ACL_ERROR_INVALID_PARAM, "fileName is null or empty");
    }
    if (std::string("/" + std::string(file_name) + "/").find("/../") != std::string::npos) {
        return Fail(ACL_ERROR_INVALID_PARAM, "fileName \"%s\" has a \"..\" segment", file_name);
    }
    if (tensors == nullptr || count == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "tensors is null or tensorCount is 0");
    }
    std::vector<model::TensorView> inputs;
    std::vector<model::TensorView> outputs;  // outputs, then workspaces
    std::vector<model::TensorView> workspaces;
    for (size_t i = 0; i < count; ++i) {
        const acldumpTensorInfo& t = tensors[i];
        if (t.tensorAddr == nullptr || t.tensorSize == 0) {
            return Fail(ACL_ERROR_INVALID_PARAM, "tensors[%zu] has a null address or a size of 0",
                        i);
        }
        if (t.shapeNum > ACL_DUMP_MAX_SHAPE_NUM || t.originShapeNum > ACL_DUMP_MAX_SHAPE_NUM) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "tensors[%zu] has %u shape dims and %u origin dims; at most %d each", i,
                        t.shapeNum, t.originShapeNum, ACL_DUMP_MAX_SHAPE_NUM);
        }
        if (t.addrType != ACL_DUMP_ADDR_RAW || t.placement != ACL_DUMP_PLACEMENT_DEVICE) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "tensors[%zu] must be a raw device address (ACL_DUMP_ADDR_RAW, "
                        "ACL_DUMP_PLACEMENT_DEVICE)",
                        i);
        }
        if (t.type < ACL_DUMP_TENSOR_INPUT || t.type > ACL_DUMP_TENSOR_WORKSPACE) {
            return Fail(ACL_ERROR_INVALID_PARAM, "tensors[%zu].type %d is not an acldumpTensorType",
                        i, static_cast<int>(t.type));
        }
        const MemRegion region = ClassifyPointer(t.tensorAddr);
        const auto at = reinterpret_cast<uintptr_t>(t.tensorAddr);
        if (region.domain != MemDomain::kDevice || at < region.base ||
            at - region.base > region.usable || region.usable - (at - region.base) < t.tensorSize) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "tensors[%zu]: %zu bytes at %p are not live device memory", i, t.tensorSize,
                        static_cast<void*>(t.tensorAddr));
        }
        model::TensorView view;
        view.type = static_cast<aclDataType>(t.dataType);
        for (uint32_t d = 0; d < t.shapeNum; ++d)
            view.dims.push_back(static_cast<int64_t>(t.shape[d]));
        view.data = t.tensorAddr;
        view.bytes = t.tensorSize;
        (t.type == ACL_DUMP_TENSOR_INPUT    ? inputs
         : t.type == ACL_DUMP_TENSOR_OUTPUT ? outputs
                                            : workspaces)
            .push_back(view);
    }
    outputs.insert(outputs.end(), workspaces.begin(), workspaces.end());
    std::string root;
    if (aclError rc = ExceptionFolder(&root)) return rc;
    // fileName.custom.<yyyyMMddHHmmssSSS>, so that repeated calls keep every file.
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    std::tm local{};
    localtime_r(&seconds, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &local);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    const std::string relative = std::string(file_name) + ".custom." + stamp +
                                 (ms < 10    ? "00"
                                  : ms < 100 ? "0"
                                             : "") +
                                 std::to_string(ms);
    const std::string full = root + "/" + std::to_string(CurrentDeviceId()) + "/" + relative;
    const std::string directory = full.substr(0, full.rfind('/'));
    std::string why;
    if (!WriteDumpFile(directory, full.substr(full.rfind('/') + 1), MicrosSinceEpoch(), file_name,
                       user_tag != nullptr ? user_tag : "", inputs, outputs, &why)) {
        return Fail(ACL_ERROR_FAILURE, "the exception information was not saved: %s", why.c_str());
    }
    return ACL_SUCCESS;
}

}  // namespace openacl::dump
