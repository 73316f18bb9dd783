// The key-value store through which the ranks of a communicator that spans processes trade
// their Gloo addresses while they connect. The root's bootstrap service keeps it: ranks of
// the root's process reach it in memory, the others over their bootstrap connection.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hccl/hccl_types.h"

namespace openacl::hccl {

// Why a store operation failed (the communicator's creation failed, the root went away, or a
// key did not appear in time).
class StoreError : public std::runtime_error {
 public:
    StoreError(HcclResult code, const std::string& why) : std::runtime_error(why), code_(code) {}
    HcclResult code() const { return code_; }

 private:
    HcclResult code_;
};

class KvStore {
 public:
    virtual ~KvStore() = default;
    // These throw StoreError.
    virtual void Set(const std::string& key, const std::vector<char>& value) = 0;
    // Waits up to timeout_ms for the key.
    virtual std::vector<char> Get(const std::string& key, int64_t timeout_ms) = 0;
    virtual void Wait(const std::vector<std::string>& keys, int64_t timeout_ms) = 0;
};

}  // namespace openacl::hccl
