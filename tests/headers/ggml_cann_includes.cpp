// The include set of llama.cpp's CANN backend (ggml-cann): <acl/acl.h>, <aclnn/aclnn_base.h> and
// the 85 operator headers it includes unconditionally, in one translation unit, plus the
// declaration of aclnnRotaryPositionEmbedding that ggml-cann writes itself. A missing header, a
// guard clash between two headers or a declaration that disagrees with another fails this build.
// Compiled only (headers_cxx17), never linked: nothing here calls into the library.
#include <acl/acl.h>
#include <aclnn/aclnn_base.h>

#include <aclnnop/aclnn_abs.h>
#include <aclnnop/aclnn_add.h>
#include <aclnnop/aclnn_add_rms_norm.h>
#include <aclnnop/aclnn_addcdiv.h>
#include <aclnnop/aclnn_arange.h>
#include <aclnnop/aclnn_argmax.h>
#include <aclnnop/aclnn_argsort.h>
#include <aclnnop/aclnn_avgpool2d.h>
#include <aclnnop/aclnn_batch_matmul.h>
#include <aclnnop/aclnn_cast.h>
#include <aclnnop/aclnn_cat.h>
#include <aclnnop/aclnn_clamp.h>
#include <aclnnop/aclnn_constant_pad_nd.h>
#include <aclnnop/aclnn_convolution.h>
#include <aclnnop/aclnn_copy.h>
#include <aclnnop/aclnn_cos.h>
#include <aclnnop/aclnn_cumsum.h>
#include <aclnnop/aclnn_div.h>
#include <aclnnop/aclnn_elu.h>
#include <aclnnop/aclnn_embedding.h>
#include <aclnnop/aclnn_eq_tensor.h>
#include <aclnnop/aclnn_exp.h>
#include <aclnnop/aclnn_fill_scalar.h>
#include <aclnnop/aclnn_fused_infer_attention_score_v2.h>
#include <aclnnop/aclnn_gather_v2.h>
#include <aclnnop/aclnn_geglu.h>
#include <aclnnop/aclnn_gelu.h>
#include <aclnnop/aclnn_gelu_v2.h>
#include <aclnnop/aclnn_ger.h>
#include <aclnnop/aclnn_group_norm.h>
#include <aclnnop/aclnn_grouped_matmul_v3.h>
#include <aclnnop/aclnn_gt_scalar.h>
#include <aclnnop/aclnn_hardsigmoid.h>
#include <aclnnop/aclnn_hardswish.h>
#include <aclnnop/aclnn_im2col.h>
#include <aclnnop/aclnn_index_copy.h>
#include <aclnnop/aclnn_index_fill_tensor.h>
#include <aclnnop/aclnn_index_select.h>
#include <aclnnop/aclnn_layer_norm.h>
#include <aclnnop/aclnn_leaky_relu.h>
#include <aclnnop/aclnn_log.h>
#include <aclnnop/aclnn_logical_not.h>
#include <aclnnop/aclnn_logsoftmax.h>
#include <aclnnop/aclnn_masked_fill_scalar.h>
#include <aclnnop/aclnn_matmul.h>
#include <aclnnop/aclnn_max_pool.h>
#include <aclnnop/aclnn_mean.h>
#include <aclnnop/aclnn_mm.h>
#include <aclnnop/aclnn_mul.h>
#include <aclnnop/aclnn_mv.h>
#include <aclnnop/aclnn_neg.h>
#include <aclnnop/aclnn_norm.h>
#include <aclnnop/aclnn_permute.h>
#include <aclnnop/aclnn_pow.h>
#include <aclnnop/aclnn_pow_tensor_tensor.h>
#include <aclnnop/aclnn_recurrent_gated_delta_rule.h>
#include <aclnnop/aclnn_reduce_sum.h>
#include <aclnnop/aclnn_reflection_pad1d.h>
#include <aclnnop/aclnn_relu.h>
#include <aclnnop/aclnn_repeat.h>
#include <aclnnop/aclnn_repeat_interleave.h>
#include <aclnnop/aclnn_rms_norm.h>
#include <aclnnop/aclnn_roll.h>
#include <aclnnop/aclnn_scatter.h>
#include <aclnnop/aclnn_sigmoid.h>
#include <aclnnop/aclnn_sign.h>
#include <aclnnop/aclnn_silu.h>
#include <aclnnop/aclnn_sin.h>
#include <aclnnop/aclnn_slice.h>
#include <aclnnop/aclnn_softmax.h>
#include <aclnnop/aclnn_softmax_cross_entropy_with_logits.h>
#include <aclnnop/aclnn_softplus.h>
#include <aclnnop/aclnn_sqrt.h>
#include <aclnnop/aclnn_sub.h>
#include <aclnnop/aclnn_sum.h>
#include <aclnnop/aclnn_swi_glu.h>
#include <aclnnop/aclnn_tanh.h>
#include <aclnnop/aclnn_threshold.h>
#include <aclnnop/aclnn_trans_matmul_weight.h>
#include <aclnnop/aclnn_triangular_solve.h>
#include <aclnnop/aclnn_tril.h>
#include <aclnnop/aclnn_triu.h>
#include <aclnnop/aclnn_upsample_nearest_2d.h>
#include <aclnnop/aclnn_weight_quant_batch_matmul_v2.h>
#include <aclnnop/aclnn_zero.h>

