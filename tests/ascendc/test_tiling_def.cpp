// Host tiling definitions (register/tilingdata_base.h): setters and getters, SaveToBuffer's
// layout, the class registry, and a kernel reading the bytes with GET_TILING_DATA.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "block_runner.h"
#include "register/tilingdata_base.h"

extern "C" void tiling_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling);

namespace optiling {

BEGIN_TILING_DATA_DEF(TilingInnerDef)
TILING_DATA_FIELD_DEF(uint16_t, rows);
TILING_DATA_FIELD_DEF(uint64_t, stamp);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(ScaleTilingDef)
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF(uint32_t, length);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_ARR(float, 4, bias);
TILING_DATA_FIELD_DEF_STRUCT(TilingInnerDef, inner);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleCustom, ScaleTilingDef)

}  // namespace optiling

namespace {

// The struct the kernel sees (as in tiling_scale_custom.cpp).
struct TilingInner {
    uint16_t rows;
    uint64_t stamp;
};
struct ScaleTiling {
    uint8_t flag;
    uint32_t length;
    float scale;
    float bias[4];
    TilingInner inner;
};

void Fill(optiling::ScaleTilingDef& tiling) {
    tiling.set_flag(3);
    tiling.set_length(64);
    tiling.set_scale(2.5f);
    const float bias[4] = {1, 2, 3, 4};
    tiling.set_bias(bias);
    tiling.inner.set_rows(7);
    tiling.inner.set_stamp(0x1122334455667788ULL);
}

TEST(AscendcTilingDef, SettersAndGettersRoundTrip) {
    optiling::ScaleTilingDef tiling;
    Fill(tiling);
    EXPECT_EQ(tiling.get_flag(), 3);
    EXPECT_EQ(tiling.get_length(), 64U);
    EXPECT_EQ(tiling.get_scale(), 2.5f);
    EXPECT_EQ(tiling.get_bias()[3], 4.0f);
    EXPECT_EQ(tiling.inner.get_stamp(), 0x1122334455667788ULL);
    EXPECT_EQ(tiling.GetTilingClassName(), "ScaleTilingDef");
}

TEST(AscendcTilingDef, SaveToBufferWritesThePlainStructsLayout) {
    optiling::ScaleTilingDef tiling;
    Fill(tiling);
    EXPECT_EQ(tiling.GetDataSize(), sizeof(ScaleTiling));
    std::vector<uint8_t> bytes(tiling.GetDataSize(), 0xEE);
    tiling.SaveToBuffer(bytes.data(), bytes.size());
    ScaleTiling plain;
    std::memcpy(&plain, bytes.data(), sizeof plain);
    EXPECT_EQ(plain.flag, 3);
    EXPECT_EQ(plain.length, 64U);
    EXPECT_EQ(plain.scale, 2.5f);
    EXPECT_EQ(plain.bias[1], 2.0f);
    EXPECT_EQ(plain.inner.rows, 7);
    EXPECT_EQ(plain.inner.stamp, 0x1122334455667788ULL);
    EXPECT_EQ(bytes[1], 0);  // padding after flag is zeroed
}

TEST(AscendcTilingDef, SaveToBufferRefusesASmallBuffer) {
    optiling::ScaleTilingDef tiling;
    Fill(tiling);
    std::vector<uint8_t> bytes(8, 0xEE);
    testing::internal::CaptureStderr();
    tiling.SaveToBuffer(bytes.data(), bytes.size());
    std::string error = testing::internal::GetCapturedStderr();
    EXPECT_NE(error.find("SaveToBuffer: ScaleTilingDef needs 48 bytes but the buffer has 8"),
              std::string::npos)
        << error;
    EXPECT_EQ(bytes[0], 0xEE);
}

TEST(AscendcTilingDef, RegisteredClassIsCreatedByOpType) {
    auto& factory = optiling::CTilingDataClassFactory::GetInstance();
    auto tiling = factory.CreateTilingDataInstance("ScaleCustom");
    ASSERT_NE(tiling, nullptr);
    EXPECT_EQ(tiling->GetTilingClassName(), "ScaleTilingDef");
    EXPECT_EQ(tiling->GetDataSize(), sizeof(ScaleTiling));
    EXPECT_EQ(factory.CreateTilingDataInstance("NoSuchOp"), nullptr);
}

TEST(AscendcTilingDef, KernelReadsSavedTilingWithGetTilingData) {
    optiling::ScaleTilingDef tiling;
    Fill(tiling);
    std::vector<uint8_t> bytes(tiling.GetDataSize());
    tiling.SaveToBuffer(bytes.data(), bytes.size());
    std::vector<float> x(64), y(64, 0.0f);
    for (uint32_t i = 0; i < 64; ++i)
        x[i] = float(i);
    std::vector<uint8_t> workspace(16 * 1024 * 1024 + 64);
    auto failure = openacl::test::RunBlocks(1, [&] {
        tiling_scale_custom(reinterpret_cast<GM_ADDR>(x.data()),
                            reinterpret_cast<GM_ADDR>(y.data()), workspace.data(), bytes.data());
    });
    ASSERT_EQ(failure, "");
    for (uint32_t i = 0; i < 64; ++i)
        ASSERT_EQ(y[i], float(i) * 2.5f + float(i % 4 + 1)) << i;
    uint64_t user;
    std::memcpy(&user, workspace.data() + 16 * 1024 * 1024, sizeof user);
    EXPECT_EQ(user, 0x1122334455667788ULL + 7 + 3);
}

TEST(AscendcTilingDef, GetUserWorkspaceOfANullWorkspaceTraps) {
    std::string message;
    try {
        openacl::test::RunOneBlock([] { AscendC::GetUserWorkspace(nullptr); });
    } catch (const openacl::kernel::KernelTrap& trap) {
        message = trap.what();
    }
    EXPECT_NE(message.find("GetUserWorkspace: the workspace is null"), std::string::npos)
        << message;
}

}  // namespace
