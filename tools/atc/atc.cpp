// atc: openacl's model converter, driven by CANN's command line so existing scripts work.
// (main.cpp only calls AtcMain, so the fuzz target can drive the same code.)
// Instead of compiling the graph for an NPU it checks the options against the ONNX graph and
// stores both in an .om container (docs/OM_FORMAT.md); the runtime applies them at load.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <onnx/checker.h>
#include <onnx/common/constants.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <nlohmann/json.hpp>

#include "atc.h"
#include "model/compiler/compiler.h"
#include "model/om_file.h"
#include "model/onnx_graph.h"
#include "op/op_model_file.h"

namespace {

namespace fs = std::filesystem;
using openacl::model::OmFile;
using openacl::model::OmInputOption;
using openacl::model::OmOptions;

// Thrown for anything that ends the run; main() prints it as CANN's one failure line.
struct AtcError {
    std::string message;
};

[[noreturn]] void Die(std::string message) {
    throw AtcError{std::move(message)};
}

enum LogLevel { kDebug, kInfo, kWarning, kError, kNull };
constexpr LogLevel kDefaultLogLevel = kWarning;  // CANN's is null; our warnings are worth seeing
LogLevel g_log_level = kDefaultLogLevel;

void Log(LogLevel level, const std::string& message) {
    static const char* const kNames[] = {"debug", "info", "warning", "error"};
    if (level >= g_log_level) std::cerr << "ATC " << kNames[level] << ": " << message << "\n";
}

const char kHelp[] =
    R"(Usage: atc --model=<file.onnx> --framework=5 --output=<path> --soc_version=<Ascend...> [options]
       atc --singleop=<ops.json> --output=<directory> [--soc_version=<Ascend...>]
       atc --mode=1 --om=<file.om> --json=<file.json>

openacl's atc checks an ONNX model and the options below against each other and writes
<path>.om, which openacl's aclmdlLoadFromFile loads. Options take "--key=value" or "--key value".

  --mode=0|1             0: convert a model (default); 1: write what an .om holds as JSON
  --singleop=<file>      single operators to describe (a JSON list of {"op", "input_desc",
                         "output_desc", "attr"} objects, CANN's format): one .om per operator
                         in the --output directory, for aclopSetModelDir and aclopLoad
  --model=<file>         the ONNX model to convert
  --framework=5          5: ONNX, the only framework openacl converts
  --output=<path>        where to write the model; ".om" is appended
  --soc_version=<name>   the Ascend SoC the model is for (recorded; openacl runs on the CPU)
  --input_shape="name:n,c,h,w;..."      fixed shapes for graph inputs; -1 marks a dynamic dim
  --input_format=NCHW|NHWC|ND           the layout of the inputs (default NCHW)
  --input_fp16_nodes="name;..."         inputs that callers feed as float16
  --output_type=FP32|FP16|UINT8         the type of every output, or per output:
                "node:index:FP16;..."   (node name and output index, or output name and 0)
  --dynamic_batch_size="1,2,4"          batch gears; needs --input_shape with -1 as batch dim
  --dynamic_image_size="224,224;448,448"  (h,w) gears; needs -1 as H and W in --input_shape
  --dynamic_dims="20,1;40,2"            gears of the -1 dims of --input_shape, in input order;
                                        needs --input_format=ND
  --log=debug|info|warning|error|null   what atc reports besides errors (default warning)
  --om=<file.om> --json=<file>          with --mode=1
  --help                 this text

Options that only tune NPU compilation (--precision_mode, --op_select_implmode, ...) are
accepted and ignored with a warning.
)";

// Options that only steer how CANN compiles for an NPU: accepted so scripts run, ignored.
constexpr std::string_view kIgnoredOptions =
    "precision_mode precision_mode_v2 op_select_implmode optypelist_for_implmode "
    "fusion_switch_file enable_small_channel buffer_optimize op_debug_level "
    "host_env_os host_env_cpu core_type aicore_num virtual_type disable_reuse_memory "
    "enable_compress_weight compress_weight_conf keep_dtype customize_dtypes "
    "op_compiler_cache_mode op_compiler_cache_dir debug_dir modify_mixlist sparsity "
    "auto_tune_mode allow_hf32 enable_single_stream external_weight";

// Options of CANN's atc that change the model's meaning; refusing them beats ignoring them.
constexpr std::string_view kUnsupportedOptions =
    "insert_op_conf out_nodes input_shape_range "
    "is_input_adjust_hw_layout is_output_adjust_hw_layout weight "
    "compression_optimize_conf check_report display_model_info op_name_map dump_mode "
    "status_check save_original_model";

constexpr std::string_view kOptions =
    "mode model framework output soc_version input_shape input_format "
    "input_fp16_nodes output_type dynamic_batch_size dynamic_image_size dynamic_dims log om json "
    "singleop";

// Whether `key` is one of the space-separated words of `list`.
bool Listed(std::string_view list, const std::string& key) {
    for (size_t start = 0; start < list.size();) {
        const size_t end = std::min(list.find(' ', start), list.size());
        if (list.substr(start, end - start) == key) return true;
        start = end + 1;
    }
    return false;
}

using Flags = std::map<std::string, std::string>;

// Warnings found while parsing wait in *ignored until --log has been read.
Flags ParseArguments(int argc, char** argv, bool* help, std::vector<std::string>* ignored) {
    Flags flags;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        // gflags, which CANN's atc uses, takes one dash as well as two.
        const size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
        if (dashes == 0 || arg.size() == dashes) {
            Die("unexpected argument \"" + arg +
                "\": options look like --key=value; run atc --help");
        }
        arg = arg.substr(dashes);
        const size_t eq = arg.find('=');
        const std::string key = arg.substr(0, eq);
        if (key == "help" || key == "h") {
            *help = true;
            continue;
        }
        if (Listed(kUnsupportedOptions, key)) {
            Die("--" + key + " is not supported by openacl's atc yet; remove it");
        }
        const bool ignore = Listed(kIgnoredOptions, key);
        if (!ignore && !Listed(kOptions, key)) Die("unknown option --" + key + "; run atc --help");
        std::string value;
        if (eq != std::string::npos) {
            value = arg.substr(eq + 1);
        } else if (i + 1 < argc && std::string_view(argv[i + 1]).rfind("--", 0) != 0) {
            value = argv[++i];
        } else {
            Die("--" + key + " needs a value (--" + key + "=<value>)");
        }
        if (ignore) {
            ignored->push_back("--" + key + " only tunes compilation for an NPU; ignored");
        } else if (!flags.emplace(key, value).second) {
            Die("--" + key + " is given twice; give it once");
        }
    }
    return flags;
}

