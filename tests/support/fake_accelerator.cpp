#include "fake_accelerator.h"

#include <sys/mman.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <thread>

#include "backend/cpu/sync.h"
#include "backend/host_task.h"

namespace openacl::testing {

namespace {

constexpr uint64_t kPage = 4096;
constexpr unsigned char kFatbinMagic[4] = {0x50, 0xed, 0x55, 0xba};

std::mutex g_registry_mutex;
std::map<std::string, FakeKernelFn>& Kernels() {
    static auto* kernels = new std::map<std::string, FakeKernelFn>;
    return *kernels;
}
std::set<FakeMemory*>& Memories() {
    static auto* memories = new std::set<FakeMemory*>;
    return *memories;
}
std::vector<FakeAccelerator*>& InstalledList() {
    static auto* installed = new std::vector<FakeAccelerator*>;
    return *installed;
}

// The fake memory holding p, whichever fake device's (unified addressing, as with CUDA), or
// nullptr for host memory.
FakeMemory* OwnerOf(const void* p) {
    std::lock_guard lock(g_registry_mutex);
    for (FakeMemory* memory : Memories()) {
        if (memory->Contains(p)) return memory;
    }
    return nullptr;
}

void* HostAddress(const void* p) {
    FakeMemory* owner = OwnerOf(p);
    return owner != nullptr ? owner->Shadow(p) : const_cast<void*>(p);
}

// Whether [p, p + span) lies in one live block, or p is host memory (the caller's business).
bool ValidSpan(const void* p, size_t span) {
    FakeMemory* owner = OwnerOf(p);
    if (owner == nullptr) return true;
    backend::DeviceMemory::Block block;
    if (!owner->Find(p, &block)) return false;
    return reinterpret_cast<uintptr_t>(p) + span <= block.base + block.size;
}

uint64_t RoundUp(uint64_t n, uint64_t to) {
    return (n + to - 1) / to * to;
}

// A lane: one worker thread running operations in submission order.
class FakeLane final : public backend::Lane {
 public:
    FakeLane(FakeAccelerator& accelerator, int32_t device_failure_code)
        : accelerator_(accelerator),
          device_failure_code_(device_failure_code),
          worker_([this] { Work(); }) {}

    ~FakeLane() override {
        DrainFor(cpu::kWaitForever);
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        work_cv_.notify_all();
        worker_.join();
        accelerator_.ForgetLane(this);
    }

    void Enqueue(std::function<void()> op) {
        {
            std::lock_guard lock(mutex_);
            ops_.push_back(std::move(op));
            ++submitted_;
        }
        work_cv_.notify_one();
    }

    void NoteDeviceError(int32_t status, const std::string& what) {
        std::lock_guard lock(mutex_);
        if (device_status_ != 0) return;
        device_status_ = status;
        device_error_ = what + ": " + accelerator_.StatusText(status);
    }

    cpu::WaitStatus Drain(std::chrono::nanoseconds timeout) override {
        return DrainFor(timeout) ? cpu::WaitStatus::Ok() : cpu::WaitStatus::Timeout();
    }

    // Waits for what was submitted before the call, without touching failures.
    bool DrainFor(std::chrono::nanoseconds timeout) {
        std::unique_lock lock(mutex_);
        const uint64_t target = submitted_;
        auto reached = [&] { return completed_ >= target; };
        if (timeout == cpu::kWaitForever) {
            done_cv_.wait(lock, reached);
            return true;
        }
        return done_cv_.wait_for(lock, timeout, reached);
    }

    int32_t SubmitHost(const cpu::Task& task) override {
        backend::HostSlot* slot = host_tasks_.Take(task);
        Enqueue([slot] { backend::HostTasks::Run(slot); });
        return 0;
    }

    int32_t Copy(void* dst, const void* src, size_t count) override {
        return Copy2d(dst, count, src, count, count, 1);
    }

    int32_t Copy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                   size_t height) override {
        accelerator_.NoteLaneCopy();
        Enqueue([=, this] {
            int32_t status = accelerator_.DoCopy2d(dst, dpitch, src, spitch, width, height);
            if (status != 0) NoteDeviceError(status, "an asynchronous copy");
        });
        return 0;
    }

