// Contexts: the per-thread workbench. Each device has one default context shared by the
// threads that set it; explicit contexts come from aclrtCreateContext. Every thread has at
// most one current context, which decides the device its calls act on.
#pragma once

#include <cstdint>
#include <vector>

#include "acl/acl_rt.h"

namespace openacl {

class Device;
class Stream;
struct Graveyard;

class Context {
 public:
    Context(Device* device, bool is_default, uint64_t serial)
        : device_(device), is_default_(is_default), serial_(serial) {}

    Device* device() const { return device_; }
    bool is_default() const { return is_default_; }
    uint64_t serial() const { return serial_; }

    // Lifecycle state (lifecycle mutex held).
    Stream* default_stream = nullptr;
    std::vector<Stream*> streams;  // explicit streams
    int64_t sys_params[4] = {};
    bool sys_param_set[4] = {};

 private:
    Device* device_;
    bool is_default_;
    uint64_t serial_;
};

// The calling thread's current context, or nullptr if it has none (or it was destroyed).
Context* CurrentContext();
// Like CurrentContext, but when there is none applies the configured default device
// (aclInit "defaultDevice") or records ACL_ERROR_RT_CONTEXT_NULL with advice; *rc gets the code.
Context* RequireContext(aclError* rc);
// Makes ctx (a live context) current for this thread.
void SetCurrentContext(Context* ctx);

// Creation and destruction (lifecycle mutex held).
Context* CreateContextLocked(Device* device, bool is_default);
void DestroyContextLocked(Context* ctx, Graveyard& graveyard);
// The live context behind a handle, or nullptr (lifecycle mutex held).
Context* LookupContextLocked(const void* handle);

}  // namespace openacl
