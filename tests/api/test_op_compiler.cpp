// acl_op_compiler.h: the process-wide compile options (aclSetCompileopt, aclGetCompileoptSize,
// aclGetCompileopt) and the compile flag (aclopSetCompileFlag). Each test runs in a process of
// its own, so every one starts from CANN's defaults.
#include "acl/acl_op_compiler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "recorded_error.h"
#include "scoped_env.h"

namespace {

// The option's value through the documented two calls; "<none>" when it has no value.
std::string Option(aclCompileOpt opt) {
    const size_t size = aclGetCompileoptSize(opt);
    if (size == 0) return "<none>";
    std::vector<char> value(size, 'x');
    EXPECT_EQ(aclGetCompileopt(opt, value.data(), value.size()), ACL_SUCCESS);
    EXPECT_EQ(value.back(), '\0') << "the size counts the terminator";
    return value.data();
}

TEST(OpCompileOpt, aclGetCompileoptSizeOfJitCompileIsNonZeroWithoutAclInit) {
    // The PyTorch adapter stops at start-up when this is 0 or the value cannot be read.
    EXPECT_EQ(aclGetCompileoptSize(ACL_OP_JIT_COMPILE), sizeof("disable"));
    EXPECT_EQ(Option(ACL_OP_JIT_COMPILE), "disable");
}

TEST(OpCompileOpt, JitCompileDefaultsToDisableOnAtlasA2AndA3) {
    for (const char* soc : {"Ascend910B3", "Ascend910_9391"}) {
        ScopedEnv env("OPENACL_SOC_NAME", soc);
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        EXPECT_EQ(Option(ACL_OP_JIT_COMPILE), "disable") << soc;
        ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    }
}

TEST(OpCompileOpt, JitCompileDefaultsToEnableOnTheInferenceSeries) {
    ScopedEnv env("OPENACL_SOC_NAME", "Ascend310P3");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(Option(ACL_OP_JIT_COMPILE), "enable");
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(OpCompileOpt, aclGetCompileoptReturnsTheDocumentedDefaults) {
    EXPECT_EQ(Option(ACL_PRECISION_MODE), "allow_fp32_to_fp16");
    EXPECT_EQ(Option(ACL_PRECISION_MODE_V2), "fp16");
    EXPECT_EQ(Option(ACL_OP_SELECT_IMPL_MODE), "high_precision");
    EXPECT_EQ(Option(ACL_OP_DEBUG_LEVEL), "0");
    EXPECT_EQ(Option(ACL_OP_COMPILER_CACHE_MODE), "disable");
    EXPECT_EQ(Option(ACL_OP_PERFORMANCE_MODE), "normal");
    EXPECT_EQ(Option(ACL_OP_DETERMINISTIC), "0");
}

TEST(OpCompileOpt, OptionsWithoutADefaultHaveNoValueUntilSet) {
    for (aclCompileOpt opt : {ACL_AICORE_NUM, ACL_AUTO_TUNE_MODE, ACL_OPTYPELIST_FOR_IMPLMODE,
                              ACL_DEBUG_DIR, ACL_OP_COMPILER_CACHE_DIR, ACL_CUSTOMIZE_DTYPES,
                              ACL_OP_PRECISION_MODE, ACL_ALLOW_HF32, ACL_OP_DEBUG_OPTION}) {
        SCOPED_TRACE(opt);
        EXPECT_EQ(aclGetCompileoptSize(opt), 0u);
        char value[64];
        EXPECT_EQ(aclGetCompileopt(opt, value, sizeof value), ACL_ERROR_API_NOT_SUPPORT);
        const char* message = TakeErrMsg();
        ASSERT_NE(message, nullptr);
        EXPECT_NE(std::string(message).find("has no value"), std::string::npos) << message;
    }
}

TEST(OpCompileOpt, aclGetCompileoptReturnsTheValueSet) {
    ASSERT_EQ(aclSetCompileopt(ACL_PRECISION_MODE, "must_keep_origin_dtype"), ACL_SUCCESS);
    ASSERT_EQ(aclSetCompileopt(ACL_OP_JIT_COMPILE, "enable"), ACL_SUCCESS);
    ASSERT_EQ(aclSetCompileopt(ACL_OP_COMPILER_CACHE_DIR, "/tmp/op_cache"), ACL_SUCCESS);
    ASSERT_EQ(aclSetCompileopt(ACL_OP_DEBUG_OPTION, "oom"), ACL_SUCCESS);
    EXPECT_EQ(Option(ACL_PRECISION_MODE), "must_keep_origin_dtype");
    EXPECT_EQ(Option(ACL_OP_JIT_COMPILE), "enable");
    EXPECT_EQ(Option(ACL_OP_COMPILER_CACHE_DIR), "/tmp/op_cache");
    EXPECT_EQ(Option(ACL_OP_DEBUG_OPTION), "oom");
    EXPECT_EQ(aclGetCompileoptSize(ACL_OP_COMPILER_CACHE_DIR), sizeof("/tmp/op_cache"));
}

TEST(OpCompileOpt, SettingAnOptionAgainReplacesItsValue) {
    ASSERT_EQ(aclSetCompileopt(ACL_OP_JIT_COMPILE, "enable"), ACL_SUCCESS);
    ASSERT_EQ(aclSetCompileopt(ACL_OP_JIT_COMPILE, "disable"), ACL_SUCCESS);
    EXPECT_EQ(Option(ACL_OP_JIT_COMPILE), "disable");
}

TEST(OpCompileOpt, AnEmptyValueClearsAFreeFormOption) {
    ASSERT_EQ(aclSetCompileopt(ACL_DEBUG_DIR, "/tmp/kernel_meta"), ACL_SUCCESS);
    ASSERT_EQ(aclSetCompileopt(ACL_DEBUG_DIR, ""), ACL_SUCCESS);
    EXPECT_EQ(aclGetCompileoptSize(ACL_DEBUG_DIR), 0u);
}

TEST(OpCompileOpt, OptionsPersistAcrossAclFinalize) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclSetCompileopt(ACL_OP_DETERMINISTIC, "1"), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    EXPECT_EQ(Option(ACL_OP_DETERMINISTIC), "1");
}

TEST(OpCompileOpt, aclSetCompileoptRefusesValuesOutsideTheDocumentedSetNamingThem) {
    EXPECT_EQ(aclSetCompileopt(ACL_PRECISION_MODE, "fp16"), ACL_ERROR_INVALID_PARAM);
    const char* message = TakeErrMsg();
    ASSERT_NE(message, nullptr);
    const std::string text = message;
    EXPECT_NE(text.find("ACL_PRECISION_MODE does not accept \"fp16\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"allow_fp32_to_fp16\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"must_keep_origin_dtype\""), std::string::npos) << text;
    EXPECT_EQ(Option(ACL_PRECISION_MODE), "allow_fp32_to_fp16") << "the old value stays";
}

TEST(OpCompileOpt, EveryDocumentedValueOfAnEnumeratedOptionIsAccepted) {
    const struct {
        aclCompileOpt opt;
        std::vector<const char*> values;
    } cases[] = {
        {ACL_PRECISION_MODE,
         {"force_fp32", "cube_fp16in_fp32out", "force_fp16", "allow_fp32_to_fp16",
          "must_keep_origin_dtype", "allow_mix_precision", "allow_mix_precision_fp16",
          "allow_mix_precision_bf16", "allow_fp32_to_bf16"}},
        {ACL_PRECISION_MODE_V2,
         {"fp16", "origin", "cube_fp16in_fp32out", "mixed_float16", "mixed_bfloat16", "mixed_hif8",
          "cube_hif8"}},
        {ACL_OP_SELECT_IMPL_MODE,
         {"high_precision", "high_performance", "high_precision_for_all",
          "high_performance_for_all"}},
        {ACL_OP_DEBUG_LEVEL, {"0", "1", "2", "3", "4"}},
        {ACL_OP_COMPILER_CACHE_MODE, {"enable", "force", "disable"}},
        {ACL_OP_PERFORMANCE_MODE, {"normal", "high"}},
        {ACL_OP_JIT_COMPILE, {"enable", "disable"}},
        {ACL_OP_DETERMINISTIC, {"0", "1"}},
        {ACL_ALLOW_HF32, {"true", "false"}},
        {ACL_OP_DEBUG_OPTION, {"oom"}},
    };
    for (const auto& c : cases) {
        for (const char* value : c.values) {
            EXPECT_EQ(aclSetCompileopt(c.opt, value), ACL_SUCCESS) << c.opt << " " << value;
            EXPECT_EQ(Option(c.opt), value);
        }
        EXPECT_EQ(aclSetCompileopt(c.opt, "bogus"),
                  c.opt == ACL_OP_JIT_COMPILE ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM)
            << c.opt;
    }
}

TEST(OpCompileOpt, JitCompileTakesAnyOtherValueAsDisableAsCannDoes) {
    ASSERT_EQ(aclSetCompileopt(ACL_OP_JIT_COMPILE, "enable"), ACL_SUCCESS);
    EXPECT_EQ(aclSetCompileopt(ACL_OP_JIT_COMPILE, "0"), ACL_SUCCESS);
    EXPECT_EQ(Option(ACL_OP_JIT_COMPILE), "disable");
    EXPECT_EQ(TakeErrMsg(), nullptr) << "a warning, not an error";
}

TEST(OpCompileOpt, JitCompileRefusesOtherValuesUnderStrict) {
    ScopedEnv strict("OPENACL_STRICT", "1");
    EXPECT_EQ(aclSetCompileopt(ACL_OP_JIT_COMPILE, "0"), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(Option(ACL_OP_JIT_COMPILE), "disable") << "the default, unchanged";
}

TEST(OpCompileOpt, FreeFormOptionsKeepTheirValueAsGiven) {
    const char* list = "MatMul,Conv2D";
    ASSERT_EQ(aclSetCompileopt(ACL_OPTYPELIST_FOR_IMPLMODE, list), ACL_SUCCESS);
    EXPECT_EQ(Option(ACL_OPTYPELIST_FOR_IMPLMODE), list);
    ASSERT_EQ(aclSetCompileopt(ACL_AICORE_NUM, "8"), ACL_SUCCESS);
    EXPECT_EQ(Option(ACL_AICORE_NUM), "8");
}

TEST(OpCompileOpt, AutoTuneModeWasDiscardedAndCannotBeSet) {
    EXPECT_EQ(aclSetCompileopt(ACL_AUTO_TUNE_MODE, "GA"), ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_EQ(aclGetCompileoptSize(ACL_AUTO_TUNE_MODE), 0u);
}

TEST(OpCompileOpt, aclGetCompileoptNeedsRoomForTheTerminator) {
    char value[7];  // "disable" takes 8 bytes
    EXPECT_EQ(aclGetCompileopt(ACL_OP_JIT_COMPILE, value, sizeof value), ACL_ERROR_FAILURE);
    const char* message = TakeErrMsg();
    ASSERT_NE(message, nullptr);
    EXPECT_NE(std::string(message).find("takes 8 bytes"), std::string::npos) << message;
    char exact[8];
    EXPECT_EQ(aclGetCompileopt(ACL_OP_JIT_COMPILE, exact, sizeof exact), ACL_SUCCESS);
    EXPECT_STREQ(exact, "disable");
}

TEST(OpCompileOpt, OptionsOutsideTheEnumAreInvalid) {
    const auto bad = static_cast<aclCompileOpt>(ACL_OP_DEBUG_OPTION + 1);
    char value[16];
    EXPECT_EQ(aclSetCompileopt(bad, "x"), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclGetCompileopt(bad, value, sizeof value), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclGetCompileoptSize(bad), 0u);
    EXPECT_EQ(RecordedError(), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclGetCompileoptSize(static_cast<aclCompileOpt>(-1)), 0u);
}

TEST(OpCompileFlag, aclopSetCompileFlagTakesBothFlags) {
    EXPECT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
    EXPECT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT), ACL_SUCCESS);
}

TEST(OpCompileFlag, aclopSetCompileFlagRefusesOtherValues) {
    EXPECT_EQ(aclopSetCompileFlag(static_cast<aclOpCompileFlag>(2)), ACL_ERROR_INVALID_PARAM);
}

TEST(OpCompiler, CompilingChecksTheOperatorsInputCount) {
    // aclopCompile itself is tested with the single operators (test_op_models.cpp).
    EXPECT_EQ(aclopCompile("Add", 0, nullptr, 0, nullptr, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS,
                           nullptr),
              ACL_ERROR_OP_INPUT_NOT_MATCH);
}

}  // namespace
