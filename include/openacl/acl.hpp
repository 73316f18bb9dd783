// A modern C++ layer over AscendCL: owners that release in the right order, typed memory,
// typed kernel arguments, callables as host functions, and errors that explain themselves.
//
//     acl::Runtime runtime;                                  // aclInit ... aclFinalize
//     acl::Device device(0);                                 // aclrtSetDevice ... aclrtResetDevice
//     auto stream = acl::Stream::create();
//     auto a = acl::DeviceBuffer<float>::create(n);
//     std::vector<float> host(n, 1.0f);
//     stream.copy(a, host);                                  // host -> device, inferred
//     stream.launch(kernel, 64, a, n);                       // one 8-byte slot per argument
//     stream.host_function([&] { done = true; });            // owned until it has run
//     stream.synchronize();                                  // throws acl::Error on failure
//
// Header-only C++17 over the public C API (acl/acl.h): it works against any conforming
// libascendcl, and every object gives its C handle with .handle(), so C and C++ mix freely.
// Every operation that can fail has a throwing form and a try_ form returning acl::Expected
// (no exceptions; with -fno-exceptions the throwing forms print the error and abort).
// docs/CPP_API.md shows each type with an example.
#ifndef OPENACL_ACL_HPP_
#define OPENACL_ACL_HPP_

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "acl/acl.h"

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define OPENACL_HPP_EXCEPTIONS 1
#else
#define OPENACL_HPP_EXCEPTIONS 0
#endif

namespace acl {

// ---- Errors ------------------------------------------------------------------------------

// A failed call: its aclError, the C function that returned it and the runtime's explanation
// (aclGetRecentErrMsg, read on the failing thread right after the call).
struct Failure {
    aclError code = ACL_SUCCESS;
    std::string function;
    std::string message;

    // "<function> failed with error <code>: <message>"
    std::string describe() const {
        std::string text = function + " failed with error " + std::to_string(code);
        if (!message.empty()) text += ": " + message;
        return text;
    }
};

// What the throwing forms throw.
class Error : public std::runtime_error {
 public:
    explicit Error(Failure failure)
        : std::runtime_error(failure.describe()), failure_(std::move(failure)) {}
    aclError code() const noexcept { return failure_.code; }
    const std::string& function() const noexcept { return failure_.function; }
    const std::string& message() const noexcept { return failure_.message; }
    const Failure& failure() const noexcept { return failure_; }

 private:
    Failure failure_;
};

namespace detail {

[[noreturn]] inline void Raise(const Failure& failure) {
#if OPENACL_HPP_EXCEPTIONS
    throw Error(failure);
#else
    std::fprintf(stderr, "acl: %s\n", failure.describe().c_str());
    std::abort();
#endif
}

// The failure of `function`, with the message the runtime recorded for it.
inline Failure MakeFailure(aclError code, const char* function) {
    const char* message = aclGetRecentErrMsg();
    return Failure{code, function, message != nullptr ? message : ""};
}

}  // namespace detail

// A value or the Failure that prevented it: the non-throwing form of every operation.
template <class T>
class [[nodiscard]] Expected {
 public:
    Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    Expected(Failure failure) : state_(std::in_place_index<1>, std::move(failure)) {}

    bool has_value() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }
    // The value; throws Error (or aborts without exceptions) when there is none.
    T& value() & {
        if (!has_value()) detail::Raise(error());
        return std::get<0>(state_);
    }
    const T& value() const& {
        if (!has_value()) detail::Raise(error());
        return std::get<0>(state_);
    }
    T&& value() && {
        if (!has_value()) detail::Raise(error());
        return std::get<0>(std::move(state_));
    }
    T& operator*() & { return value(); }
    T&& operator*() && { return std::move(*this).value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    // Only when !has_value().
    const Failure& error() const { return std::get<1>(state_); }
    aclError code() const noexcept { return has_value() ? ACL_SUCCESS : error().code; }

 private:
    std::variant<T, Failure> state_;
};

// Success or a Failure: what the try_ forms of operations without a result return.
template <>
class [[nodiscard]] Expected<void> {
 public:
    Expected() = default;
    Expected(Failure failure) : failure_(std::move(failure)) {}

    bool has_value() const noexcept { return !failure_.has_value(); }
    explicit operator bool() const noexcept { return has_value(); }
    // Throws Error (or aborts without exceptions) on failure.
    void value() const {
        if (failure_) detail::Raise(*failure_);
    }
    const Failure& error() const { return *failure_; }
    aclError code() const noexcept { return failure_ ? failure_->code : ACL_SUCCESS; }

 private:
    std::optional<Failure> failure_;
};
using Status = Expected<void>;

namespace detail {

inline Status Check(aclError rc, const char* function) {
    if (rc == ACL_SUCCESS) return {};
    return MakeFailure(rc, function);
}

// A buffer of `count` elements of T would need more than SIZE_MAX bytes: refused before the
// byte count wraps around into a small allocation.
template <class T>
Failure TooLarge(size_t count, const char* function) {
    return Failure{ACL_ERROR_INVALID_PARAM, function,
                   std::to_string(count) + " elements of " + std::to_string(sizeof(T)) +
                       " bytes do not fit in size_t"};
}

// The C API's functions that return a handle report failure with NULL and a message.
inline Failure NullFailure(const char* function) {
    Failure failure = MakeFailure(ACL_ERROR_FAILURE, function);
    if (failure.message.empty()) failure.message = "returned NULL";
    return failure;
}

}  // namespace detail

// Turns the result of a plain C call into a Status, with the runtime's message: how C calls
// mix with the layer, e.g. acl::check(aclrtGetRunMode(&mode), "aclrtGetRunMode").value().
inline Status check(aclError rc, const char* function) {
    return detail::Check(rc, function);
}

// ---- Runtime and device guards -------------------------------------------------------------

// aclInit for a scope, aclFinalize at its end (aclInit is reference-counted by the runtime).
class Runtime {
 public:
    explicit Runtime(const char* config_path = nullptr) { try_init(config_path).value(); }
    Runtime(Runtime&& other) noexcept : active_(std::exchange(other.active_, false)) {}
    Runtime& operator=(Runtime&&) = delete;
    ~Runtime() {
        if (active_) (void)aclFinalize();
    }
    static Expected<Runtime> try_create(const char* config_path = nullptr) {
        Runtime runtime(Adopt{});
        if (Status s = runtime.try_init(config_path); !s) return s.error();
        return runtime;
    }

