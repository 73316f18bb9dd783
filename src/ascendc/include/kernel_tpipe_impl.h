// TPipe (the allocator of a block's local memory), TQue/TQueBind (queues of buffers between
// pipeline stages) and TBuf (scratch buffers), with live checks of the queue discipline.
//
// Each TPipe starts the core's memories afresh: a block that constructs its TPipe gets the
// whole UB. Misuse that deadlocks or corrupts data on the NPU (DeQue of an empty queue, more
// EnQue than the depth, AllocTensor with every buffer taken, freeing a foreign tensor) is a
// KernelTrap naming the API.
#ifndef OPENACL_ASCENDC_KERNEL_TPIPE_IMPL_H_
#define OPENACL_ASCENDC_KERNEL_TPIPE_IMPL_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "kernel_core_state.h"
#include "kernel_tensor_impl.h"
#include "kernel_type.h"

namespace AscendC {

class TPipe;

namespace internal {

constexpr uint32_t kMaxBuffersPerPipe = 64;

__aicore__ inline uint32_t AlignUp32(uint64_t bytes) {
    return static_cast<uint32_t>((bytes + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE);
}

// Carves `count` buffers of `length` bytes (rounded up to 32) for a position out of the
// current TPipe's memory.
__aicore__ inline std::byte* CarveBuffers(const char* api, TPosition position, uint32_t count,
                                          uint32_t length) {
    auto& core = openacl::ascendc::t_core;
    if (core.pipe == nullptr) {
        openacl::ascendc::Trap(api, "no TPipe is alive on this core: construct a TPipe first");
    }
    Hardware hardware = openacl::ascendc::PositionHardware(position);
    if (hardware == Hardware::GM) {
        openacl::ascendc::Trap(api,
                               "TPosition::GM has no local buffers: use a VECIN, VECOUT or "
                               "VECCALC position");
    }
    if (count == 0) openacl::ascendc::Trap(api, "the buffer count is 0: ask for 1 or more");
    if (core.bufferCount + count > kMaxBuffersPerPipe) {
        openacl::ascendc::Trap(api, "a TPipe holds at most 64 buffers; this asks for " +
                                        std::to_string(core.bufferCount + count));
    }
    uint64_t asked = static_cast<uint64_t>(AlignUp32(length)) * count;
    size_t slot = static_cast<size_t>(hardware);
    uint32_t capacity = openacl::ascendc::HardwareCapacity(hardware);
    if (core.used[slot] + asked > capacity) {
        openacl::ascendc::Trap(
            api, "asks for " + std::to_string(asked) + " bytes (" + std::to_string(count) + " x " +
                     std::to_string(AlignUp32(length)) + ") but the " +
                     openacl::ascendc::HardwareName(hardware) + " has " + std::to_string(capacity) +
                     " bytes, " + std::to_string(core.used[slot]) +
                     " of them already given out: make the tiles smaller");
    }
    std::byte* start = core.Memory(hardware) + core.used[slot];
    core.used[slot] += static_cast<uint32_t>(asked);
    core.bufferCount += count;
    return start;
}

}  // namespace internal

// A queue of `num` buffers between two positions; at most `depth` tensors may be queued
// (EnQue'd, not yet DeQue'd) at once (0: no limit but the buffer count).
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
 public:
    __aicore__ TQueBind() = default;
    TQueBind(const TQueBind&) = delete;
    TQueBind& operator=(const TQueBind&) = delete;

    template <typename T>
    __aicore__ LocalTensor<T> AllocTensor() {
        CheckLive("AllocTensor");
        openacl::ascendc::t_core.hazards.JoinAll();  // the queue syncs the pipes
        for (uint32_t tried = 0; tried < count_; ++tried) {
            uint32_t index = (next_ + tried) % count_;
            if (state_[index] == State::Free) {
                state_[index] = State::Allocated;
                next_ = (index + 1) % count_;
                return Tensor<T>(index, length_);
            }
        }
        openacl::ascendc::Trap("AllocTensor",
                               "all " + std::to_string(count_) +
                                   " buffers of the queue are in use: FreeTensor one first (on "
                                   "the NPU this waits forever), or InitBuffer more buffers");
    }
    template <typename T>
    __aicore__ void AllocTensor(LocalTensor<T>& tensor) {
        tensor = AllocTensor<T>();
    }

