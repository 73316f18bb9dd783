// A stream on the CUDA backend (one CUDA stream) and an event (one CUDA event).
//
// Device work (copies, fills, kernels) is enqueued on the CUDA stream by the calling thread:
// nothing of openacl's own sits between the application and the CUDA call. Host work (DVPP,
// host-engine models, callbacks, aclrtLaunchHostFunc) runs as CUDA host functions, in stream
// order with the device work; like CUDA's own, a host function must not call CUDA.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "backend/accelerator.h"
#include "backend/host_task.h"

namespace openacl::cuda {

class CudaDevice;

class CudaLane final : public backend::Lane {
 public:
    static std::unique_ptr<CudaLane> Create(CudaDevice& device, int cuda_priority,
                                            int32_t device_failure_code, int32_t* status);
    ~CudaLane() override;

    cudaStream_t stream() const { return stream_; }
    int ordinal() const;

    int32_t SubmitHost(const cpu::Task& task) override;
    int32_t Copy(void* dst, const void* src, size_t count) override;
    int32_t Copy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                   size_t height) override;
    int32_t Fill(void* ptr, uint8_t value, size_t count) override;
    int32_t Launch(const backend::DeviceKernel& kernel, uint32_t blocks, void* args,
                   size_t args_size) override;
    cpu::WaitStatus Wait(std::chrono::nanoseconds timeout) override;
    cpu::WaitStatus Drain(std::chrono::nanoseconds timeout) override;
    std::string TakeDeviceError() override;
    bool Query() override;
    uint64_t MarkTime() override;
    std::optional<int64_t> MarkedTimeNs(uint64_t ticket, bool wait) override;
    void SetFailureMode(cpu::FailureMode mode) override {
        host_tasks_.SetStopOnFailure(mode == cpu::FailureMode::kStop);
    }

 private:
    CudaLane(CudaDevice& device, cudaStream_t stream, int32_t device_failure_code);

    CudaDevice& device_;
    cudaStream_t stream_;
    const int32_t device_failure_code_;
    // Host tasks run as CUDA host functions through backend::HostTasks::Run; the destructor
    // synchronises the stream before their slots go.
    backend::HostTasks host_tasks_;
    std::mutex mutex_;
    std::string device_error_;
    // Timeline markers (tracing only): timing events, and the time each resolved to. Times
    // chain from marker to marker (cudaEventElapsedTime between neighbours is exact to the
    // event resolution, where one float of milliseconds since an old anchor is not).
    struct Marker {
        cudaEvent_t event = nullptr;
        int64_t ns = -1;  // resolved host-clock time, -1: not yet
    };
    std::vector<Marker> markers_;  // ticket = index + 1
    size_t resolved_ = 0;          // markers_[0, resolved_) have their time
};

class CudaEvent final : public backend::DeviceEvent {
 public:
    static std::unique_ptr<CudaEvent> Create(CudaDevice& device, bool timing, int32_t* status);
    ~CudaEvent() override;

    int32_t Record(backend::Lane& lane) override;
    int32_t EnqueueWait(backend::Lane& lane) override;
    bool Query() override;
    cpu::WaitStatus Synchronize(std::chrono::nanoseconds timeout) override;
    std::optional<int64_t> TimestampNs() override;
    std::optional<float> ElapsedMsSince(backend::DeviceEvent& start) override;

 private:
    CudaEvent(CudaDevice& device, cudaEvent_t event, bool timing)
        : device_(device), event_(event), timing_(timing) {}

    CudaDevice& device_;
    cudaEvent_t event_;
    bool timing_;
    std::atomic<bool> recorded_{false};
};

}  // namespace openacl::cuda