 private:
    struct Adopt {};
    explicit Runtime(Adopt) {}
    Status try_init(const char* config_path) {
        Status s = detail::Check(aclInit(config_path), "aclInit");
        active_ = s.has_value();
        return s;
    }
    bool active_ = false;
};

// The device guard: aclrtSetDevice for a scope, aclrtResetDevice at its end. The reset
// releases what the device still holds, so owners of its memory, streams and contexts must be
// declared after the guard (and so released before it).
class Device {
 public:
    explicit Device(int32_t id) : id_(id) { Set().value(); }
    Device(Device&& other) noexcept
        : id_(other.id_), active_(std::exchange(other.active_, false)) {}
    Device& operator=(Device&&) = delete;
    ~Device() {
        if (active_) (void)aclrtResetDevice(id_);
    }
    static Expected<Device> try_create(int32_t id) {
        Device device(id, Adopt{});
        if (Status s = device.Set(); !s) return s.error();
        return device;
    }
    int32_t id() const noexcept { return id_; }
    // Waits for every stream of the current context's device.
    void synchronize() const { try_synchronize().value(); }
    Status try_synchronize() const {
        return detail::Check(aclrtSynchronizeDevice(), "aclrtSynchronizeDevice");
    }
    static uint32_t count() {
        uint32_t n = 0;
        detail::Check(aclrtGetDeviceCount(&n), "aclrtGetDeviceCount").value();
        return n;
    }

 private:
    struct Adopt {};
    Device(int32_t id, Adopt) : id_(id) {}
    Status Set() {
        Status s = detail::Check(aclrtSetDevice(id_), "aclrtSetDevice");
        active_ = s.has_value();
        return s;
    }
    int32_t id_;
    bool active_ = false;
};

// ---- Contexts --------------------------------------------------------------------------------

// An explicit context (aclrtCreateContext, which also makes it current on the creating
// thread), destroyed with aclrtDestroyContext; its streams finish their work first.
class Context {
 public:
    Context() = default;
    Context(Context&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Context& operator=(Context&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~Context() { reset(); }

    static Context create(int32_t device_id) { return try_create(device_id).value(); }
    static Expected<Context> try_create(int32_t device_id) {
        Context context;
        if (Status s = detail::Check(aclrtCreateContext(&context.handle_, device_id),
                                     "aclrtCreateContext");
            !s) {
            return s.error();
        }
        return context;
    }
    // The calling thread's current context (not owned).
    static aclrtContext current() {
        aclrtContext context = nullptr;
        detail::Check(aclrtGetCurrentContext(&context), "aclrtGetCurrentContext").value();
        return context;
    }

    aclrtContext handle() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != nullptr; }
    // Gives up ownership: the caller destroys the context.
    aclrtContext release() noexcept { return std::exchange(handle_, nullptr); }
    void reset() noexcept {
        if (handle_ != nullptr) (void)aclrtDestroyContext(std::exchange(handle_, nullptr));
    }

 private:
    aclrtContext handle_ = nullptr;
};

// Makes a context current on this thread for a scope and restores the previous one at its
// end: the safe way to use a context from a worker thread. Use it on one thread only. A thread
// that had no current context keeps this one afterwards (the C API cannot unset a context).
class CurrentContext {
 public:
    explicit CurrentContext(aclrtContext context) { Enter(context).value(); }
    explicit CurrentContext(const Context& context) : CurrentContext(context.handle()) {}
    CurrentContext(CurrentContext&& other) noexcept
        : previous_(std::exchange(other.previous_, nullptr)),
          active_(std::exchange(other.active_, false)) {}
    CurrentContext& operator=(CurrentContext&&) = delete;
    ~CurrentContext() {
        if (active_ && previous_ != nullptr) (void)aclrtSetCurrentContext(previous_);
    }
    static Expected<CurrentContext> try_create(aclrtContext context) {
        CurrentContext guard(Adopt{});
        if (Status s = guard.Enter(context); !s) return s.error();
        return guard;
    }
    // The context restored at the end of the scope (nullptr: none).
    aclrtContext previous() const noexcept { return previous_; }

 private:
    struct Adopt {};
    explicit CurrentContext(Adopt) {}
    Status Enter(aclrtContext context) {
        if (aclrtGetCurrentContext(&previous_) != ACL_SUCCESS) {
            previous_ = nullptr;
            (void)aclGetRecentErrMsg();  // "no current context" is expected here, not news
        }
        Status s = detail::Check(aclrtSetCurrentContext(context), "aclrtSetCurrentContext");
        active_ = s.has_value();
        return s;
    }
    aclrtContext previous_ = nullptr;
    bool active_ = false;
};

// ---- Memory ----------------------------------------------------------------------------------

enum class Memory { host, device };

// A typed view of memory: `size()` elements of T at `data()`, on the host or on the device.
// The memory kind is part of the type, so copies know their direction at compile time.
template <class T, Memory M>
class Span {
 public:
    using element_type = T;
    using value_type = std::remove_cv_t<T>;
    static constexpr Memory memory = M;

    constexpr Span() noexcept = default;
    constexpr Span(T* data, size_t size) noexcept : data_(data), size_(size) {}
    // Span<T> -> Span<const T>
    template <class U, class = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
    constexpr Span(const Span<U, M>& other) noexcept : data_(other.data()), size_(other.size()) {}

