// Operator compile options (acl_op_compiler.h: aclSetCompileopt, aclGetCompileoptSize,
// aclGetCompileopt, aclopSetCompileFlag): one process-wide table, as in CANN, that operator
// compilation reads when it starts. Options persist across aclFinalize and need no aclInit.
//
// Each option holds the value a program set, or else CANN's documented default, or no value
// at all (options whose default is a path or a per-operator setting CANN does not report).
// Options with a documented set of values accept only those (ACL_ERROR_INVALID_PARAM naming
// the accepted ones: CANN would fail the next compilation instead); paths and lists are kept as
// given. ACL_OP_JIT_COMPILE follows CANN's tolerance: any value but "enable" means "disable",
// with a warning (an error with openacl.strict). ACL_AUTO_TUNE_MODE was discarded by CANN and
// cannot be set (ACL_ERROR_FEATURE_UNSUPPORTED).
//
// openacl compiles no operator for an Ascend chip, so apart from the JIT choice and the compile
// flag, which later operator work may consult, the values are only stored and reported.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "acl/acl_op_compiler.h"

namespace openacl {

// Every aclCompileOpt value lies in [0, kCompileOptCount).
inline constexpr int kCompileOptCount = ACL_OP_DEBUG_OPTION + 1;

bool IsCompileOpt(int opt);
// "ACL_PRECISION_MODE", ...; "unknown" outside the enum.
const char* CompileOptName(aclCompileOpt opt);

// aclSetCompileopt after its null checks: validates value for opt and stores it. Returns the
// code (with a recorded message) on refusal. An empty value clears a free-form option.
aclError SetCompileOpt(aclCompileOpt opt, const char* value);

// The value in force: the one set, else the default (for ACL_OP_JIT_COMPILE it depends on the
// configured chip); nullopt when the option has none. opt must be a valid option.
std::optional<std::string> CompileOptValue(aclCompileOpt opt);

// Whether operators compile online (ACL_OP_JIT_COMPILE "enable") rather than prefer prebuilt
// binaries.
bool JitCompileEnabled();

// aclopSetCompileFlag (the flag is checked by the caller); ACL_OP_COMPILE_DEFAULT until set.
void SetOpCompileFlag(aclOpCompileFlag flag);
aclOpCompileFlag OpCompileFlag();

}  // namespace openacl
