// A set of live objects of one kind: every descriptor, dataset or item a family hands out is
// recorded, so a destroyed or foreign pointer is refused with a message instead of being
// dereferenced. Families keep one per kind in a static that is never destroyed (programs may
// release objects from their own static destructors).
#pragma once

#include <mutex>
#include <new>
#include <unordered_set>

namespace openacl {

template <class T>
class LiveSet {
 public:
    // Records object and returns it; nullptr for a null object or when the set could not grow
    // (the caller still owns the object then).
    T* Add(T* object) {
        if (object == nullptr) return nullptr;
        try {
            std::lock_guard lock(mutex_);
            live_.insert(object);
        } catch (const std::bad_alloc&) {
            return nullptr;
        }
        return object;
    }
    // Forgets object; false when it was not live.
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

}  // namespace openacl
