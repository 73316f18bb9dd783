#include "core/mem_pool.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "backend/accelerator.h"
#include "backend/cpu/executor.h"
#include "backend/cpu/task.h"
#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/memory.h"
#include "core/model_ri.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl::mem_pool {
namespace {

struct Block {
    uint64_t size = 0;  // usable bytes of the device allocation
    bool in_use = true;
    // The last free: its stream (later work there may reuse the block at once) and the point
    // of its task on the stream's queue (once reached, any stream may).
    const Stream* freed_on = nullptr;
    const cpu::Queue* free_queue = nullptr;
    uint64_t free_seq = 0;
    bool FreeDone() const {
        return free_queue != nullptr && cpu::Executor::Reached(free_queue, free_seq);
    }
};

struct Pool {
    Device* device = nullptr;
    uint64_t max_size = 0;
    uint32_t follow_event_dependencies = 1;
    uint32_t allow_opportunistic = 1;
    uint32_t allow_internal_dependencies = 1;
    uint64_t release_threshold = 0;
    std::mutex mutex;
    std::map<uintptr_t, Block> blocks;  // by address
    uint64_t reserved = 0, reserved_high = 0, used = 0, used_high = 0;
    bool destroyed = false;  // kept until its last block is handed back (Destroy)

    uint64_t Idle() const { return reserved - used; }
};

struct Registry {
    std::mutex mutex;
    std::set<Pool*> live;     // valid handles
    std::set<Pool*> retired;  // destroyed while blocks were in use or their frees pending
    std::atomic<size_t> count{0};
};

Registry& Pools() {
    static Registry* registry = new Registry;  // outlives static destructors
    return *registry;
}

// CANN documents the family for Atlas A2 (and its samples run on A3).
aclError RequireChip(const char* api) {
    const std::string& soc = Runtime::Get().config().soc_name;
    if (soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0) return ACL_SUCCESS;
    return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                "%s: stream-ordered memory pools are not available on %s (CANN documents them "
                "for Atlas A2/A3)",
                api, soc.c_str());
}

// The live pool of a handle, or nullptr after recording the error. Registry lock held.
Pool* FindLocked(aclrtMemPool handle, const char* what) {
    auto* pool = static_cast<Pool*>(handle);
    if (handle == nullptr) {
        Fail(ACL_ERROR_INVALID_PARAM, "%s is null", what);
        return nullptr;
    }
    if (Pools().live.count(pool) == 0) {
        Fail(ACL_ERROR_INVALID_PARAM,
             "%s %p is not a memory pool of this process (never created by aclrtMemPoolCreate, "
             "or destroyed)",
             what, handle);
        return nullptr;
    }
    return pool;
}

void NoteUse(Pool& pool) {
    pool.used_high = std::max(pool.used_high, pool.used);
    pool.reserved_high = std::max(pool.reserved_high, pool.reserved);
}

// Hands idle blocks whose frees have run back to the device, largest first, until at most
// `keep` idle bytes remain. Pool lock held.
void ReleaseIdle(Pool& pool, uint64_t keep) {
    if (pool.Idle() <= keep) return;
    std::vector<std::pair<uint64_t, uintptr_t>> idle;
    for (const auto& [base, block] : pool.blocks)
        if (!block.in_use && block.FreeDone()) idle.emplace_back(block.size, base);
    std::sort(idle.rbegin(), idle.rend());
    for (const auto& [size, base] : idle) {
        if (pool.Idle() <= keep) break;
        (void)DeviceFree(reinterpret_cast<void*>(base), false, /*pool_release=*/true);
        pool.blocks.erase(base);
        pool.reserved -= size;
    }
}

// A free block the stream may take for `need` bytes, closest in size (as CANN picks), or 0.
// Blocks more than twice the need stay for larger requests: a block is never split.
uintptr_t PickBlock(const Pool& pool, uint64_t need, const Stream* stream) {
    uintptr_t best = 0;
    uint64_t best_size = 0;
    for (const auto& [base, block] : pool.blocks) {
        if (block.in_use || block.size < need || block.size > 2 * need) continue;
        const bool same_stream = block.freed_on == stream;
        const bool done_elsewhere = block.FreeDone() && pool.allow_opportunistic != 0;
        if (!same_stream && !done_elsewhere) continue;
        if (best == 0 || block.size < best_size) {
            best = base;
            best_size = block.size;
        }
    }
    return best;
}

