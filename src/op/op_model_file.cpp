#include "op/op_model_file.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/float16.h"
#include "model/om_file.h"

namespace openacl::op {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

constexpr char kMagic[8] = {'O', 'A', 'C', 'L', '-', 'O', 'P', '\0'};
constexpr size_t kChecksumOffset = 60;  // where model::OmChecksum leaves its four bytes out
constexpr int kMaxDepth = 32;

// Thrown while parsing; caught at the entry points and turned into *error.
struct ParseError {
    std::string message;
};

[[noreturn]] void Bad(std::string message) {
    throw ParseError{std::move(message)};
}

uint64_t Load64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}
uint32_t Load32(const uint8_t* p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
           static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}
void Store64(std::string& s, size_t at, uint64_t v) {
    for (int i = 0; i < 8; ++i)
        s[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
void Store32(std::string& s, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        s[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

bool TooDeep(const Json& j, int depth) {
    if (depth > kMaxDepth) return true;
    if (j.is_array() || j.is_object()) {
        for (const Json& item : j) {
            if (TooDeep(item, depth + 1)) return true;
        }
    }
    return false;
}

int64_t IntOf(const Json& j, const std::string& where) {
    if (j.is_number_integer()) return j.get<int64_t>();
    if (j.is_number_unsigned()) {
        const uint64_t v = j.get<uint64_t>();
        if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
            Bad(where + " is " + j.dump() + ", too large for a 64-bit integer");
        }
        return static_cast<int64_t>(v);
    }
    Bad(where + " is " + j.dump() + ": an integer was expected");
}

std::vector<int64_t> IntsOf(const Json& j, const std::string& where) {
    if (!j.is_array()) Bad(where + " is " + j.dump() + ": a list of integers was expected");
    std::vector<int64_t> out;
    for (size_t i = 0; i < j.size(); ++i)
        out.push_back(IntOf(j[i], where + "[" + std::to_string(i) + "]"));
    return out;
}

const std::string& StringOf(const Json& j, const std::string& where) {
    if (!j.is_string()) Bad(where + " is " + j.dump() + ": a string was expected");
    return j.get_ref<const std::string&>();
}

aclDataType DtypeOf(const Json& j, const std::string& where) {
    if (j.is_number_integer()) {
        const int64_t v = j.get<int64_t>();
        const auto type = static_cast<aclDataType>(v);
        if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max() ||
            DtypeJsonName(type) == nullptr) {
            Bad(where + " is " + j.dump() + ", which is no data type openacl knows");
        }
        return type;
    }
    aclDataType type = ACL_DT_UNDEFINED;
    if (!DtypeFromJsonName(StringOf(j, where), &type)) {
        Bad(where + " is \"" + j.get<std::string>() +
            "\", which is no data type (bool, int8..int64, uint8..uint64, float16, bfloat16, "
            "float, double)");
    }
    return type;
}

// The bytes of one value of `type` (a number from JSON).
void AppendValue(std::vector<uint8_t>* bytes, aclDataType type, const Json& j,
                 const std::string& where) {
    if (!j.is_number() && !j.is_boolean())
        Bad(where + " is " + j.dump() + ": a number was expected");
    const double d = j.is_boolean() ? (j.get<bool>() ? 1.0 : 0.0) : j.get<double>();
    auto put = [bytes](const auto& value) {
        const auto* p = reinterpret_cast<const uint8_t*>(&value);
        bytes->insert(bytes->end(), p, p + sizeof value);
    };
    auto integer = [&]() -> int64_t {
        if (j.is_boolean()) return j.get<bool>() ? 1 : 0;
        if (j.is_number_integer()) return j.get<int64_t>();
        if (j.is_number_unsigned()) return static_cast<int64_t>(j.get<uint64_t>());
        if (std::trunc(d) != d || !(std::fabs(d) < 9.2e18)) {
            Bad(where + " is " + j.dump() + ", not a 64-bit integer");
        }
        return static_cast<int64_t>(d);
    };
    switch (type) {
        case ACL_BOOL:
            put(static_cast<uint8_t>(d != 0.0 ? 1 : 0));
            break;
        case ACL_INT8:
            put(static_cast<int8_t>(integer()));
            break;
        case ACL_UINT8:
            put(static_cast<uint8_t>(integer()));
            break;
        case ACL_INT16:
            put(static_cast<int16_t>(integer()));
            break;
        case ACL_UINT16:
            put(static_cast<uint16_t>(integer()));
            break;
        case ACL_INT32:
            put(static_cast<int32_t>(integer()));
            break;
        case ACL_UINT32:
            put(static_cast<uint32_t>(integer()));
            break;
        case ACL_INT64:
            put(integer());
            break;
        case ACL_UINT64:
            put(j.is_number_unsigned() ? j.get<uint64_t>() : static_cast<uint64_t>(integer()));
            break;
        case ACL_FLOAT16:
            put(f16::HalfFromDouble(d));
            break;
        case ACL_BF16:
            put(f16::Bf16FromDouble(d));
            break;
        case ACL_FLOAT:
            put(static_cast<float>(d));
            break;
        case ACL_DOUBLE:
            put(d);
            break;
        default:
            Bad(where + ": constant values of this data type are not supported");
    }
}

void Flatten(const Json& j, std::vector<const Json*>* out) {
    if (j.is_array()) {
        for (const Json& item : j)
            Flatten(item, out);
    } else {
        out->push_back(&j);
    }
}

// The values of `bytes` (of `type`) as JSON numbers.
Json ValuesJson(aclDataType type, const std::vector<uint8_t>& bytes) {
    Json out = Json::array();
    const size_t size = ElementSize(type);
    for (size_t at = 0; size != 0 && at + size <= bytes.size(); at += size) {
        const uint8_t* p = bytes.data() + at;
        auto get = [p](auto value) {
            std::memcpy(&value, p, sizeof value);
            return value;
        };
        switch (type) {
            case ACL_BOOL:
                out.push_back(p[0] != 0 ? 1 : 0);
                break;
            case ACL_INT8:
                out.push_back(get(int8_t{}));
                break;
            case ACL_UINT8:
                out.push_back(get(uint8_t{}));
                break;
            case ACL_INT16:
                out.push_back(get(int16_t{}));
                break;
            case ACL_UINT16:
                out.push_back(get(uint16_t{}));
                break;
            case ACL_INT32:
                out.push_back(get(int32_t{}));
                break;
            case ACL_UINT32:
                out.push_back(get(uint32_t{}));
                break;
            case ACL_INT64:
                out.push_back(get(int64_t{}));
                break;
            case ACL_UINT64:
                out.push_back(get(uint64_t{}));
                break;
            case ACL_FLOAT16:
                out.push_back(f16::HalfToFloat(get(uint16_t{})));
                break;
            case ACL_BF16:
                out.push_back(f16::Bf16ToFloat(get(uint16_t{})));
                break;
            case ACL_FLOAT:
                out.push_back(get(float{}));
                break;
            case ACL_DOUBLE:
                out.push_back(get(double{}));
                break;
            default:
                break;
        }
    }
    return out;
}

TensorSpec ParseTensor(const Json& j, const std::string& where) {
    if (!j.is_object())
        Bad(where + " is " + j.dump() + ": a tensor description object was expected");
    TensorSpec spec;
    const auto type = j.find("type");
    const auto format = j.find("format");
    if (type == j.end()) Bad(where + " has no \"type\"");
    if (type->is_string() &&
        (StringOf(*type, where) == "UNDEFINED" || StringOf(*type, where) == "undefined")) {
        // An unused optional input.
        return spec;
    }
    spec.dtype = DtypeOf(*type, where + ".type");
    if (format == j.end()) Bad(where + " has no \"format\"");
    const std::string& format_name = StringOf(*format, where + ".format");
    if (!FormatFromJsonName(format_name, &spec.format) || spec.format == ACL_FORMAT_UNDEFINED) {
        Bad(where + ".format is \"" + format_name +
            "\", which is no format (ND, NCHW, NHWC, HWCN, NC, NCL, NCDHW, NDHWC, NC1HWC0, "
            "FRACTAL_Z, FRACTAL_NZ, ...)");
    }
    const auto shape = j.find("shape");
    if (shape == j.end()) Bad(where + " has no \"shape\" ([] for a scalar)");
    spec.dims = IntsOf(*shape, where + ".shape");
    for (size_t i = 0; i < spec.dims.size(); ++i) {
        const int64_t d = spec.dims[i];
        if (d < kUnknownRankDim || (d == kUnknownRankDim && spec.dims.size() != 1)) {
            Bad(where + ".shape[" + std::to_string(i) + "] is " + std::to_string(d) +
                ": dimensions are >= 0, -1 (dynamic) or a lone -2 (unknown rank)");
        }
    }
    if (const auto range = j.find("shape_range"); range != j.end()) {
        if (!range->is_array()) Bad(where + ".shape_range is not a list of [min, max] pairs");
        if (range->size() != spec.dims.size()) {
            Bad(where + ".shape_range has " + std::to_string(range->size()) +
                " pairs but the shape has " + std::to_string(spec.dims.size()) +
                " dimensions: give one [min, max] per dimension");
        }
        for (size_t i = 0; i < range->size(); ++i) {
            const std::string at = where + ".shape_range[" + std::to_string(i) + "]";
            const std::vector<int64_t> pair = IntsOf((*range)[i], at);
            if (pair.size() != 2 || pair[0] < 0 || (pair[1] != -1 && pair[1] < pair[0])) {
                Bad(at + " is " + (*range)[i].dump() +
                    ": a range is [min, max] with 0 <= min <= max, or max -1 (unbounded)");
            }
            spec.shape_range.push_back({pair[0], pair[1]});
        }
    }
    if (const auto name = j.find("name"); name != j.end()) {
        spec.name = StringOf(*name, where + ".name");
    }
    if (const auto origin = j.find("origin_format"); origin != j.end()) {
        aclFormat ignored = ACL_FORMAT_UNDEFINED;
        if (!FormatFromJsonName(StringOf(*origin, where + ".origin_format"), &ignored)) {
            Bad(where + ".origin_format is \"" + origin->get<std::string>() + "\", no format");
        }
    }
    if (const auto origin = j.find("origin_shape"); origin != j.end()) {
        IntsOf(*origin, where + ".origin_shape");
    }
    if (const auto is_const = j.find("is_const"); is_const != j.end()) {
        if (!is_const->is_boolean()) Bad(where + ".is_const is not true or false");
        spec.is_const = is_const->get<bool>();
    }
    if (const auto value = j.find("const_value"); value != j.end()) {
        if (!spec.is_const) Bad(where + " has a const_value but is_const is not true");
        std::vector<const Json*> values;
        Flatten(*value, &values);
        const int64_t numel = spec.numel();
        if (numel >= 0 && static_cast<int64_t>(values.size()) != numel) {
            Bad(where + ".const_value has " + std::to_string(values.size()) +
                " values but the shape holds " + std::to_string(numel));
        }
        for (size_t i = 0; i < values.size(); ++i) {
            AppendValue(&spec.const_data, spec.dtype, *values[i],
                        where + ".const_value[" + std::to_string(i) + "]");
        }
        spec.has_value = true;
        spec.value = spec.const_data;
    } else if (spec.is_const) {
        Bad(where + " is_const but has no const_value");
    }
    return spec;
}

std::vector<TensorSpec> ParseTensors(const Json& op, const char* key, const std::string& where) {
    std::vector<TensorSpec> specs;
    const auto list = op.find(key);
    if (list == op.end()) return specs;
    if (!list->is_array()) Bad(where + "." + key + " is not a list of tensor descriptions");
    // A dynamic input group: its tensors are named <group>0, <group>1, ...
    std::map<std::string, int> groups;
    for (size_t i = 0; i < list->size(); ++i) {
        const std::string at = where + "." + key + "[" + std::to_string(i) + "]";
        TensorSpec spec = ParseTensor((*list)[i], at);
        const Json& j = (*list)[i];
        if (const auto group = j.find("dynamic_input"); group != j.end()) {
            const std::string& name = StringOf(*group, at + ".dynamic_input");
            spec.name = name + std::to_string(groups[name]++);
        }
        specs.push_back(std::move(spec));
    }
    return specs;
}

OpAttrValue ParseAttrValue(const std::string& type, const Json& v, const std::string& where) {
    auto list = [&](auto convert) {
        if (!v.is_array()) Bad(where + " is " + v.dump() + ": a list was expected");
        using T = decltype(convert(v, std::string()));
        std::vector<T> out;
        for (size_t i = 0; i < v.size(); ++i)
            out.push_back(convert(v[i], where + "[" + std::to_string(i) + "]"));
        return out;
    };
    auto boolean = [](const Json& j, const std::string& at) -> uint8_t {
        if (!j.is_boolean()) Bad(at + " is " + j.dump() + ": true or false was expected");
        return j.get<bool>() ? 1 : 0;
    };
    auto number = [](const Json& j, const std::string& at) -> float {
        if (!j.is_number()) Bad(at + " is " + j.dump() + ": a number was expected");
        return j.get<float>();
    };
    auto text = [](const Json& j, const std::string& at) { return StringOf(j, at); };
    if (type == "bool") return boolean(v, where) != 0;
    if (type == "int") return IntOf(v, where);
    if (type == "float") return number(v, where);
    if (type == "string") return StringOf(v, where);
    if (type == "data_type") return DtypeOf(v, where);
    if (type == "list_bool") return list(boolean);
    if (type == "list_int") return IntsOf(v, where);
    if (type == "list_float") return list(number);
    if (type == "list_string") return list(text);
    if (type == "list_data_type") return list(DtypeOf);
    if (type == "list_list_int") {
        return list([](const Json& j, const std::string& at) { return IntsOf(j, at); });
    }
    Bad(where + " has type \"" + type +
        "\", which is no attribute type (bool, int, float, string, data_type, list_bool, "
        "list_int, list_float, list_string, list_data_type, list_list_int)");
}

OpModelSpec ParseOp(const Json& op, const std::string& where) {
    if (!op.is_object()) Bad(where + " is not an operator object ({\"op\": ..., ...})");
    OpModelSpec spec;
    const auto type = op.find("op");
    if (type == op.end()) Bad(where + " has no \"op\" (the operator type)");
    spec.desc.type = StringOf(*type, where + ".op");
    if (spec.desc.type.empty()) Bad(where + ".op is empty");
    if (const auto name = op.find("name"); name != op.end()) {
        spec.name = StringOf(*name, where + ".name");
        if (spec.name.empty() || spec.name.size() > 128) {
            Bad(where + ".name must have 1 to 128 characters");
        }
        for (char c : spec.name) {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
            if (!ok) Bad(where + ".name \"" + spec.name + "\" may hold only A-Z a-z 0-9 . _ -");
        }
    }
    if (const auto flag = op.find("compile_flag"); flag != op.end()) {
        IntOf(*flag, where + ".compile_flag");
    }
    spec.desc.inputs = ParseTensors(op, "input_desc", where);
    spec.desc.outputs = ParseTensors(op, "output_desc", where);
    if (spec.desc.outputs.empty()) Bad(where + " has no output_desc");
    if (const auto attrs = op.find("attr"); attrs != op.end()) {
        if (!attrs->is_array()) Bad(where + ".attr is not a list of {name, type, value} objects");
        for (size_t i = 0; i < attrs->size(); ++i) {
            const Json& a = (*attrs)[i];
            const std::string at = where + ".attr[" + std::to_string(i) + "]";
            if (!a.is_object() || !a.contains("name") || !a.contains("type") ||
                !a.contains("value")) {
                Bad(at + " is not a {\"name\", \"type\", \"value\"} object");
            }
            const std::string& name = StringOf(a["name"], at + ".name");
            if (name.empty()) Bad(at + ".name is empty");
            if (spec.desc.attr.Has(name)) Bad(at + " repeats the attribute \"" + name + "\"");
            spec.desc.attr.Set(name, ParseAttrValue(StringOf(a["type"], at + ".type"), a["value"],
                                                    at + " (\"" + name + "\").value"));
        }
    }
    return spec;
}

OrderedJson TensorJson(const TensorSpec& spec) {
    OrderedJson j;
    if (spec.absent()) {
        j["format"] = "RESERVED";
        j["type"] = "UNDEFINED";
        return j;
    }
    j["format"] = FormatJsonName(spec.format);
    j["type"] = DtypeJsonName(spec.dtype);
    j["shape"] = spec.dims;
    if (!spec.shape_range.empty()) {
        OrderedJson ranges = OrderedJson::array();
        for (const auto& r : spec.shape_range)
            ranges.push_back({r[0], r[1]});
        j["shape_range"] = ranges;
    }
    if (!spec.name.empty()) j["name"] = spec.name;
    if (spec.is_const) {
        j["is_const"] = true;
        j["const_value"] = ValuesJson(spec.dtype, spec.const_data);
    }
    return j;
}

OrderedJson AttrValueJson(const OpAttrValue& value) {
    return std::visit(
        [](const auto& v) -> OrderedJson {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, aclDataType>) {
                return DtypeJsonName(v);
            } else if constexpr (std::is_same_v<T, std::vector<aclDataType>>) {
                OrderedJson out = OrderedJson::array();
                for (aclDataType t : v)
                    out.push_back(DtypeJsonName(t));
                return out;
            } else if constexpr (std::is_same_v<T, std::vector<uint8_t>>) {
                OrderedJson out = OrderedJson::array();
                for (uint8_t b : v)
                    out.push_back(b != 0);
                return out;
            } else {
                return v;
            }
        },
        value);
}

template <class F>
bool Guarded(std::string* error, F f) {
    try {
        f();
        return true;
    } catch (const ParseError& e) {
        if (error != nullptr) *error = e.message;
    } catch (const Json::exception& e) {
        if (error != nullptr) *error = std::string("not valid JSON: ") + e.what();
    }
    return false;
}

}  // namespace

