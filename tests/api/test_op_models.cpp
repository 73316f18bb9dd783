// acl_op.h: single-operator models and what needs them. atc --singleop writes models,
// aclopSetModelDir and aclopLoad load them, and aclopExecuteV2, aclopCreateHandle and aclopCast
// run a call only when a model (or an earlier aclopCompile) matches it; V2 writes the real
// output shapes into the output descriptions. Also aclopInferShape, aclopUpdateParams and
// aclopSetMaxOpQueueNum. Each test runs in its own process (aclopSetModelDir works once).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "op_test_support.h"
#include "recorded_error.h"
#include "temp_dir.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;

std::string ReadAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

class OpModels : public DeviceTest {
 protected:
    // Runs atc --singleop on `json` into dir/<sub>; true on success.
    bool Atc(const std::string& json, const std::string& sub = "") {
        const std::string file = dir_.File("ops.json");
        std::ofstream(file) << json;
        const std::string out = sub.empty() ? dir_.path() : dir_.path() + "/" + sub;
        const std::string command = std::string(OPENACL_ATC) + " --singleop=" + file +
                                    " --output=" + out + " --soc_version=Ascend310P3 >" +
                                    dir_.File("atc.log") + " 2>&1";
        const int status = std::system(command.c_str());
        return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    TempDir dir_{"op_models"};
};

const char* const kAdd = R"([{"op": "Add",
  "input_desc": [{"format": "ND", "shape": [2, 3], "type": "float"},
                 {"format": "ND", "shape": [2, 3], "type": "float"}],
  "output_desc": [{"format": "ND", "shape": [2, 3], "type": "float"}]}])";

// Cast float -> float16 of 1 to 16 elements, with CANN's attributes.
const char* const kCast = R"([{"op": "Cast",
  "input_desc": [{"format": "ND", "shape": [-1], "shape_range": [[1, 16]], "type": "float"}],
  "output_desc": [{"format": "ND", "shape": [-1], "type": "float16"}],
  "attr": [{"name": "truncate", "type": "bool", "value": false},
           {"name": "dst_type", "type": "int", "value": 1}]}])";

TEST_F(OpModels, ExecuteV2RunsAnOperatorItsModelDirHolds) {
    ASSERT_TRUE(Atc(kAdd)) << ReadAll(dir_.File("atc.log"));
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS) << aclGetRecentErrMsg();
    OpTensor x1(ACL_FLOAT, {2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6});
    OpTensor x2(ACL_FLOAT, {2, 3}, std::vector<float>(6, 10.0f));
    OpTensor y(ACL_FLOAT, {2, 3}, 6, 4);
    ASSERT_EQ(ExecuteV2("Add", {&x1, &x2}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{11, 12, 13, 14, 15, 16}));
}

TEST_F(OpModels, ExecuteV2WithoutAMatchingModelIsOpNotFound) {
    ASSERT_TRUE(Atc(kAdd));
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    // The model is [2, 3]; the call is [3, 2].
    OpTensor x1(ACL_FLOAT, {3, 2}, 6, 4), x2(ACL_FLOAT, {3, 2}, 6, 4), y(ACL_FLOAT, {3, 2}, 6, 4);
    EXPECT_EQ(ExecuteV2("Add", {&x1, &x2}, {&y}), ACL_ERROR_OP_NOT_FOUND);
    const std::string message = TakeErrMsg();
    EXPECT_NE(message.find("no single-operator model matches Add"), std::string::npos) << message;
    EXPECT_NE(message.find("input 0: dimension 0 differs"), std::string::npos) << message;
}

TEST_F(OpModels, ExecuteV2WithNoModelAtAllIsOpNotFound) {
    OpTensor x1(ACL_FLOAT, {2}, 2, 4), x2(ACL_FLOAT, {2}, 2, 4), y(ACL_FLOAT, {2}, 2, 4);
    EXPECT_EQ(ExecuteV2("Add", {&x1, &x2}, {&y}), ACL_ERROR_OP_NOT_FOUND);
    EXPECT_NE(std::string(TakeErrMsg()).find("0 models loaded"), std::string::npos);
}

TEST_F(OpModels, TheDeprecatedExecuteNeedsAModelToo) {
    OpTensor x1(ACL_FLOAT, {2}, 2, 4), x2(ACL_FLOAT, {2}, 2, 4), y(ACL_FLOAT, {2}, 2, 4);
    const aclTensorDesc* in[] = {x1.desc(), x2.desc()};
    const aclDataBuffer* bufs[] = {x1.buffer(), x2.buffer()};
    const aclTensorDesc* out[] = {y.desc()};
    aclDataBuffer* outs[] = {y.buffer()};
    EXPECT_EQ(aclopExecute("Add", 2, in, bufs, 1, out, outs, nullptr, nullptr),
              ACL_ERROR_OP_NOT_FOUND);
}

