#include "core/op_attr.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <new>
#include <type_traits>
#include <unordered_set>

namespace openacl {
namespace {

// CANN compares float attributes with an absolute tolerance.
constexpr float kFloatTolerance = 1e-6f;

bool FloatsMatch(float a, float b) {
    if (std::isnan(a) && std::isnan(b)) return true;
    if (std::isinf(a) && std::isinf(b)) return true;  // of either sign, as CANN does
    return std::fabs(a - b) <= kFloatTolerance;
}

// What of a float the hash may depend on: values within the tolerance must hash alike.
uint8_t FloatKind(float value) {
    if (std::isnan(value)) return 1;
    if (std::isinf(value)) return 2;
    return 0;
}

// 64-bit FNV-1a over an encoding with fixed byte order and explicit lengths.
class Fnv1a {
 public:
    void Byte(uint8_t byte) {
        state_ ^= byte;
        state_ *= 0x100000001b3ull;
    }
    void U64(uint64_t value) {
        for (int i = 0; i < 8; ++i)
            Byte(static_cast<uint8_t>(value >> (8 * i)));
    }
    void Text(std::string_view text) {
        U64(text.size());
        for (char c : text)
            Byte(static_cast<uint8_t>(c));
    }
    uint64_t value() const { return state_; }

 private:
    uint64_t state_ = 0xcbf29ce484222325ull;
};

void HashValue(Fnv1a& h, const OpAttrValue& value) {
    std::visit(
        [&h](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>) {
                h.Byte(v ? 1 : 0);
            } else if constexpr (std::is_same_v<T, int64_t>) {
                h.U64(static_cast<uint64_t>(v));
            } else if constexpr (std::is_same_v<T, float>) {
                h.Byte(FloatKind(v));
            } else if constexpr (std::is_same_v<T, std::string>) {
                h.Text(v);
            } else if constexpr (std::is_same_v<T, aclDataType>) {
                h.U64(static_cast<uint64_t>(static_cast<int64_t>(v)));
            } else if constexpr (std::is_same_v<T, std::vector<uint8_t>>) {
                h.U64(v.size());
                for (uint8_t b : v)
                    h.Byte(b);
            } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
                h.U64(v.size());
                for (int64_t i : v)
                    h.U64(static_cast<uint64_t>(i));
            } else if constexpr (std::is_same_v<T, std::vector<float>>) {
                h.U64(v.size());
                for (float f : v)
                    h.Byte(FloatKind(f));
            } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
                h.U64(v.size());
                for (const std::string& s : v)
                    h.Text(s);
            } else if constexpr (std::is_same_v<T, std::vector<aclDataType>>) {
                h.U64(v.size());
                for (aclDataType t : v)
                    h.U64(static_cast<uint64_t>(static_cast<int64_t>(t)));
            } else {
                static_assert(std::is_same_v<T, std::vector<std::vector<int64_t>>>);
                h.U64(v.size());
                for (const std::vector<int64_t>& list : v) {
                    h.U64(list.size());
                    for (int64_t i : list)
                        h.U64(static_cast<uint64_t>(i));
                }
            }
        },
        value);
}

void AppendFloat(std::string& out, float value) {
    if (std::isnan(value)) {
        out += "nan";
    } else if (std::isinf(value)) {
        out += value < 0 ? "-inf" : "inf";
    } else {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(value));
        out += buffer;
    }
}

void AppendInt(std::string& out, int64_t value) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "%" PRId64, value);
    out += buffer;
}

// A double-quoted string; quotes, backslashes and control bytes escaped.
void AppendQuoted(std::string& out, std::string_view text) {
    out += '"';
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (byte < 0x20 || byte == 0x7f) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\x%02x", byte);
            out += buffer;
        } else {
            out += c;
        }
    }
    out += '"';
}

// Names are written as they are when they look like identifiers, else quoted, so the text
// stays unambiguous.
void AppendName(std::string& out, std::string_view name) {
    bool plain = !name.empty();
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
        plain = plain && ok;
    }
    if (plain) {
        out += name;
    } else {
        AppendQuoted(out, name);
    }
}

template <class T, class Append>
void AppendList(std::string& out, const std::vector<T>& values, Append append) {
    out += '[';
    for (size_t i = 0; i < values.size(); ++i) {
        if (i != 0) out += ", ";
        append(out, values[i]);
    }
    out += ']';
}

