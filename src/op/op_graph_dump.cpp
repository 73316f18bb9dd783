#include "op/op_graph_dump.h"

#include <sys/stat.h>

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <new>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <variant>

#include "core/live_set.h"
#include "op/op_plan.h"

namespace openacl::op {
namespace {

std::string Quoted(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + '"';
}

std::string DtypeName(aclDataType type) {
    const char* name = DtypeJsonName(type);
    return name != nullptr ? name : "dtype_" + std::to_string(static_cast<int>(type));
}

std::string FormatName(aclFormat format) {
    const char* name = FormatJsonName(format);
    return name != nullptr ? name : "format_" + std::to_string(static_cast<int>(format));
}

void Desc(std::ostringstream& out, const char* kind, const TensorSpec& spec) {
    out << "    " << kind << " {\n";
    if (spec.absent()) {
        out << "      dtype: \"undefined\"\n    }\n";
        return;
    }
    out << "      dtype: " << Quoted(DtypeName(spec.dtype)) << "\n";
    out << "      layout: " << Quoted(FormatName(spec.format)) << "\n";
    out << "      shape {";
    for (int64_t d : spec.dims)
        out << " dim: " << d;
    out << " }\n";
    if (!spec.shape_range.empty()) {
        out << "      shape_range {";
        for (const auto& range : spec.shape_range)
            out << " range { min: " << range[0] << " max: " << range[1] << " }";
        out << " }\n";
    }
    if (!spec.name.empty()) out << "      name: " << Quoted(spec.name) << "\n";
    if (spec.host()) out << "      placement: \"host\"\n";
    if (spec.is_const)
        out << "      is_const: true const_bytes: " << spec.const_data.size() << "\n";
    out << "    }\n";
}

std::string Value(const OpAttrValue& value) {
    std::ostringstream out;
    std::visit(
        [&out](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>) {
                out << "b: " << (v ? "true" : "false");
            } else if constexpr (std::is_same_v<T, int64_t>) {
                out << "i: " << v;
            } else if constexpr (std::is_same_v<T, float>) {
                out << "f: " << v;
            } else if constexpr (std::is_same_v<T, std::string>) {
                out << "s: " << Quoted(v);
            } else if constexpr (std::is_same_v<T, aclDataType>) {
                out << "dt: " << Quoted(DtypeName(v));
            } else if constexpr (std::is_same_v<T, std::vector<uint8_t>>) {
                out << "list {";
                for (uint8_t b : v)
                    out << " b: " << (b != 0 ? "true" : "false");
                out << " }";
            } else if constexpr (std::is_same_v<T, std::vector<int64_t>> ||
                                 std::is_same_v<T, std::vector<float>>) {
                out << "list {";
                for (auto x : v)
                    out << (std::is_same_v<T, std::vector<float>> ? " f: " : " i: ") << x;
                out << " }";
            } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
                out << "list {";
                for (const std::string& s : v)
                    out << " s: " << Quoted(s);
                out << " }";
            } else if constexpr (std::is_same_v<T, std::vector<aclDataType>>) {
                out << "list {";
                for (aclDataType t : v)
                    out << " dt: " << Quoted(DtypeName(t));
                out << " }";
            } else {
                out << "list_list_int {";
                for (const std::vector<int64_t>& list : v) {
                    out << " list_list_i {";
                    for (int64_t x : list)
                        out << " list_i: " << x;
                    out << " }";
                }
                out << " }";
            }
        },
        value);
    return out.str();
}

bool IsDirectory(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// A name for the call's graph inside a directory: the type and a digest of the call, so that
// the same call overwrites its file and another call does not.
std::string FileName(const OpDesc& desc) {
    uint64_t digest = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : DescKey(desc, true)) {
        digest ^= c;
        digest *= 1099511628211ull;
    }
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "_%016" PRIx64 ".txt", digest);
    std::string name;
    for (char c : desc.type)
        name += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') ? c : '_';
    return "ge_single_op_" + name + suffix;
}

}  // namespace

std::string GraphText(const OpDesc& desc) {
    std::ostringstream out;
    out << "graph {\n  name: " << Quoted(desc.type + "_graph") << "\n";
    for (size_t i = 0; i < desc.inputs.size(); ++i) {
        if (desc.inputs[i].absent()) continue;
        out << "  op {\n    name: " << Quoted("Data_" + std::to_string(i))
            << "\n    type: \"Data\"\n    attr { key: \"index\" value { i: " << i << " } }\n";
        Desc(out, "input_desc", desc.inputs[i]);
        Desc(out, "output_desc", desc.inputs[i]);
        out << "  }\n";
    }
    out << "  op {\n    name: " << Quoted(desc.type) << "\n    type: " << Quoted(desc.type) << "\n";
    for (size_t i = 0; i < desc.inputs.size(); ++i) {
        out << "    input: "
            << Quoted(desc.inputs[i].absent() ? "" : "Data_" + std::to_string(i) + ":0") << "\n";
    }
    for (const auto& [name, value] : desc.attr.entries())
        out << "    attr { key: " << Quoted(name) << " value { " << Value(value) << " } }\n";
    for (const TensorSpec& spec : desc.inputs)
        Desc(out, "input_desc", spec);
    for (const TensorSpec& spec : desc.outputs)
        Desc(out, "output_desc", spec);
    out << "  }\n  op {\n    name: \"NetOutput\"\n    type: \"NetOutput\"\n";
    for (size_t j = 0; j < desc.outputs.size(); ++j)
        out << "    input: " << Quoted(desc.type + ":" + std::to_string(j)) << "\n";
    for (const TensorSpec& spec : desc.outputs)
        Desc(out, "input_desc", spec);
    out << "  }\n}\n";
    return out.str();
}

std::string DumpGraph(const OpDesc& desc, const std::string& path) {
    std::string file;
    if (IsDirectory(path)) {
        file = path + (path.back() == '/' ? "" : "/") + FileName(desc);
    } else {
        const size_t slash = path.rfind('/');
        const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
        const bool txt = path.size() > 4 && path.compare(path.size() - 4, 4, ".txt") == 0;
        if (!txt || !IsDirectory(dir)) {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "graphDumpPath \"%s\" is neither an existing directory nor a .txt file in "
                  "one: create the directory first (CANN does not create it either)",
                  path.c_str());
        }
        file = path;
    }
    std::ofstream out(file, std::ios::trunc);
    out << GraphText(desc);
    out.close();
    if (!out) {
        Throw(ACL_ERROR_WRITE_FILE, "cannot write the graph of %s to %s", desc.type.c_str(),
              file.c_str());
    }
    return file;
}

LiveSet<aclGraphDumpOption>& Options() {
    static auto* options = new LiveSet<aclGraphDumpOption>;
    return *options;
}

aclGraphDumpOption* NewGraphDumpOption() {
    auto* option = new (std::nothrow) aclGraphDumpOption;
    if (option != nullptr && Options().Add(option) == nullptr) {
        delete option;
        return nullptr;
    }
    return option;
}

bool DeleteGraphDumpOption(const aclGraphDumpOption* option) {
    if (!Options().Remove(option)) return false;
    delete option;
    return true;
}

bool IsLiveGraphDumpOption(const aclGraphDumpOption* option) {
    return Options().Contains(option);
}

}  // namespace openacl::op