const std::string* Find(const Flags& flags, const char* key) {
    const auto it = flags.find(key);
    return it == flags.end() ? nullptr : &it->second;
}

std::vector<std::string> Split(std::string_view text, char separator) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        const size_t end = text.find(separator, start);
        parts.emplace_back(text.substr(start, end - start));
        if (end == std::string_view::npos) return parts;
        start = end + 1;
    }
}

// ';'-separated lists tolerate a trailing separator, as CANN's do.
std::vector<std::string> SplitList(const std::string& text) {
    std::vector<std::string> parts = Split(text, ';');
    if (parts.size() > 1 && parts.back().empty()) parts.pop_back();
    return parts;
}

bool ParseInt(const std::string& text, int64_t* value) {
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, *value);
    return !text.empty() && result.ec == std::errc() && result.ptr == end;
}

std::string Join(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items) {
        out += (out.empty() ? "" : ", ") + item;
    }
    return out.empty() ? "(none)" : out;
}

std::string DimsText(const std::vector<int64_t>& dims) {
    std::string out;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i != 0) out += ',';
        out += std::to_string(dims[i]);
    }
    return out;
}

std::string ReadFile(const std::string& path, const char* flag) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        Die(std::string(flag) + "=" + path + " is a directory, not a file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) Die("cannot open " + std::string(flag) + "=" + path + ": " + std::strerror(errno));
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (in.bad()) Die("cannot read " + std::string(flag) + "=" + path);
    return bytes.str();
}

// Writes through a temporary file and a rename, so a failed run never leaves half a model.
void WriteFile(const std::string& path, const std::string& bytes) {
    const std::string temporary = path + ".tmp" + std::to_string(getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) Die("cannot create " + temporary + ": " + std::strerror(errno));
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            std::remove(temporary.c_str());
            Die("cannot write " + temporary + " (disk full?)");
        }
    }
    std::error_code ec;
    fs::rename(temporary, path, ec);
    if (ec) {
        std::remove(temporary.c_str());
        Die("cannot write " + path + ": " + ec.message());
    }
}

// ---- the ONNX graph ----------------------------------------------------------------------

struct GraphInput {
    std::string name;
    int32_t elem_type = 0;
    bool has_shape = false;
    std::vector<int64_t> dims;  // -1: symbolic or unknown
};

struct Graph {
    onnx::ModelProto model;
    std::vector<GraphInput> inputs;  // not initializers, in graph order
    std::vector<std::string> outputs;
    std::set<std::string> initializers;
};

std::string TypeText(int32_t elem_type) {
    if (!onnx::TensorProto_DataType_IsValid(elem_type)) return "type " + std::to_string(elem_type);
    return onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(elem_type));
}

