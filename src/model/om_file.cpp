// The .om container (docs/OM_FORMAT.md). Everything here treats the image as hostile: a
// length is used only after it has been checked against the bytes actually present.
#include "model/om_file.h"

#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

namespace openacl::model {
namespace {

using nlohmann::json;

constexpr uint8_t kMagic[8] = {'O', 'A', 'C', 'L', '-', 'O', 'M', '\0'};
// What a CANN .om starts with (ModelFileHeader magic 0x444F4D49, little-endian). Recognised
// only to explain why openacl cannot run it.
constexpr uint8_t kCannMagic[4] = {'I', 'M', 'O', 'D'};

// Header fields of version 1 (byte offsets).
constexpr size_t kVersionAt = 8;
constexpr size_t kHeaderSizeAt = 12;
constexpr size_t kFileSizeAt = 16;
constexpr size_t kOptionsOffsetAt = 24;
constexpr size_t kOptionsSizeAt = 32;
constexpr size_t kOnnxOffsetAt = 40;
constexpr size_t kOnnxSizeAt = 48;
constexpr size_t kFlagsAt = 56;
// Added by version 2.
constexpr size_t kPlanOffsetAt = 64;
constexpr size_t kPlanSizeAt = 72;
static_assert(kOmChecksumOffset + 4 == kOmHeaderSize);

// Our schema nests three levels; anything much deeper is hostile (nlohmann's parser and
// destructor would recurse over it).
constexpr int kMaxJsonDepth = 32;

uint32_t Load32(const uint8_t* p) {
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

uint64_t Load64(const uint8_t* p) {
    return uint64_t{Load32(p)} | uint64_t{Load32(p + 4)} << 32;
}

void Store32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        p[i] = static_cast<uint8_t>(v >> (8 * i));
}

void Store64(uint8_t* p, uint64_t v) {
    Store32(p, static_cast<uint32_t>(v));
    Store32(p + 4, static_cast<uint32_t>(v >> 32));
}

// CRC-32 (IEEE 802.3, zlib's) sliced by 8: models carry their weights, so this runs over
// hundreds of megabytes at load time and the byte-at-a-time loop would be the bottleneck.
using CrcTables = std::array<std::array<uint32_t, 256>, 8>;

constexpr CrcTables MakeCrcTables() {
    CrcTables t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        t[0][i] = c;
    }
    for (size_t s = 1; s < 8; ++s) {
        for (size_t i = 0; i < 256; ++i)
            t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
    }
    return t;
}

constexpr CrcTables kCrc = MakeCrcTables();

// `state` is the running register (starts at 0xFFFFFFFF, the result is its complement).
uint32_t CrcUpdate(uint32_t state, const uint8_t* p, size_t n) {
    while (n >= 8) {
        const uint32_t one = Load32(p) ^ state;
        const uint32_t two = Load32(p + 4);
        state = kCrc[7][one & 0xff] ^ kCrc[6][(one >> 8) & 0xff] ^ kCrc[5][(one >> 16) & 0xff] ^
                kCrc[4][one >> 24] ^ kCrc[3][two & 0xff] ^ kCrc[2][(two >> 8) & 0xff] ^
                kCrc[1][(two >> 16) & 0xff] ^ kCrc[0][two >> 24];
        p += 8;
        n -= 8;
    }
    while (n-- > 0)
        state = (state >> 8) ^ kCrc[0][(state ^ *p++) & 0xff];
    return state;
}

bool Fail(std::string* error, std::string message) {
    if (error != nullptr) *error = std::move(message);
    return false;
}

std::string Hex(uint64_t v) {
    char buffer[32];
    snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(v));
    return buffer;
}

