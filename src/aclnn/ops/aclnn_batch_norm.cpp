// aclnnop/aclnn_batch_norm.h: output = (input - mean) / sqrt(var + eps) * weight + bias per
// channel (dimension 1). Training: mean and the biased variance come from the batch (every
// dimension but the channel), saveMean/saveInvstd receive them, and the running statistics
// (when given) move by momentum towards them, the variance unbiased. Inference: the running
// statistics are used. The statistics are computed in double in the workspace.
#include "aclnnop/aclnn_batch_norm.h"

#include <cinttypes>
#include <cmath>
#include <memory>
#include <vector>

#include "aclnn/op_executor.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/batch_norm_channels.h"
#include "core/error.h"
#include "ops/dtype.h"
#include "ops/element.h"
#include "ops/reduce.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;
namespace ops = openacl::ops;

namespace {

struct NormSlots {
    int input = -1, weight = -1, bias = -1, running_mean = -1, running_var = -1;
    int output = -1, save_mean = -1, save_invstd = -1;
};

struct NormViews {
    TensorView input, weight, bias, running_mean, running_var, output, save_mean, save_invstd;
};

class BatchNormOperator final : public Operator {
 public:
    BatchNormOperator(NormViews views, NormSlots slots, bool training, double momentum, double eps)
        : v_(views), s_(slots), training_(training), momentum_(momentum), eps_(eps) {}

    int32_t Run(void* const* addresses, void* workspace, std::string*) const override {
        const ops::LoopShape& shape = v_.input.shape;
        const int64_t channels = shape.dims[1];
        const int64_t per_channel = channels == 0 ? 0 : v_.input.numel / channels;
        // Workspace: mean, variance, scale and shift per channel (double), then the input
        // minus the mean (training) or the 16-bit output's double copy.
        auto* mean = static_cast<double*>(workspace);
        double* var = mean + channels;
        double* scale = var + channels;
        double* shift = scale + channels;
        const ops::Operand x = OperandOf(v_.input, shape, addresses[s_.input]);
        if (training_) {
            ops::ReduceArgs reduce;
            reduce.op = ops::ReduceOp::kMean;
            reduce.shape = shape;
            reduce.reduce_mask = ~(1u << 1);
            reduce.in = x;
            reduce.out = ChannelOperand(mean, ACL_DOUBLE, shape);
            ops::RunReduce(reduce);
            // The biased variance: the mean of (x - mean)^2, through a copy of x - mean.
            ops::Operand centred = Contiguous(
                static_cast<char*>(workspace) + 4 * channels * int64_t{sizeof(double)}, shape);
            ops::BinaryArgs sub;
            sub.op = ops::BinaryOp::kSub;
            sub.shape = shape;
            sub.compute = ACL_DOUBLE;
            sub.a = x;
            sub.b = ChannelOperand(mean, ACL_DOUBLE, shape);
            sub.out = centred;
            ops::RunBinary(sub);
            ops::BinaryArgs square = sub;
            square.op = ops::BinaryOp::kMul;
            square.a = square.b = centred;
            ops::RunBinary(square);
            reduce.in = centred;
            reduce.out = ChannelOperand(var, ACL_DOUBLE, shape);
            ops::RunReduce(reduce);
        } else {
            ReadChannels(v_.running_mean, addresses[s_.running_mean], mean, channels);
            ReadChannels(v_.running_var, addresses[s_.running_var], var, channels);
        }
        std::vector<double> weight(static_cast<size_t>(channels), 1.0);
        std::vector<double> bias(static_cast<size_t>(channels), 0.0);
        if (s_.weight >= 0) ReadChannels(v_.weight, addresses[s_.weight], weight.data(), channels);
        if (s_.bias >= 0) ReadChannels(v_.bias, addresses[s_.bias], bias.data(), channels);
        for (int64_t c = 0; c < channels; ++c) {
            const double invstd = 1.0 / std::sqrt(var[c] + eps_);
            scale[c] = invstd * weight[static_cast<size_t>(c)];
            shift[c] = bias[static_cast<size_t>(c)] - mean[c] * scale[c];
        }
        // output = x * scale + shift, in double, rounded once.
        ops::BinaryArgs affine;
        affine.op = ops::BinaryOp::kMul;
        affine.shape = shape;
        affine.compute = ACL_DOUBLE;
        affine.a = x;
        affine.b = ChannelOperand(scale, ACL_DOUBLE, shape);
        affine.out = OperandOf(v_.output, shape, addresses[s_.output]);
        if (v_.output.dtype == ACL_DOUBLE || v_.output.dtype == ACL_FLOAT) {
            ops::RunBinary(affine);
            affine.op = ops::BinaryOp::kAdd;
            affine.a = affine.out;
            affine.b = ChannelOperand(shift, ACL_DOUBLE, shape);
            ops::RunBinary(affine);
        } else {  // 16-bit output: through a double buffer so the result rounds once
            ops::Operand wide = Contiguous(
                static_cast<char*>(workspace) + 4 * channels * int64_t{sizeof(double)}, shape);
            wide.dtype = ACL_DOUBLE;
            affine.out = wide;
            ops::RunBinary(affine);
            affine.op = ops::BinaryOp::kAdd;
            affine.a = wide;
            affine.b = ChannelOperand(shift, ACL_DOUBLE, shape);
            affine.out = OperandOf(v_.output, shape, addresses[s_.output]);
            ops::RunBinary(affine);
        }
        if (training_) {
            std::vector<double> invstd(static_cast<size_t>(channels));
            for (int64_t c = 0; c < channels; ++c) {
                invstd[static_cast<size_t>(c)] = 1.0 / std::sqrt(var[c] + eps_);
            }
            if (s_.save_mean >= 0)
                WriteChannels(v_.save_mean, addresses[s_.save_mean], mean, channels);
            if (s_.save_invstd >= 0) {
                WriteChannels(v_.save_invstd, addresses[s_.save_invstd], invstd.data(), channels);
            }
            const double correction =
                per_channel > 1 ? static_cast<double>(per_channel) / (per_channel - 1) : 1.0;
            UpdateRunning(v_.running_mean, s_.running_mean, addresses, mean, 1.0, channels);
            UpdateRunning(v_.running_var, s_.running_var, addresses, var, correction, channels);
        }
        return 0;
    }

