#include "backend/cuda/cuda_device.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "backend/cpu/sync.h"
#include "backend/cuda/cuda_binary.h"
#include "backend/cuda/cuda_lane.h"

namespace openacl::cuda {

cudaError_t UseDevice(int ordinal) {
    thread_local int current = -1;
    if (current == ordinal) return cudaSuccess;
    cudaError_t status = cudaSetDevice(ordinal);
    if (status == cudaSuccess) current = ordinal;
    return status;
}

std::string ErrorText(cudaError_t status) {
    return std::string(cudaGetErrorString(status)) + " (" + cudaGetErrorName(status) + ")";
}

// ---- DeviceMemoryPool -------------------------------------------------------------------

DeviceMemoryPool::DeviceMemoryPool(CudaDevice& device) : device_(device) {
    if (UseDevice(device.ordinal()) != cudaSuccess) return;
    size_t free_bytes = 0;
    size_t total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return;
    capacity_ = total_bytes;
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device.ordinal();
    cudaMemPool_t pool = nullptr;
    if (cudaMemPoolCreate(&pool, &props) != cudaSuccess) return;
    // Keep freed memory in the pool (no trimming at every synchronisation), and reuse a block
    // only when its free has completed on the device: a new allocation is then safe on any
    // stream at once, and no hidden dependencies are added to the allocating stream.
    uint64_t keep = std::numeric_limits<uint64_t>::max();
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    int off = 0;
    cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &off);
    if (cudaStreamCreateWithFlags(&free_stream_, cudaStreamNonBlocking) != cudaSuccess ||
        cudaStreamCreateWithFlags(&alloc_stream_, cudaStreamNonBlocking) != cudaSuccess ||
        cudaEventCreateWithFlags(&fence_, cudaEventDisableTiming) != cudaSuccess) {
        cudaMemPoolDestroy(pool);
        return;
    }
    pool_ = pool;
}

DeviceMemoryPool::~DeviceMemoryPool() {
    if (pool_ == nullptr) return;
    UseDevice(device_.ordinal());
    ReleaseAll();
    cudaStreamSynchronize(free_stream_);
    cudaEventDestroy(fence_);
    cudaStreamDestroy(free_stream_);
    cudaStreamDestroy(alloc_stream_);
    cudaMemPoolDestroy(pool_);
}

uint64_t DeviceMemoryPool::used() const {
    std::lock_guard lock(mutex_);
    return used_;
}

void* DeviceMemoryPool::Allocate(uint64_t size, const Tag& tag) {
    if (pool_ == nullptr || UseDevice(device_.ordinal()) != cudaSuccess) return nullptr;
    void* p = nullptr;
    if (tag.host_accessible) {
        if (cudaHostAlloc(&p, size, cudaHostAllocPortable | cudaHostAllocMapped) != cudaSuccess) {
            return nullptr;
        }
    } else {
        // Synchronising the idle allocation stream completes the allocation for every stream
        // (microseconds: nothing else is ever queued there).
        if (cudaMallocFromPoolAsync(&p, size, pool_, alloc_stream_) != cudaSuccess ||
            cudaStreamSynchronize(alloc_stream_) != cudaSuccess) {
            cudaGetLastError();  // an allocation failure is not sticky: clear it
            return nullptr;
        }
    }
    auto base = reinterpret_cast<uintptr_t>(p);
    std::lock_guard lock(mutex_);
    live_[base] = Block{base, size, tag};
    used_ += size;
    low_ = std::min(low_, base);
    high_ = std::max<uintptr_t>(high_, base + size);
    return p;
}

void DeviceMemoryPool::AddStream(cudaStream_t stream) {
    std::lock_guard lock(mutex_);
    streams_.push_back(stream);
}

void DeviceMemoryPool::RemoveStream(cudaStream_t stream) {
    std::lock_guard lock(mutex_);
    streams_.erase(std::remove(streams_.begin(), streams_.end(), stream), streams_.end());
}

// Called with mutex_ held.
void DeviceMemoryPool::Release(const Block& block) {
    void* p = reinterpret_cast<void*>(block.base);
    if (block.tag.host_accessible) {
        // Host tasks that use it are in stream order with everything else: the memory may be
        // in use by queued work, so wait for the device first (rare: DVPP and model memory).
        cudaDeviceSynchronize();
        cudaFreeHost(p);
        return;
    }
    // Order the free after what every stream has queued so far, on the device only.
    for (cudaStream_t stream : streams_) {
        if (cudaEventRecord(fence_, stream) == cudaSuccess) {
            cudaStreamWaitEvent(free_stream_, fence_, 0);
        }
    }
    cudaFreeAsync(p, free_stream_);
}

