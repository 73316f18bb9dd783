// Callbacks registered under a unique name, as aclrtRegStreamStateCallback,
// aclrtRegDeviceStateCallback and aclrtSetDeviceTaskAbortCallback keep them: a name holds one
// callback, registering a taken name is refused, a NULL callback removes the name (a name that
// is not registered is no error). Notifiers take a copy and call it without the lock, in name
// order, so a callback may register or remove callbacks itself.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "core/error.h"

namespace openacl {

// The API's check of a registration name: not null, not empty.
inline aclError CheckCallbackName(const char* name) {
    if (name == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "regName is null");
    if (*name == '\0') {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "regName is empty: callbacks are registered under a unique, non-empty name");
    }
    return ACL_SUCCESS;
}

template <class Fn>
class NamedCallbacks {
 public:
    struct Entry {
        std::string name;
        Fn fn = nullptr;
        void* args = nullptr;
    };

    // `name` passed CheckCallbackName.
    aclError Set(const char* name, Fn fn, void* args) {
        std::lock_guard lock(mutex_);
        if (fn == nullptr) {
            entries_.erase(name);
        } else if (!entries_.emplace(name, Entry{name, fn, args}).second) {
            return Fail(ACL_ERROR_RT_PARAM_INVALID,
                        "a callback is already registered as \"%s\": names are unique; remove it "
                        "first (register a NULL callback under that name) or choose another name",
                        name);
        }
        count_.store(entries_.size(), std::memory_order_release);
        return ACL_SUCCESS;
    }

    // True when nothing is registered: one load, for the paths that notify.
    bool empty() const { return count_.load(std::memory_order_acquire) == 0; }

    std::vector<Entry> Snapshot() const {
        std::vector<Entry> copy;
        std::lock_guard lock(mutex_);
        copy.reserve(entries_.size());
        for (const auto& [name, entry] : entries_)
            copy.push_back(entry);
        return copy;
    }

 private:
    mutable std::mutex mutex_;
    std::map<std::string, Entry> entries_;
    std::atomic<size_t> count_{0};
};

}  // namespace openacl
