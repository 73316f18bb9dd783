// Element-wise operator types: arithmetic and comparisons of two tensors (NumPy broadcasting),
// unary math and activations, Cast, the fills (Fill, ZerosLike, OnesLike), BroadcastTo,
// ClipByValue, Select and AddN. Each is one or two aclnn operators; a type's output data type
// is the output description's, which the operator library converts to.
#include <algorithm>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_zero.h"
#include "op/op_registry.h"
#include "ops/dtype.h"

namespace openacl::op {
namespace {

// Add and Sub take an alpha: 1, of a type that does not change the operands' computation.
aclScalar One(const Builder& b) {
    const bool floating = ops::IsFloating(b.in(0).dtype) || ops::IsFloating(b.in(1).dtype);
    return floating ? MakeScalar(1.0f) : MakeIntScalar(1);
}

enum class Binary {
    kAdd,
    kSub,
    kMul,
    kDiv,
    kRealDiv,
    kFloorDiv,
    kMaximum,
    kMinimum,
    kPow,
    kEqual,
    kNotEqual,
    kGreater,
    kGreaterEqual,
    kLess,
    kLessEqual,
    kBitwiseAnd,
    kSquaredDifference,
};

template <Binary op>
void BinaryOp(Builder& b) {
    if (b.Shapes({BroadcastShapes(b.in(0).dims, b.in(1).dims, b.type())})) return;
    aclTensor* x1 = b.In(0);
    aclTensor* x2 = b.In(1);
    aclTensor* y = b.Out(0);
    if constexpr (op == Binary::kAdd) {
        const aclScalar alpha = One(b);
        OPENACL_OP_STEP(b, Add, x1, x2, &alpha, y);
    } else if constexpr (op == Binary::kSub) {
        const aclScalar alpha = One(b);
        OPENACL_OP_STEP(b, Sub, x1, x2, &alpha, y);
    } else if constexpr (op == Binary::kMul) {
        OPENACL_OP_STEP(b, Mul, x1, x2, y);
    } else if constexpr (op == Binary::kDiv) {
        // Div of integers truncates (C's division), of floating types divides.
        if (ops::IsFloating(b.out(0).dtype)) {
            OPENACL_OP_STEP(b, Div, x1, x2, y);
        } else {
            OPENACL_OP_STEP(b, DivMod, x1, x2, 1, y);
        }
    } else if constexpr (op == Binary::kRealDiv) {
        OPENACL_OP_STEP(b, Div, x1, x2, y);
    } else if constexpr (op == Binary::kFloorDiv) {
        OPENACL_OP_STEP(b, FloorDivide, x1, x2, y);
    } else if constexpr (op == Binary::kMaximum) {
        OPENACL_OP_STEP(b, Maximum, x1, x2, y);
    } else if constexpr (op == Binary::kMinimum) {
        OPENACL_OP_STEP(b, Minimum, x1, x2, y);
    } else if constexpr (op == Binary::kPow) {
        OPENACL_OP_STEP(b, PowTensorTensor, x1, x2, y);
    } else if constexpr (op == Binary::kEqual) {
        OPENACL_OP_STEP(b, EqTensor, x1, x2, y);
    } else if constexpr (op == Binary::kNotEqual) {
        OPENACL_OP_STEP(b, NeTensor, x1, x2, y);
    } else if constexpr (op == Binary::kGreater) {
        OPENACL_OP_STEP(b, GtTensor, x1, x2, y);
    } else if constexpr (op == Binary::kGreaterEqual) {
        OPENACL_OP_STEP(b, LeTensor, x2, x1, y);  // x1 >= x2 is x2 <= x1
    } else if constexpr (op == Binary::kLess) {
        OPENACL_OP_STEP(b, LtTensor, x1, x2, y);
    } else if constexpr (op == Binary::kLessEqual) {
        OPENACL_OP_STEP(b, LeTensor, x1, x2, y);
    } else if constexpr (op == Binary::kBitwiseAnd) {
        OPENACL_OP_STEP(b, BitwiseAndTensor, x1, x2, y);
    } else if constexpr (op == Binary::kSquaredDifference) {
        const aclScalar alpha = One(b);
        OPENACL_OP_STEP(b, Sub, x1, x2, &alpha, y);
        OPENACL_OP_STEP(b, InplaceMul, y, y);
    }
}

// A unary aclnn operator of the form aclnnXxx(self, out).
#define OPENACL_UNARY(Name)                          \
    [](Builder& b) {                                 \
        if (b.Shapes({b.in(0).dims})) return;        \
        OPENACL_OP_STEP(b, Name, b.In(0), b.Out(0)); \
    }

void Square(Builder& b) {
    if (b.Shapes({b.in(0).dims})) return;
    aclTensor* x = b.In(0);
    OPENACL_OP_STEP(b, Mul, x, x, b.Out(0));
}

void Rsqrt(Builder& b) {
    if (b.Shapes({b.in(0).dims})) return;
    aclTensor* y = b.Out(0);
    OPENACL_OP_STEP(b, Sqrt, b.In(0), y);
    OPENACL_OP_STEP(b, InplaceReciprocal, y);
}

void Identity(Builder& b) {
    if (b.Shapes({b.in(0).dims})) return;
    OPENACL_OP_STEP(b, InplaceCopy, b.Out(0), b.In(0));
}

void ZerosLike(Builder& b) {
    if (b.Shapes({b.in(0).dims})) return;
    OPENACL_OP_STEP(b, InplaceZero, b.Out(0));
}

void OnesLike(Builder& b) {
    if (b.Shapes({b.in(0).dims})) return;
    const aclScalar one = MakeScalar(1.0);
    OPENACL_OP_STEP(b, InplaceFillScalar, b.Out(0), &one);
}

void LeakyRelu(Builder& b) {
    const aclScalar slope = MakeScalar(b.AttrFloat("negative_slope", 0.0f));
    if (b.Shapes({b.in(0).dims})) return;
    OPENACL_OP_STEP(b, LeakyRelu, b.In(0), &slope, b.Out(0));
}

void Elu(Builder& b) {
    const aclScalar alpha = MakeScalar(b.AttrFloat("alpha", 1.0f));
    const aclScalar one = MakeScalar(1.0f);
    if (b.Shapes({b.in(0).dims})) return;
    OPENACL_OP_STEP(b, Elu, b.In(0), &alpha, &one, &one, b.Out(0));
}

void Softplus(Builder& b) {
    const aclScalar beta = MakeScalar(1.0f), threshold = MakeScalar(20.0f);
    if (b.Shapes({b.in(0).dims})) return;
    OPENACL_OP_STEP(b, Softplus, b.In(0), &beta, &threshold, b.Out(0));
}

// Cast: y = x converted to dst_type, which must be the output description's type.
void Cast(Builder& b) {
    const aclDataType to =
        b.desc().attr.Has("dst_type") ? b.AttrDataType("dst_type") : b.out(0).dtype;
    if (to != b.out(0).dtype) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "Cast: attribute dst_type is %s but the output is described as %s",
              ops::DtypeName(to), ops::DtypeName(b.out(0).dtype));
    }
    if (b.Shapes({b.in(0).dims})) return;
    OPENACL_OP_STEP(b, Cast, b.In(0), to, b.Out(0));
}

