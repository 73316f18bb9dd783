// The single-operator models a process knows: those loaded from files (aclopSetModelDir, once
// per process, and aclopLoad) and those compiled online (aclopCompile, aclopCompileAndExecute).
// aclopExecuteV2, aclopExecute, aclopCreateHandle and aclopCast run an operator only when a
// model matches the call, as CANN does: the same type, the same number of inputs and outputs,
// and for each tensor the same data type and format and a shape the model allows (equal, or
// within the ranges of its -1 dimensions, or anything for -2), the constant values a model
// fixes, and attributes that match (aclopAttr::Matches: same names, types and values, floats
// within 1e-6). A miss is ACL_ERROR_OP_NOT_FOUND, whose message names the nearest model of the
// type and how it differs.
//
// Loaded models are never forgotten; compiled ones are kept up to aclopSetMaxOpQueueNum
// (20000 by default), least recently used first out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "op/op_desc.h"

namespace openacl::op {

// aclopSetModelDir: every *.om under dir, the directory and two levels below it. Files that
// are not single-operator models (network models, CANN's own) are skipped with a warning.
// Throws OpError: ACL_ERROR_READ_MODEL_FAILURE when dir cannot be read,
// ACL_ERROR_REPEAT_INITIALIZE when a directory was set already. Returns the models loaded.
size_t LoadModelDir(const char* dir);
// aclopLoad: one model file's bytes (the caller keeps them). Throws OpError
// (ACL_ERROR_PARSE_MODEL for bytes that are no model).
void LoadModel(const void* data, size_t size);
// aclopCompile and aclopCompileAndExecute: the call becomes a model later calls match.
void AddCompiledModel(const OpDesc& desc);
// Whether a model matches the call; throws ACL_ERROR_OP_NOT_FOUND (with the nearest model's
// difference) when none does.
void RequireModel(const OpDesc& call);
bool HasModel(const OpDesc& call);
// aclopSetMaxOpQueueNum.
void SetCompiledModelCapacity(uint64_t capacity);

}  // namespace openacl::op