    int32_t Fill(void* ptr, uint8_t value, size_t count) override {
        Enqueue([=, this] {
            int32_t status = accelerator_.DoFill(ptr, value, count);
            if (status != 0) NoteDeviceError(status, "an asynchronous fill");
        });
        return 0;
    }

    int32_t Launch(const backend::DeviceKernel& kernel, uint32_t blocks, void* args,
                   size_t args_size) override {
        // Like CUDA, the argument values are taken when the launch is enqueued.
        auto* bytes = static_cast<unsigned char*>(args);
        std::vector<unsigned char> copy(bytes, bytes + args_size);
        auto fn = reinterpret_cast<FakeKernelFn>(kernel.function);
        accelerator_.NoteLaunch();
        Enqueue([this, fn, blocks, copy = std::move(copy)]() mutable {
            if (fn(blocks, copy.data(), copy.size()) != 0) {
                NoteDeviceError(kFakeKernelFault, "a kernel");
            }
        });
        return 0;
    }

    cpu::WaitStatus Wait(std::chrono::nanoseconds timeout) override {
        if (!DrainFor(timeout)) return cpu::WaitStatus::Timeout();
        {
            std::lock_guard lock(mutex_);
            if (device_status_ != 0) {
                device_status_ = 0;
                pending_error_ = std::move(device_error_);
                device_error_.clear();
                host_tasks_.ClearFailure();
                return cpu::WaitStatus::Failed(device_failure_code_);
            }
        }
        int32_t code = host_tasks_.TakeFailure();
        return code == 0 ? cpu::WaitStatus::Ok() : cpu::WaitStatus::Failed(code);
    }

    std::string TakeDeviceError() override {
        std::lock_guard lock(mutex_);
        std::string text;
        text.swap(pending_error_);
        return text;
    }

    bool Query() override {
        std::lock_guard lock(mutex_);
        return completed_ >= submitted_;
    }

    void SetFailureMode(cpu::FailureMode mode) override {
        host_tasks_.SetStopOnFailure(mode == cpu::FailureMode::kStop);
    }

    // Timeline markers: the host clock when the lane's worker reaches them.
    uint64_t MarkTime() override {
        uint64_t ticket = 0;
        {
            std::lock_guard lock(mutex_);
            marks_.push_back(-1);
            ticket = marks_.size();
        }
        Enqueue([this, ticket] {
            std::lock_guard lock(mutex_);
            marks_[ticket - 1] = cpu::NowNs();
        });
        return ticket;
    }

    std::optional<int64_t> MarkedTimeNs(uint64_t ticket, bool wait) override {
        if (wait) DrainFor(cpu::kWaitForever);
        std::lock_guard lock(mutex_);
        if (ticket == 0 || ticket > marks_.size() || marks_[ticket - 1] < 0) return std::nullopt;
        return marks_[ticket - 1];
    }

 private:
    void Work() {
        std::unique_lock lock(mutex_);
        for (;;) {
            work_cv_.wait(lock, [&] { return stopping_ || !ops_.empty(); });
            if (ops_.empty()) return;
            std::function<void()> op = std::move(ops_.front());
            ops_.pop_front();
            lock.unlock();
            op();
            op = nullptr;
            lock.lock();
            ++completed_;
            done_cv_.notify_all();
        }
    }

    FakeAccelerator& accelerator_;
    const int32_t device_failure_code_;
    backend::HostTasks host_tasks_;
    std::mutex mutex_;
    std::condition_variable work_cv_;
    std::condition_variable done_cv_;
    std::deque<std::function<void()>> ops_;
    uint64_t submitted_ = 0;
    uint64_t completed_ = 0;
    bool stopping_ = false;
    int32_t device_status_ = 0;
    std::string device_error_;
    std::string pending_error_;   // reported by the last failed Wait, for TakeDeviceError
    std::vector<int64_t> marks_;  // MarkTime tickets - 1 -> time reached (-1: not yet)
    std::thread worker_;          // last: starts once everything above exists
};

// What an event's records have reached; shared with the lane operations that reach them.
struct EventState {
    std::mutex mutex;
    std::condition_variable cv;
    uint64_t recorded = 0;  // generation of the last Record call
    uint64_t reached = 0;   // highest generation a lane has reached
    int64_t timestamp_ns = 0;
};

class FakeEvent final : public backend::DeviceEvent {
 public:
    explicit FakeEvent(bool timing) : timing_(timing), state_(std::make_shared<EventState>()) {}

