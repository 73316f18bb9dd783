// Labels and stream switching inside built models (aclrtCreateLabel, aclrtSetLabel, label
// lists, aclrtSwitchLabelByIndex, aclrtActiveStream, aclrtSwitchStream). core/label.h and
// core/model_ri_flow.cpp have the design.
#include <vector>

#include "acl/acl.h"
#include "core/error.h"
#include "core/label.h"
#include "core/model_ri.h"
#include "core/stream.h"

using openacl::Fail;
using openacl::Label;
using openacl::LabelList;
using openacl::Stream;

namespace {

// CANN's limit on the labels of one list.
constexpr size_t kMaxListLabels = 65535;

}  // namespace

aclError aclrtCreateLabel(aclrtLabel* label) {
    OPENACL_API();
    if (label == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "label is null");
    Label* created = nullptr;
    if (aclError rc = openacl::CreateLabel(&created)) return rc;
    *label = created;
    return ACL_SUCCESS;
}

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Label* resolved = openacl::ResolveLabel(label, &rc);
    if (resolved == nullptr) return rc;
    Stream* target = openacl::ResolveStream(stream, &rc);
    if (target == nullptr) return rc;
    return openacl::SetLabel(resolved, target);
}

aclError aclrtDestroyLabel(aclrtLabel label) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    Label* resolved = openacl::ResolveLabel(label, &rc);
    if (resolved == nullptr) return rc;
    return openacl::DestroyLabel(resolved);
}

aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num, aclrtLabelList* labelList) {
    OPENACL_API();
    if (labels == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "labels is null");
    if (labelList == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "labelList is null");
    if (num == 0 || num > kMaxListLabels) {
        return Fail(ACL_ERROR_INVALID_PARAM, "num %zu is outside 1 to %zu", num, kMaxListLabels);
    }
    std::vector<Label*> resolved(num);
    for (size_t i = 0; i < num; ++i) {
        aclError rc = ACL_SUCCESS;
        resolved[i] = openacl::ResolveLabel(labels[i], &rc);
        if (resolved[i] == nullptr) return rc;
    }
    LabelList* created = nullptr;
    if (aclError rc = openacl::CreateLabelList(resolved.data(), num, &created)) return rc;
    *labelList = created;
    return ACL_SUCCESS;
}

aclError aclrtDestroyLabelList(aclrtLabelList labelList) {
    OPENACL_API();
    aclError rc = ACL_SUCCESS;
    LabelList* resolved = openacl::ResolveLabelList(labelList, &rc);
    if (resolved == nullptr) return rc;
    return openacl::DestroyLabelList(resolved);
}

aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue, aclrtLabelList labelList,
                                 aclrtStream stream) {
    OPENACL_API();
    if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "ptr is null");
    aclError rc = ACL_SUCCESS;
    LabelList* list = openacl::ResolveLabelList(labelList, &rc);
    if (list == nullptr) return rc;
    Stream* target = openacl::ResolveStream(stream, &rc);
    if (target == nullptr) return rc;
    return openacl::SwitchLabel(static_cast<const uint32_t*>(ptr), maxValue, list->labels, target);
}

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) {
    OPENACL_API();
    if (activeStream == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "activeStream is null");
    aclError rc = ACL_SUCCESS;
    Stream* active = openacl::ResolveStream(activeStream, &rc);
    if (active == nullptr) return rc;
    Stream* target = openacl::ResolveStream(stream, &rc);
    if (target == nullptr) return rc;
    return openacl::ActivateStream(active, target);
}

aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond, void* rightValue,
                           aclrtCompareDataType dataType, aclrtStream trueStream,
                           aclrtStream falseStream, aclrtStream stream) {
    OPENACL_API();
    if (leftValue == nullptr || rightValue == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "leftValue and rightValue must not be null");
    }
    if (cond < ACL_RT_EQUAL || cond > ACL_RT_LESS_OR_EQUAL) {
        return Fail(ACL_ERROR_INVALID_PARAM, "cond %d is not an aclrtCondition",
                    static_cast<int>(cond));
    }
    if (dataType != ACL_RT_SWITCH_INT32 && dataType != ACL_RT_SWITCH_INT64) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dataType %d is neither ACL_RT_SWITCH_INT32 nor ACL_RT_SWITCH_INT64",
                    static_cast<int>(dataType));
    }
    if (falseStream != nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "falseStream is reserved and must be NULL: when the condition fails, the "
                    "stream goes on");
    }
    if (trueStream == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "trueStream is null");
    aclError rc = ACL_SUCCESS;
    Stream* taken = openacl::ResolveStream(trueStream, &rc);
    if (taken == nullptr) return rc;
    Stream* target = openacl::ResolveStream(stream, &rc);
    if (target == nullptr) return rc;
    return openacl::SwitchStream(leftValue, cond, rightValue, dataType, taken, target);
}