// Fill(dims, value): y of shape dims, every element value (a one-element tensor).
void Fill(Builder& b) {
    const Shape dims = b.Values(0, "dims");
    if (b.in(1).numel() != 1) {
        Throw(ACL_ERROR_INVALID_PARAM, "Fill: value is %s; it holds one element",
              SpecText(b.in(1)).c_str());
    }
    if (b.Shapes({dims})) return;
    aclTensor* value = b.InView(1, {}, {}, 0);
    OPENACL_OP_STEP(b, InplaceCopy, b.Out(0), value);
}

// BroadcastTo(x, shape): x repeated along the dimensions where it has 1 (or none).
void BroadcastTo(Builder& b) {
    const Shape shape = b.Values(1, "shape");
    const Shape y = BroadcastShapes(b.in(0).dims, shape, "BroadcastTo");
    if (y != shape) {
        Throw(ACL_ERROR_INVALID_PARAM, "BroadcastTo: x of shape %s does not broadcast to %s",
              ShapeString(b.in(0).dims).c_str(), ShapeString(shape).c_str());
    }
    if (b.Shapes({y})) return;
    OPENACL_OP_STEP(b, InplaceCopy, b.Out(0), b.In(0));
}

// ClipByValue(x, clip_value_min, clip_value_max).
void ClipByValue(Builder& b) {
    Shape y = BroadcastShapes(b.in(0).dims, b.in(1).dims, "ClipByValue");
    y = BroadcastShapes(y, b.in(2).dims, "ClipByValue");
    if (b.Shapes({y})) return;
    OPENACL_OP_STEP(b, ClampTensor, b.In(0), b.In(1), b.In(2), b.Out(0));
}

// Select(condition, x1, x2): x1 where condition, else x2. A 1-D condition over x's first
// dimension selects whole rows.
void Select(Builder& b) {
    const TensorSpec& cond = b.in(0);
    const Shape& x1 = b.in(1).dims;
    const bool rows = cond.dims.size() == 1 && x1.size() > 1 && cond.dims[0] == x1[0];
    Shape cond_shape = cond.dims;
    if (rows) cond_shape.resize(x1.size(), 1);
    Shape y = BroadcastShapes(cond_shape, x1, "Select");
    y = BroadcastShapes(y, b.in(2).dims, "Select");
    if (b.Shapes({y})) return;
    aclTensor* c = rows ? b.InView(0, cond_shape, RowMajor(cond_shape), 0) : b.In(0);
    OPENACL_OP_STEP(b, SWhere, c, b.In(1), b.In(2), b.Out(0));
}