bool DeviceMemoryPool::Free(const void* p, Block* freed) {
    if (UseDevice(device_.ordinal()) != cudaSuccess) return false;
    std::lock_guard lock(mutex_);
    auto it = live_.find(reinterpret_cast<uintptr_t>(p));
    if (it == live_.end()) return false;
    Block block = it->second;
    live_.erase(it);
    used_ -= block.size;
    Release(block);
    if (freed != nullptr) *freed = block;
    return true;
}

bool DeviceMemoryPool::Find(const void* p, Block* out) const {
    std::lock_guard lock(mutex_);
    return FindIn(live_, reinterpret_cast<uintptr_t>(p), out);
}

bool DeviceMemoryPool::Contains(const void* p) const {
    auto address = reinterpret_cast<uintptr_t>(p);
    {
        std::lock_guard lock(mutex_);
        if (address < low_ || address >= high_) return false;
    }
    if (Find(p, nullptr)) return true;
    // Not live: freed device memory is still the device's (never host memory to copy into).
    return device_.IsDeviceAddress(p);
}

std::vector<backend::DeviceMemory::Block> DeviceMemoryPool::LiveBlocks() const {
    std::lock_guard lock(mutex_);
    std::vector<Block> blocks;
    blocks.reserve(live_.size());
    for (const auto& [base, block] : live_)
        blocks.push_back(block);
    return blocks;
}

void DeviceMemoryPool::ReleaseAll() {
    if (pool_ == nullptr) return;
    UseDevice(device_.ordinal());
    std::lock_guard lock(mutex_);
    for (const auto& [base, block] : live_)
        Release(block);
    live_.clear();
    used_ = 0;
    cudaStreamSynchronize(free_stream_);
    cudaMemPoolTrimTo(pool_, 0);
}

// ---- CudaDevice -------------------------------------------------------------------------

CudaDevice::CudaDevice(int ordinal, const cudaDeviceProp& props)
    : ordinal_(ordinal), name_(props.name) {
    UseDevice(ordinal);
    cudaDeviceGetStreamPriorityRange(&least_priority_, &greatest_priority_);
    if (cudaEventCreate(&epoch_event_) == cudaSuccess) {
        cudaEventRecord(epoch_event_, nullptr);
        cudaEventSynchronize(epoch_event_);
        epoch_ns_ = cpu::NowNs();
    }
    memory_ = std::make_unique<DeviceMemoryPool>(*this);
}

CudaDevice::~CudaDevice() {
    UseDevice(ordinal_);
    memory_.reset();
    if (epoch_event_ != nullptr) cudaEventDestroy(epoch_event_);
}

void* CudaDevice::AllocateHost(size_t size) {
    void* p = nullptr;
    if (cudaHostAlloc(&p, size, cudaHostAllocPortable | cudaHostAllocMapped) != cudaSuccess) {
        cudaGetLastError();
        return nullptr;
    }
    return p;
}

void CudaDevice::FreeHost(void* p) {
    cudaFreeHost(p);
}

int32_t CudaDevice::MemInfo(size_t* free_bytes, size_t* total_bytes) {
    cudaError_t status = UseDevice(ordinal_);
    if (status == cudaSuccess) status = cudaMemGetInfo(free_bytes, total_bytes);
    return status;
}

std::unique_ptr<backend::Lane> CudaDevice::CreateLane(uint32_t priority,
                                                      int32_t device_failure_code,
                                                      int32_t* status) {
    // AscendCL: 0 is the highest priority, larger numbers lower. CUDA: greatest_priority_ (a
    // negative number) is the highest, least_priority_ (0) the lowest.
    int cuda_priority = greatest_priority_ + static_cast<int>(priority);
    cuda_priority = std::min(cuda_priority, least_priority_);
    return CudaLane::Create(*this, cuda_priority, device_failure_code, status);
}

std::unique_ptr<backend::DeviceEvent> CudaDevice::CreateEvent(bool timing, int32_t* status) {
    return CudaEvent::Create(*this, timing, status);
}

int32_t CudaDevice::Synchronize() {
    cudaError_t status = UseDevice(ordinal_);
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    return status;
}

int32_t CudaDevice::CopySync(void* dst, const void* src, size_t count) {
    cudaError_t status = UseDevice(ordinal_);
    if (status == cudaSuccess) status = cudaMemcpy(dst, src, count, cudaMemcpyDefault);
    return status;
}

int32_t CudaDevice::Copy2dSync(void* dst, size_t dpitch, const void* src, size_t spitch,
                               size_t width, size_t height) {
    cudaError_t status = UseDevice(ordinal_);
    if (status == cudaSuccess) {
        status = cudaMemcpy2D(dst, dpitch, src, spitch, width, height, cudaMemcpyDefault);
    }
    return status;
}