// ggml-cann's own prototype (it has no header for this operator); it must agree with
// aclnnop/aclnn_rotary_position_embedding.h, included below.
#ifdef __cplusplus
extern "C" {
#endif
aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor* x, const aclTensor* cos,
                                                         const aclTensor* sin, int64_t mode,
                                                         aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
aclnnStatus aclnnRotaryPositionEmbedding(void* workspace, uint64_t workspaceSize,
                                         aclOpExecutor* executor, aclrtStream stream);
#ifdef __cplusplus
}
#endif

#include <aclnnop/aclnn_rotary_position_embedding.h>

#include <type_traits>

// Every entry point ggml-cann calls is declared (decltype names them without using them).
#define GGML_CANN_USES(op)                                                          \
    static_assert(std::is_function<decltype(aclnn##op##GetWorkspaceSize)>::value && \
                      std::is_function<decltype(aclnn##op)>::value,                 \
                  "aclnn" #op " is declared");

GGML_CANN_USES(Abs)
GGML_CANN_USES(Add)
GGML_CANN_USES(AddRmsNorm)
GGML_CANN_USES(Arange)
GGML_CANN_USES(ArgMax)
GGML_CANN_USES(Argsort)
GGML_CANN_USES(AvgPool2d)
GGML_CANN_USES(BatchMatMul)
GGML_CANN_USES(Cast)
GGML_CANN_USES(Cat)
GGML_CANN_USES(Clamp)
GGML_CANN_USES(ClampMin)
GGML_CANN_USES(ConstantPadNd)
GGML_CANN_USES(Convolution)
GGML_CANN_USES(Cos)
GGML_CANN_USES(Cumsum)
GGML_CANN_USES(Div)
GGML_CANN_USES(Elu)
GGML_CANN_USES(EqTensor)
GGML_CANN_USES(Exp)
GGML_CANN_USES(FusedInferAttentionScoreV2)
GGML_CANN_USES(GatherV2)
GGML_CANN_USES(GeGluV3)
GGML_CANN_USES(Gelu)
GGML_CANN_USES(GeluV2)
GGML_CANN_USES(GroupNorm)
GGML_CANN_USES(GtScalar)
GGML_CANN_USES(Hardsigmoid)
GGML_CANN_USES(Hardswish)
GGML_CANN_USES(Im2col)
GGML_CANN_USES(IndexSelect)
GGML_CANN_USES(InplaceAdd)
GGML_CANN_USES(InplaceAdds)
GGML_CANN_USES(InplaceClampMax)
GGML_CANN_USES(InplaceCopy)
GGML_CANN_USES(InplaceCos)
GGML_CANN_USES(InplaceDiv)
GGML_CANN_USES(InplaceDivs)
GGML_CANN_USES(InplaceExp)
GGML_CANN_USES(InplaceFillScalar)
GGML_CANN_USES(InplaceIndexCopy)
GGML_CANN_USES(InplaceIndexFillTensor)
GGML_CANN_USES(InplaceMul)
GGML_CANN_USES(InplaceMuls)
GGML_CANN_USES(InplacePowTensorTensor)
GGML_CANN_USES(InplaceSin)
GGML_CANN_USES(InplaceSub)
GGML_CANN_USES(InplaceSubs)
GGML_CANN_USES(InplaceThreshold)
GGML_CANN_USES(InplaceTriu)
GGML_CANN_USES(InplaceZero)
GGML_CANN_USES(LayerNorm)
GGML_CANN_USES(LeakyRelu)
GGML_CANN_USES(Log)
GGML_CANN_USES(Matmul)
GGML_CANN_USES(MaxPool)
GGML_CANN_USES(Mean)
GGML_CANN_USES(Mm)
GGML_CANN_USES(Mul)
GGML_CANN_USES(Muls)
GGML_CANN_USES(Mv)
GGML_CANN_USES(Neg)
GGML_CANN_USES(Norm)
GGML_CANN_USES(Permute)
GGML_CANN_USES(PowScalarTensor)
GGML_CANN_USES(ReduceSum)
GGML_CANN_USES(ReflectionPad1d)
GGML_CANN_USES(Relu)
GGML_CANN_USES(Repeat)
GGML_CANN_USES(RepeatInterleaveIntWithDim)
GGML_CANN_USES(RmsNorm)
GGML_CANN_USES(Roll)
GGML_CANN_USES(RotaryPositionEmbedding)
GGML_CANN_USES(Sigmoid)
GGML_CANN_USES(Sign)
GGML_CANN_USES(Silu)
GGML_CANN_USES(Sin)
GGML_CANN_USES(Slice)
GGML_CANN_USES(Softmax)
GGML_CANN_USES(SoftmaxCrossEntropyWithLogits)
GGML_CANN_USES(Softplus)
GGML_CANN_USES(Sqrt)
GGML_CANN_USES(Sub)
GGML_CANN_USES(SwiGlu)
GGML_CANN_USES(Tanh)
GGML_CANN_USES(TransMatmulWeight)
GGML_CANN_USES(TriangularSolve)
GGML_CANN_USES(Tril)
GGML_CANN_USES(Triu)
GGML_CANN_USES(UpsampleNearest2d)
GGML_CANN_USES(WeightQuantBatchMatmulV2)

// The one-phase helper it calls to size FRACTAL_NZ weights.
static_assert(std::is_same<decltype(aclnnCalculateMatmulWeightSizeV2),
                           aclnnStatus(const aclIntArray*, aclDataType, uint64_t*)>::value,
              "aclnnCalculateMatmulWeightSizeV2(tensorShape, dataType, weightTensorSize)");

int ggml_cann_includes_compile() {
    return 1;
}
