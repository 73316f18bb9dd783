// Shared first-phase steps of the data-movement operators (aclnn/ops/movement.h).
#pragma once

#include <initializer_list>
#include <vector>

#include "aclnn/ops/movement.h"

namespace openacl::aclnn {

// Every dtype a copy can carry.
inline constexpr std::initializer_list<aclDataType> kMovableTypes = {
    ACL_FLOAT,  ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,   ACL_UINT8, ACL_INT16,
    ACL_UINT16, ACL_INT32,   ACL_UINT32, ACL_INT64,  ACL_UINT64, ACL_BOOL};

// 161002 unless out has self's dtype (operators that only move data do not convert).
aclnnStatus CheckSameDtype(const TensorView& self, const TensorView& out);
// Hands out an executor running `pieces` (no workspace).
aclnnStatus FinishMovement(ExecutorBuilder& builder, std::vector<Piece> pieces,
                           uint64_t* workspaceSize, aclOpExecutor** executor);
// A piece copying all of `src` (slot src_slot) onto all of `dst` (slot dst_slot), both of shape.
Piece WholeCopy(const TensorView& src, int src_slot, const TensorView& dst, int dst_slot);

}  // namespace openacl::aclnn
