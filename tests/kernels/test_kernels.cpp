// Kernels for the kernel tests (tests/api/test_kernel.cpp): they record which blocks ran and
// where, sleep, fail on purpose and echo their parameters back.
#include "test_kernels.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <thread>

#include "openacl/kernel.h"

namespace {

uint64_t ThisThread() {
    return static_cast<uint64_t>(std::hash<std::thread::id>{}(std::this_thread::get_id()));
}

void Spin(uint64_t us) {
    auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
    while (std::chrono::steady_clock::now() < until) {
    }
}

}  // namespace

// Each block counts itself in runs[block], notes its thread in threads[block] and the block
// count it was told in nums[block], then spins for spin_us microseconds.
extern "C" __global__ __aicore__ void record_blocks(GM_ADDR runs, GM_ADDR threads, GM_ADDR nums,
                                                    uint64_t spin_us) {
    int64_t block = GetBlockIdx();
    __atomic_fetch_add(reinterpret_cast<uint32_t*>(runs) + block, 1u, __ATOMIC_RELAXED);
    reinterpret_cast<uint64_t*>(threads)[block] = ThisThread();
    reinterpret_cast<int64_t*>(nums)[block] = GetBlockNum();
    Spin(spin_us);
}

// Block 0 waits (up to timeout_ms) until every other block has finished, then sets *ok to 1:
// only possible when the other blocks are dealt to other workers while block 0 is running.
extern "C" __global__ __aicore__ void wait_for_others(GM_ADDR finished, GM_ADDR ok,
                                                      uint64_t timeout_ms) {
    auto* count = reinterpret_cast<uint32_t*>(finished);
    if (GetBlockIdx() != 0) {
        __atomic_fetch_add(count, 1u, __ATOMIC_RELEASE);
        return;
    }
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (__atomic_load_n(count, __ATOMIC_ACQUIRE) + 1 < GetBlockNum()) {
        if (std::chrono::steady_clock::now() >= until) return;
        std::this_thread::yield();
    }
    *reinterpret_cast<uint32_t*>(ok) = 1;
}

// data[i] = data[i] * mul + add over n floats, the blocks taking elements round-robin.
extern "C" __global__ __aicore__ void affine(GM_ADDR data, uint64_t n, float mul, float add) {
    auto* d = reinterpret_cast<float*>(data);
    for (uint64_t i = static_cast<uint64_t>(GetBlockIdx()); i < n;
         i += static_cast<uint64_t>(GetBlockNum()))
        d[i] = d[i] * mul + add;
}

// Every block takes the next number of the shared sequence *seq into stamps[block], after
// spinning spin_us microseconds: host functions that take numbers from the same sequence show
// where the launch ran in its stream.
extern "C" __global__ __aicore__ void stamp(GM_ADDR seq, GM_ADDR stamps, uint64_t spin_us) {
    Spin(spin_us);
    reinterpret_cast<uint64_t*>(stamps)[GetBlockIdx()] =
        __atomic_fetch_add(reinterpret_cast<uint64_t*>(seq), uint64_t{1}, __ATOMIC_SEQ_CST);
}

// Block 0 stores value at *out.
extern "C" __global__ __aicore__ void write_value(GM_ADDR out, uint64_t value) {
    if (GetBlockIdx() == 0) *reinterpret_cast<uint64_t*>(out) = value;
}

// Every block sleeps ms milliseconds, then counts itself in *ran.
extern "C" __global__ __aicore__ void sleep_ms(GM_ADDR ran, uint64_t ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    __atomic_fetch_add(reinterpret_cast<uint32_t*>(ran), 1u, __ATOMIC_RELAXED);
}

// Block fail_block throws std::runtime_error; mode 1 throws an int instead, mode 2 calls
// KernelTrap.
extern "C" __global__ __aicore__ void throw_in_block(int64_t fail_block, int64_t mode) {
    if (GetBlockIdx() != fail_block) return;
    if (mode == 1) throw 42;
    if (mode == 2) {
        // (snprintf, not std::to_string: that leaves an STB_GNU_UNIQUE symbol in the binary,
        // which would keep it loaded after aclrtBinaryUnLoad.)
        char text[64];
        std::snprintf(text, sizeof text, "trapped on purpose in block %lld",
                      static_cast<long long>(GetBlockIdx()));
        KernelTrap(text);
    }
    throw std::runtime_error("thrown on purpose");
}

// Fails OPENACL_KERNEL_ASSERT in block fail_block.
extern "C" __global__ __aicore__ void assert_block(int64_t fail_block) {
    OPENACL_KERNEL_ASSERT(GetBlockIdx() != fail_block);
}

// Block 0 writes its parameters as it received them to *out (a test_kernels::Probe), with the
// first bytes of the data its placeholder parameter points at.
extern "C" __global__ __aicore__ void args_probe(GM_ADDR out, GM_ADDR placeholder, uint32_t a,
                                                 float b, double c) {
    if (GetBlockIdx() != 0) return;
    test_kernels::Probe probe{};
    probe.a = a;
    probe.b = b;
    probe.c = c;
    probe.placeholder_address = reinterpret_cast<uint64_t>(placeholder);
    if (placeholder != nullptr) {
        std::memcpy(probe.placeholder_bytes, placeholder, sizeof probe.placeholder_bytes);
    }
    std::memcpy(out, &probe, sizeof probe);
}

// Device variables, reached from the host with aclrtBinaryGetGlobal: values, which
// add_to_values changes; one in a namespace, found by its C++ name; and a const one.
__gm__ int64_t device_values[8];
namespace test_globals {
__gm__ int64_t scale = 3;
}  // namespace test_globals
extern "C" __gm__ const int64_t device_limits[4] = {10, 20, 30, 40};

// Each of the first 8 blocks adds increment * test_globals::scale to device_values[block].
extern "C" __global__ __aicore__ void add_to_values(int64_t increment) {
    const int64_t block = GetBlockIdx();
    if (block < 8) device_values[block] += increment * test_globals::scale;
}

// Kernels a single operator registers (aclopCreateKernel), called as Ascend C kernels are:
// inputs, outputs, workspaces, then the tiling. z = alpha * x + y over n floats, alpha * x
// passing through the workspace (n floats).
extern "C" __global__ __aicore__ void tiled_axpy(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling) {
    const auto* t = reinterpret_cast<const test_kernels::AxpyTiling*>(tiling);
    const auto* xs = reinterpret_cast<const float*>(x);
    const auto* ys = reinterpret_cast<const float*>(y);
    auto* zs = reinterpret_cast<float*>(z);
    auto* w = reinterpret_cast<float*>(workspace);
    for (uint64_t i = static_cast<uint64_t>(GetBlockIdx()); i < t->n;
         i += static_cast<uint64_t>(GetBlockNum())) {
        w[i] = t->alpha * xs[i];
        zs[i] = w[i] + ys[i];
    }
}

// z = x - y over n floats, no workspace: the same operator's kernel for other shapes.
extern "C" __global__ __aicore__ void tiled_sub(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    const auto* t = reinterpret_cast<const test_kernels::AxpyTiling*>(tiling);
    for (uint64_t i = static_cast<uint64_t>(GetBlockIdx()); i < t->n;
         i += static_cast<uint64_t>(GetBlockNum())) {
        reinterpret_cast<float*>(z)[i] =
            reinterpret_cast<const float*>(x)[i] - reinterpret_cast<const float*>(y)[i];
    }
}