    template <typename T>
    __aicore__ void FreeTensor(LocalTensor<T>& tensor) {
        CheckLive("FreeTensor");
        uint32_t index = Find("FreeTensor", tensor);
        if (state_[index] == State::Free) {
            openacl::ascendc::Trap("FreeTensor",
                                   "the tensor's buffer is already free (freed twice)");
        }
        if (tensor.Freed()) {  // and allocated again since
            openacl::ascendc::Trap("FreeTensor", openacl::ascendc::FreedTensor("the tensor"));
        }
        if (state_[index] == State::Queued) {
            openacl::ascendc::Trap("FreeTensor",
                                   "the tensor is still in the queue: DeQue it before freeing");
        }
        state_[index] = State::Free;
        ++frees_[index];
        openacl::ascendc::t_core.hazards.JoinAll();
    }

    template <typename T>
    __aicore__ bool EnQue(const LocalTensor<T>& tensor) {
        CheckLive("EnQue");
        uint32_t index = Find("EnQue", tensor);
        if (state_[index] == State::Free) {
            openacl::ascendc::Trap("EnQue", "the tensor's buffer was freed: AllocTensor again");
        }
        if (tensor.Freed()) {
            openacl::ascendc::Trap("EnQue", openacl::ascendc::FreedTensor("the tensor"));
        }
        if (state_[index] == State::Queued) {
            openacl::ascendc::Trap("EnQue", "the tensor is already in the queue");
        }
        if (depth > 0 && queued_ >= static_cast<uint32_t>(depth)) {
            openacl::ascendc::Trap("EnQue", "the queue's depth of " + std::to_string(depth) +
                                                " is exceeded: DeQue before the next EnQue, or "
                                                "declare the TQue with a larger depth");
        }
        state_[index] = State::Queued;
        bytes_[index] = static_cast<uint32_t>(tensor.GetSize() * sizeof(T));
        fifo_[(head_ + queued_) % internal::kMaxBuffersPerPipe] = static_cast<uint8_t>(index);
        ++queued_;
        openacl::ascendc::t_core.hazards.JoinAll();
        return true;
    }
    template <TPosition srcUser, TPosition dstUser, typename T>
    __aicore__ bool EnQue(const LocalTensor<T>& tensor) {
        return EnQue(tensor);
    }

    template <typename T>
    __aicore__ LocalTensor<T> DeQue() {
        CheckLive("DeQue");
        if (queued_ == 0) {
            openacl::ascendc::Trap("DeQue",
                                   "the queue is empty: EnQue a tensor before DeQue (on "
                                   "the NPU this waits forever)");
        }
        uint32_t index = fifo_[head_];
        head_ = (head_ + 1) % internal::kMaxBuffersPerPipe;
        --queued_;
        state_[index] = State::Dequeued;
        openacl::ascendc::t_core.hazards.JoinAll();
        return Tensor<T>(index, bytes_[index]);
    }
    template <typename T>
    __aicore__ void DeQue(LocalTensor<T>& tensor) {
        tensor = DeQue<T>();
    }
    template <TPosition srcUser, TPosition dstUser, typename T>
    __aicore__ LocalTensor<T> DeQue() {
        return DeQue<T>();
    }

    __aicore__ bool VacantInQue() const { return depth <= 0 || queued_ < uint32_t(depth); }
    __aicore__ bool HasTensorInQue() const { return queued_ > 0; }
    __aicore__ int32_t GetTensorCountInQue() const { return static_cast<int32_t>(queued_); }
    __aicore__ bool HasIdleBuffer() const {
        for (uint32_t i = 0; i < count_; ++i) {
            if (state_[i] == State::Free) return true;
        }
        return false;
    }
    // Events are implicit on the CPU: nothing to release.
    __aicore__ void FreeAllEvent() {}

    // Called by TPipe::InitBuffer.
    __aicore__ void Init(uint32_t count, uint32_t length) {
        if (epoch_ == openacl::ascendc::t_core.epoch) {
            openacl::ascendc::Trap("TPipe::InitBuffer", "the queue already has its buffers");
        }
        base_ = internal::CarveBuffers("TPipe::InitBuffer", Position(), count, length);
        count_ = count;
        length_ = internal::AlignUp32(length);
        state_.fill(State::Free);
        bytes_.fill(0);
        head_ = queued_ = next_ = 0;
        epoch_ = openacl::ascendc::t_core.epoch;
    }

