// Misuse table, operator attributes and compile options (acl/acl_op.h, acl/acl_op_compiler.h).
#include <cstdint>

#include "acl/acl_op_compiler.h"
#include "misuse_table.h"

TEST(MisuseTable, OperatorAttributes) {
    aclopAttr* attr = aclopCreateAttr();
    ASSERT_NE(attr, nullptr);
    aclopAttr* destroyed = aclopCreateAttr();
    ASSERT_NE(destroyed, nullptr);
    aclopDestroyAttr(destroyed);
    const int64_t ints[] = {1, 2};
    const int counts[] = {2, -1};
    const int64_t* const rows[] = {ints, ints};
    const char* strings[] = {"a", nullptr};
    const aclDataType bad_types[] = {static_cast<aclDataType>(999)};

    const std::vector<MisuseRow> rows_table = {
        {"aclopDestroyAttr(destroyed set)",
         [&] {
             aclopDestroyAttr(destroyed);
             return RecordedError();
         },
         ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrBool(NULL attr)", [] { return aclopSetAttrBool(nullptr, "b", 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrInt(destroyed set)", [&] { return aclopSetAttrInt(destroyed, "i", 1); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrFloat(NULL name)", [&] { return aclopSetAttrFloat(attr, nullptr, 1.0f); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrString(NULL value)", [&] { return aclopSetAttrString(attr, "s", nullptr); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrDataType(999)",
         [&] { return aclopSetAttrDataType(attr, "t", static_cast<aclDataType>(999)); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrListDataType(a value that is no aclDataType)",
         [&] { return aclopSetAttrListDataType(attr, "t", 1, bad_types); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrListBool(NULL values, 2)",
         [&] { return aclopSetAttrListBool(attr, "b", 2, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrListInt(numValues -1)",
         [&] { return aclopSetAttrListInt(attr, "i", -1, ints); }, ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrListFloat(NULL attr)",
         [&] { return aclopSetAttrListFloat(nullptr, "f", 0, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrListString(a NULL string)",
         [&] { return aclopSetAttrListString(attr, "s", 2, strings); }, ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrListListInt(numValues[1] -1)",
         [&] { return aclopSetAttrListListInt(attr, "l", 2, counts, rows); },
         ACL_ERROR_INVALID_PARAM},
        {"aclopSetAttrListListInt(NULL values, 1 list)",
         [&] { return aclopSetAttrListListInt(attr, "l", 1, counts, nullptr); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows_table);
    aclopDestroyAttr(attr);
}

TEST(MisuseTable, CompileOptions) {
    char value[64];
    const auto past_end = static_cast<aclCompileOpt>(ACL_OP_DEBUG_OPTION + 1);
    const std::vector<MisuseRow> rows = {
        {"aclSetCompileopt(NULL value)",
         [] { return aclSetCompileopt(ACL_PRECISION_MODE, nullptr); }, ACL_ERROR_INVALID_PARAM},
        {"aclSetCompileopt(opt past the enum)", [&] { return aclSetCompileopt(past_end, "x"); },
         ACL_ERROR_INVALID_PARAM},
        {"aclSetCompileopt(ACL_PRECISION_MODE, undocumented value)",
         [] { return aclSetCompileopt(ACL_PRECISION_MODE, "fp64"); }, ACL_ERROR_INVALID_PARAM},
        {"aclSetCompileopt(ACL_AUTO_TUNE_MODE, ...) discarded",
         [] { return aclSetCompileopt(ACL_AUTO_TUNE_MODE, "RL"); }, ACL_ERROR_FEATURE_UNSUPPORTED},
        {"aclGetCompileoptSize(opt past the enum)",
         [&] { return aclGetCompileoptSize(past_end) == 0 ? RecordedError() : ACL_SUCCESS; },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetCompileopt(NULL value)",
         [] { return aclGetCompileopt(ACL_OP_JIT_COMPILE, nullptr, 64); }, ACL_ERROR_INVALID_PARAM},
        {"aclGetCompileopt(opt -1)",
         [&] { return aclGetCompileopt(static_cast<aclCompileOpt>(-1), value, sizeof value); },
         ACL_ERROR_INVALID_PARAM},
        {"aclGetCompileopt(length 1)",
         [&] { return aclGetCompileopt(ACL_OP_JIT_COMPILE, value, 1); }, ACL_ERROR_FAILURE},
        {"aclGetCompileopt(an option without a value)",
         [&] { return aclGetCompileopt(ACL_DEBUG_DIR, value, sizeof value); },
         ACL_ERROR_API_NOT_SUPPORT},
        {"aclopSetCompileFlag(2)",
         [] { return aclopSetCompileFlag(static_cast<aclOpCompileFlag>(2)); },
         ACL_ERROR_INVALID_PARAM},
    };
    ExpectEveryRowFails(rows);
}
