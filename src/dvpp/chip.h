// The DVPP rule family of the emulated chip (openacl.soc_name / OPENACL_SOC_NAME). Huawei's
// documentation states DVPP limits per product family: the 310 and 910 share one set (the
// header's own comments), the 310P loosens several of them, and the A2/A3 class (310B, 910B,
// 910_93) loosens more.
#pragma once

#include <string>

#include "acl/acl_base.h"

namespace openacl::dvpp {

enum class DvppChip { k310, k910, k310P, kA2 };

// The family of a soc name: "Ascend310P*" is 310P; "Ascend310B*", "Ascend910B*", "Ascend910_93*"
// and later parts are A2/A3; other "Ascend310*" is 310 and other "Ascend910*" is 910. Names
// this table does not know get the 310P rules.
DvppChip ChipOf(const std::string& soc_name);

// The configured chip's family; the config is fixed once aclInit has run.
DvppChip CurrentChip();

// The Atlas 200I/500 A2 (Ascend310B): an A2/A3-class chip whose JPEGE takes 16384 a side.
bool IsAscend310B();

// For messages: "Ascend310P3 (310P rules)".
std::string ChipName();

// 310P and the A2/A3 class: the newer DVPP, whose rules differ from the 310/910 ones.
inline bool IsNewDvpp(DvppChip chip) {
    return chip == DvppChip::k310P || chip == DvppChip::kA2;
}

// For the functions the 310/910 lack (acl_dvpp reference 6.11): ACL_ERROR_FEATURE_UNSUPPORTED,
// recorded for `api`, when the emulated chip is not one of those that have it. `only_310p` is
// for acldvppVpcPyrDownAsync, which only the 310P has.
aclError RequireNewDvpp(const char* api, bool only_310p = false);

}  // namespace openacl::dvpp
