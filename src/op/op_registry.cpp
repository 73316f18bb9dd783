#include "op/op_registry.h"

#include <algorithm>
#include <list>
#include <mutex>
#include <unordered_map>

namespace openacl::op {
namespace {

const std::vector<OpTypeInfo>& Table() {
    static const std::vector<OpTypeInfo>* table = [] {
        auto* t = new std::vector<OpTypeInfo>;
        AddElementwiseOps(t);
        AddMovementOps(t);
        AddReductionOps(t);
        AddMatrixOps(t);
        std::sort(t->begin(), t->end(), [](const OpTypeInfo& a, const OpTypeInfo& b) {
            return std::strcmp(a.name, b.name) < 0;
        });
        return t;
    }();
    return *table;
}

// What a plan depends on: DescKey without output shapes (they follow from the rest), and the
// values of the host-placed inputs its handler read (Transpose's perm), learned when the first
// call of a signature is planned: a host operand (Mul by a host scalar) changes no plan.
std::string WithValues(std::string key, const OpDesc& desc, const std::vector<int>& inputs) {
    for (int i : inputs) {
        const TensorSpec& t = desc.inputs[static_cast<size_t>(i)];
        key += "|v";
        key += std::to_string(i);
        key += ':';
        key += std::to_string(t.value.size());
        key += ':';
        key.append(reinterpret_cast<const char*>(t.value.data()), t.value.size());
    }
    return key;
}

struct PlanCache {
    std::mutex mutex;
    uint64_t capacity = 20000;     // CANN's default for its operator map
    std::list<std::string> order;  // most recently used first
    struct Entry {
        std::shared_ptr<Plan> plan;
        std::list<std::string>::iterator position;
    };
    std::unordered_map<std::string, Entry> entries;
    // Signature -> the host inputs whose values its plans depend on.
    std::unordered_map<std::string, std::vector<int>> value_inputs;

    void Trim() {
        while (entries.size() > capacity && !order.empty()) {
            entries.erase(order.back());
            order.pop_back();
        }
    }
};

PlanCache& Cache() {
    static auto* cache = new PlanCache;  // never destroyed: plans may be in use during exit
    return *cache;
}

void CheckStaticInputs(const OpDesc& desc) {
    for (size_t i = 0; i < desc.inputs.size(); ++i) {
        const TensorSpec& t = desc.inputs[i];
        if (!t.absent() && !t.is_static()) {
            Throw(ACL_ERROR_INVALID_PARAM,
                  "%s: input %zu has the shape %s: running an operator needs every input's "
                  "shape (-1 and -2 belong in models and aclopCompile)",
                  desc.type.c_str(), i, ShapeString(t.dims).c_str());
        }
    }
}

}  // namespace

const OpTypeInfo* FindOpType(std::string_view name) {
    const std::vector<OpTypeInfo>& table = Table();
    auto it = std::lower_bound(table.begin(), table.end(), name,
                               [](const OpTypeInfo& a, std::string_view n) { return a.name < n; });
    return it != table.end() && it->name == name ? &*it : nullptr;
}

std::vector<std::string> OpTypeNames() {
    std::vector<std::string> names;
    for (const OpTypeInfo& info : Table())
        names.emplace_back(info.name);
    return names;
}

const OpTypeInfo& CheckOpType(const OpDesc& desc) {
    const OpTypeInfo* info = FindOpType(desc.type);
    if (info == nullptr) {
        Throw(ACL_ERROR_OP_NOT_FOUND,
              "openacl has no operator of type \"%s\" (see docs/OPERATORS.md, \"aclop\", for the "
              "%zu types it runs)",
              desc.type.c_str(), Table().size());
    }
    const int inputs = static_cast<int>(desc.inputs.size());
    if (inputs < info->min_inputs || (info->max_inputs >= 0 && inputs > info->max_inputs)) {
        if (info->max_inputs < 0) {
            Throw(ACL_ERROR_OP_INPUT_NOT_MATCH, "%s takes at least %d inputs, not %d", info->name,
                  info->min_inputs, inputs);
        }
        if (info->min_inputs == info->max_inputs) {
            Throw(ACL_ERROR_OP_INPUT_NOT_MATCH, "%s takes %d inputs, not %d", info->name,
                  info->min_inputs, inputs);
        }
        Throw(ACL_ERROR_OP_INPUT_NOT_MATCH, "%s takes %d to %d inputs (the last optional), not %d",
              info->name, info->min_inputs, info->max_inputs, inputs);
    }
    if (info->outputs < 0 && desc.outputs.empty()) {
        Throw(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s needs at least one output", info->name);
    }
    if (info->outputs >= 0 && static_cast<int>(desc.outputs.size()) != info->outputs) {
        Throw(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s has %d output%s, not %zu", info->name,
              info->outputs, info->outputs == 1 ? "" : "s", desc.outputs.size());
    }
    for (int i = 0; i < info->min_inputs && i < inputs; ++i) {
        if (desc.inputs[static_cast<size_t>(i)].absent()) {
            Throw(ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "%s: input %d is required but described as absent (ACL_DT_UNDEFINED)", info->name,
                  i);
        }
    }
    for (size_t j = 0; j < desc.outputs.size(); ++j) {
        if (desc.outputs[j].absent()) {
            Throw(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "%s: output %zu has no data type", info->name, j);
        }
    }
    return *info;
}

std::vector<Shape> InferShapes(const OpDesc& desc) {
    const OpTypeInfo& info = CheckOpType(desc);
    CheckStaticInputs(desc);
    Builder builder(desc, Builder::Mode::kInfer);
    info.build(builder);
    return builder.OutShapes();
}

std::shared_ptr<Plan> MakePlan(const OpDesc& desc) {
    const OpTypeInfo& info = CheckOpType(desc);
    CheckStaticInputs(desc);
    Builder builder(desc, Builder::Mode::kPlan);
    info.build(builder);
    return builder.Finish();
}

std::shared_ptr<Plan> GetPlan(const OpDesc& desc) {
    const std::string base = DescKey(desc, false);
    PlanCache& cache = Cache();
    {
        std::lock_guard<std::mutex> lock(cache.mutex);
        auto deps = cache.value_inputs.find(base);
        if (deps != cache.value_inputs.end()) {
            auto it = cache.entries.find(WithValues(base, desc, deps->second));
            if (it != cache.entries.end()) {
                cache.order.splice(cache.order.begin(), cache.order, it->second.position);
                return it->second.plan;
            }
        }
    }
    std::shared_ptr<Plan> plan = MakePlan(desc);  // outside the lock: planning takes time
    const std::string key = WithValues(base, desc, plan->value_inputs());
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.value_inputs.size() > 4 * cache.capacity) cache.value_inputs.clear();  // relearned
    cache.value_inputs.try_emplace(base, plan->value_inputs());
    auto [it, inserted] = cache.entries.try_emplace(key);
    if (inserted) {
        cache.order.push_front(key);
        it->second.plan = plan;
        it->second.position = cache.order.begin();
        cache.Trim();
        return plan;
    }
    return it->second.plan;  // another thread planned it meanwhile
}

void SetPlanCacheCapacity(uint64_t capacity) {
    PlanCache& cache = Cache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    cache.capacity = capacity;
    cache.Trim();
}

size_t CachedPlanCount() {
    PlanCache& cache = Cache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    return cache.entries.size();
}

}  // namespace openacl::op