    int32_t Record(backend::Lane& lane) override {
        uint64_t generation;
        {
            std::lock_guard lock(state_->mutex);
            generation = ++state_->recorded;
        }
        static_cast<FakeLane&>(lane).Enqueue([state = state_, generation] {
            std::lock_guard lock(state->mutex);
            if (generation > state->reached) {
                state->reached = generation;
                state->timestamp_ns = cpu::NowNs();
            }
            state->cv.notify_all();
        });
        return 0;
    }

    int32_t EnqueueWait(backend::Lane& lane) override {
        uint64_t generation;
        {
            std::lock_guard lock(state_->mutex);
            generation = state_->recorded;
        }
        if (generation == 0) return 0;  // never recorded: imposes nothing
        static_cast<FakeLane&>(lane).Enqueue([state = state_, generation] {
            std::unique_lock lock(state->mutex);
            state->cv.wait(lock, [&] { return state->reached >= generation; });
        });
        return 0;
    }

    bool Query() override {
        std::lock_guard lock(state_->mutex);
        return state_->reached >= state_->recorded;
    }

    cpu::WaitStatus Synchronize(std::chrono::nanoseconds timeout) override {
        std::unique_lock lock(state_->mutex);
        const uint64_t target = state_->recorded;
        auto reached = [&] { return state_->reached >= target; };
        if (timeout == cpu::kWaitForever) {
            state_->cv.wait(lock, reached);
            return cpu::WaitStatus::Ok();
        }
        return state_->cv.wait_for(lock, timeout, reached) ? cpu::WaitStatus::Ok()
                                                           : cpu::WaitStatus::Timeout();
    }

    std::optional<int64_t> TimestampNs() override {
        std::lock_guard lock(state_->mutex);
        if (!timing_ || state_->recorded == 0 || state_->reached < state_->recorded) {
            return std::nullopt;
        }
        return state_->timestamp_ns;
    }

    std::optional<float> ElapsedMsSince(backend::DeviceEvent& start) override {
        auto t0 = static_cast<FakeEvent&>(start).TimestampNs();
        auto t1 = TimestampNs();
        if (!t0 || !t1) return std::nullopt;
        return static_cast<float>(static_cast<double>(*t1 - *t0) / 1e6);
    }

 private:
    bool timing_;
    std::shared_ptr<EventState> state_;
};

struct FakeModule {
    std::vector<std::string> names;
};

}  // namespace

// ---- FakeMemory -------------------------------------------------------------------------

