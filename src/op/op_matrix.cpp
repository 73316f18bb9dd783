// Matrix products and convolution: MatMul / MatMulV2 (transpose_x1, transpose_x2, optional
// bias), BatchMatMul / BatchMatMulV2 (adj_x1, adj_x2: batch dimensions broadcast), GEMM (the
// operator behind acl_cblas.h: y = alpha * op(a) * op(b) + beta * c with alpha and beta read
// from device memory when it runs) and Conv2D (NCHW or NHWC data, NCHW, NHWC or HWCN filters,
// strides, pads, dilations, groups). A transposed operand is a transposed view, never a copy.
#include <algorithm>
#include <array>
#include <string>
#include <tuple>

#include "aclnn/op_checks.h"
#include "aclnn/op_executor.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "op/op_registry.h"
#include "ops/dtype.h"
#include "ops/gemm.h"

namespace openacl::op {
namespace {

// Input i (of rank >= 2) viewed with its last two dimensions swapped when `transpose`.
aclTensor* MatrixView(Builder& b, int i, bool transpose) {
    if (!transpose) return b.In(i);
    Shape shape = b.in(i).dims;
    Shape strides = RowMajor(shape);
    const size_t r = shape.size();
    std::swap(shape[r - 1], shape[r - 2]);
    std::swap(strides[r - 1], strides[r - 2]);
    return b.InView(i, shape, strides, 0);
}

// The optional bias of MatMul and BatchMatMul (input 2) added to y; offset_w (input 3), a
// quantisation input, is refused.
void AddBias(Builder& b, aclTensor* y) {
    if (b.has_input(3)) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s: offset_w (quantised weights) is not supported by "
              "openacl; leave the input absent",
              b.type());
    }
    if (!b.has_input(2)) return;
    const aclScalar one = ops::IsFloating(b.out(0).dtype) ? MakeScalar(1.0f) : MakeIntScalar(1);
    OPENACL_OP_STEP(b, InplaceAdd, y, b.In(2), &one);
}

void MatMul(Builder& b) {
    const bool t1 = b.AttrBool("transpose_x1", false), t2 = b.AttrBool("transpose_x2", false);
    const Shape& x1 = b.in(0).dims;
    const Shape& x2 = b.in(1).dims;
    if (x1.size() != 2 || x2.size() != 2) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s multiplies matrices: x1 %s and x2 %s are not 2-D "
              "(BatchMatMul takes batches)",
              b.type(), ShapeString(x1).c_str(), ShapeString(x2).c_str());
    }
    const int64_t m = t1 ? x1[1] : x1[0], k = t1 ? x1[0] : x1[1];
    const int64_t k2 = t2 ? x2[1] : x2[0], n = t2 ? x2[0] : x2[1];
    if (k != k2) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "%s: x1 %s%s and x2 %s%s do not chain (%lld columns against %lld rows)", b.type(),
              ShapeString(x1).c_str(), t1 ? " transposed" : "", ShapeString(x2).c_str(),
              t2 ? " transposed" : "", static_cast<long long>(k), static_cast<long long>(k2));
    }
    if (b.Shapes({{m, n}})) return;
    aclTensor* y = b.Out(0);
    OPENACL_OP_STEP(b, Mm, MatrixView(b, 0, t1), MatrixView(b, 1, t2), y, 1);
    AddBias(b, y);
}

void BatchMatMul(Builder& b) {
    const bool t1 = b.AttrBool("adj_x1", false), t2 = b.AttrBool("adj_x2", false);
    const Shape& x1 = b.in(0).dims;
    const Shape& x2 = b.in(1).dims;
    if (x1.size() < 2 || x2.size() < 2) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s: x1 %s and x2 %s need at least 2 dimensions", b.type(),
              ShapeString(x1).c_str(), ShapeString(x2).c_str());
    }
    const size_t r1 = x1.size(), r2 = x2.size();
    const int64_t m = t1 ? x1[r1 - 1] : x1[r1 - 2], k = t1 ? x1[r1 - 2] : x1[r1 - 1];
    const int64_t k2 = t2 ? x2[r2 - 1] : x2[r2 - 2], n = t2 ? x2[r2 - 2] : x2[r2 - 1];
    if (k != k2) {
        Throw(ACL_ERROR_INVALID_PARAM, "%s: x1 %s and x2 %s do not chain (%lld against %lld)",
              b.type(), ShapeString(x1).c_str(), ShapeString(x2).c_str(), static_cast<long long>(k),
              static_cast<long long>(k2));
    }
    Shape y = BroadcastShapes(Shape(x1.begin(), x1.end() - 2), Shape(x2.begin(), x2.end() - 2),
                              "BatchMatMul's batch dimensions");
    y.push_back(m);
    y.push_back(n);
    if (b.Shapes({y})) return;
    aclTensor* out = b.Out(0);
    OPENACL_OP_STEP(b, Matmul, MatrixView(b, 0, t1), MatrixView(b, 1, t2), out, 1);
    AddBias(b, out);
}

