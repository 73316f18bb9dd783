// acl_op_compiler.h: the process-wide compile options and compile flag (core/compile_options.h)
// and the graph dump options. They are host settings: none of these functions needs aclInit or
// a device. Compiling, running and dumping operators (aclopCompile,
// aclopCompileAndExecute[V2], aclGenGraphAndDumpForOp) are in op_execute.cpp.
#include <cstring>
#include <optional>
#include <string>

#include "acl/acl_op_compiler.h"
#include "core/compile_options.h"
#include "core/error.h"
#include "op/op_graph_dump.h"

using openacl::Fail;

namespace {

aclError CheckOpt(aclCompileOpt opt) {
    if (!openacl::IsCompileOpt(opt)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "opt %d is not an aclCompileOpt (ACL_PRECISION_MODE = 0 to "
                    "ACL_OP_DEBUG_OPTION = %d)",
                    static_cast<int>(opt), openacl::kCompileOptCount - 1);
    }
    return ACL_SUCCESS;
}

}  // namespace

aclError aclSetCompileopt(aclCompileOpt opt, const char* value) {
    OPENACL_API();
    if (aclError rc = CheckOpt(opt)) return rc;
    if (value == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "value is null: pass the %s value as a string",
                    openacl::CompileOptName(opt));
    }
    return openacl::SetCompileOpt(opt, value);
}

size_t aclGetCompileoptSize(aclCompileOpt opt) {
    OPENACL_API();
    if (CheckOpt(opt) != ACL_SUCCESS) return 0;
    // 0 for an option without a value, as in CANN.
    const std::optional<std::string> value = openacl::CompileOptValue(opt);
    return value ? value->size() + 1 : 0;
}

aclError aclGetCompileopt(aclCompileOpt opt, char* value, size_t length) {
    OPENACL_API();
    if (aclError rc = CheckOpt(opt)) return rc;
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    const std::optional<std::string> current = openacl::CompileOptValue(opt);
    if (!current) {
        // CANN's answer for an option it has no value of.
        return Fail(ACL_ERROR_API_NOT_SUPPORT,
                    "%s has no value: it was not set and CANN reports no default for it "
                    "(aclGetCompileoptSize answers 0)",
                    openacl::CompileOptName(opt));
    }
    if (length < current->size() + 1) {
        // CANN's code for a short buffer.
        return Fail(ACL_ERROR_FAILURE,
                    "length %zu is too small: the %s value \"%s\" takes %zu bytes with its "
                    "terminator (aclGetCompileoptSize)",
                    length, openacl::CompileOptName(opt), current->c_str(), current->size() + 1);
    }
    std::memcpy(value, current->c_str(), current->size() + 1);
    return ACL_SUCCESS;
}

aclError aclopSetCompileFlag(aclOpCompileFlag flag) {
    OPENACL_API();
    if (flag != ACL_OP_COMPILE_DEFAULT && flag != ACL_OP_COMPILE_FUZZ) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "flag %d is not an aclOpCompileFlag (ACL_OP_COMPILE_DEFAULT = 0, "
                    "ACL_OP_COMPILE_FUZZ = 1)",
                    static_cast<int>(flag));
    }
    openacl::SetOpCompileFlag(flag);
    return ACL_SUCCESS;
}

aclGraphDumpOption* aclCreateGraphDumpOpt() {
    OPENACL_API();
    aclGraphDumpOption* option = openacl::op::NewGraphDumpOption();
    if (option == nullptr) Fail(ACL_ERROR_BAD_ALLOC, "out of host memory for a graph dump option");
    return option;
}

aclError aclDestroyGraphDumpOpt(const aclGraphDumpOption* graphDumpOpt) {
    OPENACL_API();
    if (graphDumpOpt == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "graphDumpOpt is null");
    if (!openacl::op::DeleteGraphDumpOption(graphDumpOpt)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "graphDumpOpt %p is not a live option (destroyed already, or never made by "
                    "aclCreateGraphDumpOpt)",
                    static_cast<const void*>(graphDumpOpt));
    }
    return ACL_SUCCESS;
}
