// Floating-point overflow detection (aclrtSetStreamOverflowSwitch and the status calls
// aclrtGetOverflowStatus, aclrtGetFloatOverflowStatus, aclrtNpuGetFloatOverFlowStatus, their
// resets, and aclrtCtxGetFloatOverflowAddr).
//
// On a CPU a task "overflows" when it is enqueued on a stream whose overflow switch is on and
//  - a kernel launch raises the IEEE overflow, divide-by-zero or invalid-operation flag on any
//    thread that runs one of its blocks (fenv, cleared before and read after each block), or
//  - a BLAS product or a model execution leaves an infinity or a NaN in its result (those
//    compute on OpenMP threads whose flags the stream's worker cannot see, so their outputs are
//    scanned instead).
// What was seen is kept per device (kOverflow, kInvalid) and in the context's overflow word
// (aclrtCtxGetFloatOverflowAddr); the status calls are stream tasks that copy it into device
// memory or clear it. On Atlas A2/A3/950 the status is process-wide, as CANN documents: a query
// sees every device's, a reset clears them all. Streams with the switch off pay one relaxed
// load per enqueue. docs/ARCHITECTURE.md, "Floating-point overflow", says more.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "acl/acl_rt.h"

namespace openacl {

class Context;
class Stream;

namespace overflow {

// Status bits (the first 32-bit word of a status; 0 = no overflow).
inline constexpr uint32_t kOverflow = 1;  // a result overflowed to infinity (or x / 0)
inline constexpr uint32_t kInvalid = 2;   // an invalid operation (0 / 0, inf - inf): NaN
// Bytes a status query writes (CANN: fixed at 64).
inline constexpr uint64_t kStatusBytes = 64;

// Whether the tasks enqueued on `stream` now are watched (its overflow switch), read on the
// submitting thread.
bool Watched(Stream& stream);

// The calling thread's IEEE flags as status bits, and their clearing.
uint32_t RaisedFlags();
void ClearFlags();

// Around one block of a watched launch: clears the thread's flags, then adds what the block
// raised to *into. Does nothing when `on` is false.
class BlockProbe {
 public:
    BlockProbe(bool on, std::atomic<uint32_t>* into) : into_(on ? into : nullptr) {
        if (into_ != nullptr) ClearFlags();
    }
    ~BlockProbe() {
        if (into_ == nullptr) return;
        if (const uint32_t raised = RaisedFlags())
            into_->fetch_or(raised, std::memory_order_relaxed);
    }
    BlockProbe(const BlockProbe&) = delete;
    BlockProbe& operator=(const BlockProbe&) = delete;

 private:
    std::atomic<uint32_t>* into_;
};

// Status bits for the infinities and NaNs among `count` elements of `type` (ACL_FLOAT,
// ACL_FLOAT16, ACL_BF16, ACL_DOUBLE; other types never overflow), `stride` elements apart.
uint32_t ScanNonFinite(const void* data, aclDataType type, uint64_t count, int64_t stride = 1);
// The same over a matrix of rows x cols elements, row_stride and col_stride elements apart.
uint32_t ScanMatrix(const void* data, aclDataType type, int64_t rows, int64_t cols,
                    int64_t row_stride, int64_t col_stride);

// Records what a watched task of `stream` raised (on the worker, when it ends). Nothing to do
// for 0.
void Note(Stream* stream, uint32_t flags);

// The stream tasks: copy the status into `out` (kStatusBytes of live device memory), or clear
// it. `api` names the call in messages.
aclError EnqueueGetStatus(void* out, uint64_t size, Stream* stream, const char* api);
aclError EnqueueResetStatus(Stream* stream);

// The context's overflow word: device memory (kStatusBytes), made on first request and kept
// until aclFinalize. The runtime adds what the context's watched tasks raise; kernels given the
// address may write a non-zero value themselves; status queries include it.
aclError ContextOverflowAddress(Context* ctx, void** out);

}  // namespace overflow
}  // namespace openacl
