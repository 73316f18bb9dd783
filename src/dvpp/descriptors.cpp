#include "dvpp/descriptors.h"

namespace openacl::dvpp {

// Never destroyed: a descriptor may be released by a static destructor after main returns.
#define OPENACL_DVPP_LIVE_SET(Name, Type)     \
    LiveSet<Type>& Name() {                   \
        static auto* set = new LiveSet<Type>; \
        return *set;                          \
    }

OPENACL_DVPP_LIVE_SET(PicDescs, acldvppPicDesc)
OPENACL_DVPP_LIVE_SET(BatchPicDescs, acldvppBatchPicDesc)
OPENACL_DVPP_LIVE_SET(RoiConfigs, acldvppRoiConfig)
OPENACL_DVPP_LIVE_SET(ResizeConfigs, acldvppResizeConfig)
OPENACL_DVPP_LIVE_SET(JpegeConfigs, acldvppJpegeConfig)
OPENACL_DVPP_LIVE_SET(BorderConfigs, acldvppBorderConfig)
OPENACL_DVPP_LIVE_SET(LutMaps, acldvppLutMap)
OPENACL_DVPP_LIVE_SET(Hists, acldvppHist)
OPENACL_DVPP_LIVE_SET(StreamDescs, acldvppStreamDesc)

#undef OPENACL_DVPP_LIVE_SET

}  // namespace openacl::dvpp
