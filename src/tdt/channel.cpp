#include "tdt/channel.h"

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/memory.h"
#include "tdt/data_item.h"
#include "tdt/dataset.h"

namespace openacl::tdt {
namespace {

// One item of a dataset in flight: what the receive rebuilds the item from.
struct ItemCopy {
    acltdtTensorType type = ACL_TENSOR_DATA_UNDEFINED;
    std::vector<int64_t> dims;
    aclDataType data_type = ACL_DT_UNDEFINED;
    std::unique_ptr<uint8_t[]> bytes;
    size_t size = 0;
};
using Message = std::vector<ItemCopy>;

class Channel {
 public:
    enum class Outcome { kDone, kTimedOut, kStopped };

    Channel(uint32_t device, std::string name, size_t capacity, bool sized)
        : device_(device), name_(std::move(name)), capacity_(capacity), sized_(sized) {}

    uint32_t device() const { return device_; }
    const std::string& name() const { return name_; }
    size_t capacity() const { return capacity_; }
    bool sized() const { return sized_; }

    // Appends `message` (moved from only on kDone) once there is room.
    Outcome Push(Message& message, int32_t timeout_ms) {
        std::unique_lock lock(mutex_);
        if (!Wait(lock, room_, timeout_ms, [&] { return stopped_ || queue_.size() < capacity_; }))
            return Outcome::kTimedOut;
        if (stopped_) return Outcome::kStopped;
        queue_.push_back(std::move(message));
        data_.notify_one();
        return Outcome::kDone;
    }

    // Takes the oldest message once there is one. A stopped channel still hands out what it
    // holds, so nothing sent before the stop is lost.
    Outcome Pop(Message* message, int32_t timeout_ms) {
        std::unique_lock lock(mutex_);
        if (!Wait(lock, data_, timeout_ms, [&] { return stopped_ || !queue_.empty(); }))
            return Outcome::kTimedOut;
        if (queue_.empty()) return Outcome::kStopped;
        *message = std::move(queue_.front());
        queue_.pop_front();
        room_.notify_one();
        return Outcome::kDone;
    }

    void Stop() {
        std::lock_guard lock(mutex_);
        stopped_ = true;
        room_.notify_all();
        data_.notify_all();
    }

    void Clean() {
        std::deque<Message> dropped;
        std::lock_guard lock(mutex_);
        dropped.swap(queue_);
        room_.notify_all();
    }

    size_t Size() {
        std::lock_guard lock(mutex_);
        return queue_.size();
    }

 private:
    // Waits until ready() or for timeout_ms (-1: for ever); true when ready.
    template <class Ready>
    static bool Wait(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                     int32_t timeout_ms, Ready ready) {
        if (ready()) return true;
        if (timeout_ms == 0) return false;
        // The wait may last forever and holds no runtime object (the caller keeps the channel
        // alive), so it must not keep destroyed streams and contexts from being freed.
        lock.unlock();
        UnpinnedWait unpinned;
        lock.lock();
        if (timeout_ms < 0) {
            cv.wait(lock, ready);
            return true;
        }
        return cv.wait_until(
            lock, std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms), ready);
    }

