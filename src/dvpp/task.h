// DVPP work on a stream: each asynchronous call becomes one task of its stream, ordered with
// copies, kernels and models. Work that fails explains itself through the stream, and the next
// synchronisation returns its code with that explanation.
#pragma once

#include <functional>
#include <string>

#include "acl/acl_base.h"

namespace openacl {
class Stream;
}

namespace openacl::dvpp {

// Runs on a worker; returns ACL_SUCCESS or a code with *error saying what went wrong. It runs
// again at each replay of a captured model, so it must not consume or change what it captured.
using Work = std::function<aclError(std::string* error)>;

// Enqueues `work` on the stream (named after the submitting API in traces).
void Submit(Stream* stream, Work work);

}  // namespace openacl::dvpp