TEST_F(OpModels, ModelsAreFoundTwoLevelsDownButNotThree) {
    ASSERT_TRUE(Atc(kAdd, "a/b"));
    ASSERT_TRUE(Atc(kCast, "a/b/c"));
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    OpTensor x1(ACL_FLOAT, {2, 3}, 6, 4), x2(ACL_FLOAT, {2, 3}, 6, 4), y(ACL_FLOAT, {2, 3}, 6, 4);
    EXPECT_EQ(ExecuteV2("Add", {&x1, &x2}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    OpTensor src(ACL_FLOAT, {4}, 4, 4), dst(ACL_FLOAT16, {4}, 4, 2);
    EXPECT_EQ(aclopCast(src.desc(), src.buffer(), dst.desc(), dst.buffer(), 0, nullptr),
              ACL_ERROR_OP_NOT_FOUND);
}

TEST_F(OpModels, AMissingModelDirIsReadModelFailure) {
    EXPECT_EQ(aclopSetModelDir(dir_.File("missing").c_str()), ACL_ERROR_READ_MODEL_FAILURE);
}

TEST_F(OpModels, TheModelDirIsSetOncePerProcess) {
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    EXPECT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_ERROR_REPEAT_INITIALIZE);
}

TEST_F(OpModels, FilesThatAreNoSingleOpModelsAreSkipped) {
    ASSERT_TRUE(Atc(kAdd));
    std::ofstream(dir_.File("junk.om")) << "not a model";
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    OpTensor x1(ACL_FLOAT, {2, 3}, 6, 4), x2(ACL_FLOAT, {2, 3}, 6, 4), y(ACL_FLOAT, {2, 3}, 6, 4);
    EXPECT_EQ(ExecuteV2("Add", {&x1, &x2}, {&y}), ACL_SUCCESS);
}

TEST_F(OpModels, AclopLoadTakesAModelFromMemory) {
    ASSERT_TRUE(Atc(kAdd, "m"));
    std::string bytes;
    for (const std::string& file : dir_.Files()) {
        if (file.size() > 3 && file.compare(file.size() - 3, 3, ".om") == 0) bytes = ReadAll(file);
    }
    ASSERT_FALSE(bytes.empty());
    ASSERT_EQ(aclopLoad(bytes.data(), bytes.size()), ACL_SUCCESS) << aclGetRecentErrMsg();
    OpTensor x1(ACL_FLOAT, {2, 3}, std::vector<float>(6, 1.0f));
    OpTensor x2(ACL_FLOAT, {2, 3}, std::vector<float>(6, 2.0f));
    OpTensor y(ACL_FLOAT, {2, 3}, 6, 4);
    ASSERT_EQ(ExecuteV2("Add", {&x1, &x2}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), std::vector<float>(6, 3.0f));
}

TEST_F(OpModels, AclopLoadRefusesBytesThatAreNoModel) {
    const std::string bytes = "OACL-OM\0 this is a network model";
    EXPECT_EQ(aclopLoad(bytes.data(), bytes.size()), ACL_ERROR_PARSE_MODEL);
    EXPECT_NE(std::string(TakeErrMsg()).find("not a single-operator model"), std::string::npos);
}

TEST_F(OpModels, ADynamicModelTakesShapesInItsRange) {
    ASSERT_TRUE(Atc(kCast));
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    OpTensor src(ACL_FLOAT, {3}, std::vector<float>{0.5f, 1.5f, -2.0f}),
        dst(ACL_FLOAT16, {3}, 3, 2);
    ASSERT_EQ(aclopCast(src.desc(), src.buffer(), dst.desc(), dst.buffer(), 0, nullptr),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const auto halves = dst.Read<aclFloat16>();
    EXPECT_EQ(aclFloat16ToFloat(halves[0]), 0.5f);
    EXPECT_EQ(aclFloat16ToFloat(halves[2]), -2.0f);
    // 20 elements are outside [1, 16].
    OpTensor big(ACL_FLOAT, {20}, 20, 4), big_dst(ACL_FLOAT16, {20}, 20, 2);
    EXPECT_EQ(aclopCast(big.desc(), big.buffer(), big_dst.desc(), big_dst.buffer(), 0, nullptr),
              ACL_ERROR_OP_NOT_FOUND);
    EXPECT_NE(std::string(TakeErrMsg()).find("outside the model's range [1, 16]"),
              std::string::npos);
}

TEST_F(OpModels, CastFindsAModelWithoutTruncateToo) {
    ASSERT_TRUE(Atc(R"([{"op": "Cast",
      "input_desc": [{"format": "ND", "shape": [2], "type": "int32"}],
      "output_desc": [{"format": "ND", "shape": [2], "type": "float"}],
      "attr": [{"name": "dst_type", "type": "int", "value": 0}]}])"));
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    OpTensor src(ACL_INT32, {2}, std::vector<int32_t>{3, -4}), dst(ACL_FLOAT, {2}, 2, 4);
    ASSERT_EQ(aclopCast(src.desc(), src.buffer(), dst.desc(), dst.buffer(), 1, nullptr),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(dst.Read<float>(), (std::vector<float>{3, -4}));
}

TEST_F(OpModels, ExecuteV2WritesTheRealOutputShape) {
    // A dynamic Add: the output is given with its largest shape and comes back exact.
    ASSERT_TRUE(Atc(R"([{"op": "Add",
      "input_desc": [{"format": "ND", "shape": [-1, 3], "shape_range": [[1, 8], [3, 3]],
                      "type": "float"},
                     {"format": "ND", "shape": [-1, 3], "shape_range": [[1, 8], [3, 3]],
                      "type": "float"}],
      "output_desc": [{"format": "ND", "shape": [-1, 3], "type": "float"}]}])"));
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    OpTensor x1(ACL_FLOAT, {2, 3}, std::vector<float>(6, 1.0f));
    OpTensor x2(ACL_FLOAT, {2, 3}, std::vector<float>(6, 2.0f));
    OpTensor y(ACL_FLOAT, {8, 3}, 24, 4);
    ASSERT_EQ(ExecuteV2("Add", {&x1, &x2}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclGetTensorDescNumDims(y.desc()), 2u);
    int64_t rows = 0;
    ASSERT_EQ(aclGetTensorDescDimV2(y.desc(), 0, &rows), ACL_SUCCESS);
    EXPECT_EQ(rows, 2);
    const auto got = y.Read<float>();
    EXPECT_EQ(std::vector<float>(got.begin(), got.begin() + 6), std::vector<float>(6, 3.0f));
}

TEST_F(OpModels, CompileAndExecuteV2WritesAMinusOneShape) {
    OpTensor x(ACL_FLOAT, {2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6});
    OpTensor perm(ACL_INT32, {2}, std::vector<int32_t>{1, 0}, ACL_FORMAT_ND, ACL_MEMTYPE_HOST);
    OpTensor y(ACL_FLOAT, {6}, 6, 4);
    const int64_t dynamic[] = {-1, -1};
    ASSERT_EQ(aclSetTensorShape(y.desc(), 2, dynamic), ACL_SUCCESS);
    OpArrays in({&x, &perm}), out({&y});
    ASSERT_EQ(aclopCompileAndExecuteV2("Transpose", 2, in.d(), in.b(), 1, out.d(), out.b(), nullptr,
                                       ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr, nullptr),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    int64_t d0 = 0, d1 = 0;
    ASSERT_EQ(aclGetTensorDescDimV2(y.desc(), 0, &d0), ACL_SUCCESS);
    ASSERT_EQ(aclGetTensorDescDimV2(y.desc(), 1, &d1), ACL_SUCCESS);
    EXPECT_EQ(d0, 3);
    EXPECT_EQ(d1, 2);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST_F(OpModels, CompileAndExecuteRefusesAWrongOutputShape) {
    OpTensor x1(ACL_FLOAT, {2, 3}, 6, 4), x2(ACL_FLOAT, {3}, 3, 4), y(ACL_FLOAT, {3, 2}, 6, 4);
    EXPECT_EQ(CompileAndRun("Add", {&x1, &x2}, {&y}), ACL_ERROR_OP_OUTPUT_NOT_MATCH);
    EXPECT_NE(std::string(TakeErrMsg()).find("but the output is [2, 3]"), std::string::npos);
}

TEST_F(OpModels, AclopCompileMakesAModelForExecuteV2) {
    OpTensor x1(ACL_FLOAT, {4}, std::vector<float>{1, 2, 3, 4});
    OpTensor x2(ACL_FLOAT, {4}, std::vector<float>{4, 3, 2, 1});
    OpTensor y(ACL_FLOAT, {4}, 4, 4);
    OpArrays in({&x1, &x2}), out({&y});
    ASSERT_EQ(aclopCompile("Mul", 2, in.d(), 1, out.d(), nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS,
                           nullptr),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(ExecuteV2("Mul", {&x1, &x2}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{4, 6, 6, 4}));
}

TEST_F(OpModels, ADynamicCompileServesShapesInItsRange) {
    const int64_t dynamic[] = {-1};
    int64_t range[1][2] = {{1, 8}};
    aclTensorDesc* x = aclCreateTensorDesc(ACL_FLOAT, 1, dynamic, ACL_FORMAT_ND);
    ASSERT_EQ(aclSetTensorShapeRange(x, 1, range), ACL_SUCCESS);
    aclTensorDesc* descs[] = {x};
    ASSERT_EQ(
        aclopCompile("Neg", 1, descs, 1, descs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
        ACL_SUCCESS)
        << aclGetRecentErrMsg();
    aclDestroyTensorDesc(x);
    OpTensor in(ACL_FLOAT, {3}, std::vector<float>{1, -2, 3}), out(ACL_FLOAT, {3}, 3, 4);
    ASSERT_EQ(ExecuteV2("Neg", {&in}, {&out}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(out.Read<float>(), (std::vector<float>{-1, 2, -3}));
    OpTensor big(ACL_FLOAT, {9}, 9, 4), big_out(ACL_FLOAT, {9}, 9, 4);
    EXPECT_EQ(ExecuteV2("Neg", {&big}, {&big_out}), ACL_ERROR_OP_NOT_FOUND);
}

TEST_F(OpModels, AclopCompileRefusesAnUnknownType) {
    OpTensor x(ACL_FLOAT, {4}, 4, 4);
    OpArrays in({&x}), out({&x});
    EXPECT_EQ(aclopCompile("NoSuchOp", 1, in.d(), 1, out.d(), nullptr, ACL_ENGINE_SYS,
                           ACL_COMPILE_SYS, nullptr),
              ACL_ERROR_OP_NOT_FOUND);
    EXPECT_NE(std::string(TakeErrMsg()).find("no operator of type \"NoSuchOp\""),
              std::string::npos);
}

TEST_F(OpModels, AttributesMustMatchTheModels) {
    ASSERT_TRUE(Atc(R"([{"op": "LeakyRelu",
      "input_desc": [{"format": "ND", "shape": [4], "type": "float"}],
      "output_desc": [{"format": "ND", "shape": [4], "type": "float"}],
      "attr": [{"name": "negative_slope", "type": "float", "value": 0.5}]}])"));
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    OpTensor x(ACL_FLOAT, {4}, std::vector<float>{-2, -1, 1, 2}), y(ACL_FLOAT, {4}, 4, 4);
    OpAttr other;
    other.Float("negative_slope", 0.25f);
    EXPECT_EQ(ExecuteV2("LeakyRelu", {&x}, {&y}, other.get()), ACL_ERROR_OP_NOT_FOUND);
    EXPECT_NE(std::string(TakeErrMsg()).find("the attributes differ"), std::string::npos);
    OpAttr same;
    same.Float("negative_slope", 0.5f);
    ASSERT_EQ(ExecuteV2("LeakyRelu", {&x}, {&y}, same.get()), ACL_SUCCESS);
    EXPECT_EQ(y.Read<float>(), (std::vector<float>{-1, -0.5f, 1, 2}));
}

TEST_F(OpModels, AConstantInputMustCarryTheModelsValue) {
    ASSERT_TRUE(Atc(R"([{"op": "ArgMaxV2",
      "input_desc": [{"format": "ND", "shape": [2, 3], "type": "float"},
                     {"format": "ND", "shape": [1], "type": "int32", "is_const": true,
                      "const_value": [1]}],
      "output_desc": [{"format": "ND", "shape": [2], "type": "int32"}]}])"));
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    OpTensor x(ACL_FLOAT, {2, 3}, std::vector<float>{1, 5, 2, 9, 0, 3});
    int32_t axis = 1;
    OpTensor dim(ACL_INT32, {1}, std::vector<int32_t>{1});
    ASSERT_EQ(aclSetTensorConst(dim.desc(), &axis, sizeof axis), ACL_SUCCESS);
    OpTensor y(ACL_INT32, {2}, 2, 4);
    ASSERT_EQ(ExecuteV2("ArgMaxV2", {&x, &dim}, {&y}), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(y.Read<int32_t>(), (std::vector<int32_t>{1, 0}));
    axis = 0;
    OpTensor dim0(ACL_INT32, {1}, std::vector<int32_t>{0});
    ASSERT_EQ(aclSetTensorConst(dim0.desc(), &axis, sizeof axis), ACL_SUCCESS);
    OpTensor y0(ACL_INT32, {2}, 2, 4);
    EXPECT_EQ(ExecuteV2("ArgMaxV2", {&x, &dim0}, {&y0}), ACL_ERROR_OP_NOT_FOUND);
}

TEST_F(OpModels, AHandleRunsOnNewBuffersEachTime) {
    ASSERT_TRUE(Atc(kAdd));
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    OpTensor x1(ACL_FLOAT, {2, 3}, 6, 4), x2(ACL_FLOAT, {2, 3}, 6, 4), y(ACL_FLOAT, {2, 3}, 6, 4);
    OpArrays in({&x1, &x2}), out({&y});
    aclopHandle* handle = nullptr;
    ASSERT_EQ(aclopCreateHandle("Add", 2, in.d(), 1, out.d(), nullptr, &handle), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_NE(handle, nullptr);
    for (float v : {1.0f, 5.0f}) {
        OpTensor a(ACL_FLOAT, {2, 3}, std::vector<float>(6, v));
        OpTensor b(ACL_FLOAT, {2, 3}, std::vector<float>(6, 1.0f));
        OpTensor c(ACL_FLOAT, {2, 3}, 6, 4);
        const aclDataBuffer* inputs[] = {a.buffer(), b.buffer()};
        aclDataBuffer* outputs[] = {c.buffer()};
        ASSERT_EQ(aclopExecWithHandle(handle, 2, inputs, 1, outputs, nullptr), ACL_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
        EXPECT_EQ(c.Read<float>(), std::vector<float>(6, v + 1.0f));
    }
    aclopDestroyHandle(handle);
}

TEST_F(OpModels, AHandleChecksItsBufferCounts) {
    ASSERT_TRUE(Atc(kAdd));
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    OpTensor x1(ACL_FLOAT, {2, 3}, 6, 4), x2(ACL_FLOAT, {2, 3}, 6, 4), y(ACL_FLOAT, {2, 3}, 6, 4);
    OpArrays in({&x1, &x2}), out({&y});
    aclopHandle* handle = nullptr;
    ASSERT_EQ(aclopCreateHandle("Add", 2, in.d(), 1, out.d(), nullptr, &handle), ACL_SUCCESS);
    const aclDataBuffer* one[] = {x1.buffer()};
    aclDataBuffer* outputs[] = {y.buffer()};
    EXPECT_EQ(aclopExecWithHandle(handle, 1, one, 1, outputs, nullptr),
              ACL_ERROR_OP_INPUT_NOT_MATCH);
    const aclDataBuffer* two[] = {x1.buffer(), x2.buffer()};
    EXPECT_EQ(aclopExecWithHandle(handle, 2, two, 0, nullptr, nullptr),
              ACL_ERROR_OP_OUTPUT_NOT_MATCH);
    aclopDestroyHandle(handle);
    EXPECT_EQ(aclopExecWithHandle(handle, 2, two, 1, outputs, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(OpModels, AHandleNeedsAModel) {
    OpTensor x1(ACL_FLOAT, {2}, 2, 4), x2(ACL_FLOAT, {2}, 2, 4), y(ACL_FLOAT, {2}, 2, 4);
    OpArrays in({&x1, &x2}), out({&y});
    aclopHandle* handle = nullptr;
    EXPECT_EQ(aclopCreateHandle("Add", 2, in.d(), 1, out.d(), nullptr, &handle),
              ACL_ERROR_OP_NOT_FOUND);
    EXPECT_EQ(handle, nullptr);
}

TEST_F(OpModels, ACastHandleConvertsRepeatedly) {
    ASSERT_TRUE(Atc(kCast));
    ASSERT_EQ(aclopSetModelDir(dir_.path().c_str()), ACL_SUCCESS);
    OpTensor src(ACL_FLOAT, {2}, std::vector<float>{0.25f, 8.0f}), dst(ACL_FLOAT16, {2}, 2, 2);
    aclopHandle* handle = nullptr;
    ASSERT_EQ(aclopCreateHandleForCast(src.desc(), dst.desc(), 0, &handle), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    const aclDataBuffer* inputs[] = {src.buffer()};
    aclDataBuffer* outputs[] = {dst.buffer()};
    ASSERT_EQ(aclopExecWithHandle(handle, 1, inputs, 1, outputs, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const auto halves = dst.Read<aclFloat16>();
    EXPECT_EQ(aclFloat16ToFloat(halves[0]), 0.25f);
    EXPECT_EQ(aclFloat16ToFloat(halves[1]), 8.0f);
    aclopDestroyHandle(handle);
}

TEST_F(OpModels, InferShapeBroadcastsAndReadsHostValues) {
    OpTensor x1(ACL_FLOAT, {4, 1, 3}, 12, 4), x2(ACL_FLOAT, {2, 1}, 2, 4);
    OpTensor y(ACL_FLOAT, {}, 0, 4);
    OpArrays in({&x1, &x2}), out({&y});
    ASSERT_EQ(aclopInferShape("Add", 2, in.d(), in.b(), 1, out.d(), nullptr), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclGetTensorDescNumDims(y.desc()), 3u);
    int64_t dims[3] = {};
    for (size_t i = 0; i < 3; ++i)
        ASSERT_EQ(aclGetTensorDescDimV2(y.desc(), i, &dims[i]), ACL_SUCCESS);
    EXPECT_EQ(std::vector<int64_t>(dims, dims + 3), (std::vector<int64_t>{4, 2, 3}));
    // Transpose's perm is read from the input buffer (host memory).
    const std::vector<int32_t> perm_values = {1, 0};
    aclTensorDesc* perm =
        aclCreateTensorDesc(ACL_INT32, 1, std::vector<int64_t>{2}.data(), ACL_FORMAT_ND);
    aclDataBuffer* perm_buffer = aclCreateDataBuffer(const_cast<int32_t*>(perm_values.data()), 8);
    OpTensor x(ACL_FLOAT, {5, 7}, 35, 4);
    aclTensorDesc* tin[] = {x.desc(), perm};
    aclDataBuffer* tbuf[] = {x.buffer(), perm_buffer};
    aclTensorDesc* tout[] = {y.desc()};
    ASSERT_EQ(aclopInferShape("Transpose", 2, tin, tbuf, 1, tout, nullptr), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    int64_t d0 = 0;
    ASSERT_EQ(aclGetTensorDescDimV2(y.desc(), 0, &d0), ACL_SUCCESS);
    EXPECT_EQ(d0, 7);
    aclDestroyTensorDesc(perm);
    aclDestroyDataBuffer(perm_buffer);
}

TEST_F(OpModels, InferShapeOfDynamicInputsIsUnknownRank) {
    OpTensor x1(ACL_FLOAT, {2}, 2, 4), x2(ACL_FLOAT, {2}, 2, 4), y(ACL_FLOAT, {2}, 2, 4);
    const int64_t dynamic[] = {-1};
    ASSERT_EQ(aclSetTensorShape(x1.desc(), 1, dynamic), ACL_SUCCESS);
    OpArrays in({&x1, &x2}), out({&y});
    ASSERT_EQ(aclopInferShape("Add", 2, in.d(), in.b(), 1, out.d(), nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclGetTensorDescNumDims(y.desc()), ACL_UNKNOWN_RANK);
}

TEST_F(OpModels, UpdateParamsPlansAKnownType) {
    OpTensor x(ACL_FLOAT, {4}, 4, 4), y(ACL_FLOAT, {4}, 4, 4);
    OpArrays in({&x}), out({&y});
    EXPECT_EQ(aclopUpdateParams("Relu", 1, in.d(), 1, out.d(), nullptr), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(aclopUpdateParams("Unheard", 1, in.d(), 1, out.d(), nullptr), ACL_ERROR_OP_NOT_FOUND);
}

TEST_F(OpModels, SetMaxOpQueueNumTakesAPositiveCount) {
    EXPECT_EQ(aclopSetMaxOpQueueNum(1), ACL_SUCCESS);
    // With room for one plan, alternating operators still run.
    for (const char* type : {"Add", "Mul", "Add"}) {
        OpTensor x1(ACL_FLOAT, {2}, std::vector<float>{2, 3}),
            x2(ACL_FLOAT, {2}, std::vector<float>{4, 5});
        OpTensor y(ACL_FLOAT, {2}, 2, 4);
        ASSERT_EQ(CompileAndRun(type, {&x1, &x2}, {&y}), ACL_SUCCESS) << type;
    }
    EXPECT_EQ(aclopSetMaxOpQueueNum(0), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