    const uint32_t device_;
    const std::string name_;
    const size_t capacity_;
    const bool sized_;
    std::mutex mutex_;
    std::condition_variable room_;  // a push may find room
    std::condition_variable data_;  // a pop may find data
    std::deque<Message> queue_;
    bool stopped_ = false;
};

// The live channels by handle (the channel's address). A call holds its own reference for as
// long as it uses the channel, so a destroy cannot free one under a blocked send or receive.
struct Registry {
    std::mutex mutex;
    std::unordered_map<const void*, std::shared_ptr<Channel>> live;
};
Registry& Channels() {
    static auto* registry = new Registry;  // outlives static destructors
    return *registry;
}

std::shared_ptr<Channel> Find(const acltdtChannelHandle* handle, aclError* rc) {
    if (handle == nullptr) {
        *rc = Fail(ACL_ERROR_INVALID_PARAM, "handle is null");
        return nullptr;
    }
    Registry& registry = Channels();
    {
        std::lock_guard lock(registry.mutex);
        auto it = registry.live.find(handle);
        if (it != registry.live.end()) return it->second;
    }
    *rc = Fail(ACL_ERROR_INVALID_PARAM,
               "handle %p is not a live channel (destroyed already, or not made by "
               "acltdtCreateChannel or acltdtCreateChannelWithCapacity)",
               static_cast<const void*>(handle));
    return nullptr;
}

// How long a send or receive waited, for its message.
std::string WaitedFor(int32_t timeout_ms) {
    if (timeout_ms == 0) return " (timeout 0: no wait)";
    return " and stayed so for the timeout of " + std::to_string(timeout_ms) + " ms";
}

// Copies `dataset`'s items for the channel: what CANN moves to the device before the send
// returns, so the program may reuse its buffers at once.
aclError CopyDataset(const acltdtDataset& dataset, Message* message) {
    if (dataset.items.empty()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataset %p holds no items: a send carries at least one (acltdtAddDataItem)",
                    static_cast<const void*>(&dataset));
    }
    message->reserve(dataset.items.size());
    for (size_t i = 0; i < dataset.items.size(); ++i) {
        const acltdtDataItem* item = dataset.items[i];
        if (!IsLiveDataItem(item)) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "item %zu of dataset %p (%p) was destroyed after it was added", i,
                        static_cast<const void*>(&dataset), static_cast<const void*>(item));
        }
        if (item->type != ACL_TENSOR_DATA_TENSOR && item->type != ACL_TENSOR_DATA_END_OF_SEQUENCE &&
            item->type != ACL_TENSOR_DATA_ABNORMAL) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "item %zu is of type %s: a send carries ACL_TENSOR_DATA_TENSOR, "
                        "ACL_TENSOR_DATA_END_OF_SEQUENCE or ACL_TENSOR_DATA_ABNORMAL items",
                        i, TensorTypeName(item->type));
        }
        ItemCopy copy;
        copy.type = item->type;
        copy.dims = item->dims;
        copy.data_type = item->data_type;
        copy.size = item->size;
        if (item->size > 0) {
            copy.bytes.reset(new (std::nothrow) uint8_t[item->size]);
            if (copy.bytes == nullptr) {
                return Fail(ACL_ERROR_BAD_ALLOC, "no host memory for the %zu bytes of item %zu",
                            item->size, i);
            }
            if (MemoryOf(item->data) == acltdtDataset::Memory::kDevice) {
                // Checked against the allocation, and read through the accelerator if the
                // device memory is not the host's.
                if (aclError rc = Memcpy(copy.bytes.get(), item->size, item->data, item->size,
                                         ACL_MEMCPY_DEVICE_TO_HOST)) {
                    return rc;
                }
            } else {
                std::memcpy(copy.bytes.get(), item->data, item->size);
            }
        }
        message->push_back(std::move(copy));
    }
    return ACL_SUCCESS;
}

// Gives the message's items to `dataset`, replacing what an earlier receive left there.
aclError Deliver(Message& message, acltdtDataset* dataset) {
    ClearReceived(dataset);
    dataset->received = true;
    dataset->memory = acltdtDataset::Memory::kHost;
    try {
        dataset->items.reserve(message.size());
    } catch (const std::bad_alloc&) {
        return Fail(ACL_ERROR_BAD_ALLOC, "no host memory for the %zu items received",
                    message.size());
    }
    for (ItemCopy& copy : message) {
        acltdtDataItem* item = NewDataItem();
        if (item == nullptr) {
            return Fail(ACL_ERROR_BAD_ALLOC, "no host memory for the items received");
        }
        item->type = copy.type;
        item->dims = std::move(copy.dims);
        item->data_type = copy.data_type;
        item->owned = std::move(copy.bytes);
        item->data = item->owned.get();
        item->size = copy.size;
        item->owner = dataset;
        dataset->items.push_back(item);
    }
    return ACL_SUCCESS;
}

}  // namespace

acltdtChannelHandle* CreateChannel(uint32_t device, const char* name, size_t capacity, bool sized) {
    std::shared_ptr<Channel> channel;
    try {
        channel = std::make_shared<Channel>(device, name, capacity, sized);
        Registry& registry = Channels();
        std::lock_guard lock(registry.mutex);
        registry.live.emplace(channel.get(), channel);
    } catch (const std::bad_alloc&) {
        Fail(ACL_ERROR_BAD_ALLOC, "no host memory for channel \"%s\"", name);
        return nullptr;
    }
    return reinterpret_cast<acltdtChannelHandle*>(channel.get());
}

aclError DestroyChannel(acltdtChannelHandle* handle) {
    aclError rc = ACL_SUCCESS;
    std::shared_ptr<Channel> channel = Find(handle, &rc);
    if (channel == nullptr) return rc;
    {
        Registry& registry = Channels();
        std::lock_guard lock(registry.mutex);
        // Another thread may have destroyed it since Find: only one destroy succeeds.
        if (registry.live.erase(handle) == 0) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "handle %p is not a live channel (destroyed "
                        "already)",
                        static_cast<const void*>(handle));
        }
    }
    // A program that destroys without stopping first must not leave threads blocked for ever;
    // they return with the stop's codes and drop their references.
    channel->Stop();
    return ACL_SUCCESS;
}