// Finds the pool and block of ptr among live and retired pools. Registry lock held.
Pool* OwnerLocked(uintptr_t p) {
    for (auto* set : {&Pools().live, &Pools().retired}) {
        for (Pool* pool : *set) {
            std::lock_guard lock(pool->mutex);
            auto it = pool->blocks.upper_bound(p);
            if (it == pool->blocks.begin()) continue;
            --it;
            if (p < it->first + it->second.size) return pool;
        }
    }
    return nullptr;
}

// Deletes retired pools whose blocks are all back. Registry lock held.
void SweepRetiredLocked() {
    for (auto it = Pools().retired.begin(); it != Pools().retired.end();) {
        Pool* pool = *it;
        bool empty;
        {
            std::lock_guard lock(pool->mutex);
            ReleaseIdle(*pool, 0);
            empty = pool->blocks.empty();
        }
        if (empty) {
            it = Pools().retired.erase(it);
            delete pool;
            Pools().count.fetch_sub(1, std::memory_order_relaxed);
        } else {
            ++it;
        }
    }
}

}  // namespace

aclError Create(aclrtMemPool* pool, const aclrtMemPoolProps* props) {
    if (aclError rc = RequireChip("aclrtMemPoolCreate")) return rc;
    if (pool == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "memPool is null");
    *pool = nullptr;
    if (props == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "poolProps is null");
    if (props->allocType != ACL_MEM_ALLOCATION_TYPE_PINNED) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "poolProps->allocType %d is not ACL_MEM_ALLOCATION_TYPE_PINNED, the only one",
                    static_cast<int>(props->allocType));
    }
    if (props->handleType != ACL_MEM_HANDLE_TYPE_NONE) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "poolProps->handleType %d is not ACL_MEM_HANDLE_TYPE_NONE: pools are not "
                    "shared between processes",
                    static_cast<int>(props->handleType));
    }
    if (props->location.type != ACL_MEM_LOCATION_TYPE_DEVICE) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "poolProps->location.type %d is not ACL_MEM_LOCATION_TYPE_DEVICE: a pool "
                    "holds device memory",
                    static_cast<int>(props->location.type));
    }
    Device* device = Runtime::Get().DeviceById(props->location.id);
    if (device == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "poolProps->location.id %u is not a device of this process (%u visible)",
                    props->location.id, Runtime::Get().DeviceCount());
    }
    if (device->accelerator() != nullptr) {
        return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "aclrtMemPoolCreate: stream-ordered pools are not supported on the %s backend "
                    "yet (docs/API_COVERAGE.md)",
                    device->accelerator()->name());
    }
    auto created = std::make_unique<Pool>();
    created->device = device;
    // 0 sets no limit of the pool's own: the device's memory is the limit.
    created->max_size = props->maxSize != 0 ? props->maxSize : UINT64_MAX;
    Registry& registry = Pools();
    std::lock_guard lock(registry.mutex);
    Pool* raw = created.release();
    registry.live.insert(raw);
    registry.count.fetch_add(1, std::memory_order_relaxed);
    *pool = raw;
    return ACL_SUCCESS;
}

aclError Destroy(aclrtMemPool handle) {
    Registry& registry = Pools();
    std::lock_guard lock(registry.mutex);
    Pool* pool = FindLocked(handle, "memPool");
    if (pool == nullptr) return ACL_ERROR_INVALID_PARAM;
    registry.live.erase(pool);
    {
        std::lock_guard pool_lock(pool->mutex);
        pool->destroyed = true;
    }
    // Blocks still taken, or whose frees have not run, go back as their frees run (at the
    // next synchronisation or pool call), as CUDA's pools do.
    registry.retired.insert(pool);
    SweepRetiredLocked();
    return ACL_SUCCESS;
}