    constexpr T* data() const noexcept { return data_; }
    constexpr size_t size() const noexcept { return size_; }
    constexpr size_t size_bytes() const noexcept { return size_ * sizeof(T); }
    constexpr bool empty() const noexcept { return size_ == 0; }
    // Elements [offset, offset + count), clamped to the span.
    constexpr Span subspan(size_t offset, size_t count = SIZE_MAX) const noexcept {
        offset = offset < size_ ? offset : size_;
        return Span(data_ + offset, count < size_ - offset ? count : size_ - offset);
    }
    constexpr Span first(size_t count) const noexcept { return subspan(0, count); }

 private:
    T* data_ = nullptr;
    size_t size_ = 0;
};
template <class T>
using DeviceSpan = Span<T, Memory::device>;
template <class T>
using HostSpan = Span<T, Memory::host>;

// Device memory for `size()` elements of T (aclrtMalloc), freed with aclrtFree.
template <class T>
class DeviceBuffer {
    static_assert(std::is_trivially_copyable_v<T>, "device memory holds trivially copyable types");

 public:
    DeviceBuffer() = default;
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            reset();
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }
    ~DeviceBuffer() { reset(); }

    static DeviceBuffer create(size_t count,
                               aclrtMemMallocPolicy policy = ACL_MEM_MALLOC_HUGE_FIRST) {
        return try_create(count, policy).value();
    }
    static Expected<DeviceBuffer> try_create(
        size_t count, aclrtMemMallocPolicy policy = ACL_MEM_MALLOC_HUGE_FIRST) {
        if (count > SIZE_MAX / sizeof(T)) return detail::TooLarge<T>(count, "aclrtMalloc");
        DeviceBuffer buffer;
        void* p = nullptr;
        if (Status s = detail::Check(aclrtMalloc(&p, count * sizeof(T), policy), "aclrtMalloc");
            !s) {
            return s.error();
        }
        buffer.data_ = static_cast<T*>(p);
        buffer.size_ = count;
        return buffer;
    }

    T* data() const noexcept { return data_; }
    void* handle() const noexcept { return data_; }
    size_t size() const noexcept { return size_; }
    size_t size_bytes() const noexcept { return size_ * sizeof(T); }
    explicit operator bool() const noexcept { return data_ != nullptr; }
    DeviceSpan<T> span() noexcept { return {data_, size_}; }
    DeviceSpan<const T> span() const noexcept { return {data_, size_}; }
    operator DeviceSpan<T>() noexcept { return span(); }
    operator DeviceSpan<const T>() const noexcept { return span(); }
    // Gives up ownership: the caller frees the memory with aclrtFree.
    T* release() noexcept {
        size_ = 0;
        return std::exchange(data_, nullptr);
    }
    void reset() noexcept {
        if (data_ != nullptr) (void)aclrtFree(std::exchange(data_, nullptr));
        size_ = 0;
    }

 private:
    T* data_ = nullptr;
    size_t size_ = 0;
};

// Pinned host memory for `size()` elements of T (aclrtMallocHost), freed with aclrtFreeHost.
// Asynchronous copies from and to it are truly asynchronous.
template <class T>
class PinnedHostBuffer {
    static_assert(std::is_trivially_copyable_v<T>, "pinned memory holds trivially copyable types");