bool ParseSingleOpJson(const std::string& text, std::vector<OpModelSpec>* ops, std::string* error) {
    return Guarded(error, [&] {
        const Json root = Json::parse(text);
        if (TooDeep(root, 0)) Bad("the JSON nests deeper than 32 levels");
        if (!root.is_array()) Bad("the file is not a JSON list of operators ([{\"op\": ...}])");
        if (root.empty()) Bad("the list of operators is empty");
        for (size_t i = 0; i < root.size(); ++i)
            ops->push_back(ParseOp(root[i], "operator " + std::to_string(i)));
    });
}

std::string OpModelToJson(const OpModelSpec& spec, const std::string& producer) {
    OrderedJson j;
    j["op"] = spec.desc.type;
    if (!spec.name.empty()) j["name"] = spec.name;
    j["producer"] = producer;
    OrderedJson inputs = OrderedJson::array(), outputs = OrderedJson::array();
    for (const TensorSpec& t : spec.desc.inputs)
        inputs.push_back(TensorJson(t));
    for (const TensorSpec& t : spec.desc.outputs)
        outputs.push_back(TensorJson(t));
    j["input_desc"] = inputs;
    j["output_desc"] = outputs;
    OrderedJson attrs = OrderedJson::array();
    for (const auto& [name, value] : spec.desc.attr.entries()) {
        attrs.push_back({{"name", name},
                         {"type", OpAttrTypeName(TypeOf(value))},
                         {"value", AttrValueJson(value)}});
    }
    j["attr"] = attrs;
    return j.dump(2);
}

