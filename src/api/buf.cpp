// Message buffers (aclrtAllocBuf ...): the objects acl_tdt_queue.h's queues carry; tdt/mbuf.h.
#include "acl/acl.h"
#include "core/error.h"
#include "tdt/mbuf.h"

namespace tdt = openacl::tdt;

aclError aclrtAllocBuf(aclrtMbuf* buf, size_t size) {
    OPENACL_API();
    return tdt::AllocMbuf(buf, size);
}

aclError aclrtFreeBuf(aclrtMbuf buf) {
    OPENACL_API();
    return tdt::FreeMbuf(buf);
}

aclError aclrtGetBufData(const aclrtMbuf buf, void** dataPtr, size_t* size) {
    OPENACL_API();
    return tdt::GetMbufData(buf, dataPtr, size);
}

aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t* len) {
    OPENACL_API();
    return tdt::GetMbufDataLen(buf, len);
}

aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len) {
    OPENACL_API();
    return tdt::SetMbufDataLen(buf, len);
}

aclError aclrtGetBufUserData(const aclrtMbuf buf, void* dataPtr, size_t size, size_t offset) {
    OPENACL_API();
    return tdt::GetMbufUserData(buf, dataPtr, size, offset);
}

aclError aclrtSetBufUserData(aclrtMbuf buf, const void* dataPtr, size_t size, size_t offset) {
    OPENACL_API();
    return tdt::SetMbufUserData(buf, dataPtr, size, offset);
}

aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf* newBuf) {
    OPENACL_API();
    return tdt::CopyMbufRef(buf, newBuf);
}

aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf) {
    OPENACL_API();
    return tdt::AppendMbufChain(headBuf, buf);
}

aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t* num) {
    OPENACL_API();
    return tdt::GetMbufChainNum(headBuf, num);
}

aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf* buf) {
    OPENACL_API();
    return tdt::GetMbufFromChain(headBuf, index, buf);
}