 public:
    PinnedHostBuffer() = default;
    PinnedHostBuffer(PinnedHostBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    PinnedHostBuffer& operator=(PinnedHostBuffer&& other) noexcept {
        if (this != &other) {
            reset();
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }
    ~PinnedHostBuffer() { reset(); }

    static PinnedHostBuffer create(size_t count) { return try_create(count).value(); }
    static Expected<PinnedHostBuffer> try_create(size_t count) {
        if (count > SIZE_MAX / sizeof(T)) return detail::TooLarge<T>(count, "aclrtMallocHost");
        PinnedHostBuffer buffer;
        void* p = nullptr;
        if (Status s = detail::Check(aclrtMallocHost(&p, count * sizeof(T)), "aclrtMallocHost");
            !s) {
            return s.error();
        }
        buffer.data_ = static_cast<T*>(p);
        buffer.size_ = count;
        return buffer;
    }

    T* data() const noexcept { return data_; }
    void* handle() const noexcept { return data_; }
    size_t size() const noexcept { return size_; }
    size_t size_bytes() const noexcept { return size_ * sizeof(T); }
    explicit operator bool() const noexcept { return data_ != nullptr; }
    T& operator[](size_t i) const noexcept { return data_[i]; }
    T* begin() const noexcept { return data_; }
    T* end() const noexcept { return data_ + size_; }
    HostSpan<T> span() noexcept { return {data_, size_}; }
    HostSpan<const T> span() const noexcept { return {data_, size_}; }
    operator HostSpan<T>() noexcept { return span(); }
    operator HostSpan<const T>() const noexcept { return span(); }
    // Gives up ownership: the caller frees the memory with aclrtFreeHost.
    T* release() noexcept {
        size_ = 0;
        return std::exchange(data_, nullptr);
    }
    void reset() noexcept {
        if (data_ != nullptr) (void)aclrtFreeHost(std::exchange(data_, nullptr));
        size_ = 0;
    }

 private:
    T* data_ = nullptr;
    size_t size_ = 0;
};

namespace detail {

// What a copy accepts: spans, the buffers above, and contiguous host containers
// (std::vector, std::array, C arrays), each as a Span of the right memory kind.
template <class T, Memory M>
Span<T, M> AsSpan(Span<T, M> s) {
    return s;
}
template <class T>
DeviceSpan<T> AsSpan(DeviceBuffer<T>& b) {
    return b.span();
}
template <class T>
DeviceSpan<const T> AsSpan(const DeviceBuffer<T>& b) {
    return b.span();
}
template <class T>
HostSpan<T> AsSpan(PinnedHostBuffer<T>& b) {
    return b.span();
}
template <class T>
HostSpan<const T> AsSpan(const PinnedHostBuffer<T>& b) {
    return b.span();
}
template <class T, class A>
HostSpan<T> AsSpan(std::vector<T, A>& v) {
    return {v.data(), v.size()};
}
template <class T, class A>
HostSpan<const T> AsSpan(const std::vector<T, A>& v) {
    return {v.data(), v.size()};
}
template <class T, size_t N>
HostSpan<T> AsSpan(std::array<T, N>& a) {
    return {a.data(), N};
}
template <class T, size_t N>
HostSpan<const T> AsSpan(const std::array<T, N>& a) {
    return {a.data(), N};
}
template <class T, size_t N>
HostSpan<T> AsSpan(T (&a)[N]) {
    return {a, N};
}

template <class X>
struct IsSpan : std::false_type {};
template <class T, Memory M>
struct IsSpan<Span<T, M>> : std::true_type {};

// Work queued on a stream uses its memory later: an owner of memory (a buffer, a container)
// must be an lvalue that outlives the call, never a temporary destroyed at its end. Spans and
// scalars are copied into the task, so temporaries of those are fine. X is the deduced type of
// a forwarding reference.
template <class X>
constexpr bool kOutlivesTheCall =
    std::is_lvalue_reference_v<X> || IsSpan<std::remove_cv_t<std::remove_reference_t<X>>>::value;

constexpr aclrtMemcpyKind CopyKind(Memory dst, Memory src) {
    if (dst == Memory::device) {
        return src == Memory::device ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_HOST_TO_DEVICE;
    }
    return src == Memory::device ? ACL_MEMCPY_DEVICE_TO_HOST : ACL_MEMCPY_HOST_TO_HOST;
}

template <class D, class S>
constexpr void CheckCopyTypes() {
    static_assert(!std::is_const_v<typename D::element_type>,
                  "acl::copy: the destination is read-only (a span of const elements)");
    static_assert(std::is_same_v<typename D::value_type, typename S::value_type>,
                  "acl::copy: element types differ; copy between spans of the same type");
}

}  // namespace detail

// Copies all of `src` into `dst` (aclrtMemcpy); the kind follows from the memory kinds. The
// runtime refuses a destination smaller than the source, with an explanation.
template <class Dst, class Src>
Status try_copy(Dst&& dst, Src&& src) {
    auto d = detail::AsSpan(dst);
    auto s = detail::AsSpan(src);
    detail::CheckCopyTypes<decltype(d), decltype(s)>();
    return detail::Check(aclrtMemcpy(d.data(), d.size_bytes(), s.data(), s.size_bytes(),
                                     detail::CopyKind(d.memory, s.memory)),
                         "aclrtMemcpy");
}
template <class Dst, class Src>
void copy(Dst&& dst, Src&& src) {
    try_copy(std::forward<Dst>(dst), std::forward<Src>(src)).value();
}

// Sets every byte of `dst` to `value` (aclrtMemset).
template <class Dst>
Status try_fill_bytes(Dst&& dst, unsigned char value) {
    auto d = detail::AsSpan(dst);
    return detail::Check(aclrtMemset(d.data(), d.size_bytes(), value, d.size_bytes()),
                         "aclrtMemset");
}
template <class Dst>
void fill_bytes(Dst&& dst, unsigned char value) {
    try_fill_bytes(std::forward<Dst>(dst), value).value();
}

// ---- Events ----------------------------------------------------------------------------------

// An event (aclrtCreateEvent: it can be waited for and timed; or aclrtCreateEventWithFlag
// with ACL_EVENT_* flags), destroyed with aclrtDestroyEvent.
class Event {
 public:
    Event() = default;
    Event(Event&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Event& operator=(Event&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~Event() { reset(); }

    static Event create() { return try_create().value(); }
    static Expected<Event> try_create() {
        Event event;
        if (Status s = detail::Check(aclrtCreateEvent(&event.handle_), "aclrtCreateEvent"); !s) {
            return s.error();
        }
        return event;
    }
    static Event create(uint32_t flags) { return try_create(flags).value(); }
    static Expected<Event> try_create(uint32_t flags) {
        Event event;
        if (Status s = detail::Check(aclrtCreateEventWithFlag(&event.handle_, flags),
                                     "aclrtCreateEventWithFlag");
            !s) {
            return s.error();
        }
        return event;
    }

    // Waits until the work recorded before the event has run.
    void synchronize() const { try_synchronize().value(); }
    Status try_synchronize() const {
        return detail::Check(aclrtSynchronizeEvent(handle_), "aclrtSynchronizeEvent");
    }
    // Whether the recorded work has run.
    bool completed() const {
        aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
        detail::Check(aclrtQueryEventStatus(handle_, &status), "aclrtQueryEventStatus").value();
        return status == ACL_EVENT_RECORDED_STATUS_COMPLETE;
    }
    // Milliseconds between two recorded events.
    static float elapsed_ms(const Event& start, const Event& end) {
        float ms = 0;
        detail::Check(aclrtEventElapsedTime(&ms, start.handle_, end.handle_),
                      "aclrtEventElapsedTime")
            .value();
        return ms;
    }

    aclrtEvent handle() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != nullptr; }
    aclrtEvent release() noexcept { return std::exchange(handle_, nullptr); }
    void reset() noexcept {
        if (handle_ != nullptr) (void)aclrtDestroyEvent(std::exchange(handle_, nullptr));
    }

 private:
    aclrtEvent handle_ = nullptr;
};

// ---- Kernels ---------------------------------------------------------------------------------

// A kernel of a loaded Binary (aclrtFuncHandle). Not an owner: valid while its Binary lives.
class Kernel {
 public:
    Kernel() = default;
    explicit Kernel(aclrtFuncHandle handle) noexcept : handle_(handle) {}
    aclrtFuncHandle handle() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != nullptr; }

 private:
    aclrtFuncHandle handle_ = nullptr;
};

// A loaded kernel binary (aclrtBinaryLoadFromFile / FromData), unloaded with
// aclrtBinaryUnLoad.
class Binary {
 public:
    Binary() = default;
    Binary(Binary&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Binary& operator=(Binary&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~Binary() { reset(); }

    static Binary load_file(const char* path) { return try_load_file(path).value(); }
    static Expected<Binary> try_load_file(const char* path) {
        Binary binary;
        if (Status s = detail::Check(aclrtBinaryLoadFromFile(path, nullptr, &binary.handle_),
                                     "aclrtBinaryLoadFromFile");
            !s) {
            return s.error();
        }
        return binary;
    }
    static Binary load_data(const void* data, size_t size) {
        return try_load_data(data, size).value();
    }
    static Expected<Binary> try_load_data(const void* data, size_t size) {
        Binary binary;
        if (Status s = detail::Check(aclrtBinaryLoadFromData(data, size, nullptr, &binary.handle_),
                                     "aclrtBinaryLoadFromData");
            !s) {
            return s.error();
        }
        return binary;
    }

    Kernel kernel(const char* name) const { return try_kernel(name).value(); }
    Expected<Kernel> try_kernel(const char* name) const {
        aclrtFuncHandle f = nullptr;
        if (Status s =
                detail::Check(aclrtBinaryGetFunction(handle_, name, &f), "aclrtBinaryGetFunction");
            !s) {
            return s.error();
        }
        return Kernel(f);
    }

    aclrtBinHandle handle() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != nullptr; }
    aclrtBinHandle release() noexcept { return std::exchange(handle_, nullptr); }
    void reset() noexcept {
        if (handle_ != nullptr) (void)aclrtBinaryUnLoad(std::exchange(handle_, nullptr));
    }

 private:
    aclrtBinHandle handle_ = nullptr;
};

namespace detail {

template <class X>
struct IsDeviceMemory : std::false_type {};
template <class T>
struct IsDeviceMemory<DeviceBuffer<T>> : std::true_type {};
template <class T>
struct IsDeviceMemory<DeviceSpan<T>> : std::true_type {};
template <class X>
struct IsHostMemory : std::false_type {};
template <class T>
struct IsHostMemory<PinnedHostBuffer<T>> : std::true_type {};
template <class T>
struct IsHostMemory<HostSpan<T>> : std::true_type {};
template <class T, class A>
struct IsHostMemory<std::vector<T, A>> : std::true_type {};

// One kernel argument in its 8-byte slot: device memory as its address, pointers as
// themselves, scalars up to 8 bytes as their bytes (the kernel reads its parameter type).
template <class A>
uint64_t ToSlot(const A& arg) {
    using D = std::decay_t<A>;
    static_assert(!IsHostMemory<D>::value,
                  "acl::Stream::launch: host memory cannot be a kernel argument; copy it to a "
                  "DeviceBuffer first");
    if constexpr (IsDeviceMemory<D>::value) {
        return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(arg.data()));
    } else if constexpr (std::is_pointer_v<D>) {
        return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(arg));
    } else if constexpr (std::is_null_pointer_v<D>) {
        return 0;
    } else {
        static_assert(std::is_trivially_copyable_v<D> && sizeof(D) <= 8,
                      "acl::Stream::launch: a kernel argument is device memory, a pointer or a "
                      "scalar of at most 8 bytes");
        uint64_t slot = 0;
        std::memcpy(&slot, &arg, sizeof(D));
        return slot;
    }
}

// Host functions and callbacks own their callable on the heap; the trampoline runs it once
// and deletes it. An exception cannot cross the C runtime: it ends the program.
template <class F>
void Trampoline(void* arg) noexcept {
    std::unique_ptr<F> callable(static_cast<F*>(arg));
    (*callable)();
}

}  // namespace detail

// ---- Models ----------------------------------------------------------------------------------

// A model's description (aclmdlCreateDesc + aclmdlGetDesc), destroyed with aclmdlDestroyDesc.
class ModelDesc {
 public:
    ModelDesc() = default;
    ModelDesc(ModelDesc&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    ModelDesc& operator=(ModelDesc&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~ModelDesc() { reset(); }

    static ModelDesc create(uint32_t model_id) { return try_create(model_id).value(); }
    static Expected<ModelDesc> try_create(uint32_t model_id) {
        ModelDesc desc;
        desc.handle_ = aclmdlCreateDesc();
        if (desc.handle_ == nullptr) return detail::NullFailure("aclmdlCreateDesc");
        if (Status s = detail::Check(aclmdlGetDesc(desc.handle_, model_id), "aclmdlGetDesc"); !s) {
            return s.error();
        }
        return desc;
    }

    size_t num_inputs() const { return aclmdlGetNumInputs(handle_); }
    size_t num_outputs() const { return aclmdlGetNumOutputs(handle_); }
    size_t input_size(size_t i) const { return aclmdlGetInputSizeByIndex(handle_, i); }
    size_t output_size(size_t i) const { return aclmdlGetOutputSizeByIndex(handle_, i); }
    std::string input_name(size_t i) const { return Text(aclmdlGetInputNameByIndex(handle_, i)); }
    std::string output_name(size_t i) const { return Text(aclmdlGetOutputNameByIndex(handle_, i)); }
    aclDataType input_type(size_t i) const { return aclmdlGetInputDataType(handle_, i); }
    aclDataType output_type(size_t i) const { return aclmdlGetOutputDataType(handle_, i); }
    aclmdlIODims input_dims(size_t i) const {
        aclmdlIODims dims{};
        detail::Check(aclmdlGetInputDims(handle_, i, &dims), "aclmdlGetInputDims").value();
        return dims;
    }
    aclmdlIODims output_dims(size_t i) const {
        aclmdlIODims dims{};
        detail::Check(aclmdlGetOutputDims(handle_, i, &dims), "aclmdlGetOutputDims").value();
        return dims;
    }

    aclmdlDesc* handle() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != nullptr; }
    aclmdlDesc* release() noexcept { return std::exchange(handle_, nullptr); }
    void reset() noexcept {
        if (handle_ != nullptr) (void)aclmdlDestroyDesc(std::exchange(handle_, nullptr));
    }

 private:
    static std::string Text(const char* s) { return s != nullptr ? s : ""; }
    aclmdlDesc* handle_ = nullptr;
};

// A model's inputs or outputs (aclmdlDataset) and the aclDataBuffers that describe them; both
// destroyed together. The memory itself stays the caller's (DeviceBuffers declared before the
// Dataset outlive it).
class Dataset {
 public:
    Dataset() = default;
    Dataset(Dataset&& other) noexcept
        : handle_(std::exchange(other.handle_, nullptr)), buffers_(std::move(other.buffers_)) {
        other.buffers_.clear();
    }
    Dataset& operator=(Dataset&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, nullptr);
            buffers_ = std::move(other.buffers_);
            other.buffers_.clear();
        }
        return *this;
    }
    ~Dataset() { reset(); }

