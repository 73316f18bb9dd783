#include "op/op_handle.h"

#include <mutex>
#include <unordered_set>
#include <utility>

namespace openacl::op {
namespace {

struct Handles {
    std::mutex mutex;
    std::unordered_set<const aclopHandle*> live;
};

Handles& TheHandles() {
    static auto* handles = new Handles;  // never destroyed: calls may come during exit
    return *handles;
}

}  // namespace

aclopHandle* NewHandle(std::shared_ptr<Plan> plan) {
    auto* handle = new aclopHandle{std::move(plan)};
    Handles& handles = TheHandles();
    std::lock_guard<std::mutex> lock(handles.mutex);
    handles.live.insert(handle);
    return handle;
}

bool DeleteHandle(aclopHandle* handle) {
    {
        Handles& handles = TheHandles();
        std::lock_guard<std::mutex> lock(handles.mutex);
        if (handles.live.erase(handle) == 0) return false;
    }
    delete handle;
    return true;
}

bool IsLiveHandle(const aclopHandle* handle) {
    Handles& handles = TheHandles();
    std::lock_guard<std::mutex> lock(handles.mutex);
    return handles.live.count(handle) != 0;
}

}  // namespace openacl::op
