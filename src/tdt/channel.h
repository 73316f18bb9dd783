// TDT data channels (acltdtChannelHandle): a bounded first-in first-out queue of datasets in the
// runtime. In CANN the host sends datasets to the device (a model's data-reading operators) and
// receives what the device sends back; openacl has no such device program, so the runtime is the
// channel's device side and hands every dataset sent on a channel to a receive on that channel,
// once and in order. A send copies the items' data (host or device memory) before it returns; a
// receive gives the copies to the receiving dataset. Any threads may send and receive at once.
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_tdt.h"

namespace openacl::tdt {

// acltdtCreateChannelWithCapacity's documented capacities.
constexpr size_t kMinCapacity = 2;
constexpr size_t kMaxCapacity = 8192;
// A channel made by acltdtCreateChannel, whose device-side queue CANN sizes itself, holds this
// many datasets.
constexpr size_t kDefaultCapacity = kMaxCapacity;
// The longest name a channel with a capacity may have (CANN's queue names: 128 bytes with the
// terminating zero).
constexpr size_t kMaxNameLength = 127;

// A channel of `capacity` datasets. `sized`: made by acltdtCreateChannelWithCapacity, the kind
// whose size may be queried and which may be cleaned. nullptr after recording the failure.
acltdtChannelHandle* CreateChannel(uint32_t device, const char* name, size_t capacity, bool sized);
// Stops the channel (see StopChannel) and frees it; the datasets still in it are dropped.
aclError DestroyChannel(acltdtChannelHandle* handle);
// Wakes every blocked send and receive. From then on a send fails at once with
// ACL_ERROR_RT_QUEUE_FULL, and a receive delivers what the channel still holds, then fails at
// once with ACL_ERROR_RT_QUEUE_EMPTY.
aclError StopChannel(acltdtChannelHandle* handle);
// Drops the datasets waiting in the channel.
aclError CleanChannel(acltdtChannelHandle* handle);
aclError QueryChannelSize(const acltdtChannelHandle* handle, size_t* size);
// timeout_ms: -1 waits for room (data) for ever, 0 not at all, > 0 that many milliseconds at
// most; a send that finds no room fails with ACL_ERROR_RT_QUEUE_FULL, a receive that finds no
// data with ACL_ERROR_RT_QUEUE_EMPTY. The dataset is a live one (api/ checked).
aclError SendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset,
                    int32_t timeout_ms);
aclError ReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset,
                       int32_t timeout_ms);

}  // namespace openacl::tdt
