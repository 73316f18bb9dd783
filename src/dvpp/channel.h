// Image-processing channels (acldvppChannelDesc): which engines a channel reserves and the
// parameters they take. A channel exists between acldvppCreateChannel and acldvppDestroyChannel;
// every image task names one and is refused when it is not created or lacks the engine.
#pragma once

#include <cstdint>

#include "acl/ops/acl_dvpp.h"
#include "core/live_set.h"

struct acldvppChannelDesc {
    uint32_t mode = 0;  // acldvppChannelMode bits; 0 = all engines
    bool mode_set = false;
    uint64_t channel_id = 0;  // non-zero while the channel exists
    void* context = nullptr;  // the context it was created in
    uint32_t csc_matrix = ACL_DVPP_CSC_MATRIX_BT601_WIDE;
    // ACL_DVPP_CHANNEL_WIDTH/HEIGHT_UINT32 (JPEGE only); 0 until set: the chip's largest
    // (dvpp::JpegeMaxSide), which is also the default the getter reports.
    uint32_t jpege_width = 0;
    uint32_t jpege_height = 0;
    int32_t jpegd_precision = ACL_YUVOUT_ALIGN_DOWN_COMPAT;
};

namespace openacl::dvpp {

LiveSet<acldvppChannelDesc>& ChannelDescs();

constexpr uint32_t kAllChannelModes =
    DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_JPEGE | DVPP_CHNMODE_PNGD;

// Gives the channel an id; fails when it already exists.
aclError CreateChannel(acldvppChannelDesc* desc);
aclError DestroyChannel(acldvppChannelDesc* desc);

// For tasks: the descriptor must be live, its channel created, and `engine` (one
// acldvppChannelMode bit) among its modes. Records the failure for the current API.
aclError CheckChannelFor(const acldvppChannelDesc* desc, uint32_t engine);

}  // namespace openacl::dvpp
