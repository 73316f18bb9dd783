// aclnnop/aclnn_triangular_solve.h: xOut = X solving A X = self (A^T X = self with transpose)
// for square triangular A, upper or lower, its diagonal taken as ones with unitriangular, over
// batch dimensions that broadcast between A [*, m, m] and self [*, m, n]; mOut (optional, as in
// CANN's implementation) = A broadcast to the batch, copied whole before the diagonal is
// replaced. Only A's triangle is read for the solve. float32 and float64 (unitriangular: float32
// only, as CANN documents); complex types are not implemented. Each column of each matrix is one
// unit of substitution, accumulating in double, split over the executor's idle workers.
#include "aclnnop/aclnn_triangular_solve.h"

#include <cinttypes>
#include <memory>
#include <string>

#include "aclnn/objects.h"
#include "aclnn/op_executor.h"
#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/axis_plan.h"
#include "ops/dtype.h"
#include "ops/element.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;
namespace ops = openacl::ops;

namespace {

class TriangularSolveOperator final : public Operator {
 public:
    TriangularSolveOperator(TensorView b, TensorView a, TensorView x, TensorView m,
                            ops::LoopShape shape, bool upper, bool transpose, bool unit,
                            const int slots[4])
        : b_(b),
          a_(a),
          x_(x),
          m_(m),
          shape_(shape),
          upper_(upper),
          transpose_(transpose),
          unit_(unit),
          b_slot_(slots[0]),
          a_slot_(slots[1]),
          x_slot_(slots[2]),
          m_slot_(slots[3]) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        if (shape_.Numel() == 0 || b_.numel == 0 || a_.numel == 0) return 0;
        const int rank = shape_.rank;
        ops::LoopShape a_shape = shape_;  // [*, m, m]
        a_shape.dims[rank - 1] = shape_.dims[rank - 2];
        if (m_slot_ >= 0) {  // mOut: A broadcast, whole
            ops::UnaryArgs copy;
            copy.op = ops::UnaryOp::kIdentity;
            copy.shape = a_shape;
            copy.in = OperandOf(a_, a_shape, addresses[a_slot_]);
            copy.out = OperandOf(m_, a_shape, addresses[m_slot_]);
            copy.compute = a_.dtype == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
            ops::RunUnary(copy);
        }
        const ops::Operand a = OperandOf(a_, a_shape, addresses[a_slot_]);
        const ops::Operand b = OperandOf(b_, shape_, addresses[b_slot_]);
        const ops::Operand x = OperandOf(x_, shape_, addresses[x_slot_]);
        if (a_.dtype == ACL_DOUBLE) {
            Solve<double>(a, b, x);
        } else {
            Solve<float>(a, b, x);
        }
        return 0;
    }

 private:
    template <typename T>
    void Solve(const ops::Operand& a, const ops::Operand& b, const ops::Operand& x) const {
        const int rank = shape_.rank;
        const int64_t m = shape_.dims[rank - 2], n = shape_.dims[rank - 1];
        int64_t batches = 1;
        for (int d = 0; d < rank - 2; ++d)
            batches *= shape_.dims[d];
        // The effective matrix M = A or A^T; M(i, j) = A(i, j) * steps.
        const int64_t ai = transpose_ ? a.strides[rank - 1] : a.strides[rank - 2];
        const int64_t aj = transpose_ ? a.strides[rank - 2] : a.strides[rank - 1];
        const bool m_upper = upper_ != transpose_;
        const int64_t bi = b.strides[rank - 2], bk = b.strides[rank - 1];
        const int64_t xi = x.strides[rank - 2], xk = x.strides[rank - 1];
        ops::SplitUnits(
            batches * n, ops::GrainFor(m * (m + 1) / 2), [&](int64_t begin, int64_t end) {
                for (int64_t unit = begin; unit < end; ++unit) {
                    const int64_t k = unit % n;
                    int64_t rest = unit / n;
                    int64_t a_off = 0, b_off = 0, x_off = 0;  // elements
                    for (int d = rank - 3; d >= 0; --d) {
                        const int64_t index = rest % shape_.dims[d];
                        rest /= shape_.dims[d];
                        a_off += index * a.strides[d];
                        b_off += index * b.strides[d];
                        x_off += index * x.strides[d];
                    }
                    const T* am = reinterpret_cast<const T*>(a.data) + a_off;
                    const char* bc = b.data + (b_off + k * bk) * static_cast<int64_t>(sizeof(T));
                    T* xc = reinterpret_cast<T*>(x.data) + x_off + k * xk;
                    // x = b's column first (so x may be self), then substitution in place.
                    for (int64_t i = 0; i < m; ++i) {
                        xc[i * xi] = ops::LoadRaw<T>(bc + i * bi * static_cast<int64_t>(sizeof(T)));
                    }
                    for (int64_t step = 0; step < m; ++step) {
                        const int64_t i = m_upper ? m - 1 - step : step;
                        double sum = static_cast<double>(xc[i * xi]);
                        const int64_t j0 = m_upper ? i + 1 : 0, j1 = m_upper ? m : i;
                        for (int64_t j = j0; j < j1; ++j) {
                            sum -= static_cast<double>(am[i * ai + j * aj]) *
                                   static_cast<double>(xc[j * xi]);
                        }
                        if (!unit_) sum /= static_cast<double>(am[i * ai + i * aj]);
                        xc[i * xi] = static_cast<T>(sum);
                    }
                }
            });
    }

