// Memory value write and wait (aclrtValueWrite, aclrtValueWait): a stream writes a 64-bit value
// into device memory; a wait holds its stream until the value there compares as asked (GEQ with
// wrap-around, EQ, AND, NOR). Writes by aclrtValueWrite wake the waits at once; anything else
// that writes device memory (a kernel, a copy) is seen by a poll every 200 microseconds while
// waits are parked.
#pragma once

#include <cstdint>

#include "acl/acl_rt.h"
#include "backend/cpu/task.h"

namespace openacl {

class Stream;

aclError ValueWrite(void* address, uint64_t value, uint32_t flag, Stream* stream);
aclError ValueWait(void* address, uint64_t value, uint32_t flag, Stream* stream);

// The checks and tasks of the two, apart (aclmdlRITaskSetParams rebuilds captured ones).
aclError CheckValueWrite(void* address, uint32_t flag, Stream* stream);
aclError CheckValueWait(void* address, uint32_t flag, Stream* stream);
cpu::Task ValueWriteTask(void* address, uint64_t value, Stream* stream);
cpu::Task ValueWaitTask(const void* address, uint64_t value, uint32_t flag, Stream* stream);

}  // namespace openacl