// The checker of the libonnx atc links knows IR and opset versions up to its release; newer
// models are not wrong, so it is skipped for them rather than failing them.
void CheckModel(const onnx::ModelProto& model, const std::string& path) {
    if (model.ir_version() > onnx::IR_VERSION) {
        Log(kWarning, "the model's IR version " + std::to_string(model.ir_version()) +
                          " is newer than this ONNX checker knows (" +
                          std::to_string(onnx::IR_VERSION) + "); skipping the ONNX checker");
        return;
    }
    const auto& ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    for (const auto& opset : model.opset_import()) {
        const std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
        const auto it = ranges.find(domain);
        if (it != ranges.end() && opset.version() > it->second.second) {
            Log(kWarning, "the model imports opset " + std::to_string(opset.version()) +
                              " of domain \"" + opset.domain() +
                              "\", newer than this ONNX checker knows (" +
                              std::to_string(it->second.second) + "); skipping the ONNX checker");
            return;
        }
    }
    try {
        onnx::checker::check_model(model);
    } catch (const std::exception& e) {
        std::string what = e.what();
        std::replace(what.begin(), what.end(), '\n', ' ');
        Die("--model=" + path + " fails the ONNX checker: " + what +
            "; fix or re-export the model");
    }
}

Graph LoadGraph(const std::string& path, const std::string& bytes) {
    if (bytes.empty()) Die("--model=" + path + " is empty");
    switch (openacl::model::DetectModelFormat(bytes.data(), bytes.size())) {
        case openacl::model::ModelFormat::kOm:
            Die("--model=" + path + " is already an .om file; give the ONNX model it came from");
        case openacl::model::ModelFormat::kUnknown:
            Die("--model=" + path +
                " is not an ONNX model (its bytes are not a serialized ModelProto); give a .onnx "
                "file with --framework=5");
        case openacl::model::ModelFormat::kOnnx:
            break;
    }
    if (bytes.size() > static_cast<size_t>(INT_MAX)) {
        Die("--model=" + path + " is over 2 GiB, more than one protobuf message may hold");
    }
    Graph graph;
    if (!graph.model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
        Die("--model=" + path + " is not a valid ONNX model (protobuf parsing failed)");
    }
    if (!graph.model.has_graph()) Die("--model=" + path + " has no graph");
    CheckModel(graph.model, path);
    const onnx::GraphProto& g = graph.model.graph();
    for (const onnx::TensorProto& initializer : g.initializer()) {
        if (initializer.data_location() == onnx::TensorProto::EXTERNAL) {
            Die("the weight \"" + initializer.name() +
                "\" is stored outside the model file (ONNX external data); an .om holds one "
                "self-contained ONNX: save the model with all tensors inside");
        }
        graph.initializers.insert(initializer.name());
    }
    for (const onnx::ValueInfoProto& value : g.input()) {
        if (graph.initializers.count(value.name()) != 0) continue;
        GraphInput input;
        input.name = value.name();
        if (value.type().has_tensor_type()) {
            const onnx::TypeProto::Tensor& tensor = value.type().tensor_type();
            input.elem_type = tensor.elem_type();
            input.has_shape = tensor.has_shape();
            for (const auto& dim : tensor.shape().dim()) {
                input.dims.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
            }
        }
        graph.inputs.push_back(std::move(input));
    }
    for (const onnx::ValueInfoProto& value : g.output()) {
        graph.outputs.push_back(value.name());
    }
    return graph;
}

std::vector<std::string> InputNames(const Graph& graph) {
    std::vector<std::string> names;
    for (const GraphInput& input : graph.inputs) {
        names.push_back(input.name);
    }
    return names;
}

GraphInput* FindInput(Graph& graph, const std::string& name, const char* flag) {
    for (GraphInput& input : graph.inputs) {
        if (input.name == name) return &input;
    }
    if (graph.initializers.count(name) != 0) {
        Die(std::string(flag) + " names \"" + name +
            "\", which is a weight (initializer) of the graph, not an input; its inputs are: " +
            Join(InputNames(graph)));
    }
    Die(std::string(flag) + " names \"" + name +
        "\", which is not an input of the graph; its inputs are: " + Join(InputNames(graph)));
}

// ---- the options -------------------------------------------------------------------------