    TensorView b_, a_, x_, m_;
    ops::LoopShape shape_;  // xOut's: [*, m, n]
    bool upper_, transpose_, unit_;
    int b_slot_, a_slot_, x_slot_, m_slot_;
};

}  // namespace

aclnnStatus aclnnTriangularSolveGetWorkspaceSize(const aclTensor* self, const aclTensor* A,
                                                 bool upper, bool transpose, bool unitriangular,
                                                 aclTensor* xOut, aclTensor* mOut,
                                                 uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(A, "A"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(xOut, "xOut"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView b, a, x, m;
    if (aclnnStatus rc = ViewOf(self, "self", &b); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(A, "A", &a); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(xOut, "xOut", &x); rc != 0) return rc;
    if (mOut != nullptr) {
        if (aclnnStatus rc = ViewOf(mOut, "mOut", &m); rc != 0) return rc;
    }
    for (const TensorView* v : {&b, &a, &x, &m}) {
        if (v == &m && mOut == nullptr) continue;
        if (aclnnStatus rc = CheckDtype(*v, {ACL_FLOAT, ACL_DOUBLE}); rc != 0) return rc;
        if (v->dtype != b.dtype) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "%s is %s but self is %s: they must match",
                        v->name, ops::DtypeName(v->dtype), ops::DtypeName(b.dtype));
        }
        if (v->shape.rank < 2) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "%s has shape %s: it needs at least 2 dimensions (matrices)", v->name,
                        ShapeText(v->shape));
        }
    }
    if (unitriangular && b.dtype != ACL_FLOAT) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "unitriangular is true and the tensors are %s: CANN documents unitriangular "
                    "for ACL_FLOAT only",
                    ops::DtypeName(b.dtype));
    }
    const int64_t rows = a.shape.dims[a.shape.rank - 2];
    if (a.shape.dims[a.shape.rank - 1] != rows) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "A has shape %s: its matrices must be square",
                    ShapeText(a.shape));
    }
    if (b.shape.dims[b.shape.rank - 2] != rows) {
        std::string a_shape = ShapeText(a.shape);
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self has shape %s and A %s: self's matrices need A's %" PRId64 " rows",
                    ShapeText(b.shape), a_shape.c_str(), rows);
    }
    // Batch dimensions broadcast: A against self with its columns made A's.
    TensorView b_square = b;
    b_square.shape.dims[b.shape.rank - 1] = rows;
    ops::LoopShape square;
    if (aclnnStatus rc = Broadcast(a, b_square, &square); rc != 0) return rc;
    ops::LoopShape shape = square;
    shape.dims[shape.rank - 1] = b.shape.dims[b.shape.rank - 1];
    if (aclnnStatus rc = CheckShape(x, shape); rc != 0) return rc;
    if (mOut != nullptr) {
        if (aclnnStatus rc = CheckShape(m, square); rc != 0) return rc;
    }
    ExecutorBuilder builder("aclnnTriangularSolve");
    const int b_slot = builder.Input(b, self);
    const int a_slot = builder.Input(a, A);
    const int x_slot = builder.Output(x, xOut);
    const int m_slot = mOut != nullptr ? builder.Output(m, mOut) : -1;
    const int slots[4] = {b_slot, a_slot, x_slot, m_slot};
    return builder.Finish(std::make_unique<TriangularSolveOperator>(
                              b, a, x, m, shape, upper, transpose, unitriangular, slots),
                          0, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(TriangularSolve)
