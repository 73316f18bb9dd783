// LocalMemAllocator (the static tensor mode): tensors handed out from a local memory's start,
// 32-byte rounded, usable by every instruction; over-asking, a position of another memory, and
// mixing with TPipe trap with a message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "block_runner.h"

namespace {

using namespace AscendC;

using openacl::test::TrapOf;

TEST(AscendcLocalMemAllocator, TensorsFollowEachOtherRoundedUpTo32Bytes) {
    openacl::test::RunOneBlock([] {
        LocalMemAllocator allocator;
        EXPECT_EQ(allocator.GetCurAddr(), 0u);
        LocalTensor<float> a = allocator.Alloc<float>(10);  // 40 bytes -> 64
        EXPECT_EQ(allocator.GetCurAddr(), 64u);
        LocalTensor<half> b = allocator.Alloc<TPosition::VECIN, half, 128>();  // 256 bytes
        EXPECT_EQ(allocator.GetCurAddr(), 320u);
        EXPECT_EQ(a.GetSize(), 10u);
        EXPECT_EQ(b.GetSize(), 128u);
        EXPECT_EQ(b.GetPosition(), TPosition::VECIN);
        EXPECT_EQ(a.GetPosition(), TPosition::VECCALC) << "UB tensors default to VECCALC";
        EXPECT_EQ(reinterpret_cast<uintptr_t>(b.GetPhyAddr()) -
                      reinterpret_cast<uintptr_t>(a.GetPhyAddr()),
                  64u);
    });
}

TEST(AscendcLocalMemAllocator, AKernelInTheStaticTensorModeComputesItsResult) {
    constexpr uint32_t kLength = 256;
    std::vector<float> x(kLength), y(kLength), z(kLength, -1.0f);
    for (uint32_t i = 0; i < kLength; ++i) {
        x[i] = float(i);
        y[i] = 0.5f * float(i % 9);
    }
    openacl::test::RunOneBlock([&] {
        GlobalTensor<float> xGm, yGm, zGm;
        xGm.SetGlobalBuffer(x.data(), kLength);
        yGm.SetGlobalBuffer(y.data(), kLength);
        zGm.SetGlobalBuffer(z.data(), kLength);
        LocalMemAllocator<Hardware::UB> allocator;
        LocalTensor<float> xLocal = allocator.Alloc<TPosition::VECIN, float, kLength>();
        LocalTensor<float> yLocal = allocator.Alloc<TPosition::VECIN, float>(kLength);
        LocalTensor<float> zLocal = allocator.Alloc<TPosition::VECOUT, float>(kLength);
        DataCopy(xLocal, xGm, kLength);
        DataCopy(yLocal, yGm, kLength);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Add(zLocal, xLocal, yLocal, kLength);
        Muls(zLocal, zLocal, 2.0f, kLength);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(zGm, zLocal, kLength);
    });
    for (uint32_t i = 0; i < kLength; ++i)
        ASSERT_EQ(z[i], 2.0f * (x[i] + y[i])) << i;
}

TEST(AscendcLocalMemAllocator, OtherMemoriesHaveTheirOwnAllocators) {
    openacl::test::RunOneBlock([] {
        LocalMemAllocator<Hardware::L1> l1;
        LocalMemAllocator<Hardware::L0C> l0c;
        LocalTensor<half> a1 = l1.Alloc<half>(1024);
        LocalTensor<float> co1 = l0c.Alloc<float>(256);
        EXPECT_EQ(a1.GetPosition(), TPosition::A1);
        EXPECT_EQ(co1.GetPosition(), TPosition::CO1);
        EXPECT_EQ(l1.GetCurAddr(), 2048u);
        EXPECT_EQ(l0c.GetCurAddr(), 1024u);
    });
}

TEST(AscendcLocalMemAllocator, AskingForMoreThanIsLeftTrapsNamingTheMemory) {
    auto message = TrapOf([] {
        LocalMemAllocator allocator;
        allocator.Alloc<float>(1024);
        allocator.Alloc<float>(openacl::ascendc::kUbSize / 4);
    });
    EXPECT_NE(message.find("LocalMemAllocator::Alloc: asks for " +
                           std::to_string(openacl::ascendc::kUbSize / 4) + " elements"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("but the unified buffer (UB) has " +
                           std::to_string(openacl::ascendc::kUbSize) +
                           " bytes, 4096 of them already given out"),
              std::string::npos)
        << message;
}

TEST(AscendcLocalMemAllocator, APositionOfAnotherMemoryTraps) {
    auto message = TrapOf([] {
        LocalMemAllocator<Hardware::UB> allocator;
        allocator.Alloc<TPosition::A1, half>(16);
    });
    EXPECT_NE(message.find("the position lives in the L1 buffer, not in this allocator's "
                           "unified buffer (UB)"),
              std::string::npos)
        << message;
}

TEST(AscendcLocalMemAllocator, AllocatingWhileATPipeIsAliveTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        LocalMemAllocator allocator;
        allocator.Alloc<float>(8);
    });
    EXPECT_NE(message.find("a TPipe is alive on this core: the static tensor mode "
                           "(LocalMemAllocator) cannot be mixed with TPipe"),
              std::string::npos)
        << message;
}

TEST(AscendcLocalMemAllocator, ATPipeAfterStaticTensorsInTheSameBlockTraps) {
    auto message = TrapOf([] {
        {
            LocalMemAllocator allocator;
            allocator.Alloc<float>(8);
        }
        TPipe pipe;
    });
    EXPECT_NE(message.find("TPipe: this block already allocates with LocalMemAllocator"),
              std::string::npos)
        << message;
}

TEST(AscendcLocalMemAllocator, TheNextBlockMayUseATPipeAgain) {
    openacl::test::RunOneBlock([] {
        LocalMemAllocator allocator;
        allocator.Alloc<float>(8);
    });
    EXPECT_EQ(TrapOf([] { TPipe pipe; }), "");
}

}  // namespace