const std::pair<aclDataType, const char*> kTypeNames[] = {
    {ACL_FLOAT, "FP32"},          {ACL_FLOAT16, "FP16"},
    {ACL_BF16, "BF16"},           {ACL_DOUBLE, "DOUBLE"},
    {ACL_INT8, "INT8"},           {ACL_INT16, "INT16"},
    {ACL_INT32, "INT32"},         {ACL_INT64, "INT64"},
    {ACL_UINT8, "UINT8"},         {ACL_UINT16, "UINT16"},
    {ACL_UINT32, "UINT32"},       {ACL_UINT64, "UINT64"},
    {ACL_BOOL, "BOOL"},           {ACL_STRING, "STRING"},
    {ACL_COMPLEX64, "COMPLEX64"}, {ACL_COMPLEX128, "COMPLEX128"},
};

// --- ONNX sniffing -----------------------------------------------------------------------

bool ReadVarint(const uint8_t*& p, const uint8_t* end, uint64_t* value) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70 && p < end; shift += 7) {
        const uint8_t byte = *p++;
        v |= uint64_t{byte & 0x7fu} << shift;
        if ((byte & 0x80) == 0) {
            *value = v;
            return true;
        }
    }
    return false;  // ran off the end, or longer than 10 bytes
}

// The wire type each ModelProto field is written with; -1 for numbers ModelProto lacks
// (a newer ONNX may add some, so they are skipped rather than refused, after the first field).
int ModelProtoWireType(uint64_t field) {
    switch (field) {
        case 1:  // ir_version
        case 5:  // model_version
            return 0;
        case 2:   // producer_name
        case 3:   // producer_version
        case 4:   // domain
        case 6:   // doc_string
        case 7:   // graph
        case 8:   // opset_import
        case 14:  // metadata_props
        case 20:  // training_info
        case 25:  // functions
            return 2;
        default:
            return -1;
    }
}

// Walks the top-level fields of a would-be ModelProto. Submessages (the graph and its
// weights) are skipped by length, so this costs a few dozen steps whatever the model's size.
bool LooksLikeModelProto(const uint8_t* p, size_t size) {
    const uint8_t* end = p + size;
    bool first = true;
    bool saw_core_field = false;  // ir_version or graph: every real model has them
    while (p < end) {
        uint64_t tag = 0;
        if (!ReadVarint(p, end, &tag)) return false;
        const uint64_t field = tag >> 3;
        const int wire = static_cast<int>(tag & 7);
        if (field == 0 || field > (uint64_t{1} << 29) - 1) return false;
        const int expected = ModelProtoWireType(field);
        if (first && expected < 0) return false;  // text and random bytes fail here
        if (expected >= 0 && wire != expected) return false;
        first = false;
        uint64_t skip = 0;
        switch (wire) {
            case 0:
                if (!ReadVarint(p, end, &skip)) return false;
                skip = 0;
                break;
            case 1:
                skip = 8;
                break;
            case 2:
                if (!ReadVarint(p, end, &skip)) return false;
                break;
            case 5:
                skip = 4;
                break;
            default:  // groups (3, 4) are not in ONNX; 6 and 7 do not exist
                return false;
        }
        if (skip > static_cast<uint64_t>(end - p)) return false;
        p += skip;
        if (field == 1 || field == 7) saw_core_field = true;
    }
    return saw_core_field;
}

// --- options JSON ------------------------------------------------------------------------

