// The live checks: misuse the NPU hangs or faults on is a KernelTrap naming the API.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "block_runner.h"

namespace {

using namespace AscendC;

using openacl::test::TrapOf;

TEST(AscendcChecks, InitBufferBeyondTheUbNamesBytesAndUbSize) {
    auto message = TrapOf([] {
        TPipe pipe;
        TQue<TPosition::VECIN, 2> queue;
        pipe.InitBuffer(queue, 2, 100 * 1024 + 1);
    });
    EXPECT_NE(message.find("TPipe::InitBuffer"), std::string::npos) << message;
    EXPECT_NE(message.find("204864 bytes (2 x 102432)"), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(ASC_UB_SIZE)), std::string::npos) << message;
}

// ReduceSum over 1024 floats takes 16 repeats of 64: CANN's minimum work tensor is 16 floats.
void ReduceSumWithWork(uint32_t workElements) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst, work;
    pipe.InitBuffer(src, 1024 * sizeof(float));
    pipe.InitBuffer(dst, 8 * sizeof(float));
    pipe.InitBuffer(work, workElements * sizeof(float));
    LocalTensor<float> x = src.Get<float>();
    Duplicate(x, 1.0f, 1024);
    ReduceSum(dst.Get<float>(), x, work.Get<float>(), 1024);
}

TEST(AscendcChecks, AReduceSumWorkTensorBelowCannsMinimumTraps) {
    const std::string message = TrapOf([] { ReduceSumWithWork(8); });
    EXPECT_NE(message.find("ReduceSum: the work tensor has room for 8 elements but 1024 need 16 "
                           "(one partial result per 64-element repeat, rounded up to 32 bytes)"),
              std::string::npos)
        << message;
}

TEST(AscendcChecks, AReduceSumWorkTensorOfCannsMinimumIsEnough) {
    EXPECT_EQ(TrapOf([] { ReduceSumWithWork(16); }), "");
}

TEST(AscendcChecks, InitBufferRoundsLengthsUpTo32Bytes) {
    openacl::test::RunOneBlock([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 1);
        pipe.InitBuffer(b, 4);
        auto first = a.Get<uint8_t>();
        auto second = b.Get<uint8_t>();
        EXPECT_EQ(first.GetSize(), 32U);
        EXPECT_EQ(second.GetPhyAddr() - first.GetPhyAddr(), 32U);
        EXPECT_EQ(first.GetPhyAddr() % 32, 0U);
    });
}

TEST(AscendcChecks, EachBlockGetsTheWholeUbAfresh) {
    // Every block takes 3/4 of the UB; with blocks on 4 threads, a shared UB would overflow.
    auto failure = openacl::test::RunBlocks(16, [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, ASC_UB_SIZE / 4 * 3);
        auto t = buf.Get<uint32_t>();
        Duplicate(t, uint32_t(GetBlockIdx()), t.GetSize());
        std::this_thread::yield();
        for (uint32_t i = 0; i < t.GetSize(); i += 997) {
            if (t.GetValue(i) != GetBlockIdx()) KernelTrap("another block wrote this UB");
        }
    });
    EXPECT_EQ(failure, "");
}

TEST(AscendcChecks, EnQueBeyondTheDepthTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> queue;
        pipe.InitBuffer(queue, 2, 64);
        queue.EnQue(queue.AllocTensor<float>());
        queue.EnQue(queue.AllocTensor<float>());
    });
    EXPECT_NE(message.find("EnQue: the queue's depth of 1 is exceeded"), std::string::npos)
        << message;
}

TEST(AscendcChecks, DeQueOfAnEmptyQueueTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TQue<TPosition::VECOUT, 1> queue;
        pipe.InitBuffer(queue, 1, 64);
        queue.DeQue<float>();
    });
    EXPECT_NE(message.find("DeQue: the queue is empty"), std::string::npos) << message;
}

TEST(AscendcChecks, AllocTensorWithNoFreeBufferTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TQue<TPosition::VECIN, 2> queue;
        pipe.InitBuffer(queue, 2, 64);
        queue.AllocTensor<float>();
        queue.AllocTensor<float>();
        queue.AllocTensor<float>();
    });
    EXPECT_NE(message.find("AllocTensor: all 2 buffers of the queue are in use"), std::string::npos)
        << message;
}

TEST(AscendcChecks, FreeTensorFromAnotherQueueTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> in;
        TQue<TPosition::VECOUT, 1> out;
        pipe.InitBuffer(in, 1, 64);
        pipe.InitBuffer(out, 1, 64);
        auto tensor = in.AllocTensor<float>();
        out.FreeTensor(tensor);
    });
    EXPECT_NE(message.find("FreeTensor: the tensor was not allocated from this queue"),
              std::string::npos)
        << message;
}

TEST(AscendcChecks, ATensorUsedAfterFreeTensorTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TQue<QuePosition::VECIN, 1> queue;
        pipe.InitBuffer(queue, 1, 256);
        LocalTensor<float> x = queue.AllocTensor<float>();
        queue.FreeTensor(x);
        LocalTensor<float> y = queue.AllocTensor<float>();  // the same buffer, allocated again
        Duplicate(y, 1.0f, 64);
        Adds(y, x, 1.0f, 64);
    });
    EXPECT_NE(message.find("Adds: src was freed (FreeTensor): its buffer may already hold another "
                           "tensor on the NPU"),
              std::string::npos)
        << message;
}

