// The pieces of aclnn/ops/movement.h and how they run.
#include "aclnn/ops/movement.h"

#include <cinttypes>

#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

// The type a copy converts through: exact for every pair of operator dtypes.
aclDataType CopyComputeType(aclDataType src, aclDataType dst) {
    if (src == ACL_DOUBLE || dst == ACL_DOUBLE) return ACL_DOUBLE;
    if (ops::IsFloating(src) || ops::IsFloating(dst)) {
        // float16/bfloat16/float to each other: float holds them exactly; an integer into a
        // float type goes through double so wide integers round once.
        return ops::IsFloating(src) ? ACL_FLOAT : ACL_DOUBLE;
    }
    return ACL_INT64;
}

ops::Operand OperandAt(const Region& region, const ops::LoopShape& shape, void* address) {
    ops::Operand operand;
    operand.dtype = region.dtype;
    operand.data = static_cast<char*>(address) +
                   region.offset * static_cast<int64_t>(ops::DtypeSize(region.dtype));
    for (int d = 0; d < shape.rank; ++d)
        operand.strides[d] = region.strides[d];
    return operand;
}

}  // namespace

Region RegionOf(const TensorView& view, int slot) {
    Region region;
    region.slot = slot;
    region.dtype = view.dtype;
    region.offset = view.offset;
    for (int d = 0; d < view.shape.rank; ++d)
        region.strides[d] = view.strides[d];
    return region;
}

void Narrow(ops::LoopShape* shape, Region* region, int dim, int64_t start, int64_t length,
            int64_t step) {
    region->offset += start * region->strides[dim];
    region->strides[dim] *= step;
    shape->dims[dim] = length;
}

void MovementOperator::RunPiece(const Piece& piece, void* const* addresses) {
    if (piece.shape.Numel() == 0) return;
    if (piece.src.slot < 0) {
        ops::FillArgs fill;
        fill.shape = piece.shape;
        fill.out = OperandAt(piece.dst, piece.shape, addresses[piece.dst.slot]);
        fill.value = piece.value;
        fill.value_int = piece.value_int;
        ops::RunFill(fill);
        return;
    }
    ops::UnaryArgs copy;
    copy.op = ops::UnaryOp::kIdentity;
    copy.shape = piece.shape;
    copy.in = OperandAt(piece.src, piece.shape, addresses[piece.src.slot]);
    copy.out = OperandAt(piece.dst, piece.shape, addresses[piece.dst.slot]);
    copy.compute = CopyComputeType(piece.src.dtype, piece.dst.dtype);
    ops::RunUnary(copy);
}

int32_t MovementOperator::Run(void* const* addresses, void*, std::string*) const {
    for (const Piece& piece : pieces_)
        RunPiece(piece, addresses);
    return 0;
}

aclnnStatus NormalizeDim(int64_t dim, int rank, const char* name, int* result) {
    const int64_t range = rank > 0 ? rank : 1;  // a 0-d tensor takes dim 0 and -1
    if (dim < -range || dim >= range) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s is %" PRId64 ": a tensor of %d dimensions takes %" PRId64 " to %" PRId64,
                    name, dim, rank, -range, range - 1);
    }
    *result = static_cast<int>(dim < 0 ? dim + range : dim);
    return ACLNN_SUCCESS;
}

}  // namespace openacl::aclnn