FakeMemory::FakeMemory(uint64_t capacity) : capacity_(RoundUp(capacity, kPage)) {
    int fd = memfd_create("openacl-fake-device", 0);
    if (fd < 0) return;
    if (ftruncate(fd, static_cast<off_t>(capacity_)) == 0) {
        void* device = mmap(nullptr, capacity_, PROT_NONE, MAP_SHARED, fd, 0);
        void* shadow = mmap(nullptr, capacity_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (device != MAP_FAILED && shadow != MAP_FAILED) {
            device_ = static_cast<char*>(device);
            shadow_ = static_cast<char*>(shadow);
        }
    }
    close(fd);
    std::lock_guard lock(g_registry_mutex);
    Memories().insert(this);
}

FakeMemory::~FakeMemory() {
    {
        std::lock_guard lock(g_registry_mutex);
        Memories().erase(this);
    }
    if (device_ != nullptr) munmap(device_, capacity_);
    if (shadow_ != nullptr) munmap(shadow_, capacity_);
}

uint64_t FakeMemory::used() const {
    std::lock_guard lock(mutex_);
    return used_;
}

void* FakeMemory::Allocate(uint64_t size, const Tag& tag) {
    if (device_ == nullptr) return nullptr;
    const uint64_t bytes = RoundUp(size == 0 ? 1 : size, kPage);
    std::lock_guard lock(mutex_);
    if (bytes > capacity_ - next_) return nullptr;
    char* p = device_ + next_;
    next_ += bytes;
    used_ += bytes;
    if (tag.host_accessible) mprotect(p, bytes, PROT_READ | PROT_WRITE);
    auto base = reinterpret_cast<uintptr_t>(p);
    live_[base] = Block{base, bytes, tag};
    return p;
}

bool FakeMemory::Free(const void* p, Block* freed) {
    std::lock_guard lock(mutex_);
    auto it = live_.find(reinterpret_cast<uintptr_t>(p));
    if (it == live_.end()) return false;
    Block block = it->second;
    live_.erase(it);
    used_ -= block.size;
    // Freed memory is the device's again: the host may no longer touch it.
    mprotect(reinterpret_cast<void*>(block.base), block.size, PROT_NONE);
    if (freed != nullptr) *freed = block;
    return true;
}

bool FakeMemory::Contains(const void* p) const {
    auto* c = static_cast<const char*>(p);
    return device_ != nullptr && c >= device_ && c < device_ + capacity_;
}

bool FakeMemory::Find(const void* p, Block* out) const {
    std::lock_guard lock(mutex_);
    return FindIn(live_, reinterpret_cast<uintptr_t>(p), out);
}

std::vector<backend::DeviceMemory::Block> FakeMemory::LiveBlocks() const {
    std::lock_guard lock(mutex_);
    std::vector<Block> blocks;
    for (const auto& [base, block] : live_)
        blocks.push_back(block);
    return blocks;
}

void FakeMemory::ReleaseAll() {
    std::lock_guard lock(mutex_);
    if (device_ != nullptr) mprotect(device_, capacity_, PROT_NONE);
    live_.clear();
    used_ = 0;
    next_ = 0;
}

void* FakeMemory::Shadow(const void* p) const {
    if (!Contains(p)) return const_cast<void*>(p);
    return shadow_ + (static_cast<const char*>(p) - device_);
}

// ---- FakeAccelerator --------------------------------------------------------------------

FakeAccelerator::FakeAccelerator(uint64_t capacity) : memory_(capacity) {}

FakeAccelerator::~FakeAccelerator() = default;

void FakeAccelerator::RegisterKernel(const std::string& name, FakeKernelFn fn) {
    std::lock_guard lock(g_registry_mutex);
    Kernels()[name] = fn;
}

std::vector<unsigned char> FakeAccelerator::FakeKernelImage(const std::vector<std::string>& names) {
    std::string text(reinterpret_cast<const char*>(kFatbinMagic), sizeof kFatbinMagic);
    text += "FAKE";
    for (const std::string& name : names)
        text += name + '\n';
    return std::vector<unsigned char>(text.begin(), text.end());
}

void* FakeAccelerator::HostView(const void* p) {
    return HostAddress(p);
}

void* FakeAccelerator::AllocateHost(size_t size) {
    void* p = std::aligned_alloc(64, RoundUp(size == 0 ? 1 : size, 64));
    if (p != nullptr) pinned_.fetch_add(1);
    return p;
}

void FakeAccelerator::FreeHost(void* p) {
    pinned_.fetch_sub(1);
    std::free(p);
}

int32_t FakeAccelerator::MemInfo(size_t* free_bytes, size_t* total_bytes) {
    *total_bytes = memory_.capacity();
    *free_bytes = memory_.capacity() - memory_.used();
    return 0;
}

std::unique_ptr<backend::Lane> FakeAccelerator::CreateLane(uint32_t, int32_t device_failure_code,
                                                           int32_t* status) {
    auto lane = std::make_unique<FakeLane>(*this, device_failure_code);
    std::lock_guard lock(lanes_mutex_);
    lanes_.insert(lane.get());
    *status = 0;
    return lane;
}

void FakeAccelerator::ForgetLane(backend::Lane* lane) {
    std::lock_guard lock(lanes_mutex_);
    lanes_.erase(lane);
}

std::unique_ptr<backend::DeviceEvent> FakeAccelerator::CreateEvent(bool timing, int32_t* status) {
    *status = 0;
    return std::make_unique<FakeEvent>(timing);
}

int32_t FakeAccelerator::Synchronize() {
    std::lock_guard lock(lanes_mutex_);
    for (backend::Lane* lane : lanes_)
        static_cast<FakeLane*>(lane)->DrainFor(cpu::kWaitForever);
    return 0;
}

int32_t FakeAccelerator::DoCopy2d(void* dst, size_t dpitch, const void* src, size_t spitch,
                                  size_t width, size_t height) {
    if (height == 0 || width == 0) return 0;
    if (!ValidSpan(dst, (height - 1) * dpitch + width) ||
        !ValidSpan(src, (height - 1) * spitch + width)) {
        return kFakeBadAddress;
    }
    auto* d = static_cast<char*>(HostAddress(dst));
    auto* s = static_cast<const char*>(HostAddress(src));
    for (size_t row = 0; row < height; ++row)
        std::memmove(d + row * dpitch, s + row * spitch, width);
    return 0;
}

int32_t FakeAccelerator::DoFill(void* ptr, uint8_t value, size_t count) {
    if (count == 0) return 0;
    if (!ValidSpan(ptr, count)) return kFakeBadAddress;
    std::memset(HostAddress(ptr), value, count);
    return 0;
}

int32_t FakeAccelerator::CopySync(void* dst, const void* src, size_t count) {
    sync_copies_.fetch_add(1);
    return DoCopy2d(dst, count, src, count, count, 1);
}

int32_t FakeAccelerator::Copy2dSync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                    size_t width, size_t height) {
    sync_copies_.fetch_add(1);
    return DoCopy2d(dst, dpitch, src, spitch, width, height);
}

