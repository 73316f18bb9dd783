// LocalTensor (a view into a core-local buffer) and GlobalTensor (a view of global memory).
//
// A LocalTensor remembers the whole buffer it came from (an AllocTensor, a TBuf::Get), so that
// element accesses and instructions are checked against that buffer, not only the view.
#ifndef OPENACL_ASCENDC_KERNEL_TENSOR_IMPL_H_
#define OPENACL_ASCENDC_KERNEL_TENSOR_IMPL_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "kernel_core_state.h"
#include "kernel_type.h"

namespace AscendC {

template <typename T>
class LocalTensor {
 public:
    using PrimType = T;

    __aicore__ LocalTensor() = default;
    // A view of `size` elements at `address` inside the buffer [bufferBegin, bufferEnd).
    __aicore__ LocalTensor(T* address, uint32_t size, std::byte* bufferBegin, std::byte* bufferEnd,
                           TPosition position)
        : address_(address),
          size_(size),
          bufferBegin_(bufferBegin),
          bufferEnd_(bufferEnd),
          position_(position) {}

    __aicore__ LocalTensor operator[](uint32_t offset) const {
        LocalTensor view = *this;
        view.address_ = address_ + offset;
        view.size_ = offset < size_ ? size_ - offset : 0;
        return view;
    }

    // Scalar accesses run on the scalar pipe (S); operator() is checked as a read.
    __aicore__ T GetValue(uint32_t index) const {
        return *Scalar("LocalTensor::GetValue", index, false);
    }
    __aicore__ void SetValue(uint32_t index, const T& value) const {
        *Scalar("LocalTensor::SetValue", index, true) = value;
    }
    __aicore__ T& operator()(uint32_t index) const {
        return *Scalar("LocalTensor::operator()", index, false);
    }

    __aicore__ uint32_t GetSize() const { return size_; }
    // Sets the number of elements instructions on the whole tensor use; it may not pass the end
    // of the buffer.
    __aicore__ void SetSize(uint32_t size) {
        if (static_cast<uint64_t>(size) * sizeof(T) > BytesToBufferEnd()) {
            openacl::ascendc::Trap("LocalTensor::SetSize",
                                   std::to_string(size) + " elements pass the end of the buffer (" +
                                       std::to_string(BytesToBufferEnd() / sizeof(T)) +
                                       " fit from this view)");
        }
        size_ = size;
    }
    // Length in bytes.
    __aicore__ uint32_t GetLength() const { return static_cast<uint32_t>(size_ * sizeof(T)); }
    __aicore__ TPosition GetPosition() const { return position_; }
    // The buffer's address; on the CPU a host address, so casting it to a pointer works.
    __aicore__ uint64_t GetPhyAddr() const { return reinterpret_cast<uintptr_t>(address_); }
    __aicore__ uint64_t GetPhyAddr(uint32_t offset) const {
        return reinterpret_cast<uintptr_t>(address_ + offset);
    }

    template <typename U>
    __aicore__ LocalTensor<U> ReinterpretCast() const {
        LocalTensor<U> view(
            reinterpret_cast<U*>(address_),
            static_cast<uint32_t>(static_cast<uint64_t>(size_) * sizeof(T) / sizeof(U)),
            bufferBegin_, bufferEnd_, position_);
        view.live_ = live_;
        view.generation_ = generation_;
        return view;
    }

    __aicore__ void SetUserTag(int32_t tag) { tag_ = tag; }
    __aicore__ int32_t GetUserTag() const { return tag_; }

    // openacl's own accessors, used by the instructions.
    __aicore__ T* Data() const { return address_; }
    __aicore__ std::byte* BufferBegin() const { return bufferBegin_; }
    __aicore__ std::byte* BufferEnd() const { return bufferEnd_; }
    __aicore__ bool IsBound() const { return address_ != nullptr && bufferEnd_ != nullptr; }
    // A queue's tensor remembers its buffer's allocation (`live`: the queue's count of frees of
    // that buffer); FreeTensor ends it, and a tensor of an ended allocation is freed.
    __aicore__ void BindAllocation(const uint32_t* live) {
        live_ = live;
        generation_ = *live;
    }
    __aicore__ bool Freed() const { return live_ != nullptr && *live_ != generation_; }
    // Bytes from this view's start to the end of its buffer (0 when outside it).
    __aicore__ uint64_t BytesToBufferEnd() const {
        auto* start = reinterpret_cast<std::byte*>(address_);
        if (!IsBound() || start < bufferBegin_ || start > bufferEnd_) return 0;
        return static_cast<uint64_t>(bufferEnd_ - start);
    }

