// Layout choice. oneDNN's convolutions are fastest in its blocked formats (nChw16c on
// AVX-512), and its f32 Winograd needs them; everything else here runs in plain row-major
// layouts. Marking a conv "blocked" lets the engine ask oneDNN for its best formats ("any");
// consecutive convs then hand each other blocked tensors and the engine reorders only where a
// plain consumer begins.
#include "model/compiler/compiler.h"

namespace openacl::model {

bool WinogradShape(const Plan& plan, const PlanLayer& conv) {
    const auto& w = plan.tensors[conv.inputs[1]].dims;
    const size_t r = w.size() - 2;
    bool wino = r == 2 && w[2] == 3 && w[3] == 3 && conv.ints[0] == 1 && w[0] >= 64 && w[1] >= 64;
    for (size_t i = 0; i < r && wino; ++i) {
        wino = conv.ints[1 + i] == 1 && conv.ints[1 + 3 * r + i] == 1;
    }
    return wino;
}

void ChooseLayouts(Plan* plan, bool blocked) {
    for (auto& layer : plan->layers) {
        if (layer.kind != LayerKind::kConv) continue;
        int64_t flags = blocked ? kConvBlocked : 0;
        // Winograd needs the blocked formats (the engine falls back to direct when oneDNN
        // declines).
        if (blocked && WinogradShape(*plan, layer)) flags |= kConvWinograd;
        layer.ints.back() = flags;
    }
}

}  // namespace openacl::model
