#include "core/data_buffer.h"

#include <mutex>
#include <unordered_set>

namespace openacl {
namespace {

std::mutex g_buffers_mutex;
std::unordered_set<const aclDataBuffer*>& LiveBuffers() {
    static auto* live = new std::unordered_set<const aclDataBuffer*>;
    return *live;
}

}  // namespace

void RegisterDataBuffer(const aclDataBuffer* buffer) {
    std::lock_guard lock(g_buffers_mutex);
    LiveBuffers().insert(buffer);
}

bool UnregisterDataBuffer(const aclDataBuffer* buffer) {
    std::lock_guard lock(g_buffers_mutex);
    return LiveBuffers().erase(buffer) != 0;
}

bool IsLiveDataBuffer(const aclDataBuffer* buffer) {
    std::lock_guard lock(g_buffers_mutex);
    return LiveBuffers().count(buffer) != 0;
}

}  // namespace openacl
