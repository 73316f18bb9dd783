// Device variables: the address and size of a kernel's global variable, and copies into and out
// of it, at once or in stream order.
#include "core/device_variable.h"
#include "acl/acl.h"
#include "core/error.h"
#include "core/model_ri.h"
#include "core/stream.h"

using openacl::Fail;
namespace device_variable = openacl::device_variable;

namespace {

// The copy kinds a symbol copy takes: its one direction, or ACL_MEMCPY_DEFAULT.
aclError CheckKind(aclrtMemcpyKind kind, aclrtMemcpyKind direction, const char* direction_name) {
    if (kind == direction || kind == ACL_MEMCPY_DEFAULT) return ACL_SUCCESS;
    return Fail(ACL_ERROR_INVALID_PARAM,
                "kind %d is not allowed here: a symbol copy takes only %s or ACL_MEMCPY_DEFAULT",
                static_cast<int>(kind), direction_name);
}

aclError CheckTo(const void* symbol, const void* src, aclrtMemcpyKind kind) {
    if (symbol == nullptr || src == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "symbol and src must not be null: symbol is the address of a __gm__ variable");
    }
    return CheckKind(kind, ACL_MEMCPY_HOST_TO_DEVICE, "ACL_MEMCPY_HOST_TO_DEVICE");
}

aclError CheckFrom(void* dst, const void* symbol, aclrtMemcpyKind kind) {
    if (dst == nullptr || symbol == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "dst and symbol must not be null: symbol is the address of a __gm__ variable");
    }
    return CheckKind(kind, ACL_MEMCPY_DEVICE_TO_HOST, "ACL_MEMCPY_DEVICE_TO_HOST");
}

}  // namespace

aclError aclrtGetSymbolAddress(const void* symbol, void** devPtr) {
    OPENACL_API();
    if (symbol == nullptr || devPtr == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "symbol and devPtr must not be null: symbol is the address of a __gm__ "
                    "variable");
    }
    device_variable::Variable variable;
    if (aclError rc = device_variable::Resolve(symbol, &variable)) return rc;
    *devPtr = variable.address;
    return ACL_SUCCESS;
}

aclError aclrtGetSymbolSize(const void* symbol, size_t* size) {
    OPENACL_API();
    if (symbol == nullptr || size == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "symbol and size must not be null: symbol is the address of a __gm__ "
                    "variable");
    }
    device_variable::Variable variable;
    if (aclError rc = device_variable::Resolve(symbol, &variable)) return rc;
    *size = variable.size;
    return ACL_SUCCESS;
}

aclError aclrtMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                             aclrtMemcpyKind kind) {
    OPENACL_API();
    if (aclError rc = CheckTo(symbol, src, kind)) return rc;
    if (aclError rc = openacl::CheckUnsafeCall("aclrtMemcpyToSymbol")) return rc;
    return device_variable::CopyTo(symbol, src, count, offset, kind, nullptr);
}

aclError aclrtMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                  aclrtMemcpyKind kind, aclrtStream stream) {
    OPENACL_API();
    if (aclError rc = CheckTo(symbol, src, kind)) return rc;
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return device_variable::CopyTo(symbol, src, count, offset, kind, resolved);
}

aclError aclrtMemcpyFromSymbol(void* dst, size_t dstMax, const void* symbol, size_t count,
                               size_t offset, aclrtMemcpyKind kind) {
    OPENACL_API();
    if (aclError rc = CheckFrom(dst, symbol, kind)) return rc;
    if (aclError rc = openacl::CheckUnsafeCall("aclrtMemcpyFromSymbol")) return rc;
    return device_variable::CopyFrom(dst, dstMax, symbol, count, offset, kind, nullptr);
}

aclError aclrtMemcpyFromSymbolAsync(void* dst, size_t dstMax, const void* symbol, size_t count,
                                    size_t offset, aclrtMemcpyKind kind, aclrtStream stream) {
    OPENACL_API();
    if (aclError rc = CheckFrom(dst, symbol, kind)) return rc;
    aclError rc = ACL_SUCCESS;
    openacl::Stream* resolved = openacl::ResolveStream(stream, &rc);
    if (resolved == nullptr) return rc;
    return device_variable::CopyFrom(dst, dstMax, symbol, count, offset, kind, resolved);
}
