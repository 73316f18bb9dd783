// What openacl writes into HcclRootInfo's 4108 opaque bytes: where the root listens, which
// process made it (ranks of that process join through memory, others through the network),
// and the communicator's identity, which is also its default name.
#pragma once

#include <cstdint>

#include "hccl/hccl_types.h"

namespace openacl::hccl {

struct RootInfoData {
    char magic[8];         // kRootInfoMagic
    uint32_t version;      // kRootInfoVersion
    uint32_t port;         // the root's listening port (0: none)
    char host[64];         // the root's address, as text
    char identifier[128];  // "<host>_<port>_<pid>_<serial>": unique, the default comm name
    uint64_t process_key;  // the process that made it (ProcessKey())
    uint64_t session;      // its serial in that process
    int32_t device;        // the root's device when it was made
};
static_assert(sizeof(RootInfoData) <= sizeof(HcclRootInfo::internal), "fits the root info");

inline constexpr char kRootInfoMagic[8] = {'O', 'A', 'C', 'L', 'H', 'C', 'C', 'L'};
inline constexpr uint32_t kRootInfoVersion = 1;

// Identifies this process among all processes of all machines (boot id, pid, start time), so
// a root info copied to another process is recognised as foreign even where pids repeat.
uint64_t ProcessKey();

// Reads a root info; false when the bytes were not written by HcclGetRootInfo.
bool ReadRootInfo(const HcclRootInfo& info, RootInfoData* data);
void WriteRootInfo(const RootInfoData& data, HcclRootInfo* info);

}  // namespace openacl::hccl
