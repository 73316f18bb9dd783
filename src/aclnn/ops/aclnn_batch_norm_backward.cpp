// aclnnop/aclnn_batch_norm_backward.h: the gradients of aclnnBatchNorm (channel = dimension 1)
// with respect to its input, weight and bias, for the outputs outputMask asks for. With xhat
// the normalised input, (x - mean) * invstd, M the elements per channel and sums per channel:
//   gradBias[c]   = sum(gradOut)
//   gradWeight[c] = sum(gradOut * xhat)
//   training:  gradInput = weight * invstd * (gradOut - gradBias / M - xhat * gradWeight / M),
//              mean and invstd from saveMean / saveInvstd (what the forward pass saved);
//   inference: gradInput = gradOut * weight * invstd, with runningMean and
//              invstd = 1 / sqrt(runningVar + eps).
// A missing weight is 1. Sums in double, each result rounded once to its tensor's type.
#include "aclnnop/aclnn_batch_norm_backward.h"

#include <algorithm>
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

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;
namespace ops = openacl::ops;

namespace {

struct Views {
    TensorView grad_out, input, weight, mean, var, grad_input, grad_weight, grad_bias;
};

struct Slots {
    int grad_out = -1, input = -1, weight = -1, mean = -1, var = -1;
    int grad_input = -1, grad_weight = -1, grad_bias = -1;
};

class BatchNormBackwardOperator final : public Operator {
 public:
    BatchNormBackwardOperator(Views views, Slots slots, bool training, double eps)
        : v_(views), s_(slots), training_(training), eps_(eps) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        const ops::LoopShape& shape = v_.input.shape;
        const int64_t channels = shape.dims[1];
        if (channels == 0) return 0;
        const int64_t per_channel = v_.input.numel / channels;
        std::vector<double> mean(static_cast<size_t>(channels)),
            invstd(static_cast<size_t>(channels)), weight(static_cast<size_t>(channels), 1.0);
        ReadChannels(v_.mean, addresses[s_.mean], mean.data(), channels);
        ReadChannels(v_.var, addresses[s_.var], invstd.data(), channels);
        if (!training_) {  // the running variance: invstd from it
            for (double& value : invstd)
                value = 1.0 / std::sqrt(value + eps_);
        }
        if (s_.weight >= 0) ReadChannels(v_.weight, addresses[s_.weight], weight.data(), channels);
        std::vector<double> sum_dy(static_cast<size_t>(channels), 0.0),
            sum_dy_xhat(static_cast<size_t>(channels), 0.0);
        ForEachRow(
            addresses, false,
            [&](const int64_t* channel, const double* dy, const double* x, int64_t width, double*) {
                for (int64_t k = 0; k < width; ++k) {
                    const auto c = static_cast<size_t>(channel[k]);
                    sum_dy[c] += dy[k];
                    sum_dy_xhat[c] += dy[k] * (x[k] - mean[c]) * invstd[c];
                }
            });
        if (s_.grad_bias >= 0) {
            WriteChannels(v_.grad_bias, addresses[s_.grad_bias], sum_dy.data(), channels);
        }
        if (s_.grad_weight >= 0) {
            WriteChannels(v_.grad_weight, addresses[s_.grad_weight], sum_dy_xhat.data(), channels);
        }
        if (s_.grad_input < 0) return 0;
        const double m = static_cast<double>(per_channel);
        ForEachRow(addresses, true,
                   [&](const int64_t* channel, const double* dy, const double* x, int64_t width,
                       double* dx) {
                       for (int64_t k = 0; k < width; ++k) {
                           const auto c = static_cast<size_t>(channel[k]);
                           const double scale = weight[c] * invstd[c];
                           if (training_) {
                               const double xhat = (x[k] - mean[c]) * invstd[c];
                               dx[k] = scale * (dy[k] - sum_dy[c] / m - xhat * sum_dy_xhat[c] / m);
                           } else {
                               dx[k] = dy[k] * scale;
                           }
                       }
                   });
        return 0;
    }

 private:
    // Calls each(channel, dy, x, width, dx) for every row of the last dimension: gradOut's and
    // the input's elements as doubles, the channel of each, and a buffer stored to gradInput's
    // row afterwards when `store`. The channel is the row's index along dimension 1, or the
    // column itself for a [N, C] input.
    template <typename Each>
    void ForEachRow(void* const* addresses, bool store, Each each) const {
        const ops::LoopShape& shape = v_.input.shape;
        const int last = shape.rank - 1;
        const int64_t width = shape.dims[last];
        if (width == 0) return;
        std::vector<double> dy(static_cast<size_t>(width)), x(static_cast<size_t>(width)),
            dx(static_cast<size_t>(width));
        std::vector<int64_t> channel(static_cast<size_t>(width));
        if (last == 1) {
            for (int64_t k = 0; k < width; ++k)
                channel[static_cast<size_t>(k)] = k;
        }
        const int64_t rows = v_.input.numel / width;
        for (int64_t row = 0; row < rows; ++row) {
            if (last > 1) {
                int64_t rest = row;
                for (int d = last - 1; d > 1; --d)
                    rest /= shape.dims[d];
                std::fill(channel.begin(), channel.end(), rest % shape.dims[1]);
            }
            LoadRow(v_.grad_out, addresses[s_.grad_out], row, dy.data());
            LoadRow(v_.input, addresses[s_.input], row, x.data());
            each(channel.data(), dy.data(), x.data(), width, dx.data());
            if (store) StoreRow(v_.grad_input, addresses[s_.grad_input], row, dx.data());
        }
    }