void ApplyInputShape(const std::string& text, Graph& graph,
                     std::map<std::string, std::vector<int64_t>>* shapes) {
    for (const std::string& item : SplitList(text)) {
        // Names may contain ':' (TensorFlow-style "x:0"); the shape never does.
        const size_t colon = item.rfind(':');
        if (colon == std::string::npos || colon == 0) {
            Die("--input_shape entry \"" + item +
                "\" is not name:dims; write e.g. --input_shape=\"input:1,3,224,224\"");
        }
        const std::string name = item.substr(0, colon);
        const GraphInput* input = FindInput(graph, name, "--input_shape");
        std::vector<int64_t> dims;
        const std::string dims_text = item.substr(colon + 1);
        if (!dims_text.empty()) {
            for (const std::string& d : Split(dims_text, ',')) {
                int64_t v = 0;
                if (d.find('~') != std::string::npos) {
                    Die("--input_shape entry \"" + item +
                        "\" has a range; ranges belong to --input_shape_range, which openacl "
                        "does not support: use -1 for a dynamic dimension");
                }
                if (!ParseInt(d, &v) || (v < 1 && v != -1)) {
                    Die("--input_shape entry \"" + item + "\" has the dimension \"" + d +
                        "\"; dimensions are positive integers, or -1 for a dynamic one");
                }
                dims.push_back(v);
            }
        }
        if (input->has_shape && input->dims.size() != dims.size()) {
            Die("--input_shape gives \"" + name + "\" " + std::to_string(dims.size()) +
                " dimensions, but the graph declares it with " +
                std::to_string(input->dims.size()) + " (" + DimsText(input->dims) + ")");
        }
        if (input->has_shape) {
            for (size_t i = 0; i < dims.size(); ++i) {
                if (input->dims[i] > 0 && dims[i] > 0 && input->dims[i] != dims[i]) {
                    Log(kWarning, "--input_shape changes dimension " + std::to_string(i) +
                                      " of \"" + name + "\" from the graph's " +
                                      std::to_string(input->dims[i]) + " to " +
                                      std::to_string(dims[i]));
                }
            }
        }
        if (!shapes->emplace(name, dims).second) {
            Die("--input_shape gives \"" + name + "\" twice; give each input once");
        }
    }
}

std::set<std::string> ApplyFp16Nodes(const std::string& text, Graph& graph) {
    std::set<std::string> names;
    for (const std::string& name : SplitList(text)) {
        if (name.empty()) Die("--input_fp16_nodes has an empty name; separate names with ';'");
        const GraphInput* input = FindInput(graph, name, "--input_fp16_nodes");
        if (input->elem_type != onnx::TensorProto::FLOAT &&
            input->elem_type != onnx::TensorProto::FLOAT16) {
            Die("--input_fp16_nodes names \"" + name + "\", whose type is " +
                TypeText(input->elem_type) + "; only float inputs can be fed as float16");
        }
        if (!names.insert(name).second) Die("--input_fp16_nodes names \"" + name + "\" twice");
    }
    return names;
}

aclDataType OutputType(const std::string& name, const std::string& where) {
    if (name == "FP32") return ACL_FLOAT;
    if (name == "FP16") return ACL_FLOAT16;
    if (name == "UINT8") return ACL_UINT8;
    Die(where + " has the type \"" + name + "\"; the types are FP32, FP16 and UINT8");
}

std::map<std::string, aclDataType> ApplyOutputType(const std::string& text, const Graph& graph) {
    std::map<std::string, aclDataType> types;
    if (text.find(':') == std::string::npos) {
        types[""] = OutputType(text, "--output_type");
        return types;
    }
    const onnx::GraphProto& g = graph.model.graph();
    for (const std::string& item : SplitList(text)) {
        const size_t type_colon = item.rfind(':');
        const size_t index_colon =
            type_colon == 0 ? std::string::npos : item.rfind(':', type_colon - 1);
        int64_t index = 0;
        if (index_colon == std::string::npos || index_colon == 0 ||
            !ParseInt(item.substr(index_colon + 1, type_colon - index_colon - 1), &index) ||
            index < 0) {
            Die("--output_type entry \"" + item +
                "\" is not node:index:type; write e.g. --output_type=\"conv1:0:FP16\"");
        }
        const std::string node = item.substr(0, index_colon);
        const aclDataType type = OutputType(item.substr(type_colon + 1), "--output_type");
        // CANN names an operator and one of its outputs; ONNX exporters often leave nodes
        // unnamed, so the graph output's own name (index 0) is accepted too.
        std::string output;
        bool node_found = false;
        for (const onnx::NodeProto& n : g.node()) {
            if (n.name() != node) continue;
            node_found = true;
            if (index >= n.output_size()) {
                Die("--output_type entry \"" + item + "\": node \"" + node + "\" has " +
                    std::to_string(n.output_size()) + " outputs");
            }
            output = n.output(static_cast<int>(index));
            break;
        }
        if (!node_found) {
            if (index != 0 || std::find(graph.outputs.begin(), graph.outputs.end(), node) ==
                                  graph.outputs.end()) {
                Die("--output_type entry \"" + item + "\": the graph has no node named \"" + node +
                    "\"; name a node and its output index, or a graph output (" +
                    Join(graph.outputs) + ") with index 0");
            }
            output = node;
        }
        if (std::find(graph.outputs.begin(), graph.outputs.end(), output) == graph.outputs.end()) {
            Die("--output_type entry \"" + item + "\" names \"" + output +
                "\", which is not an output of the graph; its outputs are: " + Join(graph.outputs));
        }
        if (!types.emplace(output, type).second) {
            Die("--output_type sets the type of output \"" + output + "\" twice");
        }
    }
    return types;
}