// Depth of the deepest array/object, counted without parsing (strings skipped), so a hostile
// "[[[[...]]]]" never reaches the recursive parts of nlohmann::json.
bool NestsTooDeep(const char* p, size_t n, int limit) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < n; ++i) {
        const char c = p[i];
        if (in_string) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

class OptionsReader {
 public:
    explicit OptionsReader(std::string* error) : error_(error) {}

    bool Read(const json& root, OmOptions* o) {
        if (!root.is_object()) return Bad("the options section", "must be a JSON object", root);
        return String(root, "producer", &o->producer) &&
               String(root, "soc_version", &o->soc_version) && InputFormat(root, o) &&
               Inputs(root, o) && OutputTypes(root, o) && BatchSizes(root, o) &&
               ImageSizes(root, o) && Dims(root, o) && Exclusive(o) && Engine(root, o);
    }

 private:
    bool Bad(const std::string& where, const std::string& what, const json& value) {
        std::string shown = value.dump(-1, ' ', false, json::error_handler_t::replace);
        if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
        return Fail(error_, "malformed options: " + where + " " + what + " (found " + shown + ")");
    }

    static std::string Key(const std::string& key) { return "\"" + key + "\""; }

    bool String(const json& root, const char* key, std::string* out) {
        const auto it = root.find(key);
        if (it == root.end()) return true;
        if (!it->is_string()) return Bad(Key(key), "must be a string", *it);
        *out = it->get<std::string>();
        return true;
    }

    // "engine_choices" (optional): what atc timed; any value out of range refuses the file.
    bool Engine(const json& root, OmOptions* o) {
        const auto it = root.find("engine_choices");
        if (it == root.end()) return true;
        const std::string where = Key("engine_choices");
        if (!it->is_object()) return Bad(where, "must be an object", *it);
        EngineChoices& e = o->engine;
        if (!String(*it, "machine", &e.machine)) return false;
        const auto nhwc = it->find("nhwc");
        if (nhwc == it->end() || !nhwc->is_boolean()) {
            return Bad(where + ".nhwc", "must be true or false",
                       nhwc == it->end() ? json() : *nhwc);
        }
        e.nhwc = nhwc->get<bool>();
        uint64_t threads = 0, head = 0;
        const auto t = it->find("threads");
        const json missing;
        if (!Positive(t == it->end() ? missing : *t, where + ".threads", &threads)) return false;
        if (threads > 4096) return Bad(where + ".threads", "must be at most 4096", *t);
        e.threads = static_cast<int>(threads);
        const auto h = it->find("head_layers");
        if (h != it->end()) {
            if (!h->is_number_unsigned()) return Bad(where + ".head_layers", "must be >= 0", *h);
            head = h->get<uint64_t>();
        }
        e.head_layers = head;
        for (const auto& [key, out] :
             {std::pair{"convs", &e.convs}, {"head_convs", &e.head_convs}}) {
            const auto list = it->find(key);
            if (list == it->end()) continue;
            if (!list->is_array() || list->size() > (size_t{1} << 20)) {
                return Bad(where + "." + key, "must be a list of choices", *list);
            }
            for (const json& v : *list) {
                if (!v.is_number_integer() || v.get<int64_t>() < -1 || v.get<int64_t>() > 15) {
                    return Bad(where + "." + key, "holds a value outside -1..15", v);
                }
                out->push_back(static_cast<int8_t>(v.get<int64_t>()));
            }
        }
        return true;
    }

    bool InputFormat(const json& root, OmOptions* o) {
        if (!String(root, "input_format", &o->input_format)) return false;
        const std::string& f = o->input_format;
        if (f.empty() || f == "NCHW" || f == "NHWC" || f == "ND") return true;
        return Bad(Key("input_format"), "must be \"NCHW\", \"NHWC\", \"ND\" or \"\"",
                   root.at("input_format"));
    }

    bool Inputs(const json& root, OmOptions* o) {
        const auto it = root.find("inputs");
        if (it == root.end()) return true;
        if (!it->is_array()) return Bad(Key("inputs"), "must be an array", *it);
        std::set<std::string> seen;
        for (size_t i = 0; i < it->size(); ++i) {
            const json& entry = (*it)[i];
            const std::string where = "\"inputs\"[" + std::to_string(i) + "]";
            if (!entry.is_object()) return Bad(where, "must be an object", entry);
            OmInputOption input;
            const auto name = entry.find("name");
            if (name == entry.end() || !name->is_string() || name->get<std::string>().empty()) {
                return Bad(where + ".\"name\"", "must be a non-empty string",
                           name == entry.end() ? json() : *name);
            }
            input.name = name->get<std::string>();
            if (!seen.insert(input.name).second) {
                return Bad(where + ".\"name\"", "repeats an earlier input", *name);
            }
            const auto shape = entry.find("shape");
            if (shape != entry.end()) {
                if (!shape->is_array())
                    return Bad(where + ".\"shape\"", "must be an array", *shape);
                for (size_t d = 0; d < shape->size(); ++d) {
                    const json& dim = (*shape)[d];
                    const bool ok =
                        dim.is_number_integer() &&
                        !(dim.is_number_unsigned() && dim.get<uint64_t>() > uint64_t{INT64_MAX}) &&
                        dim.get<int64_t>() >= -1;
                    if (!ok) {
                        return Bad(where + ".\"shape\"[" + std::to_string(d) + "]",
                                   "must be an integer >= -1 (-1: dynamic)", dim);
                    }
                    input.shape.push_back(dim.get<int64_t>());
                }
            }
            const auto fp16 = entry.find("fp16");
            if (fp16 != entry.end()) {
                if (!fp16->is_boolean())
                    return Bad(where + ".\"fp16\"", "must be true or false", *fp16);
                input.fp16 = fp16->get<bool>();
            }
            o->inputs.push_back(std::move(input));
        }
        return true;
    }

    bool OutputTypes(const json& root, OmOptions* o) {
        const auto it = root.find("output_types");
        if (it == root.end()) return true;
        if (!it->is_object()) return Bad(Key("output_types"), "must be an object", *it);
        for (const auto& [name, value] : it->items()) {
            const std::string where = "\"output_types\"." + Key(name);
            aclDataType type = ACL_DT_UNDEFINED;
            if (!value.is_string()) return Bad(where, "must be a data type name", value);
            if (!DataTypeFromName(value.get<std::string>(), &type)) {
                return Bad(where, "is not a known data type name (FP32, FP16, UINT8...)", value);
            }
            o->output_types[name] = type;
        }
        if (o->output_types.count("") != 0 && o->output_types.size() > 1) {
            return Bad(Key("output_types"),
                       "mixes a type for all outputs (\"\") with per-output types", *it);
        }
        return true;
    }

    // A positive integer, as the dynamic gears must be (nlohmann stores those as unsigned).
    bool Positive(const json& v, const std::string& where, uint64_t* out) {
        if (!v.is_number_unsigned() || v.get<uint64_t>() == 0) {
            return Bad(where, "must be a positive integer", v);
        }
        *out = v.get<uint64_t>();
        return true;
    }

    bool BatchSizes(const json& root, OmOptions* o) {
        const auto it = root.find("dynamic_batch_sizes");
        if (it == root.end()) return true;
        if (!it->is_array()) return Bad(Key("dynamic_batch_sizes"), "must be an array", *it);
        for (size_t i = 0; i < it->size(); ++i) {
            uint64_t v = 0;
            if (!Positive((*it)[i], "\"dynamic_batch_sizes\"[" + std::to_string(i) + "]", &v)) {
                return false;
            }
            o->dynamic_batch_sizes.push_back(v);
        }
        return true;
    }

    bool ImageSizes(const json& root, OmOptions* o) {
        const auto it = root.find("dynamic_image_sizes");
        if (it == root.end()) return true;
        if (!it->is_array()) return Bad(Key("dynamic_image_sizes"), "must be an array", *it);
        for (size_t i = 0; i < it->size(); ++i) {
            const json& pair = (*it)[i];
            const std::string where = "\"dynamic_image_sizes\"[" + std::to_string(i) + "]";
            if (!pair.is_array() || pair.size() != 2) {
                return Bad(where, "must be a [height, width] pair", pair);
            }
            std::array<uint64_t, 2> hw{};
            if (!Positive(pair[0], where + "[0]", &hw[0]) ||
                !Positive(pair[1], where + "[1]", &hw[1])) {
                return false;
            }
            o->dynamic_image_sizes.push_back(hw);
        }
        return true;
    }

    bool Dims(const json& root, OmOptions* o) {
        const auto it = root.find("dynamic_dims");
        if (it == root.end()) return true;
        if (!it->is_array()) return Bad(Key("dynamic_dims"), "must be an array", *it);
        for (size_t g = 0; g < it->size(); ++g) {
            const json& gear = (*it)[g];
            const std::string where = "\"dynamic_dims\"[" + std::to_string(g) + "]";
            if (!gear.is_array() || gear.empty()) {
                return Bad(where, "must be a non-empty array of dims", gear);
            }
            std::vector<uint64_t> values;
            for (size_t d = 0; d < gear.size(); ++d) {
                uint64_t v = 0;
                if (!Positive(gear[d], where + "[" + std::to_string(d) + "]", &v)) return false;
                values.push_back(v);
            }
            o->dynamic_dims.push_back(std::move(values));
        }
        return true;
    }

    bool Exclusive(const OmOptions* o) {
        const int kinds = !o->dynamic_batch_sizes.empty() + !o->dynamic_image_sizes.empty() +
                          !o->dynamic_dims.empty();
        if (kinds > 1) {
            return Fail(error_,
                        "malformed options: gears of more than one kind are set "
                        "(\"dynamic_batch_sizes\", \"dynamic_image_sizes\", \"dynamic_dims\"); "
                        "a model has one kind of dynamic gears at most");
        }
        return true;
    }

    std::string* error_;
};

json OptionsToJson(const OmOptions& o) {
    json inputs = json::array();
    for (const OmInputOption& input : o.inputs) {
        inputs.push_back({{"name", input.name}, {"shape", input.shape}, {"fp16", input.fp16}});
    }
    json output_types = json::object();
    for (const auto& [name, type] : o.output_types)
        output_types[name] = DataTypeName(type);
    json image_sizes = json::array();
    for (const auto& hw : o.dynamic_image_sizes)
        image_sizes.push_back({hw[0], hw[1]});
    json root = {{"producer", o.producer},
                 {"soc_version", o.soc_version},
                 {"input_format", o.input_format},
                 {"inputs", std::move(inputs)},
                 {"output_types", std::move(output_types)},
                 {"dynamic_batch_sizes", o.dynamic_batch_sizes},
                 {"dynamic_image_sizes", std::move(image_sizes)}};
    if (!o.dynamic_dims.empty()) root["dynamic_dims"] = o.dynamic_dims;
    if (!o.engine.machine.empty()) {
        root["engine_choices"] = {
            {"machine", o.engine.machine}, {"nhwc", o.engine.nhwc},
            {"threads", o.engine.threads}, {"head_layers", o.engine.head_layers},
            {"convs", o.engine.convs},     {"head_convs", o.engine.head_convs}};
    }
    return root;
}

// A section must lie within the payload: after the header, before the declared end.
bool CheckSection(const char* what, uint64_t offset, uint64_t size, uint64_t header_size,
                  uint64_t file_size, std::string* error) {
    if (offset < header_size || offset > file_size || size > file_size - offset) {
        return Fail(error, std::string("the ") + what + " section (offset " +
                               std::to_string(offset) + ", " + std::to_string(size) +
                               " bytes) lies outside the payload, bytes " +
                               std::to_string(header_size) + ".." + std::to_string(file_size) +
                               "; the file is damaged");
    }
    if (size == 0) return Fail(error, std::string("the ") + what + " section is empty");
    return true;
}

}  // namespace