    static Dataset create() { return try_create().value(); }
    static Expected<Dataset> try_create() {
        Dataset dataset;
        dataset.handle_ = aclmdlCreateDataset();
        if (dataset.handle_ == nullptr) return detail::NullFailure("aclmdlCreateDataset");
        return dataset;
    }

    // Appends device memory as the next input or output.
    template <class M>
    Dataset& add(M&& memory) {
        try_add(std::forward<M>(memory)).value();
        return *this;
    }
    template <class M>
    Status try_add(M&& memory) {
        static_assert(detail::kOutlivesTheCall<M>,
                      "acl::Dataset::add: a temporary buffer would be freed while the dataset "
                      "still describes it; give it a name that outlives the dataset");
        auto span = detail::AsSpan(memory);
        static_assert(decltype(span)::memory == Memory::device, "acl::Dataset holds device memory");
        aclDataBuffer* buffer = aclCreateDataBuffer(
            const_cast<typename decltype(span)::value_type*>(span.data()), span.size_bytes());
        if (buffer == nullptr) return detail::NullFailure("aclCreateDataBuffer");
        if (Status s =
                detail::Check(aclmdlAddDatasetBuffer(handle_, buffer), "aclmdlAddDatasetBuffer");
            !s) {
            (void)aclDestroyDataBuffer(buffer);
            return s;
        }
        buffers_.push_back(buffer);
        return {};
    }
    size_t size() const { return aclmdlGetDatasetNumBuffers(handle_); }

