// aclGenGraphAndDumpForOp: the graph of one single-operator call — a Data node per input, the
// operator, a NetOutput node — written as text (the input of CANN's operator tuning tools).
// The text follows the shape of CANN's protobuf text dumps (graph { op { name type input
// attr input_desc output_desc } }); openacl has no tuning tool that reads it, so it is for
// people: what the call described, exactly.
#pragma once

#include <string>

#include "acl/acl_op_compiler.h"
#include "op/op_desc.h"

struct aclGraphDumpOption {
    char reserved = 0;
};

namespace openacl::op {

std::string GraphText(const OpDesc& desc);

// Writes GraphText(desc) to `path`: into a file named after the call when `path` is an existing
// directory, or to `path` itself when it names a .txt file in an existing directory (an older
// file of that name is replaced). Throws OpError (ACL_ERROR_INVALID_PARAM for a path that is
// neither, ACL_ERROR_WRITE_FILE when writing fails). Returns the file written.
std::string DumpGraph(const OpDesc& desc, const std::string& path);

// aclGraphDumpOption: reserved by CANN (no setter exists), made and destroyed all the same.
aclGraphDumpOption* NewGraphDumpOption();
bool DeleteGraphDumpOption(const aclGraphDumpOption* option);  // false: not a live one
bool IsLiveGraphDumpOption(const aclGraphDumpOption* option);

}  // namespace openacl::op
