// Views collapsed, dead layers and unused tensors removed, ids made dense again.
#include <map>

#include "model/compiler/compiler.h"

namespace openacl::model {

void CollapseViews(Plan* plan) {
    std::map<uint32_t, uint32_t> view_of;  // view output -> the tensor it views
    for (auto& layer : plan->layers) {
        if (layer.kind != LayerKind::kView) continue;
        auto it = view_of.find(layer.inputs[0]);
        if (it != view_of.end()) layer.inputs[0] = it->second;
        view_of[layer.output] = layer.inputs[0];
    }
}

void RemoveDeadLayers(Plan* plan) {
    std::vector<bool> live(plan->tensors.size(), false);
    for (uint32_t id : plan->outputs)
        live[id] = true;
    std::vector<bool> keep(plan->layers.size(), false);
    for (size_t i = plan->layers.size(); i-- > 0;) {
        const auto& layer = plan->layers[i];
        if (!live[layer.output]) continue;
        keep[i] = true;
        for (uint32_t in : layer.inputs)
            live[in] = true;
        for (const auto& op : layer.post_ops) {
            if (op.kind == PostOp::kSum) live[op.tensor] = true;
        }
    }
    for (uint32_t id : plan->inputs)
        live[id] = true;  // the bindings keep every graph input
    Plan out;
    std::vector<uint32_t> remap(plan->tensors.size(), 0);
    std::map<int32_t, int32_t> constant_remap;
    for (size_t t = 0; t < plan->tensors.size(); ++t) {
        if (!live[t]) continue;
        PlanTensor tensor = plan->tensors[t];
        if (tensor.constant >= 0) {
            auto it = constant_remap.find(tensor.constant);
            if (it == constant_remap.end()) {
                out.constants.push_back(std::move(plan->constants[tensor.constant]));
                it = constant_remap
                         .emplace(tensor.constant, static_cast<int32_t>(out.constants.size() - 1))
                         .first;
            }
            tensor.constant = it->second;
        }
        remap[t] = static_cast<uint32_t>(out.tensors.size());
        out.tensors.push_back(std::move(tensor));
    }
    for (size_t i = 0; i < plan->layers.size(); ++i) {
        if (!keep[i]) continue;
        PlanLayer layer = std::move(plan->layers[i]);
        for (uint32_t& in : layer.inputs)
            in = remap[in];
        for (auto& op : layer.post_ops) {
            if (op.kind == PostOp::kSum) op.tensor = remap[op.tensor];
        }
        layer.output = remap[layer.output];
        out.layers.push_back(std::move(layer));
    }
    for (uint32_t id : plan->inputs)
        out.inputs.push_back(remap[id]);
    for (uint32_t id : plan->outputs)
        out.outputs.push_back(remap[id]);
    *plan = std::move(out);
}

}  // namespace openacl::model