    static constexpr TPosition Position() {
        // A VECIN -> VECOUT bind lives in the UB; otherwise where the data is coming from.
        return src == TPosition::GM ? dst : src;
    }

 private:
    enum class State : uint8_t { Free, Allocated, Queued, Dequeued };

    __aicore__ void CheckLive(const char* api) const {
        if (epoch_ == 0) {
            openacl::ascendc::Trap(api,
                                   "the queue has no buffers: call "
                                   "TPipe::InitBuffer(queue, num, len) first");
        }
        if (epoch_ != openacl::ascendc::t_core.epoch) {
            openacl::ascendc::Trap(api,
                                   "the queue's buffers were released (TPipe::Reset, Destroy "
                                   "or a newer TPipe): InitBuffer it again");
        }
    }
    template <typename T>
    __aicore__ uint32_t Find(const char* api, const LocalTensor<T>& tensor) const {
        for (uint32_t i = 0; i < count_; ++i) {
            if (tensor.BufferBegin() == base_ + static_cast<size_t>(i) * length_) return i;
        }
        openacl::ascendc::Trap(api,
                               "the tensor was not allocated from this queue: use the queue "
                               "whose AllocTensor or DeQue returned it");
    }
    template <typename T>
    __aicore__ LocalTensor<T> Tensor(uint32_t index, uint32_t bytes) const {
        std::byte* begin = base_ + static_cast<size_t>(index) * length_;
        LocalTensor<T> tensor(reinterpret_cast<T*>(begin), static_cast<uint32_t>(bytes / sizeof(T)),
                              begin, begin + length_, Position());
        tensor.BindAllocation(&frees_[index]);
        return tensor;
    }

    std::byte* base_ = nullptr;
    uint32_t count_ = 0;
    uint32_t length_ = 0;
    uint64_t epoch_ = 0;
    std::array<State, internal::kMaxBuffersPerPipe> state_{};
    std::array<uint32_t, internal::kMaxBuffersPerPipe> bytes_{};
    // Frees of each buffer, never reset: a tensor of an earlier allocation is stale.
    std::array<uint32_t, internal::kMaxBuffersPerPipe> frees_{};
    std::array<uint8_t, internal::kMaxBuffersPerPipe> fifo_{};
    uint32_t head_ = 0;
    uint32_t queued_ = 0;
    uint32_t next_ = 0;
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

// A scratch buffer without a queue (typically VECCALC).
template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
    __aicore__ TBuf() = default;
    TBuf(const TBuf&) = delete;
    TBuf& operator=(const TBuf&) = delete;

    template <typename T>
    __aicore__ LocalTensor<T> Get() {
        CheckLive("TBuf::Get");
        return LocalTensor<T>(reinterpret_cast<T*>(base_), length_ / sizeof(T), base_,
                              base_ + length_, pos);
    }
    template <typename T>
    __aicore__ LocalTensor<T> Get(uint32_t count) {
        CheckLive("TBuf::Get");
        if (static_cast<uint64_t>(count) * sizeof(T) > length_) {
            openacl::ascendc::Trap("TBuf::Get", std::to_string(count) + " elements need " +
                                                    std::to_string(uint64_t(count) * sizeof(T)) +
                                                    " bytes; the buffer has " +
                                                    std::to_string(length_));
        }
        return LocalTensor<T>(reinterpret_cast<T*>(base_), count, base_, base_ + length_, pos);
    }
    // `count` elements starting `offset` bytes into the buffer.
    template <typename T>
    __aicore__ LocalTensor<T> GetWithOffset(uint32_t count, uint32_t offset) {
        CheckLive("TBuf::GetWithOffset");
        if (offset % ONE_BLK_SIZE != 0 ||
            offset + static_cast<uint64_t>(count) * sizeof(T) > length_) {
            openacl::ascendc::Trap("TBuf::GetWithOffset",
                                   "offset " + std::to_string(offset) + " + " +
                                       std::to_string(count) +
                                       " elements must be 32-byte aligned and fit the " +
                                       std::to_string(length_) + "-byte buffer");
        }
        return LocalTensor<T>(reinterpret_cast<T*>(base_ + offset), count, base_, base_ + length_,
                              pos);
    }

    // Called by TPipe::InitBuffer.
    __aicore__ void Init(uint32_t length) {
        if (epoch_ == openacl::ascendc::t_core.epoch) {
            openacl::ascendc::Trap("TPipe::InitBuffer", "the TBuf already has its buffer");
        }
        base_ = internal::CarveBuffers("TPipe::InitBuffer", pos, 1, length);
        length_ = internal::AlignUp32(length);
        epoch_ = openacl::ascendc::t_core.epoch;
    }

