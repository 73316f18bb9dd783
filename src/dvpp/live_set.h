// A set of live objects of one kind. Every DVPP descriptor and config handed out is recorded,
// so a destroyed or foreign pointer is refused with a message instead of being dereferenced.
#pragma once

#include <mutex>
#include <unordered_set>

namespace openacl::dvpp {

template <class T>
class LiveSet {
 public:
    T* Add(T* object) {
        if (object == nullptr) return nullptr;
        std::lock_guard lock(mutex_);
        live_.insert(object);
        return object;
    }
    bool Remove(const T* object) {
        std::lock_guard lock(mutex_);
        return live_.erase(object) != 0;
    }
    bool Contains(const T* object) {
        if (object == nullptr) return false;
        std::lock_guard lock(mutex_);
        return live_.count(object) != 0;
    }

 private:
    std::mutex mutex_;
    std::unordered_set<const T*> live_;
};

}  // namespace openacl::dvpp
