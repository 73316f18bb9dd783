// The cross-pipe hazard check (kernel_pipe_hazard.h): data one pipe of a core writes and another
// reads (or overwrites) with no synchronisation between them is reported at the instruction
// that would race on the chip; the synchronisations a kernel has (flags, PIPE_ALL barriers,
// queues) order the pipes, and accesses they order are never reported.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "block_runner.h"

namespace {

using namespace AscendC;
using openacl::test::TrapOf;

constexpr uint32_t kCount = 64;

// A block with two float scratch buffers of kCount elements and a GM array of as many.
template <typename Body>
std::string InBlock(std::vector<float>& gm, Body body) {
    return TrapOf([&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, kCount * sizeof(float));
        pipe.InitBuffer(b, kCount * sizeof(float));
        GlobalTensor<float> global;
        global.SetGlobalBuffer(gm.data(), gm.size());
        body(global, a.Get<float>(), b.Get<float>());
    });
}

bool Says(const std::string& message, const std::string& part) {
    return message.find(part) != std::string::npos;
}

TEST(AscendcPipeHazards, ACopyInReadByTheVectorPipeWithoutAFlagIsReported) {
    std::vector<float> gm(kCount, 2.0f);
    auto message = InBlock(gm, [](auto global, auto x, auto y) {
        DataCopy(x, global, kCount);
        Add(y, x, x, kCount);
    });
    EXPECT_TRUE(Says(message,
                     "Add: src0 (pipe V) reads what DataCopy (pipe MTE2) wrote, with no "
                     "synchronisation between the two pipes"))
        << message;
    EXPECT_TRUE(Says(message,
                     "call SetFlag<HardEvent::MTE2_V>(id) after the DataCopy and "
                     "WaitFlag<HardEvent::MTE2_V>(id) before the Add"))
        << message;
}

TEST(AscendcPipeHazards, AFlagFromTheWriterToTheReaderOrdersThem) {
    std::vector<float> gm(kCount, 2.0f);
    float sum = 0;
    auto message = InBlock(gm, [&](auto global, auto x, auto y) {
        openacl::ascendc::t_core.hazards.AssumeAutoSync(false);
        DataCopy(x, global, kCount);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Add(y, x, x, kCount);
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        sum = y.GetValue(kCount - 1);
    });
    EXPECT_EQ(message, "");
    EXPECT_EQ(sum, 4.0f);
}

TEST(AscendcPipeHazards, AFlagBetweenOtherPipesDoesNotOrderThem) {
    std::vector<float> gm(kCount, 2.0f);
    auto message = InBlock(gm, [](auto global, auto x, auto y) {
        DataCopy(x, global, kCount);
        SetFlag<HardEvent::MTE3_V>(EVENT_ID0);  // the wrong source pipe
        WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
        Add(y, x, x, kCount);
    });
    EXPECT_TRUE(Says(message, "Add: src0 (pipe V) reads what DataCopy (pipe MTE2) wrote"))
        << message;
}

TEST(AscendcPipeHazards, ABarrierOnEveryPipeOrdersThemAndOneOnAPipeDoesNot) {
    std::vector<float> gm(kCount, 2.0f);
    EXPECT_EQ(InBlock(gm,
                      [](auto global, auto x, auto y) {
                          DataCopy(x, global, kCount);
                          PipeBarrier<PIPE_ALL>();
                          Add(y, x, x, kCount);
                      }),
              "");
    auto message = InBlock(gm, [](auto global, auto x, auto y) {
        DataCopy(x, global, kCount);
        PipeBarrier<PIPE_V>();  // orders vector instructions among themselves only
        Add(y, x, x, kCount);
    });
    EXPECT_TRUE(Says(message, "reads what DataCopy (pipe MTE2) wrote")) << message;
}

TEST(AscendcPipeHazards, AVectorResultCopiedOutWithoutAFlagIsReported) {
    std::vector<float> gm(kCount, 2.0f);
    auto message = InBlock(gm, [](auto global, auto x, auto) {
        Duplicate(x, 1.0f, kCount);
        DataCopy(global, x, kCount);
    });
    EXPECT_TRUE(
        Says(message, "DataCopy: the source (pipe MTE3) reads what Duplicate (pipe V) wrote"))
        << message;
    EXPECT_TRUE(Says(message, "SetFlag<HardEvent::V_MTE3>(id) after the Duplicate")) << message;
}

TEST(AscendcPipeHazards, OverwritingWhatAnotherPipeStillReadsIsReported) {
    std::vector<float> gm(kCount, 2.0f);
    auto message = InBlock(gm, [](auto global, auto x, auto) {
        Duplicate(x, 1.0f, kCount);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(global, x, kCount);
        Duplicate(x, 3.0f, kCount);  // the copy out may not have read x yet
    });
    EXPECT_TRUE(
        Says(message, "Duplicate: dst (pipe V) overwrites what DataCopy (pipe MTE3) still reads"))
        << message;
    EXPECT_TRUE(Says(message, "SetFlag<HardEvent::MTE3_V>(id) after the DataCopy")) << message;
}