 private:
    template <typename>
    friend class LocalTensor;

    __aicore__ T* Element(const char* api, uint32_t index) const {
        if (!IsBound()) {
            openacl::ascendc::Trap(api,
                                   "the tensor has no buffer: take it from AllocTensor, DeQue or "
                                   "TBuf::Get first");
        }
        if (Freed()) openacl::ascendc::Trap(api, openacl::ascendc::FreedTensor("the tensor"));
        auto* element = reinterpret_cast<std::byte*>(address_ + index);
        if (element < bufferBegin_ || element + sizeof(T) > bufferEnd_) {
            openacl::ascendc::Trap(api, "index " + std::to_string(index) +
                                            " is outside the tensor's buffer (" +
                                            std::to_string(BytesToBufferEnd() / sizeof(T)) +
                                            " elements from this view to the buffer's end)");
        }
        return address_ + index;
    }
    __aicore__ T* Scalar(const char* api, uint32_t index, bool write) const {
        T* element = Element(api, index);
        openacl::ascendc::TrackAccess(api, "the element", {openacl::ascendc::Pipe::S, write},
                                      element, sizeof(T));
        return element;
    }

    T* address_ = nullptr;
    uint32_t size_ = 0;
    std::byte* bufferBegin_ = nullptr;
    std::byte* bufferEnd_ = nullptr;
    TPosition position_ = TPosition::VECCALC;
    int32_t tag_ = 0;
    const uint32_t* live_ = nullptr;
    uint32_t generation_ = 0;
};

template <typename T>
class GlobalTensor {
 public:
    using PrimType = T;

    __aicore__ GlobalTensor() = default;

    // `size` (elements) is informative: global memory is not bounds-checked, as on the NPU.
    __aicore__ void SetGlobalBuffer(__gm__ T* buffer, uint64_t size) {
        address_ = buffer;
        size_ = size;
    }
    __aicore__ void SetGlobalBuffer(__gm__ T* buffer) { SetGlobalBuffer(buffer, 0); }

    __aicore__ __gm__ T* GetPhyAddr() const { return address_; }
    __aicore__ __gm__ T* GetPhyAddr(uint64_t offset) const { return At(offset); }
    __aicore__ uint64_t GetSize() const { return size_; }

    // Scalar accesses run on the scalar pipe (S); operator() is checked as a read.
    __aicore__ T GetValue(uint64_t offset) const {
        return *Scalar("GlobalTensor::GetValue", offset, false);
    }
    __aicore__ void SetValue(uint64_t offset, const T& value) const {
        T* element = Scalar("GlobalTensor::SetValue", offset, true);
        openacl::ascendc::RecordGlobalWrite("GlobalTensor::SetValue", element, sizeof(T));
        *element = value;
    }
    __aicore__ T& operator()(uint64_t offset) const {
        return *Scalar("GlobalTensor::operator()", offset, false);
    }
    __aicore__ GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor view;
        view.address_ = At(offset);
        view.size_ = offset < size_ ? size_ - offset : 0;
        return view;
    }

    // Cache hints change nothing on the CPU.
    template <typename Mode>
    __aicore__ void SetL2CacheHint(Mode) {}

 private:
    __aicore__ T* Element(const char* api, uint64_t offset) const {
        if (address_ == nullptr) {
            openacl::ascendc::Trap(api, "the tensor has no memory: call SetGlobalBuffer first");
        }
        return address_ + offset;
    }
    __aicore__ T* Scalar(const char* api, uint64_t offset, bool write) const {
        T* element = Element(api, offset);
        openacl::ascendc::TrackAccess(api, "the element", {openacl::ascendc::Pipe::S, write},
                                      element, sizeof(T));
        return element;
    }
    // Kernels offset tensors they never set (a Matmul's absent bias, per block): the view of a
    // tensor without memory has none either, where null plus an offset would be undefined on
    // the CPU; Element then says what is wrong if it is read.
    __aicore__ __gm__ T* At(uint64_t offset) const {
        return address_ == nullptr ? nullptr : address_ + offset;
    }

    __gm__ T* address_ = nullptr;
    uint64_t size_ = 0;
};

}  // namespace AscendC

#endif  // OPENACL_ASCENDC_KERNEL_TENSOR_IMPL_H_