aclError SetAttr(aclrtMemPool handle, aclrtMemPoolAttr attr, void* value) {
    Registry& registry = Pools();
    std::lock_guard lock(registry.mutex);
    Pool* pool = FindLocked(handle, "memPool");
    if (pool == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    std::lock_guard pool_lock(pool->mutex);
    auto set_switch = [&](uint32_t* field, const char* name) {
        const uint32_t v = *static_cast<const uint32_t*>(value);
        if (v > 1) {
            return Fail(ACL_ERROR_INVALID_PARAM, "%s takes a uint32_t of 1 (on) or 0 (off), not %u",
                        name, v);
        }
        *field = v;
        return ACL_SUCCESS;
    };
    auto reset_high = [&](uint64_t* high, uint64_t current, const char* name) {
        const uint64_t v = *static_cast<const uint64_t*>(value);
        if (v != 0) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "%s may only be set to 0 (which resets the mark to the current amount), "
                        "not %" PRIu64,
                        name, v);
        }
        *high = current;
        return ACL_SUCCESS;
    };
    switch (attr) {
        case ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
            return set_switch(&pool->follow_event_dependencies,
                              "ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES");
        case ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
            return set_switch(&pool->allow_opportunistic,
                              "ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC");
        case ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
            return set_switch(&pool->allow_internal_dependencies,
                              "ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES");
        case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
            pool->release_threshold = *static_cast<const uint64_t*>(value);
            return ACL_SUCCESS;
        case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
            return reset_high(&pool->reserved_high, pool->reserved,
                              "ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH");
        case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
            return reset_high(&pool->used_high, pool->used, "ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH");
        case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT:
        case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "attribute %d is read-only: read it with aclrtMemPoolGetAttr",
                        static_cast<int>(attr));
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclrtMemPoolAttr",
                static_cast<int>(attr));
}

aclError GetAttr(aclrtMemPool handle, aclrtMemPoolAttr attr, void* value) {
    Registry& registry = Pools();
    std::lock_guard lock(registry.mutex);
    Pool* pool = FindLocked(handle, "memPool");
    if (pool == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "value is null");
    std::lock_guard pool_lock(pool->mutex);
    auto put32 = [&](uint32_t v) {
        *static_cast<uint32_t*>(value) = v;
        return ACL_SUCCESS;
    };
    auto put64 = [&](uint64_t v) {
        *static_cast<uint64_t*>(value) = v;
        return ACL_SUCCESS;
    };
    switch (attr) {
        case ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
            return put32(pool->follow_event_dependencies);
        case ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
            return put32(pool->allow_opportunistic);
        case ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
            return put32(pool->allow_internal_dependencies);
        case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
            return put64(pool->release_threshold);
        case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT:
            return put64(pool->reserved);
        case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
            return put64(pool->reserved_high);
        case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
            return put64(pool->used);
        case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
            return put64(pool->used_high);
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclrtMemPoolAttr",
                static_cast<int>(attr));
}

aclError MallocAsync(void** ptr, size_t size, aclrtMemPool handle, Stream* stream) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "ptr is null");
    *ptr = nullptr;
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size is 0: allocations must be > 0");
    if (aclError refused = RefuseIfCaptured(stream, "aclrtMemPoolMallocAsync")) return refused;
    Registry& registry = Pools();
    std::lock_guard lock(registry.mutex);
    Pool* pool = FindLocked(handle, "memPool");
    if (pool == nullptr) return ACL_ERROR_INVALID_PARAM;
    Device* device = stream->context()->device();
    if (device != pool->device) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "stream %p is a stream of device %d, but memPool %p holds memory of device %d",
                    static_cast<void*>(stream), device->id(), handle, pool->device->id());
    }
    std::lock_guard pool_lock(pool->mutex);
    // A reused block has the padded size a fresh allocation of this size would have.
    const uint64_t need = (static_cast<uint64_t>(size) + 31) / 32 * 32 + 32;
    if (uintptr_t base = PickBlock(*pool, need, stream)) {
        Block& block = pool->blocks[base];
        block.in_use = true;
        pool->used += block.size;
        NoteUse(*pool);
        *ptr = reinterpret_cast<void*>(base);
        return ACL_SUCCESS;
    }
    if (pool->reserved + need > pool->max_size) ReleaseIdle(*pool, 0);  // room for a new block
    if (pool->reserved + need > pool->max_size) {
        uint64_t pending = 0;
        for (const auto& [base, block] : pool->blocks)
            if (!block.in_use && !block.FreeDone()) pending += block.size;
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "memPool %p cannot give %zu bytes: it holds %" PRIu64 " of its %" PRIu64
                    " bytes, %" PRIu64 " in use and %" PRIu64
                    " freed on streams whose frees have not run yet (synchronize those streams, "
                    "or create the pool with a larger maxSize)",
                    handle, size, pool->reserved, pool->max_size, pool->used, pending);
    }
    void* p = nullptr;
    if (aclError rc = DeviceMallocIn(stream->context(), &p, size, ACL_MEM_MALLOC_HUGE_FIRST,
                                     DeviceAllocKind::kPool, __builtin_return_address(0))) {
        return rc;
    }
    const MemRegion region = ClassifyPointer(p);
    Block block;
    block.size = region.usable;
    pool->blocks[reinterpret_cast<uintptr_t>(p)] = block;
    pool->reserved += block.size;
    pool->used += block.size;
    NoteUse(*pool);
    *ptr = p;
    return ACL_SUCCESS;
}

