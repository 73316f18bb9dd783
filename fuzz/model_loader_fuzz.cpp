// Fuzz target: every model-loading entry point on arbitrary bytes. Whatever the bytes, each
// call must return an error code (or load, and then unload cleanly): no crash, hang or leak.
#include <cstddef>
#include <cstdint>

#include "acl/acl.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static bool ready = [] {
        aclInit(nullptr);
        return aclrtSetDevice(0) == ACL_SUCCESS;
    }();
    if (!ready || size == 0) return 0;
    size_t work = 0, weight = 0;
    aclmdlQuerySizeFromMem(data, size, &work, &weight);
    aclmdlDesc* desc = aclmdlCreateDesc();
    if (aclmdlGetDescFromMem(desc, data, size) == ACL_SUCCESS) {
        for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i) {
            aclmdlIODims dims;
            aclmdlGetInputDims(desc, i, &dims);
            aclmdlGetInputSizeByIndex(desc, i);
        }
    }
    aclmdlDestroyDesc(desc);
    uint32_t id = 0;
    if (aclmdlLoadFromMem(data, size, &id) == ACL_SUCCESS) aclmdlUnload(id);
    aclGetRecentErrMsg();  // keep the per-thread message list from growing
    return 0;
}
