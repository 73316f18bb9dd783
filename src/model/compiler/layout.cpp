// Layout choice. oneDNN's convolutions are fastest in its blocked formats (nChw16c on
// AVX-512), and its f32 Winograd needs them; everything else here runs in plain row-major
// layouts. Marking a conv "blocked" lets the engine ask oneDNN for its best formats ("any");
// consecutive convs then hand each other blocked tensors and the engine reorders only where a
// plain consumer begins.
#include "model/compiler/compiler.h"

namespace openacl::model {

void ChooseLayouts(Plan* plan, bool blocked) {
    for (auto& layer : plan->layers) {
        if (layer.kind != LayerKind::kConv) continue;
        const auto& w = plan->tensors[layer.inputs[1]].dims;
        const size_t r = w.size() - 2;
        int64_t flags = blocked ? kConvBlocked : 0;
        // Winograd F(4x4, 3x3): plain 2-D 3x3 convolutions, stride and dilation 1, wide enough
        // for the transform to pay (the engine falls back to direct when oneDNN declines).
        bool wino = blocked && r == 2 && w[2] == 3 && w[3] == 3 && layer.ints[0] == 1 &&
                    w[0] >= 64 && w[1] >= 64;
        for (size_t i = 0; i < r && wino; ++i) {
            wino = layer.ints[1 + i] == 1 && layer.ints[1 + 3 * r + i] == 1;
        }
        if (wino) flags |= kConvWinograd;
        layer.ints.back() = flags;
    }
}

}  // namespace openacl::model
