// Labels (aclrtCreateLabel, aclrtSetLabel, label lists): named positions in the streams of a
// model being built, the targets of aclrtSwitchLabelByIndex. A label belongs to the context
// that made it; setting it records its stream and the position of the stream's next task.
#pragma once

#include <cstdint>
#include <vector>

#include "acl/acl_rt.h"

namespace openacl {

class Context;
class ModelRI;
class Stream;

struct Label {
    Context* context = nullptr;
    ModelRI* model = nullptr;  // set: the model whose stream holds it
    uint32_t stream = 0;       // index of that stream in the model
    uint32_t position = 0;     // the task it marks (its seq id on that stream)
};

struct LabelList {
    std::vector<Label*> labels;
};

aclError CreateLabel(Label** out);
aclError DestroyLabel(Label* label);
aclError SetLabel(Label* label, Stream* stream);
aclError CreateLabelList(Label* const* labels, size_t count, LabelList** out);
aclError DestroyLabelList(LabelList* list);
// The live object behind a handle, or nullptr with ACL_ERROR_INVALID_PARAM recorded.
Label* ResolveLabel(aclrtLabel handle, aclError* rc);
LabelList* ResolveLabelList(aclrtLabelList handle, aclError* rc);
// Where a live label points, for a model ending its build: false when the label was destroyed
// or is not set in `model`.
bool LabelTarget(const Label* label, const ModelRI* model, uint32_t* stream, uint32_t* position);

}  // namespace openacl
