// The CUDA backend: one CudaDevice per CUDA device, one CudaLane (a CUDA stream) per AscendCL
// stream, CUDA events for AscendCL events. Only files under backend/cuda/ include CUDA headers.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "backend/accelerator.h"

namespace openacl::cuda {

// Makes `ordinal` the calling thread's current CUDA device (cached per thread: cheap when it
// already is).
cudaError_t UseDevice(int ordinal);
std::string ErrorText(cudaError_t status);

class CudaDevice;

// Device memory from a stream-ordered CUDA memory pool, so that aclrtFree never waits for the
// device: a free is ordered after the work every stream of the device has queued so far (on
// the device, not the host), and the pool reuses a block only once its free has completed.
// Blocks asked for as host-accessible (DVPP, models run by the host engine) are mapped pinned
// host memory instead, which the host tasks that use them can read and write.
class DeviceMemoryPool final : public backend::DeviceMemory {
 public:
    explicit DeviceMemoryPool(CudaDevice& device);
    ~DeviceMemoryPool() override;

    bool valid() const override { return pool_ != nullptr; }
    uint64_t capacity() const override { return capacity_; }
    uint64_t used() const override;
    void* Allocate(uint64_t size, const Tag& tag) override;
    bool Free(const void* p, Block* freed = nullptr) override;
    bool Contains(const void* p) const override;
    bool Find(const void* p, Block* out) const override;
    std::vector<Block> LiveBlocks() const override;
    void ReleaseAll() override;

    cudaStream_t free_stream() const { return free_stream_; }
    // Streams whose queued work a free must wait for (CudaLane registers itself).
    void AddStream(cudaStream_t stream);
    void RemoveStream(cudaStream_t stream);

 private:
    void Release(const Block& block);

    CudaDevice& device_;
    cudaMemPool_t pool_ = nullptr;
    // Frees are ordered on free_stream_ (after fences on every stream); allocations are made on
    // alloc_stream_, which never has work of its own: the pool then reuses a block only when
    // its free has completed on the device, never "in stream order" behind pending work.
    cudaStream_t free_stream_ = nullptr;
    cudaStream_t alloc_stream_ = nullptr;
    cudaEvent_t fence_ = nullptr;  // reused to order a free after each stream's work
    uint64_t capacity_ = 0;
    mutable std::mutex mutex_;
    uint64_t used_ = 0;
    BlockMap live_;
    std::vector<cudaStream_t> streams_;
    // Every address range ever handed out lies inside [low_, high_): a cheap first test before
    // asking the driver whether a pointer that is not live is freed device memory.
    uintptr_t low_ = UINTPTR_MAX;
    uintptr_t high_ = 0;
};

class CudaDevice final : public backend::Accelerator {
 public:
    CudaDevice(int ordinal, const cudaDeviceProp& props);
    ~CudaDevice() override;

    int ordinal() const { return ordinal_; }
    const char* name() const override { return name_.c_str(); }
    backend::DeviceMemory& memory() override { return *memory_; }
    DeviceMemoryPool& pool() { return *memory_; }
    int least_priority() const { return least_priority_; }
    int greatest_priority() const { return greatest_priority_; }
    // Host time (cpu::NowNs) and a timing event recorded together when the device opened:
    // event timestamps are derived from elapsed times against it.
    cudaEvent_t epoch_event() const { return epoch_event_; }
    int64_t epoch_ns() const { return epoch_ns_; }

    void* AllocateHost(size_t size) override;
    void FreeHost(void* p) override;
    int32_t MemInfo(size_t* free_bytes, size_t* total_bytes) override;
    std::unique_ptr<backend::Lane> CreateLane(uint32_t priority, int32_t device_failure_code,
                                              int32_t* status) override;
    std::unique_ptr<backend::DeviceEvent> CreateEvent(bool timing, int32_t* status) override;
    int32_t Synchronize() override;
    int32_t CopySync(void* dst, const void* src, size_t count) override;
    int32_t Copy2dSync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height) override;
    int32_t FillSync(void* ptr, uint8_t value, size_t count) override;
    void* LoadModule(const void* image, size_t size, std::string* why) override;
    void UnloadModule(void* module) override;
    bool GetKernel(void* module, const char* name, backend::DeviceKernel* out,
                   std::string* why) override;
    std::vector<std::string> KernelNames(void* module) override;
    std::string StatusText(int32_t status) const override;
    bool IsDeviceAddress(const void* p) const override;

 private:
    int ordinal_;
    std::string name_;
    int least_priority_ = 0;
    int greatest_priority_ = 0;
    cudaEvent_t epoch_event_ = nullptr;
    int64_t epoch_ns_ = 0;
    std::unique_ptr<DeviceMemoryPool> memory_;
};

}  // namespace openacl::cuda
