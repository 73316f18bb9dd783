// acl_op.h: operator attributes (core/op_attr.h). Plain host objects: none of these functions
// needs aclInit or a device. Every set handed out is registered, so each call refuses a
// destroyed or foreign pointer with a message instead of touching freed memory; names, strings
// and lists are copied before the call returns.
#include <cstdint>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "core/error.h"
#include "core/op_attr.h"

using openacl::Fail;
using openacl::OpAttrValue;

namespace {

aclError CheckAttr(const aclopAttr* attr) {
    if (attr == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "attr is null: create the set with aclopCreateAttr");
    }
    if (!openacl::IsLiveOpAttr(attr)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "attr %p is not a live attribute set (destroyed already, or not made by "
                    "aclopCreateAttr)",
                    static_cast<const void*>(attr));
    }
    return ACL_SUCCESS;
}

aclError CheckTarget(const aclopAttr* attr, const char* attrName) {
    if (aclError rc = CheckAttr(attr)) return rc;
    if (attrName == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "attrName is null");
    return ACL_SUCCESS;
}

// A list argument: count >= 0, and values may be null only when count is 0.
aclError CheckList(int count, const void* values, const char* count_name, const char* values_name) {
    if (count < 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s is %d: a list has 0 or more values", count_name,
                    count);
    }
    if (count > 0 && values == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s is null but %s is %d", values_name, count_name,
                    count);
    }
    return ACL_SUCCESS;
}

// ACL_DT_UNDEFINED is an aclDataType too (an attribute may name "no type").
bool IsDataType(aclDataType type) {
    // aclDataTypeSize answers 0 only for ACL_STRING and for values that are no aclDataType.
    return type == ACL_DT_UNDEFINED || type == ACL_STRING || aclDataTypeSize(type) != 0;
}

// Stores the value built by make() (which may throw bad_alloc) under attrName.
template <class Make>
aclError Store(aclopAttr* attr, const char* attrName, Make make) {
    try {
        attr->Set(attrName, make());
        return ACL_SUCCESS;
    } catch (const std::bad_alloc&) {
        return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
    }
}

template <class T>
aclError SetList(aclopAttr* attr, const char* attrName, int numValues, const T* values) {
    if (aclError rc = CheckTarget(attr, attrName)) return rc;
    if (aclError rc = CheckList(numValues, values, "numValues", "values")) return rc;
    // values may be null for an empty list: [null, null) is an empty range.
    return Store(attr, attrName,
                 [&] { return OpAttrValue(std::vector<T>(values, values + numValues)); });
}

}  // namespace

aclopAttr* aclopCreateAttr() {
    OPENACL_API();
    aclopAttr* attr = openacl::NewOpAttr();
    if (attr == nullptr) Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
    return attr;
}

void aclopDestroyAttr(const aclopAttr* attr) {
    OPENACL_API();
    if (attr == nullptr) return;  // like free(NULL), as in CANN
    if (CheckAttr(attr) != ACL_SUCCESS) return;
    openacl::DeleteOpAttr(attr);
}

aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName, uint8_t attrValue) {
    OPENACL_API();
    if (aclError rc = CheckTarget(attr, attrName)) return rc;
    return Store(attr, attrName, [&] { return OpAttrValue(attrValue != 0); });
}

aclError aclopSetAttrInt(aclopAttr* attr, const char* attrName, int64_t attrValue) {
    OPENACL_API();
    if (aclError rc = CheckTarget(attr, attrName)) return rc;
    return Store(attr, attrName, [&] { return OpAttrValue(attrValue); });
}

aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName, float attrValue) {
    OPENACL_API();
    if (aclError rc = CheckTarget(attr, attrName)) return rc;
    return Store(attr, attrName, [&] { return OpAttrValue(attrValue); });
}

aclError aclopSetAttrString(aclopAttr* attr, const char* attrName, const char* attrValue) {
    OPENACL_API();
    if (aclError rc = CheckTarget(attr, attrName)) return rc;
    if (attrValue == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "attrValue is null");
    return Store(attr, attrName, [&] { return OpAttrValue(std::string(attrValue)); });
}

