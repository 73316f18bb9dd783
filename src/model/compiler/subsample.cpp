// Subsampling once. A downsampling bottleneck (ResNet v1) reads its input with two strided 1x1
// convolutions, the shortcut's and the main branch's first. Each then gathers every other pixel
// itself, and oneDNN's strided 1x1 kernels run slower than its stride-1 ones (137 - 178 G
// multiply-adds/s against 190 on ResNet-50 here). Gathering the pixels once, with a 1x1 max
// pool of the same strides, lets both convolutions run with stride 1 on a quarter of the input.
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "model/compiler/compiler.h"

namespace openacl::model {
namespace {

// Conv ints for spatial rank r: group, strides[r], pads_begin[r], pads_end[r], dilations[r],
// flags.
bool PointwiseStrided(const Plan& plan, const PlanLayer& layer) {
    if (layer.kind != LayerKind::kConv || plan.tensors[layer.inputs[0]].constant >= 0) return false;
    const auto& w = plan.tensors[layer.inputs[1]].dims;
    if (w.size() < 3) return false;
    const size_t r = w.size() - 2;
    bool strided = false;
    for (size_t i = 0; i < r; ++i) {
        if (w[2 + i] != 1 || layer.ints[1 + r + i] != 0 || layer.ints[1 + 2 * r + i] != 0) {
            return false;  // not 1x1, or padded
        }
        strided = strided || layer.ints[1 + i] > 1;
    }
    return strided;
}

std::vector<int64_t> Strides(const Plan& plan, const PlanLayer& conv) {
    const size_t r = plan.tensors[conv.inputs[1]].dims.size() - 2;
    return {conv.ints.begin() + 1, conv.ints.begin() + 1 + static_cast<long>(r)};
}

}  // namespace

void SubsampleOnce(Plan* plan) {
    // Strided 1x1 convolutions by (input, strides), in plan order.
    std::map<std::pair<uint32_t, std::vector<int64_t>>, std::vector<size_t>> groups;
    for (size_t i = 0; i < plan->layers.size(); ++i) {
        const PlanLayer& layer = plan->layers[i];
        if (PointwiseStrided(*plan, layer))
            groups[{layer.inputs[0], Strides(*plan, layer)}].push_back(i);
    }
    std::vector<std::pair<size_t, PlanLayer>> pools;  // (insert before layer index, pool)
    for (const auto& [key, convs] : groups) {
        if (convs.size() < 2) continue;  // one conv gathers its pixels once anyway
        const auto& [x, strides] = key;
        const PlanLayer& first = plan->layers[convs.front()];
        // The subsampled input: each conv's output has its spatial dims (1x1, no padding).
        std::vector<int64_t> dims = plan->tensors[x].dims;
        const auto& y = plan->tensors[first.output].dims;
        for (size_t i = 2; i < dims.size(); ++i)
            dims[i] = y[i];
        plan->tensors.push_back(
            PlanTensor{plan->tensors[x].name + "/subsampled", dims, -1, -1, -1});
        const auto sub = static_cast<uint32_t>(plan->tensors.size() - 1);
        PlanLayer pool;
        pool.kind = LayerKind::kPool;
        pool.name = first.name + "/subsample";
        pool.inputs = {x};
        pool.output = sub;
        const size_t r = strides.size();
        pool.ints.push_back(static_cast<int64_t>(PoolAlg::kMax));
        pool.ints.insert(pool.ints.end(), r, 1);  // kernel
        pool.ints.insert(pool.ints.end(), strides.begin(), strides.end());
        pool.ints.insert(pool.ints.end(), 2 * r, 0);  // pads
        pools.emplace_back(convs.front(), std::move(pool));
        for (size_t c : convs) {
            PlanLayer& conv = plan->layers[c];
            conv.inputs[0] = sub;
            for (size_t i = 0; i < r; ++i)
                conv.ints[1 + i] = 1;
        }
    }
    // Inserted from the back, so that the indices still ahead stay valid.
    std::sort(pools.begin(), pools.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& [at, pool] : pools)
        plan->layers.insert(plan->layers.begin() + static_cast<long>(at), std::move(pool));
}

}  // namespace openacl::model
