#include "dvpp/chip.h"

#include "core/error.h"
#include "core/runtime.h"

namespace openacl::dvpp {

namespace {
bool StartsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}
const char* FamilyName(DvppChip chip) {
    switch (chip) {
        case DvppChip::k310:
            return "310";
        case DvppChip::k910:
            return "910";
        case DvppChip::k310P:
            return "310P";
        case DvppChip::kA2:
            return "A2/A3";
    }
    return "310P";
}
}  // namespace

DvppChip ChipOf(const std::string& soc) {
    if (StartsWith(soc, "Ascend310P")) return DvppChip::k310P;
    if (StartsWith(soc, "Ascend310B") || StartsWith(soc, "Ascend910B") ||
        StartsWith(soc, "Ascend910_93") || StartsWith(soc, "Ascend910C")) {
        return DvppChip::kA2;
    }
    if (StartsWith(soc, "Ascend310")) return DvppChip::k310;
    if (StartsWith(soc, "Ascend910")) return DvppChip::k910;
    return DvppChip::k310P;
}

DvppChip CurrentChip() {
    return ChipOf(Runtime::Get().config().soc_name);
}

bool IsAscend310B() {
    return StartsWith(Runtime::Get().config().soc_name, "Ascend310B");
}

std::string ChipName() {
    const std::string& soc = Runtime::Get().config().soc_name;
    return soc + " (" + FamilyName(ChipOf(soc)) + " rules)";
}

aclError RequireNewDvpp(const char* api, bool only_310p) {
    const DvppChip chip = CurrentChip();
    if (only_310p ? chip == DvppChip::k310P : IsNewDvpp(chip)) return ACL_SUCCESS;
    return Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "%s is not available on %s: %s", api,
                ChipName().c_str(),
                only_310p ? "only the 310P has it" : "the 310P and newer chips have it");
}

}  // namespace openacl::dvpp