uint64_t Gear(const std::string& text, const char* flag) {
    int64_t v = 0;
    if (!ParseInt(text, &v) || v < 1) {
        Die(std::string(flag) + " has \"" + text + "\"; gears are positive integers");
    }
    return static_cast<uint64_t>(v);
}

void CheckGearCount(size_t count, const char* flag) {
    if (count < 2 || count > 100) {
        Die(std::string(flag) + " has " + std::to_string(count) + " gears; give between 2 and 100");
    }
}

// Dimensions of `shapes` that are -1 must be exactly those `dynamic` picks for every input
// that has any, and at least one input must have them.
template <typename Pick>
void CheckDynamicDims(const std::map<std::string, std::vector<int64_t>>& shapes, const char* flag,
                      const char* which, Pick dynamic) {
    bool any = false;
    for (const auto& [name, dims] : shapes) {
        if (std::find(dims.begin(), dims.end(), -1) == dims.end()) continue;
        any = true;
        for (size_t i = 0; i < dims.size(); ++i) {
            if ((dims[i] == -1) != dynamic(dims.size(), i)) {
                Die(std::string(flag) + " needs " + which + " of \"" + name +
                    "\" to be -1 in --input_shape and every other dimension fixed; it is " +
                    DimsText(dims));
            }
        }
    }
    if (!any) {
        Die(std::string(flag) + " needs --input_shape to mark " + which +
            " of an input as -1, e.g. --input_shape=\"input:-1,3,224,224\"");
    }
}