// ---- GEMM ----

class GemmOperator final : public aclnn::Operator {
 public:
    explicit GemmOperator(const ops::GemmArgs& args) : args_(args) {}
    int32_t Run(void* const* addresses, void*, std::string* error) const override {
        ops::GemmArgs args = args_;
        args.a = addresses[0];
        args.b = addresses[1];
        args.alpha.at_run = addresses[2];
        args.beta.at_run = addresses[3];
        args.c = addresses[4];
        return ops::RunGemm(args, error) ? 0 : ACL_ERROR_FAILURE;
    }

 private:
    ops::GemmArgs args_;
};

constexpr const char* kGemmApi = "aclopGEMM";

aclnnStatus LaunchGemm(void* workspace, uint64_t size, aclOpExecutor* executor,
                       aclrtStream stream) {
    return aclnn::Launch(kGemmApi, workspace, size, executor, stream);
}

aclnnStatus PlanGemm(const ops::GemmArgs& args, aclTensor* a, aclTensor* b, aclTensor* alpha,
                     aclTensor* beta, aclTensor* y, uint64_t* workspace, aclOpExecutor** executor) {
    aclnn::TensorView va, vb, valpha, vbeta, vy;
    for (auto [tensor, name, view] :
         {std::tuple{a, "a", &va}, std::tuple{b, "b", &vb}, std::tuple{alpha, "alpha", &valpha},
          std::tuple{beta, "beta", &vbeta}, std::tuple{y, "y", &vy}}) {
        if (aclnnStatus rc = aclnn::ViewOf(tensor, name, view); rc != 0) return rc;
    }
    aclnn::ExecutorBuilder builder(kGemmApi);
    builder.Input(va, a);
    builder.Input(vb, b);
    builder.Input(valpha, alpha);
    builder.Input(vbeta, beta);
    builder.Output(vy, y);
    return builder.Finish(std::make_unique<GemmOperator>(args), 0, workspace, executor);
}