    aclmdlDataset* handle() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != nullptr; }
    void reset() noexcept {
        for (aclDataBuffer* buffer : buffers_)
            (void)aclDestroyDataBuffer(buffer);
        buffers_.clear();
        if (handle_ != nullptr) (void)aclmdlDestroyDataset(std::exchange(handle_, nullptr));
    }

 private:
    aclmdlDataset* handle_ = nullptr;
    std::vector<aclDataBuffer*> buffers_;
};

// A loaded model (aclmdlLoadFromFile / FromMem), unloaded with aclmdlUnload.
class Model {
 public:
    Model() = default;
    Model(Model&& other) noexcept : id_(other.id_), loaded_(std::exchange(other.loaded_, false)) {}
    Model& operator=(Model&& other) noexcept {
        if (this != &other) {
            reset();
            id_ = other.id_;
            loaded_ = std::exchange(other.loaded_, false);
        }
        return *this;
    }
    ~Model() { reset(); }

    static Model load_file(const char* path) { return try_load_file(path).value(); }
    static Expected<Model> try_load_file(const char* path) {
        Model model;
        if (Status s = detail::Check(aclmdlLoadFromFile(path, &model.id_), "aclmdlLoadFromFile");
            !s) {
            return s.error();
        }
        model.loaded_ = true;
        return model;
    }
    static Model load_memory(const void* data, size_t size) {
        return try_load_memory(data, size).value();
    }
    static Expected<Model> try_load_memory(const void* data, size_t size) {
        Model model;
        if (Status s =
                detail::Check(aclmdlLoadFromMem(data, size, &model.id_), "aclmdlLoadFromMem");
            !s) {
            return s.error();
        }
        model.loaded_ = true;
        return model;
    }

    ModelDesc desc() const { return ModelDesc::create(id_); }
    // Runs the model on the calling thread (aclmdlExecute).
    void execute(const Dataset& inputs, Dataset& outputs) const {
        try_execute(inputs, outputs).value();
    }
    Status try_execute(const Dataset& inputs, Dataset& outputs) const {
        return detail::Check(aclmdlExecute(id_, inputs.handle(), outputs.handle()),
                             "aclmdlExecute");
    }

    uint32_t id() const noexcept { return id_; }
    uint32_t handle() const noexcept { return id_; }
    explicit operator bool() const noexcept { return loaded_; }
    void reset() noexcept {
        if (loaded_) (void)aclmdlUnload(id_);
        loaded_ = false;
    }

 private:
    uint32_t id_ = 0;
    bool loaded_ = false;
};

// ---- Streams ---------------------------------------------------------------------------------

// The operations of a stream, on a handle it does not own: a Stream, the default stream
// (StreamRef(nullptr)) or a stream created through the C API. Each returns once the work is
// queued; errors of queued work surface at synchronize().
class StreamRef {
 public:
    constexpr StreamRef() noexcept = default;
    constexpr explicit StreamRef(aclrtStream handle) noexcept : handle_(handle) {}

    aclrtStream handle() const noexcept { return handle_; }