OmOptions DecideOptions(const Flags& flags, Graph& graph) {
    OmOptions options;
    options.producer = std::string("openacl atc ") + OPENACL_VERSION_STRING;
    if (const std::string* soc = Find(flags, "soc_version")) {
        if (soc->rfind("Ascend", 0) != 0) {
            Die("--soc_version=" + *soc +
                " is not an Ascend SoC name; give the one your scripts use for CANN, e.g. "
                "--soc_version=Ascend310P3");
        }
        options.soc_version = *soc;
    } else {
        Log(kWarning,
            "--soc_version is not given (CANN's atc requires it, e.g. Ascend310P3); openacl runs "
            "the model on the CPU whatever it says");
    }
    if (const std::string* format = Find(flags, "input_format")) {
        if (*format != "NCHW" && *format != "NHWC" && *format != "ND") {
            Die("--input_format=" + *format + " is not supported; use NCHW, NHWC or ND");
        }
        options.input_format = *format;
    }

    std::map<std::string, std::vector<int64_t>> shapes;
    if (const std::string* text = Find(flags, "input_shape")) {
        ApplyInputShape(*text, graph, &shapes);
    }
    std::set<std::string> fp16;
    if (const std::string* text = Find(flags, "input_fp16_nodes")) {
        fp16 = ApplyFp16Nodes(*text, graph);
    }
    if (const std::string* text = Find(flags, "output_type")) {
        options.output_types = ApplyOutputType(*text, graph);
    }

    const std::string* batch = Find(flags, "dynamic_batch_size");
    const std::string* image = Find(flags, "dynamic_image_size");
    if (batch != nullptr && image != nullptr) {
        Die("--dynamic_batch_size and --dynamic_image_size exclude each other; give one");
    }
    if (Find(flags, "dynamic_dims") != nullptr && (batch != nullptr || image != nullptr)) {
        Die("--dynamic_dims excludes --dynamic_batch_size and --dynamic_image_size; give one");
    }
    if (batch != nullptr) {
        for (const std::string& g : Split(*batch, ',')) {
            options.dynamic_batch_sizes.push_back(Gear(g, "--dynamic_batch_size"));
        }
        CheckGearCount(options.dynamic_batch_sizes.size(), "--dynamic_batch_size");
        CheckDynamicDims(shapes, "--dynamic_batch_size", "the batch (first) dimension",
                         [](size_t, size_t i) { return i == 0; });
    }
    if (image != nullptr) {
        const std::string format = options.input_format.empty() ? "NCHW" : options.input_format;
        if (format == "ND") {
            Die("--dynamic_image_size needs --input_format NCHW or NHWC to know which dimensions "
                "are H and W");
        }
        const size_t h = format == "NCHW" ? 2 : 1;
        for (const std::string& pair : SplitList(*image)) {
            const std::vector<std::string> hw = Split(pair, ',');
            if (hw.size() != 2) {
                Die("--dynamic_image_size gear \"" + pair +
                    "\" is not height,width; write e.g. --dynamic_image_size=\"224,224;448,448\"");
            }
            options.dynamic_image_sizes.push_back(
                {Gear(hw[0], "--dynamic_image_size"), Gear(hw[1], "--dynamic_image_size")});
        }
        CheckGearCount(options.dynamic_image_sizes.size(), "--dynamic_image_size");
        CheckDynamicDims(
            shapes, "--dynamic_image_size", ("H and W (" + format + ")").c_str(),
            [h](size_t rank, size_t i) { return rank == 4 && (i == h || i == h + 1); });
    }
    if (const std::string* dims = Find(flags, "dynamic_dims")) {
        if (options.input_format != "ND") {
            Die("--dynamic_dims needs --input_format=ND (as CANN's atc): the gears give any "
                "dimensions, not a batch or an image size");
        }
        // The -1 dims in graph input order, which each gear fills in turn.
        size_t dynamic = 0;
        for (const GraphInput& input : graph.inputs) {
            const auto shape = shapes.find(input.name);
            if (shape != shapes.end()) {
                dynamic +=
                    static_cast<size_t>(std::count(shape->second.begin(), shape->second.end(), -1));
            }
        }
        if (dynamic == 0) {
            Die("--dynamic_dims needs --input_shape to mark the dynamic dimensions as -1, e.g. "
                "--input_shape=\"x:1,-1,-1\" --dynamic_dims=\"20,20;40,40\"");
        }
        for (const std::string& gear_text : SplitList(*dims)) {
            std::vector<uint64_t> gear;
            for (std::string value : Split(gear_text, ',')) {
                value.erase(0, value.find_first_not_of(' '));
                value.erase(value.find_last_not_of(' ') + 1);
                gear.push_back(Gear(value, "--dynamic_dims"));
            }
            if (gear.size() != dynamic) {
                Die("--dynamic_dims gear \"" + gear_text + "\" has " + std::to_string(gear.size()) +
                    " values; --input_shape marks " + std::to_string(dynamic) +
                    " dimensions -1, and each gear gives them all");
            }
            options.dynamic_dims.push_back(std::move(gear));
        }
        CheckGearCount(options.dynamic_dims.size(), "--dynamic_dims");
    }
    auto has_duplicates = [](auto items) {
        std::sort(items.begin(), items.end());
        return std::adjacent_find(items.begin(), items.end()) != items.end();
    };
    if (has_duplicates(options.dynamic_batch_sizes)) Die("--dynamic_batch_size repeats a gear");
    if (has_duplicates(options.dynamic_image_sizes)) Die("--dynamic_image_size repeats a gear");
    if (has_duplicates(options.dynamic_dims)) Die("--dynamic_dims repeats a gear");

    for (const GraphInput& input : graph.inputs) {
        OmInputOption option;
        option.name = input.name;
        const auto shape = shapes.find(input.name);
        if (shape != shapes.end()) option.shape = shape->second;
        option.fp16 = fp16.count(input.name) != 0;
        options.inputs.push_back(std::move(option));
        Log(kInfo, "input \"" + input.name + "\": " + TypeText(input.elem_type) + " [" +
                       DimsText(shape != shapes.end() ? shape->second : input.dims) + "]" +
                       (fp16.count(input.name) ? ", fed as FP16" : ""));
    }
    return options;
}

std::string OutputPath(const std::string& output) {
    std::string path = output;
    if (path.size() >= 3 && path.compare(path.size() - 3, 3, ".om") == 0) {
        path.resize(path.size() - 3);
    }
    if (path.empty() || path.back() == '/') {
        Die("--output=" + output +
            " names no file; give a path without .om, e.g. --output=out/model");
    }
    path += ".om";
    const fs::path parent = fs::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty() && !fs::is_directory(parent, ec)) {
        Die("the directory " + parent.string() + " of --output does not exist; create it first");
    }
    return path;
}

EngineTimer g_engine_timer = nullptr;