void Gemm(Builder& b) {
    const bool ta = b.AttrBool("transpose_a", false), tb = b.AttrBool("transpose_b", false);
    const TensorSpec &a = b.in(0), &bm = b.in(1), &c = b.in(2);
    if (a.dims.size() != 2 || bm.dims.size() != 2 || c.dims.size() != 2) {
        Throw(ACL_ERROR_INVALID_PARAM, "GEMM: a %s, b %s and c %s must be matrices",
              ShapeString(a.dims).c_str(), ShapeString(bm.dims).c_str(),
              ShapeString(c.dims).c_str());
    }
    const int64_t m = ta ? a.dims[1] : a.dims[0], k = ta ? a.dims[0] : a.dims[1];
    const int64_t k2 = tb ? bm.dims[1] : bm.dims[0], n = tb ? bm.dims[0] : bm.dims[1];
    if (k != k2 || c.dims != Shape{m, n}) {
        Throw(ACL_ERROR_INVALID_PARAM, "GEMM: a %s%s, b %s%s and c %s do not chain",
              ShapeString(a.dims).c_str(), ta ? " transposed" : "", ShapeString(bm.dims).c_str(),
              tb ? " transposed" : "", ShapeString(c.dims).c_str());
    }
    if (a.dtype != bm.dtype || !ops::SupportedTypes(a.dtype, c.dtype) ||
        b.out(0).dtype != c.dtype) {
        Throw(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
              "GEMM: a, b and c are %s, %s and %s (y %s): the supported combinations are "
              "float16 with a float16 or float result, and int8 with a float or int32 result",
              SpecText(a).c_str(), SpecText(bm).c_str(), SpecText(c).c_str(),
              SpecText(b.out(0)).c_str());
    }
    for (int i : {3, 4}) {
        if (b.in(i).numel() != 1 || b.in(i).dtype != c.dtype) {
            Throw(ACL_ERROR_INVALID_PARAM, "GEMM: %s is %s: it is one value of c's type",
                  i == 3 ? "alpha" : "beta", SpecText(b.in(i)).c_str());
        }
    }
    if (b.Shapes({c.dims})) return;
    ops::GemmArgs args;
    args.m = m, args.n = n, args.k = k;
    args.trans_a = ta, args.trans_b = tb;
    args.lda = a.dims[1], args.ldb = bm.dims[1], args.ldc = n;
    args.type_ab = a.dtype, args.type_c = c.dtype;
    aclTensor* y = b.Out(0);
    // y starts as c (the same memory when the caller passes c as the output, as cblas does).
    OPENACL_OP_STEP(b, InplaceCopy, y, b.In(2));
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus rc = PlanGemm(args, b.In(0), b.In(1), b.InView(3, {}, {}, 0),
                                    b.InView(4, {}, {}, 0), y, &workspace, &executor);
    b.Step(rc, workspace, executor, LaunchGemm);
}

// ---- Conv2D ----

// A 4-D tensor of layout `format` (NCHW, NHWC or HWCN, for a filter "N" is the output channel
// and "C" the input channel) as an NCHW view: shape and strides.
void AsNchw(const Shape& dims, aclFormat format, Shape* shape, Shape* strides) {
    const Shape s = RowMajor(dims);
    switch (format) {
        case ACL_FORMAT_NHWC:  // [N, H, W, C]
            *shape = {dims[0], dims[3], dims[1], dims[2]};
            *strides = {s[0], s[3], s[1], s[2]};
            break;
        case ACL_FORMAT_HWCN:  // [H, W, C, N]
            *shape = {dims[3], dims[2], dims[0], dims[1]};
            *strides = {s[3], s[2], s[0], s[1]};
            break;
        default:
            *shape = dims;
            *strides = s;
            break;
    }
}

// The two spatial entries (H, W) of a 4-entry attribute in data_format order.
std::array<int64_t, 2> Spatial(const Builder& b, const char* name, const Shape& values,
                               aclFormat format) {
    if (values.size() != 4) {
        Throw(ACL_ERROR_INVALID_PARAM, "Conv2D: %s %s has %zu entries, not 4", name,
              ShapeString(values).c_str(), values.size());
    }
    (void)b;
    return format == ACL_FORMAT_NHWC ? std::array<int64_t, 2>{values[1], values[2]}
                                     : std::array<int64_t, 2>{values[2], values[3]};
}