TEST(AscendcChecks, AViewOfAFreedTensorTrapsToo) {
    auto message = TrapOf([] {
        TPipe pipe;
        TQue<QuePosition::VECOUT, 1> queue;
        pipe.InitBuffer(queue, 2, 256);
        LocalTensor<float> x = queue.AllocTensor<float>();
        LocalTensor<int32_t> view = x[8].ReinterpretCast<int32_t>();
        queue.FreeTensor(x);
        (void)view.GetValue(0);
    });
    EXPECT_NE(message.find("LocalTensor::GetValue: the tensor was freed (FreeTensor)"),
              std::string::npos)
        << message;
}

TEST(AscendcChecks, FreeingAStaleTensorWhoseBufferWasAllocatedAgainTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TQue<QuePosition::VECIN, 1> queue;
        pipe.InitBuffer(queue, 1, 256);
        LocalTensor<float> x = queue.AllocTensor<float>();
        queue.FreeTensor(x);
        LocalTensor<float> y = queue.AllocTensor<float>();
        queue.FreeTensor(x);  // would free y's buffer under it
        queue.FreeTensor(y);
    });
    EXPECT_NE(message.find("FreeTensor: the tensor was freed (FreeTensor)"), std::string::npos)
        << message;
}

TEST(AscendcChecks, AllocTensorBeforeInitBufferTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> queue;
        queue.AllocTensor<half>();
    });
    EXPECT_NE(message.find("call TPipe::InitBuffer(queue, num, len) first"), std::string::npos)
        << message;
}

TEST(AscendcChecks, QueueOfAnEarlierPipeIsStale) {
    auto message = TrapOf([] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> queue;
        pipe.InitBuffer(queue, 1, 64);
        pipe.Reset();
        queue.AllocTensor<half>();
    });
    EXPECT_NE(message.find("were released"), std::string::npos) << message;
}

TEST(AscendcChecks, ElementAccessOutsideTheBufferTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 64);
        auto tensor = buf.Get<float>();
        tensor[10].GetValue(6);  // element 16 of a 16-float buffer
    });
    EXPECT_NE(message.find("LocalTensor::GetValue: index 6 is outside the tensor's buffer"),
              std::string::npos)
        << message;
}

TEST(AscendcChecks, VectorCountPastTheBufferTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 128);
        auto tensor = buf.Get<float>();
        Add(tensor, tensor, tensor, 33);
    });
    EXPECT_NE(message.find("Add: dst reaches 132 bytes past its start but its buffer has 128"),
              std::string::npos)
        << message;
}

TEST(AscendcChecks, UnalignedLocalOperandTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);
        auto tensor = buf.Get<float>();
        Exp(tensor[3], tensor, 8);
    });
    EXPECT_NE(message.find("Exp: dst starts 12 bytes into its buffer, not on a 32-byte boundary"),
              std::string::npos)
        << message;
}

TEST(AscendcChecks, RepeatTimeAbove255AndEmptyMaskTrap) {
    auto tooMany = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);
        auto t = buf.Get<float>();
        Add(t, t, t, 64, 256, BinaryRepeatParams{});
    });
    EXPECT_NE(tooMany.find("Add: repeatTime 256 exceeds 255"), std::string::npos) << tooMany;
    auto empty = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);
        auto t = buf.Get<float>();
        uint64_t mask[2] = {0, 0};
        Add(t, t, t, mask, 1, BinaryRepeatParams{});
    });
    EXPECT_NE(empty.find("Add: the mask selects no lane"), std::string::npos) << empty;
}

TEST(AscendcChecks, LevelZeroLanePastTheBufferTraps) {
    auto message = TrapOf([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);  // one float repeat
        auto t = buf.Get<float>();
        Relu(t, t, 64, 2, UnaryRepeatParams{});
    });
    EXPECT_NE(message.find("Relu: src lane of repeat 1, block 0 is element 64, past the 64"),
              std::string::npos)
        << message;
}

TEST(AscendcChecks, DataCopyPadBlockLenNotAMultipleOfTheElementTraps) {
    std::vector<float> gm(8);
    auto message = TrapOf([&] {
        TPipe pipe;
        TBuf<TPosition::VECIN> buf;
        pipe.InitBuffer(buf, 64);
        GlobalTensor<float> global;
        global.SetGlobalBuffer(gm.data());
        auto local = buf.Get<float>();
        DataCopyPad(local, global, {1, 6, 0, 0, 0}, DataCopyPadExtParams<float>{});
    });
    EXPECT_NE(message.find("DataCopyPad: blockLen 6 bytes is not a multiple of the 4-byte element"),
              std::string::npos)
        << message;
}

TEST(AscendcChecks, WaitFlagWithoutSetFlagTraps) {
    auto message = TrapOf([] {
        SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);  // paired: fine
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    });
    EXPECT_NE(message.find("WaitFlag: HardEvent::V_MTE3 id 0 was never set"), std::string::npos)
        << message;
}

TEST(AscendcChecks, AscendcAssertTrapsWithItsMessage) {
    auto message = TrapOf([] {
        int tiles = 3;
        ascendc_assert(tiles > 0, "tiles %d", tiles);
        ascendc_assert(tiles % 2 == 0, "tiles must be even, got %d", tiles);
    });
    EXPECT_NE(message.find("assertion failed: tiles % 2 == 0"), std::string::npos) << message;
    EXPECT_NE(message.find("tiles must be even, got 3"), std::string::npos) << message;
}

}  // namespace