aclError aclopSetAttrDataType(aclopAttr* attr, const char* attrName, aclDataType attrValue) {
    OPENACL_API();
    if (aclError rc = CheckTarget(attr, attrName)) return rc;
    if (!IsDataType(attrValue)) {
        return Fail(ACL_ERROR_INVALID_PARAM, "attrValue %d is not an aclDataType",
                    static_cast<int>(attrValue));
    }
    return Store(attr, attrName, [&] { return OpAttrValue(attrValue); });
}

aclError aclopSetAttrListDataType(aclopAttr* attr, const char* attrName, int numValues,
                                  const aclDataType values[]) {
    OPENACL_API();
    if (aclError rc = CheckTarget(attr, attrName)) return rc;
    if (aclError rc = CheckList(numValues, values, "numValues", "values")) return rc;
    for (int i = 0; i < numValues; ++i) {
        if (!IsDataType(values[i])) {
            return Fail(ACL_ERROR_INVALID_PARAM, "values[%d] is %d, not an aclDataType", i,
                        static_cast<int>(values[i]));
        }
    }
    return Store(attr, attrName,
                 [&] { return OpAttrValue(std::vector<aclDataType>(values, values + numValues)); });
}

aclError aclopSetAttrListBool(aclopAttr* attr, const char* attrName, int numValues,
                              const uint8_t* values) {
    OPENACL_API();
    if (aclError rc = CheckTarget(attr, attrName)) return rc;
    if (aclError rc = CheckList(numValues, values, "numValues", "values")) return rc;
    return Store(attr, attrName, [&] {
        std::vector<uint8_t> list(static_cast<size_t>(numValues));
        for (int i = 0; i < numValues; ++i)
            list[i] = values[i] != 0 ? 1 : 0;  // any non-zero byte is true
        return OpAttrValue(std::move(list));
    });
}

aclError aclopSetAttrListInt(aclopAttr* attr, const char* attrName, int numValues,
                             const int64_t* values) {
    OPENACL_API();
    return SetList(attr, attrName, numValues, values);
}

aclError aclopSetAttrListFloat(aclopAttr* attr, const char* attrName, int numValues,
                               const float* values) {
    OPENACL_API();
    return SetList(attr, attrName, numValues, values);
}

aclError aclopSetAttrListString(aclopAttr* attr, const char* attrName, int numValues,
                                const char** values) {
    OPENACL_API();
    if (aclError rc = CheckTarget(attr, attrName)) return rc;
    if (aclError rc = CheckList(numValues, values, "numValues", "values")) return rc;
    for (int i = 0; i < numValues; ++i) {
        if (values[i] == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "values[%d] is null", i);
    }
    return Store(attr, attrName, [&] {
        std::vector<std::string> list;
        list.reserve(static_cast<size_t>(numValues));
        for (int i = 0; i < numValues; ++i)
            list.emplace_back(values[i]);
        return OpAttrValue(std::move(list));
    });
}

aclError aclopSetAttrListListInt(aclopAttr* attr, const char* attrName, int numLists,
                                 const int* numValues, const int64_t* const values[]) {
    OPENACL_API();
    if (aclError rc = CheckTarget(attr, attrName)) return rc;
    if (aclError rc = CheckList(numLists, numValues, "numLists", "numValues")) return rc;
    if (aclError rc = CheckList(numLists, values, "numLists", "values")) return rc;
    for (int i = 0; i < numLists; ++i) {
        if (numValues[i] < 0) {
            return Fail(ACL_ERROR_INVALID_PARAM, "numValues[%d] is %d: a list has 0 or more values",
                        i, numValues[i]);
        }
        // An empty list may come without storage (an empty std::vector's data() is null).
        if (numValues[i] > 0 && values[i] == nullptr) {
            return Fail(ACL_ERROR_INVALID_PARAM, "values[%d] is null but numValues[%d] is %d", i, i,
                        numValues[i]);
        }
    }
    return Store(attr, attrName, [&] {
        std::vector<std::vector<int64_t>> lists(static_cast<size_t>(numLists));
        for (int i = 0; i < numLists; ++i) {
            if (numValues[i] > 0) lists[i].assign(values[i], values[i] + numValues[i]);
        }
        return OpAttrValue(std::move(lists));
    });
}