// CANN's projects build with --cce-auto-sync, which orders the scalar pipe with the vector and
// copy pipes: that is assumed unless a block says otherwise (OPENACL_ASCENDC_AUTO_SYNC=0).
TEST(AscendcPipeHazards, TheCompilersAutoSyncOrdersTheScalarPipeByDefault) {
    std::vector<float> gm(kCount, 2.0f);
    float value = 0;
    EXPECT_EQ(InBlock(gm,
                      [&](auto global, auto x, auto y) {
                          Duplicate(x, 1.0f, kCount);
                          value = x.GetValue(3);  // V -> S
                          x.SetValue(5, 7.0f);    // S -> V
                          Adds(y, x, 1.0f, kCount);
                          PipeBarrier<PIPE_ALL>();   // (x: V's writes before the copy)
                          global.SetValue(0, 5.0f);  // S -> MTE2
                          DataCopy(x, global, kCount);
                      }),
              "");
    EXPECT_EQ(value, 1.0f);
}

TEST(AscendcPipeHazards, AScalarReadOfAVectorResultNeedsTheVectorPipeDone) {
    std::vector<float> gm(kCount, 2.0f);
    auto message = InBlock(gm, [](auto, auto x, auto) {
        openacl::ascendc::t_core.hazards.AssumeAutoSync(false);
        Duplicate(x, 1.0f, kCount);
        (void)x.GetValue(3);
    });
    EXPECT_TRUE(Says(message,
                     "LocalTensor::GetValue: the element (pipe S) reads what Duplicate (pipe V) "
                     "wrote"))
        << message;
    EXPECT_TRUE(Says(message, "SetFlag<HardEvent::V_S>(id)")) << message;
}

TEST(AscendcPipeHazards, AScalarWriteReadByTheVectorPipeNeedsAFlag) {
    std::vector<float> gm(kCount, 2.0f);
    auto message = InBlock(gm, [](auto, auto x, auto y) {
        openacl::ascendc::t_core.hazards.AssumeAutoSync(false);
        Duplicate(x, 1.0f, kCount);
        PipeBarrier<PIPE_ALL>();
        x.SetValue(5, 7.0f);
        Adds(y, x, 1.0f, kCount);
    });
    EXPECT_TRUE(Says(message, "Adds: src (pipe V) reads what LocalTensor::SetValue (pipe S) wrote"))
        << message;
    EXPECT_TRUE(Says(message, "SetFlag<HardEvent::S_V>(id)")) << message;
}

TEST(AscendcPipeHazards, GlobalMemoryCopiedOutAndBackInNeedsAFlag) {
    std::vector<float> gm(kCount, 2.0f);
    auto roundTrip = [](bool flag) {
        return [flag](auto global, auto x, auto y) {
            Duplicate(x, 1.0f, kCount);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(global, x, kCount);  // a workspace in GM, written ...
            if (flag) {
                SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
                WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
            }
            DataCopy(y, global, kCount);  // ... and read back
        };
    };
    auto message = InBlock(gm, roundTrip(false));
    EXPECT_TRUE(Says(message,
                     "DataCopy: the global source (pipe MTE2) reads what DataCopy (pipe MTE3) "
                     "wrote"))
        << message;
    EXPECT_TRUE(Says(message, "SetFlag<HardEvent::MTE3_MTE2>(id)")) << message;
    EXPECT_EQ(InBlock(gm, roundTrip(true)), "");
}

TEST(AscendcPipeHazards, AScalarWriteToGlobalMemoryCopiedInNeedsAFlag) {
    std::vector<float> gm(kCount, 2.0f);
    auto message = InBlock(gm, [](auto global, auto x, auto) {
        openacl::ascendc::t_core.hazards.AssumeAutoSync(false);
        global.SetValue(0, 5.0f);
        DataCopy(x, global, kCount);
    });
    EXPECT_TRUE(Says(message,
                     "DataCopy: the global source (pipe MTE2) reads what GlobalTensor::SetValue "
                     "(pipe S) wrote"))
        << message;
    EXPECT_TRUE(Says(message, "SetFlag<HardEvent::S_MTE2>(id)")) << message;
}