// AddN(x0, x1, ...): their sum.
void AddN(Builder& b) {
    Shape y = b.in(0).dims;
    for (int i = 1; i < b.num_inputs(); ++i)
        y = BroadcastShapes(y, b.in(i).dims, "AddN");
    if (b.Shapes({y})) return;
    aclTensor* out = b.Out(0);
    if (b.num_inputs() == 1) {
        OPENACL_OP_STEP(b, InplaceCopy, out, b.In(0));
        return;
    }
    const aclScalar alpha = One(b);
    OPENACL_OP_STEP(b, Add, b.In(0), b.In(1), &alpha, out);
    for (int i = 2; i < b.num_inputs(); ++i)
        OPENACL_OP_STEP(b, InplaceAdd, out, b.In(i), &alpha);
}

}  // namespace

void AddElementwiseOps(std::vector<OpTypeInfo>* table) {
    const std::vector<OpTypeInfo> ops = {
        {"Add", 2, 2, 1, BinaryOp<Binary::kAdd>},
        {"AddV2", 2, 2, 1, BinaryOp<Binary::kAdd>},
        {"Sub", 2, 2, 1, BinaryOp<Binary::kSub>},
        {"Mul", 2, 2, 1, BinaryOp<Binary::kMul>},
        {"Div", 2, 2, 1, BinaryOp<Binary::kDiv>},
        {"RealDiv", 2, 2, 1, BinaryOp<Binary::kRealDiv>},
        {"FloorDiv", 2, 2, 1, BinaryOp<Binary::kFloorDiv>},
        {"Maximum", 2, 2, 1, BinaryOp<Binary::kMaximum>},
        {"Minimum", 2, 2, 1, BinaryOp<Binary::kMinimum>},
        {"Pow", 2, 2, 1, BinaryOp<Binary::kPow>},
        {"Equal", 2, 2, 1, BinaryOp<Binary::kEqual>},
        {"NotEqual", 2, 2, 1, BinaryOp<Binary::kNotEqual>},
        {"Greater", 2, 2, 1, BinaryOp<Binary::kGreater>},
        {"GreaterEqual", 2, 2, 1, BinaryOp<Binary::kGreaterEqual>},
        {"Less", 2, 2, 1, BinaryOp<Binary::kLess>},
        {"LessEqual", 2, 2, 1, BinaryOp<Binary::kLessEqual>},
        {"BitwiseAnd", 2, 2, 1, BinaryOp<Binary::kBitwiseAnd>},
        {"LogicalAnd", 2, 2, 1, BinaryOp<Binary::kBitwiseAnd>},
        {"SquaredDifference", 2, 2, 1, BinaryOp<Binary::kSquaredDifference>},
        {"Relu", 1, 1, 1, OPENACL_UNARY(Relu)},
        {"Sigmoid", 1, 1, 1, OPENACL_UNARY(Sigmoid)},
        {"Tanh", 1, 1, 1, OPENACL_UNARY(Tanh)},
        {"Exp", 1, 1, 1, OPENACL_UNARY(Exp)},
        {"Log", 1, 1, 1, OPENACL_UNARY(Log)},
        {"Sqrt", 1, 1, 1, OPENACL_UNARY(Sqrt)},
        {"Abs", 1, 1, 1, OPENACL_UNARY(Abs)},
        {"Neg", 1, 1, 1, OPENACL_UNARY(Neg)},
        {"Reciprocal", 1, 1, 1, OPENACL_UNARY(Reciprocal)},
        {"Inv", 1, 1, 1, OPENACL_UNARY(Reciprocal)},
        {"Floor", 1, 1, 1, OPENACL_UNARY(Floor)},
        {"Sin", 1, 1, 1, OPENACL_UNARY(Sin)},
        {"Cos", 1, 1, 1, OPENACL_UNARY(Cos)},
        {"Atan", 1, 1, 1, OPENACL_UNARY(Atan)},
        {"Sign", 1, 1, 1, OPENACL_UNARY(Sign)},
        {"LogicalNot", 1, 1, 1, OPENACL_UNARY(LogicalNot)},
        {"Invert", 1, 1, 1, OPENACL_UNARY(BitwiseNot)},
        {"Gelu", 1, 1, 1, OPENACL_UNARY(Gelu)},
        {"HardSwish", 1, 1, 1, OPENACL_UNARY(Hardswish)},
        {"Square", 1, 1, 1, Square},
        {"Rsqrt", 1, 1, 1, Rsqrt},
        {"Identity", 1, 1, 1, Identity},
        {"ZerosLike", 1, 1, 1, ZerosLike},
        {"OnesLike", 1, 1, 1, OnesLike},
        {"LeakyRelu", 1, 1, 1, LeakyRelu},
        {"Elu", 1, 1, 1, Elu},
        {"Softplus", 1, 1, 1, Softplus},
        {"Cast", 1, 1, 1, Cast},
        {"Fill", 2, 2, 1, Fill},
        {"BroadcastTo", 2, 2, 1, BroadcastTo},
        {"ClipByValue", 3, 3, 1, ClipByValue},
        {"Select", 3, 3, 1, Select},
        {"AddN", 1, -1, 1, AddN},
    };
    table->insert(table->end(), ops.begin(), ops.end());
}

}  // namespace openacl::op