void AppendValue(std::string& out, const OpAttrValue& value) {
    auto append_bool = [](std::string& o, uint8_t b) { o += b != 0 ? "true" : "false"; };
    auto append_type = [](std::string& o, aclDataType t) { AppendInt(o, static_cast<int>(t)); };
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>) {
                append_bool(out, v ? 1 : 0);
            } else if constexpr (std::is_same_v<T, int64_t>) {
                AppendInt(out, v);
            } else if constexpr (std::is_same_v<T, float>) {
                AppendFloat(out, v);
            } else if constexpr (std::is_same_v<T, std::string>) {
                AppendQuoted(out, v);
            } else if constexpr (std::is_same_v<T, aclDataType>) {
                append_type(out, v);
            } else if constexpr (std::is_same_v<T, std::vector<uint8_t>>) {
                AppendList(out, v, append_bool);
            } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
                AppendList(out, v, AppendInt);
            } else if constexpr (std::is_same_v<T, std::vector<float>>) {
                AppendList(out, v, AppendFloat);
            } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
                AppendList(out, v,
                           [](std::string& o, const std::string& s) { AppendQuoted(o, s); });
            } else if constexpr (std::is_same_v<T, std::vector<aclDataType>>) {
                AppendList(out, v, append_type);
            } else {
                static_assert(std::is_same_v<T, std::vector<std::vector<int64_t>>>);
                AppendList(out, v, [](std::string& o, const std::vector<int64_t>& list) {
                    AppendList(o, list, AppendInt);
                });
            }
        },
        value);
}

const aclopAttr::Entries& EntriesOf(const aclopAttr* attr) {
    static const aclopAttr::Entries kNone;
    return attr == nullptr ? kNone : attr->entries();
}

struct Registry {
    std::mutex mutex;
    std::unordered_set<const aclopAttr*> live;
};

// Never destroyed: sets may be released from static destructors of applications.
Registry& TheRegistry() {
    static auto* registry = new Registry;
    return *registry;
}

}  // namespace

const char* OpAttrTypeName(OpAttrType type) {
    switch (type) {
        case OpAttrType::kBool:
            return "bool";
        case OpAttrType::kInt:
            return "int";
        case OpAttrType::kFloat:
            return "float";
        case OpAttrType::kString:
            return "string";
        case OpAttrType::kDataType:
            return "data_type";
        case OpAttrType::kListBool:
            return "list_bool";
        case OpAttrType::kListInt:
            return "list_int";
        case OpAttrType::kListFloat:
            return "list_float";
        case OpAttrType::kListString:
            return "list_string";
        case OpAttrType::kListDataType:
            return "list_data_type";
        case OpAttrType::kListListInt:
            return "list_list_int";
    }
    return "unknown";
}

bool OpAttrValuesMatch(const OpAttrValue& a, const OpAttrValue& b) {
    if (a.index() != b.index()) return false;
    if (const float* x = std::get_if<float>(&a)) return FloatsMatch(*x, std::get<float>(b));
    if (const auto* x = std::get_if<std::vector<float>>(&a)) {
        const auto& y = std::get<std::vector<float>>(b);
        if (x->size() != y.size()) return false;
        for (size_t i = 0; i < x->size(); ++i) {
            if (!FloatsMatch((*x)[i], y[i])) return false;
        }
        return true;
    }
    return a == b;
}

aclopAttr* NewOpAttr() {
    aclopAttr* attr = new (std::nothrow) aclopAttr;
    if (attr == nullptr) return nullptr;
    try {
        Registry& registry = TheRegistry();
        std::lock_guard lock(registry.mutex);
        registry.live.insert(attr);
    } catch (const std::bad_alloc&) {
        delete attr;
        return nullptr;
    }
    return attr;
}

void DeleteOpAttr(const aclopAttr* attr) {
    if (attr == nullptr) return;
    Registry& registry = TheRegistry();
    {
        std::lock_guard lock(registry.mutex);
        // Only a registered set is deleted, so a second release is harmless.
        if (registry.live.erase(attr) == 0) return;
    }
    delete attr;
}

bool IsLiveOpAttr(const aclopAttr* attr) {
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    return registry.live.count(attr) != 0;
}

}  // namespace openacl

bool aclopAttr::Matches(const aclopAttr* a, const aclopAttr* b) {
    const Entries& x = openacl::EntriesOf(a);
    const Entries& y = openacl::EntriesOf(b);
    if (x.size() != y.size()) return false;
    for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j) {
        if (i->first != j->first || !openacl::OpAttrValuesMatch(i->second, j->second)) {
            return false;
        }
    }
    return true;
}

uint64_t aclopAttr::Hash(const aclopAttr* attr) {
    openacl::Fnv1a h;
    const Entries& entries = openacl::EntriesOf(attr);
    h.U64(entries.size());
    for (const auto& [name, value] : entries) {
        h.Text(name);
        h.Byte(static_cast<uint8_t>(value.index()));
        openacl::HashValue(h, value);
    }
    return h.value();
}

std::string aclopAttr::Text(const aclopAttr* attr) {
    std::string out = "{";
    bool first = true;
    for (const auto& [name, value] : openacl::EntriesOf(attr)) {
        if (!first) out += ", ";
        first = false;
        openacl::AppendName(out, name);
        out += ": ";
        out += openacl::OpAttrTypeName(openacl::TypeOf(value));
        out += " = ";
        openacl::AppendValue(out, value);
    }
    out += '}';
    return out;
}
