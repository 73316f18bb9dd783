#include "model/tensor_desc.h"

#include <mutex>
#include <new>
#include <unordered_set>
#include <utility>

namespace openacl::model {
namespace {

struct Registry {
    std::mutex mutex;
    std::unordered_set<const aclTensorDesc*> live;
    std::unordered_set<const aclTensorDesc*> owned;  // a subset of live
};

// Never destroyed: descriptors may be released from static destructors of applications.
Registry& TheRegistry() {
    static auto* registry = new Registry;
    return *registry;
}

// Registers a descriptor built by `make` (which may throw bad_alloc); nullptr when out of memory.
template <typename Make>
aclTensorDesc* Register(Make make, bool owned) {
    aclTensorDesc* desc = nullptr;
    try {
        desc = make();
        Registry& registry = TheRegistry();
        std::lock_guard lock(registry.mutex);
        registry.live.insert(desc);
        if (owned) registry.owned.insert(desc);
        return desc;
    } catch (const std::bad_alloc&) {
        if (desc != nullptr) {
            Registry& registry = TheRegistry();
            std::lock_guard lock(registry.mutex);
            registry.live.erase(desc);
        }
        delete desc;
        return nullptr;
    }
}

}  // namespace

aclTensorDesc* NewTensorDesc(aclDataType type, std::vector<int64_t> dims, aclFormat format) {
    return Register(
        [&] {
            auto* desc = new aclTensorDesc;
            desc->data_type = type;
            desc->format = format;
            desc->dims = std::move(dims);
            return desc;
        },
        false);
}

aclTensorDesc* CloneTensorDesc(const aclTensorDesc& desc) {
    return Register([&] { return new aclTensorDesc(desc); }, false);
}

aclTensorDesc* CloneOwnedTensorDesc(const aclTensorDesc& desc) {
    return Register([&] { return new aclTensorDesc(desc); }, true);
}

void DeleteTensorDesc(const aclTensorDesc* desc) {
    if (desc == nullptr) return;
    Registry& registry = TheRegistry();
    {
        std::lock_guard lock(registry.mutex);
        // Only a registered descriptor is deleted, so a second release is harmless.
        if (registry.live.erase(desc) == 0) return;
        registry.owned.erase(desc);
    }
    delete desc;
}

bool IsLiveTensorDesc(const aclTensorDesc* desc) {
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    return registry.live.count(desc) != 0;
}

bool IsOwnedTensorDesc(const aclTensorDesc* desc) {
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    return registry.owned.count(desc) != 0;
}

size_t ElementCount(const std::vector<int64_t>& dims) {
    size_t count = 1;
    for (int64_t dim : dims) {
        if (dim < 0) return 0;
        if (__builtin_mul_overflow(count, static_cast<uint64_t>(dim), &count)) return 0;
    }
    return count;
}

}  // namespace openacl::model