void Conv2D(Builder& b) {
    const TensorSpec& x = b.in(0);
    const TensorSpec& filter = b.in(1);
    if (b.has_input(3)) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "Conv2D: offset_w (quantised weights) is not supported by openacl");
    }
    std::string layout = b.AttrString("data_format", "");
    if (layout.empty()) layout = x.format == ACL_FORMAT_NCHW ? "NCHW" : "NHWC";  // IR: NHWC
    if (layout != "NCHW" && layout != "NHWC") {
        Throw(ACL_ERROR_INVALID_PARAM, "Conv2D: data_format \"%s\" is neither NCHW nor NHWC",
              layout.c_str());
    }
    const aclFormat format = layout == "NCHW" ? ACL_FORMAT_NCHW : ACL_FORMAT_NHWC;
    if (x.dims.size() != 4 || filter.dims.size() != 4) {
        Throw(ACL_ERROR_INVALID_PARAM, "Conv2D: x %s and filter %s are 4-D",
              ShapeString(x.dims).c_str(), ShapeString(filter.dims).c_str());
    }
    const auto stride = Spatial(b, "strides", b.RequireInts("strides"), format);
    const auto dilation = Spatial(b, "dilations", b.AttrInts("dilations", {1, 1, 1, 1}), format);
    const Shape pads = b.RequireInts("pads");
    if (pads.size() != 4) {
        Throw(ACL_ERROR_INVALID_PARAM, "Conv2D: pads %s is [top, bottom, left, right]",
              ShapeString(pads).c_str());
    }
    const int64_t groups = b.AttrInt("groups", 1);
    Shape xs, xstrides, ws, wstrides;
    AsNchw(x.dims, format, &xs, &xstrides);
    const aclFormat filter_format = filter.format == ACL_FORMAT_NHWC ||
                                            filter.format == ACL_FORMAT_HWCN ||
                                            filter.format == ACL_FORMAT_NCHW
                                        ? filter.format
                                        : format;
    AsNchw(filter.dims, filter_format, &ws, &wstrides);
    if (groups <= 0 || xs[1] != ws[1] * groups || ws[0] % groups != 0) {
        Throw(ACL_ERROR_INVALID_PARAM,
              "Conv2D: x has %lld channels, the filter %lld input channels per group and %lld "
              "outputs, groups %lld: they do not fit",
              static_cast<long long>(xs[1]), static_cast<long long>(ws[1]),
              static_cast<long long>(ws[0]), static_cast<long long>(groups));
    }
    int64_t out_hw[2];
    for (int d = 0; d < 2; ++d) {
        const int64_t in = xs[static_cast<size_t>(2 + d)];
        const int64_t kernel = ws[static_cast<size_t>(2 + d)];
        const int64_t span = dilation[static_cast<size_t>(d)] * (kernel - 1) + 1;
        const int64_t padded =
            in + pads[static_cast<size_t>(2 * d)] + pads[static_cast<size_t>(2 * d + 1)];
        if (stride[static_cast<size_t>(d)] <= 0 || dilation[static_cast<size_t>(d)] <= 0 ||
            padded < span) {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "Conv2D: a window of %lld (kernel %lld, dilation %lld) does not fit %lld padded "
                  "elements with stride %lld",
                  static_cast<long long>(span), static_cast<long long>(kernel),
                  static_cast<long long>(dilation[static_cast<size_t>(d)]),
                  static_cast<long long>(padded),
                  static_cast<long long>(stride[static_cast<size_t>(d)]));
        }
        out_hw[d] = (padded - span) / stride[static_cast<size_t>(d)] + 1;
    }
    const Shape y_nchw = {xs[0], ws[0], out_hw[0], out_hw[1]};
    const Shape y = format == ACL_FORMAT_NCHW ? y_nchw : Shape{xs[0], out_hw[0], out_hw[1], ws[0]};
    if (b.Shapes({y})) return;
    Shape ys, ystrides;
    AsNchw(y, format, &ys, &ystrides);
    aclTensor* input = b.InView(0, xs, xstrides, 0, ACL_FORMAT_NCHW);
    aclTensor* weight = b.InView(1, ws, wstrides, 0, ACL_FORMAT_NCHW);
    aclTensor* bias = b.has_input(2) ? b.In(2) : nullptr;
    aclTensor* output = b.OutView(0, ys, ystrides, 0, ACL_FORMAT_NCHW);
    const aclIntArray strides = MakeIntArray({stride[0], stride[1]});
    const aclIntArray padding = MakeIntArray(pads);
    const aclIntArray dilations = MakeIntArray({dilation[0], dilation[1]});
    const aclIntArray output_padding = MakeIntArray({0, 0});
    OPENACL_OP_STEP(b, Convolution, input, weight, bias, &strides, &padding, &dilations, false,
                    &output_padding, groups, output, 1);
}

}  // namespace

void AddMatrixOps(std::vector<OpTypeInfo>* table) {
    const std::vector<OpTypeInfo> ops = {
        {"MatMul", 2, 3, 1, MatMul},
        {"MatMulV2", 2, 4, 1, MatMul},
        {"BatchMatMul", 2, 3, 1, BatchMatMul},
        {"BatchMatMulV2", 2, 4, 1, BatchMatMul},
        {"GEMM", 5, 5, 1, Gemm},
        {"Conv2D", 2, 4, 1, Conv2D},
    };
    table->insert(table->end(), ops.begin(), ops.end());
}

}  // namespace openacl::op