// Which engine the model will run on: the compiled one (oneDNN) when the compiler covers the
// whole graph, OpenCV DNN otherwise, with the operators that decided it. The graph is compiled
// with the shapes --input_shape gives it (as the loader applies them), and the plan goes into
// the .om (its plan section), so the load does not compile again.
std::string EngineVerdict(OmFile* file_ptr) {
    OmFile& file = *file_ptr;
    std::vector<std::pair<std::string, std::vector<int64_t>>> shapes;
    for (const auto& input : file.options.inputs) {
        for (int64_t d : input.shape) {
            if (d < 0) return "Engine: opencv-dnn (dynamic input shapes are not compiled)";
        }
        if (!input.shape.empty()) shapes.emplace_back(input.name, input.shape);
    }
    if (!file.options.dynamic_batch_sizes.empty() || !file.options.dynamic_image_sizes.empty() ||
        !file.options.dynamic_dims.empty()) {
        return "Engine: opencv-dnn (dynamic gears are not compiled)";
    }
    std::string onnx = file.onnx;
    std::string error;
    if (!openacl::model::ApplyInputShapes(&onnx, shapes, &error)) Die(error);
    openacl::model::CompileResult result;
    if (openacl::model::CompileOnnx(onnx, openacl::model::CompileOptions{}, &result)) {
        file.plan = openacl::model::SerializePlan(result.plan);
        std::string timed;
        if (g_engine_timer != nullptr) {
            openacl::model::EngineChoices& choices = file.options.engine;
            if (g_engine_timer(result.plan, &choices, &error)) {
                timed =
                    "; timed on this machine: " + std::string(choices.nhwc ? "nhwc" : "nChw16c") +
                    ", " + std::to_string(choices.threads) + " thread" +
                    (choices.threads == 1 ? "" : "s");
            } else {
                choices = {};
                Log(kWarning, "the compiled engine could not be timed here (" + error +
                                  "); the load will time it");
            }
        }
        return "Engine: onednn (compiled plan of " + std::to_string(result.plan.layers.size()) +
               " layers" + timed + ")";
    }
    std::string why;
    for (const auto& op : result.unsupported)
        why += (why.empty() ? "" : ", ") + op;
    if (why.empty()) why = result.error;
    return "Engine: opencv-dnn (the compiled engine does not cover: " + why + ")";
}

void Convert(const Flags& flags) {
    const std::string* model = Find(flags, "model");
    if (model == nullptr) {
        Die("--model is required: give the ONNX model to convert (--model=<file.onnx>)");
    }
    if (const std::string* framework = Find(flags, "framework")) {
        static const std::map<std::string, std::string> kOthers = {
            {"0", "Caffe"}, {"1", "MindSpore"}, {"3", "TensorFlow"}};
        const auto other = kOthers.find(*framework);
        if (other != kOthers.end()) {
            Die("--framework=" + *framework + " (" + other->second +
                ") is not supported: openacl's atc converts only 5 (ONNX); export the model to "
                "ONNX and pass --framework=5");
        }
        if (*framework != "5") {
            Die("--framework=" + *framework + " is not a framework; use --framework=5 (ONNX)");
        }
    }
    const std::string* output = Find(flags, "output");
    if (output == nullptr) {
        Die("--output is required: where to write the model (--output=<path>, .om is appended)");
    }
    for (const char* key : {"om", "json"}) {
        if (Find(flags, key) != nullptr) {
            Die(std::string("--") + key + " belongs to --mode=1; remove it");
        }
    }
    const std::string path = OutputPath(*output);

    OmFile file;
    file.onnx = ReadFile(*model, "--model");
    Graph graph = LoadGraph(*model, file.onnx);
    file.options = DecideOptions(flags, graph);
    const std::string verdict = EngineVerdict(&file);
    const std::string image = openacl::model::SerializeOm(file);
    std::string error;
    if (!openacl::model::ParseOm(image.data(), image.size(), nullptr, &error)) {
        Die("internal error: the .om written does not read back (" + error + ")");
    }
    WriteFile(path, image);
    std::cout << "ATC run success, welcome to the next use.\n"
              << "Model written to " << path << " (" << image.size() << " bytes)\n"
              << verdict << "\n";
}

