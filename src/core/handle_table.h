// A registry of live objects addressed by opaque handles (the object's address). Lookups are
// cached per thread and trusted until any handle of the table dies, so a thread that keeps
// using the same stream or event pays one relaxed load instead of a lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <unordered_map>

namespace openacl {

template <class T>
class HandleTable {
 public:
    // Registers an object; returns its handle.
    T* Insert(std::unique_ptr<T> object) {
        T* raw = object.get();
        std::unique_lock lock(mutex_);
        live_.emplace(raw, std::move(object));
        return raw;
    }

    // Unregisters and returns the object (the caller decides when it dies), or nullptr.
    std::unique_ptr<T> Remove(const void* handle) {
        std::unique_lock lock(mutex_);
        auto it = live_.find(handle);
        if (it == live_.end()) return nullptr;
        std::unique_ptr<T> object = std::move(it->second);
        live_.erase(it);
        epoch_.fetch_add(1, std::memory_order_acq_rel);
        return object;
    }

    // The live object behind handle, or nullptr.
    T* Find(const void* handle) {
        Cache& cache = ThreadCache();
        uint64_t epoch = epoch_.load(std::memory_order_acquire);
        if (cache.epoch == epoch && cache.table == this) {
            for (const auto& entry : cache.entries) {
                if (entry.handle == handle && handle != nullptr) return entry.object;
            }
        } else {
            cache = Cache{};
            cache.table = this;
            cache.epoch = epoch;
        }
        T* object = nullptr;
        {
            std::shared_lock lock(mutex_);
            auto it = live_.find(handle);
            if (it != live_.end()) object = it->second.get();
        }
        if (object != nullptr) {
            cache.entries[cache.next] = {handle, object};
            cache.next = (cache.next + 1) % kCacheSize;
        }
        return object;
    }

    // Calls fn(T*) for every live object (under the table's lock: fn must not touch it).
    template <class Fn>
    void ForEach(Fn fn) {
        std::shared_lock lock(mutex_);
        for (auto& [handle, object] : live_)
            fn(object.get());
    }

 private:
    static constexpr int kCacheSize = 4;
    struct Cache {
        const HandleTable* table = nullptr;
        uint64_t epoch = 0;
        struct Entry {
            const void* handle = nullptr;
            T* object = nullptr;
        } entries[kCacheSize];
        int next = 0;
    };
    static Cache& ThreadCache() {
        thread_local Cache cache;
        return cache;
    }

    std::shared_mutex mutex_;
    std::unordered_map<const void*, std::unique_ptr<T>> live_;
    std::atomic<uint64_t> epoch_{1};
};

}  // namespace openacl
