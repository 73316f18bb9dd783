// The operator types single-operator calls may name, in CANN's words ("Add", "MatMulV2",
// "ConcatD", ...), each with its input and output counts and a handler that plans it on the
// aclnn operator library (op_plan.h). Handlers live by family in op_*.cpp; this file also
// keeps the plans already made, by call signature, so a repeated call (the usual case: a
// training loop, a handle) plans once.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "aclnn/objects.h"
#include "op/op_plan.h"

namespace openacl::op {

using Handler = void (*)(Builder& b);

struct OpTypeInfo {
    const char* name;
    int min_inputs;
    int max_inputs;  // -1: any number (a dynamic input, ConcatD's x)
    int outputs;     // -1: any number, at least one (SplitD: num_split)
    Handler build;
};

// The families (each op_*.cpp).
void AddElementwiseOps(std::vector<OpTypeInfo>* table);
void AddMovementOps(std::vector<OpTypeInfo>* table);
void AddReductionOps(std::vector<OpTypeInfo>* table);
void AddMatrixOps(std::vector<OpTypeInfo>* table);

const OpTypeInfo* FindOpType(std::string_view name);
// Every type, sorted (for docs and messages).
std::vector<std::string> OpTypeNames();

// The type of a call, with its counts checked: ACL_ERROR_OP_NOT_FOUND for a type openacl does
// not have, ACL_ERROR_OP_INPUT_NOT_MATCH / ACL_ERROR_OP_OUTPUT_NOT_MATCH for counts it does
// not take. Throws OpError.
const OpTypeInfo& CheckOpType(const OpDesc& desc);
// The output shapes of a call with static input shapes (aclopInferShape).
std::vector<Shape> InferShapes(const OpDesc& desc);
// The plan of a call whose input shapes are static: made once per signature, then shared.
std::shared_ptr<Plan> GetPlan(const OpDesc& desc);
// A plan made for this call alone (not cached): the cblas handles, whose GEMM is not a type
// calls may name with every combination.
std::shared_ptr<Plan> MakePlan(const OpDesc& desc);
// aclopSetMaxOpQueueNum: how many plans the cache keeps (least recently used go first).
void SetPlanCacheCapacity(uint64_t capacity);
size_t CachedPlanCount();

// ---- Helpers for handlers ----

inline aclScalar MakeScalar(double value) {
    aclScalar s;
    s.dtype = ACL_DOUBLE;
    std::memcpy(s.bytes, &value, sizeof value);
    return s;
}
inline aclScalar MakeScalar(float value) {
    aclScalar s;
    s.dtype = ACL_FLOAT;
    std::memcpy(s.bytes, &value, sizeof value);
    return s;
}
inline aclScalar MakeIntScalar(int64_t value) {
    aclScalar s;
    s.dtype = ACL_INT64;
    std::memcpy(s.bytes, &value, sizeof value);
    return s;
}
inline aclIntArray MakeIntArray(const Shape& values) {
    aclIntArray a;
    a.values = values;
    return a;
}

}  // namespace openacl::op

// Plans one aclnn operator as a step: OPENACL_OP_STEP(b, Add, x1, x2, &alpha, y) calls
// aclnnAddGetWorkspaceSize(x1, x2, &alpha, y, &ws, &executor) and keeps aclnnAdd to run it.
#define OPENACL_OP_STEP(builder, Name, ...)                                               \
    do {                                                                                  \
        uint64_t op_step_ws_ = 0;                                                         \
        aclOpExecutor* op_step_executor_ = nullptr;                                       \
        const aclnnStatus op_step_rc_ =                                                   \
            aclnn##Name##GetWorkspaceSize(__VA_ARGS__, &op_step_ws_, &op_step_executor_); \
        (builder).Step(op_step_rc_, op_step_ws_, op_step_executor_, aclnn##Name);         \
    } while (0)
