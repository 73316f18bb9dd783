// Operator attributes (aclopAttr, acl_op.h): a set of named, typed values that describes one
// operator call next to its type and tensor descriptions. A name holds one value at a time;
// setting it again, with any type, replaces the value. Every value is a copy (strings and lists
// too), so the caller's buffers may change or go once a setter returns.
//
// Single-operator models are found by their attributes (aclopExecuteV2, aclopCompileAndExecute),
// so besides the typed reads this header answers the questions a lookup asks:
//   Matches  CANN's rule for a loaded model to match a call: the same names, each with the same
//            type and an equal value. Values compare exactly, except floats: two floats match
//            when they differ by at most 1e-6, when both are NaN, or when both are infinite
//            (of either sign), as in CANN's attribute comparison. A null set is the empty set.
//   Hash     a 64-bit digest that equal sets share (Matches(a, b) implies Hash(a) == Hash(b)),
//            stable across processes and builds (FNV-1a over a fixed encoding). Because of the
//            float tolerance, float values contribute only their kind (NaN, infinite, finite)
//            and list lengths; names, types and every other value contribute in full.
//   Text     a canonical description, names in byte order, values exactly (floats to nine
//            significant digits, strings quoted): "{axis: int = 1, keep_dims: bool = true}".
//            Equal text implies matching sets; floats within the tolerance may still differ.
//
// A set is not synchronised: one thread may change it while none reads it, as in CANN.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "acl/acl_base.h"

namespace openacl {

// The value kinds of the setters, in the order of OpAttrValue's alternatives.
enum class OpAttrType : uint8_t {
    kBool,
    kInt,
    kFloat,
    kString,
    kDataType,
    kListBool,
    kListInt,
    kListFloat,
    kListString,
    kListDataType,
    kListListInt,
};

// The type's name as single-op JSON files spell it ("bool", "int", "list_list_int", ...;
// "data_type" and "list_data_type" for the data type kinds).
const char* OpAttrTypeName(OpAttrType type);

// A list of bools keeps one byte per value, 0 or 1.
using OpAttrValue =
    std::variant<bool, int64_t, float, std::string, aclDataType, std::vector<uint8_t>,
                 std::vector<int64_t>, std::vector<float>, std::vector<std::string>,
                 std::vector<aclDataType>, std::vector<std::vector<int64_t>>>;

inline OpAttrType TypeOf(const OpAttrValue& value) {
    return static_cast<OpAttrType>(value.index());
}

// CANN's value comparison (see above): same type, equal value, floats with the tolerance.
bool OpAttrValuesMatch(const OpAttrValue& a, const OpAttrValue& b);

}  // namespace openacl

struct aclopAttr {
 public:
    using Entries = std::map<std::string, openacl::OpAttrValue, std::less<>>;

    // Stores value under name, replacing what the name held (of any type).
    void Set(std::string name, openacl::OpAttrValue value) {
        entries_.insert_or_assign(std::move(name), std::move(value));
    }

    // The value under name, or nullptr.
    const openacl::OpAttrValue* Find(std::string_view name) const {
        auto it = entries_.find(name);
        return it == entries_.end() ? nullptr : &it->second;
    }

    // The value under name when it has type T (bool, int64_t, float, std::string, aclDataType,
    // std::vector<uint8_t> for list_bool, ...), else nullptr (absent, or of another type).
    template <class T>
    const T* Get(std::string_view name) const {
        const openacl::OpAttrValue* value = Find(name);
        return value == nullptr ? nullptr : std::get_if<T>(value);
    }

    bool Has(std::string_view name) const { return Find(name) != nullptr; }
    size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    // Every attribute, names in byte order.
    const Entries& entries() const { return entries_; }

    // CANN's matching rule; a null set is the empty set.
    static bool Matches(const aclopAttr* a, const aclopAttr* b);
    bool Matches(const aclopAttr& other) const { return Matches(this, &other); }

    // Hash and Text of a null set are those of the empty set.
    static uint64_t Hash(const aclopAttr* attr);
    uint64_t Hash() const { return Hash(this); }
    static std::string Text(const aclopAttr* attr);
    std::string Text() const { return Text(this); }

 private:
    Entries entries_;
};

namespace openacl {

// Creates a registered, empty set (nullptr when out of memory): every aclopAttr the runtime
// hands out comes from here, so IsLiveOpAttr can vouch for it.
aclopAttr* NewOpAttr();
// Releases a registered set; a pointer that is not one (already released, foreign) is ignored.
void DeleteOpAttr(const aclopAttr* attr);
bool IsLiveOpAttr(const aclopAttr* attr);

}  // namespace openacl
