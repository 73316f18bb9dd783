#include "dvpp/channel.h"

#include <atomic>

#include "core/context.h"
#include "core/error.h"

namespace openacl::dvpp {

LiveSet<acldvppChannelDesc>& ChannelDescs() {
    static auto* set = new LiveSet<acldvppChannelDesc>;
    return *set;
}

namespace {

std::atomic<uint64_t> g_next_channel_id{1};

const char* EngineName(uint32_t engine) {
    switch (engine) {
        case DVPP_CHNMODE_VPC:
            return "DVPP_CHNMODE_VPC";
        case DVPP_CHNMODE_JPEGD:
            return "DVPP_CHNMODE_JPEGD";
        case DVPP_CHNMODE_JPEGE:
            return "DVPP_CHNMODE_JPEGE";
        case DVPP_CHNMODE_PNGD:
            return "DVPP_CHNMODE_PNGD";
        default:
            return "an unknown engine";
    }
}

}  // namespace

aclError CreateChannel(acldvppChannelDesc* desc) {
    if (desc->channel_id != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channelDesc %p already describes channel %llu: destroy it with "
                    "acldvppDestroyChannel before creating it again",
                    static_cast<void*>(desc), static_cast<unsigned long long>(desc->channel_id));
    }
    aclError rc = ACL_SUCCESS;
    Context* ctx = RequireContext(&rc);
    if (ctx == nullptr) return rc;
    desc->context = ctx;
    desc->channel_id = g_next_channel_id.fetch_add(1, std::memory_order_relaxed);
    return ACL_SUCCESS;
}

aclError DestroyChannel(acldvppChannelDesc* desc) {
    if (desc->channel_id == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channelDesc %p has no channel: acldvppCreateChannel was not called or the "
                    "channel was already destroyed",
                    static_cast<void*>(desc));
    }
    desc->channel_id = 0;
    desc->context = nullptr;
    return ACL_SUCCESS;
}

aclError CheckChannelFor(const acldvppChannelDesc* desc, uint32_t engine) {
    if (desc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "channelDesc is null");
    if (!ChannelDescs().Contains(desc)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channelDesc %p is not a live acldvppChannelDesc (destroyed, or not made by "
                    "acldvppCreateChannelDesc)",
                    static_cast<const void*>(desc));
    }
    if (desc->channel_id == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channelDesc %p has no channel: call acldvppCreateChannel before submitting "
                    "tasks to it",
                    static_cast<const void*>(desc));
    }
    uint32_t modes = desc->mode == 0 ? kAllChannelModes : desc->mode;
    if ((modes & engine) == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "channel %llu was created with mode 0x%x, which does not reserve %s: add it "
                    "with acldvppSetChannelDescMode before acldvppCreateChannel",
                    static_cast<unsigned long long>(desc->channel_id), desc->mode,
                    EngineName(engine));
    }
    return ACL_SUCCESS;
}

}  // namespace openacl::dvpp
