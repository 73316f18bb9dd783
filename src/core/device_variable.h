// Device variables: the global variables of Ascend C kernels (`__gm__ int32_t values[8];`),
// which kernels read and write and the host reaches with aclrtGetSymbolAddress,
// aclrtBinaryGetGlobal and aclrtMemcpyToSymbol/FromSymbol. On the CPU backend a kernel's
// globals are those of the host image it was compiled into (the program, a library, a loaded
// kernel binary): one copy, which the kernels of every device use. Once the program asks for
// one, its bytes are device memory of the current device (MemRegion::variable), so they work
// wherever device memory does: copies, fills, kernel arguments. A kernel binary's variables
// stop being device memory when it is unloaded; the program's own stay for the process's life.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "acl/acl_rt.h"

namespace openacl {

class KernelBinary;
class Stream;
struct MemRegion;

namespace device_variable {

struct Variable {
    void* address = nullptr;
    uint64_t size = 0;
    bool writable = true;  // false for a const variable
    std::string name;      // its C++ name, for messages
};

// The device variable `symbol` is the address of.
aclError Resolve(const void* symbol, Variable* out);
// aclrtBinaryGetGlobal: the global of `binary` called `name` (its symbol name, its C++ name, or
// the last part of that).
aclError Find(KernelBinary* binary, const char* name, Variable* out);

// aclrtMemcpyToSymbol(Async) and aclrtMemcpyFromSymbol(Async): `count` bytes at `offset` into
// the variable, with aclrtMemcpy's checks and, on a stream, aclrtMemcpyAsync's ordering
// (stream nullptr: copied before the call returns).
aclError CopyTo(const void* symbol, const void* src, size_t count, size_t offset,
                aclrtMemcpyKind kind, Stream* stream);
aclError CopyFrom(void* dst, size_t dst_max, const void* symbol, size_t count, size_t offset,
                  aclrtMemcpyKind kind, Stream* stream);

// ClassifyPointer's part: the variable holding p, if the program asked for it.
bool Classify(const void* p, MemRegion* region);
// "the 32-byte device variable values of <origin> at 0x..." for such an address, else "".
std::string Describe(const void* p);
// aclrtBinaryUnLoad: the binary's variables stop being device memory.
void ForgetBinary(const KernelBinary* binary);

}  // namespace device_variable
}  // namespace openacl