 private:
    // A per-channel array as an operand over the input's shape (stride 0 but along dimension 1).
    static ops::Operand ChannelOperand(double* data, aclDataType dtype,
                                       const ops::LoopShape& shape) {
        ops::Operand operand;
        operand.dtype = dtype;
        operand.data = reinterpret_cast<char*>(data);
        for (int d = 0; d < shape.rank; ++d)
            operand.strides[d] = d == 1 ? 1 : 0;
        return operand;
    }

    static ops::Operand Contiguous(char* data, const ops::LoopShape& shape) {
        ops::Operand operand;
        operand.dtype = ACL_DOUBLE;
        operand.data = data;
        int64_t step = 1;
        for (int d = shape.rank - 1; d >= 0; --d) {
            operand.strides[d] = step;
            step *= shape.dims[d];
        }
        return operand;
    }

    void UpdateRunning(const TensorView& view, int slot, void* const* addresses,
                       const double* batch, double correction, int64_t n) const {
        if (slot < 0) return;
        std::vector<double> running(static_cast<size_t>(n));
        ReadChannels(view, addresses[slot], running.data(), n);
        for (int64_t c = 0; c < n; ++c) {
            double& r = running[static_cast<size_t>(c)];
            r = (1.0 - momentum_) * r + momentum_ * batch[c] * correction;
        }
        WriteChannels(view, addresses[slot], running.data(), n);
    }

    NormViews v_;
    NormSlots s_;
    bool training_;
    double momentum_, eps_;
};

}  // namespace

aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                           const aclTensor* bias, aclTensor* runningMean,
                                           aclTensor* runningVar, bool training, double momentum,
                                           double eps, aclTensor* output, aclTensor* saveMean,
                                           aclTensor* saveInvstd, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(input, "input"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(output, "output"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    NormViews v;
    if (aclnnStatus rc = ViewOf(input, "input", &v.input); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(output, "output", &v.output); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(v.input, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}); rc != 0)
        return rc;
    if (v.output.dtype != v.input.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "output is %s but input is %s",
                    ops::DtypeName(v.output.dtype), ops::DtypeName(v.input.dtype));
    }
    if (v.input.shape.rank < 2) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "input has %d dimensions: it takes [N, C, ...] (2 to 8 dimensions)",
                    v.input.shape.rank);
    }
    if (aclnnStatus rc = CheckShape(v.output, v.input.shape); rc != 0) return rc;
    if (!training && (runningMean == nullptr || runningVar == nullptr)) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR,
                    "%s is null: inference normalises with the running statistics",
                    runningMean == nullptr ? "runningMean" : "runningVar");
    }
    if (!(eps >= 0) || !(momentum >= 0 && momentum <= 1)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "eps %g must be 0 or more and momentum %g in [0, 1]",
                    eps, momentum);
    }
    const int64_t channels = v.input.shape.dims[1];
    const struct {
        const aclTensor* tensor;
        const char* name;
        TensorView* view;
    } optional[] = {{weight, "weight", &v.weight},
                    {bias, "bias", &v.bias},
                    {runningMean, "runningMean", &v.running_mean},
                    {runningVar, "runningVar", &v.running_var},
                    {saveMean, "saveMean", &v.save_mean},
                    {saveInvstd, "saveInvstd", &v.save_invstd}};
    for (const auto& o : optional) {
        if (o.tensor == nullptr) continue;
        if (aclnnStatus rc = ChannelView(o.tensor, o.name, channels, o.view); rc != 0) return rc;
    }
    ExecutorBuilder builder("aclnnBatchNorm");
    NormSlots s;
    s.input = builder.Input(v.input, input);
    if (weight != nullptr) s.weight = builder.Input(v.weight, weight);
    if (bias != nullptr) s.bias = builder.Input(v.bias, bias);
    if (runningMean != nullptr) s.running_mean = builder.Input(v.running_mean, runningMean);
    if (runningVar != nullptr) s.running_var = builder.Input(v.running_var, runningVar);
    s.output = builder.Output(v.output, output);
    if (saveMean != nullptr) s.save_mean = builder.Output(v.save_mean, saveMean);
    if (saveInvstd != nullptr) s.save_invstd = builder.Output(v.save_invstd, saveInvstd);
    const uint64_t workspace = static_cast<uint64_t>(4 * channels + v.input.numel) * sizeof(double);
    return builder.Finish(std::make_unique<BatchNormOperator>(v, s, training, momentum, eps),
                          workspace, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(BatchNorm)