    // Copies all of `src` into `dst` (aclrtMemcpyAsync); the kind follows from the types.
    template <class Dst, class Src>
    void copy(Dst&& dst, Src&& src) const {
        try_copy(std::forward<Dst>(dst), std::forward<Src>(src)).value();
    }
    template <class Dst, class Src>
    Status try_copy(Dst&& dst, Src&& src) const {
        static_assert(detail::kOutlivesTheCall<Dst> && detail::kOutlivesTheCall<Src>,
                      "acl::Stream::copy: a temporary buffer or container would be destroyed "
                      "before the queued copy runs; give it a name that outlives the work");
        auto d = detail::AsSpan(dst);
        auto s = detail::AsSpan(src);
        detail::CheckCopyTypes<decltype(d), decltype(s)>();
        return detail::Check(aclrtMemcpyAsync(d.data(), d.size_bytes(), s.data(), s.size_bytes(),
                                              detail::CopyKind(d.memory, s.memory), handle_),
                             "aclrtMemcpyAsync");
    }
    // Sets every byte of `dst` to `value` (aclrtMemsetAsync).
    template <class Dst>
    void fill_bytes(Dst&& dst, unsigned char value) const {
        try_fill_bytes(std::forward<Dst>(dst), value).value();
    }
    template <class Dst>
    Status try_fill_bytes(Dst&& dst, unsigned char value) const {
        static_assert(detail::kOutlivesTheCall<Dst>,
                      "acl::Stream::fill_bytes: a temporary buffer would be destroyed before the "
                      "queued fill runs; give it a name that outlives the work");
        auto d = detail::AsSpan(dst);
        return detail::Check(
            aclrtMemsetAsync(d.data(), d.size_bytes(), value, d.size_bytes(), handle_),
            "aclrtMemsetAsync");
    }

    // Launches `kernel` over `blocks` blocks with `args` (aclrtLaunchKernelWithHostArgs): one
    // 8-byte slot per argument, in order; DeviceBuffers and DeviceSpans pass their address.
    template <class... Args>
    void launch(Kernel kernel, uint32_t blocks, Args&&... args) const {
        try_launch(kernel, blocks, std::forward<Args>(args)...).value();
    }
    template <class... Args>
    Status try_launch(Kernel kernel, uint32_t blocks, Args&&... args) const {
        static_assert(((detail::kOutlivesTheCall<Args> ||
                        !detail::IsDeviceMemory<std::decay_t<Args>>::value) &&
                       ...),
                      "acl::Stream::launch: a temporary DeviceBuffer would be freed before the "
                      "kernel runs; give it a name that outlives the work");
        std::array<uint64_t, sizeof...(Args) == 0 ? 1 : sizeof...(Args)> slots{
            detail::ToSlot(args)...};
        return detail::Check(
            aclrtLaunchKernelWithHostArgs(kernel.handle(), blocks, handle_, nullptr, slots.data(),
                                          sizeof...(Args) * sizeof(uint64_t), nullptr, 0),
            "aclrtLaunchKernelWithHostArgs");
    }

    void record(const Event& event) const { try_record(event).value(); }
    Status try_record(const Event& event) const {
        return detail::Check(aclrtRecordEvent(event.handle(), handle_), "aclrtRecordEvent");
    }
    // Later work on this stream waits until `event` has completed.
    void wait(const Event& event) const { try_wait(event).value(); }
    Status try_wait(const Event& event) const {
        return detail::Check(aclrtStreamWaitEvent(handle_, event.handle()), "aclrtStreamWaitEvent");
    }

    // Runs `f()` on a runtime thread when the stream reaches it (aclrtLaunchHostFunc). The
    // callable is moved to the heap and owned by the runtime until it has run, then
    // destroyed; if it never runs (see docs/CPP_API.md) it is leaked, never called late.
    template <class F>
    void host_function(F&& f) const {
        try_host_function(std::forward<F>(f)).value();
    }
    template <class F>
    Status try_host_function(F&& f) const {
        using Callable = std::decay_t<F>;
        auto owned = std::make_unique<Callable>(std::forward<F>(f));
        Status s =
            detail::Check(aclrtLaunchHostFunc(handle_, &detail::Trampoline<Callable>, owned.get()),
                          "aclrtLaunchHostFunc");
        if (s) (void)owned.release();  // the trampoline deletes it
        return s;
    }
    // Runs `f()` on the thread subscribed to this stream (see ReportThread) when the stream
    // reaches it (aclrtLaunchCallback); with `block`, later work waits for it. Ownership as
    // for host_function.
    template <class F>
    void callback(F&& f, bool block = true) const {
        try_callback(std::forward<F>(f), block).value();
    }
    template <class F>
    Status try_callback(F&& f, bool block = true) const {
        using Callable = std::decay_t<F>;
        auto owned = std::make_unique<Callable>(std::forward<F>(f));
        Status s = detail::Check(
            aclrtLaunchCallback(&detail::Trampoline<Callable>, owned.get(),
                                block ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, handle_),
            "aclrtLaunchCallback");
        if (s) (void)owned.release();
        return s;
    }

    // Queues an execution of `model` (aclmdlExecuteAsync).
    void execute(const Model& model, const Dataset& inputs, Dataset& outputs) const {
        try_execute(model, inputs, outputs).value();
    }
    Status try_execute(const Model& model, const Dataset& inputs, Dataset& outputs) const {
        return detail::Check(
            aclmdlExecuteAsync(model.id(), inputs.handle(), outputs.handle(), handle_),
            "aclmdlExecuteAsync");
    }

    // Waits for everything queued so far; reports the first failure of queued work.
    void synchronize() const { try_synchronize().value(); }
    Status try_synchronize() const {
        return detail::Check(aclrtSynchronizeStream(handle_), "aclrtSynchronizeStream");
    }

 protected:
    aclrtStream handle_ = nullptr;
};