int32_t FakeAccelerator::FillSync(void* ptr, uint8_t value, size_t count) {
    return DoFill(ptr, value, count);
}

void* FakeAccelerator::LoadModule(const void* image, size_t size, std::string* why) {
    const auto* bytes = static_cast<const char*>(image);
    if (size < 8 || std::memcmp(bytes, kFatbinMagic, 4) != 0 || std::memcmp(bytes + 4, "FAKE", 4)) {
        *why = StatusText(kFakeBadImage);
        return nullptr;
    }
    auto module = std::make_unique<FakeModule>();
    std::string name;
    for (size_t i = 8; i < size; ++i) {
        if (bytes[i] != '\n') {
            name.push_back(bytes[i]);
        } else if (!name.empty()) {
            module->names.push_back(std::move(name));
            name.clear();
        }
    }
    return module.release();
}

void FakeAccelerator::UnloadModule(void* module) {
    delete static_cast<FakeModule*>(module);
}

bool FakeAccelerator::GetKernel(void*, const char* name, backend::DeviceKernel* out,
                                std::string* why) {
    std::lock_guard lock(g_registry_mutex);
    auto it = Kernels().find(name);
    if (it == Kernels().end()) {
        *why = StatusText(kFakeNoKernel);
        return false;
    }
    out->function = reinterpret_cast<void*>(it->second);
    out->block_threads = 1;
    out->param_bytes = 0;
    return true;
}

std::vector<std::string> FakeAccelerator::KernelNames(void* module) {
    return static_cast<FakeModule*>(module)->names;
}

std::string FakeAccelerator::StatusText(int32_t status) const {
    switch (status) {
        case kFakeOk:
            return "no error (fake)";
        case kFakeBadAddress:
            return "an address outside device memory (fake status 1)";
        case kFakeKernelFault:
            return "a kernel fault (fake status 2)";
        case kFakeNoKernel:
            return "no such kernel (fake status 3)";
        case kFakeBadImage:
            return "not a fake kernel image (fake status 4)";
        default:
            return "fake status " + std::to_string(status);
    }
}

void InstallFakeAccelerators(int count) {
    backend::SetAcceleratorFactoryForTesting([count] {
        std::vector<std::unique_ptr<backend::Accelerator>> accelerators;
        for (int i = 0; i < count; ++i) {
            auto accelerator = std::make_unique<FakeAccelerator>();
            InstalledList().push_back(accelerator.get());
            accelerators.push_back(std::move(accelerator));
        }
        return accelerators;
    });
}

FakeAccelerator* Installed(int index) {
    auto& list = InstalledList();
    return static_cast<size_t>(index) < list.size() ? list[static_cast<size_t>(index)] : nullptr;
}

}  // namespace openacl::testing