int32_t CudaDevice::FillSync(void* ptr, uint8_t value, size_t count) {
    cudaError_t status = UseDevice(ordinal_);
    if (status == cudaSuccess) status = cudaMemset(ptr, value, count);
    return status;
}

namespace {

// A loaded binary: the CUDA library and what its image says about each kernel.
struct Module {
    cudaLibrary_t library = nullptr;
    std::vector<KernelInfo> kernels;
};

}  // namespace

void* CudaDevice::LoadModule(const void* image, size_t size, std::string* why) {
    auto module = std::make_unique<Module>();
    std::string unread;
    // Metadata is optional: a binary whose kernels cannot be read (a compressed fatbin) still
    // loads; its kernels then run one thread per block and their arguments are not checked.
    if (!ReadKernels(image, size, &module->kernels, &unread)) module->kernels.clear();
    // PTX is text the driver reads up to its terminating NUL, which a caller's buffer (from a
    // file read, say) need not have.
    std::string ptx;
    if (DetectFormat(image, size) == BinaryFormat::kPtx) {
        ptx.assign(static_cast<const char*>(image), size);
        image = ptx.c_str();
    }
    cudaError_t status = UseDevice(ordinal_);
    if (status == cudaSuccess) {
        status =
            cudaLibraryLoadData(&module->library, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
    }
    if (status != cudaSuccess) {
        cudaGetLastError();
        *why = "the CUDA driver cannot load it: " + ErrorText(status);
        return nullptr;
    }
    return module.release();
}

void CudaDevice::UnloadModule(void* handle) {
    std::unique_ptr<Module> module(static_cast<Module*>(handle));
    cudaLibraryUnload(module->library);
}

bool CudaDevice::GetKernel(void* handle, const char* name, backend::DeviceKernel* out,
                           std::string* why) {
    auto* module = static_cast<Module*>(handle);
    cudaKernel_t kernel = nullptr;
    cudaError_t status = cudaLibraryGetKernel(&kernel, module->library, name);
    if (status != cudaSuccess) {
        cudaGetLastError();
        *why = ErrorText(status);
        return false;
    }
    out->function = reinterpret_cast<void*>(kernel);
    out->block_threads = 1;
    out->param_bytes = 0;
    for (const KernelInfo& info : module->kernels) {
        if (info.name != name) continue;
        if (info.block_threads != 0) out->block_threads = info.block_threads;
        out->param_bytes = info.param_bytes;
    }
    return true;
}

std::vector<std::string> CudaDevice::KernelNames(void* handle) {
    auto* module = static_cast<Module*>(handle);
    std::vector<std::string> names;
    unsigned count = 0;
    if (cudaLibraryGetKernelCount(&count, module->library) == cudaSuccess && count > 0) {
        std::vector<cudaKernel_t> kernels(count);
        if (cudaLibraryEnumerateKernels(kernels.data(), count, module->library) == cudaSuccess) {
            for (cudaKernel_t kernel : kernels) {
                const char* name = nullptr;
                if (cudaFuncGetName(&name, reinterpret_cast<const void*>(kernel)) == cudaSuccess &&
                    name != nullptr) {
                    names.emplace_back(name);
                }
            }
            return names;
        }
    }
    cudaGetLastError();
    for (const KernelInfo& info : module->kernels)
        names.push_back(info.name);
    return names;
}

std::string CudaDevice::StatusText(int32_t status) const {
    return ErrorText(static_cast<cudaError_t>(status));
}

bool CudaDevice::IsDeviceAddress(const void* p) const {
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return attributes.type == cudaMemoryTypeDevice && attributes.device == ordinal_;
}

}  // namespace openacl::cuda

namespace openacl::backend {

int CudaDeviceCount(std::string* why) {
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        cudaGetLastError();
        *why = "the CUDA runtime finds no usable device: " + cuda::ErrorText(status);
        return 0;
    }
    if (count == 0) *why = "the CUDA runtime finds no device";
    return count;
}

std::unique_ptr<Accelerator> OpenCudaDevice(int ordinal, std::string* why) {
    cudaDeviceProp props{};
    cudaError_t status = cudaGetDeviceProperties(&props, ordinal);
    if (status != cudaSuccess) {
        cudaGetLastError();
        *why = "CUDA device " + std::to_string(ordinal) + ": " + cuda::ErrorText(status);
        return nullptr;
    }
    auto device = std::make_unique<cuda::CudaDevice>(ordinal, props);
    if (!device->memory().valid()) {
        *why = "CUDA device " + std::to_string(ordinal) + ": cannot create its memory pool";
        return nullptr;
    }
    return device;
}

bool IsCudaBinary(const void* data, size_t size) {
    return cuda::DetectFormat(data, size) != cuda::BinaryFormat::kUnknown;
}

}  // namespace openacl::backend
