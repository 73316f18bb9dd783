// A test double of the accelerator backend (backend/accelerator.h), so that core's accelerator
// paths run on machines without a GPU. Device memory is a range of address space the host
// cannot touch (mapped PROT_NONE; host-accessible blocks are opened up), backed by a second
// mapping the fake's own copies use: a core path that reads or writes device memory with the
// host crashes instead of silently working. Each lane is one worker thread running its copies,
// fills, kernels, event records and host tasks strictly in order.
//
// Kernels: an image starting with the fatbin magic, then "FAKE", then kernel names separated
// by '\n' (FakeKernelImage); each name must have been registered with RegisterKernel, whose
// function runs on the lane's thread with the argument block (device pointers in it are
// translated with HostView). A kernel returning non-zero is a device fault.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "backend/accelerator.h"

namespace openacl::testing {

using FakeKernelFn = int32_t (*)(uint32_t blocks, void* args, size_t args_size);

// Status codes of the fake (what StatusText explains).
enum FakeStatus : int32_t {
    kFakeOk = 0,
    kFakeBadAddress = 1,   // a copy or fill outside any block or host memory
    kFakeKernelFault = 2,  // a kernel returned non-zero
    kFakeNoKernel = 3,
    kFakeBadImage = 4,
};

class FakeMemory final : public backend::DeviceMemory {
 public:
    explicit FakeMemory(uint64_t capacity);
    ~FakeMemory() override;

    bool valid() const override { return device_ != nullptr; }
    uint64_t capacity() const override { return capacity_; }
    uint64_t used() const override;
    void* Allocate(uint64_t size, const Tag& tag) override;
    bool Free(const void* p, Block* freed = nullptr) override;
    bool Contains(const void* p) const override;
    bool Find(const void* p, Block* out) const override;
    std::vector<Block> LiveBlocks() const override;
    void ReleaseAll() override;

    // Where the fake itself reads and writes device address p (p itself for host memory).
    void* Shadow(const void* p) const;

 private:
    uint64_t capacity_;
    char* device_ = nullptr;  // the addresses handed out (PROT_NONE unless host-accessible)
    char* shadow_ = nullptr;  // the same pages, read-write, for the fake's own accesses
    mutable std::mutex mutex_;
    uint64_t next_ = 0;  // bump allocation; ReleaseAll starts over
    uint64_t used_ = 0;
    BlockMap live_;
};

class FakeAccelerator final : public backend::Accelerator {
 public:
    explicit FakeAccelerator(uint64_t capacity = uint64_t{256} << 20);
    ~FakeAccelerator() override;

    // The kernels every FakeAccelerator knows, by name.
    static void RegisterKernel(const std::string& name, FakeKernelFn fn);
    // A loadable image with these kernels.
    static std::vector<unsigned char> FakeKernelImage(const std::vector<std::string>& names);
    // The host address of device address p, for kernel functions (any FakeAccelerator's).
    static void* HostView(const void* p);

    // What the tests check.
    int pinned_host_blocks() const { return pinned_.load(); }
    uint64_t sync_copies() const { return sync_copies_.load(); }
    uint64_t lane_copies() const { return lane_copies_.load(); }
    uint64_t launches() const { return launches_.load(); }
    FakeMemory& fake_memory() { return memory_; }

    const char* name() const override { return "Fake Accelerator"; }
    backend::DeviceMemory& memory() override { return memory_; }
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
    bool IsDeviceAddress(const void* p) const override { return memory_.Contains(p); }

    // Used by the lanes (fake_accelerator.cpp).
    int32_t DoCopy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                     size_t height);
    int32_t DoFill(void* ptr, uint8_t value, size_t count);
    void NoteLaneCopy() { lane_copies_.fetch_add(1); }
    void NoteLaunch() { launches_.fetch_add(1); }
    void ForgetLane(backend::Lane* lane);

 private:
    FakeMemory memory_;
    std::atomic<int> pinned_{0};
    std::atomic<uint64_t> sync_copies_{0};
    std::atomic<uint64_t> lane_copies_{0};
    std::atomic<uint64_t> launches_{0};
    std::mutex lanes_mutex_;
    std::set<backend::Lane*> lanes_;
};

// Makes OPENACL_BACKEND=cuda use `count` fake accelerators (call before aclInit). The
// accelerators stay owned by the runtime; Installed(i) finds them again.
void InstallFakeAccelerators(int count = 1);
FakeAccelerator* Installed(int index = 0);

}  // namespace openacl::testing
