// Batch copies (aclrtMemcpyBatch, aclrtMemcpyBatchAsync and their V2 forms): many copies of one
// direction, host to device or device to host, each described by an attribute (aclrtMemcpyBatch-
// Attr: where its source and destination lie) that applies to a run of them. Every copy is
// checked as aclrtMemcpy checks one; an asynchronous batch whose host side is pinned is one task
// on its stream, so a batch of N small copies costs one enqueue rather than N.
#pragma once

#include <cstddef>

#include "acl/acl_rt.h"

namespace openacl {

class Stream;

struct MemcpyBatch {
    void** dsts;
    size_t* dest_maxs;
    void** srcs;
    size_t* sizes;
    size_t count;
    aclrtMemcpyBatchAttr* attrs;
    size_t* attrs_indexes;
    size_t num_attrs;
};

// `fail_index` (may be null, for the V2 forms): the index of the copy a check refused, or
// SIZE_MAX when the error concerns no single copy. `stream`: null for the synchronous forms.
aclError CopyBatch(const MemcpyBatch& batch, size_t* fail_index, Stream* stream);

}  // namespace openacl
