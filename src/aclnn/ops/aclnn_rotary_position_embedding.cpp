// aclnnop/aclnn_rotary_position_embedding.h: out = x * cos + rotate(x) * sin over the last
// dimension D, cos and sin broadcast to x. mode 0 (half, GPT-NeoX): rotate(x) = [-x2, x1] for
// the halves x1, x2; mode 1 (interleave, GPT-J): each pair (a, b) becomes (-b, a). One pass
// over the rows, in float, with no workspace: the two elements a rotation pairs are read
// together before either is written, so out may be x itself.
#include "aclnnop/aclnn_rotary_position_embedding.h"

#include <algorithm>
#include <cinttypes>
#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement.h"
#include "core/error.h"
#include "ops/axis_plan.h"
#include "ops/dtype.h"
#include "ops/element.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;
namespace ops = openacl::ops;

namespace {

class RopeOperator final : public Operator {
 public:
    RopeOperator(TensorView x, TensorView cos, TensorView sin, TensorView out, int64_t mode,
                 const int slots[4])
        : x_(x),
          cos_(cos),
          sin_(sin),
          out_(out),
          mode_(mode),
          x_slot_(slots[0]),
          cos_slot_(slots[1]),
          sin_slot_(slots[2]),
          out_slot_(slots[3]) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        const ops::LoopShape& shape = x_.shape;
        const int last = shape.rank - 1;
        const int64_t width = shape.dims[last];
        if (width == 0 || x_.numel == 0) return 0;
        // The four operands, in the order x, cos, sin, out.
        const ops::Operand operands[4] = {OperandOf(x_, shape, addresses[x_slot_]),
                                          OperandOf(cos_, shape, addresses[cos_slot_]),
                                          OperandOf(sin_, shape, addresses[sin_slot_]),
                                          OperandOf(out_, shape, addresses[out_slot_])};
        ops::SplitUnits(
            x_.numel / width, ops::GrainFor(4 * width), [&](int64_t begin, int64_t end) {
                for (int64_t row = begin; row < end; ++row) {
                    const char* rows[4];
                    for (int k = 0; k < 4; ++k) {
                        int64_t offset = 0, rest = row;
                        for (int d = last - 1; d >= 0; --d) {
                            offset += rest % shape.dims[d] * operands[k].strides[d];
                            rest /= shape.dims[d];
                        }
                        rows[k] = operands[k].data +
                                  offset * static_cast<int64_t>(ops::DtypeSize(operands[k].dtype));
                    }
                    RotateRow(operands, rows, width);
                }
            });
        return 0;
    }

 private:
    // One row of the last dimension, in chunks of pairs: mode 0 pairs element j with j + D/2,
    // mode 1 element 2j with 2j + 1 (`second` is the partner's distance, `step` the pairs').
    void RotateRow(const ops::Operand (&operands)[4], const char* const (&rows)[4],
                   int64_t width) const {
        const int last = x_.shape.rank - 1;
        const int64_t pairs = width / 2;
        const int64_t second = mode_ == 0 ? pairs : 1, step = mode_ == 0 ? 1 : 2;
        constexpr int64_t kChunk = 128;
        float a[kChunk], b[kChunk], c1[kChunk], c2[kChunk], s1[kChunk], s2[kChunk];
        int64_t size[4], stride[4];
        for (int k = 0; k < 4; ++k) {
            size[k] = static_cast<int64_t>(ops::DtypeSize(operands[k].dtype));
            stride[k] = operands[k].strides[last] * size[k];
        }
        for (int64_t j = 0; j < pairs; j += kChunk) {
            const int64_t n = std::min(kChunk, pairs - j);
            auto at = [&](int k, int64_t second_of_pair) {
                return rows[k] + (j * step + second_of_pair) * stride[k];
            };
            ops::Load(at(0, 0), step * stride[0], operands[0].dtype, n, a);
            ops::Load(at(0, second), step * stride[0], operands[0].dtype, n, b);
            ops::Load(at(1, 0), step * stride[1], operands[1].dtype, n, c1);
            ops::Load(at(1, second), step * stride[1], operands[1].dtype, n, c2);
            ops::Load(at(2, 0), step * stride[2], operands[2].dtype, n, s1);
            ops::Load(at(2, second), step * stride[2], operands[2].dtype, n, s2);
            for (int64_t i = 0; i < n; ++i) {
                const float first = a[i] * c1[i] - b[i] * s1[i];
                b[i] = b[i] * c2[i] + a[i] * s2[i];
                a[i] = first;
            }
            ops::Store(a, n, const_cast<char*>(at(3, 0)), step * stride[3], operands[3].dtype);
            ops::Store(b, n, const_cast<char*>(at(3, second)), step * stride[3], operands[3].dtype);
        }
    }

    TensorView x_, cos_, sin_, out_;
    int64_t mode_;
    int x_slot_, cos_slot_, sin_slot_, out_slot_;
};

}  // namespace

aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor* x, const aclTensor* cos,
                                                         const aclTensor* sin, int64_t mode,
                                                         aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(x, "x"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(cos, "cos"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(sin, "sin"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView vx, vc, vs, vo;
    if (aclnnStatus rc = ViewOf(x, "x", &vx); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(cos, "cos", &vc); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(sin, "sin", &vs); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &vo); rc != 0) return rc;
    for (const TensorView* v : {&vx, &vc, &vs, &vo}) {
        if (aclnnStatus rc = CheckDtype(*v, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}); rc != 0) {
            return rc;
        }
    }
    if (vc.dtype != vx.dtype || vs.dtype != vx.dtype || vo.dtype != vx.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "x, cos, sin and out must share one type (x is %s)",
                    ops::DtypeName(vx.dtype));
    }
    if (mode != 0 && mode != 1) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "mode is %" PRId64
                    ": openacl has 0 (half) and 1 (interleave); the quarter "
                    "and interleave-half modes are not implemented",
                    mode);
    }
    if (vx.shape.rank == 0 || vx.shape.dims[vx.shape.rank - 1] % 2 != 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "x's last dimension must be even (x has shape %s)",
                    ShapeText(vx.shape));
    }
    if (aclnnStatus rc = CheckBroadcastsTo(vc, vx.shape); rc != 0) return rc;
    if (aclnnStatus rc = CheckBroadcastsTo(vs, vx.shape); rc != 0) return rc;
    if (aclnnStatus rc = CheckShape(vo, vx.shape); rc != 0) return rc;
    ExecutorBuilder builder("aclnnRotaryPositionEmbedding");
    const int slots[4] = {builder.Input(vx, x), builder.Input(vc, cos), builder.Input(vs, sin),
                          builder.Output(vo, out)};
    return builder.Finish(std::make_unique<RopeOperator>(vx, vc, vs, vo, mode, slots), 0,
                          workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(RotaryPositionEmbedding)
