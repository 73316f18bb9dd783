// aclnnop/aclnn_rotary_position_embedding.h: out = x * cos + rotate(x) * sin over the last
// dimension D, cos and sin broadcast to x. mode 0 (half, GPT-NeoX): rotate(x) = [-x2, x1] for
// the halves x1, x2; mode 1 (interleave, GPT-J): each pair (a, b) becomes (-b, a). The
// rotation is built in the workspace (float), then two products and a sum.
#include "aclnnop/aclnn_rotary_position_embedding.h"

#include <cinttypes>
#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement.h"
#include "core/error.h"
#include "ops/dtype.h"

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

    int32_t Run(void* const* addresses, void* workspace, std::string*) const override {
        const ops::LoopShape& shape = x_.shape;
        const int last = shape.rank - 1;
        const int64_t width = shape.dims[last];
        ops::Operand tmp;  // rotate(x), contiguous float
        tmp.dtype = ACL_FLOAT;
        tmp.data = static_cast<char*>(workspace);
        int64_t step = 1;
        for (int d = last; d >= 0; --d) {
            tmp.strides[d] = step;
            step *= shape.dims[d];
        }
        const ops::Operand x = OperandOf(x_, shape, addresses[x_slot_]);
        // Two copies make the rotation: one negated (-second part into the first place), one
        // plain (first part into the second place).
        ops::UnaryArgs neg, copy;
        neg.op = ops::UnaryOp::kNeg;
        copy.op = ops::UnaryOp::kIdentity;
        neg.compute = copy.compute = ACL_FLOAT;
        neg.shape = copy.shape = shape;
        neg.in = copy.in = x;
        neg.out = copy.out = tmp;
        const auto x_size = static_cast<int64_t>(ops::DtypeSize(x_.dtype));
        if (mode_ == 0) {
            const int64_t half = width / 2;
            neg.shape.dims[last] = copy.shape.dims[last] = half;
            neg.in.data += half * x.strides[last] * x_size;                      // x2 ->
            copy.out.data += half * tmp.strides[last] * int64_t{sizeof(float)};  // -> second
        } else {  // pairs: [.., D/2, 2] with the pair as a new last dimension of size 1 each
            neg.shape.dims[last] = copy.shape.dims[last] = width / 2;
            neg.in.strides[last] = copy.in.strides[last] = 2 * x.strides[last];
            neg.out.strides[last] = copy.out.strides[last] = 2 * tmp.strides[last];
            neg.in.data += x.strides[last] * x_size;                      // b ->
            copy.out.data += tmp.strides[last] * int64_t{sizeof(float)};  // -> second
        }
        ops::RunUnary(neg);
        ops::RunUnary(copy);
        ops::BinaryArgs product;  // tmp *= sin
        product.op = ops::BinaryOp::kMul;
        product.shape = shape;
        product.compute = ACL_FLOAT;
        product.a = tmp;
        product.b = OperandOf(sin_, shape, addresses[sin_slot_]);
        product.out = tmp;
        ops::RunBinary(product);
        product.a = x;  // out = x * cos
        product.b = OperandOf(cos_, shape, addresses[cos_slot_]);
        product.out = OperandOf(out_, shape, addresses[out_slot_]);
        ops::RunBinary(product);
        ops::BinaryArgs sum = product;  // out += tmp
        sum.op = ops::BinaryOp::kAdd;
        sum.a = product.out;
        sum.b = tmp;
        ops::RunBinary(sum);
        return 0;
    }

 private:
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
    const uint64_t workspace = static_cast<uint64_t>(vx.numel) * sizeof(float);
    return builder.Finish(std::make_unique<RopeOperator>(vx, vc, vs, vo, mode, slots), workspace,
                          workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(RotaryPositionEmbedding)