// --singleop: one single-operator model per operator of the JSON list, in the --output
// directory (created when missing). openacl's models describe the operator (its kernels are
// built into the runtime); the runtime says at execution if it has no operator of a type.
void ConvertSingleOp(const Flags& flags) {
    for (const char* key :
         {"model", "framework", "input_shape", "input_format", "input_fp16_nodes", "output_type",
          "dynamic_batch_size", "dynamic_image_size", "om", "json"}) {
        if (Find(flags, key) != nullptr) {
            Die(std::string("--") + key +
                " belongs to model conversion; --singleop takes "
                "--output (and --soc_version)");
        }
    }
    const std::string& json_path = *Find(flags, "singleop");
    const std::string* output = Find(flags, "output");
    if (output == nullptr) {
        Die("--output is required with --singleop: the directory the models go to");
    }
    const std::string text = ReadFile(json_path, "--singleop");
    std::vector<openacl::op::OpModelSpec> ops;
    std::string error;
    if (!openacl::op::ParseSingleOpJson(text, &ops, &error)) {
        Die("--singleop=" + json_path + ": " + error);
    }
    std::error_code ec;
    fs::create_directories(*output, ec);
    if (!fs::is_directory(*output, ec)) {
        Die("--output=" + *output + " is not a directory and cannot be created");
    }
    const std::string producer = std::string("openacl atc ") + OPENACL_VERSION_STRING;
    std::set<std::string> written;
    std::vector<std::string> paths;
    for (size_t i = 0; i < ops.size(); ++i) {
        const std::string name =
            ops[i].name.empty() ? openacl::op::DefaultModelName(i, ops[i].desc) : ops[i].name;
        if (!written.insert(name).second) {
            Die("operator " + std::to_string(i) + " would be written as " + name +
                ".om, which an earlier operator of the list is already: give them distinct "
                "\"name\"s");
        }
        const std::string image = openacl::op::SerializeOpModel(ops[i], producer);
        openacl::op::OpModelSpec check;
        if (!openacl::op::ParseOpModel(image.data(), image.size(), &check, &error)) {
            Die("internal error: the model of operator " + std::to_string(i) +
                " does not read back (" + error + ")");
        }
        const std::string path = (fs::path(*output) / (name + ".om")).string();
        WriteFile(path, image);
        paths.push_back(path);
        Log(kInfo,
            "operator " + std::to_string(i) + " (" + ops[i].desc.type + ") written to " + path);
    }
    std::cout << "ATC run success, welcome to the next use.\n"
              << ops.size() << " single-operator model" << (ops.size() == 1 ? "" : "s")
              << " written to " << *output << "\n";
}

// --mode=1: what an .om holds, as JSON.
void ShowOm(const Flags& flags) {
    const std::string* om = Find(flags, "om");
    const std::string* json = Find(flags, "json");
    if (om == nullptr || json == nullptr) {
        Die("--mode=1 needs --om=<file.om> and --json=<file to write>");
    }
    const std::string bytes = ReadFile(*om, "--om");
    if (openacl::op::IsOpModel(bytes.data(), bytes.size())) {
        openacl::op::OpModelSpec spec;
        std::string error;
        if (!openacl::op::ParseOpModel(bytes.data(), bytes.size(), &spec, &error)) {
            Die("--om=" + *om + " cannot be read: " + error);
        }
        WriteFile(*json, openacl::op::OpModelJsonText(bytes.data(), bytes.size()) + "\n");
        std::cout << "ATC run success, welcome to the next use.\n"
                  << "Model information written to " << *json << "\n";
        return;
    }
    OmFile file;
    std::string error;
    if (!openacl::model::ParseOm(bytes.data(), bytes.size(), &file, &error)) {
        Die("--om=" + *om + " cannot be read: " + error);
    }
    const nlohmann::ordered_json info = {
        {"om_format_version", openacl::model::kOmFormatVersion},
        {"onnx_bytes", file.onnx.size()},
        {"plan_bytes", file.plan.size()},
        {"options", nlohmann::json::parse(openacl::model::OmOptionsToJson(file.options))}};
    const std::string text = info.dump(2) + "\n";
    WriteFile(*json, text);
    std::cout << "ATC run success, welcome to the next use.\n"
              << "Model information written to " << *json << "\n";
}

void Run(int argc, char** argv) {
    bool help = false;
    std::vector<std::string> ignored;
    const Flags flags = ParseArguments(argc, argv, &help, &ignored);
    if (help || argc == 1) {
        std::cout << kHelp;
        return;
    }
    if (const std::string* log = Find(flags, "log")) {
        static const std::map<std::string, LogLevel> kLevels = {{"debug", kDebug},
                                                                {"info", kInfo},
                                                                {"warning", kWarning},
                                                                {"error", kError},
                                                                {"null", kNull}};
        const auto level = kLevels.find(*log);
        if (level == kLevels.end()) {
            Die("--log=" + *log + " is not a level; use debug, info, warning, error or null");
        }
        g_log_level = level->second;
    }
    for (const std::string& warning : ignored)
        Log(kWarning, warning);
    const std::string* mode = Find(flags, "mode");
    if (Find(flags, "singleop") != nullptr) {
        if (mode != nullptr && *mode != "0")
            Die("--singleop converts: it takes no --mode=" + *mode);
        ConvertSingleOp(flags);
    } else if (mode == nullptr || *mode == "0") {
        Convert(flags);
    } else if (*mode == "1") {
        ShowOm(flags);
    } else {
        Die("--mode=" + *mode +
            " is not supported; openacl's atc has 0 (convert a model) and 1 "
            "(show an .om as JSON)");
    }
}

}  // namespace

int AtcMain(int argc, char** argv) {
    g_log_level = kDefaultLogLevel;  // each run starts from the defaults
    try {
        Run(argc, argv);
    } catch (const AtcError& e) {
        std::cerr << "ATC run failed: " << e.message << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "ATC run failed: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

void SetEngineTimer(EngineTimer timer) {
    g_engine_timer = timer;
}
