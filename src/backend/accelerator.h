// The operations a device needs when its work runs on an accelerator (the CUDA backend) rather
// than on the CPU executor: a table filled by the backend, as in PoCL's driver table. core/
// holds an Accelerator per device and a Lane per stream; on the CPU backend both are absent and
// the CPU executor (backend/cpu/executor.h) runs everything.
//
// The backend knows nothing of aclError: failures come back as the backend's own status code
// (non-zero) plus StatusText(), which core turns into the documented code and a message.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/cpu/executor.h"
#include "backend/cpu/task.h"
#include "backend/device_memory.h"

namespace openacl::backend {

class Lane;

// A device kernel loaded from a binary (cubin, fatbin, PTX).
struct DeviceKernel {
    void* function = nullptr;    // the backend's handle (CUfunction)
    uint32_t block_threads = 1;  // threads per block: the binary's launch bounds, else 1
    uint32_t param_bytes = 0;    // the kernel's parameter block size; 0 when unknown
};

// A timing/ordering marker in a lane (CUDA event).
class DeviceEvent {
 public:
    virtual ~DeviceEvent() = default;
    virtual int32_t Record(Lane& lane) = 0;
    // Makes `lane` wait, on the device, until the last record has been reached.
    virtual int32_t EnqueueWait(Lane& lane) = 0;
    virtual bool Query() = 0;
    virtual cpu::WaitStatus Synchronize(std::chrono::nanoseconds timeout) = 0;
    // Host clock (cpu::NowNs) at which the device reached the last record; nullopt before.
    virtual std::optional<int64_t> TimestampNs() = 0;
    // Milliseconds from start's last record to this one's, measured by the device; nullopt
    // when either has not completed or was not made for timing.
    virtual std::optional<float> ElapsedMsSince(DeviceEvent& start) = 0;
};

// One stream's work on the device, in order.
class Lane {
 public:
    virtual ~Lane() = default;
    // Runs a host task in stream order (DVPP, host-engine models, callbacks, marks). A task
    // that returns Suspended holds the lane until someone calls Complete(token) with the
    // HostToken it was given through HostToken(); failures are kept for the next Wait.
    virtual int32_t SubmitHost(const cpu::Task& task) = 0;
    // Asynchronous copy between any two device-accessible or host addresses (unified addressing).
    virtual int32_t Copy(void* dst, const void* src, size_t count) = 0;
    virtual int32_t Copy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                           size_t height) = 0;
    virtual int32_t Fill(void* ptr, uint8_t value, size_t count) = 0;
    virtual int32_t Launch(const DeviceKernel& kernel, uint32_t blocks, void* args,
                           size_t args_size) = 0;
    // Waits for everything submitted so far; reports (and clears) the first failure: a host
    // task's code, or for an error of the device itself the lane's device_failure_code (see
    // Accelerator::CreateLane) with TakeDeviceError() saying what it was.
    virtual cpu::WaitStatus Wait(std::chrono::nanoseconds timeout) = 0;
    // Waits for everything submitted so far like Wait, but leaves any failure to the next Wait
    // (calls that must only wait for the lane, as for a pageable copy, report nothing of the
    // work before them, as on the CPU backend). Ok or Timeout.
    virtual cpu::WaitStatus Drain(std::chrono::nanoseconds timeout) = 0;
    virtual std::string TakeDeviceError() = 0;
    virtual bool Query() = 0;
    // Timeline: records a timing marker in stream order and returns its ticket (0 when the lane
    // cannot); MarkedTimeNs gives the host-clock time (cpu::NowNs) at which the device reached
    // it, waiting for that if `wait`, or nullopt. Tickets live as long as the lane.
    virtual uint64_t MarkTime() { return 0; }
    virtual std::optional<int64_t> MarkedTimeNs(uint64_t ticket, bool wait) {
        (void)ticket;
        (void)wait;
        return std::nullopt;
    }
    // With FailureMode::kStop a failure skips later host tasks until a Wait reports it (device
    // work already queued still runs: CUDA cannot take it back).
    virtual void SetFailureMode(cpu::FailureMode mode) = 0;
};

// Completes a suspended host task of a lane (see Lane::SubmitHost): the lane's thread waits
// for it. Tokens of lanes carry a marker in their queue field (backend/host_task.h); lanes run
// their host tasks through backend::HostTasks so that these work for every backend.
bool CompleteHostTask(cpu::SuspendToken token, cpu::TaskStatus status);
bool IsLaneToken(cpu::SuspendToken token);

// A device of the accelerator.
class Accelerator {
 public:
    virtual ~Accelerator() = default;
    virtual const char* name() const = 0;  // "NVIDIA H200"
    virtual DeviceMemory& memory() = 0;
    // Page-locked host memory the device can reach (aclrtMallocHost); nullptr on failure.
    virtual void* AllocateHost(size_t size) = 0;
    virtual void FreeHost(void* p) = 0;
    virtual int32_t MemInfo(size_t* free_bytes, size_t* total_bytes) = 0;

    // priority: AscendCL's (0 highest); mapped onto the device's range. device_failure_code:
    // what Lane::Wait reports when the device itself failed (a kernel fault).
    virtual std::unique_ptr<Lane> CreateLane(uint32_t priority, int32_t device_failure_code,
                                             int32_t* status) = 0;
    virtual std::unique_ptr<DeviceEvent> CreateEvent(bool timing, int32_t* status) = 0;
    // Waits for every lane of the device.
    virtual int32_t Synchronize() = 0;
    // Synchronous copy and fill (aclrtMemcpy, aclrtMemset): complete when they return.
    virtual int32_t CopySync(void* dst, const void* src, size_t count) = 0;
    virtual int32_t Copy2dSync(void* dst, size_t dpitch, const void* src, size_t spitch,
                               size_t width, size_t height) = 0;
    virtual int32_t FillSync(void* ptr, uint8_t value, size_t count) = 0;

    // Kernels: a module from a binary image; kernels by name. *why explains a failure.
    virtual void* LoadModule(const void* image, size_t size, std::string* why) = 0;
    virtual void UnloadModule(void* module) = 0;
    virtual bool GetKernel(void* module, const char* name, DeviceKernel* out, std::string* why) = 0;
    // The names of the kernels in a loaded module.
    virtual std::vector<std::string> KernelNames(void* module) = 0;

    // What a status code means ("out of memory (cudaErrorMemoryAllocation)").
    virtual std::string StatusText(int32_t status) const = 0;
    // An address the device owns: used by pointer classification for freed device memory.
    virtual bool IsDeviceAddress(const void* p) const = 0;
};

// Tests: while a factory is set, the accelerator backend (OPENACL_BACKEND=cuda) takes its
// devices from it instead of from CUDA (one Device per accelerator returned, in order). Set it
// before the runtime creates its devices; an empty function restores CUDA.
using AcceleratorFactory = std::function<std::vector<std::unique_ptr<Accelerator>>()>;
void SetAcceleratorFactoryForTesting(AcceleratorFactory factory);
// The factory set for tests, or an empty function.
const AcceleratorFactory& AcceleratorFactoryForTesting();

// The accelerator behind backend `kind` for device `ordinal`, or nullptr with *why set (no
// driver, no such device, backend not built).
std::unique_ptr<Accelerator> OpenCudaDevice(int ordinal, std::string* why);
// How many CUDA devices this process can use; 0 with *why set when none.
int CudaDeviceCount(std::string* why);
// Whether a binary image is a CUDA one (cubin, fatbin, PTX) rather than a CPU kernel binary.
bool IsCudaBinary(const void* data, size_t size);

}  // namespace openacl::backend
