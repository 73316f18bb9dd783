// Fusion passes: fewer layers, fewer passes over memory, same results.
#include <cmath>

#include "model/compiler/compiler.h"

namespace openacl::model {
namespace {

// Index of the layer producing tensor `id`, or -1 (a graph input or constant).
int Producer(const Plan& plan, uint32_t id) {
    for (size_t i = 0; i < plan.layers.size(); ++i) {
        if (plan.layers[i].output == id) return static_cast<int>(i);
    }
    return -1;
}

// Index of the only layer reading `id` when nothing else (no other layer, no graph output)
// does; -1 otherwise.
int SoleConsumer(const Plan& plan, uint32_t id) {
    if (UseCount(plan, id) != 1) return -1;
    for (size_t i = 0; i < plan.layers.size(); ++i) {
        for (uint32_t in : plan.layers[i].inputs) {
            if (in == id) return static_cast<int>(i);
        }
    }
    return -1;
}

uint32_t AddConstant(Plan* plan, const std::string& name, std::vector<int64_t> dims,
                     std::vector<float> data) {
    plan->constants.push_back(std::move(data));
    plan->tensors.push_back(PlanTensor{name, std::move(dims),
                                       static_cast<int32_t>(plan->constants.size() - 1), -1, -1});
    return static_cast<uint32_t>(plan->tensors.size() - 1);
}

const std::vector<float>& Data(const Plan& plan, uint32_t id) {
    return plan.constants[static_cast<size_t>(plan.tensors[id].constant)];
}

// Whether eltwise `next` may join the post-ops of `layer`. oneDNN 2.6 runs every eltwise
// post-op of one algorithm with the parameters of the first of them (see Builder::Attr), so a
// chain holds each of oneDNN's algorithms with one set of parameters only; the engine merges two
// linears or two clips in a row into one, so those may follow each other. HardSigmoid is
// oneDNN's linear then clip.
bool JoinsPostOps(const PlanLayer& layer, const PlanLayer& next) {
    auto families = [](int64_t alg) -> int64_t {
        switch (static_cast<EltwiseAlg>(alg)) {
            case EltwiseAlg::kLinear:
                return 1;
            case EltwiseAlg::kClip:
                return 2;
            case EltwiseAlg::kHardSigmoid:
                return 1 | 2;
            default:
                return int64_t{4} << alg;  // an algorithm of its own
        }
    };
    const int64_t alg = next.ints[0];
    for (size_t i = 0; i < layer.post_ops.size(); ++i) {
        const PostOp& op = layer.post_ops[i];
        if (op.kind != PostOp::kEltwise || (families(op.alg) & families(alg)) == 0) continue;
        const bool same = op.alg == alg && op.alpha == next.floats[0] && op.beta == next.floats[1];
        const bool merged = i + 1 == layer.post_ops.size() && op.alg == alg &&
                            (alg == static_cast<int64_t>(EltwiseAlg::kLinear) ||
                             alg == static_cast<int64_t>(EltwiseAlg::kClip));
        if (!same && !merged) return false;
    }
    return true;
}

}  // namespace

void FoldBatchNorm(Plan* plan) {
    for (size_t i = 0; i < plan->layers.size(); ++i) {
        const PlanLayer& bn = plan->layers[i];
        if (bn.kind != LayerKind::kBatchNorm) continue;
        bool constant = true;
        for (size_t k = 1; k < 5; ++k)
            constant = constant && plan->tensors[bn.inputs[k]].constant >= 0;
        int c = Producer(*plan, bn.inputs[0]);
        if (!constant || c < 0 || SoleConsumer(*plan, bn.inputs[0]) != static_cast<int>(i)) {
            continue;
        }
        PlanLayer& conv = plan->layers[static_cast<size_t>(c)];
        if (conv.kind != LayerKind::kConv || !conv.post_ops.empty() ||
            plan->tensors[conv.inputs[1]].constant < 0) {
            continue;
        }
        const auto& wd = plan->tensors[conv.inputs[1]].dims;
        const int64_t oc = wd[0];
        const size_t per = static_cast<size_t>(PlanElementCount(wd) / oc);
        std::vector<float> w = Data(*plan, conv.inputs[1]);
        std::vector<float> b(static_cast<size_t>(oc), 0.0f);
        if (conv.inputs.size() == 3) b = Data(*plan, conv.inputs[2]);
        const auto &scale = Data(*plan, bn.inputs[1]), &shift = Data(*plan, bn.inputs[2]),
                   &mean = Data(*plan, bn.inputs[3]), &var = Data(*plan, bn.inputs[4]);
        for (int64_t o = 0; o < oc; ++o) {
            // y = (conv(x) + b - mean) * scale / sqrt(var + eps) + shift
            const float s = scale[o] / std::sqrt(var[o] + bn.floats[0]);
            for (size_t k = 0; k < per; ++k)
                w[o * per + k] *= s;
            b[o] = (b[o] - mean[o]) * s + shift[o];
        }
        const std::string name = plan->tensors[conv.inputs[1]].name;
        conv.inputs.resize(3);
        conv.inputs[1] = AddConstant(plan, name + "/bn", wd, std::move(w));
        conv.inputs[2] = AddConstant(plan, name + "/bn_bias", {oc}, std::move(b));
        conv.output = plan->layers[i].output;
        plan->layers.erase(plan->layers.begin() + static_cast<long>(i));
        --i;
    }
}

void FuseSwish(Plan* plan) {
    for (auto& mul : plan->layers) {
        if (mul.kind != LayerKind::kBinary || mul.ints[0] != static_cast<int64_t>(BinaryAlg::kMul))
            continue;
        for (size_t k = 0; k < 2; ++k) {
            uint32_t s = mul.inputs[k], x = mul.inputs[1 - k];
            int p = Producer(*plan, s);
            if (p < 0 || UseCount(*plan, s) != 1) continue;
            const PlanLayer& sig = plan->layers[static_cast<size_t>(p)];
            if (sig.kind != LayerKind::kEltwise || !sig.post_ops.empty() ||
                sig.ints[0] != static_cast<int64_t>(EltwiseAlg::kLogistic) || sig.inputs[0] != x ||
                plan->tensors[x].dims != plan->tensors[mul.output].dims) {
                continue;
            }
            mul.kind = LayerKind::kEltwise;
            mul.inputs = {x};
            mul.ints = {static_cast<int64_t>(EltwiseAlg::kSwish)};
            mul.floats = {1.0f, 0.0f};
            break;  // the sigmoid layer is dead now; RemoveDeadLayers drops it
        }
    }
}

void FusePostOps(Plan* plan) {
    for (size_t i = 0; i < plan->layers.size(); ++i) {
        for (;;) {
            PlanLayer& p = plan->layers[i];
            if (p.kind != LayerKind::kConv && p.kind != LayerKind::kDeconv &&
                p.kind != LayerKind::kMatMul && p.kind != LayerKind::kBinary) {
                break;
            }
            int c = SoleConsumer(*plan, p.output);
            if (c < 0) break;
            const PlanLayer& next = plan->layers[static_cast<size_t>(c)];
            PostOp op;
            // Every activation and residual add fuses, whatever kernel the engine picks: where
            // that kernel cannot take them (oneDNN 2.6's Winograd has no swish and no binary
            // add), the engine runs them after it.
            // Log and Erf run the engine's own kernel, not oneDNN's (see dnnl_engine.cpp).
            if (next.kind == LayerKind::kEltwise && next.post_ops.empty() &&
                next.ints[0] != static_cast<int64_t>(EltwiseAlg::kLog) &&
                next.ints[0] != static_cast<int64_t>(EltwiseAlg::kErf) && JoinsPostOps(p, next)) {
                op.kind = PostOp::kEltwise;
                op.alg = next.ints[0];
                op.alpha = next.floats[0];
                op.beta = next.floats[1];
            } else if (next.kind == LayerKind::kBinary && p.kind == LayerKind::kConv &&
                       next.post_ops.empty() &&
                       next.ints[0] == static_cast<int64_t>(BinaryAlg::kAdd)) {
                // A residual add: the other operand must exist when the conv runs.
                uint32_t other = next.inputs[0] == p.output ? next.inputs[1] : next.inputs[0];
                int q = Producer(*plan, other);
                bool ready = q >= 0 ? q < static_cast<int>(i) : plan->tensors[other].constant < 0;
                if (other == p.output || !ready ||
                    plan->tensors[other].dims != plan->tensors[p.output].dims) {
                    break;
                }
                op.kind = PostOp::kSum;
                op.tensor = other;
            } else {
                break;
            }
            p.post_ops.push_back(op);
            p.output = next.output;
            plan->layers.erase(plan->layers.begin() + c);
            if (c < static_cast<int>(i)) --i;
        }
    }
}

}  // namespace openacl::model