std::string SerializeOpModel(const OpModelSpec& spec, const std::string& producer) {
    const std::string json = OpModelToJson(spec, producer);
    std::string image(kOpModelHeaderSize, '\0');
    std::memcpy(image.data(), kMagic, sizeof kMagic);
    Store32(image, 8, kOpModelFormatVersion);
    Store32(image, 12, kOpModelHeaderSize);
    Store64(image, 16, kOpModelHeaderSize + json.size());
    Store64(image, 24, kOpModelHeaderSize);
    Store64(image, 32, json.size());
    image += json;
    Store32(image, kChecksumOffset, model::OmChecksum(image.data(), image.size()));
    return image;
}

bool IsOpModel(const void* data, size_t size) {
    return data != nullptr && size >= sizeof kMagic &&
           std::memcmp(data, kMagic, sizeof kMagic) == 0;
}

namespace {

// The JSON section of a checked image, or "" with *error.
bool JsonSection(const void* data, size_t size, std::string* json, std::string* error) {
    return Guarded(error, [&] {
        if (!IsOpModel(data, size)) Bad("not a single-operator model (no \"OACL-OP\" magic)");
        if (size < kOpModelHeaderSize) Bad("truncated: shorter than the 64-byte header");
        const auto* p = static_cast<const uint8_t*>(data);
        const uint32_t version = Load32(p + 8);
        if (version == 0 || version > kOpModelFormatVersion) {
            Bad("format version " + std::to_string(version) +
                " is newer than this openacl reads (1): update openacl or convert again");
        }
        const uint32_t header = Load32(p + 12);
        const uint64_t file_size = Load64(p + 16);
        const uint64_t offset = Load64(p + 24), length = Load64(p + 32);
        if (header < kOpModelHeaderSize || file_size < header) Bad("the header is damaged");
        if (file_size != size) {
            Bad(size < file_size ? "truncated: the header promises " + std::to_string(file_size) +
                                       " bytes, there are " + std::to_string(size)
                                 : "trailing bytes after the model's " + std::to_string(file_size));
        }
        if (Load32(p + kChecksumOffset) != model::OmChecksum(data, size)) {
            Bad("the checksum does not match: the file is damaged");
        }
        if (offset < header || offset > size || length == 0 || length > size - offset) {
            Bad("the JSON section lies outside the file");
        }
        json->assign(reinterpret_cast<const char*>(p + offset), length);
    });
}

}  // namespace

bool ParseOpModel(const void* data, size_t size, OpModelSpec* spec, std::string* error) {
    std::string json;
    if (!JsonSection(data, size, &json, error)) return false;
    return Guarded(error, [&] {
        const Json root = Json::parse(json);
        if (TooDeep(root, 0)) Bad("the JSON nests deeper than 32 levels");
        *spec = ParseOp(root, "the model's operator");
    });
}

std::string OpModelJsonText(const void* data, size_t size) {
    std::string json, error;
    return JsonSection(data, size, &json, &error) ? json : std::string();
}

std::string DefaultModelName(size_t index, const OpDesc& desc) {
    std::string name = std::to_string(index) + "_" + desc.type;
    auto add = [&name](const TensorSpec& t) {
        name += "_" + std::to_string(static_cast<int>(t.dtype)) + "_" +
                std::to_string(static_cast<int>(t.format));
        for (int64_t d : t.dims)
            name += "_" + std::to_string(d);
    };
    for (const TensorSpec& t : desc.inputs)
        add(t);
    for (const TensorSpec& t : desc.outputs)
        add(t);
    return name;
}

}  // namespace openacl::op