std::string OmOptionsToJson(const OmOptions& options) {
    // replace: a name that is not UTF-8 must not make serialization throw.
    return OptionsToJson(options).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

uint32_t OmChecksum(const void* image, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(image);
    uint32_t state =
        CrcUpdate(0xFFFFFFFFu, bytes, size < kOmChecksumOffset ? size : kOmChecksumOffset);
    if (size > kOmHeaderSize) state = CrcUpdate(state, bytes + kOmHeaderSize, size - kOmHeaderSize);
    return ~state;
}

std::string DataTypeName(aclDataType type) {
    for (const auto& [t, name] : kTypeNames) {
        if (t == type) return name;
    }
    return "";
}

bool DataTypeFromName(const std::string& name, aclDataType* type) {
    for (const auto& [t, n] : kTypeNames) {
        if (name == n) {
            *type = t;
            return true;
        }
    }
    return false;
}

ModelFormat DetectModelFormat(const void* data, size_t size) {
    if (data == nullptr || size == 0) return ModelFormat::kUnknown;
    const auto* bytes = static_cast<const uint8_t*>(data);
    if (size >= sizeof kMagic && std::memcmp(bytes, kMagic, sizeof kMagic) == 0) {
        return ModelFormat::kOm;
    }
    return LooksLikeModelProto(bytes, size) ? ModelFormat::kOnnx : ModelFormat::kUnknown;
}

bool ParseOm(const void* data, size_t size, OmFile* out, std::string* error) {
    if (data == nullptr) return Fail(error, "no model data (null pointer)");
    const auto* bytes = static_cast<const uint8_t*>(data);
    if (size >= sizeof kCannMagic && std::memcmp(bytes, kCannMagic, sizeof kCannMagic) == 0) {
        return Fail(error,
                    "this looks like an .om compiled for Ascend hardware by CANN's atc, which "
                    "openacl cannot run; convert the original ONNX model with openacl's atc");
    }
    if (size < sizeof kMagic || std::memcmp(bytes, kMagic, sizeof kMagic) != 0) {
        return Fail(error,
                    "not an openacl .om file (it does not start with the magic \"OACL-OM\\0\"); "
                    "convert the model with openacl's atc");
    }
    if (size < kOmHeaderSize) {
        return Fail(error, "truncated .om file: " + std::to_string(size) +
                               " bytes, fewer than the " + std::to_string(kOmHeaderSize) +
                               "-byte header");
    }
    const uint32_t version = Load32(bytes + kVersionAt);
    if (version == 0) return Fail(error, "invalid .om format version 0; the file is damaged");
    if (version > kOmFormatVersion) {
        return Fail(error, ".om format version " + std::to_string(version) +
                               " is newer than this openacl reads (up to " +
                               std::to_string(kOmFormatVersion) +
                               "); update openacl or convert the model with this openacl's atc");
    }
    const uint64_t header_size = Load32(bytes + kHeaderSizeAt);
    const uint64_t file_size = Load64(bytes + kFileSizeAt);
    const uint64_t min_header = version >= 2 ? kOmHeaderSizeV2 : kOmHeaderSize;
    if (header_size < min_header) {
        return Fail(error, "the header declares its own size as " + std::to_string(header_size) +
                               " bytes, less than the " + std::to_string(min_header) +
                               " of format version " + std::to_string(version) +
                               "; the file is damaged");
    }

    if (file_size < header_size) {
        return Fail(error, "the header declares a file size of " + std::to_string(file_size) +
                               " bytes, less than the header itself; the file is damaged");
    }
    if (size < file_size) {
        return Fail(error, "truncated .om file: the header declares " + std::to_string(file_size) +
                               " bytes, only " + std::to_string(size) +
                               " are present; copy or convert the model again");
    }
    if (size > file_size) {
        return Fail(error, std::to_string(size - file_size) +
                               " unexpected bytes after the end of the .om file (the header "
                               "declares " +
                               std::to_string(file_size) + " bytes); the file is damaged");
    }
    const uint32_t stored = Load32(bytes + kOmChecksumOffset);
    const uint32_t computed = OmChecksum(bytes, size);
    if (stored != computed) {
        return Fail(error, "checksum mismatch (stored " + Hex(stored) + ", computed " +
                               Hex(computed) +
                               "): the .om file is damaged; copy or convert the model again");
    }
    const uint32_t flags = Load32(bytes + kFlagsAt);
    if (flags != 0) {
        return Fail(error, "unknown header flags " + Hex(flags) +
                               " (written by a newer atc?); update openacl");
    }
    const uint64_t options_offset = Load64(bytes + kOptionsOffsetAt);
    const uint64_t options_size = Load64(bytes + kOptionsSizeAt);
    const uint64_t onnx_offset = Load64(bytes + kOnnxOffsetAt);
    const uint64_t onnx_size = Load64(bytes + kOnnxSizeAt);
    if (!CheckSection("options", options_offset, options_size, header_size, file_size, error) ||
        !CheckSection("ONNX", onnx_offset, onnx_size, header_size, file_size, error)) {
        return false;
    }
    uint64_t plan_offset = 0, plan_size = 0;
    if (version >= 2) {
        plan_offset = Load64(bytes + kPlanOffsetAt);
        plan_size = Load64(bytes + kPlanSizeAt);
        // No plan: both zero. A plan: a section like the others, apart from both.
        if (plan_offset != 0 || plan_size != 0) {
            if (!CheckSection("plan", plan_offset, plan_size, header_size, file_size, error)) {
                return false;
            }
            for (const auto& [what, offset, length] :
                 {std::tuple{"options", options_offset, options_size},
                  std::tuple{"ONNX", onnx_offset, onnx_size}}) {
                if (plan_offset < offset + length && offset < plan_offset + plan_size) {
                    return Fail(error, std::string("the plan section overlaps the ") + what +
                                           " section; the file is damaged");
                }
            }
        }
    }
    if (options_offset < onnx_offset + onnx_size && onnx_offset < options_offset + options_size) {
        return Fail(error, "the options section (bytes " + std::to_string(options_offset) + ".." +
                               std::to_string(options_offset + options_size) +
                               ") and the ONNX section (bytes " + std::to_string(onnx_offset) +
                               ".." + std::to_string(onnx_offset + onnx_size) +
                               ") overlap; the file is damaged");
    }

    const char* text = reinterpret_cast<const char*>(bytes + options_offset);
    if (NestsTooDeep(text, options_size, kMaxJsonDepth)) {
        return Fail(error, "malformed options: JSON nested deeper than " +
                               std::to_string(kMaxJsonDepth) + " levels");
    }
    json root;
    try {
        root = json::parse(text, text + options_size);
    } catch (const json::exception& e) {
        return Fail(error, std::string("malformed options: not valid JSON: ") + e.what());
    }
    OmFile file;
    if (!OptionsReader(error).Read(root, &file.options)) return false;

    if (DetectModelFormat(bytes + onnx_offset, onnx_size) != ModelFormat::kOnnx) {
        return Fail(error, "the ONNX section does not hold an ONNX model; the file is damaged");
    }
    file.onnx.assign(reinterpret_cast<const char*>(bytes + onnx_offset), onnx_size);
    file.plan.assign(reinterpret_cast<const char*>(bytes + plan_offset), plan_size);
    if (out != nullptr) *out = std::move(file);
    return true;
}

std::string SerializeOm(const OmFile& file) {
    const std::string options = OmOptionsToJson(file.options);
    const uint64_t options_offset = kOmHeaderSizeV2;
    const uint64_t onnx_offset = options_offset + options.size();
    const uint64_t plan_offset = file.plan.empty() ? 0 : onnx_offset + file.onnx.size();
    const uint64_t file_size = onnx_offset + file.onnx.size() + file.plan.size();

    std::string image(kOmHeaderSizeV2, '\0');
    image.reserve(file_size);
    auto* header = reinterpret_cast<uint8_t*>(image.data());
    std::memcpy(header, kMagic, sizeof kMagic);
    Store32(header + kVersionAt, kOmFormatVersion);
    Store32(header + kHeaderSizeAt, kOmHeaderSizeV2);
    Store64(header + kFileSizeAt, file_size);
    Store64(header + kOptionsOffsetAt, options_offset);
    Store64(header + kOptionsSizeAt, options.size());
    Store64(header + kOnnxOffsetAt, onnx_offset);
    Store64(header + kOnnxSizeAt, file.onnx.size());
    Store32(header + kFlagsAt, 0);
    Store64(header + kPlanOffsetAt, plan_offset);
    Store64(header + kPlanSizeAt, file.plan.size());
    image += options;
    image += file.onnx;
    image += file.plan;
    Store32(reinterpret_cast<uint8_t*>(image.data()) + kOmChecksumOffset,
            OmChecksum(image.data(), image.size()));
    return image;
}

}  // namespace openacl::model