// A stream (aclrtCreateStreamWithConfig) in the current context, destroyed with
// aclrtDestroyStream, which first waits for its queued work. The destructor makes the
// stream's context current for the call, so a Stream may end on any thread.
class Stream : public StreamRef {
 public:
    Stream() = default;
    Stream(Stream&& other) noexcept
        : StreamRef(std::exchange(other.handle_, nullptr)),
          context_(std::exchange(other.context_, nullptr)) {}
    Stream& operator=(Stream&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, nullptr);
            context_ = std::exchange(other.context_, nullptr);
        }
        return *this;
    }
    ~Stream() { reset(); }

    static Stream create(uint32_t priority = 0, uint32_t flags = 0) {
        return try_create(priority, flags).value();
    }
    static Expected<Stream> try_create(uint32_t priority = 0, uint32_t flags = 0) {
        Stream stream;
        if (Status s =
                detail::Check(aclrtGetCurrentContext(&stream.context_), "aclrtGetCurrentContext");
            !s) {
            return s.error();
        }
        if (Status s = detail::Check(aclrtCreateStreamWithConfig(&stream.handle_, priority, flags),
                                     "aclrtCreateStreamWithConfig");
            !s) {
            return s.error();
        }
        return stream;
    }

    // The context the stream belongs to.
    aclrtContext context() const noexcept { return context_; }
    explicit operator bool() const noexcept { return handle_ != nullptr; }
    aclrtStream release() noexcept {
        context_ = nullptr;
        return std::exchange(handle_, nullptr);
    }
    void reset() noexcept {
        if (handle_ == nullptr) return;
        aclrtStream stream = std::exchange(handle_, nullptr);
        aclrtContext context = std::exchange(context_, nullptr);
        aclrtContext current = nullptr;
        if (aclrtGetCurrentContext(&current) != ACL_SUCCESS) {
            current = nullptr;
            (void)aclGetRecentErrMsg();  // "no current context" is expected here, not news
        }
        if (current == context) {
            (void)aclrtDestroyStream(stream);
            return;
        }
        if (aclrtSetCurrentContext(context) != ACL_SUCCESS) return;  // context already gone
        (void)aclrtDestroyStream(stream);
        if (current != nullptr) (void)aclrtSetCurrentContext(current);
    }

 private:
    aclrtContext context_ = nullptr;
};

// A host thread that runs the callbacks of the streams it is subscribed to
// (aclrtSubscribeReport + an aclrtProcessReport loop with the chapter's 100 ms timeout), in
// the context current at creation. It sleeps while it has no subscription. Declare it after
// the streams it serves: when it ends it queues a wake-up callback behind each stream's work,
// so the callbacks already queued still run, then joins and unsubscribes.
class ReportThread {
 public:
    ReportThread() = default;
    ReportThread(ReportThread&&) noexcept = default;
    ReportThread& operator=(ReportThread&&) = delete;
    ~ReportThread() {
        if (state_ == nullptr) return;
        State* state = state_.get();
        const uint64_t thread_id = id();  // a joined std::thread has no handle any more
        state->wakes.store(static_cast<int>(state->streams.size()));
        for (aclrtStream stream : state->streams) {
            if (aclrtLaunchCallback(&Wake, state, ACL_CALLBACK_NO_BLOCK, stream) != ACL_SUCCESS) {
                state->wakes.fetch_sub(1);
                (void)aclGetRecentErrMsg();  // a stream of another context: the timeout wakes it
            }
        }
        {
            std::lock_guard<std::mutex> lock(state->mutex);
            state->stop = true;
        }
        state->changed.notify_all();
        state->thread.join();
        for (aclrtStream stream : state->streams)
            (void)aclrtUnSubscribeReport(thread_id, stream);
    }

    static ReportThread create() { return try_create().value(); }
    static Expected<ReportThread> try_create() {
        auto owned = std::make_unique<State>();
        if (Status s =
                detail::Check(aclrtGetCurrentContext(&owned->context), "aclrtGetCurrentContext");
            !s) {
            return s.error();
        }
        ReportThread reporter;
        reporter.state_ = std::move(owned);
        State* state = reporter.state_.get();
        state->thread = std::thread([state] {
            (void)aclrtSetCurrentContext(state->context);
            for (;;) {
                {
                    std::unique_lock<std::mutex> lock(state->mutex);
                    // Unsubscribed, aclrtProcessReport returns at once: wait here instead.
                    state->changed.wait(lock, [state] { return state->stop || state->subscribed; });
                    if (state->stop && (state->wakes.load() == 0 || !state->subscribed)) break;
                }
                (void)aclrtProcessReport(100);
            }
        });
        return reporter;
    }
    // This thread runs `stream`'s callbacks from now on.
    void subscribe(StreamRef stream) { try_subscribe(stream).value(); }
    Status try_subscribe(StreamRef stream) {
        Status s =
            detail::Check(aclrtSubscribeReport(id(), stream.handle()), "aclrtSubscribeReport");
        if (s) {
            state_->streams.push_back(stream.handle());
            {
                std::lock_guard<std::mutex> lock(state_->mutex);
                state_->subscribed = true;
            }
            state_->changed.notify_all();
        }
        return s;
    }
    // The id aclrtSubscribeReport knows the thread by.
    uint64_t id() const { return static_cast<uint64_t>(state_->thread.native_handle()); }

 private:
    struct State {
        std::thread thread;
        aclrtContext context = nullptr;
        std::vector<aclrtStream> streams;  // touched only by the owning thread
        std::mutex mutex;
        std::condition_variable changed;
        bool stop = false;          // guarded by mutex
        bool subscribed = false;    // guarded by mutex
        std::atomic<int> wakes{0};  // wake-up callbacks still to run
    };
    static void Wake(void* state) { static_cast<State*>(state)->wakes.fetch_sub(1); }
    std::unique_ptr<State> state_;
};

}  // namespace acl

#undef OPENACL_HPP_EXCEPTIONS

#endif  // OPENACL_ACL_HPP_
