// Operator handles (aclopHandle): a plan made once (aclopCreateHandle, aclopCreateHandleForCast,
// aclblasCreateHandleFor*) and run on new buffers by aclopExecWithHandle. Handles are
// registered, so a destroyed or foreign pointer is refused instead of followed. Also the guard
// that turns the op layer's OpError into the API's Fail.
#pragma once

#include <memory>
#include <new>

#include "core/error.h"
#include "op/op_plan.h"

struct aclopHandle {
    std::shared_ptr<openacl::op::Plan> plan;
};

namespace openacl::op {

aclopHandle* NewHandle(std::shared_ptr<Plan> plan);
// Releases a registered handle; false when the pointer is not one.
bool DeleteHandle(aclopHandle* handle);
bool IsLiveHandle(const aclopHandle* handle);

// Runs f (returning aclError) and reports an OpError it throws with Fail; one without a
// message was recorded already (a failed launch) and only gives its code.
template <class F>
aclError Guard(F&& f) {
    try {
        return f();
    } catch (const OpError& e) {
        if (e.message.empty()) return e.code;
        return Fail(e.code, "%s", e.message.c_str());
    } catch (const std::bad_alloc&) {
        return Fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
    }
}

}  // namespace openacl::op