// The cube's pipeline, GM -> L1 (MTE2) -> L0A/L0B (MTE1) -> L0C (M) -> GM (FIX), with the flag
// of each hand-off except the one named by `skip` ("" : all of them).
std::string CubePipeline(const std::string& skip) {
    std::vector<half> a(16 * 16, half(1.0f)), b(16 * 16, half(1.0f));
    std::vector<float> c(16 * 16, 0.0f);
    return TrapOf([&] {
        TPipe pipe;
        TBuf<TPosition::A1> a1;
        TBuf<TPosition::B1> b1;
        TBuf<TPosition::A2> a2;
        TBuf<TPosition::B2> b2;
        TBuf<TPosition::CO1> co1;
        pipe.InitBuffer(a1, 512);
        pipe.InitBuffer(b1, 512);
        pipe.InitBuffer(a2, 512);
        pipe.InitBuffer(b2, 512);
        pipe.InitBuffer(co1, 1024);
        GlobalTensor<half> aGm, bGm;
        GlobalTensor<float> cGm;
        aGm.SetGlobalBuffer(a.data(), a.size());
        bGm.SetGlobalBuffer(b.data(), b.size());
        cGm.SetGlobalBuffer(c.data(), c.size());
        DataCopy(a1.Get<half>(), aGm, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
        DataCopy(b1.Get<half>(), bGm, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
        if (skip != "MTE2_MTE1") {
            SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
        }
        LoadData(a2.Get<half>(), a1.Get<half>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
        LoadData(b2.Get<half>(), b1.Get<half>(), LoadData2DParams(0, 1, 1, 0, 0, true, 0));
        if (skip != "MTE1_M") {
            SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
            WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
        }
        Mmad(co1.Get<float>(), a2.Get<half>(), b2.Get<half>(),
             MmadParams(16, 16, 16, 0, false, true));
        if (skip != "M_FIX") {
            SetFlag<HardEvent::M_FIX>(EVENT_ID0);
            WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
        }
        Fixpipe(cGm, co1.Get<float>(), FixpipeParamsV220(16, 16, 16, 16, false));
    });
}

TEST(AscendcPipeHazards, EachHandOffOfTheCubePipelineNeedsItsFlag) {
    EXPECT_EQ(CubePipeline(""), "");
    auto load = CubePipeline("MTE2_MTE1");
    EXPECT_TRUE(
        Says(load, "LoadData: src (pipe MTE1) reads what DataCopy(Nd2NzParams) (pipe MTE2) wrote"))
        << load;
    auto mmad = CubePipeline("MTE1_M");
    EXPECT_TRUE(Says(mmad, "Mmad: fm (A) (pipe M) reads what LoadData (pipe MTE1) wrote")) << mmad;
    auto fixpipe = CubePipeline("M_FIX");
    EXPECT_TRUE(Says(fixpipe, "Fixpipe: src (pipe FIX) reads what Mmad (pipe M) wrote")) << fixpipe;
    EXPECT_TRUE(Says(fixpipe, "SetFlag<HardEvent::M_FIX>(id) after the Mmad")) << fixpipe;
}

TEST(AscendcPipeHazards, DisjointPartsOfABufferDoNotConflict) {
    std::vector<float> gm(kCount, 2.0f);
    auto message = InBlock(gm, [](auto global, auto x, auto y) {
        DataCopy(x, global, kCount / 2);                       // the first half, on MTE2
        Duplicate(x[kCount / 2], 1.0f, kCount / 2);            // the second half, on V
        Adds(y[kCount / 2], x[kCount / 2], 1.0f, kCount / 2);  // reads only V's half
    });
    EXPECT_EQ(message, "");
}

TEST(AscendcPipeHazards, LevelZeroOperandsAreCheckedOverTheLanesTheyTouch) {
    std::vector<float> gm(kCount, 2.0f);
    // A repeat of floats has 64 lanes: a mask of the first 32 reads elements 0..31 only, away
    // from the copy into elements 32..63; a mask of all 64 reads the copy's elements too.
    BinaryRepeatParams params;
    EXPECT_EQ(InBlock(gm,
                      [&](auto global, auto x, auto y) {
                          Duplicate(x, 1.0f, kCount);
                          PipeBarrier<PIPE_ALL>();
                          DataCopy(x[32], global, 32);
                          Add(y, x, x, 32, 1, params);
                      }),
              "");
    auto message = InBlock(gm, [&](auto global, auto x, auto y) {
        Duplicate(x, 1.0f, kCount);
        PipeBarrier<PIPE_ALL>();
        DataCopy(x[32], global, 32);
        Add(y, x, x, 64, 1, params);
    });
    EXPECT_TRUE(Says(message, "Add: src1 (pipe V) reads what DataCopy (pipe MTE2) wrote"))
        << message;
}

TEST(AscendcPipeHazards, QueueHandOffsOrderThePipes) {
    std::vector<float> in(kCount, 2.0f), out(kCount, 0.0f);
    auto message = TrapOf([&] {
        TPipe pipe;
        TQue<QuePosition::VECIN, 1> inQueue;
        TQue<QuePosition::VECOUT, 1> outQueue;
        pipe.InitBuffer(inQueue, 2, kCount * sizeof(float));
        pipe.InitBuffer(outQueue, 2, kCount * sizeof(float));
        GlobalTensor<float> inGm, outGm;
        inGm.SetGlobalBuffer(in.data(), kCount);
        outGm.SetGlobalBuffer(out.data(), kCount);
        for (int round = 0; round < 3; ++round) {
            LocalTensor<float> x = inQueue.AllocTensor<float>();
            DataCopy(x, inGm, kCount);
            inQueue.EnQue(x);
            x = inQueue.DeQue<float>();
            LocalTensor<float> y = outQueue.AllocTensor<float>();
            Muls(y, x, 2.0f, kCount);
            outQueue.EnQue(y);
            inQueue.FreeTensor(x);
            y = outQueue.DeQue<float>();
            DataCopy(outGm, y, kCount);
            outQueue.FreeTensor(y);
        }
    });
    EXPECT_EQ(message, "");
    EXPECT_EQ(out[kCount - 1], 4.0f);
}

TEST(AscendcPipeHazards, AVectorLoopOverABufferIsOneAccessUntilTheCopyOut) {
    // Many vector instructions over adjoining parts of a buffer, then a copy out that waits for
    // the vector pipe: no report, however many parts.
    std::vector<float> gm(kCount, 0.0f);
    EXPECT_EQ(InBlock(gm,
                      [](auto global, auto x, auto) {
                          for (uint32_t i = 0; i < kCount; i += 8)
                              Duplicate(x[i], float(i), 8);
                          SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
                          WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
                          DataCopy(global, x, kCount);
                      }),
              "");
    EXPECT_EQ(gm[63], 56.0f);
}

TEST(AscendcPipeHazards, AKernelCyclingThroughBuffersKeepsAFewAccessesHoweverLongItRuns) {
    // Three adjoining buffers read and written by the vector pipe round after round, never
    // synchronised with another pipe: each later access stands for the earlier ones of its bytes.
    std::vector<float> gm(kCount, 0.0f);
    size_t kept = 0;
    EXPECT_EQ(InBlock(gm,
                      [&](auto, auto x, auto y) {
                          LocalTensor<float> z = x[kCount / 2];
                          Duplicate(x, 1.0f, kCount);
                          Duplicate(y, 2.0f, kCount);
                          for (int round = 0; round < 1000; ++round) {
                              Add(z, x, y, kCount / 2);
                              Sub(x, z, y, kCount / 2);
                              Max(y, x, z, kCount / 2);
                          }
                          kept = openacl::ascendc::t_core.hazards.Kept();
                      }),
              "");
    EXPECT_LE(kept, 8u);
}

TEST(AscendcPipeHazards, AnAccessInsideAnEarlierOneStillLeavesTheRestChecked) {
    // The vector pipe writes the whole buffer, then again its middle: the parts around the
    // middle are still the first write's, and a copy out of one of them needs V_MTE3.
    std::vector<float> gm(kCount, 0.0f);
    auto message = InBlock(gm, [](auto global, auto x, auto) {
        Duplicate(x, 1.0f, kCount);
        Duplicate(x[16], 2.0f, 16);
        DataCopy(global, x[40], 8);
    });
    EXPECT_TRUE(
        Says(message, "DataCopy: the source (pipe MTE3) reads what Duplicate (pipe V) wrote"))
        << message;
}

TEST(AscendcPipeHazards, TheCheckCanBeTurnedOffForTheRestOfABlock) {
    std::vector<float> gm(kCount, 2.0f);
    auto message = InBlock(gm, [](auto global, auto x, auto y) {
        openacl::ascendc::t_core.hazards.Enable(false);
        DataCopy(x, global, kCount);
        Add(y, x, x, kCount);
    });
    EXPECT_EQ(message, "");
}

// Registered a second time by CMake with OPENACL_ASCENDC_PIPE_CHECK=0.
TEST(AscendcPipeHazardsEnvironment, ZeroTurnsTheCheckOffOtherwiseItIsOn) {
    std::vector<float> gm(kCount, 2.0f);
    auto message = InBlock(gm, [](auto global, auto x, auto y) {
        DataCopy(x, global, kCount);
        Add(y, x, x, kCount);
    });
    const char* setting = std::getenv("OPENACL_ASCENDC_PIPE_CHECK");
    if (setting != nullptr && std::string(setting) == "0") {
        EXPECT_EQ(message, "");
    } else {
        EXPECT_TRUE(Says(message, "reads what DataCopy (pipe MTE2) wrote")) << message;
    }
}

}  // namespace
