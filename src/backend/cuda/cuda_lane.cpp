#include "backend/cuda/cuda_lane.h"

#include <thread>

#include "backend/cpu/sync.h"
#include "backend/cuda/cuda_device.h"

namespace openacl::cuda {

namespace {

// Waits for `done` with a time limit by polling: CUDA has no timed stream or event wait.
template <class Ready>
cpu::WaitStatus PollUntil(Ready ready, std::chrono::nanoseconds timeout) {
    const int64_t deadline = timeout.count() >= INT64_MAX / 2
                                 ? INT64_MAX
                                 : cpu::NowNs() + static_cast<int64_t>(timeout.count());
    for (unsigned i = 0;; ++i) {
        cudaError_t status = ready();
        if (status != cudaErrorNotReady) return cpu::WaitStatus::Ok();
        if (cpu::NowNs() >= deadline) return cpu::WaitStatus::Timeout();
        if (i < 64) {
            cpu::CpuRelax();
        } else {
            std::this_thread::sleep_for(std::chrono::microseconds(20));
        }
    }
}

}  // namespace

// ---- CudaLane ---------------------------------------------------------------------------

std::unique_ptr<CudaLane> CudaLane::Create(CudaDevice& device, int cuda_priority,
                                           int32_t device_failure_code, int32_t* status) {
    cudaStream_t stream = nullptr;
    cudaError_t rc = UseDevice(device.ordinal());
    if (rc == cudaSuccess) {
        rc = cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, cuda_priority);
    }
    *status = rc;
    if (rc != cudaSuccess) return nullptr;
    device.pool().AddStream(stream);
    return std::unique_ptr<CudaLane>(new CudaLane(device, stream, device_failure_code));
}

CudaLane::CudaLane(CudaDevice& device, cudaStream_t stream, int32_t device_failure_code)
    : device_(device), stream_(stream), device_failure_code_(device_failure_code) {}

CudaLane::~CudaLane() {
    UseDevice(device_.ordinal());
    // Host functions still queued point at this lane and its slots.
    cudaStreamSynchronize(stream_);
    device_.pool().RemoveStream(stream_);
    cudaStreamDestroy(stream_);
    for (const Marker& marker : markers_)
        cudaEventDestroy(marker.event);
}

int CudaLane::ordinal() const {
    return device_.ordinal();
}

int32_t CudaLane::SubmitHost(const cpu::Task& task) {
    backend::HostSlot* slot = host_tasks_.Take(task);
    cudaError_t status = UseDevice(device_.ordinal());
    if (status == cudaSuccess) {
        status = cudaLaunchHostFunc(stream_, &backend::HostTasks::Run, slot);
    }
    if (status != cudaSuccess) host_tasks_.Return(slot);
    return status;
}

int32_t CudaLane::Copy(void* dst, const void* src, size_t count) {
    cudaError_t status = UseDevice(device_.ordinal());
    if (status == cudaSuccess) {
        status = cudaMemcpyAsync(dst, src, count, cudaMemcpyDefault, stream_);
    }
    return status;
}

int32_t CudaLane::Copy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height) {
    cudaError_t status = UseDevice(device_.ordinal());
    if (status == cudaSuccess) {
        status =
            cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, cudaMemcpyDefault, stream_);
    }
    return status;
}

int32_t CudaLane::Fill(void* ptr, uint8_t value, size_t count) {
    cudaError_t status = UseDevice(device_.ordinal());
    if (status == cudaSuccess) status = cudaMemsetAsync(ptr, value, count, stream_);
    return status;
}

int32_t CudaLane::Launch(const backend::DeviceKernel& kernel, uint32_t blocks, void* args,
                         size_t args_size) {
    // The argument block is a run of 8-byte slots, one per parameter: CUDA wants a pointer to
    // each parameter's value, and copies the values when the launch is enqueued.
    constexpr size_t kMaxParams = 512;
    void* params[kMaxParams];
    const size_t count = args_size / 8;
    if (count > kMaxParams) return cudaErrorInvalidValue;
    auto* bytes = static_cast<unsigned char*>(args);
    for (size_t i = 0; i < count; ++i)
        params[i] = bytes + i * 8;
    cudaError_t status = UseDevice(device_.ordinal());
    if (status == cudaSuccess) {
        status = cudaLaunchKernel(kernel.function, dim3(blocks), dim3(kernel.block_threads), params,
                                  0, stream_);
    }
    return status;
}

cpu::WaitStatus CudaLane::Wait(std::chrono::nanoseconds timeout) {
    cudaError_t device_status = UseDevice(device_.ordinal());
    if (device_status == cudaSuccess) {
        if (timeout == cpu::kWaitForever) {
            device_status = cudaStreamSynchronize(stream_);
        } else {
            cudaError_t last = cudaSuccess;
            cpu::WaitStatus waited = PollUntil(
                [&] {
                    last = cudaStreamQuery(stream_);
                    return last;
                },
                timeout);
            if (waited.timed_out()) return waited;
            device_status = last;
        }
    }
    if (device_status != cudaSuccess) {
        std::lock_guard lock(mutex_);
        device_error_ = ErrorText(device_status);
        host_tasks_.ClearFailure();
        return cpu::WaitStatus::Failed(device_failure_code_);
    }
    int32_t code = host_tasks_.TakeFailure();
    return code == 0 ? cpu::WaitStatus::Ok() : cpu::WaitStatus::Failed(code);
}