aclError StopChannel(acltdtChannelHandle* handle) {
    aclError rc = ACL_SUCCESS;
    std::shared_ptr<Channel> channel = Find(handle, &rc);
    if (channel == nullptr) return rc;
    channel->Stop();
    return ACL_SUCCESS;
}

aclError CleanChannel(acltdtChannelHandle* handle) {
    aclError rc = ACL_SUCCESS;
    std::shared_ptr<Channel> channel = Find(handle, &rc);
    if (channel == nullptr) return rc;
    if (!channel->sized()) {
        return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "channel \"%s\" was made by acltdtCreateChannel: only a channel made by "
                    "acltdtCreateChannelWithCapacity may be cleaned",
                    channel->name().c_str());
    }
    channel->Clean();
    return ACL_SUCCESS;
}

aclError QueryChannelSize(const acltdtChannelHandle* handle, size_t* size) {
    aclError rc = ACL_SUCCESS;
    std::shared_ptr<Channel> channel = Find(handle, &rc);
    if (channel == nullptr) return rc;
    if (!channel->sized()) {
        return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "channel \"%s\" was made by acltdtCreateChannel: only a channel made by "
                    "acltdtCreateChannelWithCapacity answers its size",
                    channel->name().c_str());
    }
    *size = channel->Size();
    return ACL_SUCCESS;
}

aclError SendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset,
                    int32_t timeout_ms) {
    aclError rc = ACL_SUCCESS;
    std::shared_ptr<Channel> channel = Find(handle, &rc);
    if (channel == nullptr) return rc;
    Channel::Outcome outcome = Channel::Outcome::kDone;
    try {
        Message message;
        if ((rc = CopyDataset(*dataset, &message)) != ACL_SUCCESS) return rc;
        outcome = channel->Push(message, timeout_ms);
    } catch (const std::bad_alloc&) {
        return Fail(ACL_ERROR_BAD_ALLOC, "no host memory for the copy of dataset %p",
                    static_cast<const void*>(dataset));
    }
    switch (outcome) {
        case Channel::Outcome::kDone:
            return ACL_SUCCESS;
        case Channel::Outcome::kTimedOut:
            // Routine for a producer that polls, as CANN treats it: logged at INFO.
            return FailQuietly(ACL_ERROR_RT_QUEUE_FULL,
                               "channel \"%s\" of device %u is full (%zu datasets)%s",
                               channel->name().c_str(), channel->device(), channel->capacity(),
                               WaitedFor(timeout_ms).c_str());
        case Channel::Outcome::kStopped:
            break;
    }
    return FailQuietly(ACL_ERROR_RT_QUEUE_FULL,
                       "channel \"%s\" of device %u was stopped (acltdtStopChannel or "
                       "acltdtDestroyChannel): it takes no more datasets",
                       channel->name().c_str(), channel->device());
}

aclError ReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset,
                       int32_t timeout_ms) {
    aclError rc = ACL_SUCCESS;
    std::shared_ptr<Channel> channel = Find(handle, &rc);
    if (channel == nullptr) return rc;
    // Checked before anything is taken from the channel, so a refused receive loses nothing.
    if (!dataset->received && !dataset->items.empty()) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataset %p holds %zu item(s) the program added: receive into an empty "
                    "dataset, or into one an earlier receive filled",
                    static_cast<const void*>(dataset), dataset->items.size());
    }
    Message message;
    switch (channel->Pop(&message, timeout_ms)) {
        case Channel::Outcome::kDone:
            return Deliver(message, dataset);
        case Channel::Outcome::kTimedOut:
            return FailQuietly(ACL_ERROR_RT_QUEUE_EMPTY, "channel \"%s\" of device %u is empty%s",
                               channel->name().c_str(), channel->device(),
                               WaitedFor(timeout_ms).c_str());
        case Channel::Outcome::kStopped:
            break;
    }
    return FailQuietly(ACL_ERROR_RT_QUEUE_EMPTY,
                       "channel \"%s\" of device %u was stopped (acltdtStopChannel or "
                       "acltdtDestroyChannel) and holds no more datasets",
                       channel->name().c_str(), channel->device());
}

}  // namespace openacl::tdt