aclError FreeAsync(void* ptr, Stream* stream) {
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "ptr is null");
    if (aclError refused = RefuseIfCaptured(stream, "aclrtMemPoolFreeAsync")) return refused;
    Registry& registry = Pools();
    std::lock_guard lock(registry.mutex);
    const auto p = reinterpret_cast<uintptr_t>(ptr);
    Pool* pool = OwnerLocked(p);
    if (pool == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p is not memory of a stream-ordered pool (it did not come from "
                    "aclrtMemPoolMallocAsync%s)",
                    ptr,
                    ClassifyPointer(ptr).domain == MemDomain::kDevice
                        ? "; free aclrtMalloc memory with aclrtFree"
                        : "");
    }
    std::lock_guard pool_lock(pool->mutex);
    auto it = pool->blocks.upper_bound(p);
    --it;
    Block& block = it->second;
    if (it->first != p) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%p points %" PRIuPTR
                    " bytes into the pool block at %p: give back the address "
                    "aclrtMemPoolMallocAsync returned",
                    ptr, p - it->first, reinterpret_cast<void*>(it->first));
    }
    if (!block.in_use) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "double free: %p was already given back to its pool with "
                    "aclrtMemPoolFreeAsync",
                    ptr);
    }
    if (stream->context()->device() != pool->device) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "stream %p is a stream of device %d, but %p is pool memory of device %d",
                    static_cast<void*>(stream), stream->context()->device()->id(), ptr,
                    pool->device->id());
    }
    block.in_use = false;
    block.freed_on = stream;
    block.free_queue = stream->queue();
    block.free_seq = stream->Submit(cpu::MakeTask([] {}));  // its point: work before it is done
    pool->used -= block.size;
    return ACL_SUCCESS;
}

aclError TrimTo(aclrtMemPool handle, size_t min_bytes_to_keep) {
    Registry& registry = Pools();
    std::lock_guard lock(registry.mutex);
    Pool* pool = FindLocked(handle, "memPool");
    if (pool == nullptr) return ACL_ERROR_INVALID_PARAM;
    std::lock_guard pool_lock(pool->mutex);
    ReleaseIdle(*pool, min_bytes_to_keep);
    return ACL_SUCCESS;
}

void AfterSynchronize() {
    Registry& registry = Pools();
    if (registry.count.load(std::memory_order_relaxed) == 0) return;
    std::lock_guard lock(registry.mutex);
    for (Pool* pool : registry.live) {
        std::lock_guard pool_lock(pool->mutex);
        ReleaseIdle(*pool, pool->release_threshold);
    }
    SweepRetiredLocked();
}

void ForgetDevice(Device* device) {
    Registry& registry = Pools();
    if (registry.count.load(std::memory_order_relaxed) == 0) return;
    std::lock_guard lock(registry.mutex);
    for (auto* set : {&registry.live, &registry.retired}) {
        for (auto it = set->begin(); it != set->end();) {
            Pool* pool = *it;
            if (pool->device != device) {
                ++it;
                continue;
            }
            // The device's streams are finished: every block goes back, in use or not (the
            // reset frees all device memory; the pool's memory is not reported as leaked).
            for (const auto& [base, block] : pool->blocks)
                (void)DeviceFree(reinterpret_cast<void*>(base), false, /*pool_release=*/true);
            it = set->erase(it);
            delete pool;
            registry.count.fetch_sub(1, std::memory_order_relaxed);
        }
    }
}

}  // namespace openacl::mem_pool