 private:
    __aicore__ void CheckLive(const char* api) const {
        if (epoch_ == 0) {
            openacl::ascendc::Trap(api,
                                   "the TBuf has no buffer: call TPipe::InitBuffer(buf, len) "
                                   "first");
        }
        if (epoch_ != openacl::ascendc::t_core.epoch) {
            openacl::ascendc::Trap(api,
                                   "the TBuf's buffer was released (TPipe::Reset, Destroy or "
                                   "a newer TPipe): InitBuffer it again");
        }
    }

    std::byte* base_ = nullptr;
    uint32_t length_ = 0;
    uint64_t epoch_ = 0;
};

class TPipe {
 public:
    __aicore__ TPipe() { Start(); }
    __aicore__ ~TPipe() {
        if (openacl::ascendc::t_core.pipe == this) openacl::ascendc::t_core.pipe = nullptr;
    }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    // `num` buffers of `len` bytes each (rounded up to 32) for a queue.
    template <class Queue>
    __aicore__ bool InitBuffer(Queue& que, uint8_t num, uint32_t len) {
        CheckCurrent();
        que.Init(num, len);
        return true;
    }
    template <TPosition pos>
    __aicore__ bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
        CheckCurrent();
        buf.Init(len);
        return true;
    }

    // Older entry point: the constructor already did this.
    __aicore__ void Init() { Start(); }
    // Releases every buffer; queues and TBufs must be initialised again.
    __aicore__ void Reset() { Start(); }
    __aicore__ void Destroy() {
        Start();
        if (openacl::ascendc::t_core.pipe == this) openacl::ascendc::t_core.pipe = nullptr;
    }

    // An event id for SetFlag/WaitFlag, not reserved.
    template <HardEvent event>
    __aicore__ TEventID FetchEventID() {
        return FetchEventID(event);
    }
    __aicore__ TEventID FetchEventID(HardEvent event) {
        uint32_t taken = openacl::ascendc::t_core.allocatedEventIds[size_t(event)];
        for (uint32_t id = 0; id < openacl::ascendc::kEventIdsPerEvent; ++id) {
            if ((taken & (1U << id)) == 0) return static_cast<TEventID>(id);
        }
        openacl::ascendc::Trap("TPipe::FetchEventID",
                               "all 8 ids of the event are allocated: "
                               "ReleaseEventID one first");
    }
    // An event id reserved until ReleaseEventID.
    template <HardEvent event>
    __aicore__ TEventID AllocEventID() {
        TEventID id = FetchEventID(event);
        openacl::ascendc::t_core.allocatedEventIds[size_t(event)] |= 1U << id;
        return id;
    }
    template <HardEvent event>
    __aicore__ void ReleaseEventID(TEventID id) {
        uint32_t& taken = openacl::ascendc::t_core.allocatedEventIds[size_t(event)];
        if (id < 0 || id >= int(openacl::ascendc::kEventIdsPerEvent) || !(taken & (1U << id))) {
            openacl::ascendc::Trap(
                "TPipe::ReleaseEventID",
                "event id " + std::to_string(id) + " was not allocated with AllocEventID");
        }
        taken &= ~(1U << id);
    }

 private:
    __aicore__ void Start() {
        auto& core = openacl::ascendc::t_core;
        if (core.staticTensors) {
            openacl::ascendc::Trap("TPipe",
                                   "this block already allocates with LocalMemAllocator (the "
                                   "static tensor mode), which cannot be mixed with TPipe: both "
                                   "hand out the same memory");
        }
        core.used.fill(0);
        core.bufferCount = 0;
        ++core.epoch;
        core.pipe = this;
        core.hazards.JoinAll();  // the memory is handed out afresh
    }
    __aicore__ void CheckCurrent() const {
        if (openacl::ascendc::t_core.pipe != this) {
            openacl::ascendc::Trap("TPipe::InitBuffer",
                                   "this TPipe was destroyed or replaced by a newer one");
        }
    }
};

// The block's current TPipe (nullptr when none is alive).
__aicore__ inline TPipe* GetTPipePtr() {
    return static_cast<TPipe*>(openacl::ascendc::t_core.pipe);
}

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_TPIPE_IMPL_H_