    // The address of row `row` (all dimensions but the last, row-major) of `view`.
    static char* RowAt(const TensorView& view, void* address, int64_t row) {
        int64_t offset = view.offset;
        for (int d = view.shape.rank - 2; d >= 0; --d) {
            offset += row % view.shape.dims[d] * view.strides[d];
            row /= view.shape.dims[d];
        }
        return static_cast<char*>(address) +
               offset * static_cast<int64_t>(ops::DtypeSize(view.dtype));
    }

    static void LoadRow(const TensorView& view, void* address, int64_t row, double* out) {
        const auto size = static_cast<int64_t>(ops::DtypeSize(view.dtype));
        const int last = view.shape.rank - 1;
        ops::Load<double>(RowAt(view, address, row), view.strides[last] * size, view.dtype,
                          view.shape.dims[last], out);
    }

    static void StoreRow(const TensorView& view, void* address, int64_t row, const double* in) {
        const auto size = static_cast<int64_t>(ops::DtypeSize(view.dtype));
        const int last = view.shape.rank - 1;
        ops::Store<double>(in, view.shape.dims[last], RowAt(view, address, row),
                           view.strides[last] * size, view.dtype);
    }

    Views v_;
    Slots s_;
    bool training_;
    double eps_;
};

}  // namespace

aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* weight,
    const aclTensor* runningMean, const aclTensor* runningVar, const aclTensor* saveMean,
    const aclTensor* saveInvstd, bool training, double eps, const aclBoolArray* outputMask,
    aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(gradOut, "gradOut"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(input, "input"); rc != 0) return rc;
    if (aclnnStatus rc = CheckBoolArrayObject(outputMask, "outputMask"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    if (outputMask->values.size() != 3) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "outputMask has %zu values: it takes 3 (gradInput, gradWeight, gradBias)",
                    outputMask->values.size());
    }
    const bool wanted[3] = {outputMask->values[0], outputMask->values[1], outputMask->values[2]};
    aclTensor* const results[3] = {gradInput, gradWeight, gradBias};
    const char* const result_names[3] = {"gradInput", "gradWeight", "gradBias"};
    for (int i = 0; i < 3; ++i) {
        if (wanted[i] && results[i] == nullptr) {
            return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s is null but outputMask[%d] asks for it",
                        result_names[i], i);
        }
    }
    const aclTensor* mean = training ? saveMean : runningMean;
    const aclTensor* var = training ? saveInvstd : runningVar;
    if (mean == nullptr || var == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s is null: %s",
                    training ? (mean == nullptr ? "saveMean" : "saveInvstd")
                             : (mean == nullptr ? "runningMean" : "runningVar"),
                    training ? "training gradients use the statistics the forward pass saved"
                             : "inference gradients use the running statistics");
    }
    Views v;
    if (aclnnStatus rc = ViewOf(input, "input", &v.input); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(gradOut, "gradOut", &v.grad_out); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(v.input, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}); rc != 0) {
        return rc;
    }
    if (v.input.shape.rank < 2) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "input has %d dimensions: it takes [N, C, ...] (2 to 8 dimensions)",
                    v.input.shape.rank);
    }
    if (v.grad_out.dtype != v.input.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "gradOut is %s but input is %s: they must agree",
                    ops::DtypeName(v.grad_out.dtype), ops::DtypeName(v.input.dtype));
    }
    if (aclnnStatus rc = CheckShape(v.grad_out, v.input.shape); rc != 0) return rc;
    if (!(eps >= 0)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "eps is %g: it must be 0 or more", eps);
    }
    const int64_t channels = v.input.shape.dims[1];
    if (aclnnStatus rc =
            ChannelView(mean, training ? "saveMean" : "runningMean", channels, &v.mean);
        rc != 0) {
        return rc;
    }
    if (aclnnStatus rc = ChannelView(var, training ? "saveInvstd" : "runningVar", channels, &v.var);
        rc != 0) {
        return rc;
    }
    if (weight != nullptr) {
        if (aclnnStatus rc = ChannelView(weight, "weight", channels, &v.weight); rc != 0) {
            return rc;
        }
    }
    if (wanted[0]) {
        if (aclnnStatus rc = ViewOf(gradInput, "gradInput", &v.grad_input); rc != 0) return rc;
        if (v.grad_input.dtype != v.input.dtype) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "gradInput is %s but input is %s: they must agree",
                        ops::DtypeName(v.grad_input.dtype), ops::DtypeName(v.input.dtype));
        }
        if (aclnnStatus rc = CheckShape(v.grad_input, v.input.shape); rc != 0) return rc;
    }
    if (wanted[1]) {
        if (aclnnStatus rc = ChannelView(gradWeight, "gradWeight", channels, &v.grad_weight);
            rc != 0) {
            return rc;
        }
    }
    if (wanted[2]) {
        if (aclnnStatus rc = ChannelView(gradBias, "gradBias", channels, &v.grad_bias); rc != 0) {
            return rc;
        }
    }
    ExecutorBuilder builder("aclnnBatchNormBackward");
    Slots s;
    s.grad_out = builder.Input(v.grad_out, gradOut);
    s.input = builder.Input(v.input, input);
    if (weight != nullptr) s.weight = builder.Input(v.weight, weight);
    s.mean = builder.Input(v.mean, mean);
    s.var = builder.Input(v.var, var);
    if (wanted[0]) s.grad_input = builder.Output(v.grad_input, gradInput);
    if (wanted[1]) s.grad_weight = builder.Output(v.grad_weight, gradWeight);
    if (wanted[2]) s.grad_bias = builder.Output(v.grad_bias, gradBias);
    return builder.Finish(std::make_unique<BatchNormBackwardOperator>(v, s, training, eps), 0,
                          workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(BatchNormBackward)
