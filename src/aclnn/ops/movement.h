// Operators that move data without computing on it (Permute, Slice, Cat, Repeat, padding,
// Roll, Split, triangles, ranges, gathers): their work is a list of pieces, each a copy of one
// strided region into another (converting the dtype if the two differ) or a fill, run in order
// by the element-wise engine. Pieces address the executor's slots, so they hold no pointers.
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/op_executor.h"
#include "ops/elementwise.h"

namespace openacl::aclnn {

// A region of a slot's memory: offset and strides in elements, over a piece's loop shape.
struct Region {
    int slot = -1;
    aclDataType dtype = ACL_DT_UNDEFINED;
    int64_t offset = 0;
    int64_t strides[ops::kMaxDims] = {};
};

struct Piece {
    ops::LoopShape shape;
    Region src;  // slot -1: fill dst with value / value_int
    Region dst;
    double value = 0.0;
    int64_t value_int = 0;
};

// The region `view` describes in slot `slot`, over the view's own shape.
Region RegionOf(const TensorView& view, int slot);
// Narrows dimension `dim` of a region over `shape` to [start, start + length) taken every
// `step` elements.
void Narrow(ops::LoopShape* shape, Region* region, int dim, int64_t start, int64_t length,
            int64_t step = 1);

class MovementOperator final : public Operator {
 public:
    explicit MovementOperator(std::vector<Piece> pieces) : pieces_(std::move(pieces)) {}
    int32_t Run(void* const* addresses, void* workspace, std::string* error) const override;
    // Runs one piece (for operators whose pieces depend on data read when they run).
    static void RunPiece(const Piece& piece, void* const* addresses);

 private:
    std::vector<Piece> pieces_;
};

// dim in [-rank, rank) made non-negative, or 161002 naming `name`.
aclnnStatus NormalizeDim(int64_t dim, int rank, const char* name, int* result);

}  // namespace openacl::aclnn