cpu::WaitStatus CudaLane::Drain(std::chrono::nanoseconds timeout) {
    // A device fault is sticky in CUDA: the next Wait's synchronisation reports it again.
    if (UseDevice(device_.ordinal()) != cudaSuccess) return cpu::WaitStatus::Ok();
    if (timeout == cpu::kWaitForever) {
        cudaStreamSynchronize(stream_);
        return cpu::WaitStatus::Ok();
    }
    return PollUntil([&] { return cudaStreamQuery(stream_); }, timeout);
}

std::string CudaLane::TakeDeviceError() {
    std::lock_guard lock(mutex_);
    std::string text;
    text.swap(device_error_);
    return text;
}

bool CudaLane::Query() {
    if (UseDevice(device_.ordinal()) != cudaSuccess) return false;
    return cudaStreamQuery(stream_) != cudaErrorNotReady;
}

uint64_t CudaLane::MarkTime() {
    cudaEvent_t event = nullptr;
    if (UseDevice(device_.ordinal()) != cudaSuccess || cudaEventCreate(&event) != cudaSuccess) {
        return 0;
    }
    if (cudaEventRecord(event, stream_) != cudaSuccess) {
        cudaEventDestroy(event);
        return 0;
    }
    std::lock_guard lock(mutex_);
    markers_.push_back({event, -1});
    return markers_.size();
}

std::optional<int64_t> CudaLane::MarkedTimeNs(uint64_t ticket, bool wait) {
    std::lock_guard lock(mutex_);
    if (ticket == 0 || ticket > markers_.size()) return std::nullopt;
    UseDevice(device_.ordinal());
    // Resolve in order up to the ticket: each from its predecessor, the first from the epoch.
    while (resolved_ < ticket) {
        Marker& marker = markers_[resolved_];
        if (wait) {
            cudaEventSynchronize(marker.event);
        } else if (cudaEventQuery(marker.event) != cudaSuccess) {
            return std::nullopt;
        }
        cudaEvent_t from = resolved_ == 0 ? device_.epoch_event() : markers_[resolved_ - 1].event;
        const int64_t base = resolved_ == 0 ? device_.epoch_ns() : markers_[resolved_ - 1].ns;
        float ms = 0;
        if (cudaEventElapsedTime(&ms, from, marker.event) != cudaSuccess) {
            cudaGetLastError();
            ms = 0;
        }
        marker.ns = base + static_cast<int64_t>(static_cast<double>(ms) * 1e6);
        ++resolved_;
    }
    return markers_[ticket - 1].ns;
}

// ---- CudaEvent --------------------------------------------------------------------------

std::unique_ptr<CudaEvent> CudaEvent::Create(CudaDevice& device, bool timing, int32_t* status) {
    cudaEvent_t event = nullptr;
    cudaError_t rc = UseDevice(device.ordinal());
    if (rc == cudaSuccess) {
        rc = cudaEventCreateWithFlags(&event, timing ? cudaEventDefault : cudaEventDisableTiming);
    }
    *status = rc;
    if (rc != cudaSuccess) return nullptr;
    return std::unique_ptr<CudaEvent>(new CudaEvent(device, event, timing));
}

CudaEvent::~CudaEvent() {
    UseDevice(device_.ordinal());
    cudaEventDestroy(event_);
}

int32_t CudaEvent::Record(backend::Lane& lane) {
    auto& cuda_lane = static_cast<CudaLane&>(lane);
    cudaError_t status = UseDevice(cuda_lane.ordinal());
    if (status == cudaSuccess) status = cudaEventRecord(event_, cuda_lane.stream());
    if (status == cudaSuccess) recorded_.store(true, std::memory_order_release);
    return status;
}

int32_t CudaEvent::EnqueueWait(backend::Lane& lane) {
    // A never-recorded event imposes nothing (as on the CPU backend, and as in CUDA).
    if (!recorded_.load(std::memory_order_acquire)) return cudaSuccess;
    auto& cuda_lane = static_cast<CudaLane&>(lane);
    cudaError_t status = UseDevice(cuda_lane.ordinal());
    if (status == cudaSuccess) status = cudaStreamWaitEvent(cuda_lane.stream(), event_, 0);
    return status;
}

bool CudaEvent::Query() {
    if (!recorded_.load(std::memory_order_acquire)) return true;
    return cudaEventQuery(event_) != cudaErrorNotReady;
}

cpu::WaitStatus CudaEvent::Synchronize(std::chrono::nanoseconds timeout) {
    if (!recorded_.load(std::memory_order_acquire)) return cpu::WaitStatus::Ok();
    if (timeout == cpu::kWaitForever) {
        cudaEventSynchronize(event_);
        return cpu::WaitStatus::Ok();
    }
    return PollUntil([this] { return cudaEventQuery(event_); }, timeout);
}

std::optional<int64_t> CudaEvent::TimestampNs() {
    if (!timing_ || !recorded_.load(std::memory_order_acquire)) return std::nullopt;
    if (cudaEventQuery(event_) != cudaSuccess) return std::nullopt;
    float ms = 0;
    if (cudaEventElapsedTime(&ms, device_.epoch_event(), event_) != cudaSuccess) {
        cudaGetLastError();
        return std::nullopt;
    }
    return device_.epoch_ns() + static_cast<int64_t>(static_cast<double>(ms) * 1e6);
}

std::optional<float> CudaEvent::ElapsedMsSince(backend::DeviceEvent& start) {
    auto& begin = static_cast<CudaEvent&>(start);
    if (!timing_ || !begin.timing_ || !recorded_.load(std::memory_order_acquire) ||
        !begin.recorded_.load(std::memory_order_acquire)) {
        return std::nullopt;
    }
    float ms = 0;
    if (cudaEventElapsedTime(&ms, begin.event_, event_) != cudaSuccess) {
        cudaGetLastError();
        return std::nullopt;
    }
    return ms;
}

}  // namespace openacl::cuda
